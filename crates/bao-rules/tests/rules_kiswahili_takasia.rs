//! Named rule tests for Bao la Kiswahili: takasia (kutakatia, seed 003's rules 5.x), with seed
//! 000's example and the exemptions and options of shared/RULES.md. The other rules are in
//! `rules_kiswahili.rs` and `rules_kiswahili_namua.rs`.
//!
//! Every expected position was worked out by hand from the rule text; the comment above each
//! assertion gives the reasoning. Positions and directions are written as `rules_kiswahili.rs`
//! explains.

mod common;

use bao_rules::variant::Takasia;
use bao_rules::{Rules, StopReason, Variant};
use common::mtaji::{self, TAKASIA_BEFORE, TAKASIA_EXAMPLE, TAKASIA_EXAMPLE_UNBLOCKED};
use common::*;

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
    let q = pos_for(&none, TAKASIA_EXAMPLE_UNBLOCKED);
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
    let q = pos_for(&none, TAKASIA_EXAMPLE_UNBLOCKED);
    assert_ne!(stop_reason(&none, &q, "a8<"), StopReason::Blocked);
}

/// Rule 5.1 (RULES.md: X's next move must capture that pit, even if other captures exist).
#[test]
fn rule_5_1_takasia_target_must_be_captured_before_any_other() {
    mtaji::takasia_target_is_captured_before_any_other(&kiswahili());
}

/// A board for the exemption tests: South's front row is A2 = 2, A6 = 2; its takata A2> (A3 = 1,
/// A4 = 1) leaves South one threat, A6< (A5 = 1, A4 = 2 facing a5). The other rows and the
/// houses vary from test to test.
struct ExemptionBoard {
    north_back: &'static str,
    north_front: &'static str,
    south_back: &'static str,
    houses: &'static str,
}

/// The usual exemption board: North has no capture (its sowings end in a2, a8 or the back row;
/// b2, b4 hold 16 and cannot capture), and a5 = 3 is neither its only front pit nor its only
/// front pit with more than one seed.
const USUAL: ExemptionBoard = ExemptionBoard {
    north_back: "0,0,0,0,16,1,16,1",
    north_front: "1,1,2,3,0,0,0,1",
    south_back: "1,0,0,16,0,0,1,0",
    houses: "-",
};

impl ExemptionBoard {
    /// The board as position text, South to move.
    fn text(&self) -> String {
        self.with("0,2,0,0,0,2,0,0", "S", "-", 60)
    }

    /// The board South's takata A2> leaves (A3 = 1, A4 = 1, North to move), with `blocked` the pit
    /// takasia blocks for North, or `-`.
    fn after_takata(&self, blocked: &str) -> String {
        self.with("0,0,1,1,0,2,0,0", "N", blocked, 61)
    }

    /// The position text with South's front row, the side to move, the blocked pit and the ply.
    fn with(&self, south_front: &str, side: &str, blocked: &str, ply: u32) -> String {
        let ExemptionBoard {
            north_back,
            north_front,
            south_back,
            houses,
        } = self;
        format!(
            "{north_back}/{north_front}/{south_front}/{south_back} {side} 0,0 {houses} {blocked} - \
             {ply}"
        )
    }

    /// Checks that South's takata A2> under `r` leaves the board with `blocked` blocked.
    fn assert_takata_blocks(&self, r: &Rules, blocked: &str) {
        let p = pos_for(r, &self.text());
        assert_eq!(after(r, &p, "A2>"), self.after_takata(blocked));
    }
}

/// Rule 5.1: the threatened pit is blocked (North's house not owned); and X's takata in the namua
/// stage does not block (RULES.md: takasia is for mtaji-stage takata only).
#[test]
fn rule_5_1_takasia_only_after_a_mtaji_stage_takata() {
    let r = kiswahili();
    let c = play(&r, &pos_for(&r, &USUAL.text()), "A2>");
    assert_eq!(c.to_string(), USUAL.after_takata("a5"));
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
    let owned = ExemptionBoard {
        houses: "h",
        ..USUAL
    };
    owned.assert_takata_blocks(&kiswahili(), "-");
}

/// Option `takasia = valid-house-only` (seed 000): only a valid house (6 or more) is exempt.
#[test]
fn option_takasia_valid_house_only_exempts_only_a_valid_house() {
    let r = rules_with(Variant::Kiswahili, "takasia = \"valid-house-only\"");
    assert_eq!(r.takasia, Takasia::ValidHouseOnly);
    // Owned house a5 = 3 (< 6): blocked.
    let owned = ExemptionBoard {
        houses: "h",
        ..USUAL
    };
    owned.assert_takata_blocks(&r, "a5");
    // Owned house a5 = 6 (b4 = 13 sows into the back row either way): exempt.
    let valid = ExemptionBoard {
        north_back: "0,0,0,0,13,1,16,1",
        north_front: "1,1,2,6,0,0,0,1",
        houses: "h",
        ..USUAL
    };
    valid.assert_takata_blocks(&r, "-");
}

/// Rule 5.1.1.2: the opponent's only occupied front pit is not blocked.
#[test]
fn rule_5_1_1_2_only_occupied_front_pit_is_not_blocked() {
    // North's front row is a5 = 1 alone (b5, b7, b8 = 2 sow into the back row or empty a7, a8).
    let lone = ExemptionBoard {
        north_back: "2,2,1,2,16,1,16,1",
        north_front: "0,0,0,1,0,0,0,0",
        ..USUAL
    };
    lone.assert_takata_blocks(&kiswahili(), "-");
}

/// Rule 5.1.1.3: the opponent's only front pit with more than one seed is not blocked.
#[test]
fn rule_5_1_1_3_only_front_pit_with_more_than_one_is_not_blocked() {
    // North's front: a1, a7, a8 = 1 and a5 = 3 (no a6 now; its 2 seeds are in b5).
    let only_big = ExemptionBoard {
        north_back: "0,0,0,2,16,1,16,1",
        north_front: "1,1,0,3,0,0,0,1",
        ..USUAL
    };
    only_big.assert_takata_blocks(&kiswahili(), "-");
}

/// Rule 5.1 preconditions: no block when the opponent has a capture, or when X threatens two pits.
#[test]
fn rule_5_1_no_takasia_when_opponent_can_capture_or_two_pits_are_threatened() {
    let r = kiswahili();
    // North a4 = 2 (b1, b3 emptied): after A2>, a4> sows a5, a6 = 3 facing A3 = 1: North captures.
    let answer = ExemptionBoard {
        north_back: "0,0,0,0,16,0,16,0",
        north_front: "1,1,2,3,2,0,0,1",
        ..USUAL
    };
    answer.assert_takata_blocks(&r, "-");
    // South B1 = 3 (B4 = 14): after A2>, B1< sows A1, A2, A3 = 2 facing a6 = 2: a second target.
    // (Before the move B1< ended in the empty A3: no capture then.)
    let two_targets = ExemptionBoard {
        south_back: "3,0,0,14,0,0,1,0",
        ..USUAL
    };
    two_targets.assert_takata_blocks(&r, "-");
}
