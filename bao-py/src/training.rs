//! The training stages for distributed drivers (`bao_zero.ray_train`): a self-play worker, the
//! learner that owns the run directory, and the evaluation worker. They are the stages `bao train`
//! runs, so a run made through them is the same run, in the same run directory. Their calls
//! release the GIL while Rust works; what crosses between them is bytes (weights, self-play
//! parts, evaluations), so they can sit in different processes and machines.

use crate::errors::{chain_value_error, check_range, detach, guarded, value_error};
use bao_zero::nn::NetWeights;
use bao_zero::pool::OwnPool;
use bao_zero::rules::Game;
use bao_zero::selfplay::{MAX_THREADS, SelfPlayPart, merge_parts};
use bao_zero::train::{self, EvalReport, EvalSettings, RunOptions, RunSource, TrainConfig};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;
use std::sync::Mutex;

/// A config from its TOML text, validated.
fn parse_config(text: &str) -> PyResult<(TrainConfig, Game)> {
    let config =
        TrainConfig::from_toml(text).map_err(|e| chain_value_error(&e.context("bad config")))?;
    let rules = config.game().map_err(|e| chain_value_error(&e))?;
    Ok((config, rules))
}

/// A thread pool of `threads` threads (1 to `selfplay.threads`' bound), started at once (and
/// again in a child of `fork`).
fn pool(threads: usize, name: &'static str) -> PyResult<OwnPool> {
    let threads = check_range("threads", threads, 1..=MAX_THREADS)?;
    let own = OwnPool::new(threads, name);
    own.pool()
        .map_err(|e| value_error(format!("cannot start {threads} threads: {e}")))?;
    Ok(own)
}

/// The network of a run with `config` from its bytes, as of `version`, on the run's device.
fn net_weights(config: &TrainConfig, bytes: &[u8], version: u64) -> anyhow::Result<NetWeights> {
    NetWeights::from_bytes(&config.net.shape, config.net.device, bytes, version)
}

/// A JSON value as a Python object (through the `json` module).
fn to_python<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
}

/// Plays self-play games of a training run: any games of any iteration, with the network it is
/// given. The same arguments give the same bytes, on any machine.
///
/// `config_toml` is the run's config as TOML (`Learner.config_toml`); `threads` the threads
/// it plays on (its games split over them; the samples do not depend on it).
#[pyclass(name = "SelfPlayWorker", module = "bao_zero._core")]
pub struct SelfPlayWorker {
    config: TrainConfig,
    rules: Game,
    pool: OwnPool,
    /// The network of the last call, kept while the weights stay the same.
    network: Mutex<Option<(Vec<u8>, NetWeights)>>,
}

#[pymethods]
impl SelfPlayWorker {
    #[new]
    #[pyo3(signature = (config_toml, threads = 1))]
    fn new(config_toml: &str, threads: usize) -> PyResult<Self> {
        guarded("SelfPlayWorker", || {
            let (config, rules) = parse_config(config_toml)?;
            Ok(SelfPlayWorker {
                config,
                rules,
                pool: pool(threads, "bao-selfplay")?,
                network: Mutex::new(None),
            })
        })
    }

    /// Plays games `first..first + count` of `iteration` with the network `weights` (of
    /// `version`: the iteration that made them); returns the self-play part as bytes, for
    /// `Learner.train`. The games must be games of an iteration (`first + count` at most its
    /// games). `ValueError` for weights that do not fit the config or games out of range.
    fn play<'py>(
        &self,
        py: Python<'py>,
        weights: Vec<u8>,
        version: u64,
        iteration: u32,
        first: u64,
        count: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        guarded("SelfPlayWorker.play", || {
            if iteration == 0 {
                return Err(value_error("iterations count from 1"));
            }
            let games = self.config.selfplay.games_per_iteration;
            if u64::try_from(count)
                .ok()
                .and_then(|c| first.checked_add(c))
                .is_none_or(|end| end > games as u64)
            {
                return Err(value_error(format!(
                    "games {first}..{first}+{count} are not games of an iteration: it has {games} (0..{games})"
                )));
            }
            let range = train::selfplay_games(&self.config, iteration, first, count);
            let bytes = detach(py, || {
                let mut network = self.network.lock().unwrap_or_else(|e| e.into_inner());
                if network.as_ref().is_none_or(|(b, _)| *b != weights) {
                    let loaded = net_weights(&self.config, &weights, version)?;
                    *network = Some((weights, loaded));
                }
                let (_, loaded) = network.as_ref().expect("the network was just loaded");
                let network = loaded.inference().as_ref();
                let (rules, settings) = (&self.rules, &self.config.selfplay);
                let part = self.pool.install(|| {
                    SelfPlayPart::play_with(rules, network, version, settings, range, &|_| {})
                })?;
                Ok(part.to_bytes())
            })?;
            Ok(PyBytes::new(py, &bytes))
        })
    }
}

/// The learner of a training run: it owns the run directory, takes each iteration's self-play
/// parts, trains, takes the evaluation and checkpoints, exactly as `bao train` does.
///
/// `Learner(config)` opens the run of the config file `config` (the built-in default config
/// when `None`): a new run, or the run of the same config already in its run directory, which
/// it resumes; `Learner(resume=DIR)` resumes the run in `DIR`. `run_dir` and `seed` override
/// the config's; `quiet` hides the progress bars and sends the iteration lines to stderr. The
/// run is opened as `bao train` opens it (`train::Learner::open_run`).
#[pyclass(name = "Learner", module = "bao_zero._core")]
pub struct Learner {
    inner: Mutex<train::Learner>,
}

impl Learner {
    fn lock(&self) -> std::sync::MutexGuard<'_, train::Learner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl Learner {
    #[new]
    #[pyo3(signature = (config = None, *, resume = None, run_dir = None, seed = None, quiet = false))]
    fn new(
        py: Python<'_>,
        config: Option<PathBuf>,
        resume: Option<PathBuf>,
        run_dir: Option<String>,
        seed: Option<u64>,
        quiet: bool,
    ) -> PyResult<Self> {
        let opts = RunOptions {
            quiet,
            players: crate::players().clone(),
            ..RunOptions::default()
        };
        let source = RunSource {
            config: config.into(),
            resume,
            run_dir,
            seed,
            extend_to: None,
        };
        let learner = guarded("Learner", || {
            detach(py, || train::Learner::open_run(&source, &opts))
        })?;
        Ok(Learner {
            inner: Mutex::new(learner),
        })
    }

    /// The run's config as TOML, to build workers (self-play and evaluation) with anywhere.
    #[getter]
    fn config_toml(&self) -> PyResult<String> {
        toml::to_string_pretty(self.lock().config()).map_err(value_error)
    }

    /// The run directory.
    #[getter]
    fn run_dir(&self) -> PathBuf {
        self.lock().dir().path.clone()
    }

    /// The last complete iteration (0 before the first).
    #[getter]
    fn iteration(&self) -> u32 {
        self.lock().meta().iteration
    }

    /// The iterations of the whole run.
    #[getter]
    fn iterations(&self) -> u32 {
        self.lock().config().iterations
    }

    /// Self-play games per iteration.
    #[getter]
    fn games_per_iteration(&self) -> usize {
        self.lock().config().selfplay.games_per_iteration
    }

    /// The network as bytes: after the last complete iteration (to play the next one with), or,
    /// between `train` and `commit`, after the trained iteration (to evaluate).
    fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        guarded("Learner.weights", || {
            let bytes = detach(py, || self.lock().weights()?.to_bytes())?;
            Ok(PyBytes::new(py, &bytes))
        })
    }

    /// Trains iteration `iteration` (the one after the last complete one) on its self-play:
    /// `parts` (bytes from `SelfPlayWorker.play`, in any order) must hold each of its games
    /// exactly once, played with the network of the last complete iteration (or, asynchronous
    /// self-play, an older one: never a newer version).
    /// `seconds` is the wall-clock time self-play took (finite, not negative). The samples enter
    /// the replay window in game order; the network and the window are checkpointed. Returns the
    /// training figures. `ValueError` for anything else, before the run changes.
    fn train<'py>(
        &self,
        py: Python<'py>,
        iteration: u32,
        parts: Vec<Vec<u8>>,
        seconds: f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        guarded("Learner.train", || {
            check_seconds(seconds)?;
            let figures = detach(py, || {
                let mut learner = self.lock();
                let next = learner.next_iteration();
                anyhow::ensure!(
                    iteration == next,
                    "the run's next iteration is {next}, not {iteration}"
                );
                let parts = parts
                    .iter()
                    .map(|p| SelfPlayPart::from_bytes(p))
                    .collect::<anyhow::Result<Vec<_>>>()?;
                check_versions(&parts, iteration, learner.meta().iteration)?;
                let count = learner.config().selfplay.games_per_iteration;
                let selfplay = merge_parts(learner.games(0, count), parts, seconds)?;
                let positions = selfplay.games.samples.len();
                let report = learner.train(selfplay)?;
                Ok(serde_json::json!({
                    "iteration": iteration,
                    "positions": positions,
                    "steps": report.steps,
                    "loss": report.losses.total,
                    "policy_loss": report.losses.policy,
                    "value_loss": report.losses.value,
                    "train_seconds": report.seconds,
                }))
            })?;
            to_python(py, &figures)
        })
    }

    /// Whether `iteration` is to be evaluated (every `eval.every`-th, and the last).
    fn eval_due(&self, iteration: u32) -> bool {
        self.lock().eval_due(iteration)
    }

    /// Completes the trained iteration `iteration` with its evaluation (bytes from
    /// `EvaluationWorker.evaluate`, or `None` when none is due): writes its metrics line, its
    /// TensorBoard figures, `meta.json`, and prints its line. Returns the metrics line.
    #[pyo3(signature = (iteration, evaluation = None))]
    fn commit<'py>(
        &self,
        py: Python<'py>,
        iteration: u32,
        evaluation: Option<Vec<u8>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        guarded("Learner.commit", || {
            let line = detach(py, || -> anyhow::Result<serde_json::Value> {
                let mut learner = self.lock();
                match learner.trained_iteration() {
                    None => anyhow::bail!("no iteration is trained to commit"),
                    Some(t) => anyhow::ensure!(
                        t == iteration,
                        "the iteration waiting for its commit is {t}, not {iteration}"
                    ),
                }
                let eval = evaluation
                    .map(|b| serde_json::from_slice::<EvalReport>(&b))
                    .transpose()
                    .map_err(|e| anyhow::anyhow!("the evaluation is damaged: {e}"))?;
                Ok(train::metrics_line(&learner.commit(eval)?))
            })?;
            to_python(py, &line)
        })
    }
}

/// Evaluates a training run's networks against its config's opponents, from each iteration's
/// own seed: the same games wherever it runs. `threads`: the games in parallel.
#[pyclass(name = "EvaluationWorker", module = "bao_zero._core")]
pub struct EvaluationWorker {
    config: TrainConfig,
    rules: Game,
    settings: EvalSettings,
    pool: OwnPool,
}

#[pymethods]
impl EvaluationWorker {
    #[new]
    #[pyo3(signature = (config_toml, threads = 1))]
    fn new(config_toml: &str, threads: usize) -> PyResult<Self> {
        guarded("EvaluationWorker", || {
            let (config, rules) = parse_config(config_toml)?;
            // The opponents are built as `bao train` builds them: by the command line's registry.
            let settings = EvalSettings::of_run(&config, crate::players());
            Ok(EvaluationWorker {
                config,
                rules,
                settings,
                pool: pool(threads, "bao-evaluation")?,
            })
        })
    }

    /// Evaluates the network `weights` of `iteration`; returns the evaluation as bytes, for
    /// `Learner.commit`.
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        weights: Vec<u8>,
        iteration: u32,
    ) -> PyResult<Bound<'py, PyBytes>> {
        guarded("EvaluationWorker.evaluate", || {
            let bytes = detach(py, || -> anyhow::Result<Vec<u8>> {
                let weights = net_weights(&self.config, &weights, u64::from(iteration))?;
                let report = self.pool.install(|| {
                    train::evaluate::evaluate_iteration(
                        &self.rules,
                        &self.config,
                        &self.settings,
                        &weights,
                        iteration,
                        &|_| {},
                    )
                })??;
                Ok(serde_json::to_vec(&report)?)
            })?;
            Ok(PyBytes::new(py, &bytes))
        })
    }
}

/// The progress bar `bao train` shows (of `total` steps named `what`), hidden when `quiet`.
#[pyclass(name = "Progress", module = "bao_zero._core")]
pub struct Progress {
    bar: indicatif::ProgressBar,
}

#[pymethods]
impl Progress {
    #[new]
    #[pyo3(signature = (total, what, quiet = false))]
    fn new(total: u64, what: &str, quiet: bool) -> Self {
        Progress {
            bar: train::bar(total, what, quiet),
        }
    }

    /// Sets how many steps are done.
    fn set(&self, done: u64) {
        self.bar.set_position(done);
    }

    /// Sets the message after the counts.
    fn message(&self, text: String) {
        self.bar.set_message(text);
    }

    /// Clears the bar.
    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The tensors of a network by name, as float32 numpy arrays: from bytes (`Learner.weights()`),
/// a `model.bpk` file, or a run's iteration folder (`iter-0007`). Two networks compute the same
/// exactly when these are equal (their files' bytes may differ: they hold random parameter ids).
#[pyfunction]
pub fn network_tensors<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    guarded("network_tensors", || tensors_of(py, source))
}

/// [`network_tensors`]' work, guarded there.
fn tensors_of<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    use numpy::{PyArray1, PyArrayMethods};
    let bytes: Vec<u8> = match source.cast::<PyBytes>() {
        Ok(b) => b.as_bytes().to_vec(),
        Err(_) => {
            let path: PathBuf = source.extract()?;
            let file = if path.is_dir() {
                path.join("model.bpk")
            } else {
                path
            };
            crate::errors::require_file(&file, "network file")?;
            bao_zero::util::fs::read_bounded(
                &file,
                bao_zero::util::fs::limits::NETWORK,
                "network file",
            )
            .map_err(|e| chain_value_error(&e))?
        }
    };
    let tensors = detach(py, || bao_zero::nn::network_tensors(&bytes))?;
    let out = pyo3::types::PyDict::new(py);
    for (name, (shape, values)) in tensors {
        out.set_item(name, PyArray1::from_vec(py, values).reshape(shape)?)?;
    }
    Ok(out)
}

/// `ValueError` unless `seconds` is a duration self-play can have taken: finite, not negative,
/// and no longer than this machine's clock has run (the learner dates the iteration's start by it).
fn check_seconds(seconds: f64) -> PyResult<()> {
    let fits = seconds.is_finite()
        && seconds >= 0.0
        && std::time::Duration::try_from_secs_f64(seconds)
            .ok()
            .and_then(|d| std::time::Instant::now().checked_sub(d))
            .is_some();
    if fits {
        Ok(())
    } else {
        Err(value_error(format!(
            "seconds must be the self-play's wall-clock time (finite, at least 0, at most this machine's uptime), not {seconds}"
        )))
    }
}

/// Every part of `iteration` must have been played with the network of the last complete
/// iteration, `version`, or (asynchronous self-play) an older one: a part of a network that
/// did not exist yet when the iteration was played is refused, in one line.
fn check_versions(parts: &[SelfPlayPart], iteration: u32, version: u32) -> anyhow::Result<()> {
    for part in parts {
        let r = part.range;
        anyhow::ensure!(
            part.version <= u64::from(version),
            "the self-play part of games {}..{} was played with network version {}, but iteration {iteration} is played with version {version} (or an older one)",
            r.first,
            r.first.saturating_add(r.count as u64),
            part.version
        );
    }
    Ok(())
}
