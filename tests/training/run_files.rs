//! The files `bao` reads and writes, against careless users and damaged disks: every read is
//! bounded, no write replaces anything but a regular file, one process at a time writes a
//! training run, and a run's checkpoints are checked when they load.
#![cfg(all(feature = "ml", unix))]

use crate::common::{self, bao, one_line_error};
use bao_zero::nn::{Compute, Trainer};
use bao_zero::train::{RunDir, TrainConfig};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn tmp(name: &str) -> PathBuf {
    let dir = common::fresh_dir("files", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn reading_dev_zero_or_a_huge_file_as_any_file_is_a_quick_one_line_error() {
    let dir = tmp("zero");
    // A sparse file: huge, yet it takes no room.
    let huge = dir.join("huge.toml");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    let out = dir.join("p.bao");
    for file in ["/dev/zero", s(&huge)] {
        let weights = format!("ab:weights={file}");
        let player = format!("player:{file}");
        let checkpoint = format!("mcts:checkpoint={file}");
        let commands: [&[&str]; 6] = [
            &["train", "--quiet", "--config", file],
            &["show", "--rules", file],
            &["eval", "-q", "-n", "2", "--a", &weights, "--b", "random"],
            &["eval", "-q", "-n", "2", "--a", &player, "--b", "random"],
            &["eval", "-q", "-n", "2", "--a", &checkpoint, "--b", "random"],
            &["export", "--player", file, "--out", s(&out)],
        ];
        for args in commands {
            let started = Instant::now();
            let err = one_line_error(args);
            assert!(err.contains(file), "{args:?}: {err}");
            assert!(
                err.contains("is a device") || err.contains("is larger than"),
                "{args:?}: {err}"
            );
            assert!(started.elapsed() < Duration::from_secs(10), "{args:?}");
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Makes a FIFO at `path`.
fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

#[test]
fn output_paths_that_are_links_or_fifos_are_refused_and_stay_as_they_were() {
    let dir = tmp("outputs");
    let target = dir.join("target.txt");
    std::fs::write(&target, "keep me").unwrap();
    let link = dir.join("link.svg");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let fifo = dir.join("fifo.svg");
    mkfifo(&fifo);
    let player = dir.join("player.bao");
    let shipped = "checkpoints/shipped/kiswahili.bao";
    for out in [&link, &fifo] {
        let err = one_line_error(&["show", "--svg", s(out)]);
        assert!(err.contains("refusing to write over it"), "{err}");
        let err = one_line_error(&["export", "--player", shipped, "--out", s(out)]);
        assert!(err.contains("refusing to write over it"), "{err}");
        let err = one_line_error(&["show", "--svg", s(&dir.join("link.svg/below.svg"))]);
        assert!(err.contains("not a folder"), "{err}");
    }
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    // A regular file is replaced, as asked.
    std::fs::write(&player, "old").unwrap();
    let out = bao(&["export", "--player", shipped, "--out", s(&player)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::metadata(&player).unwrap().len() > 1000);
    std::fs::remove_dir_all(dir).ok();
}

/// The smoke config, one thread, in `run`, written to `file`.
fn smoke_config(run: &Path, file: &Path, iterations: u32) {
    let mut cfg = common::smoke(run);
    cfg.iterations = iterations;
    cfg.selfplay.threads = 1;
    std::fs::write(file, toml::to_string(&cfg).unwrap()).unwrap();
}

/// A finished smoke run of one iteration in `DIR/run`, and its config file.
fn one_iteration_run(dir: &Path) -> (PathBuf, PathBuf) {
    let (run, config) = (dir.join("run"), dir.join("config.toml"));
    smoke_config(&run, &config, 1);
    let out = bao(&["train", "--quiet", "--config", s(&config)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!run.join("lock").exists(), "the lock goes with its run");
    (run, config)
}

#[test]
fn a_second_train_on_a_running_run_is_refused_and_a_stale_lock_taken_over() {
    let dir = tmp("lock");
    let (run, config) = one_iteration_run(&dir);
    // A live process holds the lock: a run that is running.
    let mut holder = Command::new("sleep").arg("60").spawn().unwrap();
    std::fs::write(run.join("lock"), format!("{}\n", holder.id())).unwrap();
    let named = format!("in use by process {}", holder.id());
    for args in [
        &["train", "--quiet", "--resume", s(&run)][..],
        &["train", "--quiet", "--config", s(&config)],
        &["train", "--quiet", "--resume", s(&run), "--extend-to", "3"],
    ] {
        let err = one_line_error(args);
        assert!(err.contains(&named), "{args:?}: {err}");
    }
    assert_eq!(RunDir::new(&run).read_meta().unwrap().iteration, 1);
    // Killed with SIGKILL, it leaves its lock behind: the next run takes it over.
    holder.kill().unwrap();
    holder.wait().unwrap();
    let out = bao(&["train", "--quiet", "--resume", s(&run), "--extend-to", "2"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("warning: taking over the stale lock"), "{err}");
    assert!(err.contains("no longer running"), "{err}");
    assert_eq!(RunDir::new(&run).read_meta().unwrap().iteration, 2);
    assert!(!run.join("lock").exists());
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_real_second_train_is_refused_while_the_first_runs() {
    let dir = tmp("two");
    let (run, config) = (dir.join("run"), dir.join("config.toml"));
    smoke_config(&run, &config, 50);
    let mut first = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(["train", "--quiet", "--config", s(&config)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !run.join("lock").exists() {
        assert!(started.elapsed() < Duration::from_secs(30), "no lock made");
        std::thread::sleep(Duration::from_millis(5));
    }
    let err = one_line_error(&["train", "--quiet", "--config", s(&config)]);
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(
        err.contains(&format!("in use by process {}", first.id())),
        "{err}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn resuming_without_the_replay_buffer_is_refused() {
    let dir = tmp("replay");
    let (run, _) = one_iteration_run(&dir);
    std::fs::remove_file(RunDir::new(&run).replay(1)).unwrap();
    let err = one_line_error(&["train", "--quiet", "--resume", s(&run), "--extend-to", "2"]);
    assert!(err.contains("no replay buffer for iteration 1"), "{err}");
    assert!(err.contains("replay-0001.bin is missing"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn damaged_checkpoint_weights_are_refused_at_load_and_old_ones_without_checksums_load() {
    let dir = tmp("checksum");
    let (run, _) = one_iteration_run(&dir);
    let cfg = TrainConfig::load(&RunDir::new(&run).config()).unwrap();
    let iter = RunDir::new(&run).iteration(1);
    let sums = std::fs::read_to_string(iter.join("checksums")).unwrap();
    assert!(
        sums.contains("  model.bpk\n") && sums.contains("  optim.bpk\n"),
        "{sums}"
    );
    let load =
        || Trainer::load(&cfg.net.shape, Compute::Cpu, cfg.optim.weight_decay, &iter).map(|_| ());
    load().unwrap();
    for file in ["model.bpk", "optim.bpk"] {
        let path = iter.join(file);
        let good = std::fs::read(&path).unwrap();
        let mut bad = good.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        let err = format!("{:#}", load().unwrap_err());
        assert!(err.contains("does not match its checksum"), "{file}: {err}");
        let out = dir.join("p.bao");
        let args = ["export", "--checkpoint", s(&run), "--out", s(&out)];
        if file == "model.bpk" {
            let err = one_line_error(&args);
            assert!(err.contains("does not match its checksum"), "{err}");
            assert!(!out.exists());
        }
        std::fs::write(&path, &good).unwrap();
    }
    // A run written before checksums has none: it loads as it is.
    std::fs::remove_file(iter.join("checksums")).unwrap();
    load().unwrap();
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_damaged_meta_json_or_config_toml_is_refused_and_an_edit_kept_by_deleting_the_checksum_line() {
    let dir = tmp("run-sums");
    let (run, _) = one_iteration_run(&dir);
    let (meta, config) = (run.join("meta.json"), run.join("config.toml"));
    let (meta_good, config_good) = (
        std::fs::read_to_string(&meta).unwrap(),
        std::fs::read_to_string(&config).unwrap(),
    );
    assert!(meta_good.contains("\"checksum\""), "{meta_good}");
    assert!(config_good.starts_with("# fnv1a "), "{config_good}");
    let resume = ["train", "--resume", s(&run), "--extend-to", "2"];
    // A value changed that still parses: only the checksum can tell.
    let meta_bad = meta_good.replacen("\"iteration\": 1", "\"iteration\": 7", 1);
    assert_ne!(meta_bad, meta_good);
    std::fs::write(&meta, &meta_bad).unwrap();
    let err = one_line_error(&resume);
    assert!(
        err.contains("meta.json does not match its checksum"),
        "{err}"
    );
    std::fs::write(&meta, &meta_good).unwrap();
    let config_bad = config_good.replacen("\niterations = 1\n", "\niterations = 9\n", 1);
    assert_ne!(config_bad, config_good);
    std::fs::write(&config, &config_bad).unwrap();
    let err = one_line_error(&resume);
    assert!(
        err.contains("config.toml does not match its checksum"),
        "{err}"
    );
    let player = dir.join("p.bao");
    let export = ["export", "--checkpoint", s(&run), "--out", s(&player)];
    let err = one_line_error(&export);
    assert!(
        err.contains("config.toml does not match its checksum"),
        "{err}"
    );
    // Without its checksum line the edit is the user's: the run reads it.
    let (_, edited) = config_bad.split_once('\n').unwrap();
    std::fs::write(&config, edited).unwrap();
    let cfg = RunDir::new(&run).read_config().unwrap();
    assert_eq!(cfg.iterations, 9);
    // A meta.json written before checksums loads as it is.
    let old: String = meta_good
        .lines()
        .filter(|l| !l.contains("\"checksum\""))
        .collect::<Vec<_>>()
        .join("\n")
        .replace(",\n}", "\n}");
    std::fs::write(&meta, old).unwrap();
    assert_eq!(RunDir::new(&run).read_meta().unwrap().iteration, 1);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn truncated_checkpoint_files_without_checksums_are_named_in_words_not_debug_text() {
    let dir = tmp("truncated");
    let (run, _) = one_iteration_run(&dir);
    let cfg = TrainConfig::load(&RunDir::new(&run).config()).unwrap();
    let iter = RunDir::new(&run).iteration(1);
    // A run written before checksums: only the file's own format can tell the damage.
    std::fs::remove_file(iter.join("checksums")).unwrap();
    for (file, says) in [
        (
            "model.bpk",
            "the network is damaged or does not match the config's mlp ",
        ),
        ("optim.bpk", "damaged or not an optimizer state"),
    ] {
        let path = iter.join(file);
        let good = std::fs::read(&path).unwrap();
        std::fs::write(&path, &good[..good.len() / 2]).unwrap();
        let err = format!(
            "{:#}",
            Trainer::load(&cfg.net.shape, Compute::Cpu, cfg.optim.weight_decay, &iter)
                .map(|_| ())
                .unwrap_err()
        );
        assert!(err.contains(says), "{file}: {err}");
        assert!(!err.contains("Io(") && !err.contains('\n'), "{file}: {err}");
        std::fs::write(&path, &good).unwrap();
    }
    std::fs::remove_dir_all(dir).ok();
}

/// `bytes` with every stored copy of the float `from` replaced by `to`.
fn replace_float(bytes: &[u8], from: f32, to: f32) -> Vec<u8> {
    let (from, to) = (from.to_le_bytes(), to.to_le_bytes());
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i + 4 <= out.len() {
        if out[i..i + 4] == from {
            out[i..i + 4].copy_from_slice(&to);
            i += 4;
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn weights_that_are_nan_infinite_or_huge_are_refused_at_load_and_at_export() {
    let dir = tmp("nan");
    let (run, _) = one_iteration_run(&dir);
    let cfg = TrainConfig::load(&RunDir::new(&run).config()).unwrap();
    let iter = RunDir::new(&run).iteration(1);
    let model = iter.join("model.bpk");
    let good = std::fs::read(&model).unwrap();
    let tensors = bao_zero::nn::network_tensors(&good).unwrap();
    let weight = tensors
        .values()
        .flat_map(|(_, v)| v.iter().copied())
        .find(|w| w.abs() > 1e-3)
        .unwrap();
    // Without the checksums file the damage is not seen as such: the weights check catches it.
    std::fs::remove_file(iter.join("checksums")).unwrap();
    for garbage in [f32::NAN, f32::INFINITY, -1e30] {
        std::fs::write(&model, replace_float(&good, weight, garbage)).unwrap();
        let err = format!(
            "{:#}",
            Trainer::load(&cfg.net.shape, Compute::Cpu, cfg.optim.weight_decay, &iter)
                .map(|_| ())
                .unwrap_err()
        );
        assert!(
            err.contains("weights must be finite numbers"),
            "{garbage}: {err}"
        );
        let out = dir.join("p.bao");
        let err = one_line_error(&["export", "--checkpoint", s(&run), "--out", s(&out)]);
        assert!(
            err.contains("weights must be finite numbers"),
            "{garbage}: {err}"
        );
        assert!(!out.exists());
    }
    std::fs::remove_dir_all(dir).ok();
}
