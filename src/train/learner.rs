//! The learner: the one owner of a run directory. It takes each iteration's self-play (played
//! by whoever: `bao train` itself, or distributed workers), trains, takes the evaluation, and
//! checkpoints; so every driver of a run makes the same run directory.
//!
//! A run is opened by [`Learner::open_run`] (`open.rs`). An iteration is [`Learner::weights`]
//! (the network to play with) -> self-play -> [`Learner::train`] -> evaluation if
//! [`Learner::eval_due`] -> [`Learner::commit`].

use super::evaluate::{self, EvalReport, EvalSettings};
use super::stages::{IterationReport, SEED_INIT, selfplay_games};
use super::{EvalEntry, Meta, MetricsSink, RunDir, RunOptions, TrainConfig, derive_seed, run_dir};
use crate::nn::{NetWeights, Trainer};
use crate::nn::{TrainReport, TrainSteps};
use crate::pool::OwnPool;
use crate::rules::Game;
use crate::selfplay::{GameRange, ReplayBuffer, SelfPlayOutput};
use anyhow::{Context, bail, ensure};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use std::time::{Duration, Instant};

/// A run in progress: its settings, network, replay window and figures, and the iteration it
/// has trained but not yet committed.
pub struct Learner {
    config: TrainConfig,
    game: Game,
    dir: RunDir,
    trainer: Trainer,
    replay: ReplayBuffer,
    meta: Meta,
    eval: EvalSettings,
    sink: MetricsSink,
    quiet: bool,
    /// Runs training and evaluation: the backend splits its float reductions over the pool, and
    /// on one thread the splits (so the sums) never vary.
    pool: OwnPool,
    trained: Option<Trained>,
    /// Held while the learner lives: no other process writes the run meanwhile.
    _lock: super::RunLock,
}

/// An iteration trained and checkpointed, waiting for its evaluation and commit.
struct Trained {
    iteration: u32,
    lr: f64,
    selfplay: SelfPlayOutput,
    positions: usize,
    train: TrainReport,
    started: Instant,
}

impl Learner {
    /// Starts a new run from `config` in its `run_dir` (which must not hold a run yet).
    pub(super) fn start(config: TrainConfig, opts: &RunOptions) -> anyhow::Result<Learner> {
        let dir = RunDir::new(&config.run_dir);
        // A config built in code gets the checks a config file gets at load.
        config.validate()?;
        config.game()?;
        std::fs::create_dir_all(&dir.path)
            .with_context(|| format!("cannot create {}", dir.path.display()))?;
        let lock = dir.lock()?;
        if RunDir::exists(&dir.path) {
            bail!(
                "{} already holds a run; resume it with `bao train --resume {}` or choose another run_dir",
                dir.path.display(),
                dir.path.display()
            );
        }
        let given = toml::to_string_pretty(&config)?;
        let config = opts.on_device(config);
        let trainer = fresh_trainer(&config)?;
        // The run's config as given: a device chosen for this invocation only is not part of it.
        dir.write_config(&given)?;
        let meta = Meta {
            version: run_dir::VERSION,
            variant: config.variant.clone(),
            ..Meta::default()
        };
        let replay = ReplayBuffer::new(config.optim.replay_window);
        Learner::new(config, (dir, lock), trainer, replay, meta, opts)
    }

    /// Resumes the run in `path` after its last complete iteration.
    pub(super) fn resume(path: &Path, opts: &RunOptions) -> anyhow::Result<Learner> {
        let dir = RunDir::new(path);
        // Read once before locking, so that a folder holding no run is named as such.
        dir.read_meta()?;
        let lock = dir.lock()?;
        let meta = dir.read_meta()?;
        let config = opts.on_device(dir.read_config_of(&meta)?);
        let trainer = if meta.iteration == 0 {
            fresh_trainer(&config)?
        } else {
            Trainer::load(
                &config.net.shape,
                config.net.device,
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
            // A run with no iteration done has no replay yet; every iteration writes one.
            None if meta.iteration == 0 => ReplayBuffer::new(config.optim.replay_window),
            None => bail!(
                "{} has no replay buffer for iteration {} ({} is missing): the run cannot resume as it was",
                path.display(),
                meta.iteration,
                dir.replay(meta.iteration).display()
            ),
        };
        dir.truncate_metrics(meta.iteration)?;
        dir.remove_temp_files()?;
        Learner::new(config, (dir, lock), trainer, replay, meta, opts)
    }

    fn new(
        config: TrainConfig,
        (dir, lock): (RunDir, super::RunLock),
        trainer: Trainer,
        replay: ReplayBuffer,
        meta: Meta,
        opts: &RunOptions,
    ) -> anyhow::Result<Learner> {
        let pool = OwnPool::new(config.selfplay.threads.max(1), "bao-learner");
        pool.pool()?;
        Ok(Learner {
            game: config.game()?,
            eval: EvalSettings::of_run(&config, &opts.players),
            sink: MetricsSink::new(&dir, config.iterations, opts.quiet)?,
            quiet: opts.quiet,
            config,
            dir,
            trainer,
            replay,
            meta,
            pool,
            trained: None,
            _lock: lock,
        })
    }

    /// The run's config.
    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    /// The run's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The run directory.
    pub fn dir(&self) -> &RunDir {
        &self.dir
    }

    /// The run's figures as of its last committed iteration (`meta.iteration`).
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// The iteration to play next: the one after the last committed.
    pub fn next_iteration(&self) -> u32 {
        self.meta.iteration + 1
    }

    /// The iteration trained and waiting for its commit, if any.
    pub fn trained_iteration(&self) -> Option<u32> {
        self.trained.as_ref().map(|t| t.iteration)
    }

    /// The network as it stands, its version the iteration that made it: the last committed
    /// (the network to play the next iteration with), or the trained one waiting for its commit
    /// (the network to evaluate).
    pub fn weights(&self) -> anyhow::Result<NetWeights> {
        let version = self
            .trained
            .as_ref()
            .map_or(self.meta.iteration, |t| t.iteration);
        self.trainer.weights(u64::from(version))
    }

    /// Games `first..first + count` of the next iteration.
    pub fn games(&self, first: u64, count: usize) -> GameRange {
        selfplay_games(&self.config, self.next_iteration(), first, count)
    }

    /// Runs `work` in the learner's thread pool (of `selfplay.threads` threads, started again
    /// in a child of `fork`); an error if it cannot be started.
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> anyhow::Result<R> {
        self.pool.install(work)
    }

    /// Takes the next iteration's self-play (all its games, samples in game order) into the
    /// replay window, trains on the window if it is full enough, and checkpoints the network and
    /// the window. The iteration is complete once [`Learner::commit`]ted.
    pub fn train(&mut self, selfplay: SelfPlayOutput) -> anyhow::Result<&TrainReport> {
        let iteration = self.next_iteration();
        let expected = self.config.selfplay.games_per_iteration;
        ensure!(
            self.trained.is_none(),
            "iteration {iteration} is trained already and waits for its commit"
        );
        ensure!(
            selfplay.games.games == expected,
            "iteration {iteration} needs {expected} self-play games, not {}",
            selfplay.games.games
        );
        let started = Instant::now() - Duration::from_secs_f64(selfplay.seconds.max(0.0));
        let mut selfplay = selfplay;
        let samples = std::mem::take(&mut selfplay.games.samples);
        let positions = samples.len();
        self.replay.extend(samples);
        let plan = TrainSteps::of_iteration(&self.config, iteration);
        let train = if self.config.ready_to_train(self.replay.len()) {
            let pb = bar(plan.steps as u64, "training", self.quiet);
            let (trainer, replay, rules) = (&mut self.trainer, &self.replay, &self.game);
            let report = self
                .pool
                .install(|| trainer.train(rules, replay, &plan, &|| pb.inc(1)))??;
            pb.finish_and_clear();
            report
        } else {
            TrainReport::default()
        };
        self.trainer.save(&self.dir.iteration(iteration))?;
        self.replay.save(&self.dir.replay(iteration))?;
        let trained = self.trained.insert(Trained {
            iteration,
            lr: plan.lr,
            selfplay,
            positions,
            train,
            started,
        });
        Ok(&trained.train)
    }

    /// Whether `iteration` is evaluated: every `eval.every`-th, and the last.
    pub fn eval_due(&self, iteration: u32) -> bool {
        let every = self.config.eval.every;
        every > 0 && (iteration.is_multiple_of(every) || iteration == self.config.iterations)
    }

    /// Evaluates the trained iteration's network here (with a progress bar), as
    /// [`evaluate::evaluate_iteration`] does anywhere else.
    pub fn evaluate(&self) -> anyhow::Result<EvalReport> {
        let trained = self
            .trained
            .as_ref()
            .context("no iteration is trained to evaluate")?;
        let weights = self.weights()?;
        let opponents = self.config.eval.opponents.len();
        let pb = bar(
            self.eval.total_games(opponents) as u64,
            "evaluation",
            self.quiet,
        );
        let (rules, config, settings) = (&self.game, &self.config, &self.eval);
        let report = self.pool.install(|| {
            evaluate::evaluate_iteration(
                rules,
                config,
                settings,
                &weights,
                trained.iteration,
                &|opponent| {
                    pb.set_message(opponent.to_string());
                    pb.inc(1);
                },
            )
        })??;
        pb.finish_and_clear();
        Ok(report)
    }

    /// Completes the trained iteration with its evaluation (`None` when none was due): writes
    /// the evaluation games, the metrics line, `meta.json`, then prunes old checkpoints, draws
    /// the charts and logs to TensorBoard and the console.
    pub fn commit(&mut self, eval: Option<EvalReport>) -> anyhow::Result<IterationReport> {
        let trained = self
            .trained
            .take()
            .context("no iteration is trained to commit")?;
        let iteration = trained.iteration;
        let entries = match eval {
            Some(report) => self.record_eval(iteration, report)?,
            None => Vec::new(),
        };
        let meta = &mut self.meta;
        meta.games += trained.selfplay.games.games as u64;
        meta.positions += trained.positions as u64;
        meta.steps += trained.train.steps as u64;
        let report = IterationReport {
            iteration,
            lr: trained.lr,
            selfplay: trained.selfplay,
            positions: trained.positions,
            train: trained.train,
            eval: entries,
            total_games: meta.games,
            total_positions: meta.positions,
            total_steps: meta.steps,
            replay: self.replay.len(),
            seconds: trained.started.elapsed().as_secs_f64(),
        };
        self.sink.record(&self.dir, &report)?;
        self.write_meta(&report)?;
        self.sink.publish(&report);
        Ok(report)
    }

    /// Writes an evaluation's games and keeps its results in the metadata.
    fn record_eval(
        &mut self,
        iteration: u32,
        report: EvalReport,
    ) -> anyhow::Result<Vec<EvalEntry>> {
        ensure!(
            report.entries.iter().all(|e| e.iteration == iteration),
            "the evaluation is of another iteration than {iteration}"
        );
        crate::util::fs::write_atomic(
            &self.dir.eval_games(iteration),
            report.records.join("\n").as_bytes(),
        )?;
        let meta = &mut self.meta;
        meta.eval
            .retain(|e| !report.entries.iter().any(|n| n.opponent == e.opponent));
        meta.eval.extend(report.entries.iter().cloned());
        Ok(report.entries)
    }

    /// The best iteration, `meta.json`, then pruning and charts (the metrics line is written).
    fn write_meta(&mut self, report: &IterationReport) -> anyhow::Result<()> {
        let (iteration, evals, meta) = (report.iteration, &report.eval, &mut self.meta);
        meta.iteration = iteration;
        if !evals.is_empty() {
            let mean = evals.iter().map(|e| e.score).sum::<f64>() / evals.len() as f64;
            if meta.best_iteration == 0 || mean > meta.best_score {
                meta.best_iteration = iteration;
                meta.best_score = mean;
            }
        }
        let dir = &self.dir;
        dir.write_meta(meta)?;
        // Only once meta.json names the new iteration may older checkpoints go.
        dir.prune(iteration, self.config.keep_iterations, meta.best_iteration)?;
        dir.prune_replay(iteration)?;
        dir.prune_optimizers(iteration)?;
        if !evals.is_empty() {
            // The charts follow the metrics; a chart that cannot be drawn does not stop a run.
            if let Err(e) = crate::plot::write_charts(&dir.path) {
                eprintln!("warning: charts of {} not drawn: {e:#}", dir.path.display());
            }
        }
        Ok(())
    }
}

/// The trainer of a run's first iteration: seeded random weights, or those of `init_from`.
fn fresh_trainer(config: &TrainConfig) -> anyhow::Result<Trainer> {
    let wd = config.optim.weight_decay;
    let Some(source) = &config.init_from else {
        let seed = derive_seed(config.seed, 0, SEED_INIT);
        return Trainer::new(&config.net.shape, config.net.device, wd, seed);
    };
    let path = Path::new(source);
    let bytes = if path.is_dir() {
        let dir = RunDir::new(path);
        let meta = dir
            .read_meta()
            .with_context(|| format!("init_from {source} is not a training run"))?;
        ensure!(
            meta.iteration > 0,
            "init_from {source} has no iteration yet"
        );
        Trainer::read_model(&dir.iteration(meta.iteration))?
    } else {
        crate::player_file::Bundle::read(path)
            .with_context(|| format!("init_from {source}"))?
            .weights
    };
    Trainer::from_weights(&config.net.shape, config.net.device, wd, &bytes)
        .with_context(|| format!("init_from {source}: the network does not fit `net`"))
}

/// A progress bar of `len` steps named `what` (hidden when `quiet`).
pub fn bar(len: u64, what: &str, quiet: bool) -> ProgressBar {
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
