//! The metrics sink: one iteration's figures, each named once (in [`metrics`]), written to
//! `metrics.jsonl` (read by `bao plot` and the Python package), TensorBoard and the console.

use super::{IterationReport, RunDir};
use crate::nn::TbLogger;
use serde_json::{Value, json};

/// One figure: its key in `metrics.jsonl` and its TensorBoard tag (either may be absent).
struct Metric {
    key: Option<&'static str>,
    tag: Option<&'static str>,
    value: Value,
}

fn both(key: &'static str, tag: &'static str, value: impl Into<Value>) -> Metric {
    Metric {
        key: Some(key),
        tag: Some(tag),
        value: value.into(),
    }
}

fn line_only(key: &'static str, value: impl Into<Value>) -> Metric {
    Metric {
        key: Some(key),
        tag: None,
        value: value.into(),
    }
}

/// Every figure of an iteration but the evaluation's (which [`MetricsSink`] names per opponent).
fn metrics(r: &IterationReport) -> Vec<Metric> {
    let (sp, losses) = (&r.selfplay, &r.train.losses);
    let games = &sp.games;
    vec![
        both("loss", "loss/total", losses.total),
        both("policy_loss", "loss/policy", losses.policy),
        both("value_loss", "loss/value", losses.value),
        both("policy_entropy", "train/policy_entropy", losses.entropy),
        both(
            "value_accuracy",
            "train/value_accuracy",
            losses.value_accuracy,
        ),
        both("lr", "train/learning_rate", r.lr),
        both(
            "train_samples_per_sec",
            "train/samples_per_sec",
            r.train.samples_per_sec(),
        ),
        both(
            "selfplay_games_per_sec",
            "selfplay/games_per_sec",
            sp.games_per_sec(),
        ),
        both(
            "selfplay_sims_per_sec",
            "selfplay/sims_per_sec",
            sp.sims_per_sec(),
        ),
        Metric {
            key: None,
            tag: Some("selfplay/plies_per_game"),
            value: (games.plies as f64 / games.games.max(1) as f64).into(),
        },
        both("replay", "replay/size", r.replay),
        both(
            "alphabeta_score",
            "selfplay/score_vs_alphabeta",
            games.alphabeta_score(),
        ),
        both(
            "victim_score",
            "selfplay/score_vs_victim",
            games.victim_score(),
        ),
        line_only("iteration", r.iteration),
        line_only("games", r.total_games),
        line_only("positions", r.total_positions),
        line_only("steps", r.total_steps),
        line_only("south_wins", games.south_wins),
        line_only("north_wins", games.north_wins),
        line_only("draws", games.draws),
        line_only("alphabeta_games", games.alphabeta_games),
        line_only("victim_games", games.victim_games),
        line_only("seconds", r.seconds),
    ]
}

/// The iteration's line of `metrics.jsonl`: a JSON object.
pub fn metrics_line(r: &IterationReport) -> Value {
    let mut line = serde_json::Map::new();
    for m in metrics(r) {
        if let Some(key) = m.key {
            line.insert(key.to_string(), m.value);
        }
    }
    line.insert("eval".to_string(), json!(r.eval));
    Value::Object(line)
}

/// Where a run's figures go: its `metrics.jsonl`, its TensorBoard folder and the console.
pub struct MetricsSink {
    tb: TbLogger,
    iterations: u32,
    quiet: bool,
}

impl MetricsSink {
    /// A sink for the run in `dir` of `iterations` iterations; `quiet` sends the console line to
    /// stderr.
    pub fn new(dir: &RunDir, iterations: u32, quiet: bool) -> anyhow::Result<MetricsSink> {
        Ok(MetricsSink {
            tb: TbLogger::new(&dir.tensorboard())?,
            iterations,
            quiet,
        })
    }

    /// Appends the iteration's line to `metrics.jsonl`: before `meta.json` names the iteration,
    /// so that a resume drops the line of an iteration that did not complete.
    pub fn record(&self, dir: &RunDir, r: &IterationReport) -> anyhow::Result<()> {
        dir.append_metrics(&metrics_line(r))
    }

    /// Logs the iteration to TensorBoard and prints its console line: after `meta.json` names
    /// the iteration, so that an iteration redone after a crash logs its step once.
    pub fn publish(&mut self, r: &IterationReport) {
        let step = i64::from(r.iteration);
        for m in metrics(r) {
            if let (Some(tag), Some(v)) = (m.tag, m.value.as_f64()) {
                self.tb.scalar(tag, v as f32, step);
            }
        }
        for e in &r.eval {
            let name = e.opponent.replace([':', '=', ','], "_");
            self.tb
                .scalar(&format!("eval/score_vs_{name}"), e.score as f32, step);
            self.tb
                .scalar(&format!("eval/elo_vs_{name}"), e.elo as f32, step);
            for (seat, score) in [("south", e.as_south), ("north", e.as_north)] {
                if let Some(score) = score {
                    let tag = format!("eval/score_as_{seat}_vs_{name}");
                    self.tb.scalar(&tag, score as f32, step);
                }
            }
        }
        self.tb.flush();
        let summary = self.summary(r);
        if self.quiet {
            eprintln!("{summary}");
        } else {
            println!("{summary}");
        }
    }

    /// The console line of an iteration.
    fn summary(&self, r: &IterationReport) -> String {
        let (sp, losses) = (&r.selfplay, &r.train.losses);
        let eval_text: String = r
            .eval
            .iter()
            .map(|e| {
                let seats = match (e.as_south, e.as_north) {
                    (Some(s), Some(n)) => {
                        format!("South {:.0}%, North {:.0}%; ", 100.0 * s, 100.0 * n)
                    }
                    _ => String::new(),
                };
                format!(
                    " | vs {} {:.0}% ({seats}Elo {})",
                    e.opponent,
                    100.0 * e.score,
                    e.elo_text()
                )
            })
            .collect();
        let alphabeta_text = sp.games.alphabeta_score().map_or(String::new(), |score| {
            format!(
                " | self-play vs ab {:.0}% of {}",
                100.0 * score,
                sp.games.alphabeta_games
            )
        });
        let victim_text = sp.games.victim_score().map_or(String::new(), |score| {
            format!(
                " | self-play vs victim {:.0}% of {}",
                100.0 * score,
                sp.games.victim_games
            )
        });
        format!(
            "iter {:>3}/{}: {} games ({:.1}/s, {:.0} sims/s), {} positions, loss {:.3} (policy {:.3}, value {:.3}), lr {:.1e}, {:.0}s{alphabeta_text}{victim_text}{eval_text}",
            r.iteration,
            self.iterations,
            sp.games.games,
            sp.games_per_sec(),
            sp.sims_per_sec(),
            r.positions,
            losses.total,
            losses.policy,
            losses.value,
            r.lr,
            r.seconds,
        )
    }
}
