//! A cache of evaluations keyed by position hash, so that a position met again (a
//! transposition, or the same line in the next move's search) costs no forward pass.

use crate::rules::{MAX_MOVES, Position};
use crate::search::zobrist;

/// One cached evaluation: priors quantized to 1/65535 in the position's legal-move order.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    value: f32,
    len: u8,
    priors: [u16; MAX_MOVES],
}

const EMPTY: Entry = Entry {
    key: 0,
    value: 0.0,
    len: 0,
    priors: [0; MAX_MOVES],
};

/// A direct-mapped table of evaluations: a new entry replaces whatever held its slot.
pub struct EvalCache {
    entries: Vec<Entry>,
    mask: usize,
    hits: u64,
    lookups: u64,
}

impl EvalCache {
    /// A cache of `2^bits` entries (about 140 bytes each); 0 bits disables it.
    pub fn new(bits: u32) -> EvalCache {
        let size = if bits == 0 { 0 } else { 1usize << bits.min(24) };
        EvalCache {
            entries: vec![EMPTY; size],
            mask: size.saturating_sub(1),
            hits: 0,
            lookups: 0,
        }
    }

    /// The key of a position (0 is kept for empty slots).
    pub fn key(pos: &Position) -> u64 {
        zobrist::hash(pos).max(1)
    }

    /// The cached value and priors of the position with `key` and `n` legal moves, written into
    /// `priors` (cleared first); `None` when it is not cached.
    pub fn get(&mut self, key: u64, n: usize, priors: &mut Vec<f32>) -> Option<f32> {
        if self.entries.is_empty() {
            return None;
        }
        self.lookups += 1;
        let e = &self.entries[key as usize & self.mask];
        if e.key != key || e.len as usize != n {
            return None;
        }
        self.hits += 1;
        priors.clear();
        let total: f32 = e.priors[..n].iter().map(|&p| f32::from(p)).sum();
        priors.extend(e.priors[..n].iter().map(|&p| {
            if total > 0.0 {
                f32::from(p) / total
            } else {
                1.0 / n as f32
            }
        }));
        Some(e.value)
    }

    /// Stores an evaluation (priors in legal-move order).
    pub(crate) fn put(&mut self, key: u64, priors: &[f32], value: f32) {
        if self.entries.is_empty() || priors.len() > MAX_MOVES {
            return;
        }
        let e = &mut self.entries[key as usize & self.mask];
        e.key = key;
        e.value = value;
        e.len = priors.len() as u8;
        for (q, &p) in e.priors.iter_mut().zip(priors) {
            *q = (p.clamp(0.0, 1.0) * 65535.0).round() as u16;
        }
    }

    /// Lookups and hits so far.
    pub fn stats(&self) -> (u64, u64) {
        (self.lookups, self.hits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_what_was_stored_for_the_same_key_and_move_count_only() {
        let mut c = EvalCache::new(4);
        let mut p = Vec::new();
        assert_eq!(c.get(7, 3, &mut p), None);
        c.put(7, &[0.5, 0.25, 0.25], -0.3);
        assert_eq!(c.get(7, 3, &mut p), Some(-0.3));
        assert!((p[0] - 0.5).abs() < 1e-4 && (p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert_eq!(
            c.get(7, 2, &mut p),
            None,
            "another move count is another position"
        );
        assert_eq!(c.get(7 + 16, 3, &mut p), None, "same slot, other key");
        c.put(7 + 16, &[1.0], 0.1);
        assert_eq!(c.get(7, 3, &mut p), None, "replaced");
        assert_eq!(c.stats(), (5, 1));
        let mut off = EvalCache::new(0);
        off.put(1, &[1.0], 0.0);
        assert_eq!(off.get(1, 1, &mut p), None);
    }
}
