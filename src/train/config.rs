//! The run configuration: one TOML file drives a whole training run (and is copied into the run
//! directory, so a run can be resumed or reproduced from its own folder). A config may extend
//! another (`extends = "base.toml"` plus the keys it changes); the run directory stores the
//! resolved, complete config, so a run never depends on the file it came from.

use crate::mcts::MAX_SIMS;
use crate::players::{PlayerRegistry, PlayerSpec};
use crate::selfplay::SelfPlayConfig;
use crate::util::check::{check_above, check_range};
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The built-in default config: what `bao train` runs without `--config` (the README's main
/// job), and what `bao bench mcts` measures.
pub const DEFAULT_CONFIG: &str = include_str!("../../configs/default.toml");

/// The most random plies a self-play game may open with (`selfplay.random_opening_plies`).
pub const MAX_RANDOM_OPENING_PLIES: u32 = crate::selfplay::MAX_RANDOM_OPENING_PLIES;

/// The most iterations a run may have (`iterations`, `optim.warmup_iterations`, `eval.every`).
const MAX_ITERATIONS: u32 = 1_000_000;
/// The largest training batch (`optim.batch_size`): its tensors stay within tens of MiB.
const MAX_BATCH_SIZE: usize = 65_536;
/// The most training steps an iteration may take.
const MAX_STEPS: usize = 1_000_000;
/// The largest replay window, in samples (about 2 GiB of replay file).
const MAX_REPLAY_WINDOW: usize = 10_000_000;
/// The most evaluation games against each opponent.
const MAX_EVAL_GAMES: usize = 100_000;
/// The most evaluation opponents.
const MAX_OPPONENTS: usize = 64;

/// Everything a training run needs. Unknown fields are rejected, so a typo is an error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    /// The game: a preset's name (see `bao --help`) or a game's text, as a player file's header
    /// writes it (`kujifunza+takasia=none`); `rules` overrides options of it.
    pub variant: String,
    /// Rule options overriding the preset, as in a `--rules` file (optional).
    #[serde(default)]
    pub rules: Option<toml::Table>,
    /// Master seed: every random choice of the run derives from it.
    pub seed: u64,
    /// Training iterations (self-play, then training steps, then a checkpoint).
    pub iterations: u32,
    /// Where checkpoints, logs and the replay buffer go.
    pub run_dir: String,
    /// Start from another network instead of random weights (same `net` shape; the observation
    /// and actions are the same for every variant, so a net trained on another variant works as
    /// a curriculum): a player file (`.bao`), or a run directory (its last iteration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_from: Option<String>,
    /// Checkpoints kept: the last this many iterations, plus the best evaluated one (0: all).
    #[serde(default = "default_keep")]
    pub keep_iterations: u32,
    /// The network's shape and the device the run computes on.
    pub net: crate::nn::NetTable,
    /// Self-play.
    pub selfplay: SelfPlayConfig,
    /// Optimisation.
    pub optim: OptimConfig,
    /// Periodic evaluation.
    pub eval: EvalConfig,
    /// Exploiter training: a victim on one side of every self-play game (`bao exploit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exploit: Option<super::exploit::ExploitConfig>,
}

fn default_keep() -> u32 {
    3
}

/// Optimisation settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OptimConfig {
    /// Samples per training step.
    pub batch_size: usize,
    /// Training steps per iteration.
    pub steps_per_iteration: usize,
    /// Peak learning rate.
    pub learning_rate: f64,
    /// The learning rate at the last iteration, as a fraction of the peak (cosine decay).
    pub final_lr_fraction: f64,
    /// Iterations of linear warm-up at the start.
    pub warmup_iterations: u32,
    /// L2 weight decay.
    pub weight_decay: f64,
    /// Replay window: the most recent samples kept.
    pub replay_window: usize,
    /// No training until the buffer holds this many samples.
    pub min_replay: usize,
    /// Weight of the search's value in the value target, against the game's result (0..=1).
    pub value_q_weight: f32,
    /// Read and ignored: configs of older runs weigh a margin head's loss with it.
    #[serde(default, skip_serializing)]
    pub margin_weight: Option<f32>,
}

impl Default for OptimConfig {
    fn default() -> Self {
        OptimConfig {
            batch_size: 256,
            steps_per_iteration: 100,
            learning_rate: 1e-3,
            final_lr_fraction: 0.1,
            warmup_iterations: 1,
            weight_decay: 1e-4,
            replay_window: 100_000,
            min_replay: 1_000,
            value_q_weight: 0.0,
            margin_weight: None,
        }
    }
}

impl OptimConfig {
    /// Checks every number against its range (`optim.*`): a positive learning rate, fractions
    /// and weights in 0..=1, counts bounded, and a replay window that can reach `min_replay`.
    pub fn validate(&self) -> anyhow::Result<()> {
        check_range("optim.batch_size", self.batch_size, 1..=MAX_BATCH_SIZE)?;
        let steps = self.steps_per_iteration;
        check_range("optim.steps_per_iteration", steps, 0..=MAX_STEPS)?;
        check_above("optim.learning_rate", self.learning_rate, 0.0, 10.0)?;
        check_range("optim.final_lr_fraction", self.final_lr_fraction, 0.0..=1.0)?;
        let warmup = self.warmup_iterations;
        check_range("optim.warmup_iterations", warmup, 0..=MAX_ITERATIONS)?;
        check_range("optim.weight_decay", self.weight_decay, 0.0..=1.0)?;
        let window = self.replay_window;
        check_range("optim.replay_window", window, 1..=MAX_REPLAY_WINDOW)?;
        // A buffer that never holds min_replay samples would never train.
        check_range("optim.min_replay", self.min_replay, 0..=window)?;
        check_range("optim.value_q_weight", self.value_q_weight, 0.0..=1.0)
    }
}

/// Evaluation during training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvalConfig {
    /// Evaluate every this many iterations (and after the last); 0 never.
    pub every: u32,
    /// Games against each opponent (played in pairs with colours swapped).
    pub games: usize,
    /// Opponents as player specs (`random`, `greedy`, `ab:depth=2`, ...).
    pub opponents: Vec<String>,
    /// Simulations per move of the trained player in evaluation games.
    pub sims: u32,
    /// Random plies at the start of each pair of games, for varied openings.
    pub opening_plies: u32,
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            every: 5,
            games: 40,
            opponents: vec!["random".into(), "ab:depth=2".into()],
            sims: 100,
            opening_plies: 2,
        }
    }
}

impl EvalConfig {
    /// Checks every number against its range (`eval.*`) and every opponent: a spec that parses,
    /// of a kind a training run can build (the classical kinds, `mcts:` and `player:`), so that
    /// a typo is refused at load rather than after the first iteration.
    pub fn validate(&self) -> anyhow::Result<()> {
        check_range("eval.every", self.every, 0..=MAX_ITERATIONS)?;
        check_range("eval.games", self.games, 1..=MAX_EVAL_GAMES)?;
        check_range("eval.sims", self.sims, 1..=MAX_SIMS)?;
        let plies = self.opening_plies;
        check_range("eval.opening_plies", plies, 0..=MAX_RANDOM_OPENING_PLIES)?;
        let count = self.opponents.len();
        check_range("the number of eval.opponents", count, 0..=MAX_OPPONENTS)?;
        let classical = PlayerRegistry::classical();
        for text in &self.opponents {
            let spec: PlayerSpec = text
                .parse()
                .map_err(|e| anyhow::anyhow!("eval.opponents: {e}"))?;
            let network = matches!(spec, PlayerSpec::Mcts(_) | PlayerSpec::File(_));
            anyhow::ensure!(
                network || classical.knows(&spec),
                "eval.opponents: unknown player kind `{}` in `{text}`; known kinds: {}, mcts, player",
                spec.kind(),
                classical.kinds().join(", ")
            );
        }
        Ok(())
    }
}

impl TrainConfig {
    /// Reads and checks a config file, with its `extends` chain resolved (see [`read_config_table`]).
    pub fn load(path: &Path) -> anyhow::Result<TrainConfig> {
        let table = read_config_table(path)?;
        TrainConfig::from_table(table).with_context(|| format!("bad config {}", path.display()))
    }

    /// Reads and checks a config from its TOML text (which may not `extends` another).
    pub fn from_toml(text: &str) -> anyhow::Result<TrainConfig> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| one_line(&e))?;
        anyhow::ensure!(
            !table.contains_key("extends"),
            "`extends` names a file, so only a config file may have it"
        );
        TrainConfig::from_table(table)
    }

    fn from_table(table: toml::Table) -> anyhow::Result<TrainConfig> {
        let cfg: TrainConfig = toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| one_line(&e))?;
        cfg.game().context("bad rules")?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// Whether `other` makes the same run: every setting but the device, which is where a run
    /// computes, not what it computes (weights move between devices).
    pub fn same_run(&self, other: &TrainConfig) -> bool {
        let on_cpu = |c: &TrainConfig| TrainConfig {
            net: crate::nn::NetTable {
                device: crate::nn::Compute::Cpu,
                ..c.net.clone()
            },
            ..c.clone()
        };
        on_cpu(self) == on_cpu(other)
    }

    /// Checks every number of the config against its range, and every evaluation opponent's
    /// spec: the one place a config is validated, so that a value no run can use is refused at
    /// load with one line naming its key, not found by a panic, an abort or a hang later.
    pub fn validate(&self) -> anyhow::Result<()> {
        check_range("iterations", self.iterations, 1..=MAX_ITERATIONS)?;
        self.net.shape.validate()?;
        self.selfplay.validate()?;
        self.optim.validate()?;
        self.eval.validate()?;
        self.exploit.as_ref().map_or(Ok(()), |x| x.validate())
    }

    /// Whether the replay buffer, holding `samples`, is full enough to train on.
    pub(crate) fn ready_to_train(&self, samples: usize) -> bool {
        samples > 0 && samples >= self.optim.min_replay
    }

    /// The game: `variant` (a preset's name or a game's text) with the config's `[rules]`.
    pub fn game(&self) -> anyhow::Result<crate::rules::Game> {
        let named: crate::rules::Game = self.variant.parse()?;
        Ok(match &self.rules {
            None => named,
            Some(t) => named.with_overrides(&t.to_string())?,
        })
    }

    /// The learning rate at `iteration` (0-based): linear warm-up, then cosine decay.
    pub fn learning_rate(&self, iteration: u32) -> f64 {
        let o = &self.optim;
        if iteration < o.warmup_iterations {
            return o.learning_rate * (iteration + 1) as f64 / (o.warmup_iterations + 1) as f64;
        }
        let span = self.iterations.saturating_sub(o.warmup_iterations).max(1) as f64;
        let t = ((iteration - o.warmup_iterations) as f64 / span).min(1.0);
        let floor = o.learning_rate * o.final_lr_fraction;
        floor + (o.learning_rate - floor) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos())
    }
}

/// The key by which a config names the config it extends.
const EXTENDS: &str = "extends";

/// A TOML error on one line: the message, then the table it is in.
fn one_line(e: &toml::de::Error) -> anyhow::Error {
    anyhow::anyhow!(e.to_string().trim().replace('\n', " "))
}

/// Reads a config file as one complete TOML table: a file with `extends = "base.toml"` (a path
/// relative to the extending file's folder) is its parent's table with the file's own keys merged
/// in, table by table, the extending file winning; chains resolve to the end. This is the one place
/// `extends` is read, so everything loaded from a path, and the config a run directory stores,
/// is the resolved, complete config. A cycle or an unreadable parent is an error naming the file.
fn read_config_table(path: &Path) -> anyhow::Result<toml::Table> {
    read_chain(path, &mut Vec::new())
}

/// [`read_config_table`] for a file reached through `chain` (the extending files, canonical).
fn read_chain(path: &Path, chain: &mut Vec<PathBuf>) -> anyhow::Result<toml::Table> {
    let text = crate::util::fs::read_text_bounded(path, crate::util::fs::limits::TEXT, "config")?;
    let mut table: toml::Table = toml::from_str(&text)
        .map_err(|e| one_line(&e))
        .with_context(|| format!("bad config {}", path.display()))?;
    let Some(parent) = table.remove(EXTENDS) else {
        return Ok(table);
    };
    let toml::Value::String(parent) = parent else {
        anyhow::bail!(
            "bad config {}: `{EXTENDS}` must be a file name",
            path.display()
        );
    };
    let here = std::fs::canonicalize(path)
        .with_context(|| format!("cannot read config {}", path.display()))?;
    anyhow::ensure!(
        !chain.contains(&here),
        "config {} extends itself through a cycle of `{EXTENDS}`",
        path.display()
    );
    chain.push(here);
    let parent_path = path.parent().unwrap_or(Path::new("")).join(&parent);
    anyhow::ensure!(
        parent_path.is_file(),
        "config {} extends {}, which is not a file",
        path.display(),
        parent_path.display()
    );
    let mut base = read_chain(&parent_path, chain)?;
    merge_tables(&mut base, table);
    Ok(base)
}

/// Merges `over` into `base` key by key: tables merge recursively, any other value of `over`
/// replaces `base`'s (arrays included).
fn merge_tables(base: &mut toml::Table, over: toml::Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(inner)), toml::Value::Table(value)) => {
                merge_tables(inner, value)
            }
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// A seed for one purpose at one iteration, derived from the master seed (SplitMix64), so that a
/// resumed run makes exactly the choices the uninterrupted run would have made.
pub fn derive_seed(master: u64, iteration: u32, purpose: u64) -> u64 {
    crate::util::hash::mix64(
        master
            ^ (iteration as u64).wrapping_mul(crate::util::hash::GOLDEN_GAMMA)
            ^ purpose.wrapping_mul(0xD1B5_4A32_D192_ED03),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn default_config() -> TrainConfig {
        toml::from_str(include_str!("../../configs/default.toml")).expect("default config")
    }

    #[test]
    fn training_waits_for_min_replay_samples_whatever_the_batch_size() {
        let mut cfg = default_config();
        cfg.optim.batch_size = 256;
        cfg.optim.min_replay = 2000;
        // Once the buffer holds a batch but not min_replay samples, it still waits.
        assert!(!cfg.ready_to_train(0));
        assert!(!cfg.ready_to_train(256));
        assert!(!cfg.ready_to_train(1999));
        assert!(cfg.ready_to_train(2000));
        cfg.optim.min_replay = 0;
        assert!(!cfg.ready_to_train(0), "nothing to sample from");
        assert!(cfg.ready_to_train(1));
    }

    #[test]
    fn a_config_with_impossible_values_is_refused_with_the_field_named() {
        let mut cfg = default_config();
        assert!(cfg.validate().is_ok());
        cfg.iterations = 0;
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .contains("iterations")
        );
        cfg.iterations = 1;
        cfg.optim.value_q_weight = 1.5;
        let err = cfg.validate().unwrap_err().to_string();
        assert!(err.contains("value_q_weight"), "{err}");
        cfg.optim.value_q_weight = 0.5;
        cfg.selfplay.alphabeta.share = -0.1;
        let err = cfg.validate().unwrap_err().to_string();
        assert!(err.contains("selfplay.alphabeta.share"), "{err}");
        cfg.selfplay.alphabeta.share = 0.25;
        cfg.selfplay.alphabeta.nodes = 0;
        let err = cfg.validate().unwrap_err().to_string();
        assert!(err.contains("selfplay.alphabeta.nodes"), "{err}");
        cfg.selfplay.alphabeta.nodes = 10_000;
        assert!(cfg.validate().is_ok());
    }

    /// Writes `files` (name, text) into a fresh folder.
    fn config_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn extends_merges_nested_tables_key_by_key_and_the_extending_file_wins() {
        let dir = config_dir(&[
            (
                "base.toml",
                "a = 1\nb = 2\n[t]\nx = 1\ny = [1, 2]\n[t.deep]\nk = 1\nl = 2\n",
            ),
            (
                "sub/mid.toml",
                "extends = \"../base.toml\"\nb = 3\n[t]\ny = [3]\n",
            ),
            (
                "sub/top.toml",
                "extends = \"mid.toml\"\n[t.deep]\nl = 4\nm = 5\n",
            ),
        ]);
        let table = read_config_table(&dir.path().join("sub/top.toml")).unwrap();
        let expected: toml::Table =
            toml::from_str("a = 1\nb = 3\n[t]\nx = 1\ny = [3]\n[t.deep]\nk = 1\nl = 4\nm = 5\n")
                .unwrap();
        assert_eq!(table, expected);
    }

    #[test]
    fn extends_resolves_into_the_complete_config() {
        let default = include_str!("../../configs/default.toml");
        let dir = config_dir(&[
            ("default.toml", default),
            (
                "longer.toml",
                "extends = \"default.toml\"\niterations = 7\n[optim]\nmin_replay = 5\n",
            ),
        ]);
        let cfg = TrainConfig::load(&dir.path().join("longer.toml")).unwrap();
        let mut expected = default_config();
        expected.iterations = 7;
        expected.optim.min_replay = 5;
        assert_eq!(cfg, expected);
    }

    #[test]
    fn an_extends_cycle_is_refused_with_the_file_named() {
        let dir = config_dir(&[
            ("a.toml", "extends = \"b.toml\"\nseed = 1\n"),
            ("b.toml", "extends = \"a.toml\"\nseed = 2\n"),
            ("self.toml", "extends = \"self.toml\"\n"),
        ]);
        for name in ["a.toml", "self.toml"] {
            let err = format!(
                "{:#}",
                read_config_table(&dir.path().join(name)).unwrap_err()
            );
            assert!(err.contains("cycle") && err.contains(name), "{err}");
            assert!(!err.contains('\n'), "one line: {err}");
        }
    }

    #[test]
    fn a_missing_parent_is_named_in_a_one_line_error() {
        let dir = config_dir(&[("child.toml", "extends = \"gone.toml\"\nseed = 1\n")]);
        let err = format!(
            "{:#}",
            TrainConfig::load(&dir.path().join("child.toml")).unwrap_err()
        );
        assert!(
            err.contains("child.toml") && err.contains("gone.toml"),
            "{err}"
        );
        assert!(!err.contains('\n'), "one line: {err}");
    }

    #[test]
    fn a_bad_key_in_an_extending_config_is_refused_with_the_file_named() {
        let dir = config_dir(&[
            ("default.toml", include_str!("../../configs/default.toml")),
            (
                "typo.toml",
                "extends = \"default.toml\"\n[optim]\nlearning_rat = 0.1\n",
            ),
            ("number.toml", "extends = 3\n"),
            (
                "wrong_type.toml",
                "extends = \"default.toml\"\niterations = \"many\"\n",
            ),
        ]);
        let err = format!(
            "{:#}",
            TrainConfig::load(&dir.path().join("typo.toml")).unwrap_err()
        );
        assert!(
            err.contains("typo.toml") && err.contains("learning_rat"),
            "{err}"
        );
        let err = format!(
            "{:#}",
            TrainConfig::load(&dir.path().join("number.toml")).unwrap_err()
        );
        assert!(
            err.contains("number.toml") && err.contains("extends"),
            "{err}"
        );
    }
}
