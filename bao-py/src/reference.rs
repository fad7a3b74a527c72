//! The reference for the binding's tests: a whole game played by the Rust `Env` and the Rust
//! `RandomAgent`, with no Python in the loop, to compare with the same game stepped from Python.

use crate::errors::env_error;
use crate::variant_rules;
use bao_zero::env::{Agent, Env, EnvConfig, RandomAgent};
use pyo3::prelude::*;

/// One game of the Rust `Env` (reset with `seed`) driven by the Rust `RandomAgent(agent_seed)`:
/// `(start position, [(action, move text, position after, rewards, terminated, truncated)],
/// end)`. Used by the tests to check that Python sees the same games as Rust.
#[pyfunction]
#[pyo3(signature = (variant, seed, agent_seed, max_plies = 1000, opening_random_plies = 0))]
#[allow(clippy::type_complexity)]
pub fn rust_random_game(
    py: Python<'_>,
    variant: &str,
    seed: u64,
    agent_seed: u64,
    max_plies: u32,
    opening_random_plies: u32,
) -> PyResult<(
    String,
    Vec<(usize, String, String, (f32, f32), bool, bool)>,
    String,
)> {
    let (_, rules) = variant_rules(variant)?;
    let config = EnvConfig {
        max_plies,
        opening_random_plies,
    };
    let mut env = Env::new(rules, config).map_err(env_error)?;
    py.detach(|| {
        env.reset(seed);
        let start = env.state().to_string();
        let mut agent = RandomAgent::new(agent_seed);
        let mut steps = Vec::new();
        while !env.is_done() {
            let a = agent.act(&env);
            let t = env.advance(a).map_err(|e| e.to_string())?;
            steps.push((
                a,
                t.info.mv.to_string(),
                env.state().to_string(),
                (t.rewards[0], t.rewards[1]),
                t.terminated,
                t.truncated,
            ));
        }
        let end = env.episode_end().map(|e| e.to_string()).unwrap_or_default();
        Ok((start, steps, end))
    })
    .map_err(|e: String| crate::errors::runtime_error(e))
}

/// Writes a replay file of `games` random games (every position a sample, the policy target
/// uniform over the first legal moves with weights 1, 2, 3, ..., the value 0.5, the outcome
/// the game's; at most 10,000 games) as the trainer saves one, and returns the samples' positions in order. Used by
/// the tests of `load_samples`.
#[pyfunction]
#[pyo3(signature = (path, variant = "kiswahili", games = 2, seed = 0))]
pub fn write_random_replay(
    path: std::path::PathBuf,
    variant: &str,
    games: usize,
    seed: u64,
) -> PyResult<Vec<String>> {
    use bao_zero::nn::Sample;
    use bao_zero::rules::{MoveList, Position};
    use bao_zero::selfplay::ReplayBuffer;
    // A test's few games: a count past this is a mistake, refused before any is played.
    crate::errors::check_range("games", games, 0..=10_000)?;
    let (_, rules) = variant_rules(variant)?;
    let mut agent = RandomAgent::new(seed);
    let mut buffer = ReplayBuffer::new(1 << 20);
    let mut texts = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..games {
        let mut env = Env::new(rules.clone(), EnvConfig::default()).map_err(env_error)?;
        let mut game: Vec<Sample> = Vec::new();
        while !env.is_done() {
            let pos: Position = *env.state();
            pos.legal_moves(&rules, &mut list);
            let weights: Vec<u32> = (1..=list.len() as u32).collect();
            game.push(Sample::new(pos, &list, &weights, 0.5));
            let a = agent.act(&env);
            env.advance(a).map_err(env_error)?;
        }
        let winner = match env.episode_end() {
            Some(bao_zero::env::EpisodeEnd::Terminated(o)) => o.winner,
            _ => None,
        };
        for s in &mut game {
            let mover = s.pos.side_to_move();
            s.outcome = match winner {
                Some(w) if w == mover => 1,
                Some(_) => -1,
                None => 0,
            };
            texts.push(s.pos.to_string());
        }
        buffer.extend(game);
    }
    buffer
        .save(&path)
        .map_err(|e| crate::errors::chain_value_error(&e))?;
    Ok(texts)
}
