//! Players bound to one game (a player file's network knows one rule set): the check, made before
//! any move, that the players of a game, a match or a gauntlet all play its game.

use crate::rules::{Rules, Variant};
use crate::search::Player;
use anyhow::bail;

/// The name of the game of `rules`: its preset's, or `its own rules`.
pub fn game_name(rules: &Rules) -> &'static str {
    Variant::ALL
        .into_iter()
        .find(|v| v.rules() == *rules)
        .map_or("its own rules", |v| v.name())
}

/// Refuses, in one line, players bound to different games, or to another game than `rules`, so
/// that a game between them is refused up front rather than at such a player's first move.
/// Players bound to no game (alpha-beta, random...) play any.
pub fn check_one_game(rules: &Rules, players: &[&dyn Player]) -> anyhow::Result<()> {
    let bound: Vec<(String, Rules)> = (players.iter())
        .filter_map(|p| p.rules().map(|r| (p.name(), r)))
        .collect();
    if let Some((a, ra)) = bound.first()
        && let Some((b, rb)) = bound.iter().find(|(_, r)| r != ra)
    {
        bail!(
            "{a} plays {} and {b} plays {}: a game needs players of one game",
            game_name(ra),
            game_name(rb)
        );
    }
    if let Some((a, ra)) = bound.iter().find(|(_, r)| r != rules) {
        bail!(
            "{a} plays {}, not {}: a game needs players of its game (pick its variant with \
             --variant)",
            game_name(ra),
            game_name(rules)
        );
    }
    Ok(())
}
