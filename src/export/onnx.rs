//! A player's network alone as an ONNX model, for onnxruntime and other ONNX tools.
//!
//! The model has one input and two outputs, in this order (the names are the ones burn-onnx's
//! exporter writes; read them from the model, e.g. `session.get_inputs()[0].name`):
//!
//! | | shape | meaning |
//! | --- | --- | --- |
//! | input 0 | `[batch, 27, 4, 8]` float32, batch dynamic | the observation of `env::observation::encode` (channels in `docs/ENV.md`), from the mover's side |
//! | output 0 | `[batch, 64]` float32 | policy logits over the 64 actions of `env::action`, **not** masked: set illegal actions to -inf (the legal mask of the environment) before a softmax |
//! | output 1 | `[batch, 1]` float32 | the value in [-1, 1] for the player to move |
//!
//! The export goes through burn-onnx's experimental forward-capture exporter; an operation it
//! cannot lower is an error, not a panic.

use super::Bundle;
use crate::env::{ACTIONS, OBS_CHANNELS, OBS_LEN, encode};
use crate::nn::PolicyValueNet;
use crate::rules::{MoveList, Position};
use anyhow::Context;
use burn::tensor::{Tensor, TensorData};
use burn_onnx::export::{AxisSpec, InputSpec, OnnxExporter};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::path::Path;

/// The network as ONNX bytes, with a dynamic batch axis.
pub fn onnx_bytes(bundle: &Bundle) -> anyhow::Result<Vec<u8>> {
    let net = network(bundle)?;
    let dev = crate::nn::device();
    let sample = |batch: usize| Tensor::<4>::zeros([batch, OBS_CHANNELS, 4, 8], &dev);
    let specs = [InputSpec::new([
        AxisSpec::dynamic("batch"),
        AxisSpec::Static,
        AxisSpec::Static,
        AxisSpec::Static,
    ])];
    let model = OnnxExporter::new()
        .export_dynamic(
            &net,
            sample(2),
            sample(3),
            &specs,
            |net: &PolicyValueNet, obs| net.forward(obs),
        )
        .map_err(|e| anyhow::anyhow!("the ONNX exporter failed: {e}"))?;
    Ok(model.into_bytes())
}

/// Writes the ONNX model to `path` atomically.
pub fn write_onnx(bundle: &Bundle, path: &Path) -> anyhow::Result<()> {
    crate::util::write_atomic(path, &onnx_bytes(bundle)?)
}

/// Observations of positions from random play and the network's raw outputs for them, to check
/// an ONNX runtime against burn (`scripts/onnx_check.sh`).
#[derive(Clone, Debug, Serialize)]
pub struct Samples {
    /// `[n, 27, 4, 8]`, flattened.
    pub obs: Vec<f32>,
    /// `[n, 64]`, flattened.
    pub policy_logits: Vec<f32>,
    /// `[n]`.
    pub value: Vec<f32>,
    /// The positions, in the one-line format.
    pub positions: Vec<String>,
}

/// `n` positions met in random games of the player's variant (seeded), with burn's outputs.
pub fn samples(bundle: &Bundle, n: usize, seed: u64) -> anyhow::Result<Samples> {
    let rules = &bundle.header.rules;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list = MoveList::new();
    let mut pos = Position::start(rules);
    let mut positions = Vec::with_capacity(n);
    let mut obs = vec![0.0; n * OBS_LEN];
    while positions.len() < n {
        pos.legal_moves(rules, &mut list);
        if pos.outcome_given(&list).is_some() {
            pos = Position::start(rules);
            continue;
        }
        encode(rules, &pos, &mut obs[positions.len() * OBS_LEN..]);
        positions.push(pos.to_string());
        pos = list.children()[rng.random_range(0..list.len())];
    }
    let net = network(bundle)?;
    let dev = crate::nn::device();
    let input = Tensor::<4>::from_data(TensorData::new(obs.clone(), [n, OBS_CHANNELS, 4, 8]), &dev);
    let (policy, value) = net.forward(input);
    let read = |t: Tensor<2>| {
        t.into_data()
            .try_to_vec::<f32>()
            .map_err(|e| anyhow::anyhow!("cannot read the network's output: {e:?}"))
    };
    let policy_logits = read(policy)?;
    anyhow::ensure!(
        policy_logits.len() == n * ACTIONS,
        "unexpected policy shape"
    );
    Ok(Samples {
        obs,
        policy_logits,
        value: read(value)?,
        positions,
    })
}

fn network(bundle: &Bundle) -> anyhow::Result<PolicyValueNet> {
    crate::nn::load_net_bytes(&bundle.header.net, &crate::nn::device(), &bundle.weights)
        .context("the player's network does not load")
}
