//! Named rule tests for Katra Fandatsaka (seed 000): the ladder step "captures during planting"
//! started from one seed in each of the six central front pits and 26 in store, so that the
//! planting stage captures from the first move; no house, no tax, no takasia.
//!
//! Positions: `b8..b1/a8..a1/A1..A8/B1..B8 side stores houses blocked target ply` (North's rows as
//! South sees them: a pit and the pit it faces share a column). `<` from the front row is
//! anticlockwise (toward A1, then B1), `>` clockwise (toward A8, then B8). Expected positions were
//! worked out by hand from the rule text; comments give the steps.

mod common;

use bao_rules::{Position, Variant};
use common::*;

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
