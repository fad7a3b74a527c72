//! The network as the search's [`Inference`]: one forward pass per batch of positions.

use super::FastMlp;
use super::model::{PolicyValueNet, forward_probabilities};
use crate::env::{ACTIONS, OBS_LEN, encode_observation, move_to_action};
use crate::mcts::{Inference, InferenceRequest};
use crate::rules::Rules;
use burn::module::Module;
use burn::tensor::Device;

/// A network ready for inference (no autodiff, batch-norm in evaluation mode). An MLP runs
/// through [`FastMlp`] (plain loops, sparse inputs); the conv net through burn.
#[derive(Debug)]
pub struct NetInference {
    net: PolicyValueNet,
    fast: Option<FastMlp>,
    dev: Device,
}

impl NetInference {
    /// Wraps a network for inference on the device it is on. An MLP's fast path runs on the CPU
    /// whatever that device is.
    pub fn new(net: PolicyValueNet) -> NetInference {
        let net = net.valid();
        let dev = net.devices().first().cloned().unwrap_or_else(super::device);
        let fast = net.mlp_weights().and_then(|w| FastMlp::new(&w));
        NetInference { net, fast, dev }
    }

    /// Whether inference runs through [`FastMlp`] (an MLP, on the CPU whatever the network's
    /// device) rather than through burn. Builds with and without the `gpu` feature take the same
    /// path, so the feature costs play nothing on the CPU.
    pub fn uses_fast_mlp(&self) -> bool {
        self.fast.is_some()
    }

    /// The network.
    pub fn net(&self) -> &PolicyValueNet {
        &self.net
    }

    /// Raw batched inference on encoded observations and masks.
    pub fn forward(&self, obs: &[f32], masks: &[f32], batch: usize) -> (Vec<f32>, Vec<f32>) {
        match &self.fast {
            Some(fast) => fast.forward(obs, masks, batch),
            None => forward_probabilities(&self.net, &self.dev, obs, masks, batch),
        }
    }

    /// Like [`NetInference::forward`], but always through burn on the network's device, never the
    /// MLP's CPU fast path: what a device computes, for comparing devices.
    pub fn forward_on_device(
        &self,
        obs: &[f32],
        masks: &[f32],
        batch: usize,
    ) -> (Vec<f32>, Vec<f32>) {
        forward_probabilities(&self.net, &self.dev, obs, masks, batch)
    }
}

impl Inference for NetInference {
    fn infer(
        &self,
        rules: &Rules,
        batch: &[InferenceRequest<'_>],
        priors: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) {
        let n = batch.len();
        if n == 0 {
            return;
        }
        let mut obs = vec![0.0f32; n * OBS_LEN];
        let mut masks = vec![0.0f32; n * ACTIONS];
        for (i, r) in batch.iter().enumerate() {
            encode_observation(rules, r.pos, &mut obs[i * OBS_LEN..(i + 1) * OBS_LEN]);
            for &mv in r.moves {
                masks[i * ACTIONS + move_to_action(r.pos, mv)] = 1.0;
            }
        }
        let (p, v) = self.forward(&obs, &masks, n);
        for (i, r) in batch.iter().enumerate() {
            let row = &p[i * ACTIONS..(i + 1) * ACTIONS];
            let start = priors.len();
            priors.extend(r.moves.iter().map(|&mv| row[move_to_action(r.pos, mv)]));
            // Renormalise (float error; and a zero row falls back to uniform).
            let total: f32 = priors[start..].iter().sum();
            let k = r.moves.len().max(1) as f32;
            for x in &mut priors[start..] {
                *x = if total > 0.0 { *x / total } else { 1.0 / k };
            }
        }
        values.extend_from_slice(&v[..n]);
    }
}
