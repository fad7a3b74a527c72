//! The player specs that need a network, registered in a [`PlayerRegistry`]:
//!
//! | spec | player |
//! | --- | --- |
//! | `player:FILE` | a player file, with its own search settings |
//! | `mcts:checkpoint=FILE` | the same, with options below |
//! | `mcts:checkpoint=RUN_DIR,iteration=N` | a training run's network (default: its last iteration) |
//! | `mcts:sims=200` | simulations per move (default: the file's, or 200) |
//! | `mcts:cpuct=1.0` | exploration constant (default: the file's) |
//! | `mcts:fpu=0.2` | first-play urgency: an unvisited child's value below its parent's, 0 to 2 ([`PlaySettings::fpu_reduction`]) |
//! | `mcts:minimax=0.3` | weight of implicit minimax values in selection (0: none; [`PlaySettings::minimax_weight`]) |
//! | `mcts:solver=1` | MCTS-solver: proven wins and losses ([`PlaySettings::solver`]) |
//! | `mcts:batch=8` | leaves per batched evaluation, 1 to 256 (default: chosen from the budget) |
//! | `mcts:sims=400` without `checkpoint` | MCTS with uniform priors and no value (a baseline) |

use super::LoadedPlayer;
use crate::mcts::{
    MAX_BATCH_OPTION, MAX_C_PUCT, MAX_SIMS, MctsPlayer, PlaySettings, UniformInference,
};
use crate::players::Player;
use crate::players::spec::{PlayerRegistry, PlayerSpec};
use crate::rules::Rules;
use anyhow::bail;
use std::path::PathBuf;
use std::sync::Arc;

/// Simulations per move of an `mcts:` spec without a player file.
const DEFAULT_SIMS: u32 = 200;

/// Adds the `mcts:...` and `player:FILE` kinds to `players`.
pub(super) fn register_network_players(players: &mut PlayerRegistry) {
    players.register("mcts", |_, spec, rules, seed| build(spec, rules, seed));
    players.register("player", |_, spec, rules, seed| build(spec, rules, seed));
}

/// A network player: a file's or a run's plays its own game, `mcts:` without a checkpoint (uniform
/// priors) the game `rules`.
fn build(spec: &PlayerSpec, rules: &Rules, seed: u64) -> anyhow::Result<Box<dyn Player>> {
    let mut player: Box<dyn Player> = match spec {
        PlayerSpec::File(path) => {
            let (header, eval) = super::cache::load(path, None)?;
            Box::new(LoadedPlayer::new(header, eval, spec.to_string()))
        }
        PlayerSpec::Mcts(options) => build_mcts(spec, options, rules)?,
        other => bail!("`{other}` is not a network player"),
    };
    player.new_game(seed);
    Ok(player)
}

/// The number an option `key=value` gives, if it parses and passes `ok`; else why not (it
/// must be `must`).
fn number<T: std::str::FromStr>(
    key: &str,
    value: &str,
    ok: impl Fn(&T) -> bool,
    must: &str,
) -> Result<T, String> {
    value
        .parse()
        .ok()
        .filter(|n| ok(n))
        .ok_or_else(|| format!("{key} `{value}` must be {must}"))
}

const POSITIVE: &str = "a positive number";

/// An exploration constant (`cpuct=` of a spec, `bao export --cpuct`): above zero and at most
/// [`MAX_C_PUCT`], the bound every player file is read with.
pub fn parse_c_puct(value: &str) -> Result<f32, String> {
    number(
        "cpuct",
        value,
        |c: &f32| *c > 0.0 && *c <= MAX_C_PUCT,
        &format!("a positive number, at most {MAX_C_PUCT}"),
    )
}

/// Simulations per move (`sims=` of a spec, `bao export --sims`): 1 to [`MAX_SIMS`], the bound
/// every player file is read with.
pub fn parse_sims(value: &str) -> Result<u32, String> {
    number(
        "sims",
        value,
        |n: &u32| (1..=MAX_SIMS).contains(n),
        &format!("from 1 to {MAX_SIMS}"),
    )
}

/// The search settings a spec sets; the others come from the player file, or the defaults.
#[derive(Default)]
struct SearchOptions {
    c_puct: Option<f32>,
    solver: Option<bool>,
    minimax_weight: Option<f32>,
    fpu_reduction: Option<f32>,
}

impl SearchOptions {
    /// Sets in `cfg` what the spec set.
    fn apply(&self, cfg: &mut PlaySettings) {
        cfg.c_puct = self.c_puct.unwrap_or(cfg.c_puct);
        cfg.solver = self.solver.unwrap_or(cfg.solver);
        cfg.minimax_weight = self.minimax_weight.unwrap_or(cfg.minimax_weight);
        cfg.fpu_reduction = self.fpu_reduction.unwrap_or(cfg.fpu_reduction);
    }
}

fn build_mcts(spec: &PlayerSpec, options: &str, rules: &Rules) -> anyhow::Result<Box<dyn Player>> {
    let bad = |why: String| anyhow::anyhow!("bad player spec `{spec}`: {why}");
    let (mut checkpoint, mut iteration, mut sims, mut batch) = (None, None, None, None);
    let mut search = SearchOptions::default();
    for item in options.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| bad(format!("option `{item}` must be key=value")))?;
        match key {
            "checkpoint" | "player" => checkpoint = Some(PathBuf::from(value)),
            "iteration" => {
                iteration = Some(number(key, value, |&i: &u32| i > 0, POSITIVE).map_err(bad)?)
            }
            "sims" => sims = Some(parse_sims(value).map_err(bad)?),
            "cpuct" | "c_puct" => search.c_puct = Some(parse_c_puct(value).map_err(bad)?),
            "batch" => {
                let fits = |&b: &usize| (1..=MAX_BATCH_OPTION).contains(&b);
                let must = format!("from 1 to {MAX_BATCH_OPTION}");
                batch = Some(number(key, value, fits, &must).map_err(bad)?)
            }
            "guard" => return Err(bad("the option `guard` no longer exists".into())),
            "minimax" => {
                let weight = |w: &f32| (0.0..=1.0).contains(w);
                search.minimax_weight =
                    Some(number(key, value, weight, "from 0 to 1").map_err(bad)?)
            }
            "fpu" => {
                // Values lie in [-1, 1], so a reduction above 2 only repeats 2.
                let reduction = |r: &f32| (0.0..=2.0).contains(r);
                search.fpu_reduction =
                    Some(number(key, value, reduction, "from 0 to 2").map_err(bad)?)
            }
            "solver" => {
                search.solver = Some(match value {
                    "1" | "true" | "on" => true,
                    "0" | "false" | "off" => false,
                    _ => return Err(bad(format!("solver must be 1 or 0, not `{value}`"))),
                })
            }
            other => {
                return Err(bad(format!(
                    "unknown option `{other}`; mcts takes checkpoint=PATH, iteration=N, sims=N, cpuct=X, batch=N, solver=1|0, minimax=X, fpu=X"
                )));
            }
        }
    }
    let name = spec.to_string();
    Ok(match checkpoint {
        Some(path) => {
            let (mut header, eval) = super::cache::load(&path, iteration)?;
            if let Some(s) = sims {
                header.sims = s;
            }
            search.apply(&mut header.search);
            let player = LoadedPlayer::new(header, eval, name);
            Box::new(player.with_batch(batch.unwrap_or(0)))
        }
        None => {
            if iteration.is_some() {
                bail!(bad("iteration= needs checkpoint=RUN_DIR".into()));
            }
            let mut cfg = PlaySettings::default();
            search.apply(&mut cfg);
            Box::new(
                MctsPlayer::new(
                    name,
                    rules,
                    Arc::new(UniformInference),
                    &cfg,
                    sims.unwrap_or(DEFAULT_SIMS),
                )
                .with_batch(batch.unwrap_or(0)),
            )
        }
    })
}
