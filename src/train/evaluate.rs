//! Evaluation during training: the network with a small search against baseline players.

use super::EvalEntry;
use crate::mcts::{Evaluator, MctsConfig, Tree, search};
use crate::rules::{Move, MoveList, Position, Rules, Side};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::Arc;

/// Chooses moves for one side of an evaluation game.
pub type Chooser = Box<dyn FnMut(&Position, &MoveList) -> Move + Send>;

/// Builds the opponent of a spec, seeded.
pub type OpponentFactory = fn(&Rules, &str, u64) -> anyhow::Result<Chooser>;

/// The MCTS player over `eval` with `sims` simulations (no noise, best move).
pub fn mcts_chooser(
    rules: Rules,
    eval: Arc<dyn Evaluator>,
    cfg: &MctsConfig,
    sims: u32,
    seed: u64,
) -> Chooser {
    let cfg = MctsConfig {
        dirichlet_epsilon: 0.0,
        ..cfg.clone()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Box::new(move |pos: &Position, list: &MoveList| {
        let mut tree = Tree::new(*pos);
        search(&mut tree, &rules, eval.as_ref(), &cfg, sims, &mut rng);
        tree.best_move().unwrap_or(list.moves()[0])
    })
}

/// Plays `games` games (in pairs: the same random opening with each colour) of the network
/// against `opponent`; returns the trained player's score and Elo difference with 95% intervals.
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
    make_opponent: OpponentFactory,
) -> anyhow::Result<EvalEntry> {
    let _ = make_opponent(rules, opponent, seed)?; // a bad spec fails before any game
    let pairs = games.div_ceil(2).max(1);
    let results: Vec<anyhow::Result<[f64; 2]>> = (0..pairs)
        .into_par_iter()
        .map(|p| {
            let seed = seed.wrapping_add(p as u64 * 7919);
            let mut opening_rng = ChaCha8Rng::seed_from_u64(seed);
            let start = random_opening(rules, opening_plies, &mut opening_rng);
            let mut scores = [0.0; 2];
            for (k, net_side) in [Side::South, Side::North].into_iter().enumerate() {
                let mut net = mcts_chooser(rules.clone(), eval.clone(), cfg, sims, seed ^ k as u64);
                let mut opp = make_opponent(rules, opponent, seed ^ (k as u64 + 2))?;
                let winner = play_game(rules, start, 600, |pos, list| {
                    if pos.side_to_move() == net_side {
                        net(pos, list)
                    } else {
                        opp(pos, list)
                    }
                });
                scores[k] = match winner {
                    Some(w) if w == net_side => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
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

/// A position after `plies` random moves from the start (fewer if the game ends).
pub fn random_opening(rules: &Rules, plies: u32, rng: &mut ChaCha8Rng) -> Position {
    let mut pos = Position::start(rules);
    let mut list = MoveList::new();
    for _ in 0..plies {
        pos.legal_moves(rules, &mut list);
        if list.is_empty() {
            break;
        }
        let next = list.children()[rng.random_range(0..list.len())];
        next.legal_moves(rules, &mut list);
        if next.outcome_given(&list).is_some() {
            break; // never hand over a finished game
        }
        pos = next;
    }
    pos
}

/// Plays a game to its end (or `max_plies`, a draw); returns the winner.
pub fn play_game(
    rules: &Rules,
    start: Position,
    max_plies: u32,
    mut choose: impl FnMut(&Position, &MoveList) -> Move,
) -> Option<Side> {
    let mut pos = start;
    let mut list = MoveList::new();
    for _ in 0..max_plies {
        pos.legal_moves(rules, &mut list);
        if let Some(o) = pos.outcome_given(&list) {
            return o.winner;
        }
        let mv = choose(&pos, &list);
        pos = *list.find(mv).unwrap_or(&list.children()[0]);
    }
    None
}

/// Mean score and a 95% interval (normal approximation, clamped away from 0 and 1).
pub fn score_interval(scores: &[f64]) -> (f64, f64, f64) {
    let n = scores.len().max(1) as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, (mean - half).max(0.0), (mean + half).min(1.0))
}

/// The Elo difference of a score (clamped to ±1000 at 0 and 1).
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-4, 1.0 - 1e-4);
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-1000.0, 1000.0)
}

/// Opponents known without the search module: `random`.
pub fn basic_opponent(_rules: &Rules, spec: &str, seed: u64) -> anyhow::Result<Chooser> {
    match spec {
        "random" => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            Ok(Box::new(move |_pos: &Position, list: &MoveList| {
                list.moves()[rng.random_range(0..list.len())]
            }))
        }
        other => anyhow::bail!("unknown opponent `{other}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_worked_scores() {
        assert!((elo(0.75) - 190.849).abs() < 0.01);
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.25) + 190.849).abs() < 0.01);
    }
}
