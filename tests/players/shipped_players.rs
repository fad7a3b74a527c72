//! The shipped player files (`checkpoints/shipped/`, formats written by earlier versions) load and
//! choose the same moves as when they were shipped, at a fixed number of simulations.
//!
//! `tests/fixtures/shipped_moves.txt` holds the moves each file chose when the fixture was made:
//! a game the player plays against itself from the start (so the search tree carried from move to
//! move counts too), then positions reached by seeded random moves. `BAO_BLESS=1 cargo test
//! --release --test players shipped` writes it again; do that only when a change of play is meant.
#![cfg(feature = "ml")]

use bao_zero::notation::move_text;
use bao_zero::players::{Limits, Player};
use bao_zero::rules::{MoveList, Position};
use bao_zero::trained::LoadedPlayer;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// The shipped files the fixture covers (each a format version this build must keep reading).
const FILES: [&str; 11] = [
    "hus",
    "katra-fandatsaka",
    "kimasai",
    "kiswahili",
    "kujifunza",
    "malawi-advanced",
    "malawi-basic",
    "malawi-intermediate",
    "stages/kiswahili-stage1",
    "stages/kiswahili-result-soup",
    "stages/kiswahili-q05-soup",
];

/// Simulations a move: enough for the tree, re-rooting and batching to matter, small enough to
/// keep the test quick.
const SIMS: u64 = 300;
/// Plies of the self-played game.
const GAME_PLIES: usize = 16;
/// Positions reached by random moves, and the plies of each walk.
const WALKS: u64 = 6;
const WALK_PLIES: u64 = 9;

fn fixture_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shipped_moves.txt")
}

/// One line per file: its name, then the moves it chose.
fn choices(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("checkpoints/shipped")
        .join(format!("{name}.bao"));
    let mut player = LoadedPlayer::load(&path).unwrap();
    let rules = player.rules().clone();
    let limits = Limits::nodes(SIMS);
    let mut line = vec![name.to_string()];
    let mut list = MoveList::new();

    let mut pos = Position::start(&rules);
    for _ in 0..GAME_PLIES {
        if pos.outcome(&rules).is_some() {
            break;
        }
        let mv = player.choose(&pos, &limits).unwrap().mv;
        line.push(move_text(mv, pos.side_to_move()));
        pos = pos.play(&rules, mv).unwrap();
    }

    for walk in 0..WALKS {
        let mut rng = ChaCha8Rng::seed_from_u64(walk);
        let mut pos = Position::start(&rules);
        for _ in 0..walk * WALK_PLIES / 2 + 1 {
            pos.legal_moves(&rules, &mut list);
            if pos.outcome(&rules).is_some() || list.is_empty() {
                break;
            }
            let mv = list.moves()[rng.random_range(0..list.len())];
            pos = pos.play(&rules, mv).unwrap();
        }
        if pos.outcome(&rules).is_some() {
            line.push("-".into());
            continue;
        }
        player.new_game(walk);
        let mv = player.choose(&pos, &limits).unwrap().mv;
        line.push(move_text(mv, pos.side_to_move()));
    }
    line.join(" ")
}

#[test]
fn shipped_players_choose_the_moves_they_chose_when_shipped() {
    let got: Vec<String> = FILES.iter().map(|name| choices(name)).collect();
    let got = got.join("\n") + "\n";
    if std::env::var_os("BAO_BLESS").is_some() {
        std::fs::create_dir_all(fixture_path().parent().unwrap()).unwrap();
        std::fs::write(fixture_path(), &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(fixture_path()).unwrap();
    for (g, w) in got.lines().zip(want.lines()) {
        assert_eq!(g, w, "a shipped player chose other moves");
    }
    assert_eq!(got.lines().count(), want.lines().count());
}
