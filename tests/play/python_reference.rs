//! The references the Python package's tests compare with, written by Rust alone: whole games of
//! the Rust `Env` driven by the Rust `RandomAgent`, and a replay file of random games as the
//! trainer saves one. They live in `bao-py/tests/reference/`, so that the Python tests check the
//! binding against Rust without test-only functions in the shipped module. After a deliberate
//! change of the rules or of the replay format, `BAO_BLESS=1 cargo test --release --test play
//! python_reference` writes them again; review the diff before committing it.

use bao_zero::env::{Agent, Env, EnvConfig, EpisodeEnd, RandomAgent};
use bao_zero::nn::Sample;
use bao_zero::rules::{MoveList, Position, Variant};
use bao_zero::selfplay::ReplayBuffer;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The presets and seeds of the reference games (test_env.py's parameters).
const GAMES: [&str; 5] = [
    "kiswahili",
    "hus",
    "malawi-advanced",
    "kimasai",
    "ladder-house",
];
const SEEDS: [u64; 3] = [0, 7, 12345];

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("bao-py/tests/reference")
}

/// One game of the Rust `Env` reset with `seed`, driven by `RandomAgent(seed + 1)`, at most 300
/// plies after 4 random opening plies: its start, every step, and how it ended.
fn random_game(variant: Variant, seed: u64) -> Value {
    let config = EnvConfig {
        max_plies: 300,
        opening_random_plies: 4,
    };
    let mut env = Env::new(variant.rules(), config).unwrap();
    env.reset(seed);
    let start = env.state().to_string();
    let mut agent = RandomAgent::new(seed + 1);
    let mut steps = Vec::new();
    while !env.is_done() {
        let action = agent.act(&env);
        let t = env.advance(action).unwrap();
        steps.push(json!([
            action,
            t.info.mv.to_string(),
            env.state().to_string(),
            [t.rewards[0], t.rewards[1]],
            t.terminated,
            t.truncated,
        ]));
    }
    let end = env.episode_end().map(|e| e.to_string()).unwrap_or_default();
    json!({ "start": start, "steps": steps, "end": end })
}

/// `games` random games of `variant` (every position a sample, the policy target over the legal
/// moves with weights 1, 2, 3, ..., the value 0.5, the outcome the game's) in one replay buffer,
/// and the samples' positions in order.
fn random_replay(variant: Variant, games: usize, seed: u64) -> (ReplayBuffer, Vec<String>) {
    let rules = variant.rules();
    let mut agent = RandomAgent::new(seed);
    let mut buffer = ReplayBuffer::new(1 << 20);
    let mut positions = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..games {
        let mut env = Env::new(rules.clone(), EnvConfig::default()).unwrap();
        let mut game: Vec<Sample> = Vec::new();
        while !env.is_done() {
            let pos: Position = *env.state();
            pos.legal_moves(&rules, &mut list);
            let weights: Vec<u32> = (1..=list.len() as u32).collect();
            game.push(Sample::new(pos, &list, &weights, 0.5));
            let action = agent.act(&env);
            env.advance(action).unwrap();
        }
        let winner = match env.episode_end() {
            Some(EpisodeEnd::Terminated(o)) => o.winner,
            _ => None,
        };
        for sample in &mut game {
            let mover = sample.pos.side_to_move();
            sample.outcome = match winner {
                Some(w) if w == mover => 1,
                Some(_) => -1,
                None => 0,
            };
            positions.push(sample.pos.to_string());
        }
        buffer.extend(game);
    }
    (buffer, positions)
}

/// Compares `got` with the reference file `name`, or writes it under `BAO_BLESS`.
fn check_reference(name: &str, got: &[u8]) {
    let path = reference_dir().join(name);
    if std::env::var_os("BAO_BLESS").is_some() {
        std::fs::create_dir_all(reference_dir()).unwrap();
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (BAO_BLESS=1 writes it)", path.display()));
    assert!(
        got == want.as_slice(),
        "{} differs from what Rust plays now (BAO_BLESS=1 writes it again)",
        path.display()
    );
}

#[test]
fn the_python_tests_reference_games_are_the_rust_envs() {
    // One step a line: a change to the rules shows as a readable diff.
    let mut entries = Vec::new();
    for name in GAMES {
        let variant: Variant = name.parse().unwrap();
        for seed in SEEDS {
            let game = random_game(variant, seed);
            let steps: Vec<String> = game["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| format!("    {s}"))
                .collect();
            entries.push(format!(
                "\"{name}/{seed}\": {{\"start\": {}, \"end\": {}, \"steps\": [\n{}\n]}}",
                game["start"],
                game["end"],
                steps.join(",\n")
            ));
        }
    }
    let text = format!("{{\n{}\n}}\n", entries.join(",\n"));
    check_reference("random_games.json", text.as_bytes());
}

#[test]
fn the_python_tests_reference_replay_is_the_trainers_format() {
    let (buffer, positions) = random_replay(Variant::Kiswahili, 2, 7);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("replay.bin");
    buffer.save(&path).unwrap();
    check_reference("replay.bin", &std::fs::read(&path).unwrap());
    check_reference(
        "replay_positions.txt",
        (positions.join("\n") + "\n").as_bytes(),
    );
    let loaded = ReplayBuffer::load(&path).unwrap();
    assert_eq!(loaded.len(), positions.len());
}
