//! `bao bench`: speed of the rules engine (other stages add their own benchmarks).

use crate::rules::{MoveList, Position, Rules, Variant};
use rand::{RngExt, SeedableRng};
use std::time::Instant;

/// Plies and games per second of random play with the full legal-move list at every ply.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RulesBench {
    /// Median plies per second over the runs.
    pub plies_per_sec: f64,
    /// Median games per second over the runs.
    pub games_per_sec: f64,
    /// Each run's plies per second.
    pub runs: Vec<f64>,
}

/// The median of some numbers (the mean of the two middle ones for an even count).
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Random games of `rules` for about `seconds` each run, on the calling thread.
pub fn bench_rules(rules: &Rules, seconds: f64, runs: usize, seed: u64) -> RulesBench {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut list = MoveList::new();
    let start = Position::start(rules);
    let mut ply_rates = Vec::new();
    let mut game_rates = Vec::new();
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let (mut plies, mut games) = (0u64, 0u64);
        while t.elapsed().as_secs_f64() < seconds {
            let mut pos = start;
            loop {
                pos.legal_moves(rules, &mut list);
                if list.is_empty() {
                    break;
                }
                pos = list.children()[rng.random_range(0..list.len())];
                plies += 1;
            }
            games += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        ply_rates.push(plies as f64 / secs);
        game_rates.push(games as f64 / secs);
    }
    RulesBench {
        plies_per_sec: median(&ply_rates),
        games_per_sec: median(&game_rates),
        runs: ply_rates,
    }
}

/// Benchmarks the default game.
pub fn bench_default(seconds: f64, runs: usize) -> RulesBench {
    bench_rules(&Variant::Kiswahili.rules(), seconds, runs, 1)
}
