//! `bao exploit --exact`: the exact best response to a deterministic victim in Bao la Kujifunza,
//! its book confirmed game for game by `bao eval`, the perfect player left unbeaten where it is
//! proven to win, a trained exploiter's score beside it, and bad input refused in one line.
#![cfg(feature = "ml")]

use crate::common::{self, bao, one_line_error};
use bao_zero::eval::exact::{ExactConfig, exact_exploitability};
use bao_zero::players::Player;
use bao_zero::players::PlayerRegistry;
use bao_zero::players::RandomPlayer;
use bao_zero::rules::{Game, Position, Side, Variant};
use bao_zero::search::solver::victim::{Memory, check_determinism};
use bao_zero::search::solver::{SolveLimits, Solver, Value};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn ok(args: &[&str]) -> String {
    let out = bao(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn read_json(path: &Path) -> Json {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn s(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

/// `--exact` against `victim` on a suite of `games` games, written to `out`: exact.json.
fn exact(victim: &str, games: &str, extra: &[&str], out: &Path) -> Json {
    let mut args = vec![
        "exploit", "--exact", "--victim", victim, "--games", games, "--out",
    ];
    let out_text = s(out);
    args.push(&out_text);
    args.extend_from_slice(extra);
    ok(&args);
    read_json(&out.join("exact.json"))
}

/// The book of `report`'s run played against its victim through the `bao eval` command, with the
/// suite's seed and openings: each game's score for the book.
fn eval_book(report: &Json, out: &Path, games: &str, extra: &[&str]) -> Vec<f64> {
    let book = format!("book:{}", s(&out.join("book.json")));
    let seed = report["seed"].to_string();
    let plies = report["opening_plies"].to_string();
    let mut args = vec![
        "eval",
        "-v",
        "kujifunza",
        "--a",
        &book,
        "--b",
        report["victim"].as_str().unwrap(),
        "--games",
        games,
        "--seed",
        &seed,
        "--opening-plies",
        &plies,
        "--json",
        "-q",
    ];
    args.extend_from_slice(extra);
    let result: Json = serde_json::from_str(&ok(&args)).unwrap();
    let list = result["game_list"].as_array().unwrap();
    list.iter()
        .map(|g| g["score_a"].as_f64().unwrap())
        .collect()
}

/// A tiny exploit run against `victim` (with `extra` options) in a folder of its own named
/// `name`: its run directory.
fn tiny_exploit_run(name: &str, victim: &str, extra: &[&str]) -> PathBuf {
    let (_, config, run) = super::exploit::setup(name);
    let mut args = vec!["exploit", "--victim", victim, "--config", &config];
    args.extend(["--run-dir", &run, "--quiet", "--report-games", "2"]);
    args.extend_from_slice(extra);
    ok(&args);
    PathBuf::from(run)
}

fn points(result: &str) -> f64 {
    match result {
        "win" => 1.0,
        "draw" => 0.5,
        "loss" => 0.0,
        other => panic!("undecided game: {other}"),
    }
}

#[test]
fn the_exact_best_response_to_weak_victims_is_confirmed_by_bao_eval_game_for_game() {
    let dir = common::fresh_dir("exact", "weak");
    for (victim, memory) in [("greedy", "history"), ("ab:depth=1", "position")] {
        let out = dir.join(victim.replace([':', '='], "-"));
        let report = exact(victim, "8", &[], &out);
        assert_eq!(report["victim_memory"], memory, "{report}");
        assert_eq!(report["unknown"], 0, "{report}");
        let games = report["games"].as_array().unwrap();
        assert_eq!(games.len(), 8);
        let claimed: Vec<f64> = games
            .iter()
            .map(|g| points(g["result"].as_str().unwrap()))
            .collect();
        // Every game it claims, played by its book through `bao eval` (no fallback named: the
        // book holds every position of the lines), ends as claimed.
        assert_eq!(eval_book(&report, &out, "8", &[]), claimed, "{victim}");
        assert_eq!(report["confirmed"], 8, "{report}");
        if victim == "greedy" {
            // The book plays its own game: `bao eval` takes it from the book, and refuses another.
            let book = format!("book:{}", s(&out.join("book.json")));
            let args = [
                "eval", "--a", &book, "--b", victim, "--games", "8", "--json", "-q",
            ];
            let result: Json = serde_json::from_str(&ok(&args)).unwrap();
            assert_eq!(result["variant"], "kujifunza", "{result}");
            let err = one_line_error(&["eval", "-v", "hus", "--a", &book, "--b", victim, "-q"]);
            assert!(err.contains("plays kujifunza, not hus"), "{err}");
        }
        let wins = claimed.iter().filter(|&&c| c == 1.0).count();
        assert!(wins >= 6, "{victim} is weak: beaten in {wins} of 8");
        let share = report["exploitability"].as_f64().unwrap();
        assert!((share - wins as f64 / 8.0).abs() < 1e-9, "{report}");
    }
}

#[test]
fn a_win_past_the_ply_cap_is_a_draw_as_in_the_match() {
    let dir = common::fresh_dir("exact", "cap");
    for cap in ["8", "12", "16"] {
        let out = dir.join(cap);
        let report = exact("ab:depth=1", "8", &["--max-plies", cap], &out);
        let games = report["games"].as_array().unwrap();
        let claimed: Vec<f64> = games
            .iter()
            .map(|g| points(g["result"].as_str().unwrap()))
            .collect();
        for g in games {
            let plies = g["plies"].as_u64().unwrap() + 4;
            assert!(plies <= cap.parse().unwrap(), "{g}");
        }
        let played = eval_book(&report, &out, "8", &["--max-plies", cap]);
        assert_eq!(played, claimed, "cap {cap}: {report}");
        if cap == "8" {
            assert!(
                claimed.contains(&0.5),
                "four plies leave draws: {claimed:?}"
            );
        }
    }
}

/// `report` without what differs between two runs of the same search: the seconds and the
/// book's path.
fn without_times(mut report: Json) -> Json {
    report.as_object_mut().unwrap().remove("book");
    for g in report["games"].as_array_mut().unwrap() {
        g.as_object_mut().unwrap().remove("seconds");
    }
    report
}

#[test]
fn the_suite_searched_on_two_threads_gives_the_report_of_one() {
    let dir = common::fresh_dir("exact", "threads");
    for victim in ["greedy", "ab:depth=1"] {
        let name = victim.replace([':', '='], "-");
        let one = exact(
            victim,
            "8",
            &["--threads", "1"],
            &dir.join(format!("{name}-1")),
        );
        let two = exact(
            victim,
            "8",
            &["--threads", "2"],
            &dir.join(format!("{name}-2")),
        );
        assert_eq!(without_times(one), without_times(two), "{victim}");
    }
}

/// The positions of the book in `out` that `bao solve` proves within a second, solved into the
/// cache folder `cache`: each with the side that wins it (`None`: a draw).
fn solve_book(out: &Path, cache: &Path) -> Vec<(Position, Option<Side>)> {
    let rules = Variant::Kujifunza.rules();
    let book = read_json(&out.join("book.json"));
    let mut solved = Vec::new();
    for entry in book["entries"].as_array().unwrap() {
        let text = entry["position"].as_str().unwrap();
        let args = [
            "solve",
            "-v",
            "kujifunza",
            "--position",
            text,
            "--time-limit",
            "1",
            "--memory",
            "64",
            "--cache",
            &s(cache),
            "--json",
        ];
        let out = bao(&args);
        if !out.status.success() {
            continue;
        }
        let answer: Json = serde_json::from_slice(&out.stdout).unwrap();
        let pos = Position::from_text(text, &rules).unwrap();
        let value: Value = serde_json::from_value(answer["value"].clone()).unwrap();
        solved.push((pos, value.winner(pos.side_to_move())));
    }
    solved
}

#[test]
fn the_search_reads_the_wins_the_solver_cache_proves_and_nothing_else() {
    let dir = common::fresh_dir("exact", "cache");
    let cache = dir.join("solved");
    let extra = ["--opening-plies", "12", "--seed", "2", "--threads", "1"];
    let (a, b) = (dir.join("a"), dir.join("b"));
    let without = exact(
        "ab:depth=1",
        "8",
        &[&extra[..], &["--no-cache"]].concat(),
        &a,
    );
    // The exploiter's positions on its lines: some won whatever the victim plays, some lost
    // under perfect play though the victim lost them.
    let solved = solve_book(&a, &cache);
    let wins = solved
        .iter()
        .filter(|(p, w)| *w == Some(p.side_to_move()))
        .count();
    let losses = solved
        .iter()
        .filter(|(p, w)| *w == Some(p.side_to_move().opponent()))
        .count();
    assert!(
        wins >= 1 && losses >= 1,
        "{wins} proven wins, {losses} losses"
    );
    let with = exact(
        "ab:depth=1",
        "8",
        &[&extra[..], &["--cache", &s(&cache)]].concat(),
        &b,
    );
    // The same results, each confirmed by its book's game (the line may be another win): a
    // proven win is one against the victim too, and a proven loss is not read (the victim lost
    // there).
    let figures = |r: &Json, key: &str| -> Vec<Json> {
        r["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g[key].clone())
            .collect()
    };
    for key in ["result", "book_score"] {
        assert_eq!(figures(&without, key), figures(&with, key), "{key}");
    }
    // Found sooner where the cache proves a win.
    let nodes = |r: &Json| -> u64 {
        figures(r, "nodes")
            .iter()
            .map(|n| n.as_u64().unwrap())
            .sum()
    };
    assert!(
        nodes(&with) < nodes(&without),
        "{} {}",
        nodes(&with),
        nodes(&without)
    );
}

#[test]
fn the_best_response_to_the_perfect_player_scores_what_the_solver_proves() {
    let dir = common::fresh_dir("exact", "solver");
    let rules = Variant::Kujifunza.rules();
    let mut solver = Solver::new(SolveLimits {
        time: Some(Duration::from_secs(60)),
        nodes: None,
        memory: 16 << 20,
    })
    .unwrap();
    let (mut victim_wins, mut victim_losses) = (0, 0);
    // Deep openings (random plies, seed), whose positions the victim solves at once; each seat
    // of the victim in turn, the two games of a pair searched at once.
    for (plies, seed) in [
        ("30", "5"),
        ("30", "15"),
        ("30", "20"),
        ("30", "24"),
        ("36", "1"),
        ("40", "1"),
        ("40", "6"),
    ] {
        let out = dir.join(format!("{plies}-{seed}"));
        let extra = [
            "--opening-plies",
            plies,
            "--seed",
            seed,
            "--exact-time",
            "60s",
            "--threads",
            "2",
        ];
        let report = exact("solver:memory=32", "2", &extra, &out);
        for g in report["games"].as_array().unwrap() {
            let exploiter: Side = serde_json::from_value(g["exploiter"].clone()).unwrap();
            let from = opening_end(&report, g["game"].as_u64().unwrap());
            let value = solver.solve(&rules, &from).unwrap().value;
            // Where the victim is proven to win it is never beaten; where it is proven to lose,
            // the best response finds the win; a draw stays a draw.
            let (result, score) = match value.winner(from.side_to_move()) {
                Some(w) if w == exploiter => ("win", 1.0),
                Some(_) => ("loss", 0.0),
                None => ("draw", 0.5),
            };
            assert_eq!(g["result"], result, "{plies} plies, seed {seed}: {g}");
            assert_eq!(g["book_score"], score, "{plies} plies, seed {seed}: {g}");
            victim_wins += usize::from(result == "loss");
            victim_losses += usize::from(result == "win");
        }
    }
    assert!(
        victim_wins >= 4 && victim_losses >= 4,
        "{victim_wins} {victim_losses}"
    );
}

/// The position after game `game`'s opening in `report`'s suite, from its KIBA record.
fn opening_end(report: &Json, game: u64) -> Position {
    let rules = Variant::Kujifunza.rules();
    let seed = report["seed"].as_u64().unwrap();
    let plies = report["opening_plies"].as_u64().unwrap() as u32;
    let pair = (game - 1) / 2;
    let pair_seed = bao_zero::eval::arena::mix(seed, pair);
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(pair_seed);
    let start = Position::start(&rules);
    bao_zero::env::random_opening(&rules, &start, plies, &mut rng).1
}

#[test]
fn a_victim_that_answers_a_position_twice_differently_is_refused() {
    let rules = Game::from(Variant::Kujifunza);
    let mut seed = 0;
    let mut build = move || -> anyhow::Result<Box<dyn Player>> {
        seed += 1;
        Ok(Box::new(RandomPlayer::new(
            &Game::from(Variant::Kujifunza),
            seed,
        )))
    };
    let start = [Position::start(&rules)];
    let err = check_determinism(&mut build, &rules, &start).unwrap_err();
    assert!(err.to_string().contains("is not deterministic"), "{err}");
    // A seeded random player asked again from its seed is deterministic in its history only.
    let mut same = || -> anyhow::Result<Box<dyn Player>> {
        Ok(Box::new(RandomPlayer::new(
            &Game::from(Variant::Kujifunza),
            7,
        )))
    };
    let memory = check_determinism(&mut same, &rules, &start).unwrap();
    assert_eq!(memory, Memory::History);
}

#[test]
fn a_node_bound_leaves_a_game_unknown_and_its_book_falls_back_only_where_named() {
    let dir = common::fresh_dir("exact", "bound");
    let cfg = ExactConfig {
        victim: "ab:depth=1".into(),
        variant: Variant::Kujifunza,
        games: 2,
        seed: 3,
        opening_plies: 4,
        max_plies: 400,
        limits: SolveLimits {
            time: Some(Duration::from_secs(60)),
            nodes: Some(1),
            memory: 1 << 20,
        },
        threads: 1,
        cache: None,
        book: dir.join("book.json"),
        trained: None,
    };
    std::fs::create_dir_all(&dir).unwrap();
    let report = exact_exploitability(&cfg, &PlayerRegistry::classical()).unwrap();
    assert_eq!(report.unknown, 2, "{report:?}");
    assert_eq!(report.exploitability, 0.0);
    // The empty book refuses a position it does not hold, in one line.
    let book = format!("book:{}", s(&cfg.book));
    let err = one_line_error(&[
        "eval",
        "-v",
        "kujifunza",
        "--a",
        &book,
        "--b",
        "greedy",
        "--games",
        "1",
        "-q",
    ]);
    assert!(err.contains("has no move for"), "{err}");
    let with_fallback = format!("{book},else=greedy");
    ok(&[
        "eval",
        "-v",
        "kujifunza",
        "--a",
        &with_fallback,
        "--b",
        "greedy",
        "--games",
        "1",
        "-q",
    ]);
}

#[test]
fn a_trained_exploiter_is_scored_on_the_same_games_never_above_the_exact_best_response() {
    let victim = "ab:depth=2";
    let run = tiny_exploit_run("exact-trained", victim, &[]);
    let report = exact(victim, "6", &["--run-dir", &s(&run)], &run);
    let (spec, score) = (
        &report["trained"]["spec"],
        report["trained"]["score"].as_f64().unwrap(),
    );
    assert!(
        spec.as_str().unwrap().starts_with("mcts:checkpoint="),
        "{report}"
    );
    let mut sum = 0.0;
    for g in report["games"].as_array().unwrap() {
        let trained = g["trained_score"].as_f64().unwrap();
        // The exact best response is the best any player can do against this victim, game by game.
        assert!(trained <= points(g["result"].as_str().unwrap()), "{g}");
        sum += trained;
    }
    assert!((score - sum / 6.0).abs() < 1e-9, "{report}");
    assert!(run.join("book.json").exists());
}

#[test]
fn a_search_with_the_victim_as_its_model_beats_it_where_the_same_search_without_does_not() {
    let dir = common::fresh_dir("exact", "model");
    let victim = "ab:depth=2";
    let scored = |exploiter: &str, out: &str| {
        let report = exact(victim, "12", &["--exploiter", exploiter], &dir.join(out));
        let games = report["games"].as_array().unwrap().clone();
        for g in &games {
            let trained = g["trained_score"].as_f64().unwrap();
            assert!(trained <= points(g["result"].as_str().unwrap()), "{g}");
        }
        let exact: f64 = games
            .iter()
            .map(|g| points(g["result"].as_str().unwrap()))
            .sum();
        (report["trained"]["score"].as_f64().unwrap(), exact / 12.0)
    };
    let (modelled, exact) = scored("mcts:sims=800,solver=1,model=ab:depth=2", "modelled");
    let (plain, _) = scored("mcts:sims=800,solver=1", "plain");
    // The same search, told the victim's replies, finds most of what the exact search finds.
    assert!(
        modelled >= 0.8 * exact,
        "{modelled} against the exact {exact}"
    );
    assert!(
        modelled >= plain + 0.25,
        "{modelled} with the model, {plain} without"
    );
}

#[test]
fn an_exploit_run_searching_with_its_victim_plays_it_with_that_model() {
    let victim = "ab:depth=2";
    let run = tiny_exploit_run("exact-model-run", victim, &["--model-victim"]);
    let run_text = s(&run);
    let stored = std::fs::read_to_string(run.join("config.toml")).unwrap();
    assert!(stored.contains("model_victim = true"), "{stored}");
    // Against the victim the exploiter searches with it as its model; against a reference not.
    let report = read_json(&run.join("exploit.json"));
    let against_victim = report["against_victim"]["a"].as_str().unwrap();
    assert!(against_victim.ends_with(",model=ab:depth=2"), "{report}");
    let against_reference = report["against_references"][0]["a"].as_str().unwrap();
    assert!(!against_reference.contains("model="), "{report}");
    let exact = exact(victim, "4", &["--run-dir", &run_text], &run);
    let spec = exact["trained"]["spec"].as_str().unwrap();
    assert!(spec.ends_with(",model=ab:depth=2"), "{exact}");
}

#[test]
fn bad_exact_input_is_refused_in_one_line() {
    let dir = common::fresh_dir("exact", "bad");
    std::fs::create_dir_all(&dir).unwrap();
    let out = s(&dir.join("out"));
    let with = |extra: &[&str]| {
        let mut args = vec!["exploit", "--exact", "--out", &out];
        args.extend_from_slice(extra);
        one_line_error(&args)
    };
    for (args, says) in [
        (&["--victim", "nosuchplayer"][..], "unknown player kind"),
        (&["--victim", "ab:depth=zero"], "bad player spec"),
        (&["--victim", "random"], "deterministic"),
        (&["--victim", "ab:time=10ms"], "deterministic"),
        (&["--victim", "greedy", "--games", "0"], "--games"),
        (&["--victim", "greedy", "--memory", "0"], "--memory"),
        (&["--victim", "greedy", "--threads", "5000"], "--threads"),
        (
            &["--victim", "greedy", "--exact-nodes", "0"],
            "--exact-nodes",
        ),
        (
            &["--victim", "greedy", "--exact-time", "0s"],
            "--exact-time",
        ),
        (
            &["--victim", "greedy", "--opening-plies", "999"],
            "--opening-plies",
        ),
        (&["--victim", "greedy", "--variant", "kiswahili"], "proves"),
    ] {
        let err = with(args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // A victim of another game: the shipped player of Bao la Kiswahili.
    let kiswahili = format!(
        "player:{}/checkpoints/shipped/kiswahili.bao",
        env!("CARGO_MANIFEST_DIR")
    );
    let err = with(&["--victim", &kiswahili]);
    assert!(
        err.contains("kiswahili") || err.contains("Kiswahili"),
        "{err}"
    );
    // A run directory of another kind: a folder with no run, and a plain training run.
    let err = with(&["--victim", "greedy", "--run-dir", &s(&dir)]);
    assert!(err.contains("config"), "{err}");
    let train = dir.join("train");
    let config = dir.join("train.toml");
    let tiny = super::exploit::TINY.replace("opponents = []", "opponents = [\"random\"]");
    std::fs::write(&config, tiny).unwrap();
    ok(&[
        "train",
        "--config",
        &s(&config),
        "--run-dir",
        &s(&train),
        "--quiet",
        "--iterations",
        "1",
    ]);
    let err = with(&["--victim", "greedy", "--run-dir", &s(&train)]);
    assert!(err.contains("not an exploit run"), "{err}");
    assert!(!PathBuf::from(&out).join("exact.json").exists());
}
