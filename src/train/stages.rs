//! The stages of an iteration behind narrow doors: self-play (`selfplay::play_games`), training
//! ([`crate::nn::Trainer::train`]) and evaluation (`evaluate::evaluate`), each taking plain values (weights
//! as bytes, samples, settings, seeds) and giving a report. [`IterationReport`] gathers one
//! iteration's reports for the metrics sink.

use super::{EvalEntry, TrainConfig, derive_seed};
use crate::nn::{TrainReport, TrainSteps};
use crate::selfplay::{GameRange, SelfPlayOutput};

/// Seed purposes (see [`derive_seed`]).
pub(crate) const SEED_SELFPLAY: u64 = 1;
pub(crate) const SEED_BATCHES: u64 = 2;
pub(crate) const SEED_EVAL: u64 = 3;
pub(crate) const SEED_INIT: u64 = 4;

/// Games `first..first + count` of `iteration` of a run with `config`: the same games whichever
/// caller plays them.
pub fn selfplay_games(config: &TrainConfig, iteration: u32, first: u64, count: usize) -> GameRange {
    GameRange {
        seed: derive_seed(config.seed, iteration, SEED_SELFPLAY),
        first,
        count,
    }
}

/// The steps of an iteration of a run: its config's optimiser settings, the learning rate of its
/// schedule and a seed of its own.
impl TrainSteps {
    /// The steps of `iteration` of a run with `config`.
    pub fn of_iteration(config: &TrainConfig, iteration: u32) -> TrainSteps {
        TrainSteps {
            steps: config.optim.steps_per_iteration,
            batch_size: config.optim.batch_size,
            value_q_weight: config.optim.value_q_weight,
            lr: config.learning_rate(iteration - 1),
            seed: derive_seed(config.seed, iteration, SEED_BATCHES),
        }
    }
}

/// One iteration's reports and the run's totals after it: what the metrics sink writes.
#[derive(Clone, Debug, Default)]
pub struct IterationReport {
    /// The iteration (1-based).
    pub iteration: u32,
    /// The learning rate of its training steps.
    pub lr: f64,
    /// Self-play's figures (its samples have gone into the replay window).
    pub selfplay: SelfPlayOutput,
    /// Samples self-play made.
    pub positions: usize,
    /// Training.
    pub train: TrainReport,
    /// Evaluation results (empty when the iteration evaluated nothing).
    pub eval: Vec<EvalEntry>,
    /// Games, samples and training steps of the run so far.
    pub total_games: u64,
    pub total_positions: u64,
    pub total_steps: u64,
    /// Samples in the replay window.
    pub replay: usize,
    /// Wall-clock seconds of the whole iteration.
    pub seconds: f64,
}
