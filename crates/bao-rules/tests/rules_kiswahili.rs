//! Named rule tests for Bao la Kiswahili: the general rules (1.x) and the mtaji stage (3.x) of
//! seed 003, the decisions and options of shared/RULES.md on them, and the notation appendix. The
//! kunamua stage and the house (2.x, 4.x) are in `rules_kiswahili_namua.rs`, takasia (5.x) in
//! `rules_kiswahili_takasia.rs`, never-ending moves (1.5.6) in `never_ending.rs`.
//!
//! Every expected position was worked out by hand from the rule text; the comment above each
//! assertion gives the reasoning. Positions use the one-line format
//! `b8..b1/a8..a1/A1..A8/B1..B8 side stores houses blocked target ply`: North's rows are written as
//! South sees them, so a pit and the pit it faces share a column (A1 under a8, A5 under a4).
//! Ring order for sowing: `>` from the front row (and `<` from the back row) is clockwise,
//! A1 -> A8 -> B8 -> B1 -> A1; the other way is anticlockwise.

mod common;

use bao_rules::notation::{MoveError, Record};
use bao_rules::{EndReason, Position, Side, Stage, StopReason, Variant};
use common::mtaji::{self, TAKASIA_BEFORE};
use common::*;

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
    assert_eq!(outcome(&r, &c), won(Side::South, EndReason::FrontRowEmpty));
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
    mtaji::only_singletons_cannot_move(&kiswahili());
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
    // As above but A3 = 2 (A4 empty).
    mtaji::takata_starts_in_the_front_row(&kiswahili());
}

/// Rule 1.4.1 / 1.5.1 / 3.4: a capture is mandatory, and a capture move may start in the back row.
#[test]
fn rule_1_4_1_capture_is_mandatory_and_may_start_in_the_back_row() {
    // Same as above with a8 = 1.
    mtaji::capture_is_mandatory_and_may_start_in_the_back_row(&kiswahili());
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
    mtaji::kimbi_capture_turns_the_move(&r);
    let p = pos_for(&r, mtaji::KIMBI_CAPTURE);
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
    mtaji::takata_never_captures(&kiswahili());
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
// 3.x Mtaji stage
// ---------------------------------------------------------------------------------------------

/// Rule 3.4.2: a pit with more than 15 seeds never starts a capture move (it is a takata).
#[test]
fn rule_3_4_2_no_capture_from_a_pit_with_more_than_15() {
    // A1 = 17: A1> would end in A2 (2 seeds in the lap) facing a7 = 3, but 17 > 15: a takata.
    mtaji::more_than_fifteen_seeds_only_takata(&kiswahili());
    // With the limit raised, A1> is a capture move and so the only legal move.
    let mut high = kiswahili();
    high.max_capture_lift = Some(20);
    let p = pos_for(&high, mtaji::SEVENTEEN_IN_A1);
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
// Appendix: notation
// ---------------------------------------------------------------------------------------------

/// Appendix: `+` plays the house, `*` marks a takata, `**` a kutakatia, `#` the winning move; all are
/// accepted.
#[test]
fn appendix_markers_plus_star_double_star_and_hash_are_accepted() {
    let r = kiswahili();
    let p = start(Variant::Kiswahili);
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
    let p = start(Variant::Kiswahili);
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
