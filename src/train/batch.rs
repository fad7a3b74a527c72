//! Training batches: samples turned into network inputs and targets.

use crate::env::{ACTIONS, OBS_LEN, encode_observation};
use crate::rules::Rules;
use crate::selfplay::Sample;

/// A batch in the flat layout the network takes.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// Number of samples.
    pub size: usize,
    /// Observations, `[size, OBS_CHANNELS, 4, 8]`.
    pub obs: Vec<f32>,
    /// Legal-action masks, `[size, ACTIONS]`, 1.0 for legal.
    pub masks: Vec<f32>,
    /// Target policies (visit distributions), `[size, ACTIONS]`.
    pub policy: Vec<f32>,
    /// Target values for the player to move, `[size]`, in [-1, 1].
    pub value: Vec<f32>,
}

impl Batch {
    /// Encodes `samples`; the value target is `(1 - q_weight) * outcome + q_weight * search
    /// value` (0: the game's result alone).
    pub fn from_samples(rules: &Rules, samples: &[Sample], q_weight: f32) -> Batch {
        let n = samples.len();
        let mut b = Batch {
            size: n,
            obs: vec![0.0; n * OBS_LEN],
            masks: vec![0.0; n * ACTIONS],
            policy: vec![0.0; n * ACTIONS],
            value: Vec::with_capacity(n),
        };
        for (i, s) in samples.iter().enumerate() {
            encode_observation(rules, &s.pos, &mut b.obs[i * OBS_LEN..(i + 1) * OBS_LEN]);
            let masks = &mut b.masks[i * ACTIONS..(i + 1) * ACTIONS];
            for (a, m) in masks.iter_mut().enumerate() {
                *m = (s.legal >> a & 1) as f32;
            }
            for (a, p) in s.policy() {
                b.policy[i * ACTIONS + a] = p;
            }
            b.value
                .push((1.0 - q_weight) * f32::from(s.outcome) + q_weight * s.value());
        }
        b
    }
}
