//! An exact solver: the game-theoretic value of a position (win, loss, or draw for the side to
//! move), a best move, its principal variation, and the figures of the search (nodes, time,
//! memory). A game that never ends is a draw: the rules have no repetition rule and no move limit,
//! so neither player has then won (see `search.rs` for how repeated positions are searched).
//!
//! - `search.rs` the proof search: alpha-beta over the values loss/draw/win with a transposition
//!   table, enhanced transposition cutoffs and move ordering;
//! - `table.rs` the transposition table (bounded: its size is the memory limit);
//! - `cache.rs` solved positions on disk, so that a second `bao solve` is instant;
//! - `player.rs` the perfect player (`solver` spec);
//! - `best_response.rs` the exact best response to a deterministic victim (`victim.rs`), for
//!   `bao exploit --exact`, reading the wins the cache proves (`proven.rs`).
//!
//! It depends only on the rules crate and the search helpers (Zobrist hashing), so it builds
//! without the `ml` feature.

pub mod best_response;
pub mod cache;
pub mod player;
pub mod proven;
mod search;
mod table;
pub mod victim;

pub use player::SolverPlayer;
pub use search::{MAX_PLY, Stop};

use crate::rules::{Move, MoveList, Position, Rules, Side};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The games whose value the solver proves from their start on a small machine (docs/SOLVER.md).
/// Their default player is the perfect one, wherever it proves the position in time.
pub const SOLVED_GAMES: [crate::rules::Variant; 3] = [
    crate::rules::Variant::Kujifunza,
    crate::rules::Variant::MalawiBasic,
    crate::rules::Variant::Hus,
];

/// The default table size (the memory limit): 1 GiB.
const DEFAULT_MEMORY: usize = 1 << 30;
/// The stack of the thread a solve runs on: lines up to [`MAX_PLY`] plies deep recurse.
const STACK_BYTES: usize = 256 << 20;

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Value {
    /// The side to move wins, whatever the opponent does.
    Win,
    /// Neither side can force a win (the game ends void, or goes on for ever).
    Draw,
    /// The opponent wins, whatever the side to move does.
    Loss,
}

impl Value {
    fn from_i8(v: i8) -> Value {
        match v {
            1 => Value::Win,
            -1 => Value::Loss,
            _ => Value::Draw,
        }
    }

    /// The value for the other side.
    pub fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        }
    }

    /// The side that wins when `mover` is to move, if either does.
    pub fn winner(self, mover: Side) -> Option<Side> {
        match self {
            Value::Win => Some(mover),
            Value::Loss => Some(mover.opponent()),
            Value::Draw => None,
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How long and how large a solve may get. The first limit reached ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveLimits {
    /// Wall-clock time for the whole call.
    pub time: Option<Duration>,
    /// Positions visited.
    pub nodes: Option<u64>,
    /// Bytes of the transposition table (its size is fixed; full buckets replace their cheapest
    /// entry, so memory never grows past this).
    pub memory: usize,
}

impl Default for SolveLimits {
    fn default() -> Self {
        SolveLimits {
            time: None,
            nodes: None,
            memory: DEFAULT_MEMORY,
        }
    }
}

/// A proven result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Solution {
    /// The value for the side to move.
    pub value: Value,
    /// A best move (none in a finished game): a winning move, a drawing move, or in a lost
    /// position the move whose proven loss is the longest.
    pub best: Option<Move>,
    /// The principal variation from the table's best moves (winner's proof move, loser's longest
    /// defence), as far as the table still holds it.
    pub pv: Vec<Move>,
    /// Plies to the end along the line that proved a win or a loss (0 for a draw). An upper
    /// bound on a win's length under the proof's strategy, not the shortest possible win.
    pub length: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// Bytes of the transposition table.
    pub table_bytes: usize,
    /// The share of the table's entries in use at the end.
    pub table_fill: f64,
    /// The last iterative-deepening depth that proved nothing (the result came one or more plies
    /// deeper).
    pub depth: usize,
}

/// The value of one legal move, for the side that plays it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its value for the mover.
    pub value: Value,
    /// Plies to the end along the proof, counting this move (0 for a draw).
    pub length: u32,
}

/// A solve that hit a limit before it proved the value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}", unsolved_text(self))]
pub struct Unsolved {
    /// The limit reached.
    pub stop: Stop,
    /// Positions visited.
    pub nodes: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// The deepest iteration completed without a result: neither side can force a win within
    /// this many plies.
    pub depth: usize,
    /// The share of the table's entries in use.
    pub table_fill: f64,
}

fn unsolved_text(u: &Unsolved) -> String {
    let why = match u.stop {
        Stop::Time(t) => format!("not solved within {}", secs_text(t.as_secs_f64())),
        Stop::Nodes(n) => format!("not solved within {n} nodes"),
        Stop::Stopped => "solve stopped".to_string(),
        Stop::Depth => format!("not solved within {MAX_PLY} plies"),
    };
    format!(
        "{why} after {} nodes in {} (no forced win within {} plies; table {:.0}% full)",
        u.nodes,
        secs_text(u.seconds),
        u.depth,
        u.table_fill * 100.0
    )
}

/// `0.42 s`, `60 s`.
fn secs_text(s: f64) -> String {
    if s >= 10.0 {
        format!("{s:.0} s")
    } else {
        format!("{s:.2} s")
    }
}

/// What a search found: (value, length) pairs, the nodes, the deepest iteration without a result.
type Found = (Vec<(i8, u16)>, u64, usize);

/// The solver: a transposition table kept between calls (so a game's later positions reuse the
/// earlier proofs) and the limits of each call.
pub struct Solver {
    table: table::Table,
    limits: SolveLimits,
    progress: bool,
    stop: Option<Arc<AtomicBool>>,
}

impl Solver {
    /// A solver with these limits (the table is allocated now, its pages as they are used), or a
    /// one-line error when the machine cannot give the table's memory.
    pub fn new(limits: SolveLimits) -> anyhow::Result<Solver> {
        Ok(Solver {
            table: table::Table::with_bytes(limits.memory)?,
            limits,
            progress: false,
            stop: None,
        })
    }

    /// Shows a progress line on stderr while searching (hidden where stderr is no terminal).
    pub fn with_progress(mut self, on: bool) -> Solver {
        self.progress = on;
        self
    }

    /// Sets the limits of later calls (the table keeps its size).
    pub fn set_limits(&mut self, time: Option<Duration>, nodes: Option<u64>) {
        self.limits.time = time;
        self.limits.nodes = nodes;
    }

    /// A flag that, once set, ends the current solve as unsolved.
    pub fn set_stop(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }

    /// The table's size in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Solves `pos`.
    pub fn solve(&mut self, rules: &Rules, pos: &Position) -> Result<Solution, Unsolved> {
        let started = Instant::now();
        let (value, nodes, deepest) = self.run(rules, started, |s| {
            let r = s.root(pos)?;
            Some(vec![(r.value, r.len)])
        })?;
        let (v, len) = value[0];
        let pv = self.pv(rules, pos);
        Ok(Solution {
            value: Value::from_i8(v),
            best: pv.first().copied(),
            pv,
            length: len as u32,
            nodes,
            seconds: started.elapsed().as_secs_f64(),
            table_bytes: self.table.bytes(),
            table_fill: self.table.fill(),
            depth: deepest,
        })
    }

    /// The value of every legal move of `pos` for its mover (each child solved as a position of
    /// its own), in the generator's order, with the figures of the whole call.
    pub fn move_values(
        &mut self,
        rules: &Rules,
        pos: &Position,
    ) -> Result<(Vec<MoveValue>, u64), Unsolved> {
        let started = Instant::now();
        let mut list = MoveList::new();
        pos.legal_moves(rules, &mut list);
        let mover = pos.side_to_move();
        let (values, nodes, _) = self.run(rules, started, |s| {
            let mut out = Vec::new();
            for child in list.children() {
                let r = s.root(child)?;
                let v = if child.side_to_move() == mover {
                    r.value
                } else {
                    -r.value
                };
                out.push((v, r.len.saturating_add(1)));
            }
            Some(out)
        })?;
        let moves = list
            .moves()
            .iter()
            .zip(values)
            .map(|(&mv, (v, len))| MoveValue {
                mv,
                value: Value::from_i8(v),
                length: if v == 0 { 0 } else { len as u32 },
            })
            .collect();
        Ok((moves, nodes))
    }

    /// Runs `body` on a search over this solver's table, on a thread with a stack deep enough for
    /// [`MAX_PLY`] plies; its (value, length) pairs, the nodes and the deepest line, or why it
    /// stopped.
    fn run(
        &mut self,
        rules: &Rules,
        started: Instant,
        body: impl FnOnce(&mut search::Search) -> Option<Vec<(i8, u16)>> + Send,
    ) -> Result<Found, Unsolved> {
        let bounds = search::Bounds::new(started, self.limits.time, self.limits.nodes);
        let bar = self.progress.then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.enable_steady_tick(Duration::from_millis(200));
            bar.set_message("solving");
            bar
        });
        let stop = self.stop.clone();
        let table = &mut self.table;
        let out = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, || {
                    let mut s = search::Search::new(rules, table, bounds, stop, bar.as_ref());
                    let values = body(&mut s);
                    (values, s.nodes, s.depth_done, s.stopped)
                })
                .expect("spawn the solver's thread")
                .join()
                .expect("the solver's thread ended normally")
        });
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        match out {
            (Some(values), nodes, deepest, None) => Ok((values, nodes, deepest)),
            (_, nodes, deepest, stopped) => Err(Unsolved {
                stop: stopped.unwrap_or(Stop::Stopped),
                nodes,
                seconds: started.elapsed().as_secs_f64(),
                depth: deepest,
                table_fill: self.table.fill(),
            }),
        }
    }

    /// The line of the table's best moves from `pos`, until the game ends, the table has no
    /// entry, or a position repeats.
    fn pv(&self, rules: &Rules, pos: &Position) -> Vec<Move> {
        let mut line = Vec::new();
        let mut seen = Vec::new();
        let mut pos = *pos;
        let mut list = MoveList::new();
        while pos.result().is_none() && line.len() < MAX_PLY {
            let key = crate::search::zobrist::hash(&pos);
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            let Some(best) = self.table.probe(key).and_then(|e| e.best) else {
                break;
            };
            pos.legal_moves(rules, &mut list);
            let Some((mv, child)) = list.iter().nth(best as usize) else {
                break;
            };
            line.push(mv);
            pos = *child;
        }
        line
    }
}
