//! Training steps (AdamW on policy cross-entropy + value MSE) and checkpoints of the network and
//! the optimizer (burnpack files, written into a temporary folder renamed into place).

use super::NetConfig;
use super::batch::Batch;
use super::model::PolicyValueNet;
use crate::env::{ACTIONS, OBS_CHANNELS};
use anyhow::{Context, bail};
use burn::module::Module;
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Tensor, TensorData};
use std::path::Path;

/// Mean losses and diagnostics of some training steps.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Losses {
    /// Policy + value loss.
    pub total: f64,
    /// Cross-entropy of the predicted policy against the search's visit distribution.
    pub policy: f64,
    /// Mean squared error of the value against the game result.
    pub value: f64,
    /// Entropy of the predicted policy (nats).
    pub entropy: f64,
    /// Share of decided positions whose value has the sign of the result.
    pub value_accuracy: f64,
}

impl Losses {
    /// Adds another step's figures (see [`Losses::average`]).
    pub fn add(&mut self, o: &Losses) {
        self.total += o.total;
        self.policy += o.policy;
        self.value += o.value;
        self.entropy += o.entropy;
        self.value_accuracy += o.value_accuracy;
    }

    /// Divides the sums by the number of steps.
    pub fn average(&mut self, steps: usize) {
        let n = steps.max(1) as f64;
        self.total /= n;
        self.policy /= n;
        self.value /= n;
        self.entropy /= n;
        self.value_accuracy /= n;
    }
}

/// A network being trained, with its optimizer.
pub struct Trainer {
    net: PolicyValueNet,
    optim: ModuleOptimizer,
    dev: Device,
    cfg: NetConfig,
}

impl Trainer {
    /// A fresh network initialised from `seed`.
    pub fn new(cfg: &NetConfig, weight_decay: f64, seed: u64) -> anyhow::Result<Trainer> {
        let dev = cfg.device.device()?.autodiff();
        let net = PolicyValueNet::new_seeded(cfg, &dev, seed);
        let optim = AdamWConfig::new()
            .with_weight_decay(weight_decay as f32)
            .init();
        Ok(Trainer {
            net,
            optim,
            dev,
            cfg: cfg.clone(),
        })
    }

    /// A trainer starting from given weights (burnpack bytes) with a fresh optimizer.
    pub fn from_weights(
        cfg: &NetConfig,
        weight_decay: f64,
        bytes: &[u8],
    ) -> anyhow::Result<Trainer> {
        let mut t = Trainer::new(cfg, weight_decay, 0)?;
        t.net = super::load_net_bytes(cfg, &t.dev, bytes)?;
        Ok(t)
    }

    /// The network and optimizer saved in `dir` by [`Trainer::save`].
    pub fn load(cfg: &NetConfig, weight_decay: f64, dir: &Path) -> anyhow::Result<Trainer> {
        let mut t = Trainer::new(cfg, weight_decay, 0)?;
        t.net = super::load_net(cfg, &t.dev, &dir.join("model.bpk"))?;
        let optim_path = dir.join("optim.bpk");
        t.optim = t.optim.load(&optim_path).map_err(|e| {
            anyhow::anyhow!(
                "cannot load optimizer state {}: {e:?}",
                optim_path.display()
            )
        })?;
        Ok(t)
    }

    /// The network config.
    pub fn config(&self) -> &NetConfig {
        &self.cfg
    }

    /// A copy of the current network for inference.
    pub fn snapshot(&self) -> PolicyValueNet {
        self.net.valid()
    }

    /// The current network's weights as f32 burnpack bytes, tagged `version`.
    pub fn weights(&self, version: u64) -> anyhow::Result<super::NetWeights> {
        Ok(super::NetWeights {
            net: self.cfg.clone(),
            bytes: super::net_bytes(&self.net.valid(), super::Precision::F32)?,
            version,
        })
    }

    /// One optimisation step on `batch` at learning rate `lr`.
    pub fn step(&mut self, batch: &Batch, lr: f64) -> anyhow::Result<Losses> {
        let b = batch.size;
        if b == 0 {
            bail!("empty training batch");
        }
        let dev = &self.dev;
        let x = Tensor::<4>::from_data(
            TensorData::new(batch.obs.clone(), [b, OBS_CHANNELS, 4, 8]),
            dev,
        );
        let mask = Tensor::<2>::from_data(TensorData::new(batch.masks.clone(), [b, ACTIONS]), dev);
        let target_p =
            Tensor::<2>::from_data(TensorData::new(batch.policy.clone(), [b, ACTIONS]), dev);
        let target_v = Tensor::<2>::from_data(TensorData::new(batch.value.clone(), [b, 1]), dev);
        let (logits, value) = self.net.forward(x);
        // Illegal actions get a huge negative logit, so they carry no probability and no loss.
        let logp = log_softmax(logits + (mask.clone() - 1.0) * 1e9, 1);
        let policy_loss = (target_p * logp.clone()).sum_dim(1).mean().neg();
        let value_loss = (value.clone() - target_v).powf_scalar(2.0).mean();
        let loss = policy_loss.clone() + value_loss.clone();
        let entropy = (logp.clone().exp() * mask * logp).sum_dim(1).mean().neg();
        let losses = Losses {
            total: loss.clone().into_scalar::<f32>() as f64,
            policy: policy_loss.into_scalar::<f32>() as f64,
            value: value_loss.into_scalar::<f32>() as f64,
            entropy: entropy.into_scalar::<f32>() as f64,
            value_accuracy: {
                let v = value
                    .clone()
                    .into_data()
                    .try_to_vec::<f32>()
                    .map_err(|e| anyhow::anyhow!("{e:?}"))?;
                let decided: Vec<(f32, f32)> = v
                    .iter()
                    .zip(&batch.value)
                    .filter(|(_, z)| **z != 0.0)
                    .map(|(a, z)| (*a, *z))
                    .collect();
                decided
                    .iter()
                    .filter(|(a, z)| a.signum() == z.signum())
                    .count() as f64
                    / decided.len().max(1) as f64
            },
        };
        if !losses.total.is_finite() {
            bail!("training diverged: loss is {}", losses.total);
        }
        let grads = GradientsParams::from_grads(loss.backward(), &self.net);
        let net = std::mem::replace(&mut self.net, PolicyValueNet::new(&self.cfg, dev));
        self.net = self.optim.step(lr, net, grads);
        Ok(losses)
    }

    /// Saves the network (`model.bpk`) and optimizer (`optim.bpk`) into `dir`, atomically: a
    /// temporary folder is filled, then renamed to `dir`.
    pub fn save(&self, dir: &Path) -> anyhow::Result<()> {
        let parent = crate::util::parent_dir(dir);
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        // A folder of a unique name, filled and synced, then renamed into place.
        let tmp = tempfile::Builder::new()
            // The temporary prefix lets a resumed run clear a folder a crash left half-filled.
            .prefix(&format!("{}iter-", crate::util::TEMP_PREFIX))
            .tempdir_in(parent)
            .with_context(|| format!("cannot create a temporary folder in {}", parent.display()))?;
        let (model, optim) = (tmp.path().join("model.bpk"), tmp.path().join("optim.bpk"));
        self.net
            .valid()
            .save_file(&model)
            .map_err(|e| anyhow::anyhow!("cannot save the network: {e:?}"))?;
        self.optim
            .save(&optim)
            .map_err(|e| anyhow::anyhow!("cannot save the optimizer: {e:?}"))?;
        for file in [&model, &optim] {
            std::fs::File::open(file)
                .and_then(|f| f.sync_all())
                .with_context(|| format!("cannot sync {}", file.display()))?;
        }
        crate::util::sync_dir(tmp.path())?;
        if dir.exists() {
            std::fs::remove_dir_all(dir)
                .with_context(|| format!("cannot replace {}", dir.display()))?;
        }
        let tmp = tmp.keep();
        std::fs::rename(&tmp, dir)
            .with_context(|| format!("cannot rename {} to {}", tmp.display(), dir.display()))?;
        crate::util::sync_dir(parent)
    }
}
