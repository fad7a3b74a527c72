//! The run directory: where a training run's stages meet on disk.
//!
//! ```text
//! RUN_DIR/config.toml          the config the run uses (written once; its first line a checksum)
//! RUN_DIR/meta.json            the last completed iteration and its figures (written last,
//!                              with a checksum of its values)
//! RUN_DIR/iter-0007/           model.bpk, checksums: the network after iteration 7; the last
//!                              iteration's folder also holds optim.bpk, the optimizer's state
//!                              (older folders lose it once a newer iteration completes)
//! RUN_DIR/replay-0007.bin      the replay buffer after the last completed iteration (gzip;
//!                              see `selfplay::ReplayBuffer::to_file_bytes`)
//! RUN_DIR/metrics.jsonl        one JSON object per iteration
//! RUN_DIR/tb/                  TensorBoard event files
//! RUN_DIR/lock                 the process id of the process running the run (see `RunLock`)
//! ```
//!
//! Every file is written atomically (temporary file, then rename), and `meta.json` is written only
//! after everything else of an iteration, so a run killed at any moment resumes from the last
//! complete iteration.

use super::TrainConfig;
use crate::util::hash::fnv1a;
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};

/// How the first line of a run's `config.toml` begins: the checksum of the lines below it.
const CONFIG_SUM: &str = "# fnv1a ";
/// The key of `meta.json` that holds the checksum of its other values.
const META_SUM: &str = "checksum";

pub use crate::player_file::{EvalEntry, Meta};

/// The checksum of `meta.json`'s values: of their compact JSON, keys in order.
fn meta_checksum(value: &serde_json::Value) -> String {
    format!("{:016x}", fnv1a(value.to_string().as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_crash_left_half_written_is_removed_and_nothing_else() {
        let root = tempfile::tempdir().unwrap();
        let dir = RunDir::new(root.path());
        let iter = dir.iteration(1);
        let half_saved = root.path().join(".bao-iter-Xy12ab");
        for folder in [&iter, &half_saved] {
            std::fs::create_dir_all(folder).unwrap();
        }
        let write = |path: PathBuf| std::fs::write(path, b"x").unwrap();
        write(root.path().join(".bao-meta.json.tmp"));
        write(iter.join(".bao-model.bpk.tmp"));
        write(iter.join("model.bpk"));
        write(half_saved.join("model.bpk.123-0.tmp"));
        write(dir.meta_path());
        dir.remove_temp_files().unwrap();
        assert!(!half_saved.exists());
        assert!(!root.path().join(".bao-meta.json.tmp").exists());
        assert!(!iter.join(".bao-model.bpk.tmp").exists());
        assert!(iter.join("model.bpk").is_file() && dir.meta_path().is_file());
    }

    #[test]
    fn pruning_keeps_the_last_checkpoints_and_the_best() {
        let root = tempfile::tempdir().unwrap();
        let dir = RunDir::new(root.path());
        for i in 1..=6 {
            std::fs::create_dir_all(dir.iteration(i)).unwrap();
        }
        assert_eq!(dir.prune(6, 2, 3).unwrap(), vec![1, 2, 4]);
        let left: Vec<u32> = (1..=6).filter(|&i| dir.iteration(i).is_dir()).collect();
        assert_eq!(left, vec![3, 5, 6]);
        assert_eq!(
            dir.prune(6, 0, 0).unwrap(),
            Vec::<u32>::new(),
            "0 keeps all"
        );
    }
}

/// The current format version.
pub const VERSION: u32 = 1;

/// A run directory.
#[derive(Clone, Debug)]
pub struct RunDir {
    /// Its path.
    pub path: PathBuf,
}

/// A line of `metrics.jsonl` and the iteration that wrote it; `None` for a line that is not one
/// iteration's JSON object.
fn metrics_line(line: &str) -> Option<(u64, serde_json::Value)> {
    let row: serde_json::Value = serde_json::from_str(line).ok()?;
    Some((row.get("iteration")?.as_u64()?, row))
}

impl RunDir {
    /// The directory at `path` (not created yet).
    pub fn new(path: impl Into<PathBuf>) -> RunDir {
        RunDir { path: path.into() }
    }

    /// Takes the run's lock (see [`super::RunLock`]): one process at a time writes a run.
    pub fn lock(&self) -> anyhow::Result<super::RunLock> {
        super::RunLock::acquire(&self.path)
    }

    /// `config.toml`.
    pub fn config(&self) -> PathBuf {
        self.path.join("config.toml")
    }

    /// `meta.json`.
    pub fn meta_path(&self) -> PathBuf {
        self.path.join("meta.json")
    }

    /// The folder of iteration `i`.
    pub fn iteration(&self, i: u32) -> PathBuf {
        self.path.join(format!("iter-{i:04}"))
    }

    /// Deletes the checkpoints of iterations before the last `keep` (up to `latest`), except
    /// `best`; `keep == 0` keeps everything. Returns the iterations deleted.
    pub fn prune(&self, latest: u32, keep: u32, best: u32) -> anyhow::Result<Vec<u32>> {
        if keep == 0 {
            return Ok(Vec::new());
        }
        let mut gone = Vec::new();
        for i in 1..=latest.saturating_sub(keep) {
            let dir = self.iteration(i);
            if i != best && dir.is_dir() {
                std::fs::remove_dir_all(&dir)
                    .with_context(|| format!("cannot delete {}", dir.display()))?;
                gone.push(i);
            }
        }
        Ok(gone)
    }

    /// Deletes the optimizer state of every checkpoint but iteration `keep`'s (called once
    /// meta.json names it): resuming needs only the last one's, the others keep their networks.
    pub fn prune_optimizers(&self, keep: u32) -> anyhow::Result<()> {
        let kept = self.iteration(keep);
        for entry in std::fs::read_dir(&self.path)
            .with_context(|| format!("cannot list {}", self.path.display()))?
            .flatten()
        {
            let path = entry.path();
            if entry.file_name().to_string_lossy().starts_with("iter-")
                && path.is_dir()
                && path != kept
            {
                crate::nn::drop_optimizer(&path)?;
            }
        }
        Ok(())
    }

    /// The folder of the evaluation games' records.
    pub fn games(&self) -> PathBuf {
        self.path.join("games")
    }

    /// The evaluation games of iteration `i`, as KIBA records (`games/eval-0010.kiba`).
    pub fn eval_games(&self, i: u32) -> PathBuf {
        self.games().join(format!("eval-{i:04}.kiba"))
    }

    /// `replay-NNNN.bin`: the replay buffer as it was at the end of iteration `i`. Each
    /// iteration writes a new file, and meta.json names the one to resume from, so a crash
    /// between the two never resumes with samples of an iteration that will be played again.
    pub fn replay(&self, i: u32) -> PathBuf {
        self.path.join(format!("replay-{i:04}.bin"))
    }

    /// The replay buffer a resume after iteration `i` reads: `replay-NNNN.bin`, or the single
    /// `replay.bin` of runs written before that; `None` if there is neither.
    pub fn replay_to_resume(&self, i: u32) -> Option<PathBuf> {
        [self.replay(i), self.path.join("replay.bin")]
            .into_iter()
            .find(|p| p.is_file())
    }

    /// The replay buffer of the run's last complete iteration (the one meta.json names).
    pub fn latest_replay(&self) -> anyhow::Result<PathBuf> {
        let meta = self.read_meta()?;
        self.replay_to_resume(meta.iteration).with_context(|| {
            format!(
                "{} has no replay buffer for iteration {}",
                self.path.display(),
                meta.iteration
            )
        })
    }

    /// Deletes every replay file but iteration `keep`'s (called once meta.json names it).
    pub fn prune_replay(&self, keep: u32) -> anyhow::Result<()> {
        let kept = self.replay(keep);
        for entry in std::fs::read_dir(&self.path)
            .with_context(|| format!("cannot list {}", self.path.display()))?
            .flatten()
        {
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("replay") && name.ends_with(".bin") && path != kept {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot delete {}", path.display()))?;
            }
        }
        Ok(())
    }

    /// `metrics.jsonl`.
    pub fn metrics(&self) -> PathBuf {
        self.path.join("metrics.jsonl")
    }

    /// The text of `metrics.jsonl` (empty if there is none yet). An unreadable one is an error,
    /// so that appending never replaces lines it could not read.
    fn read_metrics(&self) -> anyhow::Result<String> {
        let path = self.metrics();
        if !path.exists() {
            return Ok(String::new());
        }
        let bytes = crate::util::fs::read_regular_bounded(
            &path,
            crate::util::fs::limits::TEXT,
            "metrics file",
        )?;
        // A line damaged into invalid UTF-8 is skipped by the readers, not fatal.
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// `tb/`.
    pub fn tensorboard(&self) -> PathBuf {
        self.path.join("tb")
    }

    /// Reads `meta.json`, checking the version.
    pub fn read_meta(&self) -> anyhow::Result<Meta> {
        let path = self.meta_path();
        if !path.is_file() {
            bail!(
                "cannot read {} (is {} a run directory?)",
                path.display(),
                self.path.display()
            );
        }
        let text = crate::util::fs::read_regular_text_bounded(
            &path,
            crate::util::fs::limits::TEXT,
            "run file",
        )?;
        let damaged = || format!("{} is damaged", path.display());
        let mut value: serde_json::Value = serde_json::from_str(&text).with_context(damaged)?;
        // Files written before checksums have none.
        if let Some(sum) = value.as_object_mut().and_then(|m| m.remove(META_SUM))
            && sum.as_str() != Some(&meta_checksum(&value))
        {
            bail!(
                "{} does not match its checksum: it is damaged",
                path.display()
            );
        }
        let meta: Meta = serde_json::from_value(value).with_context(damaged)?;
        if meta.version != VERSION {
            bail!(
                "{} has run format version {}; this build reads version {VERSION}",
                path.display(),
                meta.version
            );
        }
        Ok(meta)
    }

    /// Writes `meta.json` atomically, with a checksum of its values.
    pub fn write_meta(&self, meta: &Meta) -> anyhow::Result<()> {
        let mut value = serde_json::to_value(meta)?;
        let sum = meta_checksum(&value);
        if let Some(m) = value.as_object_mut() {
            m.insert(META_SUM.into(), sum.into());
        }
        crate::util::fs::write_atomic(
            &self.meta_path(),
            serde_json::to_string_pretty(&value)?.as_bytes(),
        )
    }

    /// Reads the run's `config.toml`, checked against the checksum line it was written with (a
    /// config written before checksums, or whose first line was deleted to keep an edit, has none).
    pub fn read_config(&self) -> anyhow::Result<TrainConfig> {
        let path = self.config();
        let text = crate::util::fs::read_regular_text_bounded(
            &path,
            crate::util::fs::limits::TEXT,
            "run config",
        )?;
        if let Some((first, body)) = text.split_once('\n')
            && let Some(sum) = first.strip_prefix(CONFIG_SUM)
            && !sum.starts_with(&format!("{:016x} ", fnv1a(body.as_bytes())))
        {
            bail!(
                "{} does not match its checksum: damaged, or edited (to keep an edit, delete its first line)",
                path.display()
            );
        }
        TrainConfig::from_toml(&text).with_context(|| format!("bad config {}", path.display()))
    }

    /// The run's config as [`RunDir::read_config`] reads it, checked against the run's `meta.json`
    /// (`meta`): a config edited to another variant no longer describes the networks the run
    /// holds. Whatever uses a run's networks (resume, export) reads its config through this.
    pub fn read_config_of(&self, meta: &Meta) -> anyhow::Result<TrainConfig> {
        let config = self.read_config()?;
        if meta.variant != config.variant {
            bail!(
                "{}: meta.json says variant {}, config.toml says {}",
                self.path.display(),
                meta.variant,
                config.variant
            );
        }
        Ok(config)
    }

    /// Writes the run's `config.toml` atomically: `text`, below a line with its checksum.
    pub fn write_config(&self, text: &str) -> anyhow::Result<()> {
        let sum = fnv1a(text.as_bytes());
        let text = format!(
            "{CONFIG_SUM}{sum:016x} of the lines below, checked on resume (delete this line to keep an edit)\n{text}"
        );
        crate::util::fs::write_atomic(&self.config(), text.as_bytes())
    }

    /// `meta` (the run's metadata) as it stood after `iteration`: the counts (games, positions,
    /// steps) of that iteration's line of `metrics.jsonl` (zero if the line is missing) and the
    /// evaluations up to it. The last iteration's are `meta`'s own.
    pub fn meta_at(&self, meta: &Meta, iteration: u32) -> Meta {
        let eval = meta
            .eval
            .iter()
            .filter(|e| e.iteration <= iteration)
            .cloned()
            .collect();
        if iteration == meta.iteration {
            return Meta {
                eval,
                ..meta.clone()
            };
        }
        let text = self.read_metrics().unwrap_or_default();
        let row = text
            .lines()
            .filter_map(metrics_line)
            .find(|&(i, _)| i == u64::from(iteration))
            .map(|(_, row)| row)
            .unwrap_or_default();
        let count = |key: &str| row[key].as_u64().unwrap_or(0);
        Meta {
            iteration,
            games: count("games"),
            positions: count("positions"),
            steps: count("steps"),
            eval,
            ..meta.clone()
        }
    }

    /// Appends one line to `metrics.jsonl` (the file is rewritten atomically, so a crash never
    /// leaves half a line).
    pub fn append_metrics(&self, line: &serde_json::Value) -> anyhow::Result<()> {
        let path = self.metrics();
        let mut text = self.read_metrics()?;
        text.push_str(&line.to_string());
        text.push('\n');
        crate::util::fs::write_atomic(&path, text.as_bytes())
    }

    /// Keeps the metrics of iterations up to `iteration` only (after a resume, lines written by
    /// an iteration that did not complete are dropped).
    pub fn truncate_metrics(&self, iteration: u32) -> anyhow::Result<()> {
        let path = self.metrics();
        if !path.exists() {
            return Ok(());
        }
        let text = self.read_metrics()?;
        let kept: String = text
            .lines()
            .filter(|l| metrics_line(l).is_some_and(|(i, _)| i <= u64::from(iteration)))
            .map(|l| format!("{l}\n"))
            .collect();
        crate::util::fs::write_atomic(&path, kept.as_bytes())
    }

    /// Deletes what writes a crash cut short: temporary files (`.bao-*.tmp`, see
    /// `util::fs::write_atomic`) in the run directory and its iteration folders, and half-filled
    /// checkpoint folders (`.bao-iter-*`, see `nn::Trainer::save`).
    pub fn remove_temp_files(&self) -> anyhow::Result<()> {
        let mut folders = vec![self.path.clone()];
        for entry in std::fs::read_dir(&self.path)
            .with_context(|| format!("cannot list {}", self.path.display()))?
            .flatten()
        {
            if !entry.path().is_dir() {
                continue;
            }
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with(crate::util::fs::TEMP_PREFIX)
            {
                std::fs::remove_dir_all(entry.path())
                    .with_context(|| format!("cannot delete {}", entry.path().display()))?;
            } else {
                folders.push(entry.path());
            }
        }
        for folder in folders {
            for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if name.starts_with(crate::util::fs::TEMP_PREFIX) && name.ends_with(".tmp") {
                    std::fs::remove_file(entry.path())
                        .with_context(|| format!("cannot delete {}", entry.path().display()))?;
                }
            }
        }
        Ok(())
    }

    /// Whether `path` looks like a run directory.
    pub fn exists(path: &Path) -> bool {
        path.join("meta.json").is_file()
    }
}
