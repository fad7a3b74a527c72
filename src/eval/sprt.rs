//! The sequential probability ratio test used to stop a match early, as on fishtest: a
//! generalized SPRT (GSPRT) of H0: Elo = elo0 against H1: Elo = elo1 on the logistic Elo scale.
//!
//! The log-likelihood ratio is fishtest's approximation `LLR_alt` (M. Van den Bergh, "A
//! practical introduction to the GSPRT"):
//!
//! ```text
//! LLR = N/2 * ln( sum_x p(x) (x - s0)^2  /  sum_x p(x) (x - s1)^2 )
//! ```
//!
//! where `p` is the observed distribution of the sample scores `x`, `N` the number of samples,
//! and `s0`, `s1` the expected scores of elo0 and elo1. The samples are game pairs (pentanomial
//! model: a pair's mean score is one of 0, 1/4, 1/2, 3/4, 1) when the games were played in pairs
//! with a shared opening, and single games otherwise (trinomial: 0, 1/2, 1). The test accepts H1
//! when the LLR reaches `ln((1-beta)/alpha)`, H0 when it falls to `ln(beta/(1-alpha))`.

use super::elo::score_from_elo;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// The hypotheses and error rates of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1 (greater than elo0).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Not decided: play on.
    Continue,
    /// H0 accepted: the difference is at most about elo0.
    H0,
    /// H1 accepted: the difference is at least about elo1.
    H1,
}

/// The state of an SPRT after some games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtResult {
    /// The test.
    pub config: SprtConfig,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower bound (H0 at or below it).
    pub lower: f64,
    /// The upper bound (H1 at or above it).
    pub upper: f64,
    /// The decision.
    pub verdict: Verdict,
    /// `pentanomial` (game pairs) or `trinomial` (games).
    pub model: &'static str,
}

impl SprtConfig {
    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), String> {
        let ok_rate = |x: f64| x > 0.0 && x < 0.5;
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo0 < self.elo1) {
            return Err(format!(
                "elo0 ({}) must be below elo1 ({})",
                self.elo0, self.elo1
            ));
        }
        if !ok_rate(self.alpha) || !ok_rate(self.beta) {
            return Err(format!(
                "alpha ({}) and beta ({}) must be in (0, 0.5)",
                self.alpha, self.beta
            ));
        }
        Ok(())
    }

    /// `(lower, upper)`: `ln(beta/(1-alpha))`, `ln((1-beta)/alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The test on a sample-score distribution `(score in [0, 1], count)` (see the module docs).
    pub fn evaluate(&self, dist: &[(f64, f64)], model: &'static str) -> SprtResult {
        let llr = llr(dist, score_from_elo(self.elo0), score_from_elo(self.elo1));
        let (lower, upper) = self.bounds();
        let verdict = if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        };
        SprtResult {
            config: *self,
            llr,
            lower,
            upper,
            verdict,
            model,
        }
    }
}

/// The GSPRT log-likelihood ratio `N/2 ln(r0/r1)` of a sample-score distribution for expected
/// scores `s0` against `s1` (see the module docs). 0 without samples.
pub fn llr(dist: &[(f64, f64)], s0: f64, s1: f64) -> f64 {
    let n: f64 = dist.iter().map(|&(_, c)| c).sum();
    if n <= 0.0 {
        return 0.0;
    }
    let r = |s: f64| {
        dist.iter()
            .map(|&(x, c)| c / n * (x - s).powi(2))
            .sum::<f64>()
    };
    // Every sample equal to s0 or s1 would make a ratio of zero; a tiny floor keeps it finite.
    let (r0, r1) = (r(s0).max(1e-12), r(s1).max(1e-12));
    n / 2.0 * (r0 / r1).ln()
}

impl FromStr for SprtConfig {
    type Err = String;

    /// `elo0,elo1,alpha,beta`, or `elo0,elo1` with alpha = beta = 0.05.
    fn from_str(s: &str) -> Result<SprtConfig, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let num = |t: &str| {
            t.parse::<f64>()
                .map_err(|_| format!("SPRT `{s}`: `{t}` is not a number"))
        };
        let cfg = match parts.as_slice() {
            [e0, e1] => SprtConfig {
                elo0: num(e0)?,
                elo1: num(e1)?,
                alpha: 0.05,
                beta: 0.05,
            },
            [e0, e1, a, b] => SprtConfig {
                elo0: num(e0)?,
                elo1: num(e1)?,
                alpha: num(a)?,
                beta: num(b)?,
            },
            _ => {
                return Err(format!(
                    "SPRT `{s}` must be elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05) or elo0,elo1"
                ));
            }
        };
        cfg.validate().map_err(|e| format!("SPRT `{s}`: {e}"))?;
        Ok(cfg)
    }
}
