//! Engine-wide properties: random play of every preset keeps its invariants, notation and the
//! position format round-trip, perft regression numbers.

use bao_rules::notation::{MoveSpec, MoveText, Record, parse_and_play};
use bao_rules::{MoveList, Position, Rules, Setup, Side, Variant, perft::perft};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays `games` random games of `rules` and checks every invariant at every ply.
fn random_games(variant: Variant, games: usize, seed: u64) {
    random_play(variant, seed, |g, _| g >= games);
}

/// Plays random games of `variant` until `done(games, plies)` says so, checking every invariant
/// at every ply; returns the games and plies played.
fn random_play(variant: Variant, seed: u64, done: impl Fn(usize, u64) -> bool) -> (usize, u64) {
    let rules = variant.rules();
    let total = rules.total_seeds();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list = MoveList::new();
    let start = Position::start(&rules);
    let mut plies = 0u64;
    let mut g = 0;
    while !done(g, plies) {
        let mut pos = start;
        let mut moves = Vec::new();
        loop {
            assert_eq!(
                pos.total_seeds(),
                total,
                "{variant} game {g}: seeds not conserved at {pos}"
            );
            // The position format round-trips exactly.
            let text = pos.to_string();
            let setup: Setup = text.parse().unwrap();
            assert_eq!(setup, pos.to_setup(), "{variant}: position text {text}");
            if pos.result().is_none() {
                assert_eq!(Position::from_text(&text, &rules).unwrap(), pos);
            }
            pos.legal_moves(&rules, &mut list);
            if pos.outcome_given(&list).is_some() {
                break;
            }
            assert!(moves.len() < 2000, "{variant} game {g} does not end: {pos}");
            let side = pos.side_to_move();
            for (mv, child) in list.iter() {
                // Every legal move prints canonically, reads back as itself, and plays the same.
                let text = MoveText { mv, side }.to_string();
                let spec = MoveSpec::parse(&text, side).unwrap();
                assert_eq!(
                    spec.resolve(&text, &pos, &list).unwrap(),
                    mv,
                    "{variant}: {text}"
                );
                let (_, again) = parse_and_play(&rules, &pos, &text).unwrap();
                assert_eq!(&again, child);
            }
            let i = rng.random_range(0..list.len());
            moves.push(list.moves()[i]);
            pos = list.children()[i];
        }
        // The game record round-trips through text.
        if g % 10 == 0 {
            let rec = Record::from_game(&rules, &start, &moves).unwrap();
            let back: Record = rec.to_string().parse().unwrap();
            let (replayed, positions) = back.replay(&rules, &start).unwrap();
            assert_eq!(replayed, moves);
            assert_eq!(*positions.last().unwrap(), pos);
        }
        plies += moves.len() as u64;
        g += 1;
    }
    (g, plies)
}

#[test]
fn random_play_keeps_the_invariants_of_every_preset() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        random_games(v, 300, i as u64);
    }
}

#[test]
fn random_play_of_the_eight_games_in_bulk() {
    // Thousands of games of the eight named games (millions in scripts/soak.sh).
    for (i, v) in Variant::ALL[..8].iter().enumerate() {
        random_games(*v, 1000, 100 + i as u64);
    }
}

#[test]
#[ignore = "long soak: run with --ignored, or scripts/soak.sh"]
fn soak_random_play_many_plies() {
    // BAO_SOAK_PLIES random plies of every preset (10 million by default), every invariant
    // checked at every ply.
    let plies: u64 = std::env::var("BAO_SOAK_PLIES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000);
    // BAO_SOAK_VARIANTS=hus,kimasai soaks only those presets (to split a soak over processes).
    let only: Option<Vec<String>> = std::env::var("BAO_SOAK_VARIANTS")
        .ok()
        .map(|s| s.split(',').map(|v| v.trim().to_string()).collect());
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        if only
            .as_ref()
            .is_some_and(|o| !o.iter().any(|n| n == v.name()))
        {
            continue;
        }
        let t = std::time::Instant::now();
        let (games, played) = random_play(v, 1000 + i as u64, |_, p| p >= plies);
        println!(
            "soak {:<24} {played:>10} plies in {games:>8} games ({:.1} a game), {:.1} s, no invariant broken",
            v.name(),
            played as f64 / games as f64,
            t.elapsed().as_secs_f64()
        );
    }
}

#[test]
fn perft_of_the_kiswahili_start() {
    let rules = Variant::Kiswahili.rules();
    let start = Position::start(&rules);
    // By hand: South may only takata from A6 or A7 (the house holds 6 and is not alone), either
    // way: 4 moves. After A6< (A3, A4 filled) North must capture with a5 or a6 (2 kichwa each);
    // after A7< only a5 captures (2); after A6> or A7> nothing faces North: a6, a7 either way (4).
    // 4 + 4 + 2 + 4 = 14.
    assert_eq!(perft(&rules, &start, 1), 4);
    assert_eq!(perft(&rules, &start, 2), 14);
    // Regression values found by the engine (checked against the hand counts above).
    assert_eq!(perft(&rules, &start, 3), 38);
    assert_eq!(perft(&rules, &start, 4), 124);
    assert_eq!(perft(&rules, &start, 5), 405);
}

#[test]
fn bad_positions_are_rejected_with_a_reason() {
    let rules: Rules = Variant::Kiswahili.rules();
    let bad = [
        ("", "at least 7 fields"),
        ("0/0/0/0 S 0,0 - - - 0", "expected 8"),
        (
            "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 X 22,22 Hh - - 0",
            "S or N",
        ),
        (
            "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,x S 22,22 Hh - - 0",
            "not a seed count",
        ),
        (
            "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22,22 Hh B3 - 0",
            "blocked pit",
        ),
        (
            "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22,22 Hh - - 0 foo=1",
            "unknown extra",
        ),
    ];
    for (text, why) in bad {
        let err = text.parse::<Setup>().unwrap_err().to_string();
        assert!(err.contains(why), "{text:?}: {err}");
    }
    let wrong_total = Position::from_text(
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 21,22 Hh - - 0",
        &rules,
    )
    .unwrap_err();
    assert!(
        wrong_total.to_string().contains("63 seeds"),
        "{wrong_total}"
    );
}

#[test]
fn bad_moves_are_errors_that_name_the_problem() {
    let rules = Variant::Kiswahili.rules();
    let start = Position::start(&rules);
    let err = |t: &str| parse_and_play(&rules, &start, t).unwrap_err().to_string();
    assert!(err("A9<").contains("1 to 8"));
    assert!(err("a6<").contains("North"));
    assert!(err("Q").contains("expected a pit"));
    assert!(err("A6<<").contains("unexpected"));
    // Illegal: the house may not start a takata here; the message lists the legal moves.
    let e = err("A5<");
    assert!(
        e.contains("illegal") && e.contains("A6< A6> A7< A7>"),
        "{e}"
    );
    // Row omitted in the planting stage and markers accepted.
    assert!(parse_and_play(&rules, &start, "6<*").is_ok());
    assert!(err("6").contains("ambiguous"));
    assert_eq!(Side::South.opponent(), Side::North);
}
