//! The self-play stage's door: games of one network, given as weights (bytes), out as samples
//! and figures. The training loop, the Python package and a distributed driver all call it, so
//! an iteration's games can be played in one call or split over several.

use super::{ReplayBuffer, SelfPlayConfig, SelfPlayResult};
use crate::nn::NetWeights;
use crate::rules::Rules;
use std::time::Instant;

/// Which games to play: game `g` plays from the seed `seed + g` (wrapping), for `g` in
/// `first..first + count`. A training run's iteration has its own `seed` (see
/// `train::selfplay_games`), so its games can be split over callers by `first` and `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRange {
    /// The seed of game 0.
    pub seed: u64,
    /// The first game's index.
    pub first: u64,
    /// How many games.
    pub count: usize,
}

impl GameRange {
    /// The seeds of the games, in order.
    pub fn seeds(&self) -> Vec<u64> {
        (self.first..self.first + self.count as u64)
            .map(|g| self.seed.wrapping_add(g))
            .collect()
    }
}

/// What self-play gives: the samples and figures of the games, and the time they took.
#[derive(Clone, Debug, Default)]
pub struct SelfPlayOutput {
    /// The samples (`games.samples`, in the order the games finished on each worker, workers
    /// in game order) and the games' figures.
    pub games: SelfPlayResult,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl SelfPlayOutput {
    /// The samples in the replay file format (a buffer holding exactly them).
    pub fn replay_bytes(&self) -> Vec<u8> {
        let mut buffer = ReplayBuffer::new(self.games.samples.len());
        buffer.extend(self.games.samples.iter().copied());
        buffer.to_bytes()
    }

    /// Games per second.
    pub fn games_per_sec(&self) -> f64 {
        self.games.games as f64 / self.seconds
    }

    /// Simulations per second.
    pub fn sims_per_sec(&self) -> f64 {
        self.games.simulations as f64 / self.seconds
    }
}

/// Plays the games `range` of the network `weights` with `settings` (its workers split the games
/// in fixed chunks, so the same call gives the same samples). `progress` is told how many games
/// have finished.
pub fn play_games(
    rules: &Rules,
    weights: &NetWeights,
    settings: &SelfPlayConfig,
    range: GameRange,
    progress: &(dyn Fn(usize) + Sync),
) -> anyhow::Result<SelfPlayOutput> {
    let t0 = Instant::now();
    let evaluator = weights.evaluator()?;
    let games = super::play(rules, &evaluator, settings, &range.seeds(), progress);
    Ok(SelfPlayOutput {
        games,
        seconds: t0.elapsed().as_secs_f64(),
    })
}
