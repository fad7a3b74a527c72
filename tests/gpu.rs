//! The GPU backend (feature `gpu`: burn's wgpu) against the CPU's `flex`: the same weights give
//! the same losses, training steps and outputs, within float tolerance. CI runs it over Mesa's
//! software Vulkan driver (lavapipe), so it needs no GPU:
//! `cargo test --release --features gpu --test gpu`.
#![cfg(feature = "gpu")]

use bao_zero::bench::synthetic_batch;
use bao_zero::nn::{Compute, FastMlp, NetConfig, NetInference, NetKind, NetWeights, Trainer};
use bao_zero::player_file::{Bundle, shipped_player};

/// Relative tolerance between the two backends: their float sums run in other orders.
const TOLERANCE: f32 = 2e-3;

/// The GPU, or `None` (with a loud line) on a machine without one outside CI.
fn gpu_or_skip() -> Option<()> {
    match Compute::Gpu.device() {
        Ok(_) => Some(()),
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!(
                "!!! SKIPPED: the GPU tests found no adapter ({e}); install mesa-vulkan-drivers"
            );
            None
        }
        Err(e) => panic!("CI needs a GPU adapter (mesa-vulkan-drivers gives lavapipe): {e}"),
    }
}

fn nets() -> Vec<NetConfig> {
    vec![
        NetConfig {
            hidden: vec![64, 32],
            ..NetConfig::default()
        },
        NetConfig {
            kind: NetKind::Resnet,
            blocks: 2,
            channels: 16,
            ..NetConfig::default()
        },
    ]
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= f64::from(TOLERANCE) * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn training_steps_on_the_gpu_follow_the_cpus_from_the_same_weights() {
    if gpu_or_skip().is_none() {
        return;
    }
    let data = synthetic_batch(64);
    for net in nets() {
        let start = Trainer::new(&net, Compute::Cpu, 1e-4, 7)
            .unwrap()
            .weights(0)
            .unwrap();
        let start = start.to_bytes().unwrap();
        let mut cpu = Trainer::from_weights(&net, Compute::Cpu, 1e-4, &start).unwrap();
        let mut gpu = Trainer::from_weights(&net, Compute::Gpu, 1e-4, &start).unwrap();
        for step in 0..3 {
            let (a, b) = (
                cpu.step(&data, 1e-3).unwrap(),
                gpu.step(&data, 1e-3).unwrap(),
            );
            assert!(
                close(a.total, b.total) && close(a.policy, b.policy) && close(a.value, b.value),
                "{:?} step {step}: cpu {a:?}, gpu {b:?}",
                net.kind
            );
        }
        // The weights it trained are bytes like any others: they load on the CPU.
        let trained = gpu.weights(3).unwrap().to_bytes().unwrap();
        NetWeights::from_bytes(&net, Compute::Cpu, &trained, 3).unwrap();
    }
}

#[test]
fn batched_evaluation_on_the_gpu_gives_the_cpus_outputs() {
    if gpu_or_skip().is_none() {
        return;
    }
    let data = synthetic_batch(256);
    for net in nets() {
        let weights = Trainer::new(&net, Compute::Cpu, 0.0, 11)
            .unwrap()
            .weights(0)
            .unwrap();
        let weights = weights.to_bytes().unwrap();
        let run = |device| {
            NetWeights::from_bytes(&net, device, &weights, 0)
                .unwrap()
                .inference()
                .forward(&data.obs, &data.masks, data.size)
        };
        let ((pc, vc), (pg, vg)) = (run(Compute::Cpu), run(Compute::Gpu));
        assert_eq!((pc.len(), vc.len()), (pg.len(), vg.len()));
        let worst = pc
            .iter()
            .zip(&pg)
            .chain(vc.iter().zip(&vg))
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(
            worst <= TOLERANCE,
            "{:?}: largest difference {worst}",
            net.kind
        );
    }
}

/// Asserts that `eval` takes the MLP's fast CPU path and that its outputs are that path's, bit
/// for bit.
fn assert_fast_mlp(eval: &NetInference, what: &str) {
    assert!(
        eval.uses_fast_mlp(),
        "{what} does not take the fast MLP path"
    );
    let weights = eval.net().mlp_weights().expect("an MLP's weights");
    let fast = FastMlp::new(&weights).expect("the MLP in its fast form");
    let data = synthetic_batch(16);
    assert_eq!(
        eval.forward(&data.obs, &data.masks, data.size),
        fast.forward(&data.obs, &data.masks, data.size),
        "{what} computes other outputs than the fast MLP path"
    );
}

/// The `gpu` feature costs CPU play nothing: a network player of this build evaluates through
/// the fast MLP path as the default build's does (burn's forward pass is several times slower
/// at play's small batches), and an MLP on the GPU keeps that path too.
#[test]
fn network_players_of_the_gpu_build_take_the_fast_mlp_path_of_the_default_build() {
    let file = shipped_player("kiswahili").expect("the shipped Kiswahili player");
    let bundle = Bundle::read(&file).unwrap();
    assert_eq!(bundle.header.net.kind, NetKind::Mlp, "the shipped player");
    assert_fast_mlp(&bundle.inference().unwrap(), "the shipped player");
    let net = NetConfig::default();
    let weights = Trainer::new(&net, Compute::Cpu, 0.0, 5)
        .unwrap()
        .weights(0)
        .unwrap();
    assert_fast_mlp(weights.inference(), "an MLP on the CPU");
    if gpu_or_skip().is_some() {
        let bytes = weights.to_bytes().unwrap();
        let on_gpu = NetWeights::from_bytes(&net, Compute::Gpu, &bytes, 0).unwrap();
        assert_fast_mlp(on_gpu.inference(), "an MLP on the GPU");
    }
}
