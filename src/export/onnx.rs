//! A player's network alone as an ONNX model, for onnxruntime and other ONNX tools.
//!
//! The model (ONNX IR version 8, opset 18, weights embedded) has one input and two outputs:
//!
//! | name | shape | meaning |
//! | --- | --- | --- |
//! | `obs` (input) | `[batch, 27, 4, 8]` float32, `batch` dynamic | the observation of `env::observation::encode`, from the side to move: 27 channels (described in `docs/ENV.md`) over the 4 rows x 8 columns of the board |
//! | `policy_logits` | `[batch, 64]` float32 | one logit per action of `env::action` (`pit * 4 + dir * 2 + house`), **not** masked: set the illegal actions (the environment's legal mask, `env::write_mask`) to -inf before a softmax |
//! | `value` | `[batch, 1]` float32 | the value in [-1, 1] (tanh) for the side to move |
//!
//! The model's metadata (`custom_metadata_map` in onnxruntime) names the variant, the run and
//! iteration it came from, and the network's shape.
//!
//! The export goes through burn-onnx's experimental forward-capture exporter: it runs the
//! network's `forward` twice (batches of 2 and 3) and marks the batch axis symbolic. Both trunks
//! (MLP and ResNet) export; an operation it cannot lower is an error, and a panic inside the
//! exporter (it has internal invariants that index shapes) is caught and returned as an error too.
//! The MLP's flatten of the `[batch, 27, 4, 8]` input exports as a reshape with a dynamic batch.
//!
//! [`samples`] gives observations of positions from random play with burn's raw outputs for them;
//! `bao export --format onnx --out F.onnx` writes them to `F.samples.json`, and
//! `scripts/onnx_check.sh` compares onnxruntime's outputs with them.

use super::Bundle;
use crate::env::{ACTIONS, OBS_CHANNELS, OBS_LEN, encode};
use crate::nn::PolicyValueNet;
use crate::rules::{MoveList, Position};
use anyhow::{Context, bail};
use burn::tensor::{Tensor, TensorData};
use burn_onnx::export::{AxisSpec, InputSpec, OnnxExporter};
use onnx_ir::{GraphProto, Message, ModelProto};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::HashSet;
use std::path::Path;

/// The name of the model's input.
pub const INPUT_NAME: &str = "obs";
/// The names of the model's outputs, in order.
pub const OUTPUT_NAMES: [&str; 2] = ["policy_logits", "value"];

/// The network as ONNX bytes (a serialized `ModelProto`), with a dynamic batch axis and the
/// input and outputs named [`INPUT_NAME`] and [`OUTPUT_NAMES`].
pub fn onnx_bytes(bundle: &Bundle) -> anyhow::Result<Vec<u8>> {
    let net = network(bundle)?;
    let captured = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| capture(&net)))
        .map_err(|panic| {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("no message");
            anyhow::anyhow!("the ONNX exporter panicked on this network: {what}")
        })??;
    name_graph(&captured, bundle)
}

/// Writes the ONNX model to `path` atomically (a temporary file beside it, then a rename).
pub fn write_onnx(bundle: &Bundle, path: &Path) -> anyhow::Result<()> {
    let bytes = onnx_bytes(bundle)?;
    crate::util::fs::write_atomic(path, &bytes)
        .with_context(|| format!("cannot write the ONNX model to {}", path.display()))
}

fn capture(net: &PolicyValueNet) -> anyhow::Result<Vec<u8>> {
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
            net,
            sample(2),
            sample(3),
            &specs,
            |net: &PolicyValueNet, obs| net.forward(obs),
        )
        .map_err(|e| anyhow::anyhow!("the ONNX exporter failed: {e}"))?;
    Ok(model.into_bytes())
}

/// Renames the exporter's generated boundary names (`tensor_N`) to [`INPUT_NAME`] and
/// [`OUTPUT_NAMES`] everywhere they occur, and adds a description and metadata.
fn name_graph(bytes: &[u8], bundle: &Bundle) -> anyhow::Result<Vec<u8>> {
    let mut model = ModelProto::parse_from_bytes(bytes)
        .map_err(|e| anyhow::anyhow!("the exporter wrote an unreadable ONNX model: {e}"))?;
    let Some(graph) = model.graph.as_mut() else {
        bail!("the exporter wrote an ONNX model without a graph");
    };
    let renames = boundary_renames(graph)?;
    rename_tensors(graph, &renames);
    graph.name = "bao_zero_policy_value".into();
    describe_model(&mut model, bundle)?;
    model
        .write_to_bytes()
        .map_err(|e| anyhow::anyhow!("cannot serialize the ONNX model: {e}"))
}

/// The generated names of the graph's input and outputs, each with its public name; refused
/// when the boundary has the wrong shape or a public name already stands for another tensor.
fn boundary_renames(graph: &GraphProto) -> anyhow::Result<Vec<(String, &'static str)>> {
    if graph.input.len() != 1 || graph.output.len() != OUTPUT_NAMES.len() {
        bail!(
            "the exported graph has {} inputs and {} outputs; expected 1 and {}",
            graph.input.len(),
            graph.output.len(),
            OUTPUT_NAMES.len()
        );
    }
    let renames: Vec<(String, &str)> = std::iter::once((graph.input[0].name.clone(), INPUT_NAME))
        .chain(
            graph
                .output
                .iter()
                .map(|o| o.name.clone())
                .zip(OUTPUT_NAMES),
        )
        .collect();
    let old: HashSet<&str> = renames.iter().map(|(o, _)| o.as_str()).collect();
    if old.len() != renames.len() {
        bail!("the exported graph's input and outputs are not distinct tensors");
    }
    // A new name must not already stand for another tensor (an initializer or a node's value).
    let taken = graph
        .initializer
        .iter()
        .map(|t| &t.name)
        .chain(graph.value_info.iter().map(|v| &v.name))
        .chain(
            graph
                .node
                .iter()
                .flat_map(|n| n.input.iter().chain(&n.output)),
        );
    for name in taken {
        if !old.contains(name.as_str()) && renames.iter().any(|(_, new)| name == new) {
            bail!("the exported graph already has a tensor named `{name}`");
        }
    }
    Ok(renames)
}

/// Renames every occurrence of the tensors in `renames`: the graph's boundary, its value
/// infos and its nodes' inputs and outputs.
fn rename_tensors(graph: &mut GraphProto, renames: &[(String, &str)]) {
    let rename = |name: &mut String| {
        if let Some((_, new)) = renames.iter().find(|(o, _)| o == name) {
            *name = (*new).to_string();
        }
    };
    for v in graph
        .input
        .iter_mut()
        .chain(graph.output.iter_mut())
        .chain(graph.value_info.iter_mut())
    {
        rename(&mut v.name);
    }
    for node in &mut graph.node {
        node.input.iter_mut().for_each(rename);
        node.output.iter_mut().for_each(rename);
    }
}

/// Adds the model's description and its `variant`, `source` and `net` metadata.
fn describe_model(model: &mut ModelProto, bundle: &Bundle) -> anyhow::Result<()> {
    let h = &bundle.header;
    model.doc_string = format!(
        "bao-zero policy/value network ({} player from {}). Input `obs` [batch, 27, 4, 8]: the \
         observation from the side to move. Outputs `policy_logits` [batch, 64] (unmasked: mask \
         illegal actions with the environment's legal mask) and `value` [batch, 1] in [-1, 1] for \
         the side to move.",
        h.variant, h.source
    );
    let net = serde_json::to_string(&h.net).context("cannot describe the network")?;
    for (key, value) in [
        ("variant", h.variant.clone()),
        ("source", h.source.clone()),
        ("net", net),
    ] {
        model.metadata_props.push(Default::default());
        if let Some(entry) = model.metadata_props.last_mut() {
            entry.key = key.into();
            entry.value = value;
        }
    }
    Ok(())
}

/// Observations of positions from random play and the network's raw outputs for them, to check
/// an ONNX runtime against burn (`scripts/onnx_check.sh`). Serialized as JSON with flat arrays.
#[derive(Clone, Debug, Serialize)]
pub struct Samples {
    /// `[n, 27, 4, 8]`, flattened.
    pub obs: Vec<f32>,
    /// `[n, 64]`, flattened: burn's raw (unmasked) policy logits.
    pub policy_logits: Vec<f32>,
    /// `[n]`: burn's values.
    pub value: Vec<f32>,
    /// The positions, in the one-line format.
    pub positions: Vec<String>,
}

/// `n` (at least 1) positions met in random games of the player's variant (seeded), with burn's
/// outputs for them (the network's `forward` on the flex device; no mask, no softmax).
pub fn samples(bundle: &Bundle, n: usize, seed: u64) -> anyhow::Result<Samples> {
    anyhow::ensure!(n > 0, "at least one sample position is needed");
    let rules = &bundle.header.rules;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list = MoveList::new();
    let mut pos = Position::start(rules);
    let mut fresh = true;
    let mut positions = Vec::with_capacity(n);
    let mut obs = vec![0.0; n * OBS_LEN];
    while positions.len() < n {
        pos.legal_moves(rules, &mut list);
        if pos.outcome_given(&list).is_some() || list.is_empty() {
            anyhow::ensure!(!fresh, "the variant's start position is already decided");
            pos = Position::start(rules);
            fresh = true;
            continue;
        }
        encode(rules, &pos, &mut obs[positions.len() * OBS_LEN..]);
        positions.push(pos.to_string());
        pos = list.children()[rng.random_range(0..list.len())];
        fresh = false;
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
    let value = read(value)?;
    anyhow::ensure!(
        policy_logits.len() == n * ACTIONS && value.len() == n,
        "unexpected output shapes from the network"
    );
    Ok(Samples {
        obs,
        policy_logits,
        value,
        positions,
    })
}

fn network(bundle: &Bundle) -> anyhow::Result<PolicyValueNet> {
    crate::nn::load_net_bytes(&bundle.header.net, &crate::nn::device(), &bundle.weights)
        .context("the player's network does not load")
}
