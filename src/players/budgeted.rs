//! [`Budgeted`]: a player held to a budget a move of its own, whatever the caller allows (an
//! exploit run's victim at its `victim_nodes` in every match, not only in self-play).

use super::{Candidate, Choice, Limits, Player, PlayerRegistry, PlayerSpec};
use crate::rules::{Game, Position};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A player whose every move is searched within `limits` (tightened by the caller's).
pub struct Budgeted {
    inner: Box<dyn Player>,
    limits: Limits,
}

impl Budgeted {
    /// `inner` held to `limits` a move.
    pub fn new(inner: Box<dyn Player>, limits: Limits) -> Budgeted {
        Budgeted { inner, limits }
    }
}

impl Player for Budgeted {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn game(&self) -> &Game {
        self.inner.game()
    }

    fn is_bound(&self) -> bool {
        self.inner.is_bound()
    }

    fn default_budget(&self) -> String {
        format!(
            "{}, at most {}",
            self.inner.default_budget(),
            self.limits.text()
        )
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        self.inner.choose(pos, &limits.min(&self.limits))
    }

    fn set_threads(&mut self, threads: usize) -> bool {
        self.inner.set_threads(threads)
    }

    fn set_stop(&mut self, stop: Arc<AtomicBool>) -> bool {
        self.inner.set_stop(stop)
    }

    fn new_game(&mut self, seed: u64) {
        self.inner.new_game(seed);
    }

    fn candidates(&self) -> Vec<Candidate> {
        self.inner.candidates()
    }
}

/// `players` with `spec` built held to `limits` a move (other specs of its kind as before); the
/// same registry when `limits` sets nothing.
pub fn with_budget(players: &PlayerRegistry, spec: &PlayerSpec, limits: Limits) -> PlayerRegistry {
    let mut budgeted = players.clone();
    if limits.is_none() {
        return budgeted;
    }
    let (original, held) = (players.clone(), spec.clone());
    budgeted.register(spec.kind(), move |_, spec, game, seed| {
        let player = original.build(spec, game, seed)?;
        if *spec == held {
            Ok(Box::new(Budgeted::new(player, limits)))
        } else {
            Ok(player)
        }
    });
    budgeted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn the_held_spec_alone_is_held_to_its_budget_and_says_so() {
        let game = Game::from(Variant::Kujifunza);
        let players = PlayerRegistry::classical();
        let held: PlayerSpec = "ab".parse().unwrap();
        let budgeted = with_budget(&players, &held, Limits::nodes(50));
        let mut victim = budgeted.build(&held, &game, 0).unwrap();
        let choice = victim
            .choose(&Position::start(&game), &Limits::NONE)
            .unwrap();
        assert!(choice.nodes <= 50, "{} nodes", choice.nodes);
        assert_eq!(victim.default_budget(), "depth 4, at most 50 nodes");
        assert_eq!(victim.name(), "ab");
        // Another spec of the same kind plays as it would.
        let deeper: PlayerSpec = "ab:depth=3".parse().unwrap();
        let mut other = budgeted.build(&deeper, &game, 0).unwrap();
        let choice = other
            .choose(&Position::start(&game), &Limits::NONE)
            .unwrap();
        assert!(choice.nodes > 50, "{} nodes", choice.nodes);
        assert_eq!(other.default_budget(), "depth 3");
    }
}
