//! The training loop: self-play -> training steps -> evaluation -> checkpoint -> logs, repeated.
//!
//! Each stage is a door taking plain values (see [`stages`]); iterations meet only through the
//! run directory (`run_dir`), so a run can be stopped at any moment (even by `kill -9`) and
//! resumed with `bao train --resume RUN_DIR`, continuing at the next iteration exactly as the
//! uninterrupted run would have (every random choice derives from the config's seed and the
//! iteration number).

pub mod config;
pub mod evaluate;
pub mod exploit;
pub mod exploit_report;
mod learner;
mod lock;
mod metrics;
mod open;
mod run_dir;
pub mod stages;

pub use crate::nn::Batch;
pub use config::{EvalConfig, OptimConfig, TrainConfig, derive_seed};
pub use evaluate::{EvalReport, EvalSettings};
pub use learner::{Learner, bar};
pub use lock::{LOCK_FILE, RunLock};
pub use metrics::{MetricsSink, metrics_line};
pub use open::{ConfigSource, RunSource};
pub use run_dir::{EvalEntry, Meta, RunDir};
pub use stages::{IterationReport, selfplay_games};

use crate::selfplay;
use anyhow::bail;
use std::path::Path;

/// Options of one `bao train` invocation.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Hide progress bars (tests, CI).
    pub quiet: bool,
    /// Stop after this many iterations of this invocation (the run can be resumed later).
    pub max_new_iterations: Option<u32>,
    /// How the evaluation opponents' specs become players.
    pub players: crate::players::PlayerRegistry,
    /// The device to train on in this invocation, instead of the config's `[net] device`.
    pub device: Option<crate::nn::Compute>,
    /// This invocation is `bao exploit`: it opens exploit runs only (and `bao train` none).
    pub exploit: bool,
}

impl RunOptions {
    /// `config` with this invocation's device, if one is chosen.
    pub(crate) fn on_device(&self, mut config: TrainConfig) -> TrainConfig {
        if let Some(device) = self.device {
            config.net.device = device;
        }
        config
    }
}

/// `bao train`: opens the run `source` names and trains it, its self-play in this process, to
/// its end or `opts.max_new_iterations`. A config's run with `extend_to` is opened once more when
/// it reaches the config's own end, which extends it (see [`RunSource::extend_to`]).
pub fn train_run(source: &RunSource, opts: &RunOptions) -> anyhow::Result<Meta> {
    let learner = Learner::open_run(source, opts)?;
    let (first, end) = (learner.meta().iteration, learner.config().iterations);
    let meta = run(learner, opts)?;
    // What is left of --iterations after the config's own part.
    let budget = opts
        .max_new_iterations
        .map(|n| n.saturating_sub(meta.iteration - first));
    match source.extend_to {
        Some(total) if meta.iteration == end && end < total && budget != Some(0) => {
            let opts = RunOptions {
                max_new_iterations: budget,
                ..opts.clone()
            };
            run(Learner::open_run(source, &opts)?, &opts)
        }
        _ => Ok(meta),
    }
}

/// Lets the run in `path` train further: raises its config's `iterations` to `total` (the
/// learning-rate schedule then stretches to the new end). A finished run can be extended; the
/// next resume continues it.
pub fn extend(path: &Path, total: u32) -> anyhow::Result<()> {
    let dir = RunDir::new(path);
    dir.read_meta()?;
    // The config may change only while no process runs the run.
    let _lock = dir.lock()?;
    let meta = dir.read_meta()?;
    let mut config = dir.read_config_of(&meta)?;
    if total <= meta.iteration {
        bail!(
            "{} is already at iteration {}; --extend-to must be above it",
            path.display(),
            meta.iteration
        );
    }
    if total != config.iterations {
        config.iterations = total;
        dir.write_config(&toml::to_string_pretty(&config)?)?;
    }
    Ok(())
}

/// Runs the iterations of `learner`'s run, its self-play in this process.
fn run(mut learner: Learner, opts: &RunOptions) -> anyhow::Result<Meta> {
    let total = learner.config().iterations;
    let last = match opts.max_new_iterations {
        Some(n) => total.min(learner.meta().iteration + n),
        None => total,
    };
    let rules = learner.game().clone();
    let victim = match &learner.config().exploit {
        Some(x) => Some((x.victim_factory(&opts.players, &rules)?, x.model_victim)),
        None => None,
    };
    let victim = victim.as_ref().map(|(build, model)| selfplay::Victim {
        build: build.as_ref(),
        model: *model,
    });
    for iteration in learner.next_iteration()..=last {
        let weights = learner.weights()?;
        let count = learner.config().selfplay.games_per_iteration;
        let games = learner.games(0, count);
        let (rules, settings) = (learner.game(), &learner.config().selfplay);
        let pb = bar(count as u64, "self-play", opts.quiet);
        let selfplay = learner.install(|| {
            let progress = |n: usize| pb.set_position(n as u64);
            selfplay::play_games_against(
                rules,
                &weights,
                settings,
                victim.as_ref(),
                games,
                &progress,
            )
        })??;
        pb.finish_and_clear();
        learner.train(selfplay)?;
        let eval = if learner.eval_due(iteration) {
            Some(learner.evaluate()?)
        } else {
            None
        };
        learner.commit(eval)?;
    }
    Ok(learner.meta().clone())
}
