//! The device a run trains on (`[net] device`, `--device`): not part of the run's identity nor of
//! its players, and a one-line error where the build has no GPU.
#![cfg(feature = "ml")]

use crate::common;
use bao_zero::nn::{Compute, NetConfig};
use bao_zero::player_file::Bundle;
use bao_zero::train::{self, RunOptions, TrainConfig};

fn smoke(run_dir: &std::path::Path) -> TrainConfig {
    let mut cfg = common::smoke(run_dir);
    cfg.iterations = 1;
    cfg
}

fn on_cpu() -> RunOptions {
    RunOptions {
        quiet: true,
        device: Some(Compute::Cpu),
        ..RunOptions::default()
    }
}

#[test]
fn the_device_is_read_from_the_net_table_and_is_not_part_of_the_networks_shape() {
    let cfg: TrainConfig =
        toml::from_str(&common::SMOKE.replace("[net]\n", "[net]\ndevice = \"gpu\"\n")).unwrap();
    assert_eq!(cfg.net.device, Compute::Gpu);
    assert_eq!(
        cfg.net,
        NetConfig {
            device: Compute::Cpu,
            ..cfg.net.clone()
        }
    );
    let text = toml::to_string(&NetConfig::default()).unwrap();
    assert!(
        !text.contains("device"),
        "the CPU, the default, is not written: {text}"
    );
    let err = toml::from_str::<TrainConfig>(
        &common::SMOKE.replace("[net]\n", "[net]\ndevice = \"tpu\"\n"),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("tpu"), "{err}");
}

#[test]
fn a_run_configured_for_the_gpu_trains_on_the_cpu_when_told_and_its_player_is_device_free() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let mut cfg = smoke(&run);
    cfg.net.device = Compute::Gpu;
    train::train_run(&train::RunSource::given(cfg), &on_cpu()).unwrap();
    // The run keeps its config as given; the device of one invocation is not written.
    let stored = std::fs::read_to_string(run.join("config.toml")).unwrap();
    assert!(stored.contains("device = \"gpu\""), "{stored}");
    let player = bao_zero::export::from_run(&run, None, None).unwrap();
    assert_eq!(player.header.net.device, Compute::Cpu);
    let file = dir.path().join("p.bao");
    player.write(&file).unwrap();
    let back = Bundle::read(&file).unwrap();
    assert_eq!(back.header.net.device, Compute::Cpu);
    assert!(!String::from_utf8_lossy(&std::fs::read(&file).unwrap()).contains("\"device\""));
}

#[cfg(not(feature = "gpu"))]
#[test]
fn training_on_the_gpu_in_a_build_without_it_is_one_line_naming_the_feature() {
    let dir = tempfile::tempdir().unwrap();
    let opts = RunOptions {
        device: Some(Compute::Gpu),
        ..on_cpu()
    };
    let err = format!(
        "{:#}",
        train::train_run(
            &train::RunSource::given(smoke(&dir.path().join("run"))),
            &opts
        )
        .unwrap_err()
    );
    assert!(
        err.contains("needs a build with the `gpu` feature"),
        "{err}"
    );
    assert!(!err.contains('\n'));
    assert!(
        !dir.path().join("run/meta.json").exists(),
        "nothing of a run is left"
    );
}
