//! `bao train`: start or resume a training run.

use crate::train::{self, RunOptions, RunSource};
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
pub fn run_train(args: TrainArgs, players: &crate::players::PlayerRegistry) -> anyhow::Result<()> {
    let opts = RunOptions {
        quiet: args.quiet,
        max_new_iterations: args.iterations,
        players: players.clone(),
        device: args.device,
        exploit: false,
    };
    let source = RunSource {
        config: args.config.into(),
        resume: args.resume,
        run_dir: args.run_dir,
        seed: args.seed,
        extend_to: args.extend_to,
    };
    let meta = train::train_run(&source, &opts)?;
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
