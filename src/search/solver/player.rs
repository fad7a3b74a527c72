//! The perfect player (`solver`, `solver:time=10s,memory=256`). It solves the position, then
//! every legal move, and takes a winning move when there is one (the one with the shortest proven
//! line), else a drawing move, else the losing move whose proven loss is the longest (the length
//! of the opponent's proof line, found by iterative deepening: the most plies the solver shows the
//! loss to last). If the moves are not all solved in the time left, it plays the solution's best
//! move, which keeps the value; if the position itself is not solved within the limits, it falls
//! back to alpha-beta at depth 4, so it always answers.

use super::{MoveValue, SolveLimits, Solver, Value};
use crate::rules::{Position, Rules};
use crate::search::alphabeta::AlphaBeta;
use crate::search::player::{Choice, Limits, Player};
use anyhow::bail;
use std::time::Duration;

/// The time a move may take when neither the spec nor the caller says.
pub const DEFAULT_TIME: Duration = Duration::from_secs(10);
/// The default table size of the player, in MiB.
pub const DEFAULT_MEMORY_MB: usize = 256;

/// Options of a `solver` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverSpec {
    /// Time per move (the caller's tighter limit wins).
    pub time: Option<Duration>,
    /// Table size in MiB.
    pub memory_mb: usize,
}

impl SolverSpec {
    /// Reads `time=10s,memory=256` (either or both, or nothing).
    pub fn parse(options: &str) -> anyhow::Result<SolverSpec> {
        let mut spec = SolverSpec {
            time: None,
            memory_mb: DEFAULT_MEMORY_MB,
        };
        for item in options.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                bail!("solver option `{item}` must be key=value (time=10s, memory=256)");
            };
            match key.trim() {
                "time" => {
                    spec.time =
                        Some(crate::util::parse_duration(value.trim()).ok_or_else(|| {
                            anyhow::anyhow!("solver time `{value}` must be a duration such as 10s")
                        })?)
                }
                "memory" => {
                    spec.memory_mb = value
                        .trim()
                        .parse()
                        .ok()
                        .filter(|m| (1..=65_536).contains(m))
                        .ok_or_else(|| {
                            anyhow::anyhow!("solver memory `{value}` must be 1..=65536 (MiB)")
                        })?
                }
                other => bail!("unknown solver option `{other}` (known: time, memory)"),
            }
        }
        Ok(spec)
    }
}

/// The perfect player (see the module docs).
pub struct SolverPlayer {
    name: String,
    spec: SolverSpec,
    solver: Solver,
    fallback: AlphaBeta,
}

impl SolverPlayer {
    /// A player from its options; `name` is its spec as written.
    pub fn new(spec: SolverSpec, name: String) -> SolverPlayer {
        let limits = SolveLimits {
            memory: spec.memory_mb << 20,
            ..SolveLimits::default()
        };
        SolverPlayer {
            name,
            spec,
            solver: Solver::new(limits),
            fallback: AlphaBeta::with_depth(4),
        }
    }
}

/// The move to play among solved moves: the shortest win, else a draw, else the longest loss.
pub fn pick(values: &[MoveValue]) -> Option<&MoveValue> {
    let wins = values.iter().filter(|m| m.value == Value::Win);
    if let Some(m) = wins.min_by_key(|m| m.length) {
        return Some(m);
    }
    if let Some(m) = values.iter().find(|m| m.value == Value::Draw) {
        return Some(m);
    }
    // max_by_key keeps the last of equal lengths; rev() makes it the first in move order.
    values.iter().rev().max_by_key(|m| m.length)
}

impl Player for SolverPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, rules: &Rules, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        if pos.outcome(rules).is_some() {
            bail!("no legal move: the game is over in {pos}");
        }
        let time = match (self.spec.time, limits.time) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b).unwrap_or(DEFAULT_TIME),
        };
        let started = std::time::Instant::now();
        self.solver.set_limits(Some(time), limits.nodes);
        let solution = match self.solver.solve(rules, pos) {
            Ok(s) => s,
            Err(_) => return self.fallback.choose(rules, pos, &Limits::depth(4)),
        };
        // With the value known, the time left goes to valuing every move (the quickest win, the
        // longest loss); if it runs out, the solution's own best move keeps the value.
        let left = time.saturating_sub(started.elapsed());
        self.solver
            .set_limits(Some(left.max(Duration::from_millis(1))), limits.nodes);
        let (mv, value, length, nodes) = match self.solver.move_values(rules, pos) {
            Ok((values, nodes)) => {
                let m = pick(&values).expect("a position that goes on has a move");
                (m.mv, m.value, m.length, solution.nodes + nodes)
            }
            Err(_) => {
                let mv = solution
                    .best
                    .expect("a position that goes on has a best move");
                (mv, solution.value, solution.length, solution.nodes)
            }
        };
        let mut pv = vec![mv];
        if let Ok(child) = pos.play(rules, mv) {
            pv.extend(self.solver.pv(rules, &child));
        }
        Ok(Choice {
            mv,
            eval: Some(match value {
                Value::Win => 1.0,
                Value::Draw => 0.0,
                Value::Loss => -1.0,
            }),
            pv,
            nodes,
            depth: length,
        })
    }

    fn set_stop(&mut self, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> bool {
        self.solver.set_stop(stop.clone());
        self.fallback.set_stop(stop)
    }
}
