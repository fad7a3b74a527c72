//! Where a never-ending move stops (RULES.md): at the end of the first relay whose end state
//! repeats an earlier relay end of the same move, however long the loop; the safety bound on
//! seeds sown never decides it in a position a game can reach.

mod common;

use bao_rules::{Side, StopReason, Variant};
use common::*;

/// Malawi Bao advanced: 56 moves that reach a position where South's takata A8< never ends.
const LONG_LOOP_GAME: &str = "@B6 @B1 @A1 @A2 @B2 @b5 @b1 @b5 @b4 @a6 A2> a6< A4< a6< A6> a4> \
     A4> a8> A6> a5> A6< a6> A2< a4> A3> a4> A3> a7> A3< a8> A3< a2< A8> a2< A1< a6> A4> a4> A2< \
     a6> A5> a3< A4> a6> A5> a1< A7> a6< A7> b6> A1> b4> A8< b8> B2< b7>";

/// A8< comes back to the state after its first relay every 2,641,152 relays: it stops where the
/// loop first repeats (South A 1,0,1,4,11,7,3,0, B as before the move), not where 100,000
/// seeds sown were passed (A 1,0,5,4,1,2,2,3 / B 11,1,0,1,0,4,0,4), nor anywhere else a bound
/// on seeds sown would put it.
#[test]
fn never_ending_move_stops_at_the_first_repeat_of_a_long_loop() {
    let r = Variant::MalawiAdvanced.rules();
    let moves: Vec<&str> = LONG_LOOP_GAME.split_whitespace().collect();
    assert_eq!(moves.len(), 56);
    let p = play_all(&r, &start(Variant::MalawiAdvanced), &moves);
    assert_eq!(p.side_to_move(), Side::South);
    assert_eq!(
        p.to_string(),
        "1,0,1,3,0,1,3,1/2,12,1,0,0,0,0,0/1,0,1,4,11,6,2,2/0,1,0,1,4,5,0,1 S 0,0 - - - 56 \
         mtaji-captured=1"
    );
    // South's back row is where it was before the move; North's rows are untouched.
    assert_eq!(
        after(&r, &p, "A8<"),
        "1,0,1,3,0,1,3,1/2,12,1,0,0,0,0,0/1,0,1,4,11,7,3,0/0,1,0,1,4,5,0,1 N 0,0 - - - 57 \
         mtaji-captured=1"
    );
    assert_eq!(stop_reason(&r, &p, "A8<"), StopReason::NeverEnding);
}

/// The safety bound is no part of the game: rules that differ only in `max_sown` (player files
/// written under the old default of 100000) are the same rules.
#[test]
fn rules_differing_only_in_the_safety_bound_are_the_same_game() {
    let today = Variant::Kiswahili.rules();
    let old = rules_with(Variant::Kiswahili, "max_sown = 100000");
    assert_ne!(today.max_sown, old.max_sown);
    assert_eq!(today, old);
    assert_ne!(today, rules_with(Variant::Kiswahili, "lap_limit = 12"));
}

/// A long move is walked once per thread and then remembered: met again, in this thread or
/// another, it ends where it ended the first time, and a rule set that treats it otherwise
/// (never-ending moves illegal) is not answered from the memory of another.
#[test]
fn a_long_move_met_again_ends_where_it_ended_the_first_time() {
    let r = Variant::MalawiAdvanced.rules();
    let moves: Vec<&str> = LONG_LOOP_GAME.split_whitespace().collect();
    let p = play_all(&r, &start(Variant::MalawiAdvanced), &moves);
    let first = after(&r, &p, "A8<");
    assert_eq!(after(&r, &p, "A8<"), first);
    let (r2, p2) = (r.clone(), p);
    let elsewhere = std::thread::spawn(move || after(&r2, &p2, "A8<"));
    assert_eq!(elsewhere.join().unwrap(), first);
    let illegal = rules_with(Variant::MalawiAdvanced, "infinite_moves = \"illegal\"");
    let err = try_play(&illegal, &p, "A8<").unwrap_err().to_string();
    assert!(err.contains("A8<"), "{err}");
    assert_eq!(after(&r, &p, "A8<"), first);
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
/// positions with the longest loops known (a bound of 10^6 seeds keeps the test short; moves
/// that pass it are compared too).
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
        let r = rules_with(v, "max_sown = 1000000");
        cases.push((r.clone(), pos_for(&r, text)));
    }
    let mut rng = 7u64;
    for v in Variant::ALL {
        let r = rules_with(v, "max_sown = 1000000");
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

/// Positions reached in games where a move's loop is long: Hus (loops of about 10^8 seeds, found
/// while solving the openings of a rating match), Malawi Bao basic and Bao la Kiswahili (loops
/// past 4 x 10^9 seeds, see docs/RULES.md).
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
