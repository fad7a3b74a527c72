//! The alpha-beta benchmark (`bao bench ab`): speed of the alpha-beta search on one core: nodes per second over a fixed set
//! of middle-game positions (reached by seeded random play of Bao la Kiswahili), and the depth
//! the search completes in a given time. Both are medians.

use super::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::players::{Limits, Player};
use crate::rules::{MoveList, Position, Rules, Variant};
use crate::util::median;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::time::{Duration, Instant};

/// The result of [`bench_ab`].
#[derive(Clone, Debug, Serialize)]
pub struct AbBench {
    /// Median nodes per second over the runs.
    pub nodes_per_sec: f64,
    /// Each run's nodes per second.
    pub runs: Vec<f64>,
    /// Nodes of one run over the whole set.
    pub nodes: u64,
    /// Median seconds of one run over the whole set.
    pub seconds_per_run: f64,
    /// Positions searched per run.
    pub positions: usize,
    /// The fixed depth of the node-rate runs.
    pub depth: u32,
    /// Median depth completed within `seconds` per position.
    pub depth_in_time: f64,
    /// Each position's depth completed within `seconds`.
    pub depths: Vec<u32>,
    /// The time per position of the depth test.
    pub seconds: f64,
}

/// `count` middle-game positions: seeded random play from the start for 20 to 59 plies (so both
/// the namua and the mtaji stage appear), keeping positions with at least 3 legal moves and no
/// result proven by a depth-2 search.
pub fn middle_game_positions(rules: &Rules, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list = MoveList::new();
    let mut out = Vec::with_capacity(count);
    let mut probe = AlphaBeta::new(
        rules,
        AlphaBetaConfig {
            tt_bits: 12,
            ..AlphaBetaConfig::default()
        },
    );
    while out.len() < count {
        let target = rng.random_range(20..60);
        let mut pos = Position::start(rules);
        for _ in 0..target {
            pos.legal_moves(rules, &mut list);
            if list.is_empty() {
                break;
            }
            pos = list.children()[rng.random_range(0..list.len())];
        }
        pos.legal_moves(rules, &mut list);
        if list.len() < 3 {
            continue;
        }
        let decided = probe
            .analyse(&pos, &Limits::depth(2))
            .map_or(true, |a| super::alphabeta::mate_distance(a.score).is_some());
        if !decided {
            out.push(pos);
        }
    }
    out
}

/// Searches each position to `depth` (a fresh table per run), `runs` times, on the calling
/// thread; then each of the first `depth_positions` positions for `seconds`.
pub fn bench_ab(
    positions: usize,
    depth: u32,
    runs: usize,
    seconds: f64,
    depth_positions: usize,
    seed: u64,
) -> anyhow::Result<AbBench> {
    let rules = Variant::Kiswahili.rules();
    let set = middle_game_positions(&rules, positions.max(1), seed);
    let mut rates = Vec::new();
    let mut times = Vec::new();
    let mut run_nodes = 0;
    for _ in 0..runs.max(1) {
        let mut ab = AlphaBeta::new(&rules, AlphaBetaConfig::default());
        let (mut nodes, mut secs) = (0u64, 0f64);
        for pos in &set {
            ab.new_game(0);
            let t = Instant::now();
            let c = ab.choose(pos, &Limits::depth(depth))?;
            secs += t.elapsed().as_secs_f64();
            nodes += c.nodes;
        }
        rates.push(nodes as f64 / secs.max(1e-9));
        times.push(secs);
        run_nodes = nodes;
    }
    let mut depths = Vec::new();
    let mut ab = AlphaBeta::new(&rules, AlphaBetaConfig::default());
    for pos in set.iter().take(depth_positions) {
        ab.new_game(0);
        let c = ab.choose(pos, &Limits::time(Duration::from_secs_f64(seconds)))?;
        depths.push(c.depth);
    }
    Ok(AbBench {
        nodes_per_sec: median(&rates),
        runs: rates,
        nodes: run_nodes,
        seconds_per_run: median(&times),
        positions: set.len(),
        depth,
        depth_in_time: median(&depths.iter().map(|&d| d as f64).collect::<Vec<_>>()),
        depths,
        seconds,
    })
}
