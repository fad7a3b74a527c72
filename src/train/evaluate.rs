//! Evaluation during training: the network with a small search against baseline players
//! (any player spec: `random`, `greedy`, `ab:depth=2`, ...), in pairs of games that share a
//! random opening, one with each colour.

use super::EvalEntry;
use crate::eval::arena::{play_game, random_opening};
use crate::eval::elo::elo_from_score;
use crate::mcts::{Evaluator, MctsConfig, MctsPlayer};
use crate::rules::{Position, Rules, Side};
use crate::search::{Limits, PlayerSpec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::Arc;

/// Games longer than this are draws.
const MAX_PLIES: usize = 600;

/// Plays `games` games (in pairs: the same random opening with each colour) of the network,
/// searching `sims` simulations a move, against the player `opponent` (a spec); returns the
/// network's score and Elo difference with 95% intervals. `on_game` is called after each game.
#[allow(clippy::too_many_arguments)]
pub fn evaluate(
    rules: &Rules,
    eval: Arc<dyn Evaluator>,
    cfg: &MctsConfig,
    sims: u32,
    opponent: &str,
    games: usize,
    opening_plies: u32,
    seed: u64,
    on_game: &(dyn Fn() + Sync),
) -> anyhow::Result<EvalEntry> {
    let spec: PlayerSpec = opponent.parse()?;
    spec.build(seed)?; // a bad spec fails before any game
    let pairs = games.div_ceil(2).max(1);
    let results: Vec<anyhow::Result<[f64; 2]>> = (0..pairs)
        .into_par_iter()
        .map(|p| {
            let seed = seed.wrapping_add(p as u64 * 7919);
            let mut opening_rng = ChaCha8Rng::seed_from_u64(seed);
            let (_, start) = random_opening(
                rules,
                &Position::start(rules),
                opening_plies,
                &mut opening_rng,
            );
            let mut scores = [0.0; 2];
            for (k, net_side) in [Side::South, Side::North].into_iter().enumerate() {
                let mut net = MctsPlayer::new("network", eval.clone(), cfg, sims);
                let mut opp = spec.build(seed ^ (k as u64 + 2))?;
                crate::search::Player::new_game(&mut net, seed ^ k as u64);
                let (south, north): (&mut dyn crate::search::Player, _) = match net_side {
                    Side::South => (&mut net, opp.as_mut()),
                    Side::North => (opp.as_mut(), &mut net),
                };
                let game = play_game(
                    rules,
                    &start,
                    south,
                    north,
                    &Limits::NONE,
                    MAX_PLIES,
                    |_, _, _| {},
                )?;
                scores[k] = match game.winner {
                    Some(w) if w == net_side => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
                on_game();
            }
            Ok(scores)
        })
        .collect();
    let mut scores = Vec::new();
    for r in results {
        scores.extend(r?);
    }
    let (score, low, high) = score_interval(&scores);
    Ok(EvalEntry {
        iteration: 0,
        opponent: opponent.to_string(),
        games: scores.len(),
        score,
        elo: elo(score),
        elo_low: elo(low),
        elo_high: elo(high),
    })
}

/// Mean score and a 95% interval (normal approximation, clamped to [0, 1]).
pub fn score_interval(scores: &[f64]) -> (f64, f64, f64) {
    let n = scores.len().max(1) as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, (mean - half).max(0.0), (mean + half).min(1.0))
}

/// The Elo difference of a score, clamped to ±1000 (a score of 0 or 1 has no finite Elo).
pub fn elo(score: f64) -> f64 {
    elo_from_score(score.clamp(1e-4, 1.0 - 1e-4)).clamp(-1000.0, 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_worked_scores() {
        assert!((elo(0.75) - 190.849).abs() < 0.01);
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.25) + 190.849).abs() < 0.01);
        assert_eq!(elo(1.0), 1000.0);
    }

    #[test]
    fn interval_of_a_mixed_sample() {
        let (m, lo, hi) = score_interval(&[1.0, 0.0, 1.0, 1.0]);
        assert_eq!(m, 0.75);
        assert!(lo < m && m < hi && hi <= 1.0);
    }
}
