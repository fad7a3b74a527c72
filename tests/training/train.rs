//! Training end to end: the smoke config, resuming, determinism, checkpoints, learning.
#![cfg(feature = "ml")]

use crate::common;
use bao_zero::bench::synthetic_batch;
use bao_zero::nn::Sample;
use bao_zero::nn::{Compute, NetConfig, NetInference, NetKind, Trainer};
use bao_zero::selfplay::ReplayBuffer;
use bao_zero::train::{self, RunOptions, TrainConfig};
use std::path::PathBuf;

fn smoke(run_dir: &str) -> TrainConfig {
    common::smoke(std::path::Path::new(run_dir))
}

fn tmp(name: &str) -> PathBuf {
    common::fresh_dir("train", name)
}

fn cfg_net() -> NetConfig {
    smoke("unused").net.shape
}

fn quiet() -> RunOptions {
    RunOptions {
        quiet: true,
        ..RunOptions::default()
    }
}

#[test]
fn a_few_training_steps_on_a_fixed_batch_lower_the_loss() {
    for kind in [NetKind::Mlp, NetKind::Resnet] {
        let cfg = NetConfig {
            kind,
            hidden: vec![64],
            blocks: 1,
            channels: 8,
        };
        let mut t = Trainer::new(&cfg, Compute::Cpu, 0.0, 3).unwrap();
        let batch = synthetic_batch(64);
        let first = t.step(&batch, 3e-3).unwrap().total;
        let mut last = first;
        for _ in 0..30 {
            last = t.step(&batch, 3e-3).unwrap().total;
        }
        assert!(last < 0.8 * first, "{kind:?}: loss {first} -> {last}");
    }
}

/// A network of an older run that trained a margin head: `[net] kind = "mlp"`, `hidden = [8]`.
const MARGIN_HEAD_NET: &[u8] = include_bytes!("../fixtures/margin-head-net.bpk");

#[test]
fn a_network_trained_with_a_margin_head_loads_for_play_and_to_train_on_without_it() {
    let cfg = NetConfig {
        hidden: vec![8],
        ..NetConfig::default()
    };
    let net = bao_zero::nn::load_net_bytes(&cfg, &bao_zero::nn::device(), MARGIN_HEAD_NET)
        .expect("the margin head's weights are left aside");
    let batch = synthetic_batch(64);
    let (priors, values) = NetInference::new(net).forward(&batch.obs, &batch.masks, batch.size);
    assert!(priors.iter().chain(&values).all(|x| x.is_finite()));
    let t = Trainer::from_weights(&cfg, Compute::Cpu, 0.0, MARGIN_HEAD_NET).unwrap();
    assert_eq!(
        NetInference::new(t.snapshot()).forward(&batch.obs, &batch.masks, batch.size),
        (priors, values)
    );
}

#[test]
fn an_older_runs_config_resumes_with_the_margin_head_off_and_is_refused_with_it_on() {
    let stored = toml::to_string(&smoke("unused")).unwrap();
    let with = |net: &str, optim: &str| {
        stored
            .replace("[net]\n", &format!("[net]\n{net}"))
            .replace("[optim]\n", &format!("[optim]\n{optim}"))
    };
    let dir = tmp("old-config");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("config.toml");
    for (net, optim) in [
        ("", "margin_weight = 1.0\n"),
        ("margin_head = false\n", "margin_weight = 0.5\n"),
    ] {
        std::fs::write(&path, with(net, optim)).unwrap();
        let cfg = TrainConfig::load(&path).unwrap();
        assert_eq!(cfg.net, smoke("unused").net);
        // Written again, the config names neither key.
        let text = toml::to_string(&cfg).unwrap();
        assert!(!text.contains("margin"), "{text}");
    }
    std::fs::write(&path, with("margin_head = true\n", "")).unwrap();
    let err = format!("{:#}", TrainConfig::load(&path).unwrap_err());
    assert!(err.contains("net.margin_head = true"), "{err}");
    assert!(!err.contains('\n'), "{err}");
    // The whole run is refused with that line when resumed.
    let run = tmp("old-run");
    train::train_run(
        &train::RunSource::given(smoke(run.to_str().unwrap())),
        &quiet_one(),
    )
    .unwrap();
    std::fs::write(
        run.join("config.toml"),
        with("margin_head = true\n", "")
            .replace("\"unused\"", &format!("{:?}", run.to_str().unwrap())),
    )
    .unwrap();
    let err = format!(
        "{:#}",
        train::train_run(&train::RunSource::resume(&run), &quiet()).unwrap_err()
    );
    assert!(err.contains("net.margin_head = true"), "{err}");
    std::fs::write(
        run.join("config.toml"),
        with("margin_head = false\n", "margin_weight = 1.0\n")
            .replace("\"unused\"", &format!("{:?}", run.to_str().unwrap())),
    )
    .unwrap();
    assert_eq!(
        train::train_run(&train::RunSource::resume(&run), &quiet())
            .unwrap()
            .iteration,
        2
    );
    std::fs::remove_dir_all(dir).ok();
    std::fs::remove_dir_all(run).ok();
}

fn quiet_one() -> RunOptions {
    RunOptions {
        max_new_iterations: Some(1),
        ..quiet()
    }
}

#[test]
fn save_and_load_give_identical_outputs_and_bad_files_are_errors() {
    let cfg = NetConfig {
        hidden: vec![32],
        ..NetConfig::default()
    };
    let mut t = Trainer::new(&cfg, Compute::Cpu, 1e-4, 5).unwrap();
    let batch = synthetic_batch(64);
    t.step(&batch, 1e-3).unwrap();
    let dir = tmp("ckpt");
    t.save(&dir).unwrap();
    let back = Trainer::load(&cfg, Compute::Cpu, 1e-4, &dir).unwrap();
    let (a, b) = (
        NetInference::new(t.snapshot()),
        NetInference::new(back.snapshot()),
    );
    assert_eq!(
        a.forward(&batch.obs, &batch.masks, batch.size),
        b.forward(&batch.obs, &batch.masks, batch.size)
    );
    // A wrong shape, a truncated file, garbage, a missing file: errors that say so.
    let other = NetConfig {
        hidden: vec![48],
        ..NetConfig::default()
    };
    assert!(Trainer::load(&other, Compute::Cpu, 1e-4, &dir).is_err());
    let model = dir.join("model.bpk");
    let bytes = std::fs::read(&model).unwrap();
    std::fs::write(&model, &bytes[..bytes.len() / 2]).unwrap();
    assert!(Trainer::load(&cfg, Compute::Cpu, 1e-4, &dir).is_err());
    std::fs::write(&model, b"not a network").unwrap();
    assert!(Trainer::load(&cfg, Compute::Cpu, 1e-4, &dir).is_err());
    std::fs::remove_file(&model).unwrap();
    let err = Trainer::load(&cfg, Compute::Cpu, 1e-4, &dir)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("does not exist"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_smoke_run_ends_and_beats_random_and_resuming_continues_where_it_stopped() {
    // Whole run in one go.
    let whole = tmp("whole");
    let meta = train::train_run(
        &train::RunSource::given(smoke(whole.to_str().unwrap())),
        &quiet(),
    )
    .unwrap();
    check_whole_run(&whole, &meta);
    // The same run stopped after one iteration and resumed.
    let parts = tmp("parts");
    let opts = RunOptions {
        max_new_iterations: Some(1),
        ..quiet()
    };
    let first = train::train_run(
        &train::RunSource::given(smoke(parts.to_str().unwrap())),
        &opts,
    )
    .unwrap();
    assert_eq!(first.iteration, 1);
    let replay_after_one = ReplayBuffer::load(&parts.join("replay-0001.bin")).unwrap();
    assert!(!replay_after_one.is_empty());
    let resumed = train::train_run(&train::RunSource::resume(&parts), &quiet()).unwrap();
    assert_eq!(resumed.iteration, 2);
    // The resumed replay buffer starts with exactly the first iteration's samples, and the
    // resumed run made the same games as the uninterrupted one.
    let replay = ReplayBuffer::load(&parts.join("replay-0002.bin")).unwrap();
    assert!(
        !parts.join("replay-0001.bin").exists(),
        "older replay files are deleted"
    );
    let whole_replay = ReplayBuffer::load(&whole.join("replay-0002.bin")).unwrap();
    let head: Vec<_> = replay.iter().take(replay_after_one.len()).collect();
    assert_eq!(head, replay_after_one.iter().collect::<Vec<_>>());
    assert_eq!(replay.len(), whole_replay.len());
    assert_eq!(resumed.games, meta.games);
    // Resuming a non-run is an error.
    assert!(train::train_run(&train::RunSource::resume(tmp("nothing")), &quiet()).is_err());
    // The metrics file has one line per iteration.
    let metrics = std::fs::read_to_string(parts.join("metrics.jsonl")).unwrap();
    assert_eq!(metrics.lines().count(), 2);
    // Each invocation logged into an event file of its own (no file erased by the next).
    let events = std::fs::read_dir(parts.join("tb")).unwrap().count();
    assert_eq!(events, 2, "one TensorBoard event file per invocation");
    check_finished_run_resumes_and_extends(&parts, &resumed);
    std::fs::remove_dir_all(whole).ok();
    std::fs::remove_dir_all(parts).ok();
}

/// The whole smoke run: two iterations, holding its own against random, its charts drawn and its
/// evaluation games recorded as `bao serve --run` lists and replays them.
fn check_whole_run(whole: &std::path::Path, meta: &train::Meta) {
    assert_eq!(meta.iteration, 2);
    let random = meta.eval.iter().find(|e| e.opponent == "random").unwrap();
    // Two tiny iterations teach little; the search on top of the network must still hold its own.
    assert!(random.score >= 0.5, "smoke run vs random: {random:?}");
    // Each evaluation drew the charts and recorded its games, which `bao serve --run` lists
    // and replays.
    let png = std::fs::read(whole.join("plots/eval_elo.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.len() > 5_000, "{} bytes", png.len());
    let run = bao_zero::serve::run::RunInfo::read(whole).unwrap();
    let games = run.list();
    assert_eq!(
        games.len(),
        meta.eval.iter().map(|e| e.games).sum::<usize>()
    );
    assert_eq!(games[0].iteration, 2);
    let record = run.record(&games[0].file, games[0].game).unwrap();
    let (variant, _, _, moves) = bao_zero::serve::load::read_game(&record, "hus").unwrap();
    assert_eq!(variant, meta.variant);
    assert!(!moves.is_empty());
}

/// A finished run resumes as a no-op and can be extended; the same config over it resumes it,
/// another is refused.
fn check_finished_run_resumes_and_extends(parts: &std::path::Path, resumed: &train::Meta) {
    // A finished run resumes as a no-op, and can be extended.
    assert_eq!(
        train::train_run(&train::RunSource::resume(parts), &quiet())
            .unwrap()
            .iteration,
        2
    );
    // The same config over its finished run resumes it as a no-op; another config there is
    // refused.
    let again = train::RunSource::given(smoke(parts.to_str().unwrap()));
    assert_eq!(train::train_run(&again, &quiet()).unwrap().iteration, 2);
    let mut other = smoke(parts.to_str().unwrap());
    other.seed += 1;
    let err = train::train_run(&train::RunSource::given(other), &quiet()).unwrap_err();
    assert!(err.to_string().contains("another config"), "{err}");
    let err = train::extend(parts, 2).unwrap_err().to_string();
    assert!(err.contains("already at iteration 2"), "{err}");
    train::extend(parts, 3).unwrap();
    let extended = train::train_run(&train::RunSource::resume(parts), &quiet()).unwrap();
    assert_eq!(extended.iteration, 3);
    assert!(extended.games > resumed.games);
    let metrics = std::fs::read_to_string(parts.join("metrics.jsonl")).unwrap();
    assert_eq!(metrics.lines().count(), 3);
}

#[test]
fn same_config_and_seed_give_the_same_run_on_one_thread() {
    let run = |name: &str| {
        let dir = tmp(name);
        let mut cfg = smoke(dir.to_str().unwrap());
        cfg.selfplay.threads = 1;
        cfg.eval.every = 0;
        train::train_run(&train::RunSource::given(cfg), &quiet()).unwrap();
        let replay = ReplayBuffer::load(&dir.join("replay-0002.bin")).unwrap();
        let samples: Vec<Sample> = replay.iter().copied().collect();
        // Parameter ids inside the file are random; compare what the network computes.
        let net = Trainer::load(&cfg_net(), Compute::Cpu, 1e-4, &dir.join("iter-0002")).unwrap();
        let batch = synthetic_batch(64);
        let out = NetInference::new(net.snapshot()).forward(&batch.obs, &batch.masks, batch.size);
        std::fs::remove_dir_all(dir).ok();
        (samples, out)
    };
    let (a, b) = (run("det-a"), run("det-b"));
    assert!(a.0 == b.0, "self-play samples differ");
    assert!(a.1 == b.1, "trained networks differ");
}

#[test]
fn every_config_the_repository_ships_loads_and_names_its_own_run_directory() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("configs");
    let mut run_dirs = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let cfg = TrainConfig::load(&path).unwrap_or_else(|e| panic!("{e:#}"));
            // Two configs writing one run directory would resume each other's runs.
            assert!(
                run_dirs.insert(cfg.run_dir.clone()),
                "{} shares its run directory {}",
                path.display(),
                cfg.run_dir
            );
        }
    }
    assert!(run_dirs.len() >= 14, "{run_dirs:?}");
}
