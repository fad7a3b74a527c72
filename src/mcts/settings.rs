//! The search settings a player plays with: the part of [`MctsConfig`] a player file stores.

use super::MctsConfig;
use serde::{Deserialize, Serialize};

/// What a player searches with at play. Self-play adds to these its root noise, temperature,
/// playout cap and forced playouts ([`MctsConfig`]); a player plays without them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlaySettings {
    /// Exploration constant of PUCT ([`MctsConfig::c_puct`]).
    pub c_puct: f32,
    /// First-play urgency ([`MctsConfig::fpu_reduction`]).
    pub fpu_reduction: f32,
    /// MCTS-solver: proven wins and losses ([`MctsConfig::solver`]).
    pub solver: bool,
    /// Weight of implicit minimax values in selection ([`MctsConfig::minimax_weight`]).
    pub minimax_weight: f32,
}

impl Default for PlaySettings {
    fn default() -> Self {
        MctsConfig::default().play_settings()
    }
}

impl PlaySettings {
    /// Search settings that search as these do at play: no root noise, and what only self-play
    /// reads left at its default.
    pub fn search_config(&self) -> MctsConfig {
        MctsConfig {
            c_puct: self.c_puct,
            fpu_reduction: self.fpu_reduction,
            solver: self.solver,
            minimax_weight: self.minimax_weight,
            dirichlet_epsilon: 0.0,
            ..MctsConfig::default()
        }
    }
}

impl MctsConfig {
    /// The settings of these that a player keeps at play.
    pub fn play_settings(&self) -> PlaySettings {
        PlaySettings {
            c_puct: self.c_puct,
            fpu_reduction: self.fpu_reduction,
            solver: self.solver,
            minimax_weight: self.minimax_weight,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_settings_search_as_the_config_they_come_from_searches_at_play() {
        let cfg = MctsConfig {
            c_puct: 0.8,
            fpu_reduction: 0.1,
            solver: true,
            minimax_weight: 0.3,
            ..MctsConfig::default()
        };
        let back = cfg.play_settings().search_config();
        assert_eq!(back.play_settings(), cfg.play_settings());
        assert_eq!(back.dirichlet_epsilon, 0.0, "a player adds no root noise");
    }
}
