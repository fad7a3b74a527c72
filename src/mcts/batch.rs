//! One batched evaluation of leaves, the single gather -> evaluate -> deliver step that self-play
//! (one leaf from each of many trees) and play (many leaves of one tree, under virtual loss)
//! both use.

use super::{EvalCache, Inference, InferenceRequest, Tree};
use crate::rules::{Move, Position, Rules};

/// The leaves of one batch and the buffers that evaluate them, kept between batches so that a
/// search allocates nothing per batch.
#[derive(Default)]
pub struct LeafBatch {
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Each leaf's legal moves: a range of `moves`.
    spans: Vec<(usize, usize)>,
    keys: Vec<u64>,
    /// The leaves the cache did not answer, in batch order.
    misses: Vec<usize>,
    priors: Vec<f32>,
    values: Vec<f32>,
    cached: Vec<f32>,
}

impl LeafBatch {
    /// Empties the batch for the next round.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.moves.clear();
        self.spans.clear();
    }

    /// Adds node `id` of `tree` (a leaf returned by a selection, or gathered) to the batch.
    pub fn push(&mut self, tree: &Tree, id: u32) {
        self.positions.push(*tree.position(id));
        let start = self.moves.len();
        tree.extend_child_moves(id, &mut self.moves);
        self.spans.push((start, self.moves.len()));
    }

    /// Leaves in the batch.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the batch has no leaf.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Evaluates the batch and calls `deliver(k, priors, value)` for each leaf `k` (in the order
    /// pushed): the leaves found in `cache` at once, in order, the others after one call to
    /// `eval` (their answers then go into the cache). Returns the number of positions `eval` saw.
    pub fn infer(
        &mut self,
        rules: &Rules,
        eval: &dyn Inference,
        mut cache: Option<&mut EvalCache>,
        mut deliver: impl FnMut(usize, &[f32], f32),
    ) -> usize {
        self.keys.clear();
        self.misses.clear();
        for k in 0..self.positions.len() {
            let Some(cache) = cache.as_deref_mut() else {
                self.misses.push(k);
                continue;
            };
            let key = EvalCache::key(&self.positions[k]);
            self.keys.push(key);
            let (a, b) = self.spans[k];
            match cache.get(key, b - a, &mut self.cached) {
                Some(value) => deliver(k, &self.cached, value),
                None => self.misses.push(k),
            }
        }
        if self.misses.is_empty() {
            return 0;
        }
        let requests: Vec<InferenceRequest> = self
            .misses
            .iter()
            .map(|&k| InferenceRequest {
                pos: &self.positions[k],
                moves: &self.moves[self.spans[k].0..self.spans[k].1],
            })
            .collect();
        self.priors.clear();
        self.values.clear();
        eval.infer(rules, &requests, &mut self.priors, &mut self.values);
        let mut offset = 0;
        for (j, &k) in self.misses.iter().enumerate() {
            let n = self.spans[k].1 - self.spans[k].0;
            let priors = &self.priors[offset..offset + n];
            if let Some(cache) = cache.as_deref_mut() {
                cache.put(self.keys[k], priors, self.values[j]);
            }
            deliver(k, priors, self.values[j]);
            offset += n;
        }
        self.misses.len()
    }
}
