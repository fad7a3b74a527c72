//! `bao_zero.load_samples`: a training run's self-play samples as numpy arrays, encoded exactly
//! as the Rust trainer encodes its batches (`bao_zero::train::Batch`).

use crate::errors::{chain_value_error, guarded, require_file, value_error};
use crate::variant_rules;
use bao_zero::env::{ACTIONS, OBS_CHANNELS};
use bao_zero::rules::Game;
use bao_zero::selfplay::ReplayBuffer;
use bao_zero::train::{Batch, RunDir};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};

/// The replay file and the rules of a run directory or a replay file (whose directory's
/// `config.toml`, if any, names the rules; otherwise `variant`'s).
fn locate(path: &Path, variant: Option<&str>) -> PyResult<(PathBuf, Game)> {
    let (file, dir) = if path.is_dir() {
        // A run names its latest replay in meta.json; a bare folder may hold a `replay.bin`.
        let file = if RunDir::exists(path) {
            RunDir::new(path)
                .latest_replay()
                .map_err(|e| chain_value_error(&e))?
        } else {
            path.join("replay.bin")
        };
        (file, Some(path.to_path_buf()))
    } else {
        (path.to_path_buf(), path.parent().map(Path::to_path_buf))
    };
    require_file(&file, "replay buffer")?;
    if let Some(v) = variant {
        return Ok((file, variant_rules(v)?.1));
    }
    let run = dir.map(RunDir::new).filter(|d| d.config().is_file());
    let rules = match run {
        Some(run) => run
            .read_config()
            .and_then(|cfg| cfg.game())
            .map_err(|e| chain_value_error(&e))?,
        None => variant_rules("kiswahili")?.1,
    };
    Ok((file, rules))
}

/// Reads a training run's self-play samples (a run directory's latest `replay-NNNN.bin`, or a
/// replay file) into numpy
/// arrays, for training a network of one's own on them. Returns a dict:
///
/// - `observations`: float32 `[N, 27, 4, 8]`, each position seen from its mover;
/// - `action_masks`: bool `[N, 64]`, the legal actions;
/// - `policies`: float32 `[N, 64]`, the search's visit distribution (sums to 1 over legal ids);
/// - `values`: float32 `[N]`, the value target `(1 - q_weight) * outcome + q_weight * search`;
/// - `outcomes`: float32 `[N]`, the game's result for the mover (1, 0, -1);
/// - `search_values`: float32 `[N]`, the search's value of the position for its mover;
/// - `players`: uint8 `[N]`, the mover (0 South, 1 North).
///
/// The rules come from the run's `config.toml` (or `variant`). `FileNotFoundError` if there is
/// no replay file, `ValueError` if it is damaged.
#[pyfunction]
#[pyo3(signature = (path, q_weight = 0.0, variant = None))]
pub fn load_samples<'py>(
    py: Python<'py>,
    path: PathBuf,
    q_weight: f32,
    variant: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    guarded("load_samples", || samples_of(py, &path, q_weight, variant))
}

/// [`load_samples`]' work, guarded there.
fn samples_of<'py>(
    py: Python<'py>,
    path: &Path,
    q_weight: f32,
    variant: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    if !(0.0..=1.0).contains(&q_weight) {
        return Err(value_error(format!(
            "q_weight must be in [0, 1], not {q_weight}"
        )));
    }
    let (file, rules) = locate(path, variant)?;
    let (batch, outcomes, search, players) = py
        .detach(|| -> anyhow::Result<_> {
            let buffer = ReplayBuffer::load(&file)?;
            let samples: Vec<_> = buffer.iter().copied().collect();
            let batch = Batch::from_samples(&rules, &samples, q_weight);
            let outcomes: Vec<f32> = samples.iter().map(|s| f32::from(s.outcome)).collect();
            let search: Vec<f32> = samples.iter().map(|s| s.value()).collect();
            let players: Vec<u8> = samples
                .iter()
                .map(|s| s.pos.side_to_move().index() as u8)
                .collect();
            Ok((batch, outcomes, search, players))
        })
        .map_err(|e| chain_value_error(&e))?;
    let n = batch.size;
    let out = PyDict::new(py);
    out.set_item(
        "observations",
        PyArray1::from_vec(py, batch.obs).reshape([n, OBS_CHANNELS, 4, 8])?,
    )?;
    let masks: Vec<bool> = batch.masks.iter().map(|&m| m > 0.5).collect();
    out.set_item(
        "action_masks",
        PyArray1::from_vec(py, masks).reshape([n, ACTIONS])?,
    )?;
    out.set_item(
        "policies",
        PyArray1::from_vec(py, batch.policy).reshape([n, ACTIONS])?,
    )?;
    out.set_item("values", PyArray1::from_vec(py, batch.value))?;
    out.set_item("outcomes", PyArray1::from_vec(py, outcomes))?;
    out.set_item("search_values", PyArray1::from_vec(py, search))?;
    out.set_item("players", PyArray1::from_vec(py, players))?;
    Ok(out)
}
