//! Matches pooled pair by pair, and two players compared on the same openings (`bao pool`).
//!
//! A match's two games of a pair share their opening, so the pair is the sample: several matches
//! of one player are pooled by joining their pairs, and rated with the interval `bao eval` gives
//! one match ([`ScoreEstimate::from_distribution`], pentanomial). Two players that met the same
//! opponent on the same openings are compared by the mean difference of their scores pair by
//! pair: the openings' luck, most of a match's noise, cancels, so that interval is far narrower
//! than the one of two independent scores.

use super::elo::{ScoreEstimate, Z95};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What `bao pool` reads of a match file (`bao eval --json`): enough to check that matches are
/// comparable, and player A's score game by game.
#[derive(Clone, Debug, Deserialize)]
pub struct MatchFile {
    /// Player A.
    pub a: String,
    /// Player B, the opponent.
    pub b: String,
    /// The variant.
    pub variant: String,
    /// The match's `--seed` (absent in files written before it was recorded).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Random plies before each pair (absent in older files, as `seed`).
    #[serde(default)]
    pub opening_plies: Option<u32>,
    /// Every game.
    pub game_list: Vec<GameScore>,
}

/// One game of a match file: its pair and player A's score.
#[derive(Clone, Debug, Deserialize)]
pub struct GameScore {
    /// 0-based pair number.
    pub pair: usize,
    /// Player A's score: 1, 1/2 or 0.
    pub score_a: f64,
    /// What identifies the game among its match's (absent in older files).
    #[serde(default)]
    pub id: Option<String>,
}

impl MatchFile {
    /// The match with player A's mean score in each pair (0, 1/4, ..., 1), in pair order, worked
    /// out once. A pair cut short by an early stop counts with the game it has. A score other
    /// than 0, 1/2 or 1 is refused.
    pub fn paired(self) -> Result<PairedMatch, PoolError> {
        let mut pairs = std::collections::BTreeMap::<usize, (f64, u32, Option<String>)>::new();
        for (i, g) in self.game_list.iter().enumerate() {
            if ![0.0, 0.5, 1.0].contains(&g.score_a) {
                return Err(PoolError::BadScore {
                    game: i + 1,
                    score: g.score_a,
                });
            }
            let pair = pairs.entry(g.pair).or_insert((0.0, 0, Some(String::new())));
            pair.0 += g.score_a;
            pair.1 += 1;
            // A pair is identified by its games' ids, in order; by nothing if one lacks its id.
            pair.2 = match (pair.2.take(), &g.id) {
                (Some(ids), Some(id)) => Some(ids + id + "/"),
                _ => None,
            };
        }
        let (pair_scores, pair_ids) = pairs
            .into_values()
            .map(|(s, n, ids)| (s / f64::from(n), ids))
            .unzip();
        Ok(PairedMatch {
            file: self,
            pair_scores,
            pair_ids,
        })
    }
}

/// A match file with player A's score in each pair.
#[derive(Clone, Debug)]
pub struct PairedMatch {
    /// The match as read.
    pub file: MatchFile,
    /// Player A's mean score in each pair, in pair order.
    pub pair_scores: Vec<f64>,
    /// Each pair's identity, its games' ids (`None` in files without them).
    pub pair_ids: Vec<Option<String>>,
}

/// Why two lists of matches cannot be compared pair by pair; each names the first difference.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PoolError {
    /// No match file, or no game in them, was given.
    #[error("no games to pool")]
    Empty,
    /// A game's score is not a game's score.
    #[error("game {game} of a match scores {score}, not 0, 0.5 or 1")]
    BadScore {
        /// 1-based game in its match file.
        game: usize,
        /// The score read.
        score: f64,
    },
    /// The two lists hold different numbers of matches.
    #[error("the lists hold {0} and {1} matches: not the same openings")]
    MatchCount(usize, usize),
    /// Match `index` (1-based) differs between the lists in `what`.
    #[error("match {index} of each list differs in {what}: {new} against {old}")]
    Differs {
        /// 1-based position of the match in its list.
        index: usize,
        /// What differs: the opponent, the variant, the seed, the opening plies, the pairs.
        what: &'static str,
        /// The first list's value.
        new: String,
        /// The second list's value.
        old: String,
    },
}

/// One player's pooled matches: the score per pair over all of them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pooled {
    /// Pairs pooled: each distinct pair once.
    pub pairs: usize,
    /// Pairs left out because they repeat an earlier pair move for move (deterministic
    /// players): one sample, counted once.
    pub repeated_pairs: usize,
    /// Games pooled.
    pub games: usize,
    /// The score with its 95% interval, pentanomial over the pairs.
    pub estimate: ScoreEstimate,
}

/// Pools one player's matches.
pub fn pool(matches: &[PairedMatch]) -> Result<Pooled, PoolError> {
    let mut seen = std::collections::HashSet::new();
    let all = matches
        .iter()
        .flat_map(|m| m.pair_scores.iter().zip(&m.pair_ids));
    let total = all.clone().count();
    let scores: Vec<f64> = all
        .filter(|(_, id)| id.as_ref().is_none_or(|id| seen.insert(id.as_str())))
        .map(|(&s, _)| s)
        .collect();
    if scores.is_empty() {
        return Err(PoolError::Empty);
    }
    let dist: Vec<(f64, f64)> = scores.iter().map(|&s| (s, 1.0)).collect();
    Ok(Pooled {
        pairs: scores.len(),
        repeated_pairs: total - scores.len(),
        games: matches.iter().map(|m| m.file.game_list.len()).sum(),
        estimate: ScoreEstimate::from_distribution(&dist, 2.0),
    })
}

/// The mean per-pair difference of two players' scores, in points (percent of a game's score),
/// with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairDifference {
    /// Pairs compared: each distinct pair of pairs once.
    pub pairs: usize,
    /// Pairs left out because both players' games repeat an earlier pair's move for move
    /// (deterministic players): one sample, counted once, as [`pool`] counts it.
    pub repeated_pairs: usize,
    /// Mean difference, new minus old, in points.
    pub points: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl fmt::Display for PairDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:+.1} points [{:+.1}, {:+.1}] per pair over {} pairs (95%)",
            self.points, self.low, self.high, self.pairs
        )?;
        match self.repeated_pairs {
            0 => Ok(()),
            n => write!(f, ", {n} repeated pairs counted once"),
        }
    }
}

/// Compares two players' matches, list against list in order: each pair of matches must have
/// the same opponent, variant, seed, opening plies and number of pairs, so that pair k of one
/// opened as pair k of the other.
pub fn compare(new: &[PairedMatch], old: &[PairedMatch]) -> Result<PairDifference, PoolError> {
    if new.is_empty() || old.is_empty() {
        return Err(PoolError::Empty);
    }
    if new.len() != old.len() {
        return Err(PoolError::MatchCount(new.len(), old.len()));
    }
    let mut diffs = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut repeated_pairs = 0;
    for (index, (pn, po)) in new.iter().zip(old).enumerate() {
        let (n, o) = (&pn.file, &po.file);
        let differs = |what, a: String, b: String| {
            if a == b {
                Ok(())
            } else {
                Err(PoolError::Differs {
                    index: index + 1,
                    what,
                    new: a,
                    old: b,
                })
            }
        };
        differs("opponent", n.b.clone(), o.b.clone())?;
        differs("variant", n.variant.clone(), o.variant.clone())?;
        // Files from before the seed was recorded can only be checked by their pair counts.
        if let (Some(a), Some(b)) = (n.seed, o.seed) {
            differs("seed", a.to_string(), b.to_string())?;
        }
        if let (Some(a), Some(b)) = (n.opening_plies, o.opening_plies) {
            differs("opening plies", a.to_string(), b.to_string())?;
        }
        let (ns, os) = (&pn.pair_scores, &po.pair_scores);
        differs("pairs", ns.len().to_string(), os.len().to_string())?;
        for ((a, b), ids) in ns.iter().zip(os).zip(pn.pair_ids.iter().zip(&po.pair_ids)) {
            // A pair of pairs is one sample however often both players repeat it.
            if let (Some(n), Some(o)) = ids
                && !seen.insert((n.as_str(), o.as_str()))
            {
                repeated_pairs += 1;
                continue;
            }
            diffs.push(100.0 * (a - b));
        }
    }
    if diffs.is_empty() {
        return Err(PoolError::Empty);
    }
    let k = diffs.len() as f64;
    let points = diffs.iter().sum::<f64>() / k;
    let var = if diffs.len() > 1 {
        diffs.iter().map(|d| (d - points).powi(2)).sum::<f64>() / (k - 1.0)
    } else {
        0.0
    };
    let half = Z95 * (var / k).sqrt();
    Ok(PairDifference {
        pairs: diffs.len(),
        repeated_pairs,
        points,
        low: points - half,
        high: points + half,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(seed: u64, scores: &[f64]) -> PairedMatch {
        raw(seed, scores).paired().unwrap()
    }

    fn raw(seed: u64, scores: &[f64]) -> MatchFile {
        MatchFile {
            a: "a".into(),
            b: "ab".into(),
            variant: "kiswahili".into(),
            seed: Some(seed),
            opening_plies: Some(4),
            game_list: scores
                .iter()
                .enumerate()
                .map(|(i, &score_a)| GameScore {
                    pair: i / 2,
                    score_a,
                    id: None,
                })
                .collect(),
        }
    }

    #[test]
    fn pair_scores_average_the_two_games_of_each_pair_and_keep_a_lone_last_game() {
        let m = file(1, &[1.0, 0.0, 1.0, 1.0, 0.5]);
        assert_eq!(m.pair_scores, vec![0.5, 1.0, 0.5]);
        let err = raw(1, &[1.0, 0.25]).paired().unwrap_err();
        assert_eq!(
            err.to_string(),
            "game 2 of a match scores 0.25, not 0, 0.5 or 1"
        );
    }

    #[test]
    fn one_match_pooled_alone_gets_the_pentanomial_estimate_of_its_pairs() {
        let m = file(1, &[1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]);
        let pooled = pool(std::slice::from_ref(&m)).unwrap();
        // Pairs scored 1/2, 1, 1, 0: pentanomial counts by points 0, 1/2, 1, 3/2, 2.
        assert_eq!(pooled.estimate, ScoreEstimate::from_pairs(&[1, 0, 1, 0, 2]));
        assert_eq!((pooled.pairs, pooled.games), (4, 8));
        // Pooled with itself: the same score over twice the games, so a narrower interval.
        let twice = pool(&[m.clone(), m]).unwrap();
        assert_eq!(twice.estimate.score, pooled.estimate.score);
        assert!(
            twice.estimate.score_high - twice.estimate.score_low
                < pooled.estimate.score_high - pooled.estimate.score_low
        );
        assert_eq!(pool(&[]), Err(PoolError::Empty));
    }

    #[test]
    fn pairs_that_repeat_move_for_move_are_pooled_once() {
        // Two pairs of the same two games, and one other: two distinct pairs.
        let mut m = raw(1, &[1.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
        for (g, id) in m.game_list.iter_mut().zip(["a", "b", "a", "b", "c", "b"]) {
            g.id = Some(id.into());
        }
        let m = m.paired().unwrap();
        let pooled = pool(std::slice::from_ref(&m)).unwrap();
        assert_eq!(
            (pooled.pairs, pooled.repeated_pairs, pooled.games),
            (2, 1, 6)
        );
        assert_eq!(pooled.estimate, ScoreEstimate::from_pairs(&[0, 0, 1, 0, 1]));
        // The same match twice adds nothing.
        let twice = pool(&[m.clone(), m]).unwrap();
        assert_eq!((twice.pairs, twice.repeated_pairs), (2, 4));
        assert_eq!(twice.estimate, pooled.estimate);
    }

    #[test]
    fn pairs_that_both_players_repeat_move_for_move_are_compared_once() {
        let with_ids = |scores: &[f64], ids: [&str; 6]| {
            let mut m = raw(1, scores);
            for (g, id) in m.game_list.iter_mut().zip(ids) {
                g.id = Some(id.into());
            }
            m.paired().unwrap()
        };
        // New repeats its first pair; old repeats it too: one sample of +50, and one of -50.
        let new = with_ids(
            &[1.0, 1.0, 1.0, 1.0, 0.0, 0.0],
            ["a", "b", "a", "b", "c", "d"],
        );
        let old = with_ids(
            &[1.0, 0.0, 1.0, 0.0, 1.0, 0.0],
            ["e", "f", "e", "f", "g", "h"],
        );
        let d = compare(std::slice::from_ref(&new), std::slice::from_ref(&old)).unwrap();
        assert_eq!((d.pairs, d.repeated_pairs), (2, 1));
        assert!(d.points.abs() < 1e-9, "{d}");
        assert!(
            d.to_string().ends_with("1 repeated pairs counted once"),
            "{d}"
        );
        // Where only one player repeats, the pairs differ as samples and all count.
        let fresh = with_ids(
            &[1.0, 0.0, 1.0, 0.0, 1.0, 0.0],
            ["e", "f", "i", "j", "g", "h"],
        );
        let d = compare(&[new], &[fresh]).unwrap();
        assert_eq!((d.pairs, d.repeated_pairs), (3, 0));
    }

    #[test]
    fn the_difference_per_pair_is_the_mean_of_the_pairs_differences_with_its_interval() {
        let new = file(5, &[1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0]);
        let old = file(5, &[1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        // Per pair: +50, 0, +100, 0 points; mean 37.5, sample sd 47.87.
        let d = compare(std::slice::from_ref(&new), &[old]).unwrap();
        assert_eq!(d.pairs, 4);
        assert!((d.points - 37.5).abs() < 1e-9);
        let half = Z95 * 47.871_355_387_816_9 / 2.0;
        assert!((d.high - d.points - half).abs() < 1e-6, "{d}");
        assert!((d.points - d.low - half).abs() < 1e-6, "{d}");
        // Against itself: nothing, exactly.
        let same = compare(std::slice::from_ref(&new), std::slice::from_ref(&new)).unwrap();
        assert_eq!((same.points, same.low, same.high), (0.0, 0.0, 0.0));
    }

    #[test]
    fn matches_on_other_openings_or_against_another_opponent_are_refused_naming_the_difference() {
        let a = file(5, &[1.0, 0.0]);
        let err = compare(std::slice::from_ref(&a), &[file(2, &[1.0, 0.0])]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "match 1 of each list differs in seed: 5 against 2"
        );
        let mut other = a.clone();
        other.file.b = "random".into();
        let err = compare(std::slice::from_ref(&a), &[other]).unwrap_err();
        assert!(
            err.to_string().contains("opponent: ab against random"),
            "{err}"
        );
        let err = compare(std::slice::from_ref(&a), &[file(5, &[1.0, 0.0, 1.0, 1.0])]).unwrap_err();
        assert!(err.to_string().contains("pairs: 1 against 2"), "{err}");
        let err = compare(&[a.clone(), a.clone()], &[a]).unwrap_err();
        assert_eq!(err, PoolError::MatchCount(2, 1));
    }

    #[test]
    fn files_written_before_the_seed_was_recorded_are_read_and_compared_by_their_pairs() {
        let text = r#"{"a": "x", "b": "ab", "variant": "kiswahili", "games": 2,
            "game_list": [{"game": 1, "pair": 0, "score_a": 1.0}, {"game": 2, "pair": 0, "score_a": 0.5}]}"#;
        let old: MatchFile = serde_json::from_str(text).unwrap();
        let old = old.paired().unwrap();
        assert_eq!((old.file.seed, &old.pair_scores[..]), (None, &[0.75][..]));
        let d = compare(&[file(9, &[1.0, 1.0])], &[old]).unwrap();
        assert!((d.points - 25.0).abs() < 1e-9);
    }
}
