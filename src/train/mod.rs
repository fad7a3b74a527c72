//! The training loop: self-play -> training steps -> evaluation -> checkpoint -> logs, repeated.
//!
//! Each stage is a door taking plain values (see [`stages`]); iterations meet only through the
//! run directory (`run_dir`), so a run can be stopped at any moment (even by `kill -9`) and
//! resumed with `bao train --resume RUN_DIR`, continuing at the next iteration exactly as the
//! uninterrupted run would have (every random choice derives from the config's seed and the
//! iteration number).

pub mod config;
pub mod evaluate;
mod metrics;
mod run_dir;
mod samples;
pub mod stages;

pub use crate::nn::Batch;
pub use config::{EvalConfig, OptimConfig, TrainConfig, derive_seed};
pub use evaluate::{EvalReport, EvalSettings};
pub use metrics::MetricsSink;
pub use run_dir::{EvalEntry, Meta, RunDir};
pub use stages::{IterationReport, TrainReport, TrainSteps, selfplay_games};

use crate::nn::Trainer;
use crate::rules::Rules;
use crate::selfplay::{self, ReplayBuffer};
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use stages::{SEED_EVAL, SEED_INIT};
use std::path::Path;
use std::time::Instant;

/// Options of one `bao train` invocation.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Hide progress bars (tests, CI).
    pub quiet: bool,
    /// Stop after this many iterations of this invocation (the run can be resumed later).
    pub max_new_iterations: Option<u32>,
    /// How the evaluation opponents' specs become players.
    pub players: crate::search::PlayerRegistry,
}

/// Starts a new run from `config` in its `run_dir` (which must not hold a run yet).
pub fn start(config: TrainConfig, opts: &RunOptions) -> anyhow::Result<Meta> {
    let dir = RunDir::new(&config.run_dir);
    if RunDir::exists(&dir.path) {
        bail!(
            "{} already holds a run; resume it with `bao train --resume {}` or choose another run_dir",
            dir.path.display(),
            dir.path.display()
        );
    }
    let rules = config.rules()?;
    std::fs::create_dir_all(&dir.path)
        .with_context(|| format!("cannot create {}", dir.path.display()))?;
    let trainer = fresh_trainer(&config)?;
    crate::util::write_atomic(&dir.config(), toml::to_string_pretty(&config)?.as_bytes())?;
    let meta = Meta {
        version: run_dir::VERSION,
        variant: config.variant.clone(),
        ..Meta::default()
    };
    run(
        &config,
        &rules,
        &dir,
        trainer,
        ReplayBuffer::new(config.optim.replay_window),
        meta,
        opts,
    )
}

/// Resumes the run in `path` after its last complete iteration.
pub fn resume(path: &Path, opts: &RunOptions) -> anyhow::Result<Meta> {
    let dir = RunDir::new(path);
    let meta = dir.read_meta()?;
    let config = TrainConfig::load(&dir.config())?;
    let rules = config.rules()?;
    if meta.variant != config.variant {
        bail!(
            "{}: meta.json says variant {}, config.toml says {}",
            path.display(),
            meta.variant,
            config.variant
        );
    }
    let trainer = if meta.iteration == 0 {
        fresh_trainer(&config)?
    } else {
        Trainer::load(
            &config.net,
            config.optim.weight_decay,
            &dir.iteration(meta.iteration),
        )
        .with_context(|| {
            format!(
                "cannot load iteration {} of {}",
                meta.iteration,
                path.display()
            )
        })?
    };
    let replay = match dir.replay_to_resume(meta.iteration) {
        Some(path) => ReplayBuffer::load(&path)?,
        None => ReplayBuffer::new(config.optim.replay_window),
    };
    dir.truncate_metrics(meta.iteration)?;
    dir.remove_temp_files()?;
    run(&config, &rules, &dir, trainer, replay, meta, opts)
}

/// Lets the run in `path` train further: raises its config's `iterations` to `total` (the
/// learning-rate schedule then stretches to the new end). A finished run can be extended; the
/// next resume continues it.
pub fn extend(path: &Path, total: u32) -> anyhow::Result<()> {
    let dir = RunDir::new(path);
    let meta = dir.read_meta()?;
    let mut config = TrainConfig::load(&dir.config())?;
    if total <= meta.iteration {
        bail!(
            "{} is already at iteration {}; --extend-to must be above it",
            path.display(),
            meta.iteration
        );
    }
    if total != config.iterations {
        config.iterations = total;
        crate::util::write_atomic(&dir.config(), toml::to_string_pretty(&config)?.as_bytes())?;
    }
    Ok(())
}

/// The trainer of a run's first iteration: seeded random weights, or those of `init_from`.
fn fresh_trainer(config: &TrainConfig) -> anyhow::Result<Trainer> {
    let wd = config.optim.weight_decay;
    let Some(source) = &config.init_from else {
        return Trainer::new(&config.net, wd, derive_seed(config.seed, 0, SEED_INIT));
    };
    let path = Path::new(source);
    let bytes = if path.is_dir() {
        let dir = RunDir::new(path);
        let meta = dir
            .read_meta()
            .with_context(|| format!("init_from {source} is not a training run"))?;
        anyhow::ensure!(
            meta.iteration > 0,
            "init_from {source} has no iteration yet"
        );
        let model = dir.iteration(meta.iteration).join("model.bpk");
        std::fs::read(&model).with_context(|| format!("cannot read {}", model.display()))?
    } else {
        crate::player_file::Bundle::read(path)
            .with_context(|| format!("init_from {source}"))?
            .weights
    };
    Trainer::from_weights(&config.net, wd, &bytes)
        .with_context(|| format!("init_from {source}: the network does not fit `net`"))
}

fn bar(len: u64, what: &str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template(
            "{prefix:>10} [{bar:30}] {pos}/{len} {msg} ({elapsed}, eta {eta})",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    b.set_prefix(what.to_string());
    b
}

/// Runs the iterations inside a thread pool of the configured size: the backend splits its
/// float reductions over the pool, and on one thread the splits (so the sums) never vary.
fn run(
    config: &TrainConfig,
    rules: &Rules,
    dir: &RunDir,
    trainer: Trainer,
    replay: ReplayBuffer,
    meta: Meta,
    opts: &RunOptions,
) -> anyhow::Result<Meta> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.selfplay.threads.max(1))
        .build()
        .context("cannot start the thread pool")?;
    let mut run = Run {
        config,
        rules,
        dir,
        trainer,
        replay,
        meta,
        eval: EvalSettings::of_run(config, &opts.players),
        quiet: opts.quiet,
    };
    let last = match opts.max_new_iterations {
        Some(n) => config.iterations.min(run.meta.iteration + n),
        None => config.iterations,
    };
    pool.install(|| {
        let mut sink = MetricsSink::new(dir, config.iterations, opts.quiet)?;
        for iteration in run.meta.iteration + 1..=last {
            let report = run.iteration(iteration)?;
            sink.record(dir, &report)?;
            run.commit(&report)?;
            sink.publish(&report);
        }
        Ok(run.meta)
    })
}

/// A run in progress: its settings, network, replay window and figures.
struct Run<'a> {
    config: &'a TrainConfig,
    rules: &'a Rules,
    dir: &'a RunDir,
    trainer: Trainer,
    replay: ReplayBuffer,
    meta: Meta,
    eval: EvalSettings,
    quiet: bool,
}

impl Run<'_> {
    /// One iteration's stages (self-play, training, evaluation) and its checkpoint: the
    /// iteration's folder and the replay window (`meta.json` comes after, in [`Run::commit`]).
    fn iteration(&mut self, iteration: u32) -> anyhow::Result<IterationReport> {
        let (config, rules) = (self.config, self.rules);
        let t0 = Instant::now();
        let weights = self.trainer.weights(u64::from(iteration - 1))?;
        let count = config.selfplay.games_per_iteration;
        let pb = bar(count as u64, "self-play", self.quiet);
        let mut selfplay = selfplay::play_games(
            rules,
            &weights,
            &config.selfplay,
            selfplay_games(config, iteration, 0, count),
            &|n| pb.set_position(n as u64),
        )?;
        pb.finish_and_clear();
        let samples = std::mem::take(&mut selfplay.games.samples);
        let positions = samples.len();
        self.meta.games += selfplay.games.games as u64;
        self.meta.positions += positions as u64;
        self.replay.extend(samples);

        let plan = TrainSteps::of_iteration(config, iteration);
        let train = if config.ready_to_train(self.replay.len()) {
            let pb = bar(plan.steps as u64, "training", self.quiet);
            let report = self
                .trainer
                .train(rules, &self.replay, &plan, &|| pb.inc(1))?;
            pb.finish_and_clear();
            report
        } else {
            TrainReport::default()
        };
        self.meta.steps += train.steps as u64;

        let eval = self.evaluate(iteration)?;
        self.trainer.save(&self.dir.iteration(iteration))?;
        self.replay.save(&self.dir.replay(iteration))?;
        Ok(IterationReport {
            iteration,
            lr: plan.lr,
            selfplay,
            positions,
            train,
            eval,
            total_games: self.meta.games,
            total_positions: self.meta.positions,
            total_steps: self.meta.steps,
            replay: self.replay.len(),
            seconds: t0.elapsed().as_secs_f64(),
        })
    }

    /// Evaluates the network against the config's opponents if `iteration` is due (every
    /// `eval.every`-th, and the last); writes the games and keeps the results in the metadata.
    fn evaluate(&mut self, iteration: u32) -> anyhow::Result<Vec<EvalEntry>> {
        let config = self.config;
        let every = config.eval.every;
        if every == 0 || (!iteration.is_multiple_of(every) && iteration != config.iterations) {
            return Ok(Vec::new());
        }
        let opponents = &config.eval.opponents;
        let total = self.eval.total_games(opponents.len());
        let pb = bar(total as u64, "evaluation", self.quiet);
        let report = evaluate::evaluate(
            self.rules,
            &self.trainer.weights(u64::from(iteration))?,
            &self.eval,
            opponents,
            iteration,
            derive_seed(config.seed, iteration, SEED_EVAL),
            &|opponent| {
                pb.set_message(opponent.to_string());
                pb.inc(1);
            },
        )?;
        pb.finish_and_clear();
        crate::util::write_atomic(
            &self.dir.eval_games(iteration),
            report.records.join("\n").as_bytes(),
        )?;
        let meta = &mut self.meta;
        meta.eval
            .retain(|e| !report.entries.iter().any(|n| n.opponent == e.opponent));
        meta.eval.extend(report.entries.iter().cloned());
        Ok(report.entries)
    }

    /// Completes the iteration of `report` (whose metrics line is written): the best iteration,
    /// `meta.json`, then pruning and charts.
    fn commit(&mut self, report: &IterationReport) -> anyhow::Result<()> {
        let (iteration, evals, meta) = (report.iteration, &report.eval, &mut self.meta);
        meta.iteration = iteration;
        if !evals.is_empty() {
            let mean = evals.iter().map(|e| e.score).sum::<f64>() / evals.len() as f64;
            if meta.best_iteration == 0 || mean > meta.best_score {
                meta.best_iteration = iteration;
                meta.best_score = mean;
            }
        }
        let dir = self.dir;
        dir.write_meta(meta)?;
        // Only once meta.json names the new iteration may older checkpoints go.
        dir.prune(iteration, self.config.keep_iterations, meta.best_iteration)?;
        dir.prune_replay(iteration)?;
        if !evals.is_empty() {
            // The charts follow the metrics; a chart that cannot be drawn does not stop a run.
            if let Err(e) = crate::plot::write_charts(&dir.path) {
                eprintln!("warning: charts of {} not drawn: {e:#}", dir.path.display());
            }
        }
        Ok(())
    }
}
