//! MCTS as a [`Player`]: a search over any [`Evaluator`] (a network, or uniform priors) that
//! answers with its most visited move, its value and principal variation.

use super::{Evaluator, MctsConfig, Tree, search};
use crate::rules::{Position, Rules};
use crate::search::{Choice, Limits, Player};
use anyhow::Context;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::Instant;

/// Simulations run between two looks at the clock under a time limit.
const SIMS_PER_CLOCK_CHECK: u32 = 16;

/// Simulations a time-limited search may never exceed (the tree's memory bound).
const MAX_SIMS: u32 = 2_000_000;

/// An MCTS player: no root noise, the most visited move.
pub struct MctsPlayer {
    name: String,
    rules: Option<Rules>,
    eval: Arc<dyn Evaluator>,
    cfg: MctsConfig,
    sims: u32,
    rng: ChaCha8Rng,
}

impl MctsPlayer {
    /// A player over `eval` with `sims` simulations per move unless its limits say otherwise.
    pub fn new(
        name: impl Into<String>,
        eval: Arc<dyn Evaluator>,
        cfg: &MctsConfig,
        sims: u32,
    ) -> Self {
        MctsPlayer {
            name: name.into(),
            rules: None,
            eval,
            // Noise is for exploration in self-play; a player plays its best.
            cfg: MctsConfig {
                dirichlet_epsilon: 0.0,
                ..cfg.clone()
            },
            sims: sims.max(1),
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }

    /// Restricts the player to one rule set (a trained network knows only its own variant).
    pub fn only_for(mut self, rules: Rules) -> Self {
        self.rules = Some(rules);
        self
    }

    /// Simulations per move when the limits give none.
    pub fn sims(&self) -> u32 {
        self.sims
    }
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// Node limits count simulations; a time limit searches until the time is spent (the
    /// default simulations still cap it unless a node limit is given too); depth is ignored.
    fn choose(&mut self, rules: &Rules, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        if let Some(own) = &self.rules {
            anyhow::ensure!(
                own == rules,
                "{} was trained for other rules than the game's",
                self.name
            );
        }
        pos.validate(rules)
            .map_err(|e| anyhow::anyhow!("the position does not fit the rules: {e}"))?;
        anyhow::ensure!(pos.outcome(rules).is_none(), "the game is over");
        let budget = match (limits.nodes, limits.time) {
            (Some(n), _) => n.min(u64::from(MAX_SIMS)) as u32,
            (None, Some(_)) => MAX_SIMS,
            (None, None) => self.sims,
        }
        .max(1);
        let mut tree = Tree::new(*pos);
        let (eval, cfg) = (self.eval.as_ref(), &self.cfg);
        match limits.time {
            None => search(&mut tree, rules, eval, cfg, budget, &mut self.rng),
            Some(time) => {
                let start = Instant::now();
                let mut target = 0;
                while target < budget && start.elapsed() < time && !tree.root_is_terminal() {
                    target = (target + SIMS_PER_CLOCK_CHECK).min(budget);
                    search(&mut tree, rules, eval, cfg, target, &mut self.rng);
                }
            }
        }
        let mv = tree.best_move().context("the search found no move")?;
        let pv = tree.pv(16);
        Ok(Choice {
            mv,
            eval: Some(tree.root_value()),
            depth: pv.len() as u32,
            pv,
            nodes: u64::from(tree.root_visits()),
        })
    }

    fn rules(&self) -> Option<Rules> {
        self.rules.clone()
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::UniformEvaluator;
    use crate::rules::{MoveList, Variant};
    use std::time::Duration;

    #[test]
    fn plays_legal_moves_within_its_limits() {
        let rules = Variant::Kiswahili.rules();
        let pos = Position::start(&rules);
        let mut p = MctsPlayer::new(
            "uniform",
            Arc::new(UniformEvaluator),
            &MctsConfig::default(),
            50,
        );
        let mut list = MoveList::new();
        pos.legal_moves(&rules, &mut list);
        let c = p.choose(&rules, &pos, &Limits::NONE).unwrap();
        assert!(list.find(c.mv).is_some());
        assert_eq!(c.nodes, 50);
        assert_eq!(c.pv[0], c.mv);
        let c = p.choose(&rules, &pos, &Limits::nodes(7)).unwrap();
        assert_eq!(c.nodes, 7);
        let c = p
            .choose(&rules, &pos, &Limits::time(Duration::from_millis(20)))
            .unwrap();
        assert!(c.nodes >= 1);
    }

    #[test]
    fn refuses_other_rules() {
        let rules = Variant::Kiswahili.rules();
        let other = Variant::Hus.rules();
        let mut p = MctsPlayer::new(
            "uniform",
            Arc::new(UniformEvaluator),
            &MctsConfig::default(),
            8,
        )
        .only_for(rules.clone());
        let err = p
            .choose(&other, &Position::start(&other), &Limits::NONE)
            .unwrap_err();
        assert!(err.to_string().contains("other rules"), "{err}");
    }
}
