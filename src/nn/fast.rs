//! The MLP network evaluated with plain loops instead of tensors, for the search's many small
//! batches.
//!
//! Most of the observation is sparse or constant: each pit has one of eight seed-count planes set,
//! a dozen planes hold one number over the whole board, a few mark one pit. So the first layer
//! adds one weight row per marked cell, and one precomputed sum of a plane's rows per constant
//! plane, instead of multiplying 864 inputs; after each ReLU about half the features are zero,
//! and their rows are skipped too. About a fifth of the dense arithmetic, and no tensor to
//! allocate, fill and read back.

use super::model::{DenseWeights, MlpWeights};
use crate::env::{ACTIONS, OBS_CHANNELS, OBS_LEN};

/// Cells of one observation plane (4 rows of 8 pits).
const CELLS: usize = 32;

/// An MLP policy/value network as plain arrays (see the module docs).
#[derive(Clone, Debug)]
pub struct FastMlp {
    /// The trunk's layers; the first is read through `plane_sums` for constant planes.
    trunk: Vec<DenseWeights>,
    /// Per observation plane, the sum of its 32 cells' rows of the first layer.
    plane_sums: Vec<f32>,
    /// The policy head and the value head's hidden layer side by side: one pass over the
    /// trunk's features fills both.
    heads: DenseWeights,
    /// The value output's weights and bias.
    value: DenseWeights,
}

impl FastMlp {
    /// The fast form of an MLP's parameters; `None` if they do not have the shape of this
    /// project's MLP (observation in, policy of `ACTIONS` and one value out).
    pub fn new(w: &MlpWeights) -> Option<FastMlp> {
        let first = w.trunk.first()?;
        let features = w.trunk.last()?.outputs;
        let chained = w.trunk.windows(2).all(|p| p[0].outputs == p[1].inputs);
        let heads_fit = w.policy.inputs == features
            && w.policy.outputs == ACTIONS
            && w.value_hidden.inputs == features
            && w.value.inputs == w.value_hidden.outputs
            && w.value.outputs == 1;
        if first.inputs != OBS_LEN || !chained || !heads_fit {
            return None;
        }
        let width = first.outputs;
        let mut plane_sums = vec![0.0f32; OBS_CHANNELS * width];
        for c in 0..OBS_CHANNELS {
            let sum = &mut plane_sums[c * width..(c + 1) * width];
            for cell in 0..CELLS {
                axpy::<Portable>(sum, 1.0, first.row(c * CELLS + cell));
            }
        }
        // [policy | value hidden] as one layer.
        let (p, v) = (&w.policy, &w.value_hidden);
        let outputs = p.outputs + v.outputs;
        let mut weight = Vec::with_capacity(features * outputs);
        for k in 0..features {
            weight.extend_from_slice(p.row(k));
            weight.extend_from_slice(v.row(k));
        }
        let heads = DenseWeights {
            inputs: features,
            outputs,
            weight,
            bias: [p.bias.as_slice(), v.bias.as_slice()].concat(),
        };
        Some(FastMlp {
            trunk: w.trunk.clone(),
            plane_sums,
            heads,
            value: w.value.clone(),
        })
    }

    /// Probabilities over the legal actions (`masks` 1.0 legal, 0.0 illegal; illegal actions
    /// get exactly 0) and values for a flat batch, as
    /// [`forward_probabilities`](super::forward_probabilities) computes them.
    pub fn forward(&self, obs: &[f32], masks: &[f32], batch: usize) -> (Vec<f32>, Vec<f32>) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has the features `forward_fma` is compiled for.
            return unsafe { self.forward_fma(obs, masks, batch) };
        }
        self.forward_with::<Portable>(obs, masks, batch)
    }

    /// [`FastMlp::forward`] compiled for AVX2 and FMA (8 lanes, fused multiply-adds): about
    /// twice the speed of the baseline x86-64 code.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn forward_fma(&self, obs: &[f32], masks: &[f32], batch: usize) -> (Vec<f32>, Vec<f32>) {
        self.forward_with::<Fused>(obs, masks, batch)
    }

    #[inline(always)]
    fn forward_with<K: Madd>(
        &self,
        obs: &[f32],
        masks: &[f32],
        batch: usize,
    ) -> (Vec<f32>, Vec<f32>) {
        let mut priors = vec![0.0f32; batch * ACTIONS];
        let mut values = vec![0.0f32; batch];
        let widest = self.trunk.iter().map(|l| l.outputs).max().unwrap_or(0);
        let mut a = vec![0.0f32; widest.max(self.heads.outputs)];
        let mut b = a.clone();
        for i in 0..batch {
            let x = &obs[i * OBS_LEN..(i + 1) * OBS_LEN];
            let mut width = self.first_layer::<K>(x, &mut a);
            for layer in &self.trunk[1..] {
                dense_relu_input::<K>(layer, &a[..width], &mut b);
                relu(&mut b[..layer.outputs]);
                std::mem::swap(&mut a, &mut b);
                width = layer.outputs;
            }
            dense_relu_input::<K>(&self.heads, &a[..width], &mut b);
            let (logits, hidden) = b[..self.heads.outputs].split_at_mut(ACTIONS);
            relu(hidden);
            let v = self.value.bias[0]
                + hidden
                    .iter()
                    .zip(&self.value.weight)
                    .map(|(h, w)| h * w)
                    .sum::<f32>();
            values[i] = v.tanh();
            masked_softmax(
                logits,
                &masks[i * ACTIONS..(i + 1) * ACTIONS],
                &mut priors[i * ACTIONS..(i + 1) * ACTIONS],
            );
        }
        (priors, values)
    }

    /// The first layer with its ReLU, into `out`; returns its width.
    #[inline(always)]
    fn first_layer<K: Madd>(&self, x: &[f32], out: &mut [f32]) -> usize {
        let first = &self.trunk[0];
        let width = first.outputs;
        let h = &mut out[..width];
        h.copy_from_slice(&first.bias);
        for c in 0..OBS_CHANNELS {
            let plane = &x[c * CELLS..(c + 1) * CELLS];
            let v = plane[0];
            if plane.iter().all(|&p| p == v) {
                if v != 0.0 {
                    axpy::<K>(h, v, &self.plane_sums[c * width..(c + 1) * width]);
                }
                continue;
            }
            for (cell, &p) in plane.iter().enumerate() {
                if p != 0.0 {
                    axpy::<K>(h, p, first.row(c * CELLS + cell));
                }
            }
        }
        relu(h);
        width
    }
}

impl DenseWeights {
    /// The weights from input `k` to every output.
    fn row(&self, k: usize) -> &[f32] {
        &self.weight[k * self.outputs..(k + 1) * self.outputs]
    }
}

/// `out = bias + input * weight` for a non-negative (post-ReLU) `input`: zero inputs are skipped.
#[inline(always)]
fn dense_relu_input<K: Madd>(layer: &DenseWeights, input: &[f32], out: &mut [f32]) {
    let out = &mut out[..layer.outputs];
    out.copy_from_slice(&layer.bias);
    for (k, &x) in input.iter().enumerate() {
        if x != 0.0 {
            axpy::<K>(out, x, layer.row(k));
        }
    }
}

/// How `y + a * x` is computed: fused where the CPU has FMA (inside `forward_fma`), plainly
/// elsewhere (a fused multiply-add without the instruction is a slow library call).
trait Madd {
    fn madd(y: f32, a: f32, x: f32) -> f32;
}

struct Portable;

impl Madd for Portable {
    #[inline(always)]
    fn madd(y: f32, a: f32, x: f32) -> f32 {
        y + a * x
    }
}

#[cfg(target_arch = "x86_64")]
struct Fused;

#[cfg(target_arch = "x86_64")]
impl Madd for Fused {
    #[inline(always)]
    fn madd(y: f32, a: f32, x: f32) -> f32 {
        a.mul_add(x, y)
    }
}

/// `y += a * x`, element by element (the compiler vectorises it).
#[inline(always)]
fn axpy<K: Madd>(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y = K::madd(*y, a, *x);
    }
}

fn relu(v: &mut [f32]) {
    for x in v {
        *x = x.max(0.0);
    }
}

/// Softmax over the legal entries of `logits`; illegal ones (and all, if none is legal) get 0.
fn masked_softmax(logits: &[f32], mask: &[f32], out: &mut [f32]) {
    let max = logits
        .iter()
        .zip(mask)
        .filter(|&(_, &m)| m > 0.0)
        .map(|(&l, _)| l)
        .fold(f32::NEG_INFINITY, f32::max);
    if max == f32::NEG_INFINITY {
        out.fill(0.0);
        return;
    }
    let mut total = 0.0;
    for ((o, &l), &m) in out.iter_mut().zip(logits).zip(mask) {
        *o = if m > 0.0 { (l - max).exp() } else { 0.0 };
        total += *o;
    }
    for o in out.iter_mut() {
        *o /= total;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::env::encode_observation;
    use crate::nn::{NetConfig, NetKind, PolicyValueNet, forward_probabilities};
    use crate::rules::{MoveList, Position, Variant};

    /// Real observations along a game, and masks of the legal actions.
    pub(crate) fn positions(n: usize) -> (Vec<f32>, Vec<f32>) {
        let rules = Variant::Kiswahili.rules();
        let mut pos = Position::start(&rules);
        let mut list = MoveList::new();
        let (mut obs, mut masks) = (vec![0.0; n * OBS_LEN], vec![0.0; n * ACTIONS]);
        for i in 0..n {
            pos.legal_moves(&rules, &mut list);
            if list.is_empty() {
                pos = Position::start(&rules);
                pos.legal_moves(&rules, &mut list);
            }
            encode_observation(&rules, &pos, &mut obs[i * OBS_LEN..(i + 1) * OBS_LEN]);
            for &mv in list.moves() {
                masks[i * ACTIONS + crate::env::move_to_action(&pos, mv)] = 1.0;
            }
            pos = list.children()[(i * 7) % list.len()];
        }
        (obs, masks)
    }

    #[test]
    fn the_fast_mlp_computes_what_the_network_computes() {
        let dev = crate::nn::device();
        for hidden in [vec![256, 256], vec![64], vec![32, 48, 16]] {
            let cfg = NetConfig {
                kind: NetKind::Mlp,
                hidden,
                ..NetConfig::default()
            };
            let net = PolicyValueNet::new_seeded(&cfg, &dev, 9);
            let fast = FastMlp::new(&net.mlp_weights().unwrap()).unwrap();
            let n = 40;
            let (obs, masks) = positions(n);
            let (p, v) = forward_probabilities(&net, &dev, &obs, &masks, n);
            let (fp, fv) = fast.forward(&obs, &masks, n);
            for (a, b) in p.iter().zip(&fp) {
                assert!((a - b).abs() < 1e-5, "prior {a} vs {b}");
            }
            for (a, b) in v.iter().zip(&fv) {
                assert!((a - b).abs() < 1e-5, "value {a} vs {b}");
            }
            // Illegal actions get exactly zero, legal ones sum to one.
            for i in 0..n {
                let row = &fp[i * ACTIONS..(i + 1) * ACTIONS];
                let mask = &masks[i * ACTIONS..(i + 1) * ACTIONS];
                assert!(row.iter().zip(mask).all(|(p, m)| *m > 0.0 || *p == 0.0));
                assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn the_conv_net_has_no_fast_form() {
        let cfg = NetConfig {
            kind: NetKind::Resnet,
            blocks: 1,
            channels: 4,
            ..NetConfig::default()
        };
        let net = PolicyValueNet::new_seeded(&cfg, &crate::nn::device(), 1);
        assert!(net.mlp_weights().is_none());
    }
}
