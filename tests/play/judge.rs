//! `bao judge`, players against perfect play: its report and its errors (the measures themselves,
//! `bao_zero::eval::perfect`, are tested in tests/play/solver.rs).

use crate::common;

/// Two recorded games of Bao la Kujifunza (alpha-beta against random) in `dir`, for the judge.
fn recorded_games(dir: &std::path::Path) -> std::path::PathBuf {
    let records = dir.join("games.kiba");
    let eval = common::bao_with_input(
        &[
            "eval",
            "-v",
            "kujifunza",
            "--a",
            "ab:depth=2",
            "--b",
            "random",
            "-n",
            "2",
            "--seed",
            "3",
            "--quiet",
            "--records",
            records.to_str().unwrap(),
        ],
        "",
        None,
    );
    assert!(eval.status.success());
    records
}

/// `bao judge` of `player` and random on `records` as `variant`, with `more` arguments.
fn judge(
    records: &std::path::Path,
    variant: &str,
    player: &str,
    more: &[&str],
) -> std::process::Output {
    let mut args = vec![
        "judge",
        "-v",
        variant,
        "--records",
        records.to_str().unwrap(),
        "--player",
        player,
        "--player",
        "random",
        "--positions",
        "8",
        "--solve-time",
        "5",
        "--memory",
        "64",
        "--convert",
        "2",
        "--no-cache",
        "--quiet",
        "--json",
    ];
    args.extend(more);
    common::bao_with_input(&args, "", None)
}

#[test]
fn bao_judge_reports_each_player_and_refuses_bad_input_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let records = recorded_games(dir.path());
    let out = judge(
        &records,
        "kujifunza",
        "solver:time=10s,memory=64",
        &["--skip-plies", "14"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["positions"], 8);
    // Positions the solver does not prove in time are left out.
    let proven = json["proven"].as_u64().unwrap();
    assert!((1..=8).contains(&proven), "{json}");
    let players = json["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    assert_eq!(players[0]["player"], "solver:time=10s,memory=64");
    assert_eq!(players[0]["won"]["count"], players[0]["won"]["of"]);
    assert_eq!(
        players[0]["converted"]["count"],
        players[0]["converted"]["of"]
    );
    assert_eq!(players[1]["player"], "random");
    // Every share carries its Wilson interval around the observed proportion.
    let won = &players[1]["won"];
    let ratio = won["count"].as_f64().unwrap() / won["of"].as_f64().unwrap().max(1.0);
    let (low, high) = (won["low"].as_f64().unwrap(), won["high"].as_f64().unwrap());
    assert!(low <= ratio && ratio <= high && high <= 1.0, "{won}");

    for (variant, player, needle) in [
        ("hus", "random", "is a game of kujifunza, not hus"),
        ("kujifunza", "nonsense:x", "nonsense"),
    ] {
        let out = judge(&records, variant, player, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.lines().count() == 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
}

#[test]
fn bao_judge_takes_the_last_plies_alone_and_proves_the_same_on_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let records = recorded_games(dir.path());
    // Only the last 3 plies of each of the 2 games: at most 6 positions, all proven at once.
    let out = judge(&records, "kujifunza", "random", &["--last-plies", "3"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let positions = json["positions"].as_u64().unwrap();
    assert!((2..=6).contains(&positions), "{json}");
    assert_eq!(
        (json["last_plies"].as_u64(), json["proven"].as_u64()),
        (Some(3), Some(positions))
    );
    let two = judge(
        &records,
        "kujifunza",
        "random",
        &["--last-plies", "3", "--threads", "2"],
    );
    let two: serde_json::Value = serde_json::from_slice(&two.stdout).unwrap();
    for key in ["positions", "proven", "critical_won", "critical_drawn"] {
        assert_eq!(two[key], json[key], "{key}: {two}");
    }
    assert_eq!(two["players"][0]["won"], json["players"][0]["won"]);
}

#[test]
fn bao_judge_says_a_bad_record_move_once_and_refuses_a_zero_ply_cap() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.kiba");
    std::fs::write(&records, "[Variant \"kujifunza\"]\n1: Z9< a1>;\n").unwrap();
    let judge = |more: &[&str]| {
        let mut args = vec![
            "judge",
            "-v",
            "kujifunza",
            "--player",
            "random",
            "--no-cache",
        ];
        args.extend(["--records", records.to_str().unwrap()]);
        args.extend(more);
        common::bao_with_input(&args, "", None)
    };
    let out = judge(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.lines().count() == 1, "{err}");
    assert!(err.contains("record 1 of"), "{err}");
    assert_eq!(err.matches("Z9<").count(), 1, "said once: {err}");
    let out = judge(&["--max-plies", "0", "--convert", "5"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.lines().count() == 1, "{err}");
    assert!(err.contains("--max-plies must be at least 1"), "{err}");
}
