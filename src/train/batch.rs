//! Training batches: samples turned into network inputs and targets.

use crate::env::{ACTIONS, OBS_LEN, encode_observation, move_to_action};
use crate::rules::{MoveList, Rules};
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
    /// Encodes `samples`.
    pub fn from_samples(rules: &Rules, samples: &[Sample]) -> Batch {
        let n = samples.len();
        let mut b = Batch {
            size: n,
            obs: vec![0.0; n * OBS_LEN],
            masks: vec![0.0; n * ACTIONS],
            policy: vec![0.0; n * ACTIONS],
            value: Vec::with_capacity(n),
        };
        let mut list = MoveList::new();
        for (i, s) in samples.iter().enumerate() {
            encode_observation(rules, &s.pos, &mut b.obs[i * OBS_LEN..(i + 1) * OBS_LEN]);
            let policy = s.policy(rules, &mut list);
            for &mv in list.moves() {
                b.masks[i * ACTIONS + move_to_action(&s.pos, mv)] = 1.0;
            }
            for (k, p) in policy {
                b.policy[i * ACTIONS + move_to_action(&s.pos, list.moves()[k])] = p;
            }
            b.value.push(s.outcome as f32);
        }
        b
    }
}
