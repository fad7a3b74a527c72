//! Named rule tests for Bao la Kimasai (seed 004, MacKay 2001): one seed in each inner hole, 24 in
//! reserve, sowing always clockwise; a first part of planting without captures (the very first turn
//! plants nothing), a second part in which any non-empty hole may start and a last seed in an
//! occupied inner hole facing an occupied hole steals those seeds.
//!
//! Positions: `b8..b1/a8..a1/A1..A8/B1..B8 side stores houses blocked target ply` (North's rows as
//! South sees them: a hole and the hole it faces share a column). Clockwise is `>` from the inner
//! (front) row and `<` from the outer (back) row. Expected positions were worked out by hand.

mod common;

use bao_rules::notation::MoveError;
use bao_rules::{EndReason, Position, Side, Variant};
use common::*;

fn kimasai() -> bao_rules::Rules {
    Variant::Kimasai.rules()
}

/// After the first two turns of the game (see the tests below).
const AFTER_TWO: &str =
    "1,0,0,0,0,0,0,0/2,0,2,0,2,0,2,0/1,1,0,0,2,0,2,0/0,0,0,0,0,0,1,1 S 24,23 - - - 2";

/// Initial position; first turn: no seed is introduced, any hole is emptied and sown clockwise,
/// with relays, and nothing is captured.
#[test]
fn kimasai_start_and_first_turn_without_a_reserve_seed() {
    let r = kimasai();
    let p = Position::start(&r);
    assert_eq!(
        p.to_string(),
        "0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 S 24,24 - - - 0"
    );
    assert_eq!(
        legal(&r, &p),
        s(&["A1>", "A2>", "A3>", "A4>", "A5>", "A6>", "A7>", "A8>"])
    );
    // A3>: A4 = 2 -> relay: A5 = 2, A6 = 2 -> relay: A7 = 2, A8 = 2 -> relay: B8 = 1, B7 = 1
    // (empty): stop. The reserve is untouched.
    assert_eq!(
        after(&r, &p, "A3>"),
        "0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,0,0,2,0,2,0/0,0,0,0,0,0,1,1 N 24,24 - - - 1"
    );
}

/// First part: a seed from the reserve goes into a non-empty hole, which is then sown clockwise
/// with relays; a last seed facing seeds captures nothing.
#[test]
fn kimasai_first_part_plants_then_sows_and_never_captures() {
    let r = kimasai();
    let p = play(&r, &Position::start(&r), "A3>");
    // North: a1 = 2 -> a2 = 2, a3 = 2 -> relay: a4 = 2, a5 = 2 -> relay: a6 = 2, a7 = 2 (facing
    // A2 = 1: no capture in the first part) -> relay: a8 = 2, b8 = 1 (empty): stop.
    assert_eq!(after(&r, &p, "a1>"), AFTER_TWO);
}

/// First part: the seed may go into either row (any non-empty hole of the player).
#[test]
fn kimasai_first_part_plants_in_either_row() {
    let r = kimasai();
    let p = pos_for(&r, AFTER_TWO);
    assert_eq!(
        legal(&r, &p),
        s(&["A1>", "A2>", "A5>", "A7>", "B7<", "B8<"])
    );
    // B8<: B8 = 2 -> B7 = 2, B6 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "B8<"),
        "1,0,0,0,0,0,0,0/2,0,2,0,2,0,2,0/1,1,0,0,2,0,2,0/0,0,0,0,0,1,2,0 N 23,23 - - - 3"
    );
    // Sowing is always clockwise.
    assert!(matches!(
        try_play(&r, &p, "A2<"),
        Err(MoveError::Illegal { .. })
    ));
}

/// Second part: any non-empty hole may start, singletons too; stealing is not compulsory; stolen
/// cows are sown from the hole that made the capture, and steals and relays go on until a last seed
/// falls into an empty hole.
#[test]
fn kimasai_second_part_steals_sown_from_the_capturing_hole() {
    let r = kimasai();
    let p = pos_for(
        &r,
        "5,6,6,6,6,6,6,6/2,0,2,1,0,2,0,2/0,1,1,1,0,0,0,2/0,0,0,0,3,0,0,0 S 0,0 - - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["A2>", "A3>", "A4>", "A8>", "B5<"]));
    // A2> (one seed): A3 = 2 faces a6 = 2 -> steal 2, sown from A3: A3 = 3, A4 = 2 faces a5 = 1 ->
    // steal 1, sown from A4: A4 = 3, a5 now empty -> relay A4 (3): A5, A6, A7 = 1 (empty): stop.
    assert_eq!(captures(&r, &p, "A2>"), vec!["a6:2", "a5:1"]);
    assert_eq!(
        after(&r, &p, "A2>"),
        "5,6,6,6,6,6,6,6/2,0,0,0,0,2,0,2/0,0,3,0,1,1,1,2/0,0,0,0,3,0,0,0 N 0,0 - - - 61 \
         mtaji-captured=1"
    );
}

/// Game end: a player with no cows left in the inner row loses, at once.
#[test]
fn kimasai_empty_inner_row_loses() {
    let r = kimasai();
    // North's only inner cows: a6 = 2. A2>: A3 = 2 faces a6 -> steal: North's inner row is empty.
    let p = pos_for(
        &r,
        "5,6,6,6,6,6,6,6/0,0,2,0,0,0,0,0/0,1,1,0,0,0,0,2/8,0,0,0,3,0,0,0 S 0,0 - - - 60",
    );
    let c = play(&r, &p, "A2>");
    assert_eq!(
        c.to_string(),
        "5,6,6,6,6,6,6,6/0,0,0,0,0,0,0,0/0,0,2,0,0,0,0,2/8,0,0,0,3,0,0,0 N 2,0 - - - 61 \
         mtaji-captured=1 over=S/front-row-empty"
    );
    assert_eq!(outcome(&r, &c), won(Side::South, EndReason::FrontRowEmpty));
}
