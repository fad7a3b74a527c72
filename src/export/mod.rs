//! Exporting a trained player: a training run's network as a player file (one iteration's, or
//! the mean of several), ONNX, the network player kinds (`mcts:`, `player:`), and the library
//! API to play with a player file.

pub mod onnx;
mod specs;

pub use specs::{all_players, parse_c_puct, parse_sims, register_player_specs};

use crate::mcts::{Evaluator, MctsPlayer};
use crate::player_file::{Bundle, Header};
use crate::rules::{Position, Rules};
use crate::search::{Choice, Limits, Player};
use crate::train::RunDir;
use anyhow::{Context, bail};
use std::path::Path;
use std::sync::Arc;

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
    let config = dir.read_config()?;
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
        _ => crate::nn::average_weights(&config.net, &nets, crate::nn::Precision::F32)?,
    };
    let header = Header {
        variant: config.variant.clone(),
        rules: config.rules()?,
        // A player file is the same whatever device trained it.
        net: crate::nn::NetConfig {
            device: crate::nn::Compute::Cpu,
            ..config.net.clone()
        },
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
        .evaluator()
        .context("the checkpoint's network does not load")?;
    Ok(bundle)
}

/// A loaded player: ask it for moves on any position of its variant. It is a [`Player`] too, so
/// arenas and `bao play` use it like any other.
pub struct LoadedPlayer {
    /// The file's header.
    pub header: Header,
    player: MctsPlayer,
}

impl LoadedPlayer {
    /// Loads a player file.
    pub fn load(path: &Path) -> anyhow::Result<LoadedPlayer> {
        let bundle = Bundle::read(path)?;
        let eval: Arc<dyn Evaluator> = Arc::new(
            bundle
                .evaluator()
                .with_context(|| format!("bad player file {}", path.display()))?,
        );
        Ok(LoadedPlayer::new(
            bundle.header,
            eval,
            format!("player:{}", path.display()),
        ))
    }

    /// A player from a header and its network (shared, e.g. between the games of an arena),
    /// searching with the header's play settings.
    pub fn new(header: Header, eval: Arc<dyn Evaluator>, name: String) -> LoadedPlayer {
        let player =
            MctsPlayer::new(name, eval, &header.search, header.sims).only_for(header.rules.clone());
        LoadedPlayer { header, player }
    }

    /// Leaves per batched evaluation (0: chosen from the budget; `MctsPlayer::with_batch`).
    pub fn with_batch(mut self, batch: usize) -> Self {
        self.player = self.player.with_batch(batch);
        self
    }

    /// The rules it plays.
    pub fn rules(&self) -> &Rules {
        &self.header.rules
    }

    /// Its move in `pos` within `limits` (node limits count simulations; with none, the file's
    /// simulations per move), or an error if the game is over or the position does not fit
    /// the player's rules.
    pub fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        let rules = self.header.rules.clone();
        self.player.choose(&rules, pos, limits)
    }
}

impl Player for LoadedPlayer {
    fn name(&self) -> String {
        self.player.name()
    }

    fn choose(&mut self, rules: &Rules, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        self.player.choose(rules, pos, limits)
    }

    fn rules(&self) -> Option<Rules> {
        Some(self.header.rules.clone())
    }

    fn new_game(&mut self, seed: u64) {
        self.player.new_game(seed);
    }

    fn set_threads(&mut self, threads: usize) -> bool {
        self.player.set_threads(threads)
    }

    fn set_stop(&mut self, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> bool {
        self.player.set_stop(stop)
    }

    fn candidates(&self) -> Vec<crate::search::Candidate> {
        self.player.candidates()
    }
}
