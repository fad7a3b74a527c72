//! Never-ending moves as the rules define them (RULES.md): a move whose sowings pass N seeds in
//! all (`max_sown`, 100,000 in every preset; `lap_limit = L` makes it 16 L) is never-ending at
//! the end of the sowing that passed N, and a move that is played on stops right there. Also
//! Bao la Kiswahili's named rule tests of rule 1.5.6 and the options of `infinite_moves`.

mod common;

use bao_rules::notation::MoveError;
use bao_rules::variant::InfiniteMoves;
use bao_rules::{EndReason, Side, StopReason, Variant};
use common::mtaji::TAKASIA_EXAMPLE;
use common::*;

/// Malawi Bao advanced: 56 moves that reach a position where South's takata A8< runs into a loop
/// of 2.6 million relays.
const LONG_LOOP_GAME: &str = "@B6 @B1 @A1 @A2 @B2 @b5 @b1 @b5 @b4 @a6 A2> a6< A4< a6< A6> a4> \
     A4> a8> A6> a5> A6< a6> A2< a4> A3> a4> A3> a7> A3< a8> A3< a2< A8> a2< A1< a6> A4> a4> A2< \
     a6> A5> a3< A4> a6> A5> a1< A7> a6< A7> b6> A1> b4> A8< b8> B2< b7>";

/// Malawi's never-ending move sleeps where the sowing that passed 100,000 seeds ended: A8< leaves
/// South's rows at A 1,0,5,4,1,2,2,3 and B 11,1,0,1,0,4,0,4, North's untouched.
#[test]
fn never_ending_move_stops_where_the_sowing_that_passed_n_ended() {
    let r = Variant::MalawiAdvanced.rules();
    assert_eq!(r.never_ending_bound(), 100_000);
    let moves: Vec<&str> = LONG_LOOP_GAME.split_whitespace().collect();
    assert_eq!(moves.len(), 56);
    let p = play_all(&r, &start(Variant::MalawiAdvanced), &moves);
    assert_eq!(p.side_to_move(), Side::South);
    assert_eq!(
        p.to_string(),
        "1,0,1,3,0,1,3,1/2,12,1,0,0,0,0,0/1,0,1,4,11,6,2,2/0,1,0,1,4,5,0,1 S 0,0 - - - 56 \
         mtaji-captured=1"
    );
    assert_eq!(
        after(&r, &p, "A8<"),
        "1,0,1,3,0,1,3,1/2,12,1,0,0,0,0,0/1,0,5,4,1,2,2,3/11,1,0,1,0,4,0,4 N 0,0 - - - 57 \
         mtaji-captured=1"
    );
    assert_eq!(stop_reason(&r, &p, "A8<"), StopReason::NeverEnding);
}

/// The bound is part of the game: rule sets that differ only in `max_sown` or `lap_limit` are
/// different games; `lap_limit` replaces `max_sown` as N.
#[test]
fn rules_differing_in_the_bound_are_different_games() {
    let today = Variant::Kiswahili.rules();
    assert_eq!(today.max_sown, 100_000);
    let other = rules_with(Variant::Kiswahili, "max_sown = 100000000");
    assert_ne!(today, other);
    assert_eq!(other.never_ending_bound(), 100_000_000);
    let laps = rules_with(Variant::Kiswahili, "lap_limit = 12");
    assert_ne!(today, laps);
    assert_eq!(laps.never_ending_bound(), 192);
    let many_laps = rules_with(Variant::Kiswahili, "lap_limit = 10000");
    assert_eq!(many_laps.never_ending_bound(), 160_000);
}

/// In seed 000's takasia example ([`TAKASIA_EXAMPLE`], North to move) a5< sows 10, 3, 11, 6, 2,
/// 2, 4, 5, 4 and 3 seeds (cumulated 10, 13, 24, 30, 32, 34, 38, 43, 47, 50), relaying in b6, a8,
/// b4, a7, a5, a3, b2, b7, a6 and ending in the empty a3. Worked by hand on North's ring (a1..a8 | b8..b1), from
/// 1 0 1 2 10 0 0 10 | 0 1 2 1 4 8 2 2:
/// - after the sixth sowing (34 sown; a3 = 4 would relay): 3 2 4 5 0 2 0 1 | 2 3 1 3 0 10 4 4;
/// - at the end (50 sown): 4 3 1 6 1 0 1 2 | 3 0 2 4 1 11 0 5.
const AFTER_SIXTH_SOWING: [u8; 16] = [3, 2, 4, 5, 0, 2, 0, 1, 2, 3, 1, 3, 0, 10, 4, 4];
const AT_THE_END: [u8; 16] = [4, 3, 1, 6, 1, 0, 1, 2, 3, 0, 2, 4, 1, 11, 0, 5];

/// The rules of Bao la Kiswahili for N = `n` with never-ending moves `illegal` or `stop`.
fn bound(n: u32, infinite_moves: &str) -> bao_rules::Rules {
    bounded(&format!("max_sown = {n}"), infinite_moves)
}

/// The same for N = 16 `laps` (the option `lap_limit`).
fn laps(laps: u32, infinite_moves: &str) -> bao_rules::Rules {
    bounded(&format!("lap_limit = {laps}"), infinite_moves)
}

/// The rules of Bao la Kiswahili with the bound option `bound` and `infinite_moves`.
fn bounded(bound: &str, infinite_moves: &str) -> bao_rules::Rules {
    rules_with(
        Variant::Kiswahili,
        &format!("{bound}\ninfinite_moves = \"{infinite_moves}\""),
    )
}

/// N = 49: a5< passes N with its last sowing (50), which would have ended the move anyway: the
/// move is never-ending all the same. Illegal: gone from the legal moves. Stopped: the board is
/// the move's last board, and the move ends as never-ending.
#[test]
fn a_move_that_passes_n_by_its_last_sowing_is_never_ending() {
    let illegal = bound(49, "illegal");
    let p = pos_for(&illegal, TAKASIA_EXAMPLE);
    assert_eq!(legal(&illegal, &p), s(&["a5>", "a8<", "a8>"]));
    let stop = bound(49, "stop");
    let c = play(&stop, &p, "a5<");
    assert_eq!(*c.pits(Side::North), AT_THE_END);
    assert_eq!(*c.pits(Side::South), *p.pits(Side::South));
    assert_eq!(c.result(), None);
    assert_eq!(stop_reason(&stop, &p, "a5<"), StopReason::NeverEnding);
}

/// N = 33: the sixth sowing ends in a3 at 34 seeds sown, where the move would relay: it is
/// never-ending there. Illegal: gone. Stopped: a3's 4 seeds are not lifted; nothing more happens.
#[test]
fn a_move_that_passes_n_at_a_relay_stops_before_lifting() {
    let illegal = bound(33, "illegal");
    let p = pos_for(&illegal, TAKASIA_EXAMPLE);
    assert_eq!(legal(&illegal, &p), s(&["a5>", "a8>"]));
    let stop = bound(33, "stop");
    let c = play(&stop, &p, "a5<");
    assert_eq!(*c.pits(Side::North), AFTER_SIXTH_SOWING);
    assert_eq!(*c.pits(Side::South), *p.pits(Side::South));
    assert_eq!(c.side_to_move(), Side::South);
    assert_eq!(stop_reason(&stop, &p, "a5<"), StopReason::NeverEnding);
    // One seed more of room and the same sowing no longer passes N (34 = N): the move goes on.
    let room = bound(34, "stop");
    assert_eq!(stop_reason(&room, &p, "a5<"), StopReason::NeverEnding);
    assert_ne!(
        *play(&room, &p, "a5<").pits(Side::North),
        AFTER_SIXTH_SOWING
    );
}

/// N = 50: a5< sows exactly 50 seeds, one short of passing N: an ordinary move under either
/// option, ending in the empty a3.
#[test]
fn a_move_one_seed_short_of_passing_n_is_ordinary() {
    for option in ["illegal", "stop"] {
        let r = bound(50, option);
        let p = pos_for(&r, TAKASIA_EXAMPLE);
        assert_eq!(legal(&r, &p), s(&["a5<", "a5>", "a8<", "a8>"]), "{option}");
        let c = play(&r, &p, "a5<");
        assert_eq!(*c.pits(Side::North), AT_THE_END, "{option}");
        assert_eq!(stop_reason(&r, &p, "a5<"), StopReason::EmptyPit, "{option}");
    }
}

/// The positions of issue-sized long moves decide at once now: their legal moves and perft to
/// depth 2 (each never-ending move counts to 100,000 seeds). A generous bound; the figures are in
/// `bao bench` and docs/RULES.md.
#[test]
fn long_moves_decide_within_milliseconds() {
    for (v, text) in KNOWN_LONG_LOOPS {
        let r = v.rules();
        let p = pos_for(&r, text);
        let started = std::time::Instant::now();
        let nodes = bao_rules::perft::perft(&r, &p, 2);
        let took = started.elapsed();
        assert!(nodes > 0);
        assert!(
            took < std::time::Duration::from_millis(500),
            "{v}: perft 2 took {took:?}"
        );
    }
}

/// Every legal move of `pos`, with the position it leads to.
fn children(r: &bao_rules::Rules, pos: &bao_rules::Position) -> Vec<String> {
    let mut list = bao_rules::MoveList::new();
    pos.legal_moves(r, &mut list);
    list.iter()
        .map(|(mv, child)| format!("{mv:?} {child}"))
        .collect()
}

/// Deep into a long move, plain relays go through a fast ring of the mover's 16 pits; it must
/// play every move exactly as the general engine does: the same legal moves, the same positions
/// after them, the same never-ending moves, in every preset, along random games and in the
/// positions with the longest loops known, under each thing a never-ending move may do.
#[test]
fn the_fast_ring_plays_long_moves_exactly_as_the_general_engine() {
    use bao_rules::{Position, Rules};
    let mut cases: Vec<(Rules, Position)> = Vec::new();
    let malawi = Variant::MalawiAdvanced.rules();
    let moves: Vec<&str> = LONG_LOOP_GAME.split_whitespace().collect();
    cases.push((
        malawi.clone(),
        play_all(&malawi, &start(Variant::MalawiAdvanced), &moves),
    ));
    for (v, text) in KNOWN_LONG_LOOPS {
        for option in ["illegal", "stop", "mover-loses", "void"] {
            let r = rules_with(v, &format!("infinite_moves = \"{option}\""));
            cases.push((r.clone(), pos_for(&r, text)));
        }
    }
    let mut pick = RandomPick::new(7);
    for v in Variant::ALL {
        let r = v.rules();
        for _ in 0..6 {
            let mut p = Position::start(&r);
            let mut list = bao_rules::MoveList::new();
            for _ in 0..200 {
                p.legal_moves(&r, &mut list);
                if list.is_empty() || p.outcome(&r).is_some() {
                    break;
                }
                cases.push((r.clone(), p));
                p = list.children()[pick.index(list.len())];
            }
        }
    }
    let fast: Vec<Vec<String>> = cases.iter().map(|(r, p)| children(r, p)).collect();
    let general = std::thread::spawn(move || {
        bao_rules::testing::without_ring(|| {
            cases
                .iter()
                .map(|(r, p)| children(r, p))
                .collect::<Vec<_>>()
        })
    });
    let general = general.join().unwrap();
    assert_eq!(fast.len(), general.len());
    for (f, g) in fast.iter().zip(&general) {
        assert_eq!(f, g);
    }
}

/// Positions reached in games with moves that never end: Hus (found while solving the openings
/// of a rating match), Malawi Bao basic and Bao la Kiswahili (moves that sow over 10^9 seeds
/// without repeating a state, see docs/RULES.md).
const KNOWN_LONG_LOOPS: [(Variant, &str); 4] = [
    (
        Variant::Hus,
        "0,0,0,0,0,0,2,0/0,1,1,0,0,0,0,0/3,1,0,2,1,0,7,2/2,14,2,1,3,5,0,1 S 0,0 - - - 14 \
         mtaji-captured=1",
    ),
    (
        Variant::Hus,
        "1,1,2,0,0,1,0,0/0,0,2,0,0,0,0,0/1,3,6,5,1,2,1,4/2,5,2,1,2,1,2,3 S 0,0 - - - 16 \
         mtaji-captured=1",
    ),
    (
        Variant::MalawiBasic,
        "5,4,0,8,1,4,5,0/2,12,2,1,8,1,4,1/0,0,0,1,0,0,0,0/1,0,1,2,1,0,0,0 N 0,0 - - - 25 \
         mtaji-captured=1",
    ),
    (
        Variant::Kiswahili,
        "5,2,7,2,3,2,5,2/2,1,2,6,11,5,0,1/0,0,0,1,0,0,0,0/2,1,1,0,0,1,1,1 N 0,0 - - - 59 \
         mtaji-captured=1",
    ),
];

// ---------------------------------------------------------------------------------------------
// Bao la Kiswahili, rule 1.5.6, and the options of seed 000
// ---------------------------------------------------------------------------------------------

/// A Kiswahili position (found by random play) where North's only front pit with 2 seeds is a7:
/// a7> never ends (its relays repeat a state), a7< ends at once (a6 = 2, a5 = 1). North has no
/// capture. The cycle was confirmed with an independent simulation of the relay sowing.
const NEVER_ENDING: &str =
    "4,5,0,3,0,3,0,3/0,2,1,0,1,0,1,0/0,1,7,8,9,0,1,0/6,2,1,5,0,1,0,0 N 0,0 - - - 73";

/// Rule 1.5.6: a never-ending move is illegal (the default).
#[test]
fn rule_1_5_6_never_ending_move_is_illegal() {
    let r = kiswahili();
    let p = pos_for(&r, NEVER_ENDING);
    assert_eq!(legal(&r, &p), s(&["a7<"]));
    assert!(matches!(
        try_play(&r, &p, "a7>"),
        Err(MoveError::Illegal { .. })
    ));
    // a7<: a6 = 2, a5 = 1 (empty): stop. South then has no capture, and North threatens two pits
    // (a6< ends in a4 = 2 facing A5; b7> ends in a5 = 2 facing A4): no takasia.
    assert_eq!(
        after(&r, &p, "a7<"),
        "4,5,0,3,0,3,0,3/0,0,2,1,1,0,1,0/0,1,7,8,9,0,1,0/6,2,1,5,0,1,0,0 S 0,0 - - - 74"
    );
}

/// Rule 1.5.6: "if no finite move is available, the game is lost by the player at move".
#[test]
fn rule_1_5_6_player_with_only_never_ending_moves_loses() {
    let r = kiswahili();
    // South's only front pit with 2 or more is A1 = 11; both A1< and A1> relay for ever (found by a
    // search with an independent simulation). No capture: A1< ends in A6 = 2 facing a3 = 0, B2<
    // and B3< end in A1 facing a8 = 0, the rest in the back row.
    let p = pos_for(
        &r,
        "1,2,2,2,2,2,2,2/0,4,4,4,4,0,4,4/11,1,0,1,0,1,0,1/1,2,3,0,3,0,1,0 S 0,0 - - - 50",
    );
    assert!(legal(&r, &p).is_empty());
    assert_eq!(outcome(&r, &p), won(Side::North, EndReason::NoMoves));
    // Under `mover-loses` both moves are playable and lose.
    let ml = rules_with(Variant::Kiswahili, "infinite_moves = \"mover-loses\"");
    assert_eq!(legal(&ml, &p), s(&["A1<", "A1>"]));
}

/// Option `infinite_moves = mover-loses` (seed 000): the never-ending move may be played and loses.
#[test]
fn option_infinite_moves_mover_loses() {
    let r = rules_with(Variant::Kiswahili, "infinite_moves = \"mover-loses\"");
    assert_eq!(r.infinite_moves, InfiniteMoves::MoverLoses);
    let p = pos_for(&r, NEVER_ENDING);
    assert_eq!(legal(&r, &p), s(&["a7<", "a7>"]));
    let c = play(&r, &p, "a7>");
    assert_eq!(
        outcome(&r, &c),
        won(Side::South, EndReason::NeverEndingMove)
    );
}

/// Option `infinite_moves = void` (seed 000): the never-ending move may be played; the game is void.
#[test]
fn option_infinite_moves_void() {
    let r = rules_with(Variant::Kiswahili, "infinite_moves = \"void\"");
    let p = pos_for(&r, NEVER_ENDING);
    let c = play(&r, &p, "a7>");
    assert_eq!(winner(&r, &c), Some(None));
    assert_eq!(c.result().unwrap().reason, EndReason::NeverEndingMove);
    assert!(c.to_string().ends_with(" over=draw/never-ending-move"));
}

/// Option `infinite_moves = stop` (seed 000): the player announces the move never ends and stops at
/// the end of a relay; the game goes on.
#[test]
fn option_infinite_moves_stop() {
    let r = rules_with(Variant::Kiswahili, "infinite_moves = \"stop\"");
    let p = pos_for(&r, NEVER_ENDING);
    assert_eq!(legal(&r, &p), s(&["a7<", "a7>"]));
    let c = play(&r, &p, "a7>");
    assert_eq!(c.result(), None);
    assert_eq!(c.side_to_move(), Side::South);
    assert_eq!(stop_reason(&r, &p, "a7>"), StopReason::NeverEnding);
}

/// A never-ending move that is played (`infinite_moves = stop`, and likewise `mover-loses` and
/// `void`) ends where the sowing that passed N = 100,000 seeds ended. Checked against a plain
/// simulation of North's takata a7>, which relays around its own 16 pits for ever (a takata
/// captures nothing), counting the seeds of each sowing.
#[test]
fn never_ending_move_ends_where_the_sowing_that_passed_n_ended() {
    use bao_rules::{Dir, Pit, Row};
    let p = pos_for(&kiswahili(), NEVER_ENDING);
    let start = Pit::at(Row::Front, 7).unwrap();
    let rotation = start.rotation(Dir::Right);
    let mut ring = *p.pits(Side::North);
    let (mut pit, mut sown, mut relays) = (start, 0u64, 0);
    while sown <= 100_000 {
        let n = std::mem::take(&mut ring[pit.index()]);
        for _ in 0..n {
            pit = pit.step(rotation);
            ring[pit.index()] += 1;
        }
        sown += u64::from(n);
        assert!(ring[pit.index()] > 1, "the reference move ended");
        relays += 1;
    }
    assert!(relays > 100, "a long walk: {relays} relays");
    for option in ["stop", "mover-loses", "void"] {
        let r = rules_with(
            Variant::Kiswahili,
            &format!("infinite_moves = \"{option}\""),
        );
        let c = play(&r, &p, "a7>");
        assert_eq!(*c.pits(Side::North), ring, "{option}: {c}");
        assert_eq!(*c.pits(Side::South), *p.pits(Side::South));
    }
}

/// Infinite moves (RULES.md): a move that sows more than `max_sown` seeds (100,000 in every
/// preset) is never-ending; every seed sown counts, the last sowing's too. In the takasia example
/// a5< sows 50 seeds in all, a8< 36, a5> 13, a8> 10.
#[test]
fn infinite_move_is_one_that_sows_more_than_max_sown_seeds() {
    for v in Variant::ALL {
        assert_eq!(v.rules().max_sown, 100_000, "{v}");
    }
    let under = bound(50, "illegal");
    let p = pos_for(&under, TAKASIA_EXAMPLE);
    assert_eq!(legal(&under, &p), s(&["a5<", "a5>", "a8<", "a8>"]));
    assert_eq!(legal(&bound(49, "illegal"), &p), s(&["a5>", "a8<", "a8>"]));
    assert_eq!(legal(&bound(35, "illegal"), &p), s(&["a5>", "a8>"]));
    // Played under `stop`, the move stops at the end of the sowing that passed the bound.
    let stop = bound(49, "stop");
    assert_eq!(stop_reason(&stop, &p, "a5<"), StopReason::NeverEnding);
}

/// Option `lap_limit` (seed 000: "3 minutes (or 12 laps)"; seed 003 1.5.6: what counts as infinite
/// is agreed beforehand): a move that sows more than L laps of 16 seeds is never-ending.
#[test]
fn option_lap_limit_makes_long_moves_never_ending() {
    let p_text = TAKASIA_EXAMPLE;
    // In the takasia example a5< sows 10, 3, 11, 6, 2, 2, 4, 5, 4, 3 seeds (50 in all; after the
    // sixth sowing 34 > 32) and a8< sows 10, 9, 12, 2, 3 (after the fourth 33 > 32); a5> sows 13
    // and a8> 10 seeds.
    let two = laps(2, "illegal");
    let p = pos_for(&two, p_text);
    assert_eq!(legal(&two, &p), s(&["a5>", "a8>"]));
    assert_eq!(
        legal(&laps(4, "illegal"), &p),
        s(&["a5<", "a5>", "a8<", "a8>"])
    );
    // With `stop`, a5< stops where the bound is passed: after the sixth sowing (a5 (2) -> a4, a3),
    // a3 = 4 is not lifted. North's ring (a1..a8 | b8..b1): 3 2 4 5 0 2 0 1 | 2 3 1 3 0 10 4 4.
    assert_eq!(
        after(&laps(2, "stop"), &p, "a5<"),
        "2,3,1,3,0,10,4,4/1,0,2,0,5,4,2,3/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 S 0,0 - - a4 62"
    );
}

/// Option `lap_limit`, as documented in `Rules::lap_limit` ("a move that sows more than this many
/// laps of 16 seeds counts as never-ending"): a5< sows 50 seeds, more than 3 laps (48), so with
/// `lap_limit = 3` it should be never-ending, hence illegal.
#[test]
fn option_lap_limit_counts_the_seeds_of_the_last_sowing() {
    let r = laps(3, "illegal");
    let p = pos_for(&r, TAKASIA_EXAMPLE);
    assert_eq!(legal(&r, &p), s(&["a5>", "a8<", "a8>"]));
}

/// What a trace may hold is bounded: Malawi's A8< at N = 1,000,000 (the largest N a rule set may
/// have) relays through a million seeds, and its trace keeps the first steps and how it ended.
#[test]
fn a_trace_keeps_its_first_steps_and_its_end() {
    let r = rules_with(Variant::MalawiAdvanced, "max_sown = 1000000");
    assert_eq!(r.validate(), Ok(()));
    let moves: Vec<&str> = LONG_LOOP_GAME.split_whitespace().collect();
    let p = play_all(&r, &start(Variant::MalawiAdvanced), &moves);
    let events = trace(&r, &p, "A8<");
    assert!(
        events.len() <= bao_rules::trace::MAX_TRACE_EVENTS + 2,
        "{} events",
        events.len()
    );
    assert_eq!(
        events.last(),
        Some(&bao_rules::Event::Stop {
            reason: StopReason::NeverEnding
        })
    );
}
