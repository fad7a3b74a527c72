//! The data the network trains on: batches in the flat layout it takes (observations, legal
//! masks, target policies and values), filled from self-play's samples, and the window the
//! samples are drawn from.

use super::Sample;
use crate::env::{ACTIONS, OBS_LEN, encode_observation};
use crate::rules::{Position, Rules};
use rand_chacha::ChaCha8Rng;

/// Where training draws its samples: self-play's replay window.
pub trait SampleWindow {
    /// `n` samples drawn uniformly with replacement.
    fn draw(&self, n: usize, rng: &mut ChaCha8Rng) -> Vec<Sample>;
}

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
        let mut b = Batch::zeroed(samples.len());
        for (i, s) in samples.iter().enumerate() {
            let value = (1.0 - q_weight) * f32::from(s.outcome) + q_weight * s.value();
            b.set(i, rules, &s.pos, s.legal, s.policy(), value);
        }
        b
    }

    /// `size` zeroed samples (values 0).
    pub fn zeroed(size: usize) -> Batch {
        Batch {
            size,
            obs: vec![0.0; size * OBS_LEN],
            masks: vec![0.0; size * ACTIONS],
            policy: vec![0.0; size * ACTIONS],
            value: vec![0.0; size],
        }
    }

    /// Encodes sample `i`: the position, its legal actions (bit `a` for action id `a`), the
    /// target policy as (action id, probability) pairs, and the value for the player to move.
    pub fn set(
        &mut self,
        i: usize,
        rules: &Rules,
        pos: &Position,
        legal: u64,
        policy: impl IntoIterator<Item = (usize, f32)>,
        value: f32,
    ) {
        encode_observation(rules, pos, &mut self.obs[i * OBS_LEN..(i + 1) * OBS_LEN]);
        for (a, m) in self.masks[i * ACTIONS..(i + 1) * ACTIONS]
            .iter_mut()
            .enumerate()
        {
            *m = (legal >> a & 1) as f32;
        }
        for (a, p) in policy {
            self.policy[i * ACTIONS + a] = p;
        }
        self.value[i] = value;
    }
}
