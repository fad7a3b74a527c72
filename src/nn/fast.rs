//! The MLP network evaluated with plain loops instead of tensors, for the search's many small
//! batches.
//!
//! Most of the observation is sparse or constant: each pit has one of eight seed-count planes set,
//! a dozen planes hold one number over the whole board, a few mark one pit. So the first layer
//! adds one weight row per marked cell, and one precomputed sum of a plane's rows per constant
//! plane, instead of multiplying 864 inputs; after each ReLU about half the features are zero,
//! and their rows are skipped too. About a fifth of the dense arithmetic, and no tensor to
//! allocate, fill and read back. Each layer sums its outputs a register block at a time over
//! the active inputs (64 outputs with AVX2, 128 with AVX-512), so every weight is loaded once.

use super::model::{DenseWeights, MlpWeights};
use crate::env::{ACTIONS, OBS_CHANNELS, OBS_LEN};

/// Cells of one observation plane (4 rows of 8 pits).
const CELLS: usize = 32;

/// An MLP policy/value network as plain arrays (see the module docs).
#[derive(Clone, Debug)]
pub struct FastMlp {
    /// The first layer's rows (input-major), then per observation plane the sum of its 32
    /// cells' rows: a constant plane adds one precomputed row instead of 32.
    first: DenseWeights,
    /// The trunk's later layers.
    trunk: Vec<DenseWeights>,
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
        let mut weight = first.weight.clone();
        for c in 0..OBS_CHANNELS {
            let mut sum = vec![0.0f32; width];
            for cell in 0..CELLS {
                axpy::<Portable>(&mut sum, 1.0, first.row(c * CELLS + cell));
            }
            weight.extend_from_slice(&sum);
        }
        let first = DenseWeights {
            inputs: OBS_LEN + OBS_CHANNELS,
            outputs: width,
            weight,
            bias: first.bias.clone(),
        };
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
            first,
            trunk: w.trunk[1..].to_vec(),
            heads,
            value: w.value.clone(),
        })
    }

    /// Probabilities over the legal actions (`masks` 1.0 legal, 0.0 illegal; illegal actions
    /// get exactly 0) and values for a flat batch, as
    /// [`forward_probabilities`](super::forward_probabilities) computes them.
    pub fn forward(&self, obs: &[f32], masks: &[f32], batch: usize) -> (Vec<f32>, Vec<f32>) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has the features `forward_avx512` is compiled for.
                return unsafe { self.forward_avx512(obs, masks, batch) };
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                // SAFETY: the CPU has the features `forward_fma` is compiled for.
                return unsafe { self.forward_fma(obs, masks, batch) };
            }
        }
        self.forward_with::<Portable, 32>(obs, masks, batch)
    }

    /// [`FastMlp::forward`] compiled for AVX2 and FMA: 8 lanes, fused multiply-adds, blocks of
    /// 64 outputs in 8 of the 16 vector registers.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn forward_fma(&self, obs: &[f32], masks: &[f32], batch: usize) -> (Vec<f32>, Vec<f32>) {
        self.forward_with::<Fused, 64>(obs, masks, batch)
    }

    /// [`FastMlp::forward`] compiled for AVX-512: 16 lanes, blocks of 128 outputs in 8 of the 32
    /// vector registers. The sums are added in the same order as on AVX2, so both give the
    /// same bits.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx2,fma")]
    unsafe fn forward_avx512(
        &self,
        obs: &[f32],
        masks: &[f32],
        batch: usize,
    ) -> (Vec<f32>, Vec<f32>) {
        self.forward_with::<Fused, 128>(obs, masks, batch)
    }

    #[inline(always)]
    fn forward_with<K: Madd, const B: usize>(
        &self,
        obs: &[f32],
        masks: &[f32],
        batch: usize,
    ) -> (Vec<f32>, Vec<f32>) {
        let mut priors = vec![0.0f32; batch * ACTIONS];
        let mut values = vec![0.0f32; batch];
        let widest = self.trunk.iter().map(|l| l.outputs).max().unwrap_or(0);
        let widest = widest.max(self.first.outputs).max(self.heads.outputs);
        let mut a = vec![0.0f32; widest];
        let mut b = a.clone();
        let mut active = Vec::with_capacity(widest.max(OBS_LEN));
        for i in 0..batch {
            self.first_inputs(&obs[i * OBS_LEN..(i + 1) * OBS_LEN], &mut active);
            dense_sparse::<K, B>(&self.first, &active, &mut a);
            let mut width = self.first.outputs;
            relu(&mut a[..width]);
            for layer in &self.trunk {
                nonzero(&a[..width], &mut active);
                dense_sparse::<K, B>(layer, &active, &mut b);
                relu(&mut b[..layer.outputs]);
                std::mem::swap(&mut a, &mut b);
                width = layer.outputs;
            }
            nonzero(&a[..width], &mut active);
            dense_sparse::<K, B>(&self.heads, &active, &mut b);
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

    /// The first layer's active rows for observation `x`: a constant plane's precomputed sum,
    /// or each marked cell of the other planes.
    fn first_inputs(&self, x: &[f32], active: &mut Vec<(u32, f32)>) {
        active.clear();
        for c in 0..OBS_CHANNELS {
            let plane = &x[c * CELLS..(c + 1) * CELLS];
            let v = plane[0];
            // A fold without an early exit: the compiler checks all 32 cells in a few vector
            // compares.
            if plane.iter().fold(true, |same, &p| same & (p == v)) {
                if v != 0.0 {
                    active.push(((OBS_LEN + c) as u32, v));
                }
                continue;
            }
            for (cell, &p) in plane.iter().enumerate() {
                if p != 0.0 {
                    active.push(((c * CELLS + cell) as u32, p));
                }
            }
        }
    }
}

impl DenseWeights {
    /// The weights from input `k` to every output.
    fn row(&self, k: usize) -> &[f32] {
        &self.weight[k * self.outputs..(k + 1) * self.outputs]
    }
}

/// The non-zero entries of a (post-ReLU) feature vector, as `(index, value)`.
fn nonzero(features: &[f32], active: &mut Vec<(u32, f32)>) {
    active.clear();
    active.extend(
        features
            .iter()
            .enumerate()
            .filter(|&(_, &x)| x != 0.0)
            .map(|(k, &x)| (k as u32, x)),
    );
}

/// `out = bias + Σ x * row(k)` over the `active` inputs `(k, x)` (the others are zero).
/// Outputs are summed `B` at a time in registers while every active row is added, so each
/// weight is loaded once and each output stored once (an `axpy` per input would load and store
/// the outputs again for every input); the sums are added in the same order either way.
#[inline(always)]
fn dense_sparse<K: Madd, const B: usize>(
    layer: &DenseWeights,
    active: &[(u32, f32)],
    out: &mut [f32],
) {
    let n = layer.outputs;
    let mut start = 0;
    while start + B <= n {
        let mut acc: [f32; B] = layer.bias[start..start + B].try_into().expect("B outputs");
        for &(k, x) in active {
            let at = k as usize * n + start;
            let row: &[f32; B] = layer.weight[at..at + B].try_into().expect("B weights");
            for j in 0..B {
                acc[j] = K::madd(acc[j], x, row[j]);
            }
        }
        out[start..start + B].copy_from_slice(&acc);
        start += B;
    }
    // A narrow layer's last outputs.
    let rest = &mut out[start..n];
    rest.copy_from_slice(&layer.bias[start..n]);
    for &(k, x) in active {
        let at = k as usize * n;
        axpy::<K>(rest, x, &layer.weight[at + start..at + n]);
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
    #[cfg(target_arch = "x86_64")]
    fn avx2_and_avx512_give_the_same_bits() {
        let fma = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
        if !fma || !is_x86_feature_detected!("avx512f") {
            eprintln!("skipped: this CPU lacks AVX2, FMA or AVX-512");
            return;
        }
        let dev = crate::nn::device();
        // 256 and 200 wide: whole blocks of both kernels, and a remainder after them.
        for hidden in [vec![256, 256], vec![200, 136]] {
            let cfg = NetConfig {
                kind: NetKind::Mlp,
                hidden,
                ..NetConfig::default()
            };
            let net = PolicyValueNet::new_seeded(&cfg, &dev, 3);
            let fast = FastMlp::new(&net.mlp_weights().unwrap()).unwrap();
            let (obs, masks) = positions(24);
            // SAFETY: both feature sets were detected above.
            let (p2, v2) = unsafe { fast.forward_fma(&obs, &masks, 24) };
            let (p5, v5) = unsafe { fast.forward_avx512(&obs, &masks, 24) };
            assert_eq!(p2, p5);
            assert_eq!(v2, v5);
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
