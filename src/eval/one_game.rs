//! Players bound to one game (a player file's network knows one rule set): the check, made before
//! any move, that the players of a game, a match or a gauntlet all play its game.

use crate::players::Player;
use crate::rules::{Game, Rules};
use anyhow::bail;

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
            Game::describe(a.rules()),
            b.name(),
            Game::describe(b.rules())
        );
    }
    if let Some(a) = players.iter().find(|p| p.rules() != rules) {
        bail!(
            "{} plays {}, not {}: a game needs players of its game (pick its variant with \
             --variant)",
            a.name(),
            Game::describe(a.rules()),
            Game::describe(rules)
        );
    }
    Ok(())
}
