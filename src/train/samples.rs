//! Self-play samples into training batches.

use crate::nn::Batch;
use crate::rules::Rules;
use crate::selfplay::Sample;

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
}
