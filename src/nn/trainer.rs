//! Training steps (AdamW on policy cross-entropy + value MSE) and checkpoints of the network and
//! the optimizer (burnpack files, written into a temporary folder renamed into place).

use super::data::{Batch, SampleWindow};
use super::model::PolicyValueNet;
use super::{Compute, NetConfig};
use crate::env::{ACTIONS, OBS_CHANNELS};
use crate::rules::Rules;
use anyhow::{Context, bail};
use burn::module::Module;
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Tensor, TensorData};
use rand::SeedableRng;
use std::path::Path;
use std::time::Instant;

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
    /// A fresh network of shape `cfg` on `device`, initialised from `seed`.
    pub fn new(
        cfg: &NetConfig,
        device: Compute,
        weight_decay: f64,
        seed: u64,
    ) -> anyhow::Result<Trainer> {
        let dev = device.device()?.autodiff();
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

    /// A trainer on `device` starting from given weights (burnpack bytes) with a fresh optimizer.
    pub fn from_weights(
        cfg: &NetConfig,
        device: Compute,
        weight_decay: f64,
        bytes: &[u8],
    ) -> anyhow::Result<Trainer> {
        let mut t = Trainer::new(cfg, device, weight_decay, 0)?;
        t.net = super::load_net_bytes(cfg, &t.dev, bytes)?;
        Ok(t)
    }

    /// The network and optimizer saved in `dir` by [`Trainer::save`], on `device`; a file that does not match
    /// the folder's checksums, or a network with a weight that is not a finite number, is a
    /// one-line error.
    pub fn load(
        cfg: &NetConfig,
        device: Compute,
        weight_decay: f64,
        dir: &Path,
    ) -> anyhow::Result<Trainer> {
        let mut t = Trainer::new(cfg, device, weight_decay, 0)?;
        let model = Trainer::read_model(dir)?;
        t.net = super::load_net_bytes(cfg, &t.dev, &model)
            .with_context(|| format!("network file {}", dir.join(MODEL).display()))?;
        let optim_path = dir.join(OPTIM);
        if !optim_path.exists() && dir.join(MODEL).is_file() {
            bail!(
                "checkpoint {} holds the network only (a run keeps the optimizer state in its last checkpoint): it cannot be resumed from",
                dir.display()
            );
        }
        let optim = read_checked(dir, OPTIM)?;
        t.optim = t
            .optim
            .from_bytes(burn::tensor::Bytes::from_bytes_vec(optim))
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot load optimizer state {}, damaged or not an optimizer state: {e}",
                    optim_path.display()
                )
            })?;
        Ok(t)
    }

    /// The network bytes (`model.bpk`) of a checkpoint folder written by [`Trainer::save`],
    /// checked against the folder's checksums (folders written before checksums have none).
    pub fn read_model(dir: &Path) -> anyhow::Result<Vec<u8>> {
        read_checked(dir, MODEL)
    }

    /// The network config.
    pub fn config(&self) -> &NetConfig {
        &self.cfg
    }

    /// A copy of the current network for inference.
    pub fn snapshot(&self) -> PolicyValueNet {
        self.net.valid()
    }

    /// The current network for inference, tagged `version`, on the trainer's device (no copy
    /// through bytes: [`super::NetWeights::to_bytes`] makes them where they are needed).
    pub fn weights(&self, version: u64) -> anyhow::Result<super::NetWeights> {
        super::NetWeights::new(&self.cfg, self.snapshot(), version)
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

    /// Saves the network (`model.bpk`), the optimizer (`optim.bpk`) and their checksums
    /// (`checksums`) into `dir`, atomically: a temporary folder is filled, then renamed to `dir`.
    pub fn save(&self, dir: &Path) -> anyhow::Result<()> {
        let parent = crate::util::fs::parent_dir(dir);
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        // A folder of a unique name, filled and synced, then renamed into place.
        let tmp = tempfile::Builder::new()
            // The temporary prefix lets a resumed run clear a folder a crash left half-filled.
            .prefix(&format!("{}iter-", crate::util::fs::TEMP_PREFIX))
            .tempdir_in(parent)
            .with_context(|| format!("cannot create a temporary folder in {}", parent.display()))?;
        let model = self
            .net
            .valid()
            .into_record()
            .into_bytes()
            .map_err(|e| anyhow::anyhow!("cannot save the network: {e}"))?;
        let optim = self
            .optim
            .into_bytes()
            .map_err(|e| anyhow::anyhow!("cannot save the optimizer: {e}"))?;
        let sums = format!(
            "{:016x}  {MODEL}\n{:016x}  {OPTIM}\n",
            crate::util::hash::fnv1a(&model),
            crate::util::hash::fnv1a(&optim)
        );
        for (name, bytes) in [
            (MODEL, &model[..]),
            (OPTIM, &optim[..]),
            (CHECKSUMS, sums.as_bytes()),
        ] {
            let file = tmp.path().join(name);
            std::fs::write(&file, bytes)
                .and_then(|_| std::fs::File::open(&file)?.sync_all())
                .with_context(|| format!("cannot write {}", file.display()))?;
        }
        crate::util::fs::sync_dir(tmp.path())?;
        if dir.exists() {
            std::fs::remove_dir_all(dir)
                .with_context(|| format!("cannot replace {}", dir.display()))?;
        }
        let tmp = tmp.keep();
        std::fs::rename(&tmp, dir)
            .with_context(|| format!("cannot rename {} to {}", tmp.display(), dir.display()))?;
        crate::util::fs::sync_dir(parent)
    }
}

/// Deletes the optimizer state of the checkpoint folder `dir`, keeping its network and the
/// network's checksum: a run resumes from its last checkpoint only, and the others serve for
/// their networks (`bao export`, `init_from`). The checksums file is rewritten without the
/// optimizer's line before the file goes, so a crash in between leaves every checksum true, and
/// a second call finishes the work. A folder with no optimizer file is left as it is.
pub fn drop_optimizer(dir: &Path) -> anyhow::Result<()> {
    let optim = dir.join(OPTIM);
    if !optim.exists() {
        return Ok(());
    }
    let sums_path = dir.join(CHECKSUMS);
    if sums_path.exists() {
        let sums = crate::util::fs::read_text_bounded(&sums_path, 1 << 16, "checksums file")?;
        let kept: String = sums
            .lines()
            .filter(|line| line.split_once("  ").is_none_or(|(_, file)| file != OPTIM))
            .map(|line| format!("{line}\n"))
            .collect();
        if kept != sums {
            crate::util::fs::write_atomic(&sums_path, kept.as_bytes())?;
        }
    }
    std::fs::remove_file(&optim).with_context(|| format!("cannot delete {}", optim.display()))
}

/// A checkpoint's network file.
const MODEL: &str = "model.bpk";
/// A checkpoint's optimizer file.
const OPTIM: &str = "optim.bpk";
/// A checkpoint's checksums: a line `FNV-1a (16 hex digits)  file name` per file.
const CHECKSUMS: &str = "checksums";

/// The file `name` of the checkpoint folder `dir`, read within the network bound and checked
/// against the folder's `checksums` if it has that file.
fn read_checked(dir: &Path, name: &str) -> anyhow::Result<Vec<u8>> {
    use crate::util::fs::{limits, read_regular_bounded};
    let path = dir.join(name);
    if !path.is_file() {
        bail!("checkpoint file {} does not exist", path.display());
    }
    let bytes = read_regular_bounded(&path, limits::NETWORK, "checkpoint file")?;
    let sums_path = dir.join(CHECKSUMS);
    if !sums_path.exists() {
        return Ok(bytes);
    }
    let sums = crate::util::fs::read_regular_text_bounded(&sums_path, 1 << 16, "checksums file")?;
    let Some(want) = sums.lines().find_map(|line| {
        let (sum, file) = line.split_once("  ")?;
        (file == name).then(|| u64::from_str_radix(sum, 16).ok())
    }) else {
        bail!("{} names no checksum of {name}", sums_path.display());
    };
    match want {
        Some(want) if want == crate::util::hash::fnv1a(&bytes) => Ok(bytes),
        Some(_) => bail!(
            "checkpoint file {} is damaged: it does not match its checksum in {}",
            path.display(),
            sums_path.display()
        ),
        None => bail!(
            "{} is damaged: a checksum is not hexadecimal",
            sums_path.display()
        ),
    }
}

/// One iteration's training steps: how many, on what batches, at which learning rate.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSteps {
    /// Optimisation steps.
    pub steps: usize,
    /// Samples per step, drawn uniformly with replacement from the window.
    pub batch_size: usize,
    /// Weight of the search's value in the value target (see [`Batch::from_samples`]).
    pub value_q_weight: f32,
    /// Learning rate.
    pub lr: f64,
    /// Seed of the batches' draws.
    pub seed: u64,
}

/// What training steps did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainReport {
    /// Mean losses over the steps (zeros without steps).
    pub losses: Losses,
    /// Steps taken.
    pub steps: usize,
    /// Samples trained on (steps times the batch size).
    pub samples: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl TrainReport {
    /// Samples trained on per second.
    pub fn samples_per_sec(&self) -> f64 {
        self.samples as f64 / self.seconds.max(1e-9)
    }
}

impl Trainer {
    /// Takes the optimisation steps `plan` on batches drawn from `window`; `on_step` is called
    /// after each step. The same weights, window and plan give the same weights after.
    pub fn train(
        &mut self,
        rules: &Rules,
        window: &dyn SampleWindow,
        plan: &TrainSteps,
        on_step: &dyn Fn(),
    ) -> anyhow::Result<TrainReport> {
        let t0 = Instant::now();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(plan.seed);
        let mut losses = Losses::default();
        for _ in 0..plan.steps {
            let samples = window.draw(plan.batch_size, &mut rng);
            let batch = Batch::from_samples(rules, &samples, plan.value_q_weight);
            losses.add(&self.step(&batch, plan.lr)?);
            on_step();
        }
        losses.average(plan.steps);
        Ok(TrainReport {
            losses,
            steps: plan.steps,
            samples: plan.steps * plan.batch_size,
            seconds: t0.elapsed().as_secs_f64(),
        })
    }
}
