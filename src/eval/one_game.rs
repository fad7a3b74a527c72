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
/// Players bound to no game (alpha-beta, random...) were built for `rules`.
pub fn check_one_game(rules: &Rules, players: &[&dyn Player]) -> anyhow::Result<()> {
    let bound: Vec<&dyn Player> = players.iter().copied().filter(|p| p.is_bound()).collect();
    if let Some(a) = bound.first()
        && let Some(b) = bound.iter().find(|b| b.rules() != a.rules())
    {
        bail!(
            "{} plays {} and {} plays {}: a game needs players of one game",
            a.name(),
            game_name(a.rules()),
            b.name(),
            game_name(b.rules())
        );
    }
    if let Some(a) = players.iter().find(|p| p.rules() != rules) {
        bail!(
            "{} plays {}, not {}: a game needs players of its game (pick its variant with \
             --variant)",
            a.name(),
            game_name(a.rules()),
            game_name(rules)
        );
    }
    Ok(())
}
