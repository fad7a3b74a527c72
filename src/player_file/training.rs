//! What training did, as the run directory and the player file record it.

use serde::{Deserialize, Serialize};

/// What a training run has done: the run directory's `meta.json`, and the `training` record of
/// a player file exported from the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// Format version of the run directory.
    pub version: u32,
    /// The last completed iteration (1-based); 0 before the first.
    pub iteration: u32,
    /// Self-play games played so far.
    pub games: u64,
    /// Positions (samples) produced so far.
    pub positions: u64,
    /// Training steps taken so far.
    pub steps: u64,
    /// The variant trained.
    pub variant: String,
    /// Latest evaluation results: opponent spec -> (score, elo, elo interval half-width).
    pub eval: Vec<EvalEntry>,
    /// The iteration with the best mean evaluation score so far (0: none evaluated), kept when
    /// older checkpoints are pruned.
    #[serde(default)]
    pub best_iteration: u32,
    /// Its mean score over the evaluation opponents.
    #[serde(default)]
    pub best_score: f64,
}

/// One evaluation result kept in the metadata.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalEntry {
    /// Iteration evaluated.
    pub iteration: u32,
    /// Opponent spec.
    pub opponent: String,
    /// Games played.
    pub games: usize,
    /// Score of the trained player (wins + draws/2) / games.
    pub score: f64,
    /// Elo difference and its 95% interval, an end unbounded (infinite, `null` in JSON) where
    /// the score interval reaches 0% or 100%.
    pub elo: f64,
    #[serde(
        serialize_with = "crate::eval::elo::unbounded_elo::serialize",
        deserialize_with = "crate::eval::elo::unbounded_elo::low"
    )]
    pub elo_low: f64,
    #[serde(
        serialize_with = "crate::eval::elo::unbounded_elo::serialize",
        deserialize_with = "crate::eval::elo::unbounded_elo::high"
    )]
    pub elo_high: f64,
    /// Its score over the games it played South, where the seats were measured apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_south: Option<f64>,
    /// Its score over the games it played North, where the seats were measured apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_north: Option<f64>,
}

impl EvalEntry {
    /// The Elo estimate as text, a bound at a score of 0 or 1 (see [`crate::eval::elo::elo_text`]).
    pub fn elo_text(&self) -> String {
        crate::eval::elo::elo_text(self.score, self.elo, self.elo_low, self.elo_high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An unbounded end of an Elo interval (a score of 100%) is `null` in meta.json and reads
    /// back as unbounded.
    #[test]
    fn an_unbounded_elo_end_round_trips_through_json() {
        let won = EvalEntry {
            iteration: 3,
            opponent: "random".into(),
            games: 1,
            score: 1.0,
            elo: 0.0,
            elo_low: -233.8,
            elo_high: f64::INFINITY,
            as_south: Some(1.0),
            as_north: None,
        };
        let text = serde_json::to_string(&won).unwrap();
        assert!(text.contains(r#""elo_high":null"#), "{text}");
        assert_eq!(serde_json::from_str::<EvalEntry>(&text).unwrap(), won);
        assert_eq!(won.elo_text(), "> -234");
        let lost = EvalEntry {
            score: 0.0,
            elo_low: f64::NEG_INFINITY,
            elo_high: 233.8,
            ..won
        };
        let text = serde_json::to_string(&lost).unwrap();
        assert_eq!(serde_json::from_str::<EvalEntry>(&text).unwrap(), lost);
    }
}
