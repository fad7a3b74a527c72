//! Elo arithmetic: the logistic Elo scale, score intervals from game or game-pair results, and
//! Elo as text (and as JSON, where an end of an interval is unbounded).

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
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

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
    /// the other way, so the point estimate stays finite.
    pub elo: f64,
    /// Elo of the lower end of the score interval: minus infinity (unbounded) where that end
    /// is 0%. JSON writes an unbounded end as `null`.
    #[serde(serialize_with = "unbounded_elo::serialize")]
    pub elo_low: f64,
    /// Elo of the upper end of the score interval: infinity (unbounded) where that end is 100%.
    #[serde(serialize_with = "unbounded_elo::serialize")]
    pub elo_high: f64,
}

impl ScoreEstimate {
    /// From a distribution of per-sample scores: `(score of one sample in [0, 1], how many)`.
    /// For games, the samples are 1, 1/2, 0 (trinomial); for game pairs, a pair's mean score
    /// 0, 1/4, 1/2, 3/4, 1 (pentanomial: it accounts for the shared opening of a pair).
    /// `games_per_sample` is 1 for games, 2 for pairs.
    ///
    /// The interval is Wilson's score interval, which stays honest for small matches and at
    /// scores of 0 and 1 (where mean +- 1.96 standard errors collapses to a point): the sample
    /// variance is turned into an effective number of independent decisive games
    /// (`n p (1 - p) / variance`: draws and paired openings make a match worth more games),
    /// and Wilson's formula is applied to that count.
    pub(crate) fn from_distribution(dist: &[(f64, f64)], games_per_sample: f64) -> ScoreEstimate {
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
        let var = dist
            .iter()
            .map(|&(v, c)| c * (v - mean).powi(2))
            .sum::<f64>()
            / n;
        let games = n * games_per_sample.max(1.0);
        let binomial = mean * (1.0 - mean);
        // Identical results everywhere (all wins, all losses, all draws): count the games as
        // independent ones, the most cautious reading.
        let n_eff = if var > 0.0 && binomial > 0.0 {
            n * binomial / var
        } else {
            games
        };
        let (lo, hi) = wilson(mean, n_eff);
        // Half a game the other way keeps the point estimate finite at 0 and 1 (for logs and
        // charts); `elo_text` shows a bound there instead. The interval is the score interval
        // converted as it is: clamping its ends would claim a precision the games do not give.
        let clamp = |s: f64| s.clamp(0.5 / games, 1.0 - 0.5 / games);
        ScoreEstimate {
            samples: n,
            score: mean,
            score_low: lo,
            score_high: hi,
            elo: elo_from_score(clamp(mean)),
            elo_low: elo_from_score(lo),
            elo_high: elo_from_score(hi),
        }
    }

    /// The Elo estimate as text: `+241 [+150, +350]`, or at a score of 0 or 1, where no point
    /// estimate exists, the bound the interval gives: `> +520`, `< -520`.
    pub fn elo_text(&self) -> String {
        elo_text(self.score, self.elo, self.elo_low, self.elo_high)
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

/// Wilson's 95% score interval of a proportion `p` observed over `n` trials.
pub(crate) fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// An Elo estimate and its interval as text: a bound at a score of 0 or 1, else the estimate
/// and its interval. The one formatting that matches, gauntlets, training logs and player files
/// share.
pub fn elo_text(score: f64, elo: f64, elo_low: f64, elo_high: f64) -> String {
    // Rounded first, so that a value just below zero reads `+0`, not `-0`.
    let signed = |x: f64| format!("{:+.0}", x.round() + 0.0);
    if score >= 1.0 {
        format!("> {}", signed(elo_low))
    } else if score <= 0.0 {
        format!("< {}", signed(elo_high))
    } else {
        format!(
            "{} [{}, {}]",
            signed(elo),
            signed(elo_low),
            signed(elo_high)
        )
    }
}

/// Serde for the ends of an Elo interval, where an end at a score of 0% or 100% is unbounded
/// (an infinite f64): JSON writes such an end as `null`, and reads `null` back as unbounded
/// (minus infinity for a lower end, infinity for an upper one).
pub mod unbounded_elo {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes a finite end as a number, an unbounded one as `null`.
    pub fn serialize<S: Serializer>(end: &f64, s: S) -> Result<S::Ok, S::Error> {
        if end.is_finite() {
            s.serialize_f64(*end)
        } else {
            s.serialize_none()
        }
    }

    /// Reads a lower end: `null` is minus infinity.
    pub fn low<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NEG_INFINITY))
    }

    /// Reads an upper end: `null` is infinity.
    pub fn high<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::INFINITY))
    }
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

    #[test]
    fn a_perfect_score_gives_a_lower_bound_not_a_point() {
        let e = ScoreEstimate::from_wdl(20, 0, 0);
        assert_eq!(e.score, 1.0);
        // Wilson: 20 wins of 20 leave the true score above 0.839.
        assert!((e.score_low - 0.8389).abs() < 1e-3, "{}", e.score_low);
        assert_eq!(e.score_high, 1.0);
        assert!(e.elo.is_finite() && e.elo_low.is_finite());
        assert_eq!(e.elo_high, f64::INFINITY);
        assert_eq!(
            e.elo_text(),
            format!("> {:+.0}", elo_from_score(e.score_low))
        );
        // The point estimate stays finite; the unbounded end is `null` in JSON.
        let lost = ScoreEstimate::from_wdl(0, 0, 20);
        assert!(lost.elo.is_finite() && lost.elo_high.is_finite());
        assert_eq!(lost.elo_low, f64::NEG_INFINITY);
        assert!(lost.elo_text().starts_with("< -"), "{}", lost.elo_text());
        let json = serde_json::to_value(lost).unwrap();
        assert!(json["elo_low"].is_null(), "{json}");
        assert!(json["elo_high"].as_f64().unwrap() < -286.0, "{json}");
    }

    #[test]
    fn small_matches_get_wide_intervals() {
        // 3 wins of 4: the old normal interval was [0.33, 1.0]; Wilson's is [0.30, 0.95].
        let e = ScoreEstimate::from_wdl(3, 0, 1);
        assert!((e.score_low - 0.3006).abs() < 1e-3, "{}", e.score_low);
        assert!((e.score_high - 0.9544).abs() < 1e-3, "{}", e.score_high);
        let t = e.elo_text();
        assert!(t.starts_with("+191 ["), "{t}");
        // One win of one proves little.
        let one = ScoreEstimate::from_wdl(1, 0, 0);
        assert!(one.score_low < 0.25, "{}", one.score_low);
    }

    /// The Elo interval is the score interval converted, checked against values computed by
    /// hand: Wilson's interval `(p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`, then
    /// `-400 log10(1/s - 1)`.
    #[test]
    fn the_elo_interval_is_the_score_interval_converted() {
        // One win of one: score [20.65%, 100%], Elo [-234, unbounded].
        let one = ScoreEstimate::from_wdl(1, 0, 0);
        assert!(
            (one.score_low - 0.206_549).abs() < 1e-5,
            "{}",
            one.score_low
        );
        assert!((one.elo_low - -233.80).abs() < 0.01, "{}", one.elo_low);
        assert_eq!(one.elo_high, f64::INFINITY);
        assert_eq!(one.elo_text(), "> -234");
        // One win, one loss: score [9.45%, 90.55%], Elo [-393, +393].
        let split = ScoreEstimate::from_wdl(1, 0, 1);
        assert!(
            (split.score_high - 0.905_46).abs() < 1e-4,
            "{}",
            split.score_high
        );
        assert!((split.elo_high - 392.52).abs() < 0.01, "{}", split.elo_high);
        assert!((split.elo_low + split.elo_high).abs() < 1e-9);
        assert_eq!(split.elo_text(), "+0 [-393, +393]");
        // One win of four: score [4.56%, 69.94%], Elo [-528, +147].
        let four = ScoreEstimate::from_wdl(1, 0, 3);
        assert!(
            (four.score_low - 0.045_59).abs() < 1e-4,
            "{}",
            four.score_low
        );
        assert!((four.elo_low - -528.36).abs() < 0.01, "{}", four.elo_low);
        assert!((four.elo_high - 146.66).abs() < 0.01, "{}", four.elo_high);
        assert_eq!(four.elo_text(), "-191 [-528, +147]");
        for e in [one, split, four] {
            assert_eq!(e.elo_low, elo_from_score(e.score_low));
            assert_eq!(e.elo_high, elo_from_score(e.score_high));
        }
    }

    #[test]
    fn large_matches_agree_with_the_normal_interval() {
        let e = ScoreEstimate::from_wdl(600, 0, 400);
        let half = Z95 * (0.24f64 / 1000.0).sqrt();
        assert!((e.score_low - (0.6 - half)).abs() < 2e-3);
        assert!((e.score_high - (0.6 + half)).abs() < 2e-3);
    }

    #[test]
    fn draws_and_pairs_narrow_the_interval() {
        let decisive = ScoreEstimate::from_wdl(30, 0, 30);
        let drawn = ScoreEstimate::from_wdl(15, 30, 15);
        assert!(drawn.score_high - drawn.score_low < decisive.score_high - decisive.score_low);
        // 30 pairs split 1-1 by colour: every pair scores 1/2, so the pairs vary less
        // than 60 independent games would; the interval is still not a point.
        let pairs = ScoreEstimate::from_pairs(&[0, 0, 30, 0, 0]);
        assert!(pairs.score_low < 0.5 && pairs.score_high > 0.5);
    }
}
