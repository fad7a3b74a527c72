//! Named rule tests for Hus (seed 000, 4x8), one test per rule of its section in shared/RULES.md:
//! anticlockwise sowing only, relay sowing, no singleton moves, captures of the facing front pit
//! and the back pit behind it sown on with the capturing pit's own seeds, no duty to capture, and
//! the loss of a player who cannot move (an empty front row does not lose). The start and the
//! first capture of the ladder are `ladder_step_hus_*` in `rules_ladder.rs`.
//!
//! Positions: `b8..b1/a8..a1/A1..A8/B1..B8 side stores houses blocked target ply` (North's rows as
//! South sees them: a pit and the pit it faces share a column, A1 under a8). Anticlockwise is `<`
//! from the front row and `>` from the back row: A8 -> A1 -> B1 -> B8 -> A8. Hus has 48 seeds
//! and no store. Every expected position was worked out by hand from the rule text; the comments
//! give the steps.

mod common;

use bao_rules::notation::MoveError;
use bao_rules::{EndReason, Rules, Side, Variant};
use common::*;

fn hus() -> Rules {
    Variant::Hus.rules()
}

/// South: A2 = 3, B5 = 2, B7 = 3 and the singletons A3, B3, B4, B6; North's pits all hold seeds.
const FEW_MOVES: &str =
    "3,3,3,3,3,3,3,3/1,2,1,2,1,2,1,2/0,3,1,0,0,0,0,0/0,0,1,1,2,1,3,0 S 0,0 - - - 10";

/// South: A5 = 2, B8 = 2, the singletons A3, B4..B7. A5< ends in A3 facing a6 = 2 (b6 = 1 behind
/// it); B8> ends in the empty A7.
const ONE_CAPTURE: &str =
    "2,2,1,3,2,2,2,2/3,3,2,3,3,3,3,3/0,0,1,0,2,0,0,0/0,0,0,1,1,1,1,2 S 0,0 - - - 20";

/// Sowing is anticlockwise only, and goes on from one row into the other.
#[test]
fn hus_sows_anticlockwise_only() {
    let r = hus();
    let p = pos_for(&r, FEW_MOVES);
    // A2< (3): A1 = 1, then round into the back row: B1 = 1, B2 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A2<"),
        "3,3,3,3,3,3,3,3/1,2,1,2,1,2,1,2/1,0,1,0,0,0,0,0/1,1,1,1,2,1,3,0 N 0,0 - - - 11"
    );
    // B7> (3): B8 = 1, then round into the front row: A8 = 1, A7 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "B7>"),
        "3,3,3,3,3,3,3,3/1,2,1,2,1,2,1,2/0,3,1,0,0,0,1,1/0,0,1,1,2,1,0,1 N 0,0 - - - 11"
    );
    // Clockwise is not played.
    for clockwise in ["A2>", "B7<"] {
        assert!(
            matches!(try_play(&r, &p, clockwise), Err(MoveError::Illegal { .. })),
            "{clockwise}"
        );
    }
}

/// Only a pit with two seeds or more may be played, from either row.
#[test]
fn hus_singletons_never_move() {
    let r = hus();
    let p = pos_for(&r, FEW_MOVES);
    assert_eq!(legal(&r, &p), s(&["A2<", "B5>", "B7>"]));
    assert!(matches!(
        try_play(&r, &p, "A3<"),
        Err(MoveError::Illegal { .. })
    ));
}

/// A sowing whose last seed falls in an occupied pit (with no capture) lifts that pit and sows on;
/// the move ends when the last seed falls in an empty pit.
#[test]
fn hus_relay_sowing_goes_on_until_an_empty_pit() {
    let r = hus();
    let p = pos_for(&r, FEW_MOVES);
    // B5> (2): B6 = 2, B7 = 4 -> relay B7 (4): B8 = 1, A8 = 1, A7 = 1, A6 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "B5>"),
        "3,3,3,3,3,3,3,3/1,2,1,2,1,2,1,2/0,3,1,0,0,1,1,1/0,0,1,1,0,2,0,1 N 0,0 - - - 11"
    );
}

/// A last seed in an empty pit ends the move, even in a front pit facing seeds: it captures
/// nothing.
#[test]
fn hus_last_seed_in_an_empty_pit_ends_the_move() {
    let r = hus();
    let p = pos_for(&r, ONE_CAPTURE);
    // B8> (2): A8 = 1, A7 = 1; A7 was empty, though it faces a2 = 3: stop.
    assert!(captures(&r, &p, "B8>").is_empty());
    assert_eq!(
        after(&r, &p, "B8>"),
        "2,2,1,3,2,2,2,2/3,3,2,3,3,3,3,3/0,0,1,0,2,0,1,1/0,0,0,1,1,1,1,0 N 0,0 - - - 21"
    );
}

/// A capture needs seeds on both sides: the last seed falls in an occupied own front pit facing an
/// occupied opponent pit. An occupied pit facing an empty one relays instead; and a move may
/// capture at any of its sowings, not only the first.
#[test]
fn hus_capture_needs_an_occupied_pit_facing_an_occupied_pit() {
    let r = hus();
    // South: A4 = 1, A6 = 1, A8 = 2; North: a3 = 0, a5 = 3 with b5 = 0 behind it.
    let p = pos_for(
        &r,
        "2,2,3,0,2,3,2,3/2,2,2,3,2,0,2,2/0,0,0,1,0,1,0,2/0,0,2,2,2,2,2,2 S 0,0 - - - 20",
    );
    // A8< (2): A7 = 1, A6 = 2 faces the empty a3: relay A6 (2): A5 = 1, A4 = 2 faces a5 = 3:
    // capture a5 (b5 is empty), and its 3 seeds with A4's 2 are sown from A3: A3, A2, A1, B1,
    // B2 = 1 (empty): stop.
    assert_eq!(captures(&r, &p, "A8<"), vec!["a5:3"]);
    assert_eq!(
        after(&r, &p, "A8<"),
        "2,2,3,0,2,3,2,3/2,2,2,0,2,0,2,2/1,1,1,0,1,0,1,0/1,1,2,2,2,2,2,2 N 0,0 - - - 21 \
         mtaji-captured=1"
    );
}

/// A capture takes the facing front pit and, when it holds seeds, the back pit behind it; the
/// captured seeds and the capturing pit's own are sown on from the next pit, and that sowing may
/// capture again.
#[test]
fn hus_capture_takes_the_back_pit_behind_and_sows_on_from_the_next_pit() {
    let r = hus();
    // South: A3 = 1, A6 = 1, A8 = 2 and back-row singletons; North: a3 = 1 with b3 = 0, a6 = 1
    // with b6 = 1.
    let p = pos_for(
        &r,
        "2,3,1,3,3,0,3,3/3,3,1,3,3,1,3,3/0,0,1,0,0,1,0,2/0,0,1,1,1,1,1,1 S 0,0 - - - 20",
    );
    assert_eq!(legal(&r, &p), s(&["A8<"]));
    // A8< (2): A7 = 1, A6 = 2 faces a3 = 1: capture a3 (b3 is empty): 1 + A6's 2 sown from A5:
    // A5 = 1, A4 = 1, A3 = 2 faces a6 = 1: capture a6 and b6 (2): 2 + A3's 2 sown from A2: A2, A1,
    // B1, B2 = 1 (empty): stop.
    assert_eq!(captures(&r, &p, "A8<"), vec!["a3:1", "a6:2"]);
    assert_eq!(
        after(&r, &p, "A8<"),
        "2,3,0,3,3,0,3,3/3,3,0,3,3,0,3,3/1,1,0,1,1,0,1,0/1,1,1,1,1,1,1,1 N 0,0 - - - 21 \
         mtaji-captured=1"
    );
}

/// Capturing is not a duty: a move that captures nothing may be played while a capture exists.
#[test]
fn hus_capture_is_not_mandatory() {
    let r = hus();
    let p = pos_for(&r, ONE_CAPTURE);
    // A5< captures; B8> does not (see above); both are legal.
    assert_eq!(legal(&r, &p), s(&["A5<", "B8>"]));
    // A5< (2): A4 = 1, A3 = 2 faces a6 = 2: capture a6 and b6 (3): 3 + A3's 2 sown from A2: A2,
    // A1, B1, B2, B3 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A5<"),
        "2,2,0,3,2,2,2,2/3,3,0,3,3,3,3,3/1,1,0,1,0,0,0,0/1,1,1,1,1,1,1,2 N 0,0 - - - 21 \
         mtaji-captured=1"
    );
}

/// A player who cannot move, with only singletons or no seeds at all, has lost.
#[test]
fn hus_player_who_cannot_move_loses() {
    let r = hus();
    let singletons = pos_for(
        &r,
        "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1 S 0,0 - - - 30",
    );
    let no_seeds = pos_for(
        &r,
        "3,3,3,3,3,3,3,3/3,3,3,3,3,3,3,3/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S 0,0 - - - 30",
    );
    for p in [singletons, no_seeds] {
        assert!(legal(&r, &p).is_empty(), "{p}");
        assert_eq!(outcome(&r, &p), won(Side::North, EndReason::NoMoves), "{p}");
    }
}

/// An empty front row does not lose in Hus: the player moves from its back row.
#[test]
fn hus_empty_front_row_does_not_lose() {
    let r = hus();
    let p = pos_for(
        &r,
        "3,2,2,2,2,2,2,2/3,3,3,3,3,3,3,3/0,0,0,0,0,0,0,0/2,0,0,1,1,1,1,1 S 0,0 - - - 30",
    );
    assert_eq!(outcome(&r, &p), None);
    assert_eq!(legal(&r, &p), s(&["B1>"]));
    // B1> (2): B2 = 1, B3 = 1 (empty): stop; the front row is still empty and the game goes on.
    let c = play(&r, &p, "B1>");
    assert_eq!(
        c.to_string(),
        "3,2,2,2,2,2,2,2/3,3,3,3,3,3,3,3/0,0,0,0,0,0,0,0/0,1,1,1,1,1,1,1 N 0,0 - - - 31"
    );
    assert_eq!(outcome(&r, &c), None);
}
