//! A training run's `metrics.jsonl` read into the series the charts draw.
//!
//! Each line is one iteration's JSON object (written by the training loop, see
//! `train::RunDir`). Fields missing from a line (an older run, an iteration without training
//! steps) leave a gap in their series; lines that are not JSON are skipped, so a chart can be
//! drawn while a run is writing.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// One point of an evaluation series: the iteration, the value and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The iteration evaluated.
    pub iteration: f64,
    /// The value (score or Elo).
    pub value: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// What the charts of a run show, per iteration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunMetrics {
    /// Total, policy and value losses: `(iteration, loss)`.
    pub loss: Vec<(f64, f64)>,
    /// Policy cross-entropy.
    pub policy_loss: Vec<(f64, f64)>,
    /// Value mean squared error.
    pub value_loss: Vec<(f64, f64)>,
    /// Entropy of the network's policy on the training batches.
    pub policy_entropy: Vec<(f64, f64)>,
    /// Mean plies of a self-play game of the iteration.
    pub plies_per_game: Vec<(f64, f64)>,
    /// Evaluation score (0..1) against each opponent, with its interval.
    pub score: BTreeMap<String, Vec<Interval>>,
    /// Evaluation Elo difference against each opponent, with its interval.
    pub elo: BTreeMap<String, Vec<Interval>>,
}

/// The score a player with this Elo advantage expects (the inverse of the logistic Elo).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl RunMetrics {
    /// Reads `metrics.jsonl`.
    pub fn read(path: &Path) -> anyhow::Result<RunMetrics> {
        let text = crate::util::read_regular_text_bounded(
            path,
            crate::util::limits::TEXT,
            "metrics file",
        )?;
        Ok(RunMetrics::parse(&text))
    }

    /// Reads the lines of a `metrics.jsonl`.
    pub fn parse(text: &str) -> RunMetrics {
        let mut m = RunMetrics::default();
        // Cumulative games and positions of the previous line, for the game length of runs
        // that do not write it.
        let mut previous: Option<(f64, f64)> = None;
        for line in text.lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let Some(it) = v.get("iteration").and_then(Value::as_f64) else {
                continue;
            };
            let num = |key: &str| v.get(key).and_then(Value::as_f64).filter(|x| x.is_finite());
            let steps_taken = num("policy_loss").is_some_and(|p| p > 0.0);
            if steps_taken {
                for (series, key) in [
                    (&mut m.loss, "loss"),
                    (&mut m.policy_loss, "policy_loss"),
                    (&mut m.value_loss, "value_loss"),
                    (&mut m.policy_entropy, "policy_entropy"),
                ] {
                    if let Some(x) = num(key) {
                        series.push((it, x));
                    }
                }
            }
            let totals = num("games").zip(num("positions"));
            let length = num("selfplay_plies_per_game").or_else(|| {
                let ((g, p), (g0, p0)) = (totals?, previous.unwrap_or((0.0, 0.0)));
                (g > g0).then(|| (p - p0) / (g - g0))
            });
            if let Some(x) = length {
                m.plies_per_game.push((it, x));
            }
            previous = totals.or(previous);
            for e in v
                .get("eval")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let field = |k: &str| e.get(k).and_then(Value::as_f64);
                let (Some(opp), Some(score), Some(elo)) = (
                    e.get("opponent").and_then(Value::as_str),
                    field("score"),
                    field("elo"),
                ) else {
                    continue;
                };
                let low = field("elo_low").unwrap_or(elo);
                let high = field("elo_high").unwrap_or(elo);
                m.elo.entry(opp.to_string()).or_default().push(Interval {
                    iteration: it,
                    value: elo,
                    low,
                    high,
                });
                m.score.entry(opp.to_string()).or_default().push(Interval {
                    iteration: it,
                    value: score,
                    low: score_of_elo(low).min(score),
                    high: score_of_elo(high).max(score),
                });
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_losses_lengths_and_evaluations() {
        let text = r#"{"iteration":1,"games":10,"positions":500,"loss":3.0,"policy_loss":2.5,"value_loss":0.5,"policy_entropy":2.0,"eval":[]}
not json
{"iteration":2,"games":20,"positions":1100,"loss":2.0,"policy_loss":1.6,"value_loss":0.4,"policy_entropy":1.5,"eval":[{"iteration":2,"opponent":"random","games":10,"score":0.75,"elo":190.8,"elo_low":50.0,"elo_high":400.0}]}
"#;
        let m = RunMetrics::parse(text);
        assert_eq!(m.loss, vec![(1.0, 3.0), (2.0, 2.0)]);
        assert_eq!(m.plies_per_game, vec![(1.0, 50.0), (2.0, 60.0)]);
        let e = &m.elo["random"][0];
        assert_eq!(
            (e.iteration, e.value, e.low, e.high),
            (2.0, 190.8, 50.0, 400.0)
        );
        let s = &m.score["random"][0];
        assert!(s.low < 0.75 && s.high > 0.75 && s.high < 1.0, "{s:?}");
    }

    #[test]
    fn elo_and_score_agree() {
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-12);
        assert!((score_of_elo(190.849) - 0.75).abs() < 1e-4);
    }
}
