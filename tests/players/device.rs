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
    let on_gpu = common::SMOKE.replace("[net]\n", "[net]\ndevice = \"gpu\"\n");
    let cfg: TrainConfig = toml::from_str(&on_gpu).unwrap();
    let on_cpu: TrainConfig = toml::from_str(common::SMOKE).unwrap();
    assert_eq!(cfg.net.device, Compute::Gpu);
    assert_eq!(cfg.net.shape, on_cpu.net.shape);
    assert!(cfg.same_run(&on_cpu), "the device is not part of the run");
    assert!(toml::to_string(&cfg).unwrap().contains("device = \"gpu\""));
    let text = toml::to_string(&on_cpu).unwrap();
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
fn a_networks_shape_alone_refuses_a_device_saying_where_it_belongs() {
    let err = toml::from_str::<NetConfig>("kind = \"mlp\"\ndevice = \"gpu\"\n")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("not a part of a network's shape") && err.contains("[net] table"),
        "{err}"
    );
    let text = toml::to_string(&NetConfig::default()).unwrap();
    assert!(!text.contains("device"), "{text}");
}

#[test]
fn a_player_file_whose_header_names_a_device_loads_on_the_cpu() {
    let file = bao_zero::player_file::shipped_player("kiswahili").unwrap();
    let bundle = Bundle::read(&file).unwrap();
    let mut header = serde_json::to_value(&bundle.header).unwrap();
    header["net"]["device"] = serde_json::json!("gpu");
    let header = serde_json::to_vec(&header).unwrap();
    let bytes = crate::export::framed(3, &header, &bundle.weights);
    let back = Bundle::from_bytes(&bytes).unwrap();
    assert_eq!(back.header.net, bundle.header.net);
}

#[test]
fn a_run_configured_for_the_gpu_trains_on_the_cpu_when_told_and_its_player_is_device_free() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let mut cfg = smoke(&run);
    cfg.net.device = Compute::Gpu;
    train::train_run(&train::RunSource::given(cfg.clone()), &on_cpu()).unwrap();
    // The same config on the CPU is the same run: it resumes, with nothing left to train.
    cfg.net.device = Compute::Cpu;
    let meta = train::train_run(&train::RunSource::given(cfg.clone()), &on_cpu()).unwrap();
    assert_eq!(meta.iteration, 1);
    // The run keeps its config as given; the device of one invocation is not written.
    let stored = std::fs::read_to_string(run.join("config.toml")).unwrap();
    assert!(stored.contains("device = \"gpu\""), "{stored}");
    let player = bao_zero::export::from_run(&run, None, None).unwrap();
    let file = dir.path().join("p.bao");
    player.write(&file).unwrap();
    let back = Bundle::read(&file).unwrap();
    assert_eq!(back.header.net, cfg.net.shape);
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
