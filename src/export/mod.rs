//! A trained player in one versioned file, and the library API to play with it.
//!
//! Layout of a `.bao` player file: the magic line `BAOZERO-PLAYER\n`, the format version (u32
//! little-endian), a JSON header (u64 length, then the text: variant, full rule options, network
//! config, search settings, training metadata), the network weights (u64 length, then burnpack
//! bytes, f16 or f32), and an FNV-1a checksum (u64) of everything before it. Loading checks each part and says
//! what is wrong with a damaged, truncated, foreign or mismatched file.

pub mod onnx;
mod specs;

pub use specs::{all_players, parse_c_puct, register_player_specs};

use crate::mcts::{Evaluator, MctsConfig, MctsPlayer};
use crate::nn::{NetConfig, NetEvaluator};
use crate::rules::{Position, Rules};
use crate::search::{Choice, Limits, Player};
use crate::train::{Meta, RunDir, TrainConfig};
use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

const MAGIC: &[u8] = b"BAOZERO-PLAYER\n";
/// The format version this build writes. Version 2 may hold f16 weights, which builds that read
/// only version 1 would misload; this build reads both.
pub const FORMAT_VERSION: u32 = 2;
/// The oldest format version this build reads.
const OLDEST_VERSION: u32 = 1;

/// What a player file says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The variant preset's name.
    pub variant: String,
    /// The full rule set the player was trained on.
    pub rules: Rules,
    /// The network's shape.
    pub net: NetConfig,
    /// Search settings used when it plays.
    pub search: MctsConfig,
    /// Simulations per move by default.
    pub sims: u32,
    /// Where it came from: run directory and iteration.
    pub source: String,
    /// Training games, positions, steps and evaluation results at export time.
    pub training: Meta,
}

/// A player file in memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Bundle {
    /// The header.
    pub header: Header,
    /// Network weights (burnpack bytes).
    pub weights: Vec<u8>,
}

use crate::util::fnv1a as checksum;

impl Bundle {
    /// The player of iteration `iteration` (default: the last complete one) of a training run.
    pub fn from_run(
        run_dir: &Path,
        iteration: Option<u32>,
        sims: Option<u32>,
    ) -> anyhow::Result<Bundle> {
        Bundle::from_run_averaged(run_dir, iteration, sims, 1)
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
        let config = TrainConfig::load(&dir.config())?;
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
            .map(|i| {
                let model = dir.iteration(i).join("model.bpk");
                std::fs::read(&model).with_context(|| format!("cannot read {}", model.display()))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        // One iteration keeps its bytes as stored; a mean is stored in f32 (export rounds it).
        let weights = match average {
            1 => nets.into_iter().next().expect("one iteration read"),
            _ => crate::nn::average_weights(&config.net, &nets, crate::nn::Precision::F32)?,
        };
        let header = Header {
            variant: config.variant.clone(),
            rules: config.rules()?,
            net: config.net.clone(),
            search: MctsConfig {
                dirichlet_epsilon: 0.0,
                c_puct: crate::mcts::PLAY_C_PUCT,
                ..config.selfplay.mcts.clone()
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

    /// One player with the mean weights of several players of the same rules and network shape
    /// (a "model soup": networks trained on from one start by different runs average into a
    /// stronger one). The first player's header gives the search settings and training counts;
    /// one player is its own mean, unchanged.
    pub fn average(players: &[Bundle]) -> anyhow::Result<Bundle> {
        let first = match players {
            [] => bail!("no players to average"),
            [one] => return Ok(one.clone()),
            [first, ..] => first,
        };
        for (k, p) in players.iter().enumerate().skip(1) {
            let h = &p.header;
            if h.rules != first.header.rules {
                bail!("player {} plays other rules than player 1", k + 1);
            }
            if h.net != first.header.net {
                bail!(
                    "player {} has another network shape ({:?}) than player 1 ({:?})",
                    k + 1,
                    h.net,
                    first.header.net
                );
            }
        }
        let nets: Vec<&[u8]> = players.iter().map(|p| p.weights.as_slice()).collect();
        let weights =
            crate::nn::average_weights(&first.header.net, &nets, crate::nn::Precision::F32)?;
        let sources: Vec<&str> = players.iter().map(|p| p.header.source.as_str()).collect();
        let header = Header {
            source: format!("the mean of {}", sources.join(" and ")),
            ..first.header.clone()
        };
        Ok(Bundle { header, weights })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
        let header = serde_json::to_vec_pretty(&self.header)?;
        let mut out = Vec::with_capacity(MAGIC.len() + header.len() + self.weights.len() + 32);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(header.len() as u64).to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(&(self.weights.len() as u64).to_le_bytes());
        out.extend_from_slice(&self.weights);
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        Ok(out)
    }

    /// Reads a player file from bytes, checking every part.
    pub fn from_bytes(bytes: &[u8]) -> anyhow::Result<Bundle> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            bail!("not a bao-zero player file (the magic line is missing)");
        }
        let mut at = MAGIC.len();
        let mut take = |n: usize, what: &str| -> anyhow::Result<&[u8]> {
            let end = at
                .checked_add(n)
                .filter(|&e| e <= bytes.len())
                .with_context(|| format!("the file is truncated (in the {what})"))?;
            let s = &bytes[at..end];
            at = end;
            Ok(s)
        };
        let version = u32::from_le_bytes(take(4, "version")?.try_into().expect("4 bytes"));
        if !(OLDEST_VERSION..=FORMAT_VERSION).contains(&version) {
            bail!(
                "player file format version {version}; this build reads versions \
                 {OLDEST_VERSION} to {FORMAT_VERSION}"
            );
        }
        let hlen =
            u64::from_le_bytes(take(8, "header length")?.try_into().expect("8 bytes")) as usize;
        let header_bytes = take(hlen, "header")?.to_vec();
        let wlen =
            u64::from_le_bytes(take(8, "weights length")?.try_into().expect("8 bytes")) as usize;
        let weights = take(wlen, "weights")?.to_vec();
        let sum = u64::from_le_bytes(take(8, "checksum")?.try_into().expect("8 bytes"));
        if at != bytes.len() {
            bail!(
                "the file has {} unexpected bytes at the end",
                bytes.len() - at
            );
        }
        if checksum(&bytes[..bytes.len() - 8]) != sum {
            bail!("the file is damaged (checksum mismatch)");
        }
        let header: Header =
            serde_json::from_slice(&header_bytes).context("the header is not valid")?;
        header
            .rules
            .validate()
            .map_err(|e| anyhow::anyhow!("the header's rules are inconsistent: {e}"))?;
        Ok(Bundle { header, weights })
    }

    /// Writes the file atomically.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        crate::util::write_atomic(path, &self.to_bytes()?)
    }

    /// Reads a player file.
    pub fn read(path: &Path) -> anyhow::Result<Bundle> {
        let bytes = std::fs::read(path)
            .with_context(|| format!("cannot read player file {}", path.display()))?;
        Bundle::from_bytes(&bytes).with_context(|| format!("bad player file {}", path.display()))
    }

    /// The same player with its weights stored in `precision` (f16 halves the file).
    pub fn with_precision(self, precision: crate::nn::Precision) -> anyhow::Result<Bundle> {
        let weights = crate::nn::convert_weights(&self.header.net, &self.weights, precision)?;
        Ok(Bundle { weights, ..self })
    }

    /// The network, ready for inference.
    pub fn evaluator(&self) -> anyhow::Result<NetEvaluator> {
        let net = crate::nn::load_net_bytes(&self.header.net, &crate::nn::device(), &self.weights);
        Ok(NetEvaluator::new(
            net.context("the weights do not match the network config")?,
        ))
    }
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

    /// A player from a header and its network (shared, e.g. between the games of an arena).
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

    fn candidates(&self) -> Vec<crate::search::Candidate> {
        self.player.candidates()
    }
}
