//! Mtaji-stage rules that several games share (Bao la Kiswahili, Bao la Kujifunza, Malawi Bao and
//! the later steps of the ladder), each checked on one position whose outcome was worked out by
//! hand from the rule text. A game's named test calls the check with its own rule set, so the
//! position and its reasoning are written once.

use super::{after, captures, legal, outcome, pos_for, s, won};
use bao_rules::{EndReason, Position, Rules, Side};

/// Seed 000's takasia example just before South's takata A7< (two seeds from the 7th front pit,
/// anticlockwise). Houses are no longer owned.
pub const TAKASIA_BEFORE: &str =
    "0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,0,0,2,0/0,0,2,2,0,2,6,4 S 0,0 - - - 60";

/// Seed 000's example board after A7<: North to move, a4 blocked.
pub const TAKASIA_EXAMPLE: &str =
    "0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 N 0,0 - a4 - 61";

/// The same board with nothing blocked (as it stands in a game without takasia).
pub const TAKASIA_EXAMPLE_UNBLOCKED: &str =
    "0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 N 0,0 - - - 61";

/// South's seeds are the singletons A1, A3 and B2: it cannot move, so it has lost.
pub fn only_singletons_cannot_move(r: &Rules) {
    let p = pos_for(
        r,
        "7,7,6,6,6,6,6,7/0,0,0,0,0,5,5,0/1,0,1,0,0,0,0,0/0,1,0,0,0,0,0,0 S 0,0 - - - 60",
    );
    assert!(legal(r, &p).is_empty());
    assert_eq!(outcome(r, &p), won(Side::North, EndReason::NoMoves));
}

/// South's A1 holds 17; A1> would end in A2 (2 seeds there after a lap) facing a7 = 3.
pub const SEVENTEEN_IN_A1: &str =
    "6,6,5,5,5,5,5,5/0,3,0,0,1,0,0,0/17,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0 S 0,0 - - - 60";

/// A pit with more than 15 seeds never starts a capture move: from [`SEVENTEEN_IN_A1`], A1 may
/// only start a takata, either way.
pub fn more_than_fifteen_seeds_only_takata(r: &Rules) {
    let p = pos_for(r, SEVENTEEN_IN_A1);
    assert_eq!(legal(r, &p), s(&["A1<", "A1>"]));
    // A1> as a takata: 16 seeds make one lap (every pit +1), the 17th falls in A2: A1 = 1, A2 = 2,
    // A5 = 2, every other pit 1. Then relays of 2 seeds: A2 -> A3 = 2, A4 = 2; A4 -> A5 = 3,
    // A6 = 2; A6 -> A7 = 2, A8 = 2; A8 -> B8 = 2, B7 = 2; B7 -> B6 = 2, B5 = 2; B5 -> B4 = 2,
    // B3 = 2; B3 -> B2 = 2, B1 = 2; B1 -> A1 = 2, A2 = 1 (emptied): stop. North then captures
    // (a7 sows a6, a5, a4 = 2 facing A5), so there is no takasia where the game has it.
    assert_eq!(
        after(r, &p, "A1>"),
        "6,6,5,5,5,5,5,5/0,3,0,0,1,0,0,0/2,1,2,0,3,0,2,0/0,2,0,2,0,2,0,2 N 0,0 - - - 61"
    );
}

/// South front: singletons A1, A6 and A3 = 2; back B2 = 2, B5 = 3, B7 = 1. No sowing captures:
/// A3> ends in A5 (empty), A3< and B2< in A1 = 2 facing a8 = 0, the rest in the back row.
pub const NO_CAPTURE: &str =
    "3,3,4,4,4,4,4,3/0,5,5,5,5,5,0,0/1,0,2,0,0,1,0,0/0,2,0,0,3,0,1,0 S 0,0 - - - 60";

/// Without a capture the takata starts in the front row when a front pit holds 2 or more: from
/// [`NO_CAPTURE`] only A3 may move, though B2 and B5 could.
pub fn takata_starts_in_the_front_row(r: &Rules) {
    assert_eq!(legal(r, &pos_for(r, NO_CAPTURE)), s(&["A3<", "A3>"]));
}

/// [`NO_CAPTURE`] with a8 = 1 (one seed from b1): A3< (A2 = 1, A1 = 2) and B2< (B1 = 1, A1 = 2)
/// both end in A1 facing a8.
pub const BACK_ROW_CAPTURE: &str =
    "3,3,4,4,4,4,3,3/1,5,5,5,5,5,0,0/1,0,2,0,0,1,0,0/0,2,0,0,3,0,1,0 S 0,0 - - - 60";

/// A capture is mandatory and may start in the back row: from [`BACK_ROW_CAPTURE`] only the two
/// captures are legal.
pub fn capture_is_mandatory_and_may_start_in_the_back_row(r: &Rules) {
    let p = pos_for(r, BACK_ROW_CAPTURE);
    assert_eq!(legal(r, &p), s(&["A3<", "B2<"]));
    // B2<: B1 = 1, A1 = 2, capture a8 (1); A1 is a kichwa: sown from A1 clockwise, A1 = 3, which
    // faces the now empty a8: relay A1 (3): A2 = 1, A3 = 3, A4 = 1, empty before: stop.
    assert_eq!(
        after(r, &p, "B2<"),
        "3,3,4,4,4,4,3,3/0,5,5,5,5,5,0,0/0,1,3,1,0,1,0,0/1,0,0,0,3,0,1,0 N 0,0 - - - 61 \
         mtaji-captured=1"
    );
}

/// A move that does not start with a capture (a takata) captures nothing later in the move.
pub fn takata_never_captures(r: &Rules) {
    let p = pos_for(
        r,
        "4,4,4,5,5,5,5,5/0,0,5,0,0,5,5,5/0,2,0,1,1,1,0,0/1,0,0,0,0,0,0,1 S 0,0 - - - 60",
    );
    assert_eq!(legal(r, &p), s(&["A2<", "A2>"]));
    assert!(captures(r, &p, "A2>").is_empty());
    // A2>: A3 = 1, A4 = 2 faces a5 = 0, no capture: a takata. Relay A4 (2): A5 = 2, A6 = 2; A6
    // faces a3 = 5, but a takata does not capture: relay A6 (2): A7 = 1, A8 = 1 (empty): stop.
    // Then North can capture (a6 sows a5..a1: a1 = 6 faces A8 = 1), so there is no takasia
    // where the game has it.
    assert_eq!(
        after(r, &p, "A2>"),
        "4,4,4,5,5,5,5,5/0,0,5,0,0,5,5,5/0,0,1,0,2,0,1,1/1,0,0,0,0,0,0,1 N 0,0 - - - 61"
    );
}

/// South's only pit with 2 seeds is A4; A4< (anticlockwise) ends in the kimbi A2 facing a7 = 2.
pub const KIMBI_CAPTURE: &str =
    "6,6,5,5,5,5,5,5/0,2,0,5,5,5,0,0/0,1,0,2,0,0,0,0/0,0,1,0,1,0,0,0 S 0,0 - - - 60";

/// A capture in a kimbi sows from the nearest kichwa, which turns the move round.
pub fn kimbi_capture_turns_the_move(r: &Rules) {
    let p = pos_for(r, KIMBI_CAPTURE);
    assert_eq!(legal(r, &p), s(&["A4<"]));
    // A4<: A3 = 1, A2 = 2 faces a7 = 2 -> capture. A2 is a kimbi: sown from A1 clockwise: A1 = 1,
    // A2 = 3; a7 is now empty: relay A2 (3) clockwise: A3 = 2, A4 = 1, A5 = 1 (empty before): stop.
    assert_eq!(
        after(r, &p, "A4<"),
        "6,6,5,5,5,5,5,5/0,0,0,5,5,5,0,0/1,0,2,1,1,0,0,0/0,0,1,0,1,0,0,0 N 0,0 - - - 61 \
         mtaji-captured=1"
    );
}

/// From the start with 2 seeds in every pit, A6< captures three times.
pub fn two_seed_start_a6_captures_three_times(r: &Rules) {
    let p = Position::start(r);
    // A6<: A5 = 3, A4 = 3 faces a5 = 2 -> capture, anticlockwise so from A8: A8 = 3, A7 = 3 faces
    // a2 = 2 -> capture (kimbi: A8): A8 = 4, A7 = 4, a2 empty -> relay A7 (4), still
    // anticlockwise: A6 = 1, A5 = 4, A4 = 4, A3 = 3 faces a6 = 2 -> capture from A8: A8 = 5,
    // A7 = 1 (emptied): stop.
    assert_eq!(
        after(r, &p, "A6<"),
        "2,2,2,2,2,2,2,2/2,2,0,0,2,2,0,2/2,2,3,4,4,1,1,5/2,2,2,2,2,2,2,2 N 0,0 - - - 1 \
         mtaji-captured=1"
    );
}

/// After a takasia the attacker must capture the target, even where other captures exist:
/// South must take a4. A3> (A4 = 1, A5 = 2 facing a4) and B8> (ends in A5) do; A3< (A2 = 1,
/// A1 = 2 facing a8 = 3) would take a8 and is not allowed, as it is with no target.
pub fn takasia_target_is_captured_before_any_other(r: &Rules) {
    let text = "7,7,7,6,6,6,6,6/3,0,0,0,2,0,0,0/1,0,2,0,1,0,0,0/0,0,0,0,0,0,0,4 S 0,0 - - a4 70";
    assert_eq!(legal(r, &pos_for(r, text)), s(&["A3>", "B8>"]));
    let free = pos_for(r, &text.replace(" a4 70", " - 70"));
    assert_eq!(legal(r, &free), s(&["A3<", "A3>", "B8>"]));
}
