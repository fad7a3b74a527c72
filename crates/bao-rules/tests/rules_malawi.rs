//! Named rule tests for Bao as played in Malawi (seed 001): the basic game, the intermediate game
//! with the kuu, the advanced opening, the general points (takasia) and the never-ending move.
//!
//! Positions: `b8..b1/a8..a1/A1..A8/B1..B8 side stores houses blocked target ply` (North's rows as
//! South sees them: a pit and the pit it faces share a column). `<` from the front (inner) row is
//! anticlockwise, from the back (outer) row clockwise. The kuu is pit 5 (A5, a5); the houses field
//! says whether it is still privileged. Expected positions were worked out by hand from seed 001.

mod common;

use bao_rules::{Position, Side, StopReason, Variant};
use common::mtaji;
use common::*;

fn basic() -> bao_rules::Rules {
    Variant::MalawiBasic.rules()
}

fn intermediate() -> bao_rules::Rules {
    Variant::MalawiIntermediate.rules()
}

// ---------------------------------------------------------------------------------------------
// Basic game
// ---------------------------------------------------------------------------------------------

/// Basic game, opening position (Figure 1): two seeds in every hole, 64 in all.
#[test]
fn basic_opening_position_two_seeds_per_hole() {
    let p = start(Variant::MalawiBasic);
    assert_eq!(
        p.to_string(),
        "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S 0,0 - - - 0"
    );
    assert_eq!(p.total_seeds(), 64);
}

/// Basic game: captured seeds are sown from the end hole (kichwa) in the direction of the move; a
/// capture from a kimbi is sown from the nearest end hole; a relay from a kimbi keeps the direction.
#[test]
fn basic_captures_sown_from_the_end_hole_and_relays_keep_direction() {
    let r = basic();
    // From the opening position A6< captures from the end hole A8 three times; a capture from the
    // kimbi A7 is sown from the nearest end, A8, and the relay from A7 keeps the direction.
    mtaji::two_seed_start_a6_captures_three_times(&r);
    // A kimbi capture reverses the move when the nearest end hole lies behind it.
    mtaji::kimbi_capture_turns_the_move(&r);
}

/// Basic game: a singleton cannot be lifted; a player left only with singletons has lost.
#[test]
fn basic_player_left_with_singletons_loses() {
    mtaji::only_singletons_cannot_move(&basic());
}

/// Basic game: fifteen is the most seeds that can be lifted to begin a mtaji move.
#[test]
fn basic_fifteen_is_the_most_seeds_for_a_mtaji_move() {
    // A1 = 17 would end in A2 (2 seeds there after a lap) facing a7 = 3: it may only be a takata.
    mtaji::more_than_fifteen_seeds_only_takata(&basic());
}

/// Basic game: a takata only when no mtaji is possible; no takata from the outer row when one is
/// possible from the inner row; a mtaji may start from either row.
#[test]
fn basic_takata_only_without_mtaji_and_inner_row_first() {
    let r = basic();
    // No capture: only the inner row's A3 may takata (B2 and B5 could, but are outer).
    mtaji::takata_starts_in_the_front_row(&r);
    // With a8 = 1, A3< and B2< end in A1 = 2 facing it: both are mtaji, the only legal moves.
    mtaji::capture_is_mandatory_and_may_start_in_the_back_row(&r);
}

/// Basic game: a takata from an end hole that is the only occupied inner hole, played back across
/// the outer row, loses at once, even with more than 8 seeds in it.
#[test]
fn basic_lone_end_hole_played_back_loses_at_once() {
    let r = basic();
    // A8 = 10 alone in South's inner row. A8< (A7..A1, B1, B2, B3 = 2 -> relay B4, B5: stop) is
    // legal; A8> is legal too and loses: the inner row is empty when the first seed reaches B8.
    let p = pos_for(
        &r,
        "4,4,4,4,4,4,4,4/0,0,4,4,4,4,4,0/0,0,0,0,0,0,0,10/1,0,1,0,0,0,0,0 S 0,0 - - - 60",
    );
    assert_eq!(legal(&r, &p), s(&["A8<", "A8>"]));
    assert_eq!(
        after(&r, &p, "A8>"),
        "4,4,4,4,4,4,4,4/0,0,4,4,4,4,4,0/0,0,0,0,0,0,0,0/1,0,1,0,0,0,0,1 N 9,0 - - - 61 \
         over=N/front-row-empty"
    );
    // Bao la Kiswahili forbids that move instead (seed 003, 1.5.3.1).
    assert_eq!(legal(&Variant::Kiswahili.rules(), &p), s(&["A8<"]));
}

/// General points: a move that never ends: the player announces it and sleeps at the end of the
/// current relay (it is legal, and the game goes on).
#[test]
fn general_never_ending_move_sleeps_at_the_end_of_the_relay() {
    let r = basic();
    // South's only inner pit with 2 or more is A4 = 4. A4< relays for ever (a repeated state, also
    // found by an independent simulation); A4> sows A5 = 2, A6 = 1, A7 = 2, A8 = 1 (empty): stop.
    let p = pos_for(
        &r,
        "2,0,4,1,3,1,0,8/2,2,7,9,1,0,8,3/0,1,0,4,1,0,1,0/1,0,1,0,1,0,2,1 S 0,0 - - - 92",
    );
    assert_eq!(legal(&r, &p), s(&["A4<", "A4>"]));
    assert_eq!(legal(&Variant::Kujifunza.rules(), &p), s(&["A4>"]));
    let c = play(&r, &p, "A4<");
    assert_eq!(c.result(), None);
    assert_eq!(c.side_to_move(), Side::North);
    assert_eq!(stop_reason(&r, &p, "A4<"), StopReason::NeverEnding);
    assert_eq!(
        after(&r, &p, "A4>"),
        "2,0,4,1,3,1,0,8/2,2,7,9,1,0,8,3/0,1,0,0,2,1,2,1/1,0,1,0,1,0,2,1 N 0,0 - - - 93"
    );
}

// ---------------------------------------------------------------------------------------------
// Intermediate game (stage one: the kuu)
// ---------------------------------------------------------------------------------------------

/// Intermediate game (Figure 2): kuu 8, two 2-seed holes to its right, 20 in store; the first
/// nemo goes to a hole other than the kuu (no takata from the kuu in stage one).
#[test]
fn intermediate_opening_position_and_no_takata_from_the_kuu() {
    let r = intermediate();
    let p = Position::start(&r);
    assert_eq!(
        p.to_string(),
        "0,0,0,0,0,0,0,0/0,2,2,8,0,0,0,0/0,0,0,0,8,2,2,0/0,0,0,0,0,0,0,0 S 20,20 Hh - - 0"
    );
    assert_eq!(legal(&r, &p), s(&["A6<", "A6>", "A7<", "A7>"]));
}

/// Intermediate game: a nemo in a hole facing seeds eats them; they are sown from the end the
/// player chooses.
#[test]
fn intermediate_nemo_eats_and_the_player_chooses_the_end() {
    let r = intermediate();
    // A6<: A6 = 3, sown A5 = 9, A4 = 1, A3 = 1 (passing the kuu does not stop).
    let p = play(&r, &Position::start(&r), "A6<");
    assert_eq!(
        p.to_string(),
        "0,0,0,0,0,0,0,0/0,2,2,8,0,0,0,0/0,0,1,1,9,0,2,0/0,0,0,0,0,0,0,0 N 19,20 Hh - - 1"
    );
    // North must eat: a5 faces A4 = 1, a6 faces A3 = 1 (neither is South's kuu).
    assert_eq!(legal(&r, &p), s(&["a5<", "a5>", "a6<", "a6>"]));
    // a6>: a6 = 3, A3's seed sown from North's right end a8: a8 = 1, stop.
    assert_eq!(
        after(&r, &p, "a6>"),
        "0,0,0,0,0,0,0,0/1,2,3,8,0,0,0,0/0,0,0,1,9,0,2,0/0,0,0,0,0,0,0,0 S 19,19 Hh - - 2"
    );
}

/// Intermediate game: in the first phase a player may not take the opponent's kuu directly while
/// its own kuu is threatened.
#[test]
fn intermediate_no_direct_capture_of_the_kuu_while_own_kuu_is_threatened() {
    let r = intermediate();
    // North to move. a4 = 1 faces South's kuu A5 = 8; North's kuu a5 = 8 is threatened by A4 = 1.
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,2,2,8,1,0,0,0/0,0,0,1,8,2,2,0/0,0,0,0,0,0,0,0 N 19,19 Hh - - 5",
    );
    assert_eq!(legal(&r, &p), s(&["a5<", "a5>"]));
    // a5<: a5 = 9, A4's seed sown from a1 = 1: stop. The threat to the kuu is gone.
    assert_eq!(
        after(&r, &p, "a5<"),
        "0,0,0,0,0,0,0,0/0,2,2,9,1,0,0,1/0,0,0,0,8,2,2,0/0,0,0,0,0,0,0,0 S 19,18 Hh - - 6"
    );
    // In Bao la Kiswahili nothing forbids taking the house.
    let k = Variant::Kiswahili.rules();
    assert_eq!(legal(&k, &p), s(&["a4<", "a4>", "a5<", "a5>"]));
}

/// Intermediate game: singletons may be used to takata in the first phase only if no inner hole
/// other than the kuu holds more than one seed.
#[test]
fn intermediate_singletons_only_if_no_other_inner_hole_holds_more() {
    let r = intermediate();
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,2/2,0,0,8,0,0,0,0/0,1,0,0,8,0,1,0/2,0,0,0,0,0,0,0 S 20,20 Hh - - 10",
    );
    assert_eq!(legal(&r, &p), s(&["A2<", "A2>", "A7<", "A7>"]));
    let q = pos_for(
        &r,
        "0,0,0,0,0,0,0,2/2,0,0,8,0,0,0,0/0,1,2,0,8,0,1,0/0,0,0,0,0,0,0,0 S 20,20 Hh - - 10",
    );
    assert_eq!(legal(&r, &q), s(&["A3<", "A3>"]));
}

/// Intermediate game: the kuu alone in the inner row with nothing to eat is taxed (nemo in, two
/// seeds out and sown); taxing does not take away its privileges.
#[test]
fn intermediate_lone_kuu_is_taxed() {
    let r = intermediate();
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,2,2,8,0,0,0,0/0,0,0,0,6,0,0,0/6,0,0,0,0,0,0,0 S 20,20 Hh - - 10",
    );
    assert_eq!(legal(&r, &p), s(&["A5<", "A5>"]));
    // A5>: kuu = 7, two sown: A6 = 1, A7 = 1, stop; kuu 5, still privileged.
    assert_eq!(
        after(&r, &p, "A5>"),
        "0,0,0,0,0,0,0,0/0,2,2,8,0,0,0,0/0,0,0,0,5,1,1,0/6,0,0,0,0,0,0,0 N 19,20 Hh - - 11"
    );
}

/// Intermediate game: the kuu with exactly eight seeds, alone, nothing to eat: a nemo is added and
/// all nine are sown.
#[test]
fn intermediate_lone_kuu_with_exactly_eight_sows_all_nine() {
    let r = intermediate();
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,2,2,8,0,0,0,0/0,0,0,0,8,0,0,0/4,0,0,0,0,0,0,0 S 20,20 Hh - - 10",
    );
    // A5>: 9 sown: A6, A7, A8, B8, B7, B6, B5, B4, B3 = 1 (empty): stop. The kuu is emptied.
    assert_eq!(
        after(&r, &p, "A5>"),
        "0,0,0,0,0,0,0,0/0,2,2,8,0,0,0,0/0,0,0,0,0,1,1,1/4,0,1,1,1,1,1,1 N 19,20 h - - 11"
    );
}

/// Intermediate game: if any lap of a takata move ends in the kuu, the player sleeps: there is no
/// 6-seed threshold (unlike the Kiswahili nyumba).
#[test]
fn intermediate_takata_ending_in_the_kuu_sleeps_whatever_it_holds() {
    let text = "0,0,0,0,0,0,0,0/2,0,0,8,0,0,0,2/0,2,0,0,3,0,0,0/7,0,0,0,0,0,0,0 S 20,20 Hh - - 10";
    let r = intermediate();
    let p = pos_for(&r, text);
    // A2>: A2 = 3, sown A3 = 1, A4 = 1, kuu A5 = 4: sleep.
    assert_eq!(
        after(&r, &p, "A2>"),
        "0,0,0,0,0,0,0,0/2,0,0,8,0,0,0,2/0,0,1,1,4,0,0,0/7,0,0,0,0,0,0,0 N 19,20 Hh - - 11"
    );
    // The Kiswahili house with 4 is an ordinary pit: relay A5 (4): A6, A7, A8, B8 = 1, stop; lost.
    let k = Variant::Kiswahili.rules();
    assert_eq!(
        after(&k, &p, "A2>"),
        "0,0,0,0,0,0,0,0/2,0,0,8,0,0,0,2/0,0,1,1,0,1,1,1/7,0,0,0,0,0,0,1 N 19,20 h - - 11"
    );
}

/// Intermediate game: a move started with a capture whose later sowing ends in the kuu: the player
/// may sleep or lift the kuu and sow on (`+`).
#[test]
fn intermediate_capture_move_ending_in_the_kuu_may_sleep_or_sow_on() {
    let r = intermediate();
    // A2 = 1 faces a7 = 2: nemo in A2 (2), a7's 2 seeds from A1 (kimbi): A1 = 1, A2 = 3; relay A2
    // (3): A3 = 1, A4 = 1, A5 = 9: the kuu.
    let p = pos_for(
        &r,
        "0,0,0,0,0,0,0,0/0,2,2,8,0,0,0,0/0,1,0,0,8,2,2,0/0,0,0,0,0,0,0,0 S 19,20 Hh - - 10",
    );
    assert_eq!(legal(&r, &p), s(&["A2<", "A2<+"]));
    assert_eq!(
        after(&r, &p, "A2<"),
        "0,0,0,0,0,0,0,0/0,0,2,8,0,0,0,0/1,0,1,1,9,2,2,0/0,0,0,0,0,0,0,0 N 18,20 Hh - - 11"
    );
    // A2<+: the kuu's 9 sown: A6 = 3, A7 = 3, A8 = 1, B8..B3 = 1: stop; the kuu is emptied.
    assert_eq!(
        after(&r, &p, "A2<+"),
        "0,0,0,0,0,0,0,0/0,0,2,8,0,0,0,0/1,0,1,1,0,3,3,1/0,0,1,1,1,1,1,1 N 18,20 h - - 11"
    );
}

/// Intermediate game, second stage: a kuu that has never been emptied must be moved on the
/// player's first takata.
#[test]
fn intermediate_stage_two_first_takata_must_move_the_kuu() {
    let r = intermediate();
    // No capture: A3> ends in A5 facing a4 = 0; A3< and A5< end in the empty A1 (A1 = 1); A5> in
    // B8; B2 and B4 are singletons.
    let text = "2,2,2,3,3,3,3,3/5,5,5,5,0,5,5,5/0,0,2,0,4,0,0,0/0,1,0,1,0,0,0,0 S 0,0 H - - 60";
    let p = pos_for(&r, text);
    assert_eq!(legal(&r, &p), s(&["A5<", "A5>"]));
    // Once the kuu has been emptied, any inner hole may start.
    let q = pos_for(&r, &text.replace(" H - - 60", " - - - 60"));
    assert_eq!(legal(&r, &q), s(&["A3<", "A3>", "A5<", "A5>"]));
}

/// Where the kuu duty meets takasia, takasia wins (shared rules decision): a kuu blocked by takasia
/// may not be moved, the player's other takata moves are legal, and the duty to move the kuu
/// passes to its next takata. Only if the kuu holds the only seeds on the board that could
/// takata does the exception of the general points free it.
#[test]
fn stage_two_kuu_blocked_by_takasia_yields_to_the_other_takata() {
    let r = intermediate();
    // North's a6< leaves South no capture and North one target, South's kuu A5 (6): blocked.
    let p = pos_for(
        &r,
        "0,0,17,0,17,0,16,0/0,0,2,0,0,0,2,0/0,2,0,0,6,0,0,0/1,0,1,0,0,0,0,0 N 0,0 H - - 60",
    );
    let c = play(&r, &p, "a6<");
    assert_eq!(
        c.to_string(),
        "0,0,17,0,17,0,16,0/0,0,0,1,1,0,2,0/0,2,0,0,6,0,0,0/1,0,1,0,0,0,0,0 S 0,0 H A5 - 61"
    );
    // A2 (two seeds) may takata; the blocked kuu may not.
    assert_eq!(legal(&r, &c), s(&["A2<", "A2>"]));
    // The kuu keeps its duty: once it is not blocked, the first takata must move it.
    let free = pos_for(&r, &c.to_string().replace(" H A5 - 61", " H - - 61"));
    assert_eq!(legal(&r, &free), s(&["A5<", "A5>"]));
    // With A2 a singleton (its seed moved to North's b1), the blocked kuu holds the only seeds
    // that could takata: the exception frees it.
    let only = pos_for(
        &r,
        "0,0,17,0,17,0,16,1/0,0,0,1,1,0,2,0/0,1,0,0,6,0,0,0/1,0,1,0,0,0,0,0 S 0,0 H A5 - 61",
    );
    assert_eq!(legal(&r, &only), s(&["A5<", "A5>"]));
}

/// General points (second stage): after a takata leaving the opponent only takata moves and one
/// target, the target may not start a takata, unless it holds the only seeds available to takata;
/// there is no exemption (not even the only inner hole with more than one seed).
#[test]
fn general_takasia_without_exemptions_and_blocked_pit_as_last_resort() {
    let r = intermediate();
    // South: A2 = 2, A6 = 2 and big outer holes (B1, B4 = 16 cannot capture; B7 = 14 ends in A8,
    // empty). North: a5 = 3, singletons elsewhere. A2>: A3 = 1, A4 = 1. Then North cannot capture,
    // and South's only mtaji would be A6< (A5 = 1, A4 = 2 facing a5).
    let text = "1,1,1,1,1,1,1,1/1,1,0,3,0,0,0,1/0,2,0,0,0,2,0,0/16,0,0,16,0,0,14,0 S 0,0 - - - 60";
    let p = pos_for(&r, text);
    let c = play(&r, &p, "A2>");
    assert_eq!(
        c.to_string(),
        "1,1,1,1,1,1,1,1/1,1,0,3,0,0,0,1/0,0,1,1,0,2,0,0/16,0,0,16,0,0,14,0 N 0,0 - a5 - 61"
    );
    // a5 is North's only inner hole with more than one seed: Bao la Kiswahili would not block it.
    let k = Variant::Kiswahili.rules();
    assert_eq!(
        after(&k, &p, "A2>"),
        "1,1,1,1,1,1,1,1/1,1,0,3,0,0,0,1/0,0,1,1,0,2,0,0/16,0,0,16,0,0,14,0 N 0,0 - - - 61"
    );
    // North has no other seeds to takata with (all singletons): the blocked a5 may start.
    assert_eq!(legal(&r, &c), s(&["a5<", "a5>"]));
    // a5> (3): a6 = 1, a7 = 2, a8 = 2 -> relay: b8, b7 = 2 -> relay: b6, b5 = 2 -> relay: b4, b3 = 2
    // -> relay: b2, b1 = 2 -> relay: a1 = 2, a2 = 1 (empty): stop. South must now take a5, which is
    // empty, so it plays freely.
    assert_eq!(
        after(&r, &c, "a5>"),
        "2,0,2,0,2,0,2,0/0,2,1,0,0,0,1,2/0,0,1,1,0,2,0,0/16,0,0,16,0,0,14,0 S 0,0 - - a5 62"
    );
}

/// General points: "the initial player must then make the original threatened capture, whatever
/// the consequences. If there is more than one source for the attack the player may choose".
#[test]
fn general_takasia_attacker_must_make_the_threatened_capture() {
    // South must take a4: A3> (A4 = 1, A5 = 2 facing a4) or B8> (ends in A5); A3< would take a8.
    mtaji::takasia_target_is_captured_before_any_other(&intermediate());
}

// ---------------------------------------------------------------------------------------------
// Advanced game: the opening
// ---------------------------------------------------------------------------------------------

/// Advanced game: each player distributes its four non-kuu seeds plus one nemo over its 16 holes,
/// one at a time; the second player may first take one hole facing its kuu or its 2-seed holes and
/// adds those seeds; then both stores hold 19 and play goes on as in the intermediate game.
#[test]
fn advanced_opening_distribution_and_optional_capture() {
    let r = Variant::MalawiAdvanced.rules();
    let p = Position::start(&r);
    assert_eq!(
        p.to_string(),
        "0,0,0,0,0,0,0,0/0,2,2,8,0,0,0,0/0,0,0,0,8,0,0,0/0,0,0,0,0,0,0,0 S 19,20 Hh - - 0 \
         hand=5 opening=1"
    );
    assert_eq!(legal(&r, &p).len(), 16); // any of the 16 holes
    let q = play_all(&r, &p, &["@A2", "@A3", "@A3", "@A4", "@B1"]);
    // North now holds its 4 + 1 seeds.
    assert_eq!(
        q.to_string(),
        "0,0,0,0,0,0,0,0/0,0,0,8,0,0,0,0/0,1,2,1,8,0,0,0/1,0,0,0,0,0,0,0 N 19,19 Hh - - 5 \
         hand=5 opening=2"
    );
    // North may take A4 (facing its kuu), A3 or A2 (facing its 2-seed holes a6, a7), or place.
    let mut want: Vec<String> = ["a", "b"]
        .iter()
        .flat_map(|row| (1..=8).map(move |n| format!("@{row}{n}")))
        .collect();
    want.extend(["xA2", "xA3", "xA4"].map(String::from));
    want.sort();
    assert_eq!(legal(&r, &q), want);
    let t = play(&r, &q, "xA3");
    assert_eq!(
        t.to_string(),
        "0,0,0,0,0,0,0,0/0,0,0,8,0,0,0,0/0,1,0,1,8,0,0,0/1,0,0,0,0,0,0,0 N 19,19 Hh - - 6 \
         hand=7 opening=3"
    );
    assert_eq!(legal(&r, &t).len(), 16); // only one capture
    let u = play_all(&r, &t, &["@a6", "@a6", "@a7", "@a7", "@a4", "@b1", "@b2"]);
    assert_eq!(
        u.to_string(),
        "0,0,0,0,0,0,1,1/0,2,2,8,1,0,0,0/0,1,0,1,8,0,0,0/1,0,0,0,0,0,0,0 S 19,19 Hh - - 13"
    );
    // South eats: A2 faces a7 (kimbi: left end only), the kuu A5 faces a4; A4 faces North's kuu,
    // but South's own kuu is threatened by a4, so it may not take it.
    assert_eq!(legal(&r, &u), s(&["A2<", "A5<", "A5>"]));
}
