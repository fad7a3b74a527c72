//! The options of a `solver` spec as a typed value ([`SolverSpec`]): its time and table, and the
//! player it falls back on as a spec of its own, so that code builds `solver:...,else=SPEC` as a
//! value and the registry builds both players from it.

use super::spec::PlayerSpec;
use std::fmt;
use std::time::Duration;

/// The default table size of the solver player, in MiB.
pub const DEFAULT_MEMORY_MB: usize = 256;

/// Options of a `solver` spec: `solver:time=10s,memory=256,else=SPEC` (any of them, or none).
#[derive(Clone, Debug, PartialEq)]
pub struct SolverSpec {
    /// Time per move (the caller's tighter limit wins).
    pub time: Option<Duration>,
    /// Table size in MiB.
    pub memory_mb: usize,
    /// The player that moves where the solver proves nothing (`else=`, always the last option,
    /// since a spec may hold commas); `None`: alpha-beta at depth 4.
    pub fallback: Option<Box<PlayerSpec>>,
}

impl Default for SolverSpec {
    fn default() -> SolverSpec {
        SolverSpec {
            time: None,
            memory_mb: DEFAULT_MEMORY_MB,
            fallback: None,
        }
    }
}

impl SolverSpec {
    /// The solver with `time` a move, falling back on `fallback`.
    pub fn with_fallback(time: Duration, fallback: PlayerSpec) -> SolverSpec {
        SolverSpec {
            time: Some(time),
            fallback: Some(Box::new(fallback)),
            ..SolverSpec::default()
        }
    }

    /// Reads `time=10s,memory=256,else=SPEC` (the text after `solver:`), or says what is wrong
    /// in one line.
    pub fn parse(options: &str) -> Result<SolverSpec, String> {
        let (own, fallback) = match options.trim_start().strip_prefix("else=") {
            Some(rest) => ("", Some(rest)),
            None => match options.split_once(",else=") {
                Some((own, rest)) => (own, Some(rest)),
                None => (options, None),
            },
        };
        let fallback = match fallback.map(str::trim) {
            Some("") => {
                return Err("solver option `else=` needs a player spec (else=ab:depth=4)".into());
            }
            Some(text) => Some(Box::new(
                text.parse::<PlayerSpec>()
                    .map_err(|e| format!("else=: {}", e.why))?,
            )),
            None => None,
        };
        let mut spec = SolverSpec {
            fallback,
            ..SolverSpec::default()
        };
        for item in own.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(format!(
                    "solver option `{item}` must be key=value (time=10s, memory=256, else=SPEC)"
                ));
            };
            match key.trim() {
                "time" => {
                    spec.time =
                        Some(super::spec::parse_duration(value.trim()).ok_or_else(|| {
                            format!("solver time `{value}` must be a duration such as 10s")
                        })?)
                }
                "memory" => {
                    spec.memory_mb = value
                        .trim()
                        .parse()
                        .ok()
                        .filter(|m| (1..=65_536).contains(m))
                        .ok_or_else(|| format!("solver memory `{value}` must be 1..=65536 (MiB)"))?
                }
                other => {
                    return Err(format!(
                        "unknown solver option `{other}` (known: time, memory, else)"
                    ));
                }
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for SolverSpec {
    /// The options as [`SolverSpec::parse`] reads them (empty when all are the defaults).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(t) = self.time {
            parts.push(format!("time={}", super::spec::format_duration(t)));
        }
        if self.memory_mb != DEFAULT_MEMORY_MB {
            parts.push(format!("memory={}", self.memory_mb));
        }
        if let Some(fallback) = &self.fallback {
            parts.push(format!("else={fallback}"));
        }
        f.write_str(&parts.join(","))
    }
}
