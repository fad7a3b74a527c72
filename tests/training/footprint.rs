//! What a run directory keeps on disk: the replay file compressed, the optimizer's state in the
//! last checkpoint only; and a run directory written before that (an uncompressed replay file,
//! the optimizer in every checkpoint) resumes to the same run as one never interrupted.
#![cfg(feature = "ml")]

use crate::common;
use bao_zero::nn::{Compute, NetInference, Trainer};
use bao_zero::selfplay::ReplayBuffer;
use bao_zero::train::{self, RunDir, RunOptions, TrainConfig};
use std::path::{Path, PathBuf};

const ITERATIONS: u32 = 3;

/// The smoke config on one thread (runs reproducible), `ITERATIONS` long, every checkpoint kept.
fn config(run_dir: &Path) -> TrainConfig {
    let mut cfg = common::smoke(run_dir);
    cfg.iterations = ITERATIONS;
    cfg.selfplay.threads = 1;
    cfg.eval.every = 0;
    cfg.keep_iterations = 0;
    cfg
}

fn tmp(name: &str) -> PathBuf {
    common::fresh_dir("footprint", name)
}

fn quiet(max_new_iterations: Option<u32>) -> RunOptions {
    RunOptions {
        quiet: true,
        max_new_iterations,
        ..RunOptions::default()
    }
}

/// The run's last replay file's bytes and what its last network computes on samples of it
/// (parameter ids inside a network file are random, so networks are compared by their outputs).
fn final_state(run: &Path) -> (Vec<u8>, String) {
    let dir = RunDir::new(run);
    let cfg = dir.read_config().unwrap();
    let replay = std::fs::read(dir.replay(ITERATIONS)).unwrap();
    let net = Trainer::load(
        &cfg.net.shape,
        Compute::Cpu,
        cfg.optim.weight_decay,
        &dir.iteration(ITERATIONS),
    )
    .unwrap();
    let samples: Vec<_> = ReplayBuffer::load(&dir.replay(ITERATIONS))
        .unwrap()
        .iter()
        .copied()
        .take(64)
        .collect();
    let batch = train::Batch::from_samples(&cfg.game().unwrap(), &samples, 0.0);
    let out = NetInference::new(net.snapshot()).forward(&batch.obs, &batch.masks, batch.size);
    (replay, format!("{out:?}"))
}

/// Each checksum line of a checkpoint folder names a file there whose bytes it matches.
fn checksums_hold(folder: &Path) {
    let sums = std::fs::read_to_string(folder.join("checksums")).unwrap();
    for line in sums.lines() {
        let (sum, file) = line.split_once("  ").unwrap();
        let bytes = std::fs::read(folder.join(file)).unwrap();
        let want = u64::from_str_radix(sum, 16).unwrap();
        assert_eq!(
            want,
            bao_zero::util::hash::fnv1a(&bytes),
            "{}",
            folder.display()
        );
    }
}

#[test]
fn a_run_keeps_its_replay_compressed_and_the_optimizer_in_its_last_checkpoint_only() {
    let run = tmp("new");
    train::train_run(&train::RunSource::given(config(&run)), &quiet(None)).unwrap();
    let dir = RunDir::new(&run);
    for i in 1..=ITERATIONS {
        let folder = dir.iteration(i);
        assert!(folder.join("model.bpk").is_file());
        assert_eq!(folder.join("optim.bpk").is_file(), i == ITERATIONS, "{i}");
        checksums_hold(&folder);
    }
    let sums = std::fs::read_to_string(dir.iteration(1).join("checksums")).unwrap();
    assert!(!sums.contains("optim.bpk"), "{sums}");
    // An older checkpoint still gives its network (export, init_from), and says why it cannot
    // be resumed from.
    assert!(!Trainer::read_model(&dir.iteration(1)).unwrap().is_empty());
    let cfg = dir.read_config().unwrap();
    let err = Trainer::load(
        &cfg.net.shape,
        Compute::Cpu,
        cfg.optim.weight_decay,
        &dir.iteration(1),
    )
    .err()
    .unwrap()
    .to_string();
    assert!(err.contains("holds the network only"), "{err}");
    bao_zero::export::from_run_averaged(&run, Some(ITERATIONS), None, ITERATIONS).unwrap();
    // The replay file is a third of its plain layout or less.
    let file = std::fs::read(dir.replay(ITERATIONS)).unwrap();
    let plain = ReplayBuffer::from_file_bytes(&file).unwrap().to_bytes();
    assert!(
        file.len() * 3 < plain.len(),
        "{} bytes for {} plain",
        file.len(),
        plain.len()
    );
    std::fs::remove_dir_all(run).ok();
}

#[test]
fn an_older_run_directory_resumes_to_the_same_run_as_one_never_interrupted() {
    let whole = tmp("whole");
    train::train_run(&train::RunSource::given(config(&whole)), &quiet(None)).unwrap();
    // The same run stopped after two iterations, then turned into the older layout: the
    // replay file uncompressed (format 2), and an optimizer file in every checkpoint.
    let old = tmp("old");
    train::train_run(&train::RunSource::given(config(&old)), &quiet(Some(2))).unwrap();
    let dir = RunDir::new(&old);
    let replay = dir.replay(2);
    let plain = ReplayBuffer::load(&replay).unwrap().to_bytes();
    std::fs::write(&replay, &plain).unwrap();
    let (first, last) = (dir.iteration(1), dir.iteration(2));
    let optim = std::fs::read(last.join("optim.bpk")).unwrap();
    std::fs::write(first.join("optim.bpk"), &optim).unwrap();
    let line = format!("{:016x}  optim.bpk\n", bao_zero::util::hash::fnv1a(&optim));
    let mut sums = std::fs::read_to_string(first.join("checksums")).unwrap();
    sums.push_str(&line);
    std::fs::write(first.join("checksums"), sums).unwrap();
    checksums_hold(&first);

    assert_eq!(
        train::train_run(&train::RunSource::resume(&old), &quiet(None))
            .unwrap()
            .iteration,
        ITERATIONS
    );
    assert!(final_state(&old) == final_state(&whole), "the runs differ");
    // Once resumed, the run directory is of the new layout.
    assert!(!dir.replay(2).exists());
    assert_eq!(
        std::fs::read(dir.replay(ITERATIONS)).unwrap()[..2],
        [0x1f, 0x8b]
    );
    for i in 1..ITERATIONS {
        assert!(!dir.iteration(i).join("optim.bpk").exists(), "{i}");
        checksums_hold(&dir.iteration(i));
    }
    std::fs::remove_dir_all(whole).ok();
    std::fs::remove_dir_all(old).ok();
}
