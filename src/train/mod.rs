//! The training loop: self-play -> training steps -> checkpoint -> evaluation -> logs, repeated.
//!
//! Stages meet only through the run directory (`run_dir`), so a run can be stopped at any moment
//! (even by `kill -9`) and resumed with `bao train --resume RUN_DIR`, continuing at the next
//! iteration exactly as the uninterrupted run would have (every random choice derives from the
//! config's seed and the iteration number).

pub mod config;
pub mod evaluate;
mod run_dir;
mod samples;

pub use crate::nn::Batch;
pub use config::{EvalConfig, OptimConfig, TrainConfig, derive_seed};
pub use run_dir::{EvalEntry, Meta, RunDir};

use crate::mcts::Evaluator;
use crate::nn::{NetEvaluator, Trainer};
use crate::rules::Rules;
use crate::selfplay::{self, ReplayBuffer};
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Seed purposes (see [`derive_seed`]).
const SEED_SELFPLAY: u64 = 1;
const SEED_BATCHES: u64 = 2;
const SEED_EVAL: u64 = 3;
const SEED_INIT: u64 = 4;

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
#[allow(clippy::too_many_arguments)]
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
    pool.install(|| run_iterations(config, rules, dir, trainer, replay, meta, opts))
}

#[allow(clippy::too_many_arguments)]
fn run_iterations(
    config: &TrainConfig,
    rules: &Rules,
    dir: &RunDir,
    mut trainer: Trainer,
    mut replay: ReplayBuffer,
    mut meta: Meta,
    opts: &RunOptions,
) -> anyhow::Result<Meta> {
    trainer = trainer.with_margin_weight(config.optim.margin_weight);
    let mut tb = crate::nn::TbLogger::new(&dir.tensorboard())?;
    let first = meta.iteration + 1;
    let last = match opts.max_new_iterations {
        Some(n) => config.iterations.min(meta.iteration + n),
        None => config.iterations,
    };
    for iteration in first..=last {
        let t0 = Instant::now();
        let step = iteration as i64;
        // 1. Self-play with the current network.
        let evaluator: Arc<dyn Evaluator> = Arc::new(NetEvaluator::new(trainer.snapshot()));
        let games = config.selfplay.games_per_iteration;
        let seeds: Vec<u64> = (0..games as u64)
            .map(|g| derive_seed(config.seed, iteration, SEED_SELFPLAY).wrapping_add(g))
            .collect();
        let pb = bar(games as u64, "self-play", opts.quiet);
        let sp = selfplay::play(rules, evaluator.as_ref(), &config.selfplay, &seeds, &|n| {
            pb.set_position(n as u64)
        });
        pb.finish_and_clear();
        let sp_secs = t0.elapsed().as_secs_f64();
        meta.games += sp.games as u64;
        meta.positions += sp.samples.len() as u64;
        replay.extend(sp.samples.iter().copied());

        // 2. Training steps on the replay window.
        let t1 = Instant::now();
        let lr = config.learning_rate(iteration - 1);
        let mut losses = crate::nn::Losses::default();
        let mut steps_done = 0usize;
        if config.ready_to_train(replay.len()) {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(derive_seed(
                config.seed,
                iteration,
                SEED_BATCHES,
            ));
            let pb = bar(
                config.optim.steps_per_iteration as u64,
                "training",
                opts.quiet,
            );
            for _ in 0..config.optim.steps_per_iteration {
                let batch = Batch::from_samples(
                    rules,
                    &replay.sample(config.optim.batch_size, &mut rng),
                    config.optim.value_q_weight,
                );
                losses.add(&trainer.step(&batch, lr)?);
                steps_done += 1;
                pb.inc(1);
            }
            pb.finish_and_clear();
            losses.average(steps_done);
        }
        meta.steps += steps_done as u64;
        let train_secs = t1.elapsed().as_secs_f64();

        // 3. Evaluation against the baselines.
        let mut evals = Vec::new();
        let mut eval_records = Vec::new();
        if config.eval.every > 0
            && (iteration % config.eval.every == 0 || iteration == config.iterations)
        {
            let snapshot: Arc<dyn Evaluator> = Arc::new(NetEvaluator::new(trainer.snapshot()));
            let total = config.eval.games.div_ceil(2).max(1) * 2 * config.eval.opponents.len();
            let pb = bar(total as u64, "evaluation", opts.quiet);
            for (k, opponent) in config.eval.opponents.iter().enumerate() {
                pb.set_message(opponent.clone());
                let seed = derive_seed(config.seed, iteration, SEED_EVAL).wrapping_add(k as u64);
                let (r, records) = evaluate::evaluate(
                    rules,
                    &config.variant,
                    snapshot.clone(),
                    &config.selfplay.mcts.play,
                    config.eval.sims,
                    opponent,
                    config.eval.games,
                    config.eval.opening_plies,
                    seed,
                    &opts.players,
                    &|| pb.inc(1),
                )?;
                evals.push(EvalEntry {
                    iteration,
                    opponent: opponent.clone(),
                    ..r
                });
                eval_records.push(records);
            }
            pb.finish_and_clear();
            crate::util::write_atomic(
                &dir.eval_games(iteration),
                eval_records.join("\n").as_bytes(),
            )?;
            meta.eval
                .retain(|e| !evals.iter().any(|n| n.opponent == e.opponent));
            meta.eval.extend(evals.iter().cloned());
        }

        // 4. Checkpoint: the iteration's folder, the replay buffer, then meta.json last.
        trainer.save(&dir.iteration(iteration))?;
        replay.save(&dir.replay(iteration))?;
        meta.iteration = iteration;
        let line = json!({
            "iteration": iteration,
            "games": meta.games,
            "positions": meta.positions,
            "steps": meta.steps,
            "replay": replay.len(),
            "lr": lr,
            "loss": losses.total, "policy_loss": losses.policy, "value_loss": losses.value,
            "policy_entropy": losses.entropy, "value_accuracy": losses.value_accuracy,
            "margin_loss": losses.margin,
            "selfplay_games_per_sec": sp.games as f64 / sp_secs,
            "selfplay_sims_per_sec": sp.simulations as f64 / sp_secs,
            "train_samples_per_sec": (steps_done * config.optim.batch_size) as f64 / train_secs.max(1e-9),
            "south_wins": sp.south_wins, "north_wins": sp.north_wins, "draws": sp.draws,
            "alphabeta_games": sp.alphabeta_games, "alphabeta_score": sp.alphabeta_score(),
            "eval": evals,
            "seconds": t0.elapsed().as_secs_f64(),
        });
        dir.append_metrics(&line)?;
        if !evals.is_empty() {
            let mean = evals.iter().map(|e| e.score).sum::<f64>() / evals.len() as f64;
            if meta.best_iteration == 0 || mean > meta.best_score {
                meta.best_iteration = iteration;
                meta.best_score = mean;
            }
        }
        dir.write_meta(&meta)?;
        // Only once meta.json names the new iteration may older checkpoints go.
        dir.prune(iteration, config.keep_iterations, meta.best_iteration)?;
        dir.prune_replay(iteration)?;
        if !evals.is_empty() {
            // The charts follow the metrics; a chart that cannot be drawn does not stop a run.
            if let Err(e) = crate::plot::write_charts(&dir.path) {
                eprintln!("warning: charts of {} not drawn: {e:#}", dir.path.display());
            }
        }
        // TensorBoard after meta.json: an iteration redone after a crash logs its step once.
        for (tag, v) in [
            ("loss/total", losses.total),
            ("loss/policy", losses.policy),
            ("loss/value", losses.value),
            ("train/policy_entropy", losses.entropy),
            ("train/value_accuracy", losses.value_accuracy),
            ("train/learning_rate", lr),
            (
                "train/samples_per_sec",
                (steps_done * config.optim.batch_size) as f64 / train_secs.max(1e-9),
            ),
            ("selfplay/games_per_sec", sp.games as f64 / sp_secs),
            ("selfplay/sims_per_sec", sp.simulations as f64 / sp_secs),
            (
                "selfplay/plies_per_game",
                sp.plies as f64 / sp.games.max(1) as f64,
            ),
            ("replay/size", replay.len() as f64),
        ] {
            tb.scalar(tag, v as f32, step);
        }
        if config.net.margin_head {
            tb.scalar("loss/margin", losses.margin as f32, step);
        }
        if let Some(score) = sp.alphabeta_score() {
            tb.scalar("selfplay/score_vs_alphabeta", score as f32, step);
        }
        for e in &evals {
            let name = e.opponent.replace([':', '=', ','], "_");
            tb.scalar(&format!("eval/score_vs_{name}"), e.score as f32, step);
            tb.scalar(&format!("eval/elo_vs_{name}"), e.elo as f32, step);
        }
        tb.flush();
        let eval_text: String = evals
            .iter()
            .map(|e| {
                format!(
                    " | vs {} {:.0}% (Elo {})",
                    e.opponent,
                    100.0 * e.score,
                    e.elo_text()
                )
            })
            .collect();
        let alphabeta_text = sp.alphabeta_score().map_or(String::new(), |score| {
            format!(
                " | self-play vs ab {:.0}% of {}",
                100.0 * score,
                sp.alphabeta_games
            )
        });
        let margin_text = if config.net.margin_head {
            format!(", margin {:.3}", losses.margin)
        } else {
            String::new()
        };
        let summary = format!(
            "iter {iteration:>3}/{}: {} games ({:.1}/s, {:.0} sims/s), {} positions, loss {:.3} (policy {:.3}, value {:.3}{margin_text}), lr {:.1e}, {:.0}s{alphabeta_text}{eval_text}",
            config.iterations,
            sp.games,
            sp.games as f64 / sp_secs,
            sp.simulations as f64 / sp_secs,
            sp.samples.len(),
            losses.total,
            losses.policy,
            losses.value,
            lr,
            t0.elapsed().as_secs_f64(),
        );
        if opts.quiet {
            eprintln!("{summary}");
        } else {
            println!("{summary}");
        }
    }
    Ok(meta)
}
