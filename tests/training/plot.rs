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
                 "elo": 70.0 + 20.0 * x, "elo_low": 20.0 + 20.0 * x, "elo_high": 130.0 + 20.0 * x,
                 "as_south": 0.7 + 0.02 * x.min(10.0), "as_north": 0.5 + 0.04 * x.min(10.0)},
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
        "eval_score_by_seat",
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

/// A damaged line (a finite but huge Elo end and loss) neither hangs the charts (the axis
/// padding overflowed to infinity) nor stops them: the value is left out or drawn as unbounded.
#[test]
fn huge_values_are_left_out_not_looped_on() {
    let dir = std::env::temp_dir().join(format!("bao-plot-huge-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let text = concat!(
        r#"{"iteration":1,"games":10,"positions":500,"loss":3.0,"policy_loss":2.5,"value_loss":0.5,"policy_entropy":2.0,"eval":[{"iteration":1,"opponent":"random","games":1,"score":1.0,"elo":0.0,"elo_low":-234.0,"elo_high":null}]}"#,
        "\n",
        r#"{"iteration":2,"games":20,"positions":1100,"loss":1e300,"policy_loss":1.6,"value_loss":0.4,"policy_entropy":1.5,"eval":[{"iteration":2,"opponent":"random","games":10,"score":0.75,"elo":190.8,"elo_low":50.0,"elo_high":1.7e308}]}"#,
        "\n"
    );
    std::fs::write(dir.join("metrics.jsonl"), text).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let run = dir.clone();
    std::thread::spawn(move || {
        let _ = tx.send(write_charts(&run).map_err(|e| e.to_string()));
    });
    let files = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the charts were not drawn within 30 s")
        .unwrap();
    assert_eq!(files.len(), 10, "{files:?}");
    let m = bao_zero::plot::RunMetrics::read(&dir.join("metrics.jsonl")).unwrap();
    assert_eq!(m.loss, vec![(1.0, 3.0)]);
    let elo = &m.elo["random"];
    assert_eq!((elo[0].low, elo[0].high), (-234.0, f64::INFINITY));
    assert_eq!((elo[1].low, elo[1].high), (50.0, f64::INFINITY));
    assert_eq!(m.skipped.len(), 2, "{:?}", m.skipped);
    assert!(
        m.skipped[0].starts_with("line 2: loss 1e300"),
        "{:?}",
        m.skipped
    );
    assert!(m.skipped[1].contains("elo_high"), "{:?}", m.skipped);
    let _ = std::fs::remove_dir_all(&dir);
}
