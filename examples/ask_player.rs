//! Load a player file and ask it for moves, without any training code:
//!
//! ```sh
//! cargo run --release --example ask_player -- checkpoints/shipped/kiswahili.bao "A6< a5>"
//! ```
use bao_zero::notation::{line_text, move_text, parse_and_play};
use bao_zero::players::{Limits, Player};
use bao_zero::rules::Position;
use bao_zero::trained::LoadedPlayer;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .unwrap_or("checkpoints/shipped/kiswahili.bao".into());
    let moves = args.next().unwrap_or_default();
    let mut player = LoadedPlayer::load(file.as_ref())?;
    let rules = player.rules().clone();
    // Play the given moves from the start, each checked against the rules.
    let mut pos = Position::start(&rules);
    for m in moves.split_whitespace() {
        pos = parse_and_play(&rules, &pos, m)?.1;
    }
    // 400 simulations; `Limits::time(..)` or `Limits::NONE` (the file's default) work too.
    let choice = player.choose(&pos, &Limits::nodes(400))?;
    println!(
        "{} plays {} (value {:+.2} for the mover), expecting {}",
        pos.side_to_move(),
        move_text(choice.mv, pos.side_to_move()),
        choice.eval.unwrap_or(0.0),
        line_text(&rules, &pos, &choice.pv).join(" ")
    );
    Ok(())
}
