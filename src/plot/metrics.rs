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
    /// Evaluation Elo difference against each opponent, with its interval; an end at a score
    /// of 0% or 100% is infinite (unbounded).
    pub elo: BTreeMap<String, Vec<Interval>>,
    /// Evaluation score against each opponent in each seat of the player measured, as
    /// `(opponent, "South" or "North")`: `(iteration, score)`, where the line records it.
    pub seat_score: BTreeMap<(String, &'static str), Vec<(f64, f64)>>,
    /// What the charts leave out, as text naming the line (a value too large to draw, from a
    /// damaged or edited line).
    pub skipped: Vec<String>,
}

/// The largest magnitude a chart shows: no loss, game length or Elo of a run comes near it, so a
/// figure beyond it is damaged, and axis arithmetic on it would overflow.
const MAX_SHOWN: f64 = 1e9;

/// The score a player with this Elo advantage expects (the inverse of the logistic Elo).
fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl RunMetrics {
    /// Reads `metrics.jsonl`.
    pub fn read(path: &Path) -> anyhow::Result<RunMetrics> {
        let text = crate::util::fs::read_regular_text_bounded(
            path,
            crate::util::fs::limits::TEXT,
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
        for (index, line) in text.lines().enumerate() {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let Some(it) = v.get("iteration").and_then(Value::as_f64) else {
                continue;
            };
            let mut at = Place {
                line: index + 1,
                skipped: &mut m.skipped,
            };
            let Some(it) = at.shown("iteration", Some(it)) else {
                continue;
            };
            let mut num = |key: &str| at.shown(key, v.get(key).and_then(Value::as_f64));
            let steps_taken = v
                .get("policy_loss")
                .and_then(Value::as_f64)
                .is_some_and(|p| p > 0.0);
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
            // Cumulative counts are not drawn (a long run passes a billion positions); the
            // length drawn from them is checked.
            let count = |key: &str| v.get(key).and_then(Value::as_f64).filter(|x| x.is_finite());
            let totals = count("games").zip(count("positions"));
            let length = num("selfplay_plies_per_game").or_else(|| {
                let ((g, p), (g0, p0)) = (totals?, previous.unwrap_or((0.0, 0.0)));
                (g > g0).then(|| (p - p0) / (g - g0))
            });
            if let Some(x) = at.shown("plies per game", length) {
                m.plies_per_game.push((it, x));
            }
            previous = totals.or(previous);
            m.read_evaluations(&v, it, index + 1);
        }
        m
    }

    /// Reads the evaluations of one line (`v`, iteration `it`, line number `line`).
    fn read_evaluations(&mut self, v: &Value, it: f64, line: usize) {
        for e in v
            .get("eval")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let mut at = Place {
                line,
                skipped: &mut self.skipped,
            };
            let field = |k: &str| e.get(k).and_then(Value::as_f64);
            let (Some(opp), Some(score), Some(elo)) = (
                e.get("opponent").and_then(Value::as_str),
                at.shown("score", field("score")),
                at.shown("elo", field("elo")),
            ) else {
                continue;
            };
            let low = at.interval_end("elo_low", e.get("elo_low"), elo, f64::NEG_INFINITY);
            let high = at.interval_end("elo_high", e.get("elo_high"), elo, f64::INFINITY);
            self.elo.entry(opp.to_string()).or_default().push(Interval {
                iteration: it,
                value: elo,
                low,
                high,
            });
            self.score
                .entry(opp.to_string())
                .or_default()
                .push(Interval {
                    iteration: it,
                    value: score,
                    low: score_of_elo(low).min(score),
                    high: score_of_elo(high).max(score),
                });
            for (key, seat) in [("as_south", "South"), ("as_north", "North")] {
                if let Some(score) = field(key).filter(|x| x.is_finite()) {
                    let series = self.seat_score.entry((opp.to_string(), seat));
                    series.or_default().push((it, score));
                }
            }
        }
    }
}

/// A line of `metrics.jsonl` being read, and where it notes what the charts leave out.
struct Place<'a> {
    line: usize,
    skipped: &'a mut Vec<String>,
}

impl Place<'_> {
    /// The value of `key`, if there is one and a chart can show it; one it cannot is noted.
    fn shown(&mut self, key: &str, value: Option<f64>) -> Option<f64> {
        let x = value?;
        if x.is_finite() && x.abs() <= MAX_SHOWN {
            return Some(x);
        }
        self.skipped.push(format!(
            "line {}: {key} {x:e} is too large to chart; left out",
            self.line
        ));
        None
    }

    /// An end of an Elo interval: missing (an older run) is the estimate `elo`, `null` is
    /// `unbounded` (a score of 0% or 100%), and a value a chart cannot show is unbounded too,
    /// drawn to the chart's edge, and noted.
    fn interval_end(&mut self, key: &str, value: Option<&Value>, elo: f64, unbounded: f64) -> f64 {
        match value {
            None => elo,
            Some(Value::Null) => unbounded,
            Some(v) => match v.as_f64() {
                Some(x) if x.is_finite() && x.abs() <= MAX_SHOWN => x,
                _ => {
                    self.skipped.push(format!(
                        "line {}: {key} {v} is too large to chart; drawn as unbounded",
                        self.line
                    ));
                    unbounded
                }
            },
        }
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
        // A line without seats (an older run) has none to chart.
        assert!(m.seat_score.is_empty());
        let seats = r#"{"iteration":3,"loss":1.0,"eval":[{"opponent":"greedy","score":0.5,"elo":0.0,"elo_low":-90.0,"elo_high":90.0,"as_south":0.75,"as_north":0.25}]}"#;
        let m = RunMetrics::parse(seats);
        let south = &m.seat_score[&("greedy".to_string(), "South")];
        let north = &m.seat_score[&("greedy".to_string(), "North")];
        assert_eq!(
            (south.as_slice(), north.as_slice()),
            (&[(3.0, 0.75)][..], &[(3.0, 0.25)][..])
        );
    }

    #[test]
    fn elo_and_score_agree() {
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-12);
        assert!((score_of_elo(190.849) - 0.75).abs() < 1e-4);
    }
}
