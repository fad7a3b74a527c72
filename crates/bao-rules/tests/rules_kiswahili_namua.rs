//! Named rule tests for Bao la Kiswahili: the kunamua stage (2.x) and the house (4.x) of seed 003,
//! with the decisions and options of shared/RULES.md on them (seed 002's tax and mandatory house
//! play). The general rules and the mtaji stage are in `rules_kiswahili.rs`.
//!
//! Every expected position was worked out by hand from the rule text; the comment above each
//! assertion gives the reasoning. Positions and directions are written as `rules_kiswahili.rs`
//! explains.

mod common;

use bao_rules::{Position, Side, Stage, StopReason, Variant};
use common::*;

const START: &str =
    "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22,22 Hh - - 0";

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
