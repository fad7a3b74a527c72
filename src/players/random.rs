//! Baseline players: uniform random and one-ply greedy.

use super::player::{Choice, Limits, Player};
use crate::env::agents::greedy_index;
pub use crate::env::agents::{board_seeds, captured};
use crate::rules::{MoveList, Position, Rules};
use anyhow::bail;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays a uniformly random legal move, from its own seeded generator.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rules: Rules,
    rng: ChaCha8Rng,
    list: MoveList,
}

impl RandomPlayer {
    /// A random player of the game `rules`, with a seed.
    pub fn new(rules: &Rules, seed: u64) -> RandomPlayer {
        RandomPlayer {
            rules: rules.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            list: MoveList::new(),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn choose(&mut self, pos: &Position, _: &Limits) -> anyhow::Result<Choice> {
        pos.legal_moves(&self.rules, &mut self.list);
        if self.list.is_empty() {
            bail!("no legal move: the game is over in {pos}");
        }
        let i = self.rng.random_range(0..self.list.len());
        Ok(Choice {
            nodes: self.list.len() as u64,
            ..Choice::just(self.list.moves()[i])
        })
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
}

/// Plays the greedy move ([`greedy_index`]: the most seeds captured, a win first, ties broken by
/// its seeded generator).
#[derive(Clone, Debug)]
pub struct GreedyPlayer {
    rules: Rules,
    rng: ChaCha8Rng,
    list: MoveList,
}

impl GreedyPlayer {
    /// A greedy player of the game `rules`, with a seed for tie-breaking.
    pub fn new(rules: &Rules, seed: u64) -> GreedyPlayer {
        GreedyPlayer {
            rules: rules.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            list: MoveList::new(),
        }
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn choose(&mut self, pos: &Position, _: &Limits) -> anyhow::Result<Choice> {
        pos.legal_moves(&self.rules, &mut self.list);
        if self.list.is_empty() {
            bail!("no legal move: the game is over in {pos}");
        }
        let i = greedy_index(pos, &self.list, &mut self.rng).expect("a legal move");
        let mv = self.list.moves()[i];
        Ok(Choice {
            nodes: self.list.len() as u64,
            depth: 1,
            ..Choice::just(mv)
        })
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
}
