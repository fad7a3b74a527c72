//! The options of an `mcts:` spec as a typed value ([`MctsSpec`]): read from the text after
//! `mcts:` and written back in one order, so that code builds the value and the registry builds
//! the player from it; text only at the edges. The bounds that belong to the search (simulations,
//! exploration constant, batch) are checked where the player is built (`trained`).
//!
//! | option | meaning |
//! | --- | --- |
//! | `checkpoint=PATH` (`player=PATH`) | a player file, or a training run (its last iteration) |
//! | `iteration=N` | the run's iteration N (needs a run as `checkpoint`) |
//! | `sims=200` | simulations per move (default: the file's, or 200) |
//! | `cpuct=1.0` | exploration constant (default: the file's) |
//! | `batch=8` | leaves per batched evaluation, 1 to 256 (default: chosen from the budget) |
//! | `solver=1` | MCTS-solver: proven wins and losses |
//! | `minimax=0.3` | weight of implicit minimax values in selection, 0 to 1 |
//! | `fpu=0.2` | first-play urgency reduction, 0 to 2 |

use std::fmt;
use std::path::PathBuf;

/// An MCTS player's options: a network (a player file or a run) or none (uniform priors), and
/// the search settings it overrides. `None`: the file's setting, or the default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MctsSpec {
    /// A player file, or a training run directory (`checkpoint=`).
    pub checkpoint: Option<PathBuf>,
    /// The run's iteration to play (`iteration=`; its last if `None`).
    pub iteration: Option<u32>,
    /// Simulations per move (`sims=`).
    pub sims: Option<u32>,
    /// Exploration constant (`cpuct=`).
    pub c_puct: Option<f32>,
    /// Leaves per batched evaluation (`batch=`; 0 or `None`: chosen from the budget).
    pub batch: Option<usize>,
    /// The MCTS-solver (`solver=1|0`).
    pub solver: Option<bool>,
    /// Weight of implicit minimax values (`minimax=`).
    pub minimax_weight: Option<f32>,
    /// First-play urgency reduction (`fpu=`).
    pub fpu_reduction: Option<f32>,
}

impl MctsSpec {
    /// The spec of a training run's network (its last iteration) at `sims` simulations a move.
    pub fn of_run(dir: impl Into<PathBuf>, sims: u32) -> MctsSpec {
        MctsSpec {
            checkpoint: Some(dir.into()),
            sims: Some(sims),
            ..MctsSpec::default()
        }
    }

    /// Reads the options `checkpoint=PATH,sims=200,...` (the text after `mcts:`), or says what is
    /// wrong with them in one line.
    pub fn parse(options: &str) -> Result<MctsSpec, String> {
        let mut spec = MctsSpec::default();
        for item in options.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| format!("option `{item}` must be key=value"))?;
            spec.set(key, value)?;
        }
        if spec.iteration.is_some() && spec.checkpoint.is_none() {
            return Err("iteration= needs checkpoint=RUN_DIR".into());
        }
        Ok(spec)
    }

    /// Sets one option `key=value`, or says why it is wrong.
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "checkpoint" | "player" if value.is_empty() => {
                return Err(format!(
                    "{key}= needs a path (a player file or a run directory)"
                ));
            }
            "checkpoint" | "player" => self.checkpoint = Some(PathBuf::from(value)),
            "iteration" => {
                self.iteration = Some(number(key, value, |&i: &u32| i > 0, "a positive number")?)
            }
            "sims" => self.sims = Some(number(key, value, |_| true, "a whole number")?),
            "cpuct" | "c_puct" => {
                self.c_puct = Some(number(key, value, |c: &f32| c.is_finite(), "a number")?)
            }
            "batch" => self.batch = Some(number(key, value, |_| true, "a whole number")?),
            "guard" => return Err("the option `guard` no longer exists".into()),
            "minimax" => {
                let weight = |w: &f32| (0.0..=1.0).contains(w);
                self.minimax_weight = Some(number(key, value, weight, "from 0 to 1")?)
            }
            "fpu" => {
                // Values lie in [-1, 1], so a reduction above 2 only repeats 2.
                let reduction = |r: &f32| (0.0..=2.0).contains(r);
                self.fpu_reduction = Some(number(key, value, reduction, "from 0 to 2")?)
            }
            "solver" => {
                self.solver = Some(match value {
                    "1" | "true" | "on" => true,
                    "0" | "false" | "off" => false,
                    _ => return Err(format!("solver must be 1 or 0, not `{value}`")),
                })
            }
            other => {
                return Err(format!(
                    "unknown option `{other}`; mcts takes checkpoint=PATH, iteration=N, sims=N, cpuct=X, batch=N, solver=1|0, minimax=X, fpu=X"
                ));
            }
        }
        Ok(())
    }
}

impl fmt::Display for MctsSpec {
    /// The options as [`MctsSpec::parse`] reads them, in one order (empty when none is set).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(p) = &self.checkpoint {
            parts.push(format!("checkpoint={}", p.display()));
        }
        if let Some(i) = self.iteration {
            parts.push(format!("iteration={i}"));
        }
        if let Some(s) = self.sims {
            parts.push(format!("sims={s}"));
        }
        if let Some(c) = self.c_puct {
            parts.push(format!("cpuct={c}"));
        }
        if let Some(b) = self.batch {
            parts.push(format!("batch={b}"));
        }
        if let Some(s) = self.solver {
            parts.push(format!("solver={}", u8::from(s)));
        }
        if let Some(w) = self.minimax_weight {
            parts.push(format!("minimax={w}"));
        }
        if let Some(r) = self.fpu_reduction {
            parts.push(format!("fpu={r}"));
        }
        f.write_str(&parts.join(","))
    }
}

/// The number an option `key=value` gives, if it parses and passes `ok`; else why not (it
/// must be `must`).
pub(crate) fn number<T: std::str::FromStr>(
    key: &str,
    value: &str,
    ok: impl Fn(&T) -> bool,
    must: &str,
) -> Result<T, String> {
    value
        .parse()
        .ok()
        .filter(|n| ok(n))
        .ok_or_else(|| format!("{key} `{value}` must be {must}"))
}
