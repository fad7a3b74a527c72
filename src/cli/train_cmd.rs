//! `bao train`: start or resume a training run.

use crate::train::config::DEFAULT_CONFIG;
use crate::train::{self, RunOptions, TrainConfig};
use anyhow::bail;
use std::path::PathBuf;

/// `bao train [--config FILE] [--resume RUN_DIR]`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Run config (TOML); default: the built-in configs/default.toml.
    #[arg(long, short = 'c')]
    pub config: Option<PathBuf>,
    /// Resume the run in this directory after its last complete iteration.
    #[arg(long, conflicts_with = "config")]
    pub resume: Option<PathBuf>,
    /// Override the config's run directory.
    #[arg(long)]
    pub run_dir: Option<String>,
    /// Override the config's seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Hide progress bars.
    #[arg(long)]
    pub quiet: bool,
    /// Train on this device (`cpu` or `gpu`) instead of the config's `[net] device`; `gpu`
    /// needs a build with the `gpu` feature.
    #[arg(long)]
    pub device: Option<crate::nn::Compute>,
    /// Stop after this many iterations (the run can be resumed later).
    #[arg(long)]
    pub iterations: Option<u32>,
    /// Train further, to this many iterations in all: the --resume run (a finished one too), or
    /// the config's run once it has its own `iterations`. The run's `iterations` is raised and
    /// the learning-rate schedule stretches from there, so `bao train --config C --extend-to N`
    /// makes the same run however often it is interrupted and repeated.
    #[arg(long)]
    pub extend_to: Option<u32>,
}

/// Runs `bao train`.
pub fn run_train(args: TrainArgs, players: &crate::search::PlayerRegistry) -> anyhow::Result<()> {
    let opts = RunOptions {
        quiet: args.quiet,
        max_new_iterations: args.iterations,
        players: players.clone(),
        device: args.device,
    };
    let meta = if let Some(dir) = &args.resume {
        if args.run_dir.is_some() || args.seed.is_some() {
            bail!(
                "--resume continues a run with its own config; --run-dir and --seed do not apply"
            );
        }
        if let Some(total) = args.extend_to {
            train::extend(dir, total)?;
        }
        train::resume(dir, &opts)?
    } else {
        let mut config: TrainConfig = match &args.config {
            Some(path) => TrainConfig::load(path)?,
            None => toml::from_str(DEFAULT_CONFIG)?,
        };
        if let Some(d) = &args.run_dir {
            config.run_dir = d.clone();
        }
        if let Some(s) = args.seed {
            config.seed = s;
        }
        run_config(config, args.extend_to, opts)?
    };
    println!(
        "run complete to iteration {}: {} games, {} positions, {} training steps",
        meta.iteration, meta.games, meta.positions, meta.steps
    );
    for e in &meta.eval {
        println!(
            "  vs {:<12} {:.1}% over {} games, Elo {} (iteration {})",
            e.opponent,
            100.0 * e.score,
            e.games,
            e.elo_text(),
            e.iteration
        );
    }
    Ok(())
}

/// Runs `config`: a new run, or the run of the same config already in its directory (so the
/// same command continues after an interruption), extended to `extend_to` iterations if given.
fn run_config(
    config: TrainConfig,
    extend_to: Option<u32>,
    opts: RunOptions,
) -> anyhow::Result<train::Meta> {
    // The same command again continues the same run (after an interruption, or to see the
    // result of a finished one); a different config never touches an existing run.
    let dir = std::path::Path::new(&config.run_dir);
    let existing = train::RunDir::exists(dir);
    let first = if existing {
        train::RunDir::new(dir).read_meta()?.iteration
    } else {
        0
    };
    let meta = if existing {
        let stored = train::RunDir::new(dir).read_config()?;
        // A run this command extended before holds the config with `iterations` raised.
        let extended = extend_to == Some(stored.iterations)
            && TrainConfig {
                iterations: config.iterations,
                ..stored.clone()
            } == config;
        if stored != config && !extended {
            bail!(
                "{} already holds a run of another config; resume it with `bao train --resume {}`, \
                 or give another --run-dir",
                dir.display(),
                dir.display()
            );
        }
        eprintln!("{} holds a run of this config: resuming it", dir.display());
        train::resume(dir, &opts)?
    } else {
        train::start(config.clone(), &opts)?
    };
    // What is left of --iterations after the config's own part.
    let budget = opts
        .max_new_iterations
        .map(|n| n.saturating_sub(meta.iteration - first));
    Ok(match extend_to {
        Some(total)
            if meta.iteration >= config.iterations
                && meta.iteration < total
                && budget != Some(0) =>
        {
            train::extend(dir, total)?;
            eprintln!("{}: extending the run to {total} iterations", dir.display());
            let opts = RunOptions {
                max_new_iterations: budget,
                ..opts
            };
            train::resume(dir, &opts)?
        }
        _ => meta,
    })
}
