//! Python bindings of bao-zero: the extension module `bao_zero._core`.
//!
//! Everything here is a thin layer over the root crate: the rules, the action mapping, the
//! observation encoding, the batched environment, the players, the replay reader and the
//! training stages are all the Rust ones, so Python sees exactly the games Rust plays. The pure-Python package beside
//! it (`python/bao_zero`) adds the PettingZoo and Gymnasium wrappers.
//!
//! Errors become Python exceptions (see [`errors`]); nothing here panics on bad input, and a
//! call that fails leaves its object as it was.

mod args;
mod env;
mod errors;
mod evaluate;
mod observation;
mod player;
mod pyjson;
mod rules_arg;
mod samples;
mod training;
mod vec_env;
mod vec_opponent;

use bao_zero::env::{ACTIONS, OBS_CHANNELS, OBS_HIGH, OBS_LEN};
use bao_zero::players::PlayerRegistry;
use bao_zero::rules::{Game, Variant};
use pyo3::prelude::*;
use std::sync::OnceLock;

/// The player kinds Python builds, for `Player`, the training `EvaluationWorker` and `evaluate`'s
/// opponents alike: the registry the `bao` command line passes to every command
/// (`trained::all_players`: classical players and the network kinds `player:` and `mcts:`), so
/// any spec the command line takes works here too.
pub(crate) fn players() -> &'static PlayerRegistry {
    static PLAYERS: OnceLock<PlayerRegistry> = OnceLock::new();
    PLAYERS.get_or_init(bao_zero::trained::all_players)
}

/// The preset named `variant` (`kiswahili`, `hus`, `ladder-house`, ...) and its game.
pub(crate) fn variant_rules(variant: &str) -> PyResult<(Variant, Game)> {
    let v: Variant = variant
        .parse()
        .map_err(|e: bao_zero::rules::UnknownVariant| errors::value_error(e))?;
    Ok((v, v.into()))
}

/// The names of every preset: the eight games and the ladder steps from Hus to Bao la
/// Kiswahili, in the order of `Variant::ALL`.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}

/// The seed of episode `episode` of environment `index` of a `VecEnv` with base seed
/// `base_seed` (the same mix as the Rust `VecEnv`), so any episode can be replayed with
/// `Env.reset(seed=...)`.
#[pyfunction]
fn episode_seed(base_seed: u64, index: usize, episode: u64) -> u64 {
    bao_zero::env::episode_seed(base_seed, index, episode)
}

/// The extension module.
#[pymodule]
#[pyo3(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ACTIONS", ACTIONS)?;
    m.add("OBS_CHANNELS", OBS_CHANNELS)?;
    m.add("OBS_LEN", OBS_LEN)?;
    m.add("OBS_HIGH", OBS_HIGH)?;
    m.add("OBS_SHAPE", (OBS_CHANNELS, 4usize, 8usize))?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(episode_seed, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(samples::load_samples, m)?)?;
    m.add_function(wrap_pyfunction!(training::network_tensors, m)?)?;
    m.add_class::<env::Env>()?;
    m.add_class::<vec_env::VecEnvCore>()?;
    m.add_class::<player::Player>()?;
    m.add_class::<player::Choice>()?;
    m.add_class::<training::SelfPlayWorker>()?;
    m.add_class::<training::Learner>()?;
    m.add_class::<training::EvaluationWorker>()?;
    m.add_class::<training::Progress>()?;
    Ok(())
}
