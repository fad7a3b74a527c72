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
