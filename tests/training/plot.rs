//! `bao plot`'s library call on a small synthetic run: every chart is written as a PNG and an
//! SVG file of a plausible size.

use bao_zero::plot::write_charts;
use serde_json::json;

/// A run directory with `iterations` lines of metrics and an evaluation every other iteration.
fn synthetic_run(iterations: u32) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bao-plot-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::new();
    for i in 1..=iterations {
        let x = f64::from(i);
        let eval = if i % 2 == 0 {
            json!([
                {"iteration": i, "opponent": "random", "games": 40, "score": 0.6 + 0.03 * x.min(10.0),
                 "elo": 70.0 + 20.0 * x, "elo_low": 20.0 + 20.0 * x, "elo_high": 130.0 + 20.0 * x},
                {"iteration": i, "opponent": "ab:depth=2", "games": 40, "score": 0.2 + 0.04 * x,
                 "elo": -240.0 + 25.0 * x, "elo_low": -320.0 + 25.0 * x, "elo_high": -170.0 + 25.0 * x},
            ])
        } else {
            json!([])
        };
        let line = json!({
            "iteration": i, "games": 64 * i, "positions": 64 * i * (60 + i),
            "loss": 4.0 / x.sqrt(), "policy_loss": 3.2 / x.sqrt(), "value_loss": 0.8 / x.sqrt(),
            "policy_entropy": 2.5 - 0.05 * x, "eval": eval,
        });
        text.push_str(&line.to_string());
        text.push('\n');
    }
    std::fs::write(dir.join("metrics.jsonl"), text).unwrap();
    dir
}

#[test]
fn charts_are_png_and_svg_files() {
    let dir = synthetic_run(12);
    let files = write_charts(&dir).unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for chart in [
        "losses",
        "policy_entropy",
        "game_length",
        "eval_score",
        "eval_elo",
    ] {
        for ext in ["png", "svg"] {
            assert!(
                names.contains(&format!("{chart}.{ext}")),
                "{chart}.{ext} missing from {names:?}"
            );
        }
    }
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        if f.extension().unwrap() == "png" {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{}", f.display());
            assert!(
                bytes.len() > 10_000,
                "{} is {} bytes",
                f.display(),
                bytes.len()
            );
        } else {
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.starts_with("<svg"), "{}", f.display());
            assert!(
                text.contains("iteration"),
                "{} has no axis label",
                f.display()
            );
            assert!(
                text.len() > 5_000,
                "{} is {} bytes",
                f.display(),
                text.len()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_without_metrics_is_an_error() {
    let dir = std::env::temp_dir().join(format!("bao-plot-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let err = write_charts(&dir).unwrap_err();
    assert!(err.to_string().contains("metrics.jsonl"), "{err}");
    std::fs::write(dir.join("metrics.jsonl"), "").unwrap();
    let err = write_charts(&dir).unwrap_err();
    assert!(err.to_string().contains("no iterations"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
