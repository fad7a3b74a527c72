//! Players of one game: a match, a gauntlet, a watched game and the engine check the game of
//! their players once, when it is set up, and refuse players of another in one line.

use super::protocol_inputs::{assert_one_line_error, run, run_with};

/// The shipped player of `game`, as a spec.
#[cfg(feature = "ml")]
fn shipped(game: &str) -> String {
    format!(
        "player:{}/checkpoints/shipped/{game}.bao",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[cfg(feature = "ml")]
#[test]
fn eval_takes_the_game_from_the_player_files_and_refuses_players_of_different_games() {
    let root = env!("CARGO_MANIFEST_DIR");
    let hus = format!("player:{root}/checkpoints/shipped/hus.bao");
    let kis = format!("player:{root}/checkpoints/shipped/kujifunza.bao");
    let (ok, out, err) = run(&[
        "eval", "--a", &hus, "--b", "random", "-n", "2", "--nodes", "8", "-q",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("on hus"), "{out}");
    let (ok, _, err) = run(&["eval", "--a", &hus, "--b", &kis, "-n", "2", "-q"]);
    assert!(!ok);
    assert_one_line_error(&err, "plays hus and");
    assert!(
        err.contains("plays kujifunza: a game needs players of one game"),
        "{err}"
    );
    // A game named on the command line that the player file does not play: the same check.
    let (ok, _, err) = run(&[
        "eval",
        "--a",
        &hus,
        "--b",
        "random",
        "--variant",
        "kiswahili",
    ]);
    assert!(!ok);
    assert_one_line_error(
        &err,
        "plays hus, not kiswahili: a trained player plays only the game it learned",
    );
}

#[cfg(feature = "ml")]
#[test]
fn gauntlets_and_watched_games_of_players_of_different_games_are_refused_up_front() {
    let (hus, kiswahili) = (shipped("hus"), shipped("kiswahili"));
    let players = [
        "--player", "random", "--player", &kiswahili, "--player", &hus,
    ];
    let (ok, out, err) = run(&[&["gauntlet", "-n", "2"][..], &players].concat());
    assert!(!ok && out.is_empty(), "{out}");
    assert_one_line_error(&err, "plays kiswahili and");
    assert!(
        err.contains("plays hus: a game needs players of one game"),
        "{err}"
    );
    let (ok, _, err) = run(&["play", "--south", &hus, "--north", &kiswahili]);
    assert!(!ok);
    assert_one_line_error(&err, "plays hus and");
    let (ok, _, err) = run(&["play", "--south", &hus, "--north", "random"]);
    assert!(!ok);
    assert_one_line_error(
        &err,
        "plays hus, not kiswahili: a trained player plays only the game it learned",
    );
}

#[cfg(feature = "ml")]
#[test]
fn the_engine_checks_its_player_against_each_new_game_and_go_says_why_it_cannot_play() {
    let hus = shipped("hus");
    // The Hus player takes the engine to its game; a new variant keeps the player, whose
    // `go` then says that it plays another game; `player default` plays the new one.
    let input = format!(
        "player {hus}\ngo nodes 8\nvariant kujifunza\ngo nodes 8\nplayer ab:depth=2\ngo\nvariant hus\ngo\n"
    );
    let (ok, out, err) = run_with(&["engine", "--player", "random"], input.as_bytes(), &[]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert!(lines[0].starts_with("ok player:"), "{out}");
    assert!(lines[1].starts_with("bestmove"), "{out}");
    assert_eq!(lines[2], "ok kujifunza", "{out}");
    assert!(
        lines[3].starts_with("error")
            && lines[3].contains(
                "plays hus, not kujifunza: a trained player plays only the game it learned"
            ),
        "{out}"
    );
    assert_eq!(lines[4], "ok ab:depth=2", "{out}");
    assert!(lines[5].starts_with("bestmove"), "{out}");
    assert_eq!(lines[6], "ok hus", "{out}");
    assert!(lines[7].starts_with("bestmove"), "{out}");
}
