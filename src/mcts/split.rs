//! One batch of evaluations shared out over the threads of the current rayon pool: how a player
//! given `threads N` evaluates its leaves on N threads, whatever the inference does inside (the
//! fast MLP, for one, works through a batch one position at a time).

use super::{Inference, InferenceRequest};
use crate::rules::Rules;
use rayon::prelude::*;

/// Fewer requests than this per thread are evaluated on one thread: handing them out would cost
/// more than it saves.
const MIN_PER_THREAD: usize = 4;

/// An [`Inference`] that splits each batch into up to `parts` parts, evaluates them in parallel
/// on the rayon pool it is called in and joins the answers in request order.
pub struct SplitInference<'a> {
    inner: &'a dyn Inference,
    parts: usize,
}

impl<'a> SplitInference<'a> {
    /// `inner` with batches split into up to `parts` parts.
    pub fn new(inner: &'a dyn Inference, parts: usize) -> Self {
        SplitInference {
            inner,
            parts: parts.max(1),
        }
    }
}

impl Inference for SplitInference<'_> {
    fn infer(
        &self,
        rules: &Rules,
        batch: &[InferenceRequest<'_>],
        priors: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) {
        let parts = self.parts.min(batch.len() / MIN_PER_THREAD);
        if parts <= 1 {
            return self.inner.infer(rules, batch, priors, values);
        }
        let answers: Vec<(Vec<f32>, Vec<f32>)> = batch
            .par_chunks(batch.len().div_ceil(parts))
            .map(|part| {
                let (mut p, mut v) = (Vec::new(), Vec::with_capacity(part.len()));
                self.inner.infer(rules, part, &mut p, &mut v);
                (p, v)
            })
            .collect();
        for (p, v) in answers {
            priors.extend(p);
            values.extend(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::Stamped;
    use crate::rules::{MoveList, Position, Variant};

    #[test]
    fn a_split_batch_answers_in_request_order() {
        let rules = Variant::Kiswahili.rules();
        let (mut positions, mut moves) = (vec![Position::start(&rules)], Vec::new());
        let mut list = MoveList::new();
        for _ in 0..40 {
            positions.last().unwrap().legal_moves(&rules, &mut list);
            moves.push(list.moves().to_vec());
            positions.push(*list.get(0).1);
        }
        let batch: Vec<InferenceRequest> = positions
            .iter()
            .zip(&moves)
            .map(|(pos, moves)| InferenceRequest { pos, moves })
            .collect();
        let (mut want_p, mut want_v) = (Vec::new(), Vec::new());
        Stamped.infer(&rules, &batch, &mut want_p, &mut want_v);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for parts in [1, 2, 3, 64] {
            let (mut p, mut v) = (vec![9.0], vec![9.0]);
            pool.install(|| {
                SplitInference::new(&Stamped, parts).infer(&rules, &batch, &mut p, &mut v)
            });
            assert_eq!(p[1..], want_p[..], "{parts} parts");
            assert_eq!(v[1..], want_v[..], "{parts} parts");
        }
    }
}
