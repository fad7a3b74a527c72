//! Crash safety: `bao train` killed with SIGKILL at random moments resumes from its last
//! complete iteration, never finds a damaged file, and ends exactly where a run that was never
//! interrupted ends.
#![cfg(all(feature = "ml", unix))]

use crate::common;
use bao_zero::nn::{Compute, NetInference, Trainer};
use bao_zero::selfplay::ReplayBuffer;
use bao_zero::train::{RunDir, TrainConfig};
use rand::{RngExt, SeedableRng};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ITERATIONS: u32 = 6;

/// The smoke config on one thread (so that runs are reproducible), a few iterations long.
fn config(run_dir: &Path) -> TrainConfig {
    let mut cfg = common::smoke(run_dir);
    cfg.iterations = ITERATIONS;
    cfg.selfplay.threads = 1;
    cfg.eval.every = 3;
    cfg.keep_iterations = 2;
    cfg
}

fn tmp(name: &str) -> PathBuf {
    let dir = common::fresh_dir("crash", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `bao train --config FILE --quiet`: the same command starts the run or resumes it.
fn train_command(config_file: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bao"));
    cmd.args(["train", "--quiet", "--config"])
        .arg(config_file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

/// The network of the run's last iteration (`iterations`), as outputs on fixed inputs
/// (parameter ids inside the file are random, so files are not compared byte for byte), and its
/// replay buffer.
pub fn final_state(run: &Path, iterations: u32) -> (Vec<u8>, String) {
    let dir = RunDir::new(run);
    let meta = dir.read_meta().unwrap();
    assert_eq!(meta.iteration, iterations);
    let cfg = TrainConfig::load(&dir.config()).unwrap();
    let replay = std::fs::read(dir.replay(iterations)).unwrap();
    let net = Trainer::load(
        &cfg.net.shape,
        Compute::Cpu,
        cfg.optim.weight_decay,
        &dir.iteration(iterations),
    )
    .unwrap();
    let samples: Vec<_> = ReplayBuffer::load(&dir.replay(iterations))
        .unwrap()
        .iter()
        .copied()
        .take(64)
        .collect();
    let batch = bao_zero::train::Batch::from_samples(&cfg.game().unwrap(), &samples, 0.0);
    let out = NetInference::new(net.snapshot()).forward(&batch.obs, &batch.masks, batch.size);
    (replay, format!("{out:?}"))
}

/// A run of `config(run)` in `dir`, started by `bao train` from its config file there.
fn prepared(dir: &Path) -> (PathBuf, PathBuf) {
    let config_file = dir.join("config.toml");
    let run = dir.join("run");
    std::fs::write(&config_file, toml::to_string(&config(&run)).unwrap()).unwrap();
    (config_file, run)
}

/// What the kills of one run have left so far.
#[derive(Default)]
struct Kills {
    count: usize,
    last_iteration: u32,
    /// Whether the last kill left the run's lock behind (it names the killed process).
    stale_lock: bool,
    pids: Vec<String>,
}

impl Kills {
    /// After a kill: the lock left is a killed process's, and the run directory is readable
    /// and loses at most the iteration under way.
    fn check_after(&mut self, child: &std::process::Child, run: &Path) {
        self.count += 1;
        let lock = std::fs::read_to_string(run.join("lock")).ok();
        self.stale_lock = lock.is_some();
        self.pids.push(child.id().to_string());
        if let Some(pid) = lock {
            // Its own, or one it was killed before taking over.
            assert!(self.pids.contains(&pid.trim().to_string()), "lock of {pid}");
        }
        if RunDir::exists(run) {
            let meta = RunDir::new(run).read_meta().unwrap();
            assert!(meta.iteration >= self.last_iteration);
            self.last_iteration = meta.iteration;
        }
    }

    /// The run that finished: it succeeded, and took over the lock the last kill left, saying so.
    fn check_finished(&self, child: &mut std::process::Child, status: std::process::ExitStatus) {
        let mut err = String::new();
        use std::io::Read;
        (child.stderr.take().unwrap())
            .read_to_string(&mut err)
            .unwrap();
        assert!(
            status.success(),
            "bao train failed after {} kills: {err}",
            self.count
        );
        assert_eq!(
            self.stale_lock,
            err.contains("taking over the stale lock"),
            "{err}"
        );
    }
}

/// Resuming cleared the temporary files of the writes the kills cut short and the finished
/// run's lock, and only the last iteration's replay buffer is kept.
fn assert_tidy(run: &Path) {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(run).unwrap().flatten() {
        names.push(entry.file_name().to_string_lossy().to_string());
        if entry.path().is_dir() {
            for inner in std::fs::read_dir(entry.path()).unwrap().flatten() {
                names.push(inner.file_name().to_string_lossy().to_string());
            }
        }
    }
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
    assert!(
        !names.iter().any(|n| n == "lock"),
        "the finished run left its lock: {names:?}"
    );
    let replays: Vec<_> = names.iter().filter(|n| n.starts_with("replay")).collect();
    assert_eq!(replays, [&format!("replay-{ITERATIONS:04}.bin")]);
}

#[test]
fn training_killed_at_random_moments_resumes_to_the_same_run() {
    let whole = tmp("whole");
    let (whole_config, run) = prepared(&whole);
    let t = Instant::now();
    let out = train_command(&whole_config).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let whole_secs = t.elapsed().as_secs_f64();

    let killed = tmp("killed");
    let (killed_config, killed_run) = prepared(&killed);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut kills = Kills::default();
    for attempt in 0.. {
        assert!(attempt < 60, "the run never finished");
        let mut child = train_command(&killed_config).spawn().unwrap();
        // Kill somewhere inside the run (a whole run took `whole_secs`), a few times.
        let deadline = Duration::from_secs_f64(rng.random_range(0.05..1.0) * whole_secs / 2.0);
        let started = Instant::now();
        let finished = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if kills.count < 5 && started.elapsed() >= deadline {
                break None;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        if let Some(status) = finished {
            kills.check_finished(&mut child, status);
            break;
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        kills.check_after(&child, &killed_run);
    }
    assert_eq!(kills.count, 5, "the run was killed five times");
    assert!(
        final_state(&run, ITERATIONS) == final_state(&killed_run, ITERATIONS),
        "the resumed run differs from the uninterrupted one"
    );
    assert_tidy(&killed_run);
    std::fs::remove_dir_all(whole).ok();
    std::fs::remove_dir_all(killed).ok();
}
