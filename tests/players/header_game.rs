//! A player file's header names its game as text: a custom game reads back exactly, a file
//! that names only its preset still loads, and a text of another game than its rules is refused.
#![cfg(feature = "ml")]

use bao_zero::player_file::Bundle;
use bao_zero::players::Player;
use bao_zero::rules::Game;
use bao_zero::trained::LoadedPlayer;
use std::path::Path;
use std::sync::Arc;

fn shipped(name: &str) -> Bundle {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Bundle::read(&root.join(format!("checkpoints/shipped/{name}.bao"))).unwrap()
}

/// `bundle` written and read again.
fn reread(bundle: &Bundle) -> anyhow::Result<Bundle> {
    Bundle::from_bytes(&bundle.to_bytes()?)
}

#[test]
fn a_player_files_header_names_its_game_and_a_custom_game_reads_back_exactly() {
    let custom: Game = "kujifunza+takasia=valid-house-only".parse().unwrap();
    let mut bundle = shipped("kujifunza");
    bundle.header.variant = custom.to_string();
    bundle.header.rules = custom.rules().clone();
    let read = reread(&bundle).unwrap();
    let eval = Arc::new(read.inference().unwrap());
    let player = LoadedPlayer::new(read.header.clone(), eval, "p".into()).unwrap();
    assert_eq!(*player.game(), custom);
    assert_eq!(
        player.game().to_string(),
        "kujifunza+takasia=valid-house-only"
    );
    // A file that names only the preset its rules start from still loads, as its game.
    let mut named = bundle.clone();
    named.header.variant = "kujifunza".into();
    assert_eq!(named.header.game().unwrap(), custom);
    assert!(reread(&named).is_ok());
    // A text naming another game than the rules is refused, in one line.
    let mut wrong = bundle.clone();
    wrong.header.variant = "kujifunza+takasia=none".into();
    let err = match reread(&wrong) {
        Ok(_) => panic!("a header naming another game than its rules was read"),
        Err(e) => format!("{e:#}"),
    };
    assert!(err.contains("is another game than its rules"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
