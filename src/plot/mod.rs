//! Charts of a training run (`bao plot RUN_DIR`): losses, policy entropy, self-play game length,
//! and evaluation score and Elo against each opponent with their 95% intervals (and the score in
//! each seat, where the run records it), per iteration,
//! each as a PNG and an SVG file in `RUN_DIR/plots/`.
//!
//! It reads only the run's `metrics.jsonl`, so it needs no network and can be called by the
//! training loop after each evaluation ([`write_charts`]) or at any time from the command line.

mod chart;
pub mod metrics;

pub use chart::{Chart, Series};
pub use metrics::RunMetrics;

use std::path::{Path, PathBuf};

/// The folder of a run's charts.
fn plots_dir(run_dir: &Path) -> PathBuf {
    run_dir.join("plots")
}

/// The charts of a run's metrics (those with nothing to draw left out).
pub fn charts(m: &RunMetrics, run_name: &str) -> Vec<Chart> {
    let line = |name: &str, points: &[(f64, f64)]| Series {
        name: name.to_string(),
        points: points.to_vec(),
        intervals: Vec::new(),
    };
    let per_opponent = |map: &std::collections::BTreeMap<String, Vec<metrics::Interval>>| {
        map.iter()
            .map(|(opponent, points)| Series {
                name: format!("vs {opponent}"),
                points: points.iter().map(|p| (p.iteration, p.value)).collect(),
                intervals: points
                    .iter()
                    .map(|p| (p.iteration, p.low, p.high))
                    .collect(),
            })
            .collect::<Vec<_>>()
    };
    let title = |what: &str| format!("{run_name}: {what}");
    let all = vec![
        Chart {
            file: "losses",
            title: title("training losses"),
            y_label: "loss",
            series: vec![
                line("total", &m.loss),
                line("policy (cross-entropy)", &m.policy_loss),
                line("value (MSE)", &m.value_loss),
            ],
        },
        Chart {
            file: "policy_entropy",
            title: title("policy entropy"),
            y_label: "entropy (nats)",
            series: vec![line("policy entropy", &m.policy_entropy)],
        },
        Chart {
            file: "game_length",
            title: title("self-play game length"),
            y_label: "plies per game",
            series: vec![line("plies per game", &m.plies_per_game)],
        },
        Chart {
            file: "eval_score",
            title: title("evaluation score (95% intervals)"),
            y_label: "score",
            series: per_opponent(&m.score),
        },
        Chart {
            file: "eval_score_by_seat",
            title: title("evaluation score in each seat"),
            y_label: "score",
            series: (m.seat_score.iter())
                .map(|((opponent, seat), points)| {
                    line(&format!("vs {opponent}, as {seat}"), points)
                })
                .collect(),
        },
        Chart {
            file: "eval_elo",
            title: title("evaluation Elo difference (95% intervals)"),
            y_label: "Elo",
            series: per_opponent(&m.elo),
        },
    ];
    all.into_iter().filter(|c| !c.is_empty()).collect()
}

/// Draws the charts of the run in `run_dir` into `run_dir/plots/` (PNG and SVG each) and returns
/// the files written. Fails if the run has no `metrics.jsonl` or nothing in it to draw. Values a
/// chart cannot show (see [`metrics::MAX_SHOWN`]) are left out, each with a warning on stderr.
pub fn write_charts(run_dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let path = run_dir.join("metrics.jsonl");
    let metrics = RunMetrics::read(&path)?;
    for note in &metrics.skipped {
        eprintln!("warning: {} {note}", path.display());
    }
    let name = run_dir
        .canonicalize()
        .unwrap_or_else(|_| run_dir.to_path_buf())
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "run".to_string());
    let charts = charts(&metrics, &name);
    anyhow::ensure!(
        !charts.is_empty(),
        "{} has no iterations to chart yet",
        path.display()
    );
    let dir = plots_dir(run_dir);
    let mut files = Vec::new();
    for c in &charts {
        files.extend(c.write(&dir)?);
    }
    Ok(files)
}
