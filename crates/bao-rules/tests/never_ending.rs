//! Never-ending moves as the rules define them (RULES.md): a move whose sowings pass N seeds in
//! all (`max_sown`, 100,000 in every preset; `lap_limit = L` makes it 16 L) is never-ending at
//! the end of the sowing that passed N, and a move that is played on stops right there.

mod common;

use bao_rules::{Side, StopReason, Variant};
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

/// Seed 000's takasia example, North to move: a5< sows 10, 3, 11, 6, 2, 2, 4, 5, 4 and 3 seeds
/// (cumulated 10, 13, 24, 30, 32, 34, 38, 43, 47, 50), relaying in b6, a8, b4, a7, a5, a3, b2,
/// b7, a6 and ending in the empty a3. Worked by hand on North's ring (a1..a8 | b8..b1), from
/// 1 0 1 2 10 0 0 10 | 0 1 2 1 4 8 2 2:
/// - after the sixth sowing (34 sown; a3 = 4 would relay): 3 2 4 5 0 2 0 1 | 2 3 1 3 0 10 4 4;
/// - at the end (50 sown): 4 3 1 6 1 0 1 2 | 3 0 2 4 1 11 0 5.
const TAKASIA_EXAMPLE: &str =
    "0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 N 0,0 - a4 - 61";
const AFTER_SIXTH_SOWING: [u8; 16] = [3, 2, 4, 5, 0, 2, 0, 1, 2, 3, 1, 3, 0, 10, 4, 4];
const AT_THE_END: [u8; 16] = [4, 3, 1, 6, 1, 0, 1, 2, 3, 0, 2, 4, 1, 11, 0, 5];

/// The rules for N = `n` with never-ending moves `illegal` or `stop`.
fn bound(n: u32, infinite_moves: &str) -> bao_rules::Rules {
    rules_with(
        Variant::Kiswahili,
        &format!("max_sown = {n}\ninfinite_moves = \"{infinite_moves}\""),
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
    let mut rng = 7u64;
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
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                p = *list
                    .iter()
                    .nth((rng >> 33) as usize % list.len())
                    .unwrap()
                    .1;
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
