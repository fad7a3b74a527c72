//! Evaluation during training: the network with a small search against baseline players
//! (any player spec: `random`, `greedy`, `ab:depth=2`, ...), as an arena match: pairs of games
//! that share a random opening, one with each colour, scored with the arena's Elo.

use super::EvalEntry;
use crate::eval::arena::{MatchConfig, run_match};
use crate::mcts::{Evaluator, MctsPlayer, PlaySettings};
use crate::rules::{Rules, Variant};
use crate::search::{Limits, PlayerRegistry, PlayerSpec};
use std::sync::Arc;

/// Games longer than this are draws.
const MAX_PLIES: usize = 600;

/// The kind under which the network under training enters the match.
const NETWORK: &str = "network";

/// Plays `games` games (in pairs: the same random opening with each colour) of the network,
/// searching `sims` simulations a move, against the player `opponent` (a spec built by
/// `players`); returns the network's score and Elo difference with 95% intervals, and the games
/// as KIBA records tagged with `variant`. `on_game` is called once per game played, after the
/// match.
#[allow(clippy::too_many_arguments)]
pub fn evaluate(
    rules: &Rules,
    variant: &str,
    eval: Arc<dyn Evaluator>,
    settings: &PlaySettings,
    sims: u32,
    opponent: &str,
    games: usize,
    opening_plies: u32,
    seed: u64,
    players: &PlayerRegistry,
    on_game: &(dyn Fn() + Sync),
) -> anyhow::Result<(EvalEntry, String)> {
    let opponent_spec: PlayerSpec = opponent.parse()?;
    let mut players = players.clone();
    let settings = settings.clone();
    players.register(NETWORK, move |_, seed| {
        let mut net = MctsPlayer::new(NETWORK, eval.clone(), &settings, sims);
        crate::search::Player::new_game(&mut net, seed);
        Ok(Box::new(net))
    });
    let network = PlayerSpec::Other {
        kind: NETWORK.to_string(),
        options: String::new(),
    };
    let result = run_match(&MatchConfig {
        rules: rules.clone(),
        start: None,
        games: games.div_ceil(2).max(1) * 2,
        seed,
        opening_plies,
        max_plies: MAX_PLIES,
        limits: Limits::NONE,
        progress: false,
        players,
        variant: variant.to_string(),
        ..MatchConfig::new(network, opponent_spec, Variant::Kiswahili)
    })?;
    for _ in 0..result.games {
        on_game();
    }
    let e = &result.estimate;
    let entry = EvalEntry {
        iteration: 0,
        opponent: opponent.to_string(),
        games: result.games,
        score: e.score,
        elo: e.elo,
        elo_low: e.elo_low,
        elo_high: e.elo_high,
    };
    Ok((entry, result.records()))
}
