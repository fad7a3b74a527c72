//! Training batches in the flat layout the network takes: observations, legal masks, target
//! policies and values. Training fills them from self-play samples (`train`).

use crate::env::{ACTIONS, OBS_LEN, encode_observation, move_to_action};
use crate::rules::{MoveList, Position, Rules};

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

    /// Encodes sample `i`: the position, its legal moves `list` (the mask), the target policy
    /// as (index in `list`, probability) pairs, and the value for the player to move.
    pub fn set(
        &mut self,
        i: usize,
        rules: &Rules,
        pos: &Position,
        list: &MoveList,
        policy: &[(usize, f32)],
        value: f32,
    ) {
        encode_observation(rules, pos, &mut self.obs[i * OBS_LEN..(i + 1) * OBS_LEN]);
        for &mv in list.moves() {
            self.masks[i * ACTIONS + move_to_action(pos, mv)] = 1.0;
        }
        for &(k, p) in policy {
            self.policy[i * ACTIONS + move_to_action(pos, list.moves()[k])] = p;
        }
        self.value[i] = value;
    }
}
