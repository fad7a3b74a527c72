//! The model: an MLP or a small residual conv net over the `[batch, channels, 4, 8]` observation,
//! with a policy head (one logit per action) and a scalar value head (tanh).

use super::{NetConfig, NetKind};
use crate::env::{ACTIONS, OBS_CHANNELS};
use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::{relu, softmax, tanh};
use burn::tensor::{Device, Tensor};

/// A residual block: conv-BN-ReLU-conv-BN, plus the input, ReLU.
#[derive(Module, Debug)]
pub struct Block {
    conv1: Conv2d,
    bn1: BatchNorm,
    conv2: Conv2d,
    bn2: BatchNorm,
}

impl Block {
    fn new(ch: usize, dev: &Device) -> Block {
        let conv = || {
            Conv2dConfig::new([ch, ch], [3, 3])
                .with_padding(PaddingConfig2d::Same)
                .init(dev)
        };
        Block {
            conv1: conv(),
            bn1: BatchNormConfig::new(ch).init(dev),
            conv2: conv(),
            bn2: BatchNormConfig::new(ch).init(dev),
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = relu(self.bn1.forward(self.conv1.forward(x.clone())));
        relu(self.bn2.forward(self.conv2.forward(y)) + x)
    }
}

/// The backend's random generator is global: every initialisation holds this lock, so that a
/// seeded one draws all its numbers in a row, whatever other threads do.
fn init_lock() -> std::sync::MutexGuard<'static, ()> {
    static INIT: std::sync::Mutex<()> = std::sync::Mutex::new(());
    INIT.lock().unwrap_or_else(|e| e.into_inner())
}

/// The policy/value network. Exactly one trunk is present, chosen by [`NetConfig::kind`].
#[derive(Module, Debug)]
pub struct PolicyValueNet {
    /// MLP trunk.
    mlp: Vec<Linear>,
    /// Conv trunk: stem, then blocks.
    stem: Option<Conv2d>,
    stem_bn: Option<BatchNorm>,
    blocks: Vec<Block>,
    /// Heads over the trunk's features.
    policy: Linear,
    value_hidden: Linear,
    value: Linear,
}

impl PolicyValueNet {
    /// A freshly initialised network, from the backend's random generator as it stands.
    pub fn new(cfg: &NetConfig, dev: &Device) -> PolicyValueNet {
        let _guard = init_lock();
        PolicyValueNet::build(cfg, dev).materialized(dev)
    }

    /// A freshly initialised network drawn from `seed`: the same seed, the same weights, even
    /// while other threads make networks too.
    pub(crate) fn new_seeded(cfg: &NetConfig, dev: &Device, seed: u64) -> PolicyValueNet {
        let _guard = init_lock();
        dev.seed(seed);
        PolicyValueNet::build(cfg, dev).materialized(dev)
    }

    /// Parameters are drawn lazily, at their first use: one forward pass draws them all now,
    /// while the caller holds the initialisation lock.
    fn materialized(self, dev: &Device) -> PolicyValueNet {
        let _ = self.forward(Tensor::zeros([1, OBS_CHANNELS, 4, 8], dev));
        self
    }

    fn build(cfg: &NetConfig, dev: &Device) -> PolicyValueNet {
        let input = OBS_CHANNELS * 32;
        let (mlp, stem, stem_bn, blocks, features) = match cfg.kind {
            NetKind::Mlp => {
                let mut layers = Vec::new();
                let mut width = input;
                for &h in &cfg.hidden {
                    layers.push(LinearConfig::new(width, h).init(dev));
                    width = h;
                }
                (layers, None, None, Vec::new(), width)
            }
            NetKind::Resnet => {
                let ch = cfg.channels;
                let stem = Conv2dConfig::new([OBS_CHANNELS, ch], [3, 3])
                    .with_padding(PaddingConfig2d::Same)
                    .init(dev);
                let blocks = (0..cfg.blocks).map(|_| Block::new(ch, dev)).collect();
                (
                    Vec::new(),
                    Some(stem),
                    Some(BatchNormConfig::new(ch).init(dev)),
                    blocks,
                    ch * 32,
                )
            }
        };
        PolicyValueNet {
            mlp,
            stem,
            stem_bn,
            blocks,
            policy: LinearConfig::new(features, ACTIONS).init(dev),
            value_hidden: LinearConfig::new(features, 64).init(dev),
            value: LinearConfig::new(64, 1).init(dev),
        }
    }

    /// Policy logits `[batch, ACTIONS]` (illegal actions not yet masked) and values `[batch, 1]`
    /// in [-1, 1] for the player to move.
    pub fn forward(&self, obs: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
        let features: Tensor<2> = match (&self.stem, &self.stem_bn) {
            (Some(stem), Some(bn)) => {
                let mut x = relu(bn.forward(stem.forward(obs)));
                for b in &self.blocks {
                    x = b.forward(x);
                }
                x.flatten(1, 3)
            }
            _ => {
                let mut x: Tensor<2> = obs.flatten(1, 3);
                for layer in &self.mlp {
                    x = relu(layer.forward(x));
                }
                x
            }
        };
        let policy = self.policy.forward(features.clone());
        let value_hidden = relu(self.value_hidden.forward(features));
        let value = tanh(self.value.forward(value_hidden));
        (policy, value)
    }
}

/// One dense layer's parameters as plain arrays: `weight` is `[inputs][outputs]`, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct DenseWeights {
    /// Inputs.
    pub inputs: usize,
    /// Outputs.
    pub outputs: usize,
    /// `inputs * outputs` weights, input-major.
    pub weight: Vec<f32>,
    /// `outputs` biases (zeros if the layer has none).
    pub bias: Vec<f32>,
}

impl DenseWeights {
    fn of(layer: &Linear) -> DenseWeights {
        let weight = layer.weight.val();
        let [inputs, outputs] = weight.dims();
        let weight = weight.into_data().try_to_vec::<f32>().expect("f32 weights");
        let bias = match &layer.bias {
            Some(b) => b.val().into_data().try_to_vec::<f32>().expect("f32 biases"),
            None => vec![0.0; outputs],
        };
        DenseWeights {
            inputs,
            outputs,
            weight,
            bias,
        }
    }
}

/// An MLP network's parameters, for [`FastMlp`](super::FastMlp): trunk layers (each followed by
/// ReLU), then the policy head, the value head's hidden layer (ReLU) and its output (tanh).
#[derive(Clone, Debug, PartialEq)]
pub struct MlpWeights {
    /// The trunk, input first.
    pub trunk: Vec<DenseWeights>,
    /// Policy logits.
    pub policy: DenseWeights,
    /// The value head's hidden layer.
    pub value_hidden: DenseWeights,
    /// The value output (one unit).
    pub value: DenseWeights,
}

impl PolicyValueNet {
    /// The parameters of an MLP network as plain arrays (`None` for the conv net).
    pub fn mlp_weights(&self) -> Option<MlpWeights> {
        if self.stem.is_some() || self.mlp.is_empty() {
            return None;
        }
        Some(MlpWeights {
            trunk: self.mlp.iter().map(DenseWeights::of).collect(),
            policy: DenseWeights::of(&self.policy),
            value_hidden: DenseWeights::of(&self.value_hidden),
            value: DenseWeights::of(&self.value),
        })
    }
}

/// Masked softmax: probabilities over the legal actions only (`mask` 1.0 legal, 0.0 illegal);
/// illegal actions get exactly zero.
pub(crate) fn masked_softmax(logits: Tensor<2>, mask: Tensor<2>) -> Tensor<2> {
    let masked = logits + (mask.clone() - 1.0) * 1e9;
    softmax(masked, 1) * mask
}

/// Runs the network on a flat batch (`obs` `[batch * OBS_LEN]`, `masks` `[batch * ACTIONS]`) and
/// returns (priors `[batch * ACTIONS]`, values `[batch]`).
pub fn forward_probabilities(
    net: &PolicyValueNet,
    dev: &Device,
    obs: &[f32],
    masks: &[f32],
    batch: usize,
) -> (Vec<f32>, Vec<f32>) {
    use burn::tensor::TensorData;
    let x = Tensor::<4>::from_data(
        TensorData::new(obs.to_vec(), [batch, OBS_CHANNELS, 4, 8]),
        dev,
    );
    let m = Tensor::<2>::from_data(TensorData::new(masks.to_vec(), [batch, ACTIONS]), dev);
    let (logits, value) = net.forward(x);
    let priors = masked_softmax(logits, m)
        .into_data()
        .try_to_vec::<f32>()
        .expect("f32 tensor");
    let values = value.into_data().try_to_vec::<f32>().expect("f32 tensor");
    (priors, values)
}
