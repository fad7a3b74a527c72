//! Baseline agents that act on an [`Env`]: uniform random and one-ply greedy; the greedy choice
//! itself ([`greedy_index`]) serves the greedy player of `search` too.

use super::action::{move_to_action, nth_action};
use super::env::Env;
use crate::rules::{MoveList, Position, Side};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Something that picks an action for the player to move.
pub trait Agent {
    /// The action to play. In a finished episode there is no legal action: agents then return 0,
    /// which [`Env::step`] rejects with `EnvError::EpisodeOver`.
    fn act(&mut self, env: &Env) -> usize;
}

/// Picks uniformly among the legal actions, from its own seeded generator.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random agent with a seed.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A uniformly random set action of a bitmask (0 for an empty mask).
    #[inline]
    pub fn pick(&mut self, bits: u64) -> usize {
        let n = bits.count_ones() as usize;
        if n == 0 {
            return 0;
        }
        nth_action(bits, self.rng.random_range(0..n)).unwrap_or(0)
    }
}

impl Agent for RandomAgent {
    fn act(&mut self, env: &Env) -> usize {
        self.pick(env.legal_mask_bits())
    }
}

/// One ply of look-ahead: plays the [`greedy_index`] move, ties broken by its seeded generator.
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    rng: ChaCha8Rng,
}

impl GreedyAgent {
    /// A greedy agent with a seed for tie-breaking.
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for GreedyAgent {
    fn act(&mut self, env: &Env) -> usize {
        let (pos, list) = (env.state(), env.legal_moves());
        greedy_index(pos, list, &mut self.rng).map_or(0, |i| move_to_action(pos, list.moves()[i]))
    }
}

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

/// The greedy choice (the one definition behind the greedy agent and the greedy player): the
/// index in `list` (the legal moves of `pos`) of a move that captures the most of the opponent's
/// seeds, a move that wins at once first; ties, including "no capture anywhere", broken
/// uniformly by `rng` in the generator's fixed order. `None` when there is no legal move.
pub fn greedy_index(pos: &Position, list: &MoveList, rng: &mut impl Rng) -> Option<usize> {
    let me = pos.side_to_move();
    let score = |child: &Position| {
        let wins = child.result().is_some_and(|o| o.winner == Some(me));
        captured(pos, child) + if wins { 1000 } else { 0 }
    };
    let best = list.children().iter().map(score).max()?;
    let ties = list.children().iter().filter(|c| score(c) == best).count();
    let k = rng.random_range(0..ties);
    list.children()
        .iter()
        .enumerate()
        .filter(|(_, c)| score(c) == best)
        .nth(k)
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::EnvConfig;
    use crate::rules::Variant;

    #[test]
    fn random_agent_plays_only_legal_actions_and_reaches_all_of_them() {
        let mut env = Env::new(Variant::Kiswahili.into(), EnvConfig::default()).unwrap();
        env.reset(3);
        let mut agent = RandomAgent::new(9);
        let bits = env.legal_mask_bits();
        let mut seen = 0u64;
        for _ in 0..2000 {
            let a = agent.act(&env);
            assert!(bits >> a & 1 == 1);
            seen |= 1 << a;
        }
        assert_eq!(seen, bits);
    }
}
