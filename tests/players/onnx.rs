//! ONNX export of a player's network (`bao export --format onnx`): the file's graph signature and
//! the samples written beside it, for an MLP and a ResNet. The numbers themselves are compared
//! with onnxruntime by `scripts/onnx_check.sh` (Python; not run here).
#![cfg(feature = "ml")]

use bao_zero::env::{ACTIONS, OBS_CHANNELS, OBS_LEN};
use bao_zero::nn::{NetConfig, NetKind, Trainer};
use bao_zero::player_file::{Bundle, Header};
use bao_zero::rules::Variant;
use onnx_ir::{Message, ModelProto};
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("bao-onnx-{}-{name}", std::process::id()))
}

/// An untrained player with a small network of the given kind, built by hand.
fn bundle(kind: NetKind, variant: Variant, name: &str) -> Bundle {
    let net = NetConfig {
        kind,
        hidden: vec![32, 16],
        blocks: 1,
        channels: 8,
    };
    let dir = tmp(name);
    Trainer::new(&net, bao_zero::nn::Compute::Cpu, 0.0, 11)
        .unwrap()
        .save(&dir)
        .unwrap();
    let weights = std::fs::read(dir.join("model.bpk")).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    Bundle {
        header: Header {
            variant: variant.name().to_string(),
            rules: variant.rules(),
            net,
            search: Default::default(),
            sims: 8,
            source: format!("tests/players/onnx.rs {name}"),
            training: Default::default(),
        },
        weights,
    }
}

fn bao(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// A tensor's dimensions: symbolic ones by name, fixed ones as numbers.
fn dims(v: &onnx_ir::ValueInfoProto) -> Vec<String> {
    v.type_
        .tensor_type()
        .shape
        .dim
        .iter()
        .map(|d| {
            if d.has_dim_param() {
                d.dim_param().to_string()
            } else {
                d.dim_value().to_string()
            }
        })
        .collect()
}

fn check_model(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    // A serialized ModelProto starts with its ir_version field (tag 0x08).
    assert_eq!(bytes[0], 0x08);
    for name in [&b"obs"[..], b"policy_logits", b"value", b"batch"] {
        assert!(bytes.windows(name.len()).any(|w| w == name));
    }
    let model = ModelProto::parse_from_bytes(&bytes).unwrap();
    assert_eq!(model.ir_version, 8);
    let graph = model.graph.as_ref().unwrap();
    let names =
        |v: &[onnx_ir::ValueInfoProto]| v.iter().map(|v| v.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&graph.input), ["obs"]);
    assert_eq!(names(&graph.output), ["policy_logits", "value"]);
    assert_eq!(dims(&graph.input[0]), ["batch", "27", "4", "8"]);
    assert_eq!(dims(&graph.output[0]), ["batch", "64"]);
    assert_eq!(dims(&graph.output[1]), ["batch", "1"]);
    // The renamed tensors are wired: a node reads `obs`, nodes write both outputs.
    let read = |n: &str| graph.node.iter().any(|x| x.input.iter().any(|i| i == n));
    let written = |n: &str| graph.node.iter().any(|x| x.output.iter().any(|o| o == n));
    assert!(read("obs") && written("policy_logits") && written("value"));
    // Every tensor a node reads is the input, a weight or another node's output: renaming the
    // boundaries left nothing dangling.
    let known: std::collections::HashSet<&str> = graph
        .input
        .iter()
        .map(|v| v.name.as_str())
        .chain(graph.initializer.iter().map(|t| t.name.as_str()))
        .chain(
            graph
                .node
                .iter()
                .flat_map(|n| n.output.iter().map(String::as_str)),
        )
        .collect();
    for node in &graph.node {
        for i in node.input.iter().filter(|i| !i.is_empty()) {
            assert!(
                known.contains(i.as_str()),
                "node {} reads unknown {i}",
                node.name
            );
        }
    }
    let meta: Vec<_> = model
        .metadata_props
        .iter()
        .map(|e| e.key.as_str())
        .collect();
    assert!(
        meta.contains(&"variant") && meta.contains(&"net"),
        "{meta:?}"
    );
}

#[test]
fn bao_export_writes_an_onnx_model_and_samples_for_an_mlp_and_a_resnet() {
    for (kind, variant, name) in [
        (NetKind::Mlp, Variant::Kiswahili, "mlp"),
        (NetKind::Resnet, Variant::MalawiAdvanced, "resnet"),
    ] {
        let player = tmp(&format!("{name}.bao"));
        bundle(kind, variant, name).write(&player).unwrap();
        let out = tmp(&format!("{name}.onnx"));
        let (ok, text) = bao(&[
            "export",
            "--player",
            player.to_str().unwrap(),
            "--format",
            "onnx",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(ok, "{text}");
        assert!(text.contains("policy_logits"), "{text}");
        check_model(&out);
        assert!(!out.with_extension("onnx.tmp").exists());

        let samples: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.with_extension("samples.json")).unwrap())
                .unwrap();
        let floats = |key: &str| -> Vec<f64> {
            samples[key]
                .as_array()
                .unwrap_or_else(|| panic!("{key} is not an array"))
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        };
        let n = samples["positions"].as_array().unwrap().len();
        assert_eq!(n, 64);
        let obs = floats("obs");
        let policy = floats("policy_logits");
        let value = floats("value");
        assert_eq!(obs.len(), n * OBS_CHANNELS * 4 * 8);
        assert_eq!(policy.len(), n * ACTIONS);
        assert_eq!(value.len(), n);
        assert!(policy.iter().all(|x| x.is_finite()));
        assert!(value.iter().all(|v| (-1.0..=1.0).contains(v)));
        // Positions from random play differ, and so do their observations.
        assert!(obs[..OBS_LEN] != obs[OBS_LEN..2 * OBS_LEN]);
        for f in [player, out.clone(), out.with_extension("samples.json")] {
            std::fs::remove_file(f).ok();
        }
    }
}

#[test]
fn export_errors_name_the_formats_and_the_sources() {
    let player = tmp("err.bao");
    bundle(NetKind::Mlp, Variant::Kiswahili, "err")
        .write(&player)
        .unwrap();
    let p = player.to_str().unwrap();
    let never = tmp("never.onnx");
    let never = never.to_str().unwrap();
    let (ok, text) = bao(&[
        "export", "--player", p, "--format", "tflite", "--out", never,
    ]);
    assert!(
        !ok && text.contains("`bundle`") && text.contains("`onnx`"),
        "{text}"
    );
    let (ok, text) = bao(&["export", "--format", "onnx", "--out", never]);
    assert!(
        !ok && text.contains("--checkpoint") && text.contains("--player"),
        "{text}"
    );
    let (ok, text) = bao(&[
        "export",
        "--player",
        "/nonexistent/p.bao",
        "--format",
        "onnx",
        "--out",
        never,
    ]);
    assert!(!ok && text.contains("/nonexistent/p.bao"), "{text}");
    assert!(!Path::new(never).exists());
    std::fs::remove_file(&player).ok();
}

#[test]
fn samples_are_seeded_and_need_a_position() {
    let b = bundle(NetKind::Resnet, Variant::Kiswahili, "seeded");
    let s1 = bao_zero::export::onnx::samples(&b, 5, 3).unwrap();
    let s2 = bao_zero::export::onnx::samples(&b, 5, 3).unwrap();
    assert_eq!(s1.positions, s2.positions);
    assert_eq!(s1.policy_logits, s2.policy_logits);
    assert_eq!(s1.obs.len(), 5 * OBS_LEN);
    assert!(bao_zero::export::onnx::samples(&b, 0, 3).is_err());
}
