//! The `bao` command line as a user meets it: bounds on what would never finish, quiet ends in
//! pipes, files written where the user says.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

fn bao() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bao"))
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = bao().args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_refuses_a_depth_it_could_never_finish_instead_of_overflowing_the_stack() {
    for depth in ["65", "1500", "99999999"] {
        let (ok, _, err) = run(&["perft", "--depth", depth]);
        assert!(!ok);
        assert!(err.contains("not in 0..=64"), "{err}");
        assert!(!err.contains("overflow"), "{err}");
    }
    let (ok, out, _) = run(&["perft", "--depth", "3"]);
    assert!(ok);
    assert!(out.contains("perft 3 = 38"), "{out}");
}

#[test]
fn random_games_stop_at_the_ply_cap_and_are_counted_as_truncated() {
    // A cap below any game's length: every game is cut there.
    let (ok, out, err) = run(&["random", "-n", "4", "--max-plies", "10"]);
    assert!(ok, "{err}");
    assert!(out.contains("truncated at 10 plies 4"), "{out}");
    assert!(out.contains("longest 10"), "{out}");
    // Rule options that make games endless (no capture lifts any seed): the cap ends them.
    let rules = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(rules.path(), "max_capture_lift = 0\n").unwrap();
    let rules = rules.path().to_str().unwrap();
    let args = [
        "random",
        "-n",
        "20",
        "--rules",
        rules,
        "--max-plies",
        "2000",
    ];
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    assert!(!out.contains("truncated at 2000 plies 0;"), "{out}");
    assert!(out.contains("longest 2000"), "{out}");
    let (ok, out, _) = run(&["random", "-n", "4"]);
    assert!(ok);
    assert!(out.contains("truncated at 10000 plies 0"), "{out}");
    let (ok, _, err) = run(&["random", "--max-plies", "0"]);
    assert!(!ok && err.contains("--max-plies"), "{err}");
}

#[cfg(unix)]
#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    use std::os::unix::process::ExitStatusExt;
    // Many lines of output, and a reader that goes away after reading nothing.
    let mut child = bao()
        .args(["random", "-n", "3000", "--records", "/dev/stdout"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    // Ended by SIGPIPE, as `seq 1000000 | head -n 1` ends `seq`, or by a one-line error.
    assert!(
        out.status.signal() == Some(libc::SIGPIPE) || err.lines().count() <= 1,
        "{:?}: {err}",
        out.status
    );
}

#[cfg(feature = "ml")]
#[test]
fn a_game_you_play_is_saved_under_games_and_the_path_is_printed() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::bao_with_input(
        &["play", "--against", "random", "--seed", "3"],
        "moves\nquit\n",
        Some(dir.path()),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let saved: Vec<_> = std::fs::read_dir(dir.path().join("games"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let name = saved[0].file_name().unwrap().to_string_lossy().to_string();
    assert!(
        name.starts_with("kiswahili-") && name.ends_with(".txt"),
        "{name}"
    );
    assert!(stdout.contains(&format!("games/{name}")), "{stdout}");
    assert!(!dir.path().join("bao-game.txt").exists());
    // --record puts it where the user says.
    let chosen = dir.path().join("mine.txt");
    let out = common::bao_with_input(
        &[
            "play",
            "--against",
            "random",
            "--record",
            chosen.to_str().unwrap(),
        ],
        "quit\n",
        None,
    );
    assert!(out.status.success());
    assert!(chosen.is_file());
}

#[cfg(feature = "ml")]
#[test]
fn play_picks_the_shipped_player_of_the_variant_or_says_there_is_none() {
    // A ladder step has no shipped player: the error names the file it looked for.
    let (ok, _, err) = run(&["play", "--variant", "ladder-kimbi"]);
    assert!(!ok);
    assert!(
        err.contains("no shipped player for ladder-kimbi")
            && err.contains("checkpoints/shipped/ladder-kimbi.bao"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[cfg(feature = "ml")]
#[test]
fn every_shipped_player_is_the_default_player_of_its_game_in_the_engine() {
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("checkpoints/shipped");
    let mut games: Vec<String> = std::fs::read_dir(&shipped)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.strip_suffix(".bao").map(str::to_string)
        })
        .collect();
    games.sort();
    assert!(
        games.len() >= 6 && games.contains(&"kiswahili".to_string()),
        "{games:?}"
    );
    for game in &games {
        let input = format!("variant {game}\nplayer default\ngo nodes 16\nquit\n");
        let out = common::bao_with_input(&["engine"], &input, None);
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        // In a game solved from the start the perfect player moves first (docs/SOLVER.md).
        let solved = ["kujifunza", "malawi-basic", "hus"].contains(&game.as_str());
        let first = match solved {
            true => "ok solver:time=1s,else=player:",
            false => "ok player:",
        };
        assert!(
            lines.len() >= 4
                && lines[2].starts_with(first)
                && lines[2].ends_with(&format!("{game}.bao")),
            "{game}: {text}"
        );
        assert!(lines[3].starts_with("bestmove "), "{game}: {text}");
    }
}

/// `bao train --config C --extend-to N`: the config's run, then on to N iterations; interrupted
/// (by `--iterations`) and repeated, it makes the same network as when run in one go.
#[test]
fn train_with_extend_to_makes_the_same_run_however_often_it_is_interrupted() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = |name: &str| tmp.path().join(name).to_str().unwrap().to_string();
    // One self-play thread: the games do not depend on thread timing.
    let smoke = common::SMOKE.replace("threads = 2", "threads = 1");
    assert!(smoke.contains("threads = 1"));
    let config = dir("smoke.toml");
    std::fs::write(&config, smoke).unwrap();
    let train = |run: &str, more: &[&str]| {
        let mut args = vec!["train", "--quiet", "--config", &config];
        args.extend(["--run-dir", run, "--extend-to", "4"]);
        args.extend(more);
        run_in_repo(&args)
    };
    let whole = dir("whole");
    let (ok, out, err) = train(&whole, &[]);
    assert!(ok, "{err}");
    assert!(out.contains("run complete to iteration 4"), "{out}");
    assert!(err.contains("extending the run to 4"), "{err}");
    // Again: a finished run, nothing more to do.
    let (ok, out, err) = train(&whole, &[]);
    assert!(ok, "{err}");
    assert!(out.contains("run complete to iteration 4"), "{out}");
    let pieces = dir("pieces");
    for expected in [1, 2, 3, 4] {
        let (ok, out, err) = train(&pieces, &["--iterations", "1"]);
        assert!(ok, "{err}");
        assert!(
            out.contains(&format!("run complete to iteration {expected}")),
            "{out}"
        );
    }
    // The same games and the same training: every iteration's counts and losses agree (the
    // network files themselves hold random parameter ids).
    let metrics = |run: &str| -> Vec<(u64, u64, String)> {
        let text = std::fs::read_to_string(format!("{run}/metrics.jsonl")).unwrap();
        text.lines()
            .map(|line| {
                let m: serde_json::Value = serde_json::from_str(line).unwrap();
                let n = |k: &str| m[k].as_u64().unwrap();
                (n("iteration"), n("positions"), m["loss"].to_string())
            })
            .collect()
    };
    assert_eq!(metrics(&whole).len(), 4);
    assert_eq!(metrics(&whole), metrics(&pieces));
    // Another config on the same folder is still refused.
    let (ok, _, err) = run_in_repo(&["train", "--quiet", "--config", &config, "--run-dir", &whole]);
    assert!(!ok);
    assert!(err.contains("another config"), "{err}");
}

/// `bao` run from the repository's root (where `configs/` is).
fn run_in_repo(args: &[&str]) -> (bool, String, String) {
    let out = bao()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `bao eval --json` of `a` against greedy on Bao la Kujifunza (12 games from `seed`'s openings),
/// written to `name` in `dir`: the file's path and the match's estimate.
fn match_file(dir: &Path, a: &str, seed: &str, name: &str) -> (String, serde_json::Value) {
    let (ok, out, err) = run(&[
        "eval",
        "--a",
        a,
        "--b",
        "greedy",
        "--variant",
        "kujifunza",
        "-n",
        "12",
        "--seed",
        seed,
        "--max-plies",
        "120",
        "--json",
        "-q",
    ]);
    assert!(ok, "{err}");
    let path = dir.join(name);
    std::fs::write(&path, &out).unwrap();
    let result: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(result["seed"].as_u64(), Some(seed.parse().unwrap()));
    (
        path.to_str().unwrap().to_owned(),
        result["estimate"].clone(),
    )
}

#[test]
fn pool_rates_one_match_as_bao_eval_does_and_compares_two_players_pair_by_pair() {
    let dir = tempfile::tempdir().unwrap();
    // Two players against the same opponent on the same openings (the same seed and count).
    let (strong, estimate) = match_file(dir.path(), "ab:depth=3,tt=12", "3", "strong.json");
    let (weak, _) = match_file(dir.path(), "random", "3", "weak.json");
    // One match pooled alone: the score and interval `bao eval` printed for it.
    let (ok, out, err) = run(&["pool", &strong]);
    assert!(ok, "{err}");
    let pct = |k: &str| format!("{:.1}", 100.0 * estimate[k].as_f64().unwrap());
    let expected = format!(
        "ab:depth=3,tt=12: {}% [{}, {}] over 12 games",
        pct("score"),
        pct("score_low"),
        pct("score_high")
    );
    assert!(out.starts_with(&expected), "{out} (expected {expected})");
    // A match against itself differs by nothing; pooled with itself it counts twice the games.
    let (ok, out, _) = run(&["pool", &strong, "--against", &strong]);
    assert!(ok);
    assert!(
        out.contains("difference: +0.0 points [+0.0, +0.0]"),
        "{out}"
    );
    let (ok, out, _) = run(&["pool", &strong, &strong]);
    assert!(ok);
    assert!(out.contains("over 24 games"), "{out}");
    // Alpha-beta scores more against greedy than random does, opening by opening.
    let (ok, out, _) = run(&["pool", &strong, "--against", &weak, "--json"]);
    assert!(ok);
    let result: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        result["difference"]["points"].as_f64().unwrap() > 0.0,
        "{out}"
    );
    assert_eq!(result["difference"]["pairs"].as_u64(), Some(6), "{out}");
}

#[test]
fn pool_refuses_matches_on_other_openings_and_files_that_are_no_matches_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let (strong, _) = match_file(dir.path(), "ab:depth=3,tt=12", "3", "strong.json");
    let (weak, _) = match_file(dir.path(), "random", "3", "weak.json");
    let (other, _) = match_file(dir.path(), "random", "4", "other.json");
    let (ok, _, err) = run(&["pool", &strong, "--against", &other]);
    assert!(!ok);
    assert!(err.contains("differs in seed: 3 against 4"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let (ok, _, err) = run(&["pool", &strong, "--against", &weak, &weak]);
    assert!(!ok);
    assert!(err.contains("the lists hold 1 and 2 matches"), "{err}");
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{\"a\": 1}").unwrap();
    let (ok, _, err) = run(&["pool", junk.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("is not a match file of `bao eval --json`"),
        "{err}"
    );
    // A score no game can have, in the first game (the old score moves to an unknown key).
    let bad = dir.path().join("bad.json");
    let text = std::fs::read_to_string(&strong).unwrap();
    let text = text.replacen("\"score_a\": ", "\"score_a\": 2.0, \"was\": ", 1);
    std::fs::write(&bad, text).unwrap();
    let (ok, _, err) = run(&["pool", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("bad.json: game 1 of a match scores 2, not 0, 0.5 or 1"),
        "{err}"
    );
}

#[test]
fn records_name_their_game_as_text_and_a_custom_game_reads_back_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules.toml");
    std::fs::write(&rules, "takasia = \"valid-house-only\"\n").unwrap();
    let records = dir.path().join("games.kiba");
    let (ok, _, err) = run(&[
        "random",
        "-v",
        "kujifunza",
        "--rules",
        rules.to_str().unwrap(),
        "-n",
        "1",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&records).unwrap();
    assert!(
        text.contains("[Variant \"kujifunza+takasia=valid-house-only\"]"),
        "{text}"
    );
    // The tag's text is the game: `--variant` takes it and plays the same rules.
    let (ok, out, err) = run(&["show", "-v", "kujifunza+takasia=valid-house-only"]);
    let (ok2, same, _) = run(&[
        "show",
        "-v",
        "kujifunza",
        "--rules",
        rules.to_str().unwrap(),
    ]);
    assert!(ok && ok2, "{err}");
    assert_eq!(out, same);
}
