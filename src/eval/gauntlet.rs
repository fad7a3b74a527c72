//! Several players on one Elo scale: matches between pairs (a round robin, or every player
//! against a set of anchors), then a Bradley-Terry fit by maximum likelihood on the logistic Elo
//! scale, with one anchor fixed at 0.
//!
//! A draw counts as half a win and half a loss. To keep the fit finite when a player wins or
//! loses every game, each pair that played gets `prior_draws` virtual draws (default 1). The 95%
//! intervals come from the inverse of the observed information matrix (the negative Hessian of
//! the log-likelihood) at the optimum, for each player relative to the anchor.

use super::arena::{MatchConfig, MatchResult, mix, run_match};
use super::kept::KeptPlayers;
use crate::players::{Limits, PlayerRegistry, PlayerSpec};
use crate::rules::{Game, Position};
use anyhow::{bail, ensure};
use serde::Serialize;

/// Which pairs play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Every pair of players.
    RoundRobin,
    /// Every player against each of these players (indices into the player list), and the
    /// anchors among themselves.
    VsAnchors(Vec<usize>),
}

/// A gauntlet.
#[derive(Clone, Debug)]
pub struct GauntletConfig {
    /// The players.
    pub players: Vec<PlayerSpec>,
    /// The player whose Elo is 0 (an index into `players`).
    pub anchor: usize,
    /// Which pairs play.
    pub pairing: Pairing,
    /// The game.
    pub game: Game,
    /// Its name.
    pub variant: String,
    /// The start position (default: the rule set's start).
    pub start: Option<Position>,
    /// Games per pair of players.
    pub games_per_pair: usize,
    /// Seed; each pair's match gets its own seed from it.
    pub seed: u64,
    /// Random plies at the start of each game pair.
    pub opening_plies: u32,
    /// Ply cap of a game (a draw).
    pub max_plies: usize,
    /// Limits per move for all players.
    pub limits: Limits,
    /// Virtual draws added to each pair that played.
    pub prior_draws: f64,
    /// Progress bars on the terminal.
    pub progress: bool,
    /// How specs become players.
    pub registry: PlayerRegistry,
    /// Short names for tables and JSON, one per player (`None`, or past the end: its spec).
    pub labels: Vec<Option<String>>,
}

impl GauntletConfig {
    /// Player `p`'s name in tables and JSON: its label, else its spec.
    pub fn name(&self, p: usize) -> String {
        match self.labels.get(p) {
            Some(Some(label)) => label.clone(),
            _ => self.players[p].to_string(),
        }
    }
}

/// One player's rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The player: its label, else its spec.
    pub name: String,
    /// Its spec.
    pub spec: String,
    /// Elo relative to the anchor.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub elo_low: f64,
    /// Upper end of the 95% interval.
    pub elo_high: f64,
    /// Games counted: those played, or each distinct game once where a match's games repeat
    /// ([`MatchResult::counted`]).
    pub games: u64,
    /// Points scored in them.
    pub points: f64,
}

/// The outcome of a gauntlet.
#[derive(Clone, Debug, Serialize)]
pub struct GauntletResult {
    /// The anchor's name.
    pub anchor: String,
    /// Ratings, strongest first.
    pub ratings: Vec<Rating>,
    /// Every match played.
    pub matches: Vec<MatchResult>,
}

impl GauntletResult {
    /// The ratings as a text table.
    pub fn table(&self) -> String {
        let width = self
            .ratings
            .iter()
            .map(|r| r.name.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let mut s = format!(
            "{:<width$}  {:>6}  {:>15}  {:>6}  {:>6}\n",
            "player", "Elo", "95% interval", "games", "score"
        );
        for r in &self.ratings {
            s.push_str(&format!(
                "{:<width$}  {:>+6.0}  [{:>+5.0}, {:>+5.0}]  {:>6}  {:>5.1}%\n",
                r.name,
                r.elo,
                r.elo_low,
                r.elo_high,
                r.games,
                100.0 * r.points / r.games.max(1) as f64
            ));
        }
        s.push_str(&format!("(anchor: {} at 0)\n", self.anchor));
        for r in self.ratings.iter().filter(|r| r.name != r.spec) {
            s.push_str(&format!("{} = {}\n", r.name, r.spec));
        }
        s
    }
}

/// Pairwise results for the fit: `(i, j, points of i against j, games)`.
type PairResult = (usize, usize, f64, f64);

/// Bradley-Terry Elo by maximum likelihood with player `anchor` at 0: `(elo, standard error)`
/// per player (the anchor's error is 0). Fails when some player has no path of games to the
/// anchor.
fn fit_elo(
    players: usize,
    results: &[PairResult],
    anchor: usize,
    prior_draws: f64,
) -> anyhow::Result<Vec<(f64, f64)>> {
    ensure!(anchor < players, "the anchor is not one of the players");
    // Natural units: p(i beats j) = 1 / (1 + exp(-(t_i - t_j))).
    let to_elo = 400.0 / std::f64::consts::LN_10;
    let mut data: Vec<PairResult> = Vec::new();
    for &(i, j, s, n) in results {
        ensure!(i < players && j < players && i != j, "bad pair ({i}, {j})");
        if n > 0.0 {
            data.push((i, j, s + prior_draws / 2.0, n + prior_draws.max(0.0)));
        }
    }
    let free: Vec<usize> = (0..players).filter(|&p| p != anchor).collect();
    let slot = |p: usize| free.iter().position(|&q| q == p);
    let m = free.len();
    let mut theta = vec![0.0f64; players];
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut info = vec![vec![0.0; m]; m];
    for _ in 0..200 {
        let mut grad = vec![0.0; m];
        info = vec![vec![0.0; m]; m];
        for &(i, j, s, n) in &data {
            let p = sigmoid(theta[i] - theta[j]);
            let g = s - n * p;
            let w = n * p * (1.0 - p);
            if let Some(a) = slot(i) {
                grad[a] += g;
                info[a][a] += w;
            }
            if let Some(b) = slot(j) {
                grad[b] -= g;
                info[b][b] += w;
            }
            if let (Some(a), Some(b)) = (slot(i), slot(j)) {
                info[a][b] -= w;
                info[b][a] -= w;
            }
        }
        let Some(inv) = invert(&info) else {
            bail!("the Elo fit is undetermined: some player has no games linking it to the anchor");
        };
        let mut step_max = 0.0f64;
        for a in 0..m {
            let step: f64 = (0..m).map(|b| inv[a][b] * grad[b]).sum();
            // Damped Newton: no step beyond 2 natural units (about 350 Elo) at once.
            let step = step.clamp(-2.0, 2.0);
            theta[free[a]] += step;
            step_max = step_max.max(step.abs());
        }
        if step_max < 1e-10 {
            break;
        }
    }
    let inv = invert(&info).unwrap_or_else(|| vec![vec![f64::INFINITY; m]; m]);
    Ok((0..players)
        .map(|p| {
            let se = slot(p).map_or(0.0, |a| inv[a][a].max(0.0).sqrt());
            (theta[p] * to_elo, se * to_elo)
        })
        .collect())
}

/// The inverse of a symmetric positive-definite matrix by Gauss-Jordan elimination with partial
/// pivoting; `None` if it is singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[p][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, p);
        let d = m[c][c];
        m[c].iter_mut().for_each(|x| *x /= d);
        for r in 0..n {
            if r != c && m[r][c] != 0.0 {
                let f = m[r][c];
                let pivot = m[c].clone();
                m[r].iter_mut().zip(&pivot).for_each(|(x, y)| *x -= f * y);
            }
        }
    }
    Some(m.into_iter().map(|r| r[n..].to_vec()).collect())
}

/// Plays the gauntlet's matches (one after another, each in parallel) and fits the ratings.
pub fn run_gauntlet(cfg: &GauntletConfig) -> anyhow::Result<GauntletResult> {
    let n = cfg.players.len();
    ensure!(n >= 2, "a gauntlet needs at least two players");
    ensure!(cfg.anchor < n, "the anchor is not one of the players");
    let names: Vec<String> = (0..n).map(|p| cfg.name(p)).collect();
    if let Some(twice) = (1..n).find(|&p| names[..p].contains(&names[p])) {
        bail!(
            "two players are named `{}`: give each a label of its own (LABEL=SPEC)",
            names[twice]
        );
    }
    let kept = players_of_one_game(cfg)?;
    let mut matches = Vec::new();
    let mut results = Vec::new();
    for (k, &(i, j)) in pairs(cfg)?.iter().enumerate() {
        let mut m = run_match(&MatchConfig {
            a: cfg.players[i].clone(),
            b: cfg.players[j].clone(),
            game: cfg.game.clone(),
            variant: cfg.variant.clone(),
            start: cfg.start,
            games: cfg.games_per_pair,
            seed: mix(cfg.seed, k as u64),
            opening_plies: cfg.opening_plies,
            max_plies: cfg.max_plies,
            limits: cfg.limits,
            sprt: None,
            batch_pairs: 1,
            progress: cfg.progress,
            players: cfg.registry.clone(),
            kept: kept.clone(),
        })?;
        // A labelled player goes by its label; the others keep the names they give themselves.
        let label = |p: usize, own: &str| match cfg.labels.get(p) {
            Some(Some(l)) => l.clone(),
            _ => own.to_string(),
        };
        let (a, b) = (label(i, &m.a), label(j, &m.b));
        m.relabel(&a, &b);
        let (points, games) = m.counted();
        results.push((i, j, points, games));
        matches.push(m);
    }
    let fit = fit_elo(n, &results, cfg.anchor, cfg.prior_draws)?;
    let mut ratings: Vec<Rating> = (0..n)
        .map(|p| rating(cfg, &names, &results, fit[p], p))
        .collect();
    ratings.sort_by(|x, y| y.elo.total_cmp(&x.elo));
    Ok(GauntletResult {
        anchor: names[cfg.anchor].clone(),
        ratings,
        matches,
    })
}

/// Every player once, before any match: a bad spec, or players of different games, fail here.
/// They are kept for the matches, which share them (an engine starts once for all).
fn players_of_one_game(cfg: &GauntletConfig) -> anyhow::Result<KeptPlayers> {
    let kept = KeptPlayers::new();
    let built = (cfg.players.iter())
        .map(|s| kept.take(&cfg.registry, s, &cfg.game, 0))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let refs: Vec<&dyn crate::players::Player> = built.iter().map(|p| p.as_ref()).collect();
    crate::players::check_players(&cfg.game, &refs)?;
    for (spec, player) in cfg.players.iter().zip(built) {
        kept.keep(spec, &cfg.game, player);
    }
    Ok(kept)
}

/// The pairs of players (by index) the gauntlet's pairing plays.
fn pairs(cfg: &GauntletConfig) -> anyhow::Result<Vec<(usize, usize)>> {
    let n = cfg.players.len();
    let all = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j)));
    Ok(match &cfg.pairing {
        Pairing::RoundRobin => all.collect(),
        Pairing::VsAnchors(anchors) => {
            ensure!(
                !anchors.is_empty() && anchors.iter().all(|&a| a < n),
                "anchors must be among the players"
            );
            all.filter(|(i, j)| anchors.contains(i) || anchors.contains(j))
                .collect()
        }
    })
}

/// Player `p`'s rating: its fitted Elo `(elo, se)` and its games and points over the matches
/// `results` (`(i, j, points of i, games)`).
fn rating(
    cfg: &GauntletConfig,
    names: &[String],
    results: &[PairResult],
    (elo, se): (f64, f64),
    p: usize,
) -> Rating {
    let (games, points) = results.iter().fold((0u64, 0.0), |(g, s), &(i, j, pts, n)| {
        if i == p {
            (g + n as u64, s + pts)
        } else if j == p {
            (g + n as u64, s + n - pts)
        } else {
            (g, s)
        }
    });
    Rating {
        name: names[p].clone(),
        spec: cfg.players[p].to_string(),
        elo,
        elo_low: elo - super::elo::Z95 * se,
        elo_high: elo + super::elo::Z95 * se,
        games,
        points,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_fit_the_score_elo() {
        // 75 points of 100 with no prior: exactly the Elo of a 0.75 score.
        let fit = fit_elo(2, &[(1, 0, 75.0, 100.0)], 0, 0.0).unwrap();
        assert!((fit[1].0 - 190.848_501_887_865).abs() < 1e-6, "{fit:?}");
        assert_eq!(fit[0], (0.0, 0.0));
        // Its standard error is that of a binomial proportion, carried to the Elo scale:
        // se(theta) = 1/sqrt(n p (1-p)) = 1/sqrt(18.75).
        let se = 400.0 / std::f64::consts::LN_10 / 18.75f64.sqrt();
        assert!((fit[1].1 - se).abs() < 1e-6);
    }

    #[test]
    fn a_chain_of_players_adds_up_and_unlinked_players_are_an_error() {
        // B beats A 3:1, C beats B 3:1 (no C-A games): C is twice 190.85 above A.
        let r = [(1, 0, 75.0, 100.0), (2, 1, 75.0, 100.0)];
        let fit = fit_elo(3, &r, 0, 0.0).unwrap();
        assert!((fit[2].0 - 2.0 * 190.848_501_887_865).abs() < 1e-6);
        assert!(fit_elo(3, &[(1, 0, 75.0, 100.0)], 0, 0.0).is_err());
        // A perfect score stays finite with the virtual draws.
        let fit = fit_elo(2, &[(1, 0, 10.0, 10.0)], 0, 1.0).unwrap();
        assert!(fit[1].0.is_finite() && fit[1].0 > 300.0);
    }
}
