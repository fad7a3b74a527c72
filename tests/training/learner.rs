//! The learner as distributed drivers use it: the network sent as bytes, self-play played
//! elsewhere, in parts, as bytes; the run it makes is `bao train`'s, bit for bit.
#![cfg(feature = "ml")]

use crate::common;
use bao_zero::nn::{Compute, NetWeights, network_tensors};
use bao_zero::players::PlayerRegistry;
use bao_zero::selfplay::{SelfPlayPart, merge_parts};
use bao_zero::train::{self, EvalSettings, Learner, RunDir, RunOptions, TrainConfig};
use std::path::{Path, PathBuf};

fn smoke(run_dir: &Path) -> TrainConfig {
    let mut cfg = common::smoke(run_dir);
    // One thread: training's float sums are split the same way in every run.
    cfg.selfplay.threads = 1;
    cfg
}

fn quiet() -> RunOptions {
    RunOptions {
        quiet: true,
        ..RunOptions::default()
    }
}

/// What must be the same in two runs: the replay windows' bytes, the networks' tensors, the
/// metadata and the evaluation games.
fn fingerprint(dir: &Path, iterations: u32) -> Vec<String> {
    let run = RunDir::new(dir);
    let mut out = Vec::new();
    for i in 1..=iterations {
        let model = std::fs::read(run.iteration(i).join("model.bpk")).unwrap();
        out.push(format!("{i}: {:?}", network_tensors(&model).unwrap()));
    }
    let replay = std::fs::read(run.replay(iterations)).unwrap();
    out.push(format!("replay: {replay:?}"));
    out.push(format!("meta: {:?}", run.read_meta().unwrap()));
    out.push(std::fs::read_to_string(run.eval_games(iterations)).unwrap());
    out
}

fn tmp(name: &str) -> PathBuf {
    common::fresh_dir("learner", name)
}

/// `network` as a worker in another process gets it: through its bytes.
fn through_bytes(network: &NetWeights) -> NetWeights {
    let bytes = network.to_bytes().unwrap();
    NetWeights::from_bytes(network.net(), Compute::Cpu, &bytes, network.version()).unwrap()
}

/// Drives `config`'s run as a distributed driver would: each iteration's games played in
/// `split` parts by "workers" of their own settings, the parts as bytes, handed in out of order.
fn distributed_run(config: TrainConfig, split: &[usize]) {
    let mut learner =
        Learner::open_run(&train::RunSource::given(config.clone()), &quiet()).unwrap();
    let rules = config.game().unwrap();
    let mut worker = config.selfplay.clone();
    worker.concurrent_games = 3;
    let evaluation = EvalSettings::of_run(&config, &PlayerRegistry::default());
    while learner.meta().iteration < config.iterations {
        let iteration = learner.next_iteration();
        let weights = through_bytes(&learner.weights().unwrap());
        let mut parts = Vec::new();
        let mut first = 0;
        for &count in split {
            let range = train::selfplay_games(&config, iteration, first, count);
            let part = SelfPlayPart::play(&rules, &weights, &worker, range, &|_| {}).unwrap();
            parts.push(SelfPlayPart::from_bytes(&part.to_bytes()).unwrap());
            first += count as u64;
        }
        parts.reverse();
        let count = config.selfplay.games_per_iteration;
        let selfplay = merge_parts(learner.games(0, count), parts, 1.0).unwrap();
        learner.train(selfplay).unwrap();
        let eval = learner.eval_due(iteration).then(|| {
            let trained = through_bytes(&learner.weights().unwrap());
            train::evaluate::evaluate_iteration(
                &rules,
                &config,
                &evaluation,
                &trained,
                iteration,
                &|_| {},
            )
            .unwrap()
        });
        learner.commit(eval).unwrap();
    }
}

#[test]
fn a_run_whose_self_play_is_split_over_workers_is_the_run_of_bao_train_bit_for_bit() {
    let (local, split) = (tmp("local"), tmp("split"));
    let config = smoke(&local);
    let games = config.selfplay.games_per_iteration;
    train::train_run(&train::RunSource::given(config.clone()), &quiet()).unwrap();
    distributed_run(smoke(&split), &[3, 1, games - 4]);
    let iterations = config.iterations;
    assert_eq!(
        fingerprint(&local, iterations),
        fingerprint(&split, iterations)
    );
    // The run directory is one `bao train` resumes and extends.
    train::extend(&split, iterations + 1).unwrap();
    let meta = train::train_run(&train::RunSource::resume(&split), &quiet()).unwrap();
    assert_eq!(meta.iteration, iterations + 1);
    std::fs::remove_dir_all(local).ok();
    std::fs::remove_dir_all(split).ok();
}

#[test]
fn the_learner_takes_an_iterations_games_once_and_in_order() {
    let dir = tmp("order");
    let config = smoke(&dir);
    let mut learner =
        Learner::open_run(&train::RunSource::given(config.clone()), &quiet()).unwrap();
    let rules = config.game().unwrap();
    let weights = learner.weights().unwrap();
    let count = config.selfplay.games_per_iteration;
    let play = |first, count| {
        let range = train::selfplay_games(&config, 1, first, count);
        SelfPlayPart::play(&rules, &weights, &config.selfplay, range, &|_| {}).unwrap()
    };
    // Too few games for an iteration.
    let short = merge_parts(
        train::selfplay_games(&config, 1, 0, 2),
        vec![play(0, 2)],
        1.0,
    );
    let err = learner.train(short.unwrap()).unwrap_err().to_string();
    assert_eq!(
        err,
        format!("iteration 1 needs {count} self-play games, not 2")
    );
    assert!(
        learner.commit(None).is_err(),
        "nothing is trained to commit"
    );
    let whole = merge_parts(learner.games(0, count), vec![play(0, count)], 1.0).unwrap();
    learner.train(whole.clone()).unwrap();
    let twice = learner.train(whole).unwrap_err().to_string();
    assert_eq!(
        twice,
        "iteration 1 is trained already and waits for its commit"
    );
    let report = learner.commit(None).unwrap();
    assert_eq!((report.iteration, learner.meta().iteration), (1, 1));
    assert_eq!(learner.next_iteration(), 2);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn opening_a_run_resumes_the_same_config_and_refuses_another() {
    let dir = tmp("open");
    let config = smoke(&dir);
    let opts = RunOptions {
        max_new_iterations: Some(1),
        ..quiet()
    };
    train::train_run(&train::RunSource::given(config.clone()), &opts).unwrap();
    let learner = Learner::open_run(&train::RunSource::given(config.clone()), &quiet()).unwrap();
    assert_eq!(learner.next_iteration(), 2);
    drop(learner);
    let other = TrainConfig {
        seed: config.seed + 1,
        ..config.clone()
    };
    let err = Learner::open_run(&train::RunSource::given(other), &quiet())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("already holds a run of another config"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_second_learner_on_a_run_in_use_is_refused_until_the_first_is_dropped() {
    let dir = tmp("locked");
    let config = smoke(&dir);
    let first = Learner::open_run(&train::RunSource::given(config.clone()), &quiet()).unwrap();
    let lock = dir.join(train::LOCK_FILE);
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap().trim(),
        std::process::id().to_string()
    );
    let in_use = format!("in use by process {}", std::process::id());
    let err = Learner::open_run(&train::RunSource::given(config.clone()), &quiet())
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains(&in_use), "{err}");
    drop(first);
    assert!(!lock.exists(), "dropping the learner removes its lock");
    let again = Learner::open_run(&train::RunSource::given(config), &quiet()).unwrap();
    assert_eq!(again.next_iteration(), 1);
    drop(again);
    std::fs::remove_dir_all(dir).ok();
}

/// `Learner::open_run`, the one door every driver opens a run through: a resumed run keeps its
/// own config (no overrides), and `extend_to` raises a resumed run's iterations before it opens.
#[test]
fn a_run_source_resumes_without_overrides_and_extends_first() {
    let dir = tmp("source");
    let config = smoke(&dir);
    let opts = RunOptions {
        max_new_iterations: Some(1),
        ..quiet()
    };
    train::train_run(&train::RunSource::given(config.clone()), &opts).unwrap();
    let resume = train::RunSource {
        resume: Some(dir.clone()),
        ..train::RunSource::default()
    };
    for overrides in [
        train::RunSource {
            seed: Some(7),
            ..resume.clone()
        },
        train::RunSource {
            run_dir: Some("elsewhere".into()),
            ..resume.clone()
        },
    ] {
        let err = Learner::open_run(&overrides, &quiet()).err().unwrap();
        assert!(err.to_string().contains("keeps its own config"), "{err}");
    }
    let extended = train::RunSource {
        extend_to: Some(config.iterations + 1),
        ..resume
    };
    let learner = Learner::open_run(&extended, &quiet()).unwrap();
    assert_eq!(learner.config().iterations, config.iterations + 1);
    assert_eq!(learner.next_iteration(), 2);
    drop(learner);
    std::fs::remove_dir_all(dir).ok();
}
