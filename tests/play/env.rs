//! The RL environment's encodings: action mapping, masks and observations, for every preset
//! (its episodes: env_episodes.rs).

use bao_zero::env::observation::observe;
use bao_zero::env::{
    ACTIONS, Agent, Env, EnvConfig, EnvError, Features, OBS_LEN, RandomAgent, action_text,
    action_to_move, encode, legal_mask_bits, move_to_action, parse_action,
};
use bao_zero::notation::move_text;
use bao_zero::rules::{Game, MoveKind, MoveList, Outcome, Pit, Position, Side, Stage, Variant};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// A long enough episode limit for tests that walk whole games.
pub(crate) const LONG: EnvConfig = EnvConfig {
    max_plies: 100_000,
    opening_random_plies: 0,
};

/// Positions from random games of a preset, the final (ended) positions included.
pub(crate) fn sample_positions(
    v: Variant,
    games: usize,
    max_plies: usize,
    seed: u64,
) -> Vec<Position> {
    let rules = Game::from(v);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list = MoveList::new();
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(&rules);
        for _ in 0..max_plies {
            out.push(pos);
            pos.legal_moves(&rules, &mut list);
            if list.is_empty() {
                break;
            }
            pos = list.children()[rng.random_range(0..list.len())];
        }
    }
    out
}

/// The same position with the two players' fields exchanged.
fn mirror(p: &Position) -> Position {
    let (s, n) = (Side::South, Side::North);
    let q = Position::from_parts(
        [*p.pits(n), *p.pits(s)],
        [p.store(n), p.store(s)],
        [p.house_owned(n), p.house_owned(s)],
        p.side_to_move().opponent(),
        p.ply(),
        p.blocked(),
        p.target(),
        p.hand(),
        p.opening_phase(),
        p.mtaji_captured(),
    );
    let mut setup = q.to_setup();
    setup.over = p.result().map(|o| Outcome {
        winner: o.winner.map(Side::opponent),
        ..o
    });
    Position::from_setup_unchecked(setup)
}

/// Everything about a position that decides its future, from the mover's point of view.
type Key = (
    [u8; 16],
    [u8; 16],
    [u8; 4],
    [bool; 2],
    Option<Pit>,
    Option<Pit>,
    bool,
    bool,
    Option<Option<bool>>,
);

fn key(p: &Position) -> Key {
    let me = p.side_to_move();
    let opp = me.opponent();
    (
        *p.pits(me),
        *p.pits(opp),
        [p.store(me), p.store(opp), p.hand(), p.opening_phase()],
        [p.house_owned(me), p.house_owned(opp)],
        p.blocked(),
        p.target(),
        p.mtaji_captured(),
        p.ply() == 0,
        p.result().map(|o| o.winner.map(|w| w == me)),
    )
}

pub(crate) fn bits_of(obs: &[f32]) -> Vec<u32> {
    obs.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn the_mask_is_the_engine_legal_list_for_every_preset() {
    let mut list = MoveList::new();
    for v in Variant::ALL {
        let rules = Game::from(v);
        let mut env = Env::new(rules.clone(), LONG).unwrap();
        let mut checked = 0;
        for pos in sample_positions(v, 12, 400, 11) {
            env.set_state(pos).unwrap();
            pos.legal_moves(&rules, &mut list);
            let bits = env.legal_mask_bits();
            assert_eq!(bits, legal_mask_bits(&pos, &list), "{v} {pos}");
            assert_eq!(
                bits.count_ones() as usize,
                list.len(),
                "{v}: two moves share an action at {pos}"
            );
            let bools = env.legal_mask();
            for (a, &flag) in bools.iter().enumerate() {
                let legal = bits >> a & 1 == 1;
                assert_eq!(flag, legal);
                match action_to_move(&pos, a) {
                    Ok(mv) => assert_eq!(list.moves().contains(&mv), legal, "{v} {pos} action {a}"),
                    Err(e) => {
                        assert!(!legal, "{v} {pos}: legal action {a} names no move: {e}");
                        assert_eq!(pos.stage(), Stage::Opening, "{e}");
                    }
                }
            }
            assert_eq!(
                env.legal_actions().len(),
                list.len(),
                "{v} {pos}: legal_actions"
            );
            checked += 1;
        }
        assert!(checked > 100, "{v}: only {checked} positions");
    }
}

#[test]
fn actions_moves_and_notation_round_trip() {
    let mut list = MoveList::new();
    for v in Variant::ALL {
        let rules = Game::from(v);
        for pos in sample_positions(v, 4, 300, 5) {
            let side = pos.side_to_move();
            pos.legal_moves(&rules, &mut list);
            for &mv in list.moves() {
                let a = move_to_action(&pos, mv);
                assert!(a < ACTIONS);
                assert_eq!(action_to_move(&pos, a).unwrap(), mv, "{v} {pos}");
                let text = action_text(&pos, a).unwrap();
                assert_eq!(text, move_text(mv, side));
                assert_eq!(
                    parse_action(&rules, &pos, &text).unwrap(),
                    a,
                    "{v} {pos} {text}"
                );
            }
            // Every id that names a move maps back to itself.
            let mut named = 0;
            for a in 0..ACTIONS {
                if let Ok(mv) = action_to_move(&pos, a) {
                    assert_eq!(move_to_action(&pos, mv), a);
                    named += 1;
                }
            }
            let expected = if pos.stage() == Stage::Opening {
                16 + 8
            } else {
                64
            };
            assert_eq!(named, expected, "{v} {pos}");
        }
    }
}

#[test]
fn opening_actions_are_placements_and_captures() {
    let rules = Game::from(Variant::MalawiAdvanced);
    let mut env = Env::new(rules, LONG).unwrap();
    env.reset(0);
    let mut agent = RandomAgent::new(4);
    let mut saw_capture_offer = false;
    while env.state().stage() == Stage::Opening {
        for (mv, _) in env.legal_moves().iter() {
            let a = move_to_action(env.state(), mv);
            match mv.kind {
                MoveKind::Place => assert_eq!(a, mv.pit.index() * 4),
                MoveKind::OpeningCapture => {
                    assert_eq!(a, mv.pit.index() * 4 + 1);
                    saw_capture_offer = true;
                }
                MoveKind::Sow => panic!("a sowing in the opening"),
            }
        }
        let a = agent.act(&env);
        let step = env.step(a).unwrap();
        let text = step.info.mv.to_string();
        assert!(text.starts_with('@') || text.starts_with('x'), "{text}");
    }
    assert!(saw_capture_offer);
    // Ids 2 and 3 name nothing in the opening: masked, and a typed error.
    env.reset(0);
    let err = env.step(2).unwrap_err();
    assert!(
        matches!(err, EnvError::IllegalAction { action: 2, .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("names no move in the opening stage"),
        "{err}"
    );
}

#[test]
fn the_observation_is_the_same_from_either_side() {
    let mut list = MoveList::new();
    let mut swapped = MoveList::new();
    for v in Variant::ALL {
        let rules = Game::from(v);
        let mut a = vec![0.0; OBS_LEN];
        let mut b = vec![0.0; OBS_LEN];
        for pos in sample_positions(v, 4, 300, 21) {
            let m = mirror(&pos);
            assert_ne!(m.side_to_move(), pos.side_to_move());
            assert_eq!(mirror(&m), pos);
            encode(&rules, &pos, &mut a);
            encode(&rules, &m, &mut b);
            assert_eq!(bits_of(&a), bits_of(&b), "{v}: {pos} and {m}");
            // The rules treat both players alike, so the masks agree too.
            pos.legal_moves(&rules, &mut list);
            m.legal_moves(&rules, &mut swapped);
            assert_eq!(
                legal_mask_bits(&pos, &list),
                legal_mask_bits(&m, &swapped),
                "{v}: {pos} and {m}"
            );
        }
    }
}

#[test]
fn different_positions_encode_differently() {
    for v in Variant::ALL {
        let rules = Game::from(v);
        let mut seen: HashMap<Vec<u32>, (Key, Position)> = HashMap::new();
        for pos in sample_positions(v, 20, 400, 33) {
            let enc = bits_of(&observe(&rules, &pos));
            if let Some((k, other)) = seen.get(&enc) {
                assert_eq!(*k, key(&pos), "{v}: {pos} and {other} encode the same");
            } else {
                seen.insert(enc, (key(&pos), pos));
            }
        }
        assert!(
            seen.len() > 200,
            "{v}: only {} distinct positions",
            seen.len()
        );
    }
}

/// The fields of `Position::from_parts` after the side to move: pits, stores, houses, ply,
/// blocked, target, hand, opening phase, mtaji captured.
type Parts = (
    [[u8; 16]; 2],
    [u8; 2],
    [bool; 2],
    u16,
    Option<Pit>,
    Option<Pit>,
    u8,
    u8,
    bool,
);

/// Single-field changes of a position, each of which matters to the game.
fn mutations(p: &Position) -> Vec<Position> {
    let parts = |f: &dyn Fn(&mut Parts)| {
        let mut x = (
            [*p.pits(Side::South), *p.pits(Side::North)],
            [p.store(Side::South), p.store(Side::North)],
            [p.house_owned(Side::South), p.house_owned(Side::North)],
            p.ply(),
            p.blocked(),
            p.target(),
            p.hand(),
            p.opening_phase(),
            p.mtaji_captured(),
        );
        f(&mut x);
        Position::from_parts(
            x.0,
            x.1,
            x.2,
            p.side_to_move(),
            x.3,
            x.4,
            x.5,
            x.6,
            x.7,
            x.8,
        )
    };
    let mut out = Vec::new();
    for side in 0..2 {
        for i in 0..16 {
            out.push(parts(&|x| x.0[side][i] = x.0[side][i].wrapping_add(1)));
        }
        out.push(parts(&|x| x.1[side] = x.1[side].wrapping_add(1)));
        out.push(parts(&|x| x.2[side] = !x.2[side]));
    }
    let pits: Vec<Option<Pit>> = std::iter::once(None).chain((0..8).map(Pit::new)).collect();
    for &pit in &pits {
        if pit != p.blocked() {
            out.push(parts(&|x| x.4 = pit));
        }
        if pit != p.target() {
            out.push(parts(&|x| x.5 = pit));
        }
    }
    out.push(parts(&|x| x.6 = x.6.wrapping_add(1)));
    for phase in (0..4).filter(|&k| k != p.opening_phase()) {
        out.push(parts(&|x| x.7 = phase));
    }
    out.push(parts(&|x| x.8 = !x.8));
    out.push(parts(&|x| x.3 = if x.3 == 0 { 1 } else { 0 }));
    for who in ["S", "N", "draw"] {
        let setup = format!("{p} over={who}/never-ending-move").parse().unwrap();
        out.push(Position::from_setup_unchecked(setup));
    }
    out
}

#[test]
fn every_single_change_shows_in_the_observation() {
    for v in [
        Variant::Kiswahili,
        Variant::MalawiAdvanced,
        Variant::Kimasai,
        Variant::Hus,
    ] {
        let rules = Game::from(v);
        for pos in sample_positions(v, 2, 120, 8).into_iter().step_by(7) {
            if pos.result().is_some() {
                continue;
            }
            let base = bits_of(&observe(&rules, &pos));
            for m in mutations(&pos) {
                assert_ne!(key(&m), key(&pos), "mutation did not change {pos}");
                assert_ne!(bits_of(&observe(&rules, &m)), base, "{v}: {pos} vs {m}");
            }
        }
    }
}

#[test]
fn incremental_observation_updates_equal_full_encodings() {
    // `Features::update` (what a VecEnv does every step) must leave exactly what a full encode
    // writes: along whole games of every preset (the ended positions included), and between
    // unrelated positions and single-feature mutations.
    for v in Variant::ALL {
        let rules = Game::from(v);
        let positions = sample_positions(v, 3, 400, 21);
        let mut buffer = observe(&rules, &positions[0]);
        let mut shown = Features::of(&positions[0]);
        for (k, pos) in positions.iter().enumerate() {
            let now = Features::of(pos);
            now.update(&shown, &mut buffer);
            shown = now;
            assert!(
                bits_of(&buffer) == bits_of(&observe(&rules, pos)),
                "{v}: position {k}: {pos}"
            );
        }
        for pos in positions.iter().step_by(11) {
            for m in mutations(pos).iter().chain(&positions[..3]) {
                let mut buffer = observe(&rules, pos);
                Features::of(m).update(&Features::of(pos), &mut buffer);
                assert!(
                    bits_of(&buffer) == bits_of(&observe(&rules, m)),
                    "{v}: {pos} -> {m}"
                );
            }
        }
    }
}
