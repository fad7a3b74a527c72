//! The baseline search: negamax with alpha-beta pruning, principal-variation (null-window)
//! search, iterative deepening, a fixed-size transposition table keyed by Zobrist hashes, and
//! move ordering by the table's move, then captures (most opponent seeds taken first), then the
//! history heuristic.
//!
//! The move generator hands over each move's child position, so the search never re-applies a
//! move. All buffers (a move list per ply, the principal-variation table, the transposition
//! table) are allocated once per player; the search loop itself does not touch the heap.
//!
//! Scores are integers from the mover's point of view: a win `ply` plies from the root scores
//! `WIN - ply` (so faster wins score higher and slower losses less badly), a void game 0, and
//! everything else the static evaluation of [`HeuristicWeights`], bounded by
//! [`EVAL_LIMIT`](super::heuristic::EVAL_LIMIT). In the Malawi advanced opening one player may make
//! several plies in a row; the search then does not negate.

mod negamax;

use super::heuristic::HeuristicWeights;
use super::tt::{Tt, kind_index};
use crate::env::agents::captured;
use crate::players::options::MAX_DEPTH;
use crate::players::{Choice, Limits, Player};
use crate::rules::{Dir, Game, Move, MoveList, Outcome, Pit, Position};
use anyhow::bail;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The depth used when neither the player nor the caller gives any limit.
pub const DEFAULT_DEPTH: u32 = 4;
pub use super::heuristic::{WIN, WIN_BOUND};
const INF: i32 = 32_000;
const MAX_PLY: usize = MAX_DEPTH as usize + 2;
/// Slots in the history table: 3 kinds x 16 pits x 2 directions x 2 house choices.
const HISTORY_SLOTS: usize = 192;

/// Settings of the alpha-beta player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AlphaBetaConfig {
    /// The player's own limits per move (combined with the caller's: the tighter wins).
    pub limits: Limits,
    /// The transposition table holds `2^tt_bits` entries of 16 bytes (20: 16 MiB).
    pub tt_bits: u32,
    /// Evaluation weights.
    pub weights: HeuristicWeights,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            limits: Limits::NONE,
            tt_bits: 20,
            weights: HeuristicWeights::default(),
        }
    }
}

/// One completed iteration of iterative deepening.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Iteration {
    /// The iteration's depth.
    pub depth: u32,
    /// Its score for the mover (see the module docs).
    pub score: i32,
    /// Its best move.
    pub best: Move,
    /// Nodes visited so far in this search.
    pub nodes: u64,
}

/// The full result of a search: the choice and how it was reached.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The move chosen, with its expected score, principal variation, nodes and depth.
    pub choice: Choice,
    /// The raw score of the chosen move (see the module docs).
    pub score: i32,
    /// Every completed iteration, shallowest first.
    pub iterations: Vec<Iteration>,
    /// Whether a limit cut the last iteration short.
    pub aborted: bool,
}

/// Plies to a proven result, if `score` is one (positive: the mover wins).
pub fn mate_distance(score: i32) -> Option<i32> {
    if score >= WIN_BOUND {
        Some(WIN - score)
    } else if score <= -WIN_BOUND {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// The score of a finished game for `mover`, `ply` plies from the root.
#[inline]
fn terminal_score(o: Outcome, mover: crate::rules::Side, ply: usize) -> i32 {
    match o.winner {
        Some(w) if w == mover => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
        None => 0,
    }
}

#[inline]
fn history_index(mv: Move) -> usize {
    (kind_index(mv.kind) as usize) * 64
        + mv.pit.index() * 4
        + usize::from(mv.dir == Dir::Right) * 2
        + usize::from(mv.house)
}

/// The alpha-beta player. Deterministic under depth and node limits: the same position and the
/// same earlier searches in the game give the same move.
pub struct AlphaBeta {
    game: Game,
    cfg: AlphaBetaConfig,
    name: String,
    tt: Option<Tt>,
    history: Box<[[u32; HISTORY_SLOTS]; 2]>,
    lists: Vec<MoveList>,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Set from outside to end the search now (`stop` in `bao engine`).
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Limits are only enforced from depth 2 on, so there is always a move.
    armed: bool,
    aborted: bool,
    leaf_moves: bool,
}

impl AlphaBeta {
    /// A player of `game` with these settings.
    pub fn new(game: &Game, cfg: AlphaBetaConfig) -> AlphaBeta {
        let leaf_moves = cfg.weights.needs_moves();
        AlphaBeta {
            game: game.clone(),
            cfg,
            name: "ab".to_string(),
            tt: None,
            history: Box::new([[0; HISTORY_SLOTS]; 2]),
            lists: (0..MAX_PLY).map(|_| MoveList::new()).collect(),
            pv: vec![[Move::sow(Pit::HOUSE, Dir::Left); MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop: None,
            armed: false,
            aborted: false,
            leaf_moves,
        }
    }

    /// A player of `game` searching to a fixed depth with the default settings.
    pub fn with_depth(game: &Game, depth: u32) -> AlphaBeta {
        AlphaBeta::new(
            game,
            AlphaBetaConfig {
                limits: Limits::depth(depth),
                ..AlphaBetaConfig::default()
            },
        )
    }

    /// Sets the name shown in tables and records.
    pub fn named(mut self, name: impl Into<String>) -> AlphaBeta {
        self.name = name.into();
        self
    }

    /// The settings.
    pub fn config(&self) -> &AlphaBetaConfig {
        &self.cfg
    }

    /// Searches `pos` within the tighter of `limits` and the player's own limits.
    pub fn analyse(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Analysis> {
        let start = Instant::now();
        // A copy (a few dozen bytes, no allocation), so that the search may borrow itself mutably.
        let rules = &self.game.clone();
        let limits = self.begin_search(limits, start);
        if let Some(o) = pos.result() {
            bail!("the game is over ({o}) in {pos}");
        }
        pos.legal_moves(rules, &mut self.lists[0]);
        let n = self.lists[0].len();
        if n == 0 {
            bail!("no legal move: the game is over in {pos}");
        }
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if n == 1 {
            max_depth = 1;
        }
        let mut order = self.root_order(pos);
        let mut iterations: Vec<Iteration> = Vec::new();
        let mut best: Option<(usize, i32, Vec<Move>)> = None;
        for depth in 1..=max_depth {
            self.armed = depth > 1;
            let (score, idx, completed) = self.search_root(rules, pos, depth as i32, &order);
            if let Some(i) = idx {
                // An aborted iteration counts too once its first move (the previous best) is
                // searched: any move that beat it did so at the greater depth.
                let pv = self.pv[0][..self.pv_len[0]].to_vec();
                best = Some((i, score, pv));
                let pos_in_order = order.iter().position(|&j| j == i).expect("root index");
                order[..=pos_in_order].rotate_right(1);
            }
            if !completed {
                break;
            }
            let (i, score, _) = best
                .as_ref()
                .expect("a completed iteration has a best move");
            iterations.push(Iteration {
                depth,
                score: *score,
                best: self.lists[0].moves()[*i],
                nodes: self.nodes,
            });
            if mate_distance(*score).is_some() {
                break; // proven: deeper iterations give the same result
            }
            if limits.time.is_some_and(|t| start.elapsed() * 2 > t) {
                break; // the next iteration would most likely not finish
            }
        }
        let best = best.expect("depth 1 always completes");
        Ok(self.analysis(best, iterations))
    }

    /// Sets up a search that starts at `start` under the tighter of `limits` and the player's
    /// own (a depth of [`DEFAULT_DEPTH`] where neither gives any), and returns those limits.
    fn begin_search(&mut self, limits: &Limits, start: Instant) -> Limits {
        let mut limits = self.cfg.limits.min(limits);
        if limits.is_none() {
            limits.depth = Some(DEFAULT_DEPTH);
        }
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| start + t);
        self.nodes = 0;
        self.aborted = false;
        self.armed = false;
        let tt_bits = self.cfg.tt_bits;
        let tt = self.tt.get_or_insert_with(|| Tt::new(tt_bits));
        tt.age = tt.age.wrapping_add(1);
        for h in self.history.iter_mut().flatten() {
            *h /= 2;
        }
        limits
    }

    /// The root moves (indices into the root's move list) in search order: captures first, by
    /// seeds taken, then by history.
    fn root_order(&self, pos: &Position) -> Vec<usize> {
        let me = pos.side_to_move();
        let keys: Vec<i64> = self.lists[0]
            .children()
            .iter()
            .zip(self.lists[0].moves())
            .map(|(c, &m)| {
                captured(pos, c) as i64 * 1_000_000
                    + self.history[me.index()][history_index(m)] as i64
            })
            .collect();
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(keys[i]));
        order
    }

    /// The search's answer from its best root move (index, score, principal variation).
    fn analysis(
        &self,
        (i, score, mut pv): (usize, i32, Vec<Move>),
        iterations: Vec<Iteration>,
    ) -> Analysis {
        let mv = self.lists[0].moves()[i];
        if pv.first() != Some(&mv) {
            pv = vec![mv];
        }
        let eval = if score >= WIN_BOUND {
            1.0
        } else if score <= -WIN_BOUND {
            -1.0
        } else {
            self.cfg.weights.to_expected(score)
        };
        Analysis {
            choice: Choice {
                mv,
                eval: Some(eval),
                pv,
                nodes: self.nodes,
                depth: iterations.last().map_or(0, |it| it.depth),
            },
            score,
            iterations,
            aborted: self.aborted,
        }
    }
}

impl Player for AlphaBeta {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn game(&self) -> &Game {
        &self.game
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        Ok(self.analyse(pos, limits)?.choice)
    }

    /// The spec's own limits, else a depth of [`DEFAULT_DEPTH`] (as `begin_search` reads them).
    fn default_budget(&self) -> String {
        if self.cfg.limits.is_none() {
            Limits::depth(DEFAULT_DEPTH).text()
        } else {
            self.cfg.limits.text()
        }
    }

    fn set_stop(&mut self, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> bool {
        self.stop = Some(stop);
        true
    }

    fn new_game(&mut self, _seed: u64) {
        if let Some(tt) = self.tt.as_mut() {
            tt.clear();
        }
        for h in self.history.iter_mut().flatten() {
            *h = 0;
        }
    }
}
