//! Named rule tests for Katra Fandatsaka (seed 000), one test per rule of its section in
//! shared/RULES.md: the ladder step "captures during planting" (a planting stage with captures,
//! then the mtaji stage of Bao la Kujifunza) started from one seed in each of the six central front
//! pits and 26 in store, so that the planting stage captures from the first move; no house, no
//! tax, no takasia, and no restriction on planting into a single-seed pit.
//!
//! Positions: `b8..b1/a8..a1/A1..A8/B1..B8 side stores houses blocked target ply` (North's rows as
//! South sees them: a pit and the pit it faces share a column). `<` from the front row is
//! anticlockwise (toward A1, then B1), `>` clockwise (toward A8, then B8). Expected positions were
//! worked out by hand from the rule text; comments give the steps.

mod common;

use bao_rules::notation::MoveError;
use bao_rules::{EndReason, Position, Rules, Side, StopReason, Variant};
use common::mtaji;
use common::*;

fn katra() -> Rules {
    Variant::KatraFandatsaka.rules()
}

/// Planting, nothing to capture: South's front row holds A3 = 2 and the singleton A6, facing the
/// empty a6 and a3; its back row B4 = 2; North's front row a1 = 2, a8 = 1.
const NO_CAPTURE: &str =
    "1,1,2,2,3,3,2,2/1,0,0,0,0,0,0,2/0,0,2,0,0,1,0,0/0,0,0,2,0,0,0,0 S 20,20 - - - 12";

/// Katra Fandatsaka: one seed in each of the six central front pits, 26 in store: every first
/// planting captures.
#[test]
fn katra_fandatsaka_start_forces_captures_from_the_first_move() {
    let r = Variant::KatraFandatsaka.rules();
    let p = Position::start(&r);
    assert_eq!(
        p.to_string(),
        "0,0,0,0,0,0,0,0/0,1,1,1,1,1,1,0/0,1,1,1,1,1,1,0/0,0,0,0,0,0,0,0 S 26,26 - - - 0"
    );
    // A2 and A7 are kimbi: only the nearest kichwa.
    assert_eq!(
        legal(&r, &p),
        s(&[
            "A2<", "A3<", "A3>", "A4<", "A4>", "A5<", "A5>", "A6<", "A6>", "A7>"
        ])
    );
    // A4<: A4 = 2, a5's seed sown into A1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A4<"),
        "0,0,0,0,0,0,0,0/0,1,1,0,1,1,1,0/1,1,1,2,1,1,1,0/0,0,0,0,0,0,0,0 N 25,26 - - - 1"
    );
}

/// A planting capture in a central pit (3 to 6) sows the captured seeds from the kichwa the player
/// chooses: `<` the left one, `>` the right one.
#[test]
fn katra_planting_capture_in_a_central_pit_chooses_the_kichwa() {
    let r = katra();
    let p = Position::start(&r);
    // A4> (see the start above for A4<): A4 = 2, a5's seed sown from the right kichwa: A8 = 1
    // (empty): stop.
    assert_eq!(
        after(&r, &p, "A4>"),
        "0,0,0,0,0,0,0,0/0,1,1,0,1,1,1,0/0,1,1,2,1,1,1,1/0,0,0,0,0,0,0,0 N 25,26 - - - 1"
    );
}

/// A planting capture in a kimbi (pits 1, 2, 7, 8) sows from the nearest kichwa.
#[test]
fn katra_planting_capture_in_a_kimbi_uses_the_nearest_kichwa() {
    let r = katra();
    let p = Position::start(&r);
    // A2<: A2 = 2, a7's seed sown from the left kichwa: A1 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A2<"),
        "0,0,0,0,0,0,0,0/0,0,1,1,1,1,1,0/1,2,1,1,1,1,1,0/0,0,0,0,0,0,0,0 N 25,26 - - - 1"
    );
    // A7>: A7 = 2, a2's seed sown from the right kichwa: A8 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A7>"),
        "0,0,0,0,0,0,0,0/0,1,1,1,1,1,0,0/0,1,1,1,1,1,2,1/0,0,0,0,0,0,0,0 N 25,26 - - - 1"
    );
    for far in ["A2>", "A7<"] {
        assert!(
            matches!(try_play(&r, &p, far), Err(MoveError::Illegal { .. })),
            "{far}"
        );
    }
}

/// A player who can capture while planting must.
#[test]
fn katra_planting_capture_is_mandatory() {
    let r = katra();
    // As `NO_CAPTURE` but with a3 = 1 (from b7) facing A6: planting in A6 captures, so the
    // takata from A3 is not allowed.
    let p = pos_for(
        &r,
        "1,0,2,2,3,3,2,2/1,0,0,0,0,1,0,2/0,0,2,0,0,1,0,0/0,0,0,2,0,0,0,0 S 20,20 - - - 12",
    );
    assert_eq!(legal(&r, &p), s(&["A6<", "A6>"]));
    // A6<: A6 = 2 keeps its seeds; a3's seed sown from the left kichwa: A1 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A6<"),
        "1,0,2,2,3,3,2,2/1,0,0,0,0,0,0,2/1,0,2,0,0,2,0,0/0,0,0,2,0,0,0,0 N 19,20 - - - 13"
    );
}

/// Without a capture, the planted pit is lifted and sown in the direction the player chooses,
/// with relays, and captures nothing (a takata).
#[test]
fn katra_planting_without_capture_sows_the_planted_pit() {
    let r = katra();
    let p = pos_for(&r, NO_CAPTURE);
    // A3>: A3 = 3, sown A4 = 1, A5 = 1, A6 = 2 -> relay A6 (2): A7 = 1, A8 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A3>"),
        "1,1,2,2,3,3,2,2/1,0,0,0,0,0,0,2/0,0,0,1,1,0,1,1/0,0,0,2,0,0,0,0 N 19,20 - - - 13"
    );
    // A3<: A3 = 3, sown A2 = 1, A1 = 1, then into the back row: B1 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A3<"),
        "1,1,2,2,3,3,2,2/1,0,0,0,0,0,0,2/1,1,0,0,0,1,0,0/1,0,0,2,0,0,0,0 N 19,20 - - - 13"
    );
}

/// A planting that captures nothing makes the whole move a takata: no later sowing captures.
#[test]
fn katra_planting_takata_never_captures() {
    let r = katra();
    // South plants in A2 (facing the empty a7); A3 is empty and faces a6 = 2. No planting can
    // capture (A1, A2, A5, A7 face empty pits).
    let p = pos_for(
        &r,
        "0,0,0,2,2,2,2,2/0,0,2,1,0,1,0,1/1,2,0,0,1,0,1,0/0,1,0,1,0,1,0,1 S 20,20 - - - 12",
    );
    assert!(captures(&r, &p, "A2>").is_empty());
    // A2>: A2 = 3, sown A3 = 1, A4 = 1, A5 = 2 -> relay A5: A6 = 1, A7 = 2 -> relay A7: A8 = 1,
    // B8 = 2 -> relay B8: B7 = 1, B6 = 2 -> relay B6: B5 = 1, B4 = 2 -> relay B4: B3 = 1, B2 = 2
    // -> relay B2: B1 = 1, A1 = 2 -> relay A1: A2 = 1, A3 = 2, which faces a6 = 2, but a takata
    // does not capture: relay A3: A4 = 2, A5 = 1 (emptied): stop.
    assert_eq!(
        after(&r, &p, "A2>"),
        "0,0,0,2,2,2,2,2/0,0,2,1,0,1,0,1/0,1,0,2,1,1,0,1/1,0,1,0,1,0,1,0 N 19,20 - - - 13"
    );
}

/// A seed is planted only into an occupied pit of the front row: not into an empty pit, not into
/// the back row.
#[test]
fn katra_plants_only_into_occupied_front_pits() {
    let r = katra();
    let p = pos_for(&r, NO_CAPTURE);
    assert_eq!(legal(&r, &p), s(&["A3<", "A3>", "A6<", "A6>"]));
    for not_planted in ["A1<", "A5>", "B4<", "B4>"] {
        assert!(
            matches!(
                try_play(&r, &p, not_planted),
                Err(MoveError::Illegal { .. })
            ),
            "{not_planted}"
        );
    }
}

/// A single-seed pit may always be planted into (the restriction of Bao la Kiswahili, rule 2.3.3,
/// is a later ladder step).
#[test]
fn katra_singletons_may_be_planted() {
    let r = katra();
    let p = pos_for(&r, NO_CAPTURE);
    // A6<: A6 = 2, sown A5 = 1, A4 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A6<"),
        "1,1,2,2,3,3,2,2/1,0,0,0,0,0,0,2/0,0,2,1,1,0,0,0/0,0,0,2,0,0,0,0 N 19,20 - - - 13"
    );
    // In Bao la Kiswahili, with the houses lost, A3 = 2 rules the singleton out.
    let k = kiswahili();
    assert_eq!(legal(&k, &pos_for(&k, NO_CAPTURE)), s(&["A3<", "A3>"]));
}

/// Pit 5 is an ordinary pit: it may be planted into and sown whole whatever it holds, and a
/// takata ending in it relays.
#[test]
fn katra_pit_five_is_no_house() {
    let r = katra();
    // South: the singleton A3 and A5 = 6, facing the empty a6 and a4.
    let p = pos_for(
        &r,
        "1,1,2,2,2,2,2,2/1,0,0,0,0,0,0,2/0,0,1,0,6,0,0,0/0,0,0,0,0,0,0,0 S 20,20 - - - 12",
    );
    assert_eq!(legal(&r, &p), s(&["A3<", "A3>", "A5<", "A5>"]));
    // A3>: A3 = 2, sown A4 = 1, A5 = 7 -> relay A5 (7): A6, A7, A8, B8, B7, B6, B5 = 1: stop.
    assert_eq!(
        after(&r, &p, "A3>"),
        "1,1,2,2,2,2,2,2/1,0,0,0,0,0,0,2/0,0,0,1,0,1,1,1/0,0,0,0,1,1,1,1 N 19,20 - - - 13"
    );
    // A5>: A5 = 7, all sown (no tax): A6, A7, A8, B8, B7, B6, B5 = 1: stop.
    assert_eq!(
        after(&r, &p, "A5>"),
        "1,1,2,2,2,2,2,2/1,0,0,0,0,0,0,2/0,0,1,0,0,1,1,1/0,0,0,0,1,1,1,1 N 19,20 - - - 13"
    );
}

/// A capture that empties the opponent's front row wins at once, in the planting stage too; the
/// captured seed stays in the winner's hand (kept in its store).
#[test]
fn katra_capture_emptying_the_front_row_wins_during_planting() {
    let r = katra();
    // North's only front seed is a5 = 1, facing A4 = 1; A2 and A7 face empty pits.
    let p = pos_for(
        &r,
        "0,0,0,2,2,2,2,2/0,0,0,1,0,0,0,0/0,1,0,1,0,0,1,0/0,0,0,0,0,0,0,0 S 25,25 - - - 2",
    );
    assert_eq!(legal(&r, &p), s(&["A4<", "A4>"]));
    // A4<: A4 = 2, capture a5: North's front row is empty before the seed is sown.
    let c = play(&r, &p, "A4<");
    assert_eq!(
        c.to_string(),
        "0,0,0,2,2,2,2,2/0,0,0,0,0,0,0,0/0,1,0,2,0,0,1,0/0,0,0,0,0,0,0,0 N 25,25 - - - 3 \
         over=S/front-row-empty"
    );
    assert_eq!(outcome(&r, &c), won(Side::South, EndReason::FrontRowEmpty));
    assert_eq!(stop_reason(&r, &p, "A4<"), StopReason::FrontRowEmpty);
    assert_eq!(play(&r, &p, "A4>"), c);
}

/// Once a player's store is empty it plays the mtaji stage of Bao la Kujifunza: moves from pits of
/// 2 or more in either row, captures first and mandatory, at most 15 seeds for a capture,
/// takata from the front row first, captures in a kimbi from the nearest kichwa, no captures in a
/// takata, and a player who cannot move loses.
#[test]
fn katra_mtaji_stage_plays_as_bao_la_kujifunza() {
    let r = katra();
    mtaji::capture_is_mandatory_and_may_start_in_the_back_row(&r);
    mtaji::more_than_fifteen_seeds_only_takata(&r);
    mtaji::takata_starts_in_the_front_row(&r);
    mtaji::kimbi_capture_turns_the_move(&r);
    mtaji::takata_never_captures(&r);
    mtaji::only_singletons_cannot_move(&r);
}

/// No takasia: after a mtaji-stage takata that leaves the opponent no capture and a single pit
/// under threat, that pit is not blocked.
#[test]
fn katra_has_no_takasia() {
    let r = katra();
    // Bao la Kiswahili's exemption board (rules_kiswahili_takasia.rs): South's takata A2> (A3 = 1,
    // A4 = 1) threatens only a5 (A6< would end in A4 = 2 facing it); North has no capture.
    let p = pos_for(
        &r,
        "0,0,0,0,16,1,16,1/1,1,2,3,0,0,0,1/0,2,0,0,0,2,0,0/1,0,0,16,0,0,1,0 S 0,0 - - - 60",
    );
    let c = play(&r, &p, "A2>");
    assert_eq!(
        c.to_string(),
        "0,0,0,0,16,1,16,1/1,1,2,3,0,0,0,1/0,0,1,1,0,2,0,0/1,0,0,16,0,0,1,0 N 0,0 - - - 61"
    );
    // North may start from a5 as from a6, its front pits with 2 or more.
    assert_eq!(legal(&r, &c), s(&["a5<", "a5>", "a6<", "a6>"]));
}
