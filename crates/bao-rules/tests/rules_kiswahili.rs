//! Named rule tests for Bao la Kiswahili: the numbered rules of seed 003, the decisions and options
//! of shared/RULES.md, the takasia example of seed 000, never-ending moves and the notation appendix.
//!
//! Every expected position was worked out by hand from the rule text; the comment above each
//! assertion gives the reasoning. Positions use the one-line format
//! `b8..b1/a8..a1/A1..A8/B1..B8 side stores houses blocked target ply`: North's rows are written as
//! South sees them, so a pit and the pit it faces share a column (A1 under a8, A5 under a4).
//! Ring order for sowing: `>` from the front row (and `<` from the back row) is clockwise,
//! A1 -> A8 -> B8 -> B1 -> A1; the other way is anticlockwise.

mod common;

use bao_rules::notation::{MoveError, Record};
use bao_rules::variant::{InfiniteMoves, Takasia};
use bao_rules::{EndReason, Outcome, Position, Side, Stage, StopReason, Variant};
use common::*;

fn kiswahili() -> bao_rules::Rules {
    Variant::Kiswahili.rules()
}

const START: &str =
    "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22,22 Hh - - 0";

// ---------------------------------------------------------------------------------------------
// 1.x General rules
// ---------------------------------------------------------------------------------------------

/// Rule 1.2.1: a front row emptied by a capture loses at once, in the middle of the move.
#[test]
fn rule_1_2_1_capture_emptying_the_front_row_wins_on_the_spot() {
    let r = kiswahili();
    // North's only front seeds: a4 = 3, facing A5 = 1. A3> sows A4, A5: A5 = 2 faces a4 -> capture.
    // The capture empties North's front row: South wins before sowing; the 3 captured seeds stay
    // in South's hand (kept in its store so that 64 seeds remain).
    let p = pos_for(
        &r,
        "6,6,5,5,5,5,5,5/0,0,0,0,3,0,0,0/0,0,2,0,1,0,0,0/2,2,2,2,2,2,2,2 S 0,0 - - - 60",
    );
    // The only capture: A3< ends in A1 (empty), B1< in A2 (empty), B2< in A1, B7> in A8, B8> in A7.
    assert_eq!(legal(&r, &p), s(&["A3>"]));
    let c = play(&r, &p, "A3>");
    assert_eq!(
        c.to_string(),
        "6,6,5,5,5,5,5,5/0,0,0,0,0,0,0,0/0,0,0,1,2,0,0,0/2,2,2,2,2,2,2,2 N 3,0 - - - 61 \
         mtaji-captured=1 over=S/front-row-empty"
    );
    assert_eq!(
        outcome(&r, &c),
        Some(Outcome {
            winner: Some(Side::South),
            reason: EndReason::FrontRowEmpty
        })
    );
    assert_eq!(stop_reason(&r, &p, "A3>"), StopReason::FrontRowEmpty);
    assert!(legal(&r, &c).is_empty());
}

/// Rule 1.2.1 (RULES.md: tested after every seed dropped, not when a pit is lifted): with the
/// lone-kichwa option `loses`, sowing the only front pit into the back row loses at the first seed.
#[test]
fn rule_1_2_1_front_row_empty_after_a_seed_drop_loses_mid_move() {
    let r = rules_with(Variant::Kiswahili, "lone_kichwa = \"loses\"");
    // South's only front pit is A1 = 2 (namua, house lost). A1< plants (3), lifts the pit and
    // drops the first seed in B1: the front row is empty -> North wins; 2 seeds stay in hand.
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/2,0,0,0,0,0,0,0/0,0,8,0,0,0,0,0 S 22,22 h - - 20",
    );
    assert_eq!(legal(&r, &p), s(&["A1<", "A1>"]));
    assert_eq!(
        after(&r, &p, "A1<"),
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,0,0,0,0/1,0,8,0,0,0,0,0 N 23,22 h - - 21 \
         over=N/front-row-empty"
    );
    // A1> empties the front row only while the pit is in the hand: the first seed lands in A2, so
    // the game goes on (plant A1 = 3, sow A2, A3, A4).
    assert_eq!(
        after(&r, &p, "A1>"),
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,1,1,1,0,0,0,0/0,0,8,0,0,0,0,0 N 21,22 h - - 21"
    );
}

/// Rule 1.2.2 / 3.3.2: a player who cannot move (only singletons) loses.
#[test]
fn rule_1_2_2_player_with_only_singletons_cannot_move_and_loses() {
    let r = kiswahili();
    let p = pos_for(
        &r,
        "7,7,6,6,6,6,6,7/0,0,0,0,0,5,5,0/1,0,1,0,0,0,0,0/0,1,0,0,0,0,0,0 S 0,0 - - - 60",
    );
    assert!(legal(&r, &p).is_empty());
    assert_eq!(
        outcome(&r, &p),
        Some(Outcome {
            winner: Some(Side::North),
            reason: EndReason::NoMoves
        })
    );
}

/// Rule 1.3.2 / 3.3.1 / 3.5.1: singletons never start a mtaji move; with only singletons in the
/// front row, the takata starts from the back row.
#[test]
fn rule_3_5_1_back_row_takata_only_when_the_front_row_holds_singletons() {
    let r = kiswahili();
    // South front: singletons A1, A4, A6; back B2 = 2, B5 = 3, B7 = 1. No capture: B2< ends in A1
    // facing a8 = 0; all other sowings end in the back row.
    let p = pos_for(
        &r,
        "3,3,4,4,4,4,4,4/0,5,5,5,5,5,0,0/1,0,0,1,0,1,0,0/0,2,0,0,3,0,1,0 S 0,0 - - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["B2<", "B2>", "B5<", "B5>"]));
    // B2< is clockwise (toward B1, then A1): B1 = 1, A1 = 2 -> relay A1 (takata): A2 = 1, A3 = 1,
    // A3 was empty: stop. North can capture afterwards (b2 sows b1, a1, a2, a3: a3 = 6 faces
    // A6 = 1), so no takasia.
    assert_eq!(
        after(&r, &p, "B2<"),
        "3,3,4,4,4,4,4,4/0,5,5,5,5,5,0,0/0,1,1,1,0,1,0,0/1,0,0,0,3,0,1,0 N 0,0 - - - 61"
    );
}

/// Rule 1.5.2 / 3.5: a takata starts from the front row when a front pit holds 2 or more.
#[test]
fn rule_1_5_2_takata_starts_from_the_front_row_first() {
    let r = kiswahili();
    // As above but A3 = 2 (A4 empty): A3> ends in A5 (empty), A3< in A1 = 2 facing a8 = 0; no
    // capture anywhere. B2 and B5 could move, but the front row comes first.
    let p = pos_for(
        &r,
        "3,3,4,4,4,4,4,3/0,5,5,5,5,5,0,0/1,0,2,0,0,1,0,0/0,2,0,0,3,0,1,0 S 0,0 - - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["A3<", "A3>"]));
}

/// Rule 1.4.1 / 1.5.1 / 3.4: a capture is mandatory, and a capture move may start in the back row.
#[test]
fn rule_1_4_1_capture_is_mandatory_and_may_start_in_the_back_row() {
    let r = kiswahili();
    // Same as above with a8 = 1: A3< (A2 = 1, A1 = 2) and B2< (B1 = 1, A1 = 2) both end in A1
    // facing a8: both capture, so only they are legal.
    let p = pos_for(
        &r,
        "3,3,4,4,4,4,3,3/1,5,5,5,5,5,0,0/1,0,2,0,0,1,0,0/0,2,0,0,3,0,1,0 S 0,0 - - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["A3<", "B2<"]));
    // B2<: B1 = 1, A1 = 2, capture a8 (1); A1 is a kichwa: sown from A1 clockwise, A1 = 3, which
    // faces the now empty a8: relay A1 (3): A2 = 1, A3 = 3, A4 = 1, empty before: stop.
    assert_eq!(
        after(&r, &p, "B2<"),
        "3,3,4,4,4,4,3,3/0,5,5,5,5,5,0,0/0,1,3,1,0,1,0,0/1,0,0,0,3,0,1,0 N 0,0 - - - 61 \
         mtaji-captured=1"
    );
}

/// Rule 1.4.2 / 1.4.3 / 1.4.4 / 3.4.1: captured seeds are sown from the kichwa that keeps the
/// direction: clockwise from the left kichwa A1, anticlockwise from the right kichwa A8.
#[test]
fn rule_1_4_4_captured_seeds_sown_from_the_kichwa_keeping_the_direction() {
    let r = kiswahili();
    // a4 = 3 faces A5 = 1. A3> (clockwise) and A7< (anticlockwise) both end in A5 = 2.
    let p = pos_for(
        &r,
        "4,4,4,4,4,4,3,3/5,0,0,0,3,0,0,5/0,0,2,0,1,0,2,0/2,2,2,2,2,2,2,2 S 0,0 - - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["A3>", "A7<"]));
    // A3>: A4 = 1, A5 = 2, capture 3 -> left kichwa, clockwise: A1 = 1, A2 = 1, A3 = 1 (emptied
    // before): stop.
    assert_eq!(
        after(&r, &p, "A3>"),
        "4,4,4,4,4,4,3,3/5,0,0,0,0,0,0,5/1,1,1,1,2,0,2,0/2,2,2,2,2,2,2,2 N 0,0 - - - 61 \
         mtaji-captured=1"
    );
    // A7<: A6 = 1, A5 = 2, capture 3 -> right kichwa, anticlockwise: A8 = 1, A7 = 1, A6 = 2;
    // A6 faces a3 = 0: relay A6 (2): A5 = 3, A4 = 1 (empty before): stop.
    assert_eq!(
        after(&r, &p, "A7<"),
        "4,4,4,4,4,4,3,3/5,0,0,0,0,0,0,5/0,0,2,1,3,0,1,1/2,2,2,2,2,2,2,2 N 0,0 - - - 61 \
         mtaji-captured=1"
    );
}

/// Rule 4.1 / 1.4.5 / 1.3.1: a capture in a kimbi sows from the nearest kichwa, which may turn the
/// move round (the only change of direction in a move).
#[test]
fn rule_4_1_kimbi_capture_sows_from_the_nearest_kichwa_turning_the_move() {
    let r = kiswahili();
    // A4< (anticlockwise): A3 = 1, A2 = 2 faces a7 = 2 -> capture. A2 is a kimbi: sown from A1
    // clockwise: A1 = 1, A2 = 3; a7 is now empty: relay A2 (3) clockwise: A3 = 2, A4 = 1, A5 = 1
    // (empty before): stop.
    let p = pos_for(
        &r,
        "6,6,5,5,5,5,5,5/0,2,0,5,5,5,0,0/0,1,0,2,0,0,0,0/0,0,1,0,1,0,0,0 S 0,0 - - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["A4<"]));
    assert_eq!(
        after(&r, &p, "A4<"),
        "6,6,5,5,5,5,5,5/0,0,0,5,5,5,0,0/1,0,2,1,1,0,0,0/0,0,1,0,1,0,0,0 N 0,0 - - - 61 \
         mtaji-captured=1"
    );
    // Without the kimbi rule the direction is kept: from A8 anticlockwise, A8 = 1, A7 = 1: stop.
    let no_kimbi = rules_with(Variant::Kiswahili, "kimbi = false");
    assert_eq!(
        after(&no_kimbi, &p, "A4<"),
        "6,6,5,5,5,5,5,5/0,0,0,5,5,5,0,0/0,2,1,0,0,0,1,1/0,0,1,0,1,0,0,0 N 0,0 - - - 61 \
         mtaji-captured=1"
    );
}

/// Rule 1.6 / 1.6.1: in a capture move every later sowing that ends in a non-empty front pit facing
/// a non-empty pit captures again.
#[test]
fn rule_1_6_1_capture_move_captures_again_at_later_sowings() {
    let r = kiswahili();
    // A3>: A4 = 1, A5 = 2, capture a4 (2) -> A1 clockwise: A1 = 1, A2 = 2; A2 faces a7 = 1 ->
    // capture (kimbi: A1): A1 = 2; a8 = 0, so relay A1 (2): A2 = 3, A3 = 1 (emptied): stop.
    let p = pos_for(
        &r,
        "5,6,6,6,6,6,5,5/0,1,0,0,2,5,5,0/0,1,2,0,1,0,0,0/1,0,0,0,0,0,0,1 S 0,0 - - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["A3>"]));
    assert_eq!(captures(&r, &p, "A3>"), vec!["a4:2", "a7:1"]);
    assert_eq!(
        after(&r, &p, "A3>"),
        "5,6,6,6,6,6,5,5/0,0,0,0,0,5,5,0/0,3,1,1,2,0,0,0/1,0,0,0,0,0,0,1 N 0,0 - - - 61 \
         mtaji-captured=1"
    );
}

/// Rule 1.5.3: a move that does not start with a capture (takata) captures nothing later.
#[test]
fn rule_1_5_3_takata_never_captures_later_in_the_move() {
    let r = kiswahili();
    // A2>: A3 = 1, A4 = 2 faces a5 = 0, no capture: a takata. Relay A4 (2): A5 = 2, A6 = 2; A6 faces
    // a3 = 5, but a takata does not capture: relay A6 (2): A7 = 1, A8 = 1 (empty): stop.
    // Then North can capture (a6 sows a5..a1: a1 = 6 faces A8 = 1), so no takasia.
    let p = pos_for(
        &r,
        "4,4,4,5,5,5,5,5/0,0,5,0,0,5,5,5/0,2,0,1,1,1,0,0/1,0,0,0,0,0,0,1 S 0,0 - - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["A2<", "A2>"]));
    assert!(captures(&r, &p, "A2>").is_empty());
    assert_eq!(
        after(&r, &p, "A2>"),
        "4,4,4,5,5,5,5,5/0,0,5,0,0,5,5,5/0,0,1,0,2,0,1,1/1,0,0,0,0,0,0,1 N 0,0 - - - 61"
    );
}

/// Rule 1.5.3.1 / 3.5.2: a lone kichwa may not be sown toward the back row (mtaji stage).
#[test]
fn rule_3_5_2_lone_kichwa_not_sown_toward_the_back_row() {
    let r = kiswahili();
    // South's only front pit A8 = 3: A8> would go B8, B7, B6 and empty the front row. A8< ends in
    // A5 (empty): no capture. The back row holds singletons only.
    let p = pos_for(
        &r,
        "4,4,4,4,4,4,4,4/0,5,5,5,4,4,4,0/0,0,0,0,0,0,0,3/1,0,1,0,0,0,0,0 S 0,0 - - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["A8<"]));
}

/// Rule 1.5.5: after a move the opponent is to move (and the ply counts up).
#[test]
fn rule_1_5_5_after_a_move_the_opponent_moves() {
    let r = kiswahili();
    let p = start(Variant::Kiswahili);
    let c = play(&r, &p, "A6<");
    assert_eq!(c.side_to_move(), Side::North);
    assert_eq!(c.ply(), 1);
    let d = play(&r, &c, "a5<");
    assert_eq!(d.side_to_move(), Side::South);
    assert_eq!(d.ply(), 2);
}

/// Rule 1.7 / 3.1 (RULES.md: the stage is the mover's): namua while the mover has seeds in store.
#[test]
fn rule_3_1_stage_is_the_movers_own() {
    let r = kiswahili();
    // South plants its last seed while North still has one.
    let p = pos_for(
        &r,
        "4,3,4,4,4,4,4,0/0,0,0,4,0,0,0,0/0,0,0,0,0,0,2,0/9,9,9,2,0,0,0,0 S 1,1 - - - 40",
    );
    assert_eq!(p.stage(), Stage::Namua);
    // A7> (nothing to capture: A7 faces a2 = 0): A7 = 3, sown A8 = 1, B8 = 1, B7 = 1 (empty): stop.
    let c = play(&r, &p, "A7>");
    assert_eq!(
        c.to_string(),
        "4,3,4,4,4,4,4,0/0,0,0,4,0,0,0,0/0,0,0,0,0,0,0,1/9,9,9,2,0,0,1,1 N 0,1 - - - 41"
    );
    assert_eq!(c.stage(), Stage::Namua); // North still plants
    let d = play(&r, &c, "a5<");
    assert_eq!(d.store(Side::North), 0);
    assert_eq!(d.stage(), Stage::Mtaji); // South has no seeds in store
}

// ---------------------------------------------------------------------------------------------
// 2.x Kunamua stage
// ---------------------------------------------------------------------------------------------

/// Rule 2.1 / 2.1.1: the start: 6 in the nyumba, 2 in pits 6 and 7, 22 in store; South first.
#[test]
fn rule_2_1_start_position_and_south_moves_first() {
    let r = kiswahili();
    let p = Position::start(&r);
    assert_eq!(p.to_string(), START);
    assert_eq!(p.side_to_move(), Side::South);
    assert_eq!(p.stage(), Stage::Namua);
    assert_eq!(p.total_seeds(), 64);
}

/// Rule 2.1.2 / 2.3 / 4.2.2.1: a namua takata plants one seed from store, then sows the pit; the
/// house with 6 may not start a takata, and the back row may not be planted.
#[test]
fn rule_2_3_namua_takata_plants_then_sows_and_not_from_the_house() {
    let r = kiswahili();
    let p = pos_for(&r, START);
    assert_eq!(legal(&r, &p), s(&["A6<", "A6>", "A7<", "A7>"]));
    // A6<: A6 = 3, sown A5 = 7, A4 = 1, A3 = 1 (passing the house does not stop).
    assert_eq!(
        after(&r, &p, "A6<"),
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,1,1,7,0,2,0/0,0,0,0,0,0,0,0 N 21,22 Hh - - 1"
    );
    // A6>: A6 = 3, sown A7 = 3, A8 = 1, B8 = 1.
    assert_eq!(
        after(&r, &p, "A6>"),
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,0,3,1/0,0,0,0,0,0,0,1 N 21,22 Hh - - 1"
    );
}

/// Rule 2.2.1: in the namua stage a player who can capture must.
#[test]
fn rule_2_2_1_namua_must_capture_when_possible() {
    let r = kiswahili();
    // After A6<, A3 = 1 faces a6 = 2 and A4 = 1 faces a5 = 6: North must plant in a5 or a6;
    // a7 (facing the empty A2) may not start a takata.
    let p = play(&r, &pos_for(&r, START), "A6<");
    assert_eq!(legal(&r, &p), s(&["a5<", "a5>", "a6<", "a6>"]));
}

/// Rule 2.2.2 (and RULES.md: the capturing pit keeps its seeds): outside the kimbi the player
/// chooses the kichwa, written `<` (left) or `>` (right).
#[test]
fn rule_2_2_2_namua_capture_outside_kimbi_chooses_the_kichwa() {
    let r = kiswahili();
    let p = play(&r, &pos_for(&r, START), "A6<");
    // a5<: a5 = 7 (keeps its seeds), A4's 1 seed sown from North's left kichwa a1: a1 = 1, stop.
    assert_eq!(
        after(&r, &p, "a5<"),
        "0,0,0,0,0,0,0,0/0,2,2,7,0,0,0,1/0,0,1,0,7,0,2,0/0,0,0,0,0,0,0,0 S 21,21 Hh - - 2"
    );
    // a5>: the same seed sown from the right kichwa a8.
    assert_eq!(
        after(&r, &p, "a5>"),
        "0,0,0,0,0,0,0,0/1,2,2,7,0,0,0,0/0,0,1,0,7,0,2,0/0,0,0,0,0,0,0,0 S 21,21 Hh - - 2"
    );
    // a6<: a6 = 3, A3's seed to a1.
    assert_eq!(
        after(&r, &p, "a6<"),
        "0,0,0,0,0,0,0,0/0,2,3,6,0,0,0,1/0,0,0,1,7,0,2,0/0,0,0,0,0,0,0,0 S 21,21 Hh - - 2"
    );
}

/// Rule 1.4.5 / 4.1 in the namua stage: a capture in a kimbi must use the nearest kichwa.
#[test]
fn rule_1_4_5_namua_capture_in_kimbi_forces_the_nearest_kichwa() {
    let r = kiswahili();
    // A2 = 1 faces a7 = 1: the only capture; A2 is a kimbi, so only the left kichwa: A2<.
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,1,2,6,0,0,0,0/0,1,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22,22 Hh - - 10",
    );
    assert_eq!(legal(&r, &p), s(&["A2<"]));
    // Plant A2 = 2, capture a7 (1), sown into A1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A2<"),
        "0,0,0,0,0,0,0,0/0,0,2,6,0,0,0,0/1,2,0,0,6,2,2,0/0,0,0,0,0,0,0,0 N 21,22 Hh - - 11"
    );
    // Without the kimbi rule both kichwa may be chosen.
    let no_kimbi = rules_with(Variant::Kiswahili, "kimbi = false");
    assert_eq!(legal(&no_kimbi, &p), s(&["A2<", "A2>"]));
}

/// Rule 2.3.1 / 1.5.3.1: in the namua stage a lone kichwa may not be sown toward the back row.
#[test]
fn rule_2_3_1_namua_lone_kichwa_not_toward_the_back_row() {
    let r = kiswahili();
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/2,0,0,0,0,0,0,0/0,0,8,0,0,0,0,0 S 22,22 h - - 20",
    );
    // A1 (2) is the only front pit; the back row is never planted.
    assert_eq!(legal(&r, &p), s(&["A1>"]));
}

/// Rule 2.3.2 / 4.2.2.2: the house with 6 or more, alone in the front row, is taxed: one seed
/// planted, two sown either way, the rest stays and the house is kept.
#[test]
fn rule_2_3_2_lone_house_is_taxed() {
    let r = kiswahili();
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,0,0,0/4,0,0,0,0,0,0,0 S 22,22 Hh - - 10",
    );
    assert_eq!(legal(&r, &p), s(&["A5<", "A5>"]));
    // A5>: A5 = 7, 2 taken: A6 = 1, A7 = 1, stop; A5 = 5, house still owned.
    assert_eq!(
        after(&r, &p, "A5>"),
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,5,1,1,0/4,0,0,0,0,0,0,0 N 21,22 Hh - - 11"
    );
    // A5<: A4 = 1, A3 = 1.
    assert_eq!(
        after(&r, &p, "A5<"),
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,1,1,5,0,0,0/4,0,0,0,0,0,0,0 N 21,22 Hh - - 11"
    );
}

/// Rule 4.2.1.3 (RULES.md: a house with <6 after a tax, when it must be used, is sown whole and
/// lost): with 5 seeds (counted before planting) the lone house is no longer taxed.
#[test]
fn rule_4_2_1_3_house_below_six_is_sown_whole_and_lost() {
    let r = kiswahili();
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,5,0,0,0/5,0,0,0,0,0,0,0 S 22,22 Hh - - 10",
    );
    // A5>: A5 = 6, all 6 sown: A6, A7, A8, B8, B7, B6 = 1 each; the house is emptied and lost.
    assert_eq!(
        after(&r, &p, "A5>"),
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,0,1,1,1/5,0,0,0,0,1,1,1 N 21,22 h - - 11"
    );
}

/// Rule 4.2.1.3: the house rules apply again once the house holds 6, counting the seed that has
/// just landed; below 6 the house is an ordinary pit.
#[test]
fn rule_4_2_1_3_house_valid_again_at_six_counting_the_last_seed() {
    let r = kiswahili();
    // House A5 = 5 (owned, after a tax): it may start a takata like any pit.
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/2,2,0,6,0,0,0,0/0,0,1,0,5,0,2,0/2,0,0,0,0,0,0,0 S 22,22 Hh - - 10",
    );
    assert_eq!(
        legal(&r, &p),
        s(&["A3<", "A3>", "A5<", "A5>", "A7<", "A7>"])
    );
    // A3>: A3 = 2, sown A4 = 1, A5 = 6: the house is valid again and a takata stops in it.
    assert_eq!(
        after(&r, &p, "A3>"),
        "0,0,0,0,0,0,0,0/2,2,0,6,0,0,0,0/0,0,0,1,6,0,2,0/2,0,0,0,0,0,0,0 N 21,22 Hh - - 11"
    );
    assert_eq!(stop_reason(&r, &p, "A3>"), StopReason::House);
    // With A5 = 4 the sowing ends with 5 there: an ordinary relay, A5 (5): A6 = 1, A7 = 3, A8 = 1,
    // B8 = 1, B7 = 1 (empty): stop; the house is emptied, so lost.
    let q = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/2,2,0,6,0,0,0,0/0,0,1,0,4,0,2,0/3,0,0,0,0,0,0,0 S 22,22 Hh - - 10",
    );
    assert_eq!(
        after(&r, &q, "A3>"),
        "0,0,0,0,0,0,0,0/2,2,0,6,0,0,0,0/0,0,0,1,0,1,3,1/3,0,0,0,0,0,1,1 N 21,22 h - - 11"
    );
}

/// Rule 2.3.3: once the house is lost, a singleton may be planted in only if no front pit holds
/// more than one seed; captures are excepted.
#[test]
fn rule_2_3_3_house_lost_no_singleton_planting_while_a_pit_has_more() {
    let r = kiswahili();
    // South (house lost): A2 = 1, A3 = 2, A7 = 1; nothing to capture.
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,2/2,0,0,6,0,0,0,0/0,1,2,0,0,0,1,0/6,0,0,0,0,0,0,0 S 22,22 h - - 20",
    );
    assert_eq!(legal(&r, &p), s(&["A3<", "A3>"]));
    // No front pit with more than one seed: the singletons may be planted.
    let q = pos_for(
        &r,
        "0,0,0,0,0,0,0,2/2,0,0,6,0,0,0,0/0,1,0,0,0,0,1,0/8,0,0,0,0,0,0,0 S 22,22 h - - 20",
    );
    assert_eq!(legal(&r, &q), s(&["A2<", "A2>", "A7<", "A7>"]));
    // A capture from a singleton is always allowed (and mandatory): A2 faces a7 = 1.
    let c = pos_for(
        &r,
        "0,0,0,0,0,0,0,1/2,1,0,6,0,0,0,0/0,1,2,0,0,0,1,0/6,0,0,0,0,0,0,0 S 22,22 h - - 20",
    );
    assert_eq!(legal(&r, &c), s(&["A2<"]));
}

// ---------------------------------------------------------------------------------------------
// 3.x Mtaji stage
// ---------------------------------------------------------------------------------------------

/// Rule 3.4.2: a pit with more than 15 seeds never starts a capture move (it is a takata).
#[test]
fn rule_3_4_2_no_capture_from_a_pit_with_more_than_15() {
    let r = kiswahili();
    // A1 = 17: A1> would end in A2 (2 seeds in the lap) facing a7 = 3, but 17 > 15: a takata.
    let p = pos_for(
        &r,
        "6,6,5,5,5,5,5,5/0,3,0,0,1,0,0,0/17,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0 S 0,0 - - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["A1<", "A1>"]));
    // A1> as a takata: 16 seeds make one lap (every pit +1), the 17th falls in A2: A1 = 1, A2 = 2,
    // A5 = 2, every other pit 1. Then relays of 2 seeds: A2 -> A3 = 2, A4 = 2; A4 -> A5 = 3,
    // A6 = 2; A6 -> A7 = 2, A8 = 2; A8 -> B8 = 2, B7 = 2; B7 -> B6 = 2, B5 = 2; B5 -> B4 = 2,
    // B3 = 2; B3 -> B2 = 2, B1 = 2; B1 -> A1 = 2, A2 = 1 (emptied): stop. North then captures
    // (a7 sows a6, a5, a4 = 2 facing A5), so no takasia.
    assert_eq!(
        after(&r, &p, "A1>"),
        "6,6,5,5,5,5,5,5/0,3,0,0,1,0,0,0/2,1,2,0,3,0,2,0/0,2,0,2,0,2,0,2 N 0,0 - - - 61"
    );
    // With the limit raised, A1> is a capture move and so the only legal move.
    let mut high = kiswahili();
    high.max_capture_lift = Some(20);
    assert_eq!(legal(&high, &p), s(&["A1>"]));
}

/// Rule 3.2 / 4.2.1.1 default (RULES.md): in the mtaji stage the house is an ordinary pit: a takata
/// ending in it relays.
#[test]
fn rule_3_2_default_house_rules_do_not_apply_in_mtaji() {
    let r = kiswahili();
    // A3>: A4 = 1, A5 = 7 (owned house) -> relay in mtaji: A6, A7, A8, B8, B7, B6, B5 = 1 each, stop;
    // the house is emptied and lost. North can capture afterwards (a1 sows to a5 facing A4 = 1).
    let p = pos_for(
        &r,
        "2,2,2,2,3,3,3,3/4,4,4,4,0,4,4,4/0,0,2,0,6,0,0,0/8,0,0,0,0,0,0,0 S 0,0 H - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["A3<", "A3>", "A5<", "A5>"]));
    assert_eq!(
        after(&r, &p, "A3>"),
        "2,2,2,2,3,3,3,3/4,4,4,4,0,4,4,4/0,0,0,1,0,1,1,1/8,0,0,0,1,1,1,1 N 0,0 - - - 61"
    );
}

/// Rule 1.6.2 / 3.2 / 4.2.1.1 as the option `house.nyumba.in_mtaji`: the house rules also apply in
/// the mtaji stage, and ownership ends at the first capture of the mtaji stage by either player.
#[test]
fn option_house_in_mtaji_stops_takata_until_the_first_mtaji_capture() {
    let r = rules_with(Variant::Kiswahili, "[house.nyumba]\nin_mtaji = true");
    let p = pos_for(
        &r,
        "2,2,2,2,3,3,3,3/4,4,4,4,0,4,4,4/0,0,2,0,6,0,0,0/8,0,0,0,0,0,0,0 S 0,0 H - - 60",
    );
    // A3>: A4 = 1, A5 = 7: a takata ending in the valid owned house stops there.
    let c = play(&r, &p, "A3>");
    assert_eq!(
        c.to_string(),
        "2,2,2,2,3,3,3,3/4,4,4,4,0,4,4,4/0,0,0,1,7,0,0,0/8,0,0,0,0,0,0,0 N 0,0 H - - 61"
    );
    // North's a1> (4): a2 = 5, a3 = 5, a4 = 1, a5 = 5 faces A4 = 1 -> capture, sown from a1: a1 = 1,
    // stop. It is the first mtaji capture: South's house is lost although it holds 7.
    assert_eq!(
        after(&r, &c, "a1>"),
        "2,2,2,2,3,3,3,3/4,4,4,5,1,5,5,1/0,0,0,0,7,0,0,0/8,0,0,0,0,0,0,0 S 0,0 - - - 62 \
         mtaji-captured=1"
    );
}

// ---------------------------------------------------------------------------------------------
// 4.x The house
// ---------------------------------------------------------------------------------------------

/// Rule 4.2.2.3.1 / 1.5.4: a namua takata whose sowing ends in the valid house stops there.
#[test]
fn rule_4_2_2_3_1_namua_takata_ending_in_the_house_stops() {
    let r = kiswahili();
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/2,2,0,6,0,0,0,0/0,0,1,0,6,2,2,0/0,0,0,0,0,0,0,0 S 21,22 Hh - - 10",
    );
    // A3 is a singleton, allowed while the house is owned; the house itself may not start.
    assert_eq!(
        legal(&r, &p),
        s(&["A3<", "A3>", "A6<", "A6>", "A7<", "A7>"])
    );
    // A3>: A3 = 2, sown A4 = 1, A5 = 7: stop in the house.
    assert_eq!(
        after(&r, &p, "A3>"),
        "0,0,0,0,0,0,0,0/2,2,0,6,0,0,0,0/0,0,0,1,7,2,2,0/0,0,0,0,0,0,0,0 N 20,22 Hh - - 11"
    );
    assert_eq!(stop_reason(&r, &p, "A3>"), StopReason::House);
}

/// Rule 4.2.2.3.2 / 4.2.1.2 / 1.6.2: a capture-move sowing ending in the valid house (not itself a
/// capture) lets the player stop or play the house (`+`), which loses it.
#[test]
fn rule_4_2_2_3_2_capture_move_ending_in_the_house_offers_stop_or_play() {
    let r = kiswahili();
    // A2 = 1 faces a7 = 2. Plant A2 = 2, capture 2 -> from A1 (kimbi): A1 = 1, A2 = 3; a7 is now
    // empty: relay A2 (3): A3 = 1, A4 = 1, A5 = 7, facing a4 = 0: the house choice.
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,1,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 21,22 Hh - - 10",
    );
    assert_eq!(legal(&r, &p), s(&["A2<", "A2<+"]));
    assert_eq!(
        after(&r, &p, "A2<"),
        "0,0,0,0,0,0,0,0/0,0,2,6,0,0,0,0/1,0,1,1,7,2,2,0/0,0,0,0,0,0,0,0 N 20,22 Hh - - 11"
    );
    // A2<+: the house (7) is played: A6 = 3, A7 = 3, A8 = 1, B8, B7, B6, B5 = 1, stop; house lost.
    assert_eq!(
        after(&r, &p, "A2<+"),
        "0,0,0,0,0,0,0,0/0,0,2,6,0,0,0,0/1,0,1,1,0,3,3,1/0,0,0,0,1,1,1,1 N 20,22 h - - 11"
    );
}

/// Option `house.nyumba.play_mandatory` (seed 002): playing the house in a capture move is
/// mandatory, so there is no stop and no `+` choice.
#[test]
fn option_house_play_mandatory_relays_the_house() {
    let r = rules_with(Variant::Kiswahili, "[house.nyumba]\nplay_mandatory = true");
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,1,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 21,22 Hh - - 10",
    );
    assert_eq!(legal(&r, &p), s(&["A2<"]));
    assert_eq!(
        after(&r, &p, "A2<"),
        "0,0,0,0,0,0,0,0/0,0,2,6,0,0,0,0/1,0,1,1,0,3,3,1/0,0,0,0,1,1,1,1 N 20,22 h - - 11"
    );
}

/// Option `house.nyumba.tax = always` (seed 002): any namua takata from the valid house is a tax.
#[test]
fn option_tax_always_lets_the_house_start_a_taxed_takata() {
    let p_text =
        "0,0,0,0,0,0,0,0/2,2,0,6,0,0,0,0/0,0,1,0,6,0,2,0/1,0,0,0,0,0,0,0 S 22,22 Hh - - 10";
    let default = kiswahili();
    let p = pos_for(&default, p_text);
    assert_eq!(legal(&default, &p), s(&["A3<", "A3>", "A7<", "A7>"]));
    let r = rules_with(Variant::Kiswahili, "[house.nyumba]\ntax = \"always\"");
    assert_eq!(
        legal(&r, &p),
        s(&["A3<", "A3>", "A5<", "A5>", "A7<", "A7>"])
    );
    // A5<: A5 = 7, 2 taken: A4 = 1, A3 = 2 -> relay A3 (2): A2 = 1, A1 = 1, stop. A5 keeps 5.
    assert_eq!(
        after(&r, &p, "A5<"),
        "0,0,0,0,0,0,0,0/2,2,0,6,0,0,0,0/1,1,0,1,5,0,2,0/1,0,0,0,0,0,0,0 N 21,22 Hh - - 11"
    );
}

// ---------------------------------------------------------------------------------------------
// 5.x Takasia (kutakatia)
// ---------------------------------------------------------------------------------------------

/// The position of seed 000's takasia example just before South's takata A7< (two seeds from the
/// 7th front pit, anticlockwise). Houses are no longer owned.
const TAKASIA_BEFORE: &str =
    "0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,0,0,2,0/0,0,2,2,0,2,6,4 S 0,0 - - - 60";

/// Seed 000's example board, North to move, a4 blocked.
const TAKASIA_EXAMPLE: &str =
    "0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 N 0,0 - a4 - 61";

/// Rule 5.1 with seed 000's example: after South's takata, North has no capture and South could
/// capture only a4 (B8> ends in A5 facing a4): a4 is blocked.
#[test]
fn rule_5_1_takasia_example_of_seed_000_blocks_a4() {
    let r = kiswahili();
    let p = pos_for(&r, TAKASIA_BEFORE);
    // South cannot capture (A2 and A7 face empty pits; no sowing ends in a front pit facing seeds).
    assert_eq!(legal(&r, &p), s(&["A2<", "A2>", "A7<", "A7>"]));
    // A7<: A6 = 1, A5 = 1 (empty before): stop. The board of the example, with a4 blocked.
    // a4 is not North's house, not its only non-empty front pit, and a5, a8 also hold >1.
    let c = play(&r, &p, "A7<");
    assert_eq!(c.to_string(), TAKASIA_EXAMPLE);
    // The kutakatia marker `**` is accepted on the move.
    assert_eq!(play(&r, &p, "A7<**"), c);
}

/// Rule 5.1 (seed 000 example): North may not start from the blocked a4; it must move one of its
/// 10-seed pits (the front row comes first).
#[test]
fn rule_5_1_takasia_example_blocked_pit_may_not_start() {
    let r = kiswahili();
    let p = pos_for(&r, TAKASIA_EXAMPLE);
    assert_eq!(legal(&r, &p), s(&["a5<", "a5>", "a8<", "a8>"]));
    // Without takasia a4 (2) could move too.
    let none = rules_with(Variant::Kiswahili, "takasia = \"none\"");
    let q = pos_for(&none, &TAKASIA_EXAMPLE.replace(" a4 - ", " - - "));
    assert_eq!(
        legal(&none, &q),
        s(&["a4<", "a4>", "a5<", "a5>", "a8<", "a8>"])
    );
}

/// Rule 5.1 (seed 000 example): whatever North plays, South must then capture a4, with B8> (the
/// 4 seeds of B8; the example's "6 seeds" is a slip, see RULES.md).
#[test]
fn rule_5_1_takasia_example_south_must_then_capture_a4() {
    let r = kiswahili();
    let p = pos_for(&r, TAKASIA_EXAMPLE);
    // North's ring before (a1..a8, b8..b1): 1 0 1 2 10 0 0 10 | 0 1 2 1 4 8 2 2.
    // a5< (10, anticlockwise): a4..a1, b1..b6 get one: ends b6 = 3 -> relay: b7, b8, a8 = 11 ->
    // relay: a7..a1, b1..b4: ends b4 = 6 -> relay: b5, b6, b7, b8, a8, a7 = 2 -> relay: a6, a5 = 2
    // -> relay: a4, a3 = 4 -> relay: a2, a1, b1, b2 = 5 -> relay: b3, b4, b5, b6, b7 = 4 -> relay:
    // b8, a8, a7, a6 = 3 -> relay: a5, a4, a3 = 1 (empty): stop.
    let a5l = "3,0,2,4,1,11,0,5/2,1,0,1,6,1,3,4/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 S 0,0 - - a4 62";
    // a5> (10, clockwise): a6..a8, b8..b2 get one: ends b2 = 3 -> relay: b1, a1, a2 = 1: stop.
    let a5r = "1,2,3,2,5,9,0,3/11,1,1,0,2,1,1,2/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 S 0,0 - - a4 62";
    // a8< (10, anticlockwise): a7..a1, b1..b3: ends b3 = 9 -> relay: b4..b8, a8, a7, a6, a5 = 12 ->
    // relay: a4..a1, b1..b8: ends b8 = 2 -> relay: a8, a7 = 3 -> relay: a6, a5, a4 = 5: a4 is
    // blocked, the move stops there (rule 5.2).
    let a8l = "0,3,4,3,6,1,4,4/2,0,3,1,5,3,2,3/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 S 0,0 - - a4 62";
    // a8> (10, clockwise): b8..b1, a1, a2 = 1: stop.
    let a8r = "1,2,3,2,5,9,3,3/0,0,0,10,2,1,1,2/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 S 0,0 - - a4 62";
    for (mv, want) in [("a5<", a5l), ("a5>", a5r), ("a8<", a8l), ("a8>", a8r)] {
        let c = play(&r, &p, mv);
        assert_eq!(c.to_string(), want, "after {mv}");
        // South's only capture of a4 is B8> (B8 = 4 anticlockwise ends in A5 = 2 facing a4).
        assert_eq!(legal(&r, &c), s(&["B8>"]), "after {mv}");
    }
    assert_eq!(stop_reason(&r, &p, "a8<"), StopReason::Blocked);
    // After a5<, B8>: A8 = 1, A7 = 1, A6 = 2, A5 = 2, capture a4 (6) -> right kichwa (anticlockwise,
    // A5 is not a kimbi): A8 = 2, A7 = 2, A6 = 3, A5 = 3, A4 = 1, A3 = 1 (empty): stop.
    let c = pos_for(&r, a5l);
    assert_eq!(
        after(&r, &c, "B8>"),
        "3,0,2,4,1,11,0,5/2,1,0,1,0,1,3,4/0,2,1,1,3,3,2,2/0,0,2,2,0,2,6,0 N 0,0 - - - 63 \
         mtaji-captured=1"
    );
}

/// Rule 5.2 / 1.6.3: a relay that ends in the blocked pit stops there.
#[test]
fn rule_5_2_relay_ending_in_the_blocked_pit_stops() {
    let r = kiswahili();
    let p = pos_for(&r, TAKASIA_EXAMPLE);
    // a8< (10): a7..a1, b1, b2, b3 -> b3 = 9 -> relay: b4..b8, a8, a7, a6, a5 = 12 -> relay: a4..a1,
    // b1..b8 -> b8 = 2 -> relay: a8, a7 = 3 -> relay: a6, a5, a4 = 5: the blocked a4, so the move
    // stops with its 5 seeds there.
    assert_eq!(
        after(&r, &p, "a8<"),
        "0,3,4,3,6,1,4,4/2,0,3,1,5,3,2,3/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 S 0,0 - - a4 62"
    );
    assert_eq!(stop_reason(&r, &p, "a8<"), StopReason::Blocked);
    // Without takasia the same move relays on from a4 (5): a3, a2, a1, b1, b2.
    let none = rules_with(Variant::Kiswahili, "takasia = \"none\"");
    let q = pos_for(&none, &TAKASIA_EXAMPLE.replace(" a4 - ", " - - "));
    assert_ne!(stop_reason(&none, &q, "a8<"), StopReason::Blocked);
}

/// Rule 5.1 (RULES.md: X's next move must capture that pit, even if other captures exist).
#[test]
fn rule_5_1_takasia_target_must_be_captured_before_any_other() {
    let r = kiswahili();
    // South must capture a4. A3> (A4 = 1, A5 = 2 facing a4) and B8> (ends in A5) capture it;
    // A3< (A2 = 1, A1 = 2 facing a8 = 3) captures a8 and is not allowed.
    let text = "7,7,7,6,6,6,6,6/3,0,0,0,2,0,0,0/1,0,2,0,1,0,0,0/0,0,0,0,0,0,0,4 S 0,0 - - a4 70";
    let p = pos_for(&r, text);
    assert_eq!(legal(&r, &p), s(&["A3>", "B8>"]));
    let free = pos_for(&r, &text.replace(" a4 70", " - 70"));
    assert_eq!(legal(&r, &free), s(&["A3<", "A3>", "B8>"]));
}

/// A board for the exemption tests: South's takata A2> (A3 = 1, A4 = 1) leaves South one threat,
/// A6< (A5 = 1, A4 = 2 facing a5); North has no capture (its sowings end in a2, a8 or the back
/// row; b2, b4 hold 16 and cannot capture). `{a5}`, `{front}` and `{houses}` vary.
fn exemption_board(north_back: &str, north_front: &str, south_back: &str, houses: &str) -> String {
    format!("{north_back}/{north_front}/0,2,0,0,0,2,0,0/{south_back} S 0,0 {houses} - - 60")
}

/// Rule 5.1: the threatened pit is blocked (North's house not owned); and X's takata in the namua
/// stage does not block (RULES.md: takasia is for mtaji-stage takata only).
#[test]
fn rule_5_1_takasia_only_after_a_mtaji_stage_takata() {
    let r = kiswahili();
    let p = pos_for(
        &r,
        &exemption_board(
            "0,0,0,0,16,1,16,1",
            "1,1,2,3,0,0,0,1",
            "1,0,0,16,0,0,1,0",
            "-",
        ),
    );
    let c = play(&r, &p, "A2>");
    assert_eq!(
        c.to_string(),
        "0,0,0,0,16,1,16,1/1,1,2,3,0,0,0,1/0,0,1,1,0,2,0,0/1,0,0,16,0,0,1,0 N 0,0 - a5 - 61"
    );
    // North may not start from a5; a6 (2) is its only other front pit with 2 or more.
    assert_eq!(legal(&r, &c), s(&["a6<", "a6>"]));
    // South still has one seed in store (namua; a7's seed moved to b7 so that planting in A2
    // captures nothing): A2> plants (A2 = 3) and sows A3, A4, A5 = 1. South would then threaten
    // only a5 (A6< ends in A4 = 2) and North could not capture, but the takata was a namua move.
    let n = pos_for(
        &r,
        "0,1,0,0,16,1,16,1/1,0,2,3,0,0,0,1/0,2,0,0,0,2,0,0/1,0,0,15,0,0,1,0 S 1,0 - - - 60",
    );
    assert_eq!(
        after(&r, &n, "A2>"),
        "0,1,0,0,16,1,16,1/1,0,2,3,0,0,0,1/0,0,1,1,1,2,0,0/1,0,0,15,0,0,1,0 N 0,0 - - - 61"
    );
}

/// Rule 5.1.1.1 / 4.2.3.1: the opponent's still owned house is not blocked.
#[test]
fn rule_5_1_1_1_owned_house_is_not_blocked() {
    let r = kiswahili();
    let p = pos_for(
        &r,
        &exemption_board(
            "0,0,0,0,16,1,16,1",
            "1,1,2,3,0,0,0,1",
            "1,0,0,16,0,0,1,0",
            "h",
        ),
    );
    assert_eq!(
        after(&r, &p, "A2>"),
        "0,0,0,0,16,1,16,1/1,1,2,3,0,0,0,1/0,0,1,1,0,2,0,0/1,0,0,16,0,0,1,0 N 0,0 h - - 61"
    );
}

/// Option `takasia = valid-house-only` (seed 000): only a valid house (6 or more) is exempt.
#[test]
fn option_takasia_valid_house_only_exempts_only_a_valid_house() {
    let r = rules_with(Variant::Kiswahili, "takasia = \"valid-house-only\"");
    assert_eq!(r.takasia, Takasia::ValidHouseOnly);
    // Owned house a5 = 3 (< 6): blocked.
    let p = pos_for(
        &r,
        &exemption_board(
            "0,0,0,0,16,1,16,1",
            "1,1,2,3,0,0,0,1",
            "1,0,0,16,0,0,1,0",
            "h",
        ),
    );
    assert_eq!(
        after(&r, &p, "A2>"),
        "0,0,0,0,16,1,16,1/1,1,2,3,0,0,0,1/0,0,1,1,0,2,0,0/1,0,0,16,0,0,1,0 N 0,0 h a5 - 61"
    );
    // Owned house a5 = 6 (b4 = 13 sows into the back row either way): exempt.
    let q = pos_for(
        &r,
        &exemption_board(
            "0,0,0,0,13,1,16,1",
            "1,1,2,6,0,0,0,1",
            "1,0,0,16,0,0,1,0",
            "h",
        ),
    );
    assert_eq!(
        after(&r, &q, "A2>"),
        "0,0,0,0,13,1,16,1/1,1,2,6,0,0,0,1/0,0,1,1,0,2,0,0/1,0,0,16,0,0,1,0 N 0,0 h - - 61"
    );
}

/// Rule 5.1.1.2: the opponent's only occupied front pit is not blocked.
#[test]
fn rule_5_1_1_2_only_occupied_front_pit_is_not_blocked() {
    let r = kiswahili();
    // North's front row is a5 = 1 alone (b5, b7, b8 = 2 sow into the back row or empty a7, a8).
    let p = pos_for(
        &r,
        &exemption_board(
            "2,2,1,2,16,1,16,1",
            "0,0,0,1,0,0,0,0",
            "1,0,0,16,0,0,1,0",
            "-",
        ),
    );
    assert_eq!(
        after(&r, &p, "A2>"),
        "2,2,1,2,16,1,16,1/0,0,0,1,0,0,0,0/0,0,1,1,0,2,0,0/1,0,0,16,0,0,1,0 N 0,0 - - - 61"
    );
}

/// Rule 5.1.1.3: the opponent's only front pit with more than one seed is not blocked.
#[test]
fn rule_5_1_1_3_only_front_pit_with_more_than_one_is_not_blocked() {
    let r = kiswahili();
    // North's front: a1, a7, a8 = 1 and a5 = 3 (no a6 now; its 2 seeds are in b5).
    let p = pos_for(
        &r,
        &exemption_board(
            "0,0,0,2,16,1,16,1",
            "1,1,0,3,0,0,0,1",
            "1,0,0,16,0,0,1,0",
            "-",
        ),
    );
    assert_eq!(
        after(&r, &p, "A2>"),
        "0,0,0,2,16,1,16,1/1,1,0,3,0,0,0,1/0,0,1,1,0,2,0,0/1,0,0,16,0,0,1,0 N 0,0 - - - 61"
    );
}

/// Rule 5.1 preconditions: no block when the opponent has a capture, or when X threatens two pits.
#[test]
fn rule_5_1_no_takasia_when_opponent_can_capture_or_two_pits_are_threatened() {
    let r = kiswahili();
    // North a4 = 2 (b1, b3 emptied): after A2>, a4> sows a5, a6 = 3 facing A3 = 1: North captures.
    let p = pos_for(
        &r,
        &exemption_board(
            "0,0,0,0,16,0,16,0",
            "1,1,2,3,2,0,0,1",
            "1,0,0,16,0,0,1,0",
            "-",
        ),
    );
    assert_eq!(
        after(&r, &p, "A2>"),
        "0,0,0,0,16,0,16,0/1,1,2,3,2,0,0,1/0,0,1,1,0,2,0,0/1,0,0,16,0,0,1,0 N 0,0 - - - 61"
    );
    // South B1 = 3 (B4 = 14): after A2>, B1< sows A1, A2, A3 = 2 facing a6 = 2: a second target.
    // (Before the move B1< ended in the empty A3: no capture then.)
    let q = pos_for(
        &r,
        &exemption_board(
            "0,0,0,0,16,1,16,1",
            "1,1,2,3,0,0,0,1",
            "3,0,0,14,0,0,1,0",
            "-",
        ),
    );
    assert_eq!(
        after(&r, &q, "A2>"),
        "0,0,0,0,16,1,16,1/1,1,2,3,0,0,0,1/0,0,1,1,0,2,0,0/3,0,0,14,0,0,1,0 N 0,0 - - - 61"
    );
}

// ---------------------------------------------------------------------------------------------
// 1.5.6 Infinite moves
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
    assert_eq!(
        outcome(&r, &p),
        Some(Outcome {
            winner: Some(Side::North),
            reason: EndReason::NoMoves
        })
    );
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
        Some(Outcome {
            winner: Some(Side::South),
            reason: EndReason::NeverEndingMove
        })
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
    let under = rules_with(Variant::Kiswahili, "max_sown = 50");
    let p = pos_for(&under, TAKASIA_EXAMPLE);
    assert_eq!(legal(&under, &p), s(&["a5<", "a5>", "a8<", "a8>"]));
    let over = rules_with(Variant::Kiswahili, "max_sown = 49");
    assert_eq!(legal(&over, &p), s(&["a5>", "a8<", "a8>"]));
    let tight = rules_with(Variant::Kiswahili, "max_sown = 35");
    assert_eq!(legal(&tight, &p), s(&["a5>", "a8>"]));
    // Played under `stop`, the move stops at the end of the sowing that passed the bound.
    let stop = rules_with(
        Variant::Kiswahili,
        "max_sown = 49\ninfinite_moves = \"stop\"",
    );
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
    let two = rules_with(Variant::Kiswahili, "lap_limit = 2");
    let p = pos_for(&two, p_text);
    assert_eq!(legal(&two, &p), s(&["a5>", "a8>"]));
    let four = rules_with(Variant::Kiswahili, "lap_limit = 4");
    assert_eq!(legal(&four, &p), s(&["a5<", "a5>", "a8<", "a8>"]));
    // With `stop`, a5< stops where the bound is passed: after the sixth sowing (a5 (2) -> a4, a3),
    // a3 = 4 is not lifted. North's ring (a1..a8 | b8..b1): 3 2 4 5 0 2 0 1 | 2 3 1 3 0 10 4 4.
    let stop = rules_with(
        Variant::Kiswahili,
        "lap_limit = 2\ninfinite_moves = \"stop\"",
    );
    assert_eq!(
        after(&stop, &p, "a5<"),
        "2,3,1,3,0,10,4,4/1,0,2,0,5,4,2,3/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 S 0,0 - - a4 62"
    );
}

/// Option `lap_limit`, as documented in `Rules::lap_limit` ("a move that sows more than this many
/// laps of 16 seeds counts as never-ending"): a5< sows 50 seeds, more than 3 laps (48), so with
/// `lap_limit = 3` it should be never-ending, hence illegal.
#[test]
fn option_lap_limit_counts_the_seeds_of_the_last_sowing() {
    let r = rules_with(Variant::Kiswahili, "lap_limit = 3");
    let p = pos_for(&r, TAKASIA_EXAMPLE);
    assert_eq!(legal(&r, &p), s(&["a5>", "a8<", "a8>"]));
}

// ---------------------------------------------------------------------------------------------
// Appendix: notation
// ---------------------------------------------------------------------------------------------

/// Appendix: `+` plays the house, `*` marks a takata, `**` a kutakatia, `#` the winning move; all are
/// accepted.
#[test]
fn appendix_markers_plus_star_double_star_and_hash_are_accepted() {
    let r = kiswahili();
    let p = pos_for(&r, START);
    assert_eq!(play(&r, &p, "A6<*"), play(&r, &p, "A6<"));
    let h = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,1,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 21,22 Hh - - 10",
    );
    assert!(!play(&r, &h, "A2<+").house_owned(Side::South));
    let w = pos_for(
        &r,
        "6,6,5,5,5,5,5,5/0,0,0,0,3,0,0,0/0,0,2,0,1,0,0,0/2,2,2,2,2,2,2,2 S 0,0 - - - 60",
    );
    assert_eq!(play(&r, &w, "A3>#"), play(&r, &w, "A3>"));
    let t = pos_for(&r, TAKASIA_BEFORE);
    assert_eq!(play(&r, &t, "A7<**"), play(&r, &t, "A7<"));
}

/// Appendix: in the namua stage the row may be omitted; in a namua capture `<`/`>` name the left or
/// right kichwa; the direction may be omitted for a capture in a kichwa/kimbi.
#[test]
fn appendix_row_and_forced_direction_may_be_omitted() {
    let r = kiswahili();
    let p = pos_for(&r, START);
    assert_eq!(play(&r, &p, "6<"), play(&r, &p, "A6<"));
    // Kimbi capture: A2, 2 and A2< are the same move.
    let k = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,1,2,6,0,0,0,0/0,1,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22,22 Hh - - 10",
    );
    assert_eq!(play(&r, &k, "A2"), play(&r, &k, "A2<"));
    assert_eq!(play(&r, &k, "2"), play(&r, &k, "A2<"));
    // Outside the kimbi the kichwa must be named: `a5` alone is ambiguous.
    let c = play(&r, &p, "A6<");
    assert!(matches!(
        try_play(&r, &c, "a5"),
        Err(MoveError::Ambiguous { .. })
    ));
    assert_eq!(play(&r, &c, "5>"), play(&r, &c, "a5>"));
}

/// Appendix: a game record has one line per move pair, `N: south north;` and a comment after `;`.
#[test]
fn appendix_game_record_one_line_per_move_pair() {
    let r = kiswahili();
    let start = Position::start(&r);
    let rec: Record = "1: 6<* a5<; North takes A4 and sows it from its left kichwa\n2: A3> a1<;"
        .parse()
        .unwrap();
    let (moves, positions) = rec.replay(&r, &start).unwrap();
    assert_eq!(moves.len(), 4);
    // 1. A6< (A5 = 7, A4 = 1, A3 = 1); a5< (a5 = 7, A4's seed to a1).
    // 2. A3> (A3 faces a6 = 2, so South must capture): A3 = 2, a6's 2 seeds from the right kichwa:
    //    A8 = 1, A7 = 3 facing a2 = 0 -> relay A7 (3): A6 = 1, A5 = 8, A4 = 1 (empty): stop.
    //    a1< (a1 faces A8 = 1; a kichwa, so the left one): a1 = 2, A8's seed into a1 = 3, facing the
    //    now empty A8 -> relay a1 (3): a2, a3, a4 = 1 (empty): stop.
    assert_eq!(
        positions.last().unwrap().to_string(),
        "0,0,0,0,0,0,0,0/0,2,0,7,1,1,1,0/0,0,2,1,8,1,0,0/0,0,0,0,0,0,0,0 S 20,20 Hh - - 4"
    );
}
