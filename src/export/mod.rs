//! Exporting a trained player: a training run's network as a player file (one iteration's, or
//! the mean of several) and as ONNX. Playing with a player file is the `players` room's.

pub mod onnx;

use crate::player_file::{Bundle, Header};
use crate::train::RunDir;
use anyhow::{Context, bail};
use std::path::Path;

/// The player of iteration `iteration` (default: the last complete one) of a training run.
pub fn from_run(
    run_dir: &Path,
    iteration: Option<u32>,
    sims: Option<u32>,
) -> anyhow::Result<Bundle> {
    from_run_averaged(run_dir, iteration, sims, 1)
}

/// The player of a training run with the mean weights of its `average` iterations up to
/// `iteration` (default: the last complete one); each must still be on disk
/// (`keep_iterations` in the run's config says how many are kept).
pub fn from_run_averaged(
    run_dir: &Path,
    iteration: Option<u32>,
    sims: Option<u32>,
    average: u32,
) -> anyhow::Result<Bundle> {
    let dir = RunDir::new(run_dir);
    let meta = dir.read_meta()?;
    let config = dir.read_config_of(&meta)?;
    let it = iteration.unwrap_or(meta.iteration);
    if it == 0 || it > meta.iteration {
        bail!(
            "{} has iterations 1..={}; iteration {it} does not exist",
            run_dir.display(),
            meta.iteration
        );
    }
    if average == 0 || average > it {
        bail!("cannot average {average} iterations up to iteration {it}");
    }
    let first = it + 1 - average;
    let nets = (first..=it)
        .map(|i| crate::nn::Trainer::read_model(&dir.iteration(i)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // One iteration keeps its bytes as stored; a mean is stored in f32 (export rounds it).
    let weights = match average {
        1 => nets.into_iter().next().expect("one iteration read"),
        _ => crate::nn::average_weights(&config.net.shape, &nets, crate::nn::Precision::F32)?,
    };
    let game = config.game()?;
    let header = Header {
        variant: game.to_string(),
        rules: game.rules().clone(),
        // A player file is the same whatever device trained it.
        net: config.net.shape.clone(),
        search: crate::mcts::PlaySettings {
            c_puct: crate::mcts::PLAY_C_PUCT,
            ..config.selfplay.mcts.play.clone()
        },
        sims: sims.unwrap_or(config.eval.sims),
        source: match average {
            1 => format!("{} iteration {it}", run_dir.display()),
            _ => format!("{} iterations {first}-{it} averaged", run_dir.display()),
        },
        training: dir.meta_at(&meta, it),
    };
    let bundle = Bundle { header, weights };
    bundle
        .inference()
        .context("the checkpoint's network does not load")?;
    Ok(bundle)
}
