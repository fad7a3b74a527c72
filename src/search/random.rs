//! Baseline players: uniform random and one-ply greedy.

use super::player::{Choice, Limits, Player};
use crate::rules::{MoveList, Position, Rules, Side};
use anyhow::bail;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Seeds on a side's 16 pits.
#[inline]
pub fn board_seeds(pos: &Position, side: Side) -> u32 {
    pos.pits(side).iter().map(|&n| u32::from(n)).sum()
}

/// The opponent's seeds a move took: the opponent's board seeds before it minus after it.
#[inline]
pub fn captured(pos: &Position, child: &Position) -> u32 {
    let opp = pos.side_to_move().opponent();
    board_seeds(pos, opp).saturating_sub(board_seeds(child, opp))
}

/// Plays a uniformly random legal move, from its own seeded generator.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
    list: MoveList,
}

impl RandomPlayer {
    /// A random player with a seed.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
            list: MoveList::new(),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, rules: &Rules, pos: &Position, _: &Limits) -> anyhow::Result<Choice> {
        pos.legal_moves(rules, &mut self.list);
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

/// Plays the move that captures the most of the opponent's seeds (the opponent's board seeds
/// before the move minus after it); ties, including "no capture anywhere", are broken uniformly
/// at random by its seeded generator. A move that wins at once is taken first.
#[derive(Clone, Debug)]
pub struct GreedyPlayer {
    rng: ChaCha8Rng,
    list: MoveList,
}

impl GreedyPlayer {
    /// A greedy player with a seed for tie-breaking.
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
            list: MoveList::new(),
        }
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, rules: &Rules, pos: &Position, _: &Limits) -> anyhow::Result<Choice> {
        pos.legal_moves(rules, &mut self.list);
        if self.list.is_empty() {
            bail!("no legal move: the game is over in {pos}");
        }
        let me = pos.side_to_move();
        let score = |child: &Position| {
            let wins = child.result().is_some_and(|o| o.winner == Some(me));
            captured(pos, child) + if wins { 1000 } else { 0 }
        };
        let best = self.list.children().iter().map(score).max().unwrap_or(0);
        let ties = self
            .list
            .children()
            .iter()
            .filter(|c| score(c) == best)
            .count();
        // The k-th best move in generator order (the generator's order is fixed).
        let k = self.rng.random_range(0..ties);
        let (mv, _) = self
            .list
            .iter()
            .filter(|(_, c)| score(c) == best)
            .nth(k)
            .expect("k < ties");
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
