//! The classical player kinds of a [`PlayerRegistry`]: `random`, `greedy`, `engine`, and the
//! searches of this room, `ab` and `solver`.

use super::alphabeta::{AlphaBeta, AlphaBetaConfig};
use super::heuristic::HeuristicWeights;
use super::solver::SolverPlayer;
use crate::players::options::AbSpec;
use crate::players::{ExternalEngine, GreedyPlayer, PlayerRegistry, PlayerSpec, RandomPlayer};
use crate::rules::Game;
use anyhow::Context;

impl Default for PlayerRegistry {
    fn default() -> Self {
        PlayerRegistry::classical()
    }
}

impl PlayerRegistry {
    /// The classical players: `random`, `greedy`, `ab` (also `alphabeta`), `engine`, `solver`.
    pub fn classical() -> PlayerRegistry {
        let mut r = PlayerRegistry::empty();
        r.register("random", |_, _, game, seed| {
            Ok(Box::new(RandomPlayer::new(game, seed)))
        });
        r.register("greedy", |_, _, game, seed| {
            Ok(Box::new(GreedyPlayer::new(game, seed)))
        });
        r.register("ab", |_, spec, game, _| match spec {
            PlayerSpec::AlphaBeta(ab) => Ok(Box::new(alpha_beta(spec, ab, game)?)),
            other => anyhow::bail!("`{other}` is not an alpha-beta spec"),
        });
        r.register("engine", |_, spec, game, _| {
            let PlayerSpec::Other { options, .. } = spec else {
                anyhow::bail!("`{spec}` is not an engine spec")
            };
            let (program, player) = match options.split_once(",player=") {
                Some((p, s)) => (p.trim(), Some(s.trim()).filter(|s| !s.is_empty())),
                None => (options.trim(), None),
            };
            let command = crate::players::external::command_words(program)?;
            Ok(Box::new(ExternalEngine::start_command(
                &command,
                player,
                spec.to_string(),
                game,
            )?))
        });
        r.register("book", super::book::build);
        r.register("solver", |registry, spec, game, seed| {
            let PlayerSpec::Solver(options) = spec else {
                anyhow::bail!("`{spec}` is not a solver spec")
            };
            let fallback = match &options.fallback {
                Some(other) => Some(registry.build(other, game, seed)?),
                None => None,
            };
            Ok(Box::new(SolverPlayer::new(
                options.clone(),
                spec.to_string(),
                game,
                fallback,
            )?))
        });
        r
    }
}

/// The alpha-beta player of `spec`, with its weights file read (bounded) where it names one.
fn alpha_beta(spec: &PlayerSpec, ab: &AbSpec, game: &Game) -> anyhow::Result<AlphaBeta> {
    let weights = match &ab.weights {
        None => HeuristicWeights::default(),
        Some(path) => {
            let text = crate::util::fs::read_text_bounded(
                path,
                crate::util::fs::limits::TEXT,
                "weights file",
            )?;
            serde_json::from_str(&text)
                .with_context(|| format!("bad weights file {}", path.display()))?
        }
    };
    // No limits in the spec: the caller's limits apply, or else the default depth.
    let cfg = AlphaBetaConfig {
        limits: ab.limits,
        tt_bits: ab.tt_bits.unwrap_or(AlphaBetaConfig::default().tt_bits),
        weights,
    };
    Ok(AlphaBeta::new(game, cfg).named(spec.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_knows_the_kinds_it_can_build() {
        let players = PlayerRegistry::classical();
        for known in ["random", "greedy", "ab:depth=2", "engine:bao"] {
            assert!(players.knows(&known.parse().unwrap()), "{known}");
        }
        for unknown in ["nonsense:x", "mcts:sims=2", "player:x.bao"] {
            assert!(!players.knows(&unknown.parse().unwrap()), "{unknown}");
        }
    }
}
