//! Elo arithmetic: the logistic Elo scale, and score intervals from game or game-pair results.

use serde::Serialize;

/// The expected score of a player `elo` points stronger: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score: `-400 log10(1/s - 1)` (0.75 gives +190.85).
/// Infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A mean score with its 95% interval, and the same as Elo differences.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ScoreEstimate {
    /// Independent samples (games, or game pairs).
    pub samples: f64,
    /// The mean score per game, in [0, 1].
    pub score: f64,
    /// Lower end of the 95% interval of the score.
    pub score_low: f64,
    /// Upper end of the 95% interval of the score.
    pub score_high: f64,
    /// The Elo difference of the score. A score of 0 or 1 is counted as if half a game had gone
    /// the other way, so the estimate stays finite.
    pub elo: f64,
    /// Elo of the lower end of the score interval (same clamping).
    pub elo_low: f64,
    /// Elo of the upper end of the score interval (same clamping).
    pub elo_high: f64,
}

impl ScoreEstimate {
    /// From a distribution of per-sample scores: `(score of one sample in [0, 1], how many)`.
    /// For games, the samples are 1, 1/2, 0 (trinomial); for game pairs, a pair's mean score
    /// 0, 1/4, 1/2, 3/4, 1 (pentanomial: it accounts for the shared opening of a pair). The
    /// interval is mean +- 1.96 standard errors, clipped to [0, 1] (when every sample is the
    /// same, with the spread one extra sample of 1/2 would give). `games_per_sample` is 1 for
    /// games, 2 for pairs.
    pub fn from_distribution(dist: &[(f64, f64)], games_per_sample: f64) -> ScoreEstimate {
        let n: f64 = dist.iter().map(|&(_, c)| c).sum();
        if n <= 0.0 {
            return ScoreEstimate {
                samples: 0.0,
                score: 0.5,
                score_low: 0.0,
                score_high: 1.0,
                elo: 0.0,
                elo_low: f64::NEG_INFINITY,
                elo_high: f64::INFINITY,
            };
        }
        let mean = dist.iter().map(|&(v, c)| v * c).sum::<f64>() / n;
        let mut var = dist
            .iter()
            .map(|&(v, c)| c * (v - mean).powi(2))
            .sum::<f64>()
            / n;
        if var == 0.0 {
            // Identical results everywhere: take the spread that one more sample of 1/2 would
            // give, so the interval is not a single point.
            var = n * (0.5 - mean).powi(2) / (n + 1.0).powi(2);
        }
        let half = Z95 * (var / n).sqrt();
        let (lo, hi) = ((mean - half).max(0.0), (mean + half).min(1.0));
        // Half a game the other way keeps 0 and 1 finite; `games` counts games, not pairs.
        let games = n * games_per_sample.max(1.0);
        let clamp = |s: f64| s.clamp(0.5 / games, 1.0 - 0.5 / games);
        ScoreEstimate {
            samples: n,
            score: mean,
            score_low: lo,
            score_high: hi,
            elo: elo_from_score(clamp(mean)),
            elo_low: elo_from_score(clamp(lo)),
            elo_high: elo_from_score(clamp(hi)),
        }
    }

    /// From wins, draws and losses (trinomial).
    pub fn from_wdl(wins: u64, draws: u64, losses: u64) -> ScoreEstimate {
        ScoreEstimate::from_distribution(&trinomial(wins, draws, losses), 1.0)
    }

    /// From game-pair counts by the pair's points 0, 1/2, 1, 3/2, 2 (pentanomial).
    pub fn from_pairs(pairs: &[u64; 5]) -> ScoreEstimate {
        ScoreEstimate::from_distribution(&pentanomial(pairs), 2.0)
    }
}

/// The per-game score distribution of wins, draws and losses.
pub fn trinomial(wins: u64, draws: u64, losses: u64) -> Vec<(f64, f64)> {
    vec![
        (1.0, wins as f64),
        (0.5, draws as f64),
        (0.0, losses as f64),
    ]
}

/// The per-pair mean score distribution of game pairs counted by points (0, 1/2, 1, 3/2, 2).
pub fn pentanomial(pairs: &[u64; 5]) -> Vec<(f64, f64)> {
    pairs
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / 4.0, c as f64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_score_are_inverse() {
        for e in [-500.0, -100.0, 0.0, 35.0, 400.0] {
            assert!((elo_from_score(score_from_elo(e)) - e).abs() < 1e-9);
        }
        assert!((elo_from_score(0.75) - 190.848_501_887_865).abs() < 1e-9);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }
}
