//! Opening a run: the one place where a config source, its overrides, `--resume` and
//! `--extend-to` become a [`Learner`]. `bao train`, Python's `bao_zero.Learner` and through it
//! `bao_zero.ray_train` all open their runs here, so they accept, refuse and resume alike.

use super::config::DEFAULT_CONFIG;
use super::exploit::check_kind;
use super::{Learner, RunDir, RunOptions, TrainConfig, extend};
use anyhow::{bail, ensure};
use std::path::{Path, PathBuf};

/// Where a new run's config comes from.
#[derive(Clone, Debug, Default)]
pub enum ConfigSource {
    /// The built-in default config (`configs/default.toml`).
    #[default]
    BuiltIn,
    /// A config file.
    File(PathBuf),
    /// A config built in code.
    Given(Box<TrainConfig>),
}

impl From<Option<PathBuf>> for ConfigSource {
    /// A config file if one is named, else the built-in config.
    fn from(path: Option<PathBuf>) -> ConfigSource {
        path.map_or(ConfigSource::BuiltIn, ConfigSource::File)
    }
}

/// Which run to open, as a command line or a Python call names it.
#[derive(Clone, Debug, Default)]
pub struct RunSource {
    /// The config of a new run (or of the run already in its directory).
    pub config: ConfigSource,
    /// Resume the run in this directory with its own config (then `config`, `run_dir` and
    /// `seed` must be `None`).
    pub resume: Option<PathBuf>,
    /// Overrides the config's run directory.
    pub run_dir: Option<String>,
    /// Overrides the config's seed.
    pub seed: Option<u64>,
    /// Train to this many iterations in all: a resumed run is extended at once; a config's run
    /// once it has the config's own `iterations` (so that the learning-rate schedule stretches
    /// from the same iteration however often the command is interrupted and repeated).
    pub extend_to: Option<u32>,
}

impl RunSource {
    /// The run of a config built in code.
    pub fn given(config: TrainConfig) -> RunSource {
        RunSource {
            config: ConfigSource::Given(Box::new(config)),
            ..RunSource::default()
        }
    }

    /// The run in `dir`, resumed with its own config.
    pub fn resume(dir: impl Into<PathBuf>) -> RunSource {
        RunSource {
            resume: Some(dir.into()),
            ..RunSource::default()
        }
    }

    /// The config with the overrides applied.
    fn config(&self) -> anyhow::Result<TrainConfig> {
        let mut config: TrainConfig = match &self.config {
            ConfigSource::BuiltIn => toml::from_str(DEFAULT_CONFIG)?,
            ConfigSource::File(path) => TrainConfig::load(path)?,
            ConfigSource::Given(config) => (**config).clone(),
        };
        if let Some(dir) = &self.run_dir {
            config.run_dir = dir.clone();
        }
        if let Some(seed) = self.seed {
            config.seed = seed;
        }
        Ok(config)
    }
}

impl Learner {
    /// Opens the run `source` names: the run in `source.resume` (extended first if
    /// `extend_to` says so), or the run of the config (see [`Learner::open_config`]).
    pub fn open_run(source: &RunSource, opts: &RunOptions) -> anyhow::Result<Learner> {
        let Some(dir) = &source.resume else {
            let config = source.config()?;
            check_kind(
                &config,
                opts.exploit,
                &format!("the run of {}", config.run_dir),
            )?;
            return Learner::open_config(config, source.extend_to, opts);
        };
        ensure!(
            matches!(source.config, ConfigSource::BuiltIn)
                && source.run_dir.is_none()
                && source.seed.is_none(),
            "a resumed run keeps its own config: a config, run directory or seed does not apply"
        );
        if RunDir::exists(dir) {
            let stored = RunDir::new(dir).read_config()?;
            check_kind(&stored, opts.exploit, &dir.display().to_string())?;
        }
        if let Some(total) = source.extend_to {
            extend(dir, total)?;
        }
        Learner::resume(dir, opts)
    }

    /// The run of `config`: a new one, or the run of the same config already in its directory
    /// (so that the same command continues after an interruption); a run of another config there
    /// is an error. With `extend_to`, a run that has the config's own iterations is extended to
    /// `extend_to` (a run this extended before counts as the config's run).
    fn open_config(
        config: TrainConfig,
        extend_to: Option<u32>,
        opts: &RunOptions,
    ) -> anyhow::Result<Learner> {
        let path = Path::new(&config.run_dir);
        if !RunDir::exists(path) {
            return Learner::start(config, opts);
        }
        let dir = RunDir::new(path);
        let stored = dir.read_config()?;
        let extended = extend_to == Some(stored.iterations)
            && TrainConfig {
                iterations: config.iterations,
                ..stored.clone()
            }
            .same_run(&config);
        if !stored.same_run(&config) && !extended {
            bail!(
                "{} already holds a run of another config; resume it with `--resume {}`, or give another run directory",
                path.display(),
                path.display()
            );
        }
        match extend_to {
            Some(total)
                if stored.iterations < total && dir.read_meta()?.iteration >= config.iterations =>
            {
                extend(path, total)?;
                eprintln!(
                    "{}: extending the run to {total} iterations",
                    path.display()
                );
            }
            _ => eprintln!("{} holds a run of this config: resuming it", path.display()),
        }
        Learner::resume(path, opts)
    }
}
