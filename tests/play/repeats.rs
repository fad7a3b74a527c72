//! What a match says it measured: games that repeat counted once, each player's default budget,
//! one JSON layout, labels for players.

use bao_zero::eval::arena::{MatchConfig, run_match};
use bao_zero::eval::elo::ScoreEstimate;
use bao_zero::players::{PlayerRegistry, PlayerSpec};
use bao_zero::rules::Variant;
use std::process::Command;

/// The keys of a match's JSON, as `bao eval --json` prints it and `bao_zero.evaluate` returns it
/// (bao-py/tests/test_evaluate.py holds the same list).
pub const MATCH_KEYS: [&str; 34] = [
    "a",
    "b",
    "variant",
    "seed",
    "opening_plies",
    "budget_a",
    "budget_b",
    "limits",
    "games",
    "distinct_games",
    "warning",
    "wins",
    "draws",
    "losses",
    "pentanomial",
    "model",
    "samples",
    "score",
    "score_low",
    "score_high",
    "elo",
    "elo_low",
    "elo_high",
    "elo_text",
    "estimate",
    "sprt",
    "stopped_early",
    "by_colour",
    "mean_plies",
    "summary",
    "game_list",
    // Each game's keys.
    "id",
    "a_is_south",
    "score_a",
];

fn spec(s: &str) -> PlayerSpec {
    s.parse().unwrap()
}

/// Two deterministic players (alpha-beta at a fixed depth) from the start position: each side
/// plays one game, again and again.
fn repeated(games: usize) -> MatchConfig {
    MatchConfig {
        games,
        opening_plies: 0,
        max_plies: 200,
        progress: false,
        ..MatchConfig::new(spec("ab:depth=1"), spec("ab:depth=2"), Variant::Kujifunza)
    }
}

#[test]
fn repeated_games_count_once_in_the_score_and_its_interval() {
    let r = run_match(&repeated(40)).unwrap();
    assert_eq!((r.games, r.distinct_games), (40, 2), "{}", r.summary());
    assert_eq!(r.model, "distinct-trinomial");
    assert_eq!(r.estimate.samples, 2.0);
    // The same two games 20 times each: the interval of two games, not of forty.
    let ids: std::collections::HashSet<u64> = r.game_list.iter().map(|g| g.id).collect();
    assert_eq!(ids.len(), 2);
    let forty = ScoreEstimate::from_wdl(r.wins, r.draws, r.losses);
    let two = ScoreEstimate::from_wdl(r.wins / 20, r.draws / 20, r.losses / 20);
    assert_eq!(r.estimate, two);
    assert!(
        r.estimate.score_high - r.estimate.score_low > forty.score_high - forty.score_low + 0.2,
        "{}",
        r.summary()
    );
    assert!(
        r.summary()
            .contains("warning: 2 of the 40 games are distinct"),
        "{}",
        r.summary()
    );
    // An SPRT reads the same samples: two games never decide it.
    let r = run_match(&MatchConfig {
        sprt: Some("0,100,0.05,0.05".parse().unwrap()),
        batch_pairs: 4,
        ..repeated(400)
    })
    .unwrap();
    let t = r.sprt.unwrap();
    assert_eq!(t.model, "distinct-trinomial");
    assert_eq!(r.games, 400, "{}", r.summary());
    // Games from random openings stay apart, with the pentanomial model.
    let r = run_match(&MatchConfig {
        opening_plies: 4,
        ..repeated(20)
    })
    .unwrap();
    assert_eq!((r.distinct_games, r.model), (20, "pentanomial"));
    assert!(r.summary().lines().all(|l| !l.starts_with("warning")));
}

#[test]
fn each_players_default_budget_is_in_the_header() {
    let registry = PlayerRegistry::classical();
    let rules = Variant::Kujifunza.into();
    let budget = |s: &str| {
        registry
            .build(&spec(s), &rules, 0)
            .unwrap()
            .default_budget()
    };
    assert_eq!(budget("random"), "none");
    assert_eq!(budget("greedy"), "none");
    assert_eq!(budget("ab"), "depth 4");
    assert_eq!(budget("ab:depth=2"), "depth 2");
    assert_eq!(budget("ab:time=500ms"), "500ms");
    assert_eq!(budget("solver:time=2s"), "solve 2000ms, else depth 4");
    let r = run_match(&MatchConfig {
        limits: bao_zero::players::Limits::nodes(5000),
        ..repeated(2)
    })
    .unwrap();
    assert_eq!(
        (r.budget_a.as_str(), r.budget_b.as_str()),
        ("depth 1", "depth 2")
    );
    assert!(
        r.summary().contains(
            "budget a move: ab:depth=1 depth 1, ab:depth=2 depth 2; limits for both: 5000 nodes"
        ),
        "{}",
        r.summary()
    );
}

fn bao(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every key of a match's JSON and of its first game.
fn keys(v: &serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.extend(v["game_list"][0].as_object().unwrap().keys().cloned());
    k
}

#[test]
fn bao_eval_json_says_how_many_games_were_distinct_under_the_players_labels() {
    let (ok, out, err) = bao(&[
        "eval",
        "--a",
        "g=ab:depth=1",
        "--b",
        "ab:depth=2",
        "-v",
        "kujifunza",
        "-n",
        "40",
        "--opening-plies",
        "0",
        "--json",
        "-q",
    ]);
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (r["games"].as_u64(), r["distinct_games"].as_u64()),
        (Some(40), Some(2))
    );
    assert!(
        r["warning"].as_str().unwrap().contains("2 of the 40"),
        "{r}"
    );
    assert_eq!(
        (r["a"].as_str(), r["b"].as_str()),
        (Some("g"), Some("ab:depth=2"))
    );
    assert_eq!(r["game_list"][1]["north"], "g");
    assert_eq!(
        (r["budget_a"].as_str(), r["budget_b"].as_str()),
        (Some("depth 1"), Some("depth 2"))
    );
    // The score at the top level and, as older files have it, under `estimate`.
    assert_eq!(r["score_low"], r["estimate"]["score_low"]);
    let mut got = keys(&r);
    got.sort();
    got.dedup();
    let mut want: Vec<String> = MATCH_KEYS.iter().map(|k| k.to_string()).collect();
    want.extend(["game", "pair", "south", "north", "winner", "end", "plies"].map(String::from));
    want.sort();
    assert_eq!(got, want);
    let (ok, out, err) = bao(&[
        "eval",
        "--a",
        "random",
        "--b",
        "ab:depth=2",
        "-v",
        "kujifunza",
        "-n",
        "4",
        "--opening-plies",
        "0",
        "-q",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("budget a move: random none, ab:depth=2 depth 2"),
        "{out}"
    );
    assert!(!out.contains("warning"), "{out}");
}

#[test]
fn gauntlet_players_go_by_their_labels() {
    let args = [
        "gauntlet",
        "--player",
        "r=random",
        "greedy",
        "d2=ab:depth=2",
        "-v",
        "kujifunza",
        "-n",
        "4",
        "--max-plies",
        "80",
        "--anchor",
        "r",
        "-q",
    ];
    let (ok, out, err) = bao(&args);
    assert!(ok, "{err}");
    assert!(out.contains("d2 = ab:depth=2\n"), "{out}");
    assert!(out.contains("(anchor: r at 0)"), "{out}");
    let (ok, out, err) = bao(&[&args[..], &["--json"]].concat());
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rating = |name: &str| {
        let all = r["ratings"].as_array().unwrap();
        all.iter().find(|x| x["name"] == name).unwrap().clone()
    };
    assert_eq!(rating("d2")["spec"], "ab:depth=2");
    assert_eq!(rating("greedy")["spec"], "greedy");
    assert_eq!(r["anchor"], "r");
    let names: Vec<(&str, &str)> = (r["matches"].as_array().unwrap().iter())
        .map(|m| (m["a"].as_str().unwrap(), m["b"].as_str().unwrap()))
        .collect();
    assert_eq!(names, [("r", "greedy"), ("r", "d2"), ("greedy", "d2")]);
    for (bad, why) in [
        (&["--player", "x y=random", "greedy"][..], "is not a label"),
        (&["--player", "=random", "greedy"][..], "is not a label"),
        (
            &["--player", "a=random", "a=greedy"][..],
            "two players are named `a`",
        ),
        (&["--player", "a=random", "b=nobody:x"][..], "nobody"),
    ] {
        let (ok, _, err) = bao(&[&["gauntlet", "-q", "-n", "2"][..], bad].concat());
        assert!(!ok && err.contains(why), "{bad:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}
