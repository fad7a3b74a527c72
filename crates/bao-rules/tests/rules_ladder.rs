//! Named tests for the tutorial ladder of seed 000 (Hus -> Bao la Kujifunza -> Bao la Kiswahili),
//! one test per step, each showing that the rule the step adds changes the outcome of a concrete
//! move (same position, same move, the step before and the step itself); plus Bao la Kujifunza.
//!
//! Positions: `b8..b1/a8..a1/A1..A8/B1..B8 side stores houses blocked target ply` (North's rows as
//! South sees them: a pit and the pit it faces share a column). `<` from the front row is
//! anticlockwise (toward A1, then B1), from the back row clockwise (toward B1, then A1).
//! All expected positions were worked out by hand from seed 000; comments give the steps.

mod common;

use bao_rules::{Position, Variant};
use common::mtaji::{self, TAKASIA_BEFORE, TAKASIA_EXAMPLE, TAKASIA_EXAMPLE_UNBLOCKED};
use common::*;

/// A Hus-family position (48 seeds): South A3 = 1, A5 = 2, B5..B8 = 2; North's only front seed
/// a6 = 1, with b6 = 1 behind it. A5< (anticlockwise) sows A4, A3: A3 = 2 faces a6 -> capture.
const L1: &str = "5,5,1,5,5,5,5,5/0,0,1,0,0,0,0,0/0,0,1,0,2,0,0,0/0,0,0,0,2,2,2,2 S 0,0 - - - 10";

/// As L1 with a8 = 3 more on North's front row (b1 = 2), so a capture does not end the game.
const L2: &str = "5,5,1,5,5,5,5,2/3,0,1,0,0,0,0,0/0,0,1,0,2,0,0,0/0,0,0,0,2,2,2,2 S 0,0 - - - 10";

/// Checks what `mv` leaves on the board `text`: `want_before` under the step before, `want_now`
/// under the step itself, so that the rule the step adds makes the difference.
fn assert_step_changes_the_move(
    [before, step]: [Variant; 2],
    text: &str,
    mv: &str,
    want_before: &str,
    want_now: &str,
) {
    let p = pos_for(&step.rules(), text);
    assert_eq!(after(&before.rules(), &p, mv), want_before, "{before}");
    assert_eq!(after(&step.rules(), &p, mv), want_now, "{step}");
}

/// Step "Hus": 2 seeds in the back row and in front pits 5..8, anticlockwise only, singletons
/// never move.
#[test]
fn ladder_step_hus_start_anticlockwise_only() {
    let r = Variant::Hus.rules();
    let p = start(Variant::Hus);
    assert_eq!(
        p.to_string(),
        "2,2,2,2,2,2,2,2/2,2,2,2,0,0,0,0/0,0,0,0,2,2,2,2/2,2,2,2,2,2,2,2 S 0,0 - - - 0"
    );
    assert_eq!(p.total_seeds(), 48);
    // Anticlockwise is `<` from the front row and `>` from the back row.
    assert_eq!(
        legal(&r, &p),
        s(&[
            "A5<", "A6<", "A7<", "A8<", "B1>", "B2>", "B3>", "B4>", "B5>", "B6>", "B7>", "B8>"
        ])
    );
    // A5<: A4 = 1, A3 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A5<"),
        "2,2,2,2,2,2,2,2/2,2,2,2,0,0,0,0/0,0,1,1,0,2,2,2/2,2,2,2,2,2,2,2 N 0,0 - - - 1"
    );
}

/// Step "Hus" capture: the opponent's front pit and the back pit behind it are captured, and sown
/// together with the capturing pit's own seeds from the next pit.
#[test]
fn ladder_step_hus_capture_takes_both_rows_and_sows_own_seeds_too() {
    let r = Variant::Hus.rules();
    let p = pos_for(&r, L1);
    // A5<: A4 = 1, A3 = 2 faces a6 = 1 -> capture a6 (1) and b6 (1), plus A3's own 2: 4 seeds sown
    // from A2 on: A2, A1, B1, B2 = 1 (empty): stop. North's front row is empty, but in Hus that
    // does not lose.
    let c = play(&r, &p, "A5<");
    assert_eq!(
        c.to_string(),
        "5,5,0,5,5,5,5,5/0,0,0,0,0,0,0,0/1,1,0,1,0,0,0,0/1,1,0,0,2,2,2,2 N 0,0 - - - 11 \
         mtaji-captured=1"
    );
    assert_eq!(outcome(&r, &c), None);
}

/// Step "Don't sow own seeds": a capture sows only the captured seeds; the capturing pit keeps its
/// own.
#[test]
fn ladder_step_own_seeds_stay() {
    let r = Variant::LadderOwnSeedsStay.rules();
    let p = pos_for(&r, L1);
    // A5<: A3 = 2 captures a6 + b6 = 2 seeds, sown from A2: A2 = 1, A1 = 1 (empty): stop. A3 keeps 2.
    assert_eq!(
        after(&r, &p, "A5<"),
        "5,5,0,5,5,5,5,5/0,0,0,0,0,0,0,0/1,1,2,1,0,0,0,0/0,0,0,0,2,2,2,2 N 0,0 - - - 11 \
         mtaji-captured=1"
    );
}

/// Step "Inner row capture restriction": only the opponent's front pit is captured.
#[test]
fn ladder_step_front_row_capture_only() {
    let r = Variant::LadderFrontCapture.rules();
    let p = pos_for(&r, L1);
    // A5<: only a6 (1) is captured, b6 stays: A2 = 1 (empty): stop.
    let c = play(&r, &p, "A5<");
    assert_eq!(
        c.to_string(),
        "5,5,1,5,5,5,5,5/0,0,0,0,0,0,0,0/0,1,2,1,0,0,0,0/0,0,0,0,2,2,2,2 N 0,0 - - - 11 \
         mtaji-captured=1"
    );
    // North's front row is empty, yet the game goes on (North moves from its back row).
    assert_eq!(outcome(&r, &c), None);
    assert!(!legal(&r, &c).is_empty());
}

/// Step "Winning condition change": a player whose front row is empty loses, even mid-move.
#[test]
fn ladder_step_empty_front_row_loses() {
    let r = Variant::LadderFrontRowLoss.rules();
    let p = pos_for(&r, L1);
    // The same capture empties North's front row: South wins at once; the captured seed stays in
    // South's hand (kept in its store).
    let c = play(&r, &p, "A5<");
    assert_eq!(
        c.to_string(),
        "5,5,1,5,5,5,5,5/0,0,0,0,0,0,0,0/0,0,2,1,0,0,0,0/0,0,0,0,2,2,2,2 N 1,0 - - - 11 \
         mtaji-captured=1 over=S/front-row-empty"
    );
    assert_eq!(winner(&r, &c), Some(Some(bao_rules::Side::South)));
}

/// Step "Bidirectional play": the player chooses the direction of each move.
#[test]
fn ladder_step_bidirectional() {
    let before = Variant::LadderFrontRowLoss.rules();
    let r = Variant::LadderBidirectional.rules();
    let p = pos_for(&r, L2);
    assert_eq!(legal(&before, &p), s(&["A5<", "B5>", "B6>", "B7>", "B8>"]));
    assert_eq!(
        legal(&r, &p),
        s(&[
            "A5<", "A5>", "B5<", "B5>", "B6<", "B6>", "B7<", "B7>", "B8<", "B8>"
        ])
    );
    // A5> (clockwise): A6 = 1, A7 = 1 (empty): stop.
    assert_eq!(
        after(&r, &p, "A5>"),
        "5,5,1,5,5,5,5,2/3,0,1,0,0,0,0,0/0,0,1,0,0,1,1,0/0,0,0,0,2,2,2,2 N 0,0 - - - 11"
    );
}

/// Step "Choosing head": captured seeds are sown from the kichwa that keeps the direction.
#[test]
fn ladder_step_kichwa_sows_captures_from_the_head() {
    assert_step_changes_the_move(
        [Variant::LadderBidirectional, Variant::LadderKichwa],
        L2,
        "A5<",
        // Before: a6's seed is sown from the next pit, A2 = 1: stop.
        "5,5,1,5,5,5,5,2/3,0,0,0,0,0,0,0/0,1,2,1,0,0,0,0/0,0,0,0,2,2,2,2 N 0,0 - - - 11 \
         mtaji-captured=1",
        // Now: anticlockwise, so from the right kichwa A8 = 1 (empty): stop.
        "5,5,1,5,5,5,5,2/3,0,0,0,0,0,0,0/0,0,2,1,0,0,0,1/0,0,0,0,2,2,2,2 N 0,0 - - - 11 \
         mtaji-captured=1",
    );
}

/// Step "Introducing flanks (kimbi)": a capture in a kimbi sows from the nearest kichwa, which may
/// change the direction.
#[test]
fn ladder_step_kimbi_forces_nearest_kichwa() {
    // A4< (anticlockwise): A3 = 1, A2 = 2 faces a7 = 1 -> capture.
    assert_step_changes_the_move(
        [Variant::LadderKichwa, Variant::LadderKimbi],
        "5,4,4,4,4,4,4,4/3,1,0,0,0,0,0,0/0,1,0,2,0,0,0,0/0,0,0,0,2,2,2,2 S 0,0 - - - 10",
        "A4<",
        // Before: the direction is kept: right kichwa A8 = 1: stop.
        "5,4,4,4,4,4,4,4/3,0,0,0,0,0,0,0/0,2,1,0,0,0,0,1/0,0,0,0,2,2,2,2 N 0,0 - - - 11 \
         mtaji-captured=1",
        // Now: A2 is a kimbi, so the nearest kichwa A1 (clockwise): A1 = 1: stop.
        "5,4,4,4,4,4,4,4/3,0,0,0,0,0,0,0/1,2,1,0,0,0,0,0/0,0,0,0,2,2,2,2 N 0,0 - - - 11 \
         mtaji-captured=1",
    );
}

/// Step "Introducing blank move (takata)": a move whose first sowing does not capture captures
/// nothing later.
#[test]
fn ladder_step_takata_move_never_captures() {
    // A2>: A3 = 1, A4 = 2 faces a5 = 0 (no capture); relay A4: A5 = 2, A6 = 2 faces a3 = 2.
    assert_step_changes_the_move(
        [Variant::LadderKimbi, Variant::LadderTakata],
        "3,3,4,4,4,4,4,4/3,0,0,0,0,2,0,0/0,2,0,1,1,1,0,0/0,0,0,0,2,2,2,2 S 0,0 - - - 10",
        "A2>",
        // Before: any sowing may capture: a3 (2) taken, clockwise so from A1: A1 = 1, A2 = 1
        // (emptied before): stop.
        "3,3,4,4,4,4,4,4/3,0,0,0,0,0,0,0/1,1,1,0,2,2,0,0/0,0,0,0,2,2,2,2 N 0,0 - - - 11 \
         mtaji-captured=1",
        // Now: a takata: relay A6 (2): A7 = 1, A8 = 1 (empty): stop; a3 keeps its seeds.
        "3,3,4,4,4,4,4,4/3,0,0,0,0,2,0,0/0,0,1,0,2,0,1,1/0,0,0,0,2,2,2,2 N 0,0 - - - 11",
    );
}

/// Step "Add more seeds": 2 seeds in every pit, 32 a side.
#[test]
fn ladder_step_more_seeds() {
    let before = Variant::LadderTakata.rules();
    let r = Variant::LadderMoreSeeds.rules();
    assert_eq!(r.total_seeds(), 64);
    let p0 = Position::start(&before);
    let p = Position::start(&r);
    assert_eq!(
        p.to_string(),
        "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S 0,0 - - - 0"
    );
    // B1< (clockwise, toward A1) from the Hus setup: A1 = 1, A2 = 1 (empty): stop.
    assert_eq!(
        after(&before, &p0, "B1<"),
        "2,2,2,2,2,2,2,2/2,2,2,2,0,0,0,0/1,1,0,0,2,2,2,2/0,2,2,2,2,2,2,2 N 0,0 - - - 1"
    );
    // From the new setup: A1 = 3, A2 = 3 faces a7 = 2 -> capture; A2 is a kimbi: from A1
    // clockwise: A1 = 4, A2 = 4, a7 empty -> relay A2 (4): A3..A6 = 3; A6 faces a3 = 2 -> capture,
    // clockwise so from A1: A1 = 5, A2 = 1 (emptied): stop.
    assert_eq!(
        after(&r, &p, "B1<"),
        "2,2,2,2,2,2,2,2/2,0,2,2,2,0,2,2/5,1,3,3,3,3,2,2/0,2,2,2,2,2,2,2 N 0,0 - - - 1 \
         mtaji-captured=1"
    );
}

/// Step "Add restrictions on which moves are allowed": captures are mandatory; a takata starts in
/// the front row if it can. This is Bao la Kujifunza.
#[test]
fn ladder_step_kujifunza_mandatory_capture_and_front_row_first() {
    let before = Variant::LadderMoreSeeds.rules();
    let r = Variant::LadderKujifunza.rules();
    let p = Position::start(&r);
    // At the start a 2-seed sowing captures when it ends in a front pit (all face 2 seeds):
    // A1>, A2>, A3..A6 either way, A7<, A8<, and B1<, B2< (into A2, A1), B7>, B8> (into A8, A7).
    assert_eq!(
        legal(&r, &p),
        s(&[
            "A1>", "A2>", "A3<", "A3>", "A4<", "A4>", "A5<", "A5>", "A6<", "A6>", "A7<", "A8<",
            "B1<", "B2<", "B7>", "B8>"
        ])
    );
    assert_eq!(legal(&before, &p).len(), 32);
    // No capture here (see rule 1.5.2 in rules_kiswahili): front row first.
    mtaji::takata_starts_in_the_front_row(&r);
    let q = pos_for(&r, mtaji::NO_CAPTURE);
    assert_eq!(
        legal(&before, &q),
        s(&["A3<", "A3>", "B2<", "B2>", "B5<", "B5>"])
    );
}

/// Checkpoint: Bao la Kujifunza is the ladder step above; a first move as a worked example.
#[test]
fn kujifunza_start_and_a_capture_chain() {
    let r = Variant::Kujifunza.rules();
    assert_eq!(r, Variant::LadderKujifunza.rules());
    mtaji::two_seed_start_a6_captures_three_times(&r);
}

/// Step "Split the game into two stages": the Kiswahili start, seeds planted from store one per
/// move, no captures while planting yet.
#[test]
fn ladder_step_planting_stage() {
    let before = Variant::LadderKujifunza.rules();
    let r = Variant::LadderPlanting.rules();
    let p = Position::start(&r);
    assert_eq!(
        p.to_string(),
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22,22 - - - 0"
    );
    // No house yet: pit 5 is planted like any other.
    assert_eq!(
        legal(&r, &p),
        s(&["A5<", "A5>", "A6<", "A6>", "A7<", "A7>"])
    );
    // A6< now plants (A6 = 3) and sows A5 = 7, A4 = 1, A3 = 1; in Kujifunza it lifted 2 and
    // captured (see kujifunza_start_and_a_capture_chain).
    let c = play(&r, &p, "A6<");
    assert_eq!(
        c.to_string(),
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,1,1,7,0,2,0/0,0,0,0,0,0,0,0 N 21,22 - - - 1"
    );
    assert_ne!(c, play(&before, &Position::start(&before), "A6<"));
    // North plants without capturing though a5 and a6 face seeds.
    assert_eq!(
        legal(&r, &c),
        s(&["a5<", "a5>", "a6<", "a6>", "a7<", "a7>"])
    );
}

/// Step "Captures during planting": a planted seed facing seeds captures, and must.
#[test]
fn ladder_step_planting_captures() {
    let before = Variant::LadderPlanting.rules();
    let r = Variant::LadderPlantingCaptures.rules();
    let c = play(&r, &Position::start(&r), "A6<");
    assert_eq!(
        legal(&before, &c),
        s(&["a5<", "a5>", "a6<", "a6>", "a7<", "a7>"])
    );
    assert_eq!(legal(&r, &c), s(&["a5<", "a5>", "a6<", "a6>"]));
    // a5<: a5 = 7 keeps its seeds; A4's seed sown from North's left kichwa a1.
    assert_eq!(
        after(&r, &c, "a5<"),
        "0,0,0,0,0,0,0,0/0,2,2,7,0,0,0,1/0,0,1,0,7,0,2,0/0,0,0,0,0,0,0,0 S 21,21 - - - 2"
    );
}

/// A namua takata that ends in pit 5 holding 7 (see rule 4.2.2.3.1 in rules_kiswahili).
const HOUSE_STOP: &str = "0,0,0,0,0,0,0,0/2,2,0,6,0,0,0,0/0,0,1,0,6,2,2,0/0,0,0,0,0,0,0,0 S 21,22";

/// Step "Gathering seeds in the house": a takata ending in the house stops there.
#[test]
fn ladder_step_house_stops_takata() {
    let before = Variant::LadderPlantingCaptures.rules();
    let r = Variant::LadderHouse.rules();
    // Before: A3> (A3 = 2): A4 = 1, A5 = 7 -> relay A5 (7): A6 = 3, A7 = 3, A8 = 1, B8, B7, B6,
    // B5 = 1: stop.
    let p = pos_for(&before, &format!("{HOUSE_STOP} - - - 10"));
    assert_eq!(
        after(&before, &p, "A3>"),
        "0,0,0,0,0,0,0,0/2,2,0,6,0,0,0,0/0,0,0,1,0,3,3,1/0,0,0,0,1,1,1,1 N 20,22 - - - 11"
    );
    // Now: the move stops in the house.
    let q = pos_for(&r, &format!("{HOUSE_STOP} Hh - - 10"));
    assert_eq!(
        after(&r, &q, "A3>"),
        "0,0,0,0,0,0,0,0/2,2,0,6,0,0,0,0/0,0,0,1,7,2,2,0/0,0,0,0,0,0,0,0 N 20,22 Hh - - 11"
    );
}

/// Step "Taxation and invalid house": planting in the house (only when it is the lone front pit)
/// taxes it: 2 seeds are sown, the rest stays; before, the house was sown whole and destroyed.
#[test]
fn ladder_step_tax() {
    assert_step_changes_the_move(
        [Variant::LadderHouse, Variant::LadderTax],
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,0,0,0/4,0,0,0,0,0,0,0 S 22,22 Hh - - 10",
        "A5>",
        // Before: A5> plants (7) and sows all 7: A6, A7, A8, B8, B7, B6, B5 = 1; the house is lost.
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,0,1,1,1/4,0,0,0,1,1,1,1 N 21,22 h - - 11",
        // Now: a tax: A6 = 1, A7 = 1; A5 keeps 5 and the house.
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,5,1,1,0/4,0,0,0,0,0,0,0 N 21,22 Hh - - 11",
    );
    // And the house may be planted only when it is alone in the front row.
    let before = Variant::LadderHouse.rules();
    let r = Variant::LadderTax.rules();
    let q = pos_for(&r, &format!("{HOUSE_STOP} Hh - - 10"));
    assert_eq!(
        legal(&before, &q),
        s(&["A3<", "A3>", "A5<", "A5>", "A6<", "A6>", "A7<", "A7>"])
    );
    assert_eq!(
        legal(&r, &q),
        s(&["A3<", "A3>", "A6<", "A6>", "A7<", "A7>"])
    );
}

/// Step "Planting seeds into singleton holes": once the house is destroyed, a singleton may be
/// planted only if no front pit holds more than one seed.
#[test]
fn ladder_step_singletons_after_the_house_is_lost() {
    let before = Variant::LadderTax.rules();
    let r = Variant::LadderSingletons.rules();
    // South's house lost; A2 = 1, A3 = 2, A7 = 1; nothing to capture.
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,2/2,0,0,6,0,0,0,0/0,1,2,0,0,0,1,0/6,0,0,0,0,0,0,0 S 22,22 h - - 20",
    );
    assert_eq!(
        legal(&before, &p),
        s(&["A2<", "A2>", "A3<", "A3>", "A7<", "A7>"])
    );
    assert_eq!(legal(&r, &p), s(&["A3<", "A3>"]));
}

/// Step "Blocking (takasia)": the last rule; with it the ladder reaches Bao la Kiswahili. Seed
/// 000's example: after South's takata A7<, a4 is blocked.
#[test]
fn ladder_step_takasia_gives_bao_la_kiswahili() {
    let before = Variant::LadderSingletons.rules();
    let r = Variant::Kiswahili.rules();
    let p = pos_for(&r, TAKASIA_BEFORE);
    // A7<: A6 = 1, A5 = 1 (empty): stop. Before: nothing blocked, North may move a4.
    let c0 = play(&before, &p, "A7<");
    assert_eq!(c0.to_string(), TAKASIA_EXAMPLE_UNBLOCKED);
    assert_eq!(
        legal(&before, &c0),
        s(&["a4<", "a4>", "a5<", "a5>", "a8<", "a8>"])
    );
    // Now: a4 is blocked.
    let c = play(&r, &p, "A7<");
    assert_eq!(c.to_string(), TAKASIA_EXAMPLE);
    assert_eq!(legal(&r, &c), s(&["a5<", "a5>", "a8<", "a8>"]));
}
