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
//! | `mcts:...,model=SPEC` | searching only SPEC's move where the opponent is to move (an exploiter against its victim; [`OpponentModel`]) |
//!
//! The options reach the builder read into an [`MctsSpec`].

use super::LoadedPlayer;
use crate::mcts::{
    MAX_BATCH_OPTION, MAX_C_PUCT, MAX_SIMS, MctsPlayer, OpponentModel, PlaySettings,
    UniformInference,
};
use crate::players::MctsSpec;
use crate::players::options::number;
use crate::players::{Limits, Player};
use crate::players::{PlayerRegistry, PlayerSpec};
use crate::rules::Game;
use anyhow::bail;
use std::sync::Arc;

/// Simulations per move of an `mcts:` spec without a player file.
const DEFAULT_SIMS: u32 = 200;

/// Adds the `mcts:...` and `player:FILE` kinds to `players`.
pub(super) fn register_network_players(players: &mut PlayerRegistry) {
    players.register("mcts", build);
    players.register("player", build);
}

/// A network player: a file's or a run's plays its own game, `mcts:` without a checkpoint (uniform
/// priors) `game`.
fn build(
    players: &PlayerRegistry,
    spec: &PlayerSpec,
    game: &Game,
    seed: u64,
) -> anyhow::Result<Box<dyn Player>> {
    let mut player: Box<dyn Player> = match spec {
        PlayerSpec::File(path) => {
            let (header, eval) = super::cache::load(path, None)?;
            Box::new(LoadedPlayer::new(header, eval, spec.to_string())?)
        }
        PlayerSpec::Mcts(options) => {
            let model = match &options.model {
                Some(model) => Some(build_model(players, model, game, seed)?),
                None => None,
            };
            build_mcts(spec, options, game, model)?
        }
        other => bail!("`{other}` is not a network player"),
    };
    player.new_game(seed);
    Ok(player)
}

/// The opponent model `model=SPEC` of an `mcts:` spec: SPEC built for `game` with the player's
/// seed, refused in one line if it does not load or plays another game.
fn build_model(
    players: &PlayerRegistry,
    model: &PlayerSpec,
    game: &Game,
    seed: u64,
) -> anyhow::Result<OpponentModel> {
    let player = players
        .build(model, game, seed)
        .map_err(|e| anyhow::anyhow!("model={model}: {e}"))?;
    crate::players::check_players(game, &[player.as_ref()])?;
    Ok(OpponentModel::new(player, Limits::NONE))
}

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

/// The MCTS player of `options` (`spec`, its name): a player file's or a run's network, or
/// uniform priors; the bounds that belong to the search are checked here, in one line.
fn build_mcts(
    spec: &PlayerSpec,
    options: &MctsSpec,
    game: &Game,
    model: Option<OpponentModel>,
) -> anyhow::Result<Box<dyn Player>> {
    let bad = |why: String| anyhow::anyhow!("bad player spec `{spec}`: {why}");
    // The checks `bao export --sims/--cpuct` make of its text, so both refuse alike.
    if let Some(s) = options.sims {
        parse_sims(&s.to_string()).map_err(bad)?;
    }
    if let Some(c) = options.c_puct {
        parse_c_puct(&c.to_string()).map_err(bad)?;
    }
    if let Some(b) = options
        .batch
        .filter(|b| !(1..=MAX_BATCH_OPTION).contains(b))
    {
        return Err(bad(format!(
            "batch `{b}` must be from 1 to {MAX_BATCH_OPTION}"
        )));
    }
    let batch = options.batch.unwrap_or(0);
    let name = spec.to_string();
    Ok(match &options.checkpoint {
        Some(path) => {
            let (mut header, eval) = super::cache::load(path, options.iteration)?;
            header.sims = options.sims.unwrap_or(header.sims);
            apply(options, &mut header.search);
            let player = LoadedPlayer::new(header, eval, name)?.with_batch(batch);
            match model {
                Some(model) => Box::new(player.with_model(model)),
                None => Box::new(player),
            }
        }
        None => {
            let mut cfg = PlaySettings::default();
            apply(options, &mut cfg);
            let sims = options.sims.unwrap_or(DEFAULT_SIMS);
            let uniform = Arc::new(UniformInference);
            let player = MctsPlayer::new(name, game, uniform, &cfg, sims).with_batch(batch);
            match model {
                Some(model) => Box::new(player.with_model(model)),
                None => Box::new(player),
            }
        }
    })
}

/// Sets in `cfg` the search settings `options` sets; the others stay the file's, or the defaults.
fn apply(options: &MctsSpec, cfg: &mut PlaySettings) {
    cfg.c_puct = options.c_puct.unwrap_or(cfg.c_puct);
    cfg.solver = options.solver.unwrap_or(cfg.solver);
    cfg.minimax_weight = options.minimax_weight.unwrap_or(cfg.minimax_weight);
    cfg.fpu_reduction = options.fpu_reduction.unwrap_or(cfg.fpu_reduction);
}
