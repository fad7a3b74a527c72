//! Baseline agents that act on an [`Env`]: uniform random and one-ply greedy.

use super::action::{mask_actions, move_to_action, nth_action};
use super::env::Env;
use rand::{RngExt, SeedableRng};
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

/// One ply of look-ahead: plays the move that captures the most of the opponent's seeds (the
/// opponent's seeds on the board before the move minus after it), ties broken uniformly at
/// random by its seeded generator. With no capture available every legal move ties.
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

/// Seeds on `side`'s 16 pits.
fn board_seeds(pos: &crate::rules::Position, side: crate::rules::Side) -> i32 {
    pos.pits(side).iter().map(|&n| i32::from(n)).sum()
}

impl Agent for GreedyAgent {
    fn act(&mut self, env: &Env) -> usize {
        let bits = env.legal_mask_bits();
        if bits == 0 {
            return 0;
        }
        let pos = env.state();
        let opp = pos.side_to_move().opponent();
        let before = board_seeds(pos, opp);
        let (mut best, mut choice, mut ties) = (i32::MIN, 0, 0u32);
        // Actions in increasing order so the tie-break does not depend on the generator's order.
        let list = env.legal_moves();
        let mut scored: [(usize, i32); 64] = [(0, 0); 64];
        let mut n = 0;
        for (mv, child) in list.iter() {
            scored[n] = (move_to_action(pos, mv), before - board_seeds(child, opp));
            n += 1;
        }
        scored[..n].sort_unstable_by_key(|&(a, _)| a);
        debug_assert!(mask_actions(bits).eq(scored[..n].iter().map(|&(a, _)| a)));
        for &(a, captured) in &scored[..n] {
            if captured > best {
                (best, choice, ties) = (captured, a, 1);
            } else if captured == best {
                // Reservoir sampling: each tied action ends up chosen with probability 1/ties.
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    choice = a;
                }
            }
        }
        choice
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::EnvConfig;
    use crate::rules::Variant;

    #[test]
    fn random_agent_plays_only_legal_actions_and_reaches_all_of_them() {
        let mut env = Env::new(Variant::Kiswahili.rules(), EnvConfig::default()).unwrap();
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
