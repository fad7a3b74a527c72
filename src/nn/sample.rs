//! One training position, stored compactly (at most 128 bytes): the position, its legal
//! actions, the search's policy target over them (by action id, so training needs no move
//! generation), the search's value and the game's outcome.

use crate::env::{ACTIONS, legal_mask_bits, move_to_action};
use crate::rules::{MoveList, Position};

/// The most moves a sample keeps policy targets for (the heaviest ones).
pub const MAX_TARGETS: usize = 20;

/// A training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position searched.
    pub pos: Position,
    /// The game's result for the player to move at `pos`: 1 win, 0 draw, -1 loss.
    pub outcome: i8,
    /// The search's value of `pos` for its mover, times 127.
    pub q: i8,
    /// How many entries of `actions`/`weights` are used.
    pub len: u8,
    /// Action ids of the target moves, ascending.
    pub actions: [u8; MAX_TARGETS],
    /// Their weights in the policy target (visit counts, or a distribution times 65535).
    pub weights: [u16; MAX_TARGETS],
    /// The legal actions: bit `a` for action id `a`.
    pub legal: u64,
}

/// A value in [-1, 1] (clamped) stored as a byte, times 127.
fn to_i8_unit(x: f32) -> i8 {
    (x.clamp(-1.0, 1.0) * 127.0).round() as i8
}

impl Sample {
    /// A sample from per-move weights in the order of `list` (the position's legal moves);
    /// keeps the `MAX_TARGETS` heaviest. `value` is the search's value for the mover.
    pub fn new(pos: Position, list: &MoveList, weights_in_order: &[u32], value: f32) -> Sample {
        let mut order: Vec<usize> = (0..weights_in_order.len().min(list.len()))
            .filter(|&i| weights_in_order[i] > 0)
            .collect();
        order.sort_by_key(|&i| std::cmp::Reverse(weights_in_order[i]));
        order.truncate(MAX_TARGETS);
        let mut targets: Vec<(u8, u16)> = order
            .iter()
            .map(|&i| {
                (
                    move_to_action(&pos, list.moves()[i]) as u8,
                    weights_in_order[i].min(u32::from(u16::MAX)) as u16,
                )
            })
            .collect();
        targets.sort_unstable();
        let mut s = Sample {
            pos,
            outcome: 0,
            q: to_i8_unit(value),
            len: targets.len() as u8,
            actions: [0; MAX_TARGETS],
            weights: [0; MAX_TARGETS],
            legal: legal_mask_bits(&pos, list),
        };
        for (k, (a, w)) in targets.into_iter().enumerate() {
            s.actions[k] = a;
            s.weights[k] = w;
        }
        s
    }

    /// The search's value for the mover, in [-1, 1].
    pub fn value(&self) -> f32 {
        f32::from(self.q) / 127.0
    }

    /// The policy target as (action id, probability).
    pub fn policy(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        let n = self.len as usize;
        let total: f32 = self.weights[..n].iter().map(|&w| f32::from(w)).sum();
        self.actions[..n]
            .iter()
            .zip(&self.weights[..n])
            .map(move |(&a, &w)| (a as usize, f32::from(w) / total.max(1.0)))
    }

    /// Whether the sample is well formed: targets on legal actions only, a known outcome.
    pub fn is_valid(&self) -> bool {
        let n = self.len as usize;
        n <= MAX_TARGETS
            && (-1..=1).contains(&self.outcome)
            && self.actions[..n]
                .iter()
                .all(|&a| (a as usize) < ACTIONS && self.legal >> a & 1 == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_at_most_128_bytes() {
        assert!(
            std::mem::size_of::<Sample>() <= 128,
            "{}",
            std::mem::size_of::<Sample>()
        );
    }

    #[test]
    fn keeps_the_heaviest_moves_by_action_id_with_the_legal_mask() {
        let rules = crate::rules::Variant::Kiswahili.rules();
        let pos = Position::start(&rules);
        let mut list = MoveList::new();
        pos.legal_moves(&rules, &mut list);
        let weights: Vec<u32> = (0..list.len() as u32).map(|i| i % 3).collect();
        let s = Sample::new(pos, &list, &weights, 0.5);
        assert!(s.is_valid());
        assert_eq!(s.legal, legal_mask_bits(&pos, &list));
        assert_eq!(s.legal.count_ones() as usize, list.len());
        assert_eq!(s.value(), 64.0 / 127.0);
        let total: f32 = weights.iter().sum::<u32>() as f32;
        let mut expected: Vec<(usize, f32)> = list
            .moves()
            .iter()
            .zip(&weights)
            .filter(|(_, w)| **w > 0)
            .map(|(&mv, &w)| (move_to_action(&pos, mv), w as f32 / total))
            .collect();
        expected.sort_by_key(|x| x.0);
        assert_eq!(s.policy().collect::<Vec<_>>(), expected);
    }
}
