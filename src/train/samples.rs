//! Self-play samples into training batches.

use crate::nn::Batch;
use crate::rules::{MoveList, Rules};
use crate::selfplay::Sample;

impl Batch {
    /// Encodes `samples`.
    pub fn from_samples(rules: &Rules, samples: &[Sample]) -> Batch {
        let mut b = Batch::zeroed(samples.len());
        let mut list = MoveList::new();
        for (i, s) in samples.iter().enumerate() {
            let policy = s.policy(rules, &mut list);
            b.set(i, rules, &s.pos, &list, &policy, f32::from(s.outcome));
        }
        b
    }
}
