//! The stages of an iteration behind narrow doors: self-play (`selfplay::play_games`), training
//! ([`Trainer::train`]) and evaluation (`evaluate::evaluate`), each taking plain values (weights
//! as bytes, samples, settings, seeds) and giving a report. [`IterationReport`] gathers one
//! iteration's reports for the metrics sink.

use super::{EvalEntry, TrainConfig, derive_seed};
use crate::nn::{Batch, Losses, Trainer};
use crate::rules::Rules;
use crate::selfplay::{GameRange, ReplayBuffer, SelfPlayOutput};
use rand::SeedableRng;
use std::time::Instant;

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

/// One iteration's training steps: how many, on what batches, at which learning rate.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSteps {
    /// Optimisation steps.
    pub steps: usize,
    /// Samples per step, drawn uniformly with replacement from the window.
    pub batch_size: usize,
    /// Weight of the search's value in the value target (see [`Batch::from_samples`]).
    pub value_q_weight: f32,
    /// Learning rate.
    pub lr: f64,
    /// Seed of the batches' draws.
    pub seed: u64,
}

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

/// What training steps did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainReport {
    /// Mean losses over the steps (zeros without steps).
    pub losses: Losses,
    /// Steps taken.
    pub steps: usize,
    /// Samples trained on (steps times the batch size).
    pub samples: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl TrainReport {
    /// Samples trained on per second.
    pub fn samples_per_sec(&self) -> f64 {
        self.samples as f64 / self.seconds.max(1e-9)
    }
}

impl Trainer {
    /// Takes the optimisation steps `plan` on batches drawn from `window`; `on_step` is called
    /// after each step. The same weights, window and plan give the same weights after.
    pub fn train(
        &mut self,
        rules: &Rules,
        window: &ReplayBuffer,
        plan: &TrainSteps,
        on_step: &dyn Fn(),
    ) -> anyhow::Result<TrainReport> {
        let t0 = Instant::now();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(plan.seed);
        let mut losses = Losses::default();
        for _ in 0..plan.steps {
            let samples = window.sample(plan.batch_size, &mut rng);
            let batch = Batch::from_samples(rules, &samples, plan.value_q_weight);
            losses.add(&self.step(&batch, plan.lr)?);
            on_step();
        }
        losses.average(plan.steps);
        Ok(TrainReport {
            losses,
            steps: plan.steps,
            samples: plan.steps * plan.batch_size,
            seconds: t0.elapsed().as_secs_f64(),
        })
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
