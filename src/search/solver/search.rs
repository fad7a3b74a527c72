//! The proof search: iterative deepening of a negamax alpha-beta over the values loss (-1),
//! undecided-or-draw (0) and win (1), with the transposition table of `table.rs`, enhanced
//! transposition cutoffs (a child whose stored value already refutes the window ends the node
//! before any child is searched) and move ordering (the table's best move, then moves whose child
//! is known to be good for the mover, then the most seeds captured and the fewest pits left to
//! the opponent to move from).
//!
//! Depth: the games' lines can wander for thousands of plies without ending or repeating, so a
//! plain depth-first proof never comes back. Iteration `d` asks which side can force a win within
//! `d` plies; a line that reaches the horizon is undecided (0). A win or loss proven within the
//! horizon is the position's true value, and the first iteration that proves one finds the
//! shortest forced result. An iteration in which no line reached the horizon proves a draw.
//!
//! Repeated positions: the rules have no repetition rule and no move limit, so a game can in
//! principle go on for ever; neither player has then won, and the solver counts it as a draw.
//! In the search, a line that returns to a position already on it is scored a draw. That gives
//! every position its true value (a forced win never needs to repeat a position: it can always
//! make progress towards the end), but a result that leaned on a repetition of a position above
//! its node depends on the path that reached it. Each result therefore carries the lowest ply of
//! a repeated position it depends on, and only results that depend on nothing above their own
//! node go into the table (Graph History Interaction, handled by not storing tainted results).

use super::table::{EXACT, Entry, Table};
use crate::env::agents::captured;
use crate::rules::{MAX_MOVES, MoveList, Outcome, Position, Rules, Side};
use crate::search::zobrist;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The deepest iteration (plies): a bound on the stack, far beyond any game solved here.
pub const MAX_PLY: usize = 4000;
/// No repetition: the result depends on nothing above its node.
pub(super) const CLEAN: usize = usize::MAX;

/// Why a search stopped before it proved the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The time limit.
    Time(Duration),
    /// The node limit.
    Nodes(u64),
    /// Asked to stop from outside.
    Stopped,
    /// Iterations up to [`MAX_PLY`] plies proved nothing.
    Depth,
}

/// A search's time and node bounds (the solver's, the best response's).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Bounds {
    deadline: Option<(Instant, Duration)>,
    nodes: Option<u64>,
}

impl Bounds {
    /// `time` from `started` and `nodes` in all (either may be unbounded).
    pub fn new(started: Instant, time: Option<Duration>, nodes: Option<u64>) -> Bounds {
        Bounds {
            deadline: time.map(|t| (started + t, t)),
            nodes,
        }
    }

    /// The bound a search that visited `nodes` has passed, if any (the node bound first).
    pub fn passed(&self, nodes: u64) -> Option<Stop> {
        match (self.nodes, self.deadline) {
            (Some(n), _) if nodes >= n => Some(Stop::Nodes(n)),
            (_, Some((at, limit))) if Instant::now() >= at => Some(Stop::Time(limit)),
            _ => None,
        }
    }
}

/// One node's result: its value for the mover (0: a draw, or undecided when `horizon`), the plies
/// to the end along the line that proved a win or a loss, the lowest ply of a repeated position
/// it depends on ([`CLEAN`]: none), and whether a line it depends on reached the horizon.
#[derive(Clone, Copy, Debug)]
pub(super) struct Res {
    pub value: i8,
    pub len: u16,
    pub rep: usize,
    pub horizon: bool,
}

impl Res {
    pub(super) const ABORTED: Res = Res {
        value: 0,
        len: 0,
        rep: 0,
        horizon: true,
    };

    pub(super) fn proven(value: i8, len: u16) -> Res {
        Res {
            value,
            len,
            rep: CLEAN,
            horizon: false,
        }
    }

    fn bound(value: i8, len: u16, exact: bool) -> Res {
        Res {
            horizon: !exact && value == 0,
            ..Res::proven(value, len)
        }
    }
}

/// The value of a finished game for `me`.
pub(super) fn terminal_value(o: Outcome, me: Side) -> i8 {
    match o.winner {
        Some(w) if w == me => 1,
        Some(_) => -1,
        None => 0,
    }
}

/// What a table entry says for a search of `depth` plies with the window (`alpha`, `beta`):
/// the result, if it settles the node.
pub(super) fn settled(e: &Entry, depth: usize, alpha: i8, beta: i8) -> Option<Res> {
    if e.lower == 1 {
        return Some(Res::proven(1, e.len));
    }
    if e.upper == -1 {
        return Some(Res::proven(-1, e.len));
    }
    let exact = e.depth == EXACT;
    if !exact && (e.depth as usize) < depth {
        return None;
    }
    if e.lower >= beta || e.lower == e.upper {
        Some(Res::bound(e.lower, e.len, exact))
    } else if e.upper <= alpha {
        Some(Res::bound(e.upper, e.len, exact))
    } else {
        None
    }
}

/// The state of one proof search (one call of the solver).
pub(super) struct Search<'a> {
    pub rules: &'a Rules,
    pub table: &'a mut Table,
    lists: Vec<MoveList>,
    path: Vec<u64>,
    pub nodes: u64,
    /// The last iteration completed without a proof.
    pub depth_done: usize,
    bounds: Bounds,
    stop: Option<Arc<AtomicBool>>,
    pub stopped: Option<Stop>,
    progress: Option<&'a indicatif::ProgressBar>,
    started: Instant,
}

impl<'a> Search<'a> {
    pub fn new(
        rules: &'a Rules,
        table: &'a mut Table,
        bounds: Bounds,
        stop: Option<Arc<AtomicBool>>,
        progress: Option<&'a indicatif::ProgressBar>,
    ) -> Search<'a> {
        Search {
            rules,
            table,
            lists: Vec::new(),
            path: Vec::new(),
            nodes: 0,
            depth_done: 0,
            bounds,
            stop,
            stopped: None,
            progress,
            started: Instant::now(),
        }
    }

    /// The value of `pos` by iterative deepening, or `None` when a limit stopped it.
    pub fn root(&mut self, pos: &Position) -> Option<Res> {
        for depth in 1..=MAX_PLY {
            self.path.clear();
            let r = self.search(pos, 0, depth, -1, 1);
            if self.stopped.is_some() {
                return None;
            }
            if r.value != 0 || !r.horizon {
                return Some(r);
            }
            self.depth_done = self.depth_done.max(depth);
        }
        self.stopped = Some(Stop::Depth);
        None
    }

    /// Checks the limits (every 1024 nodes) and draws the progress line (every 2^16).
    fn check_limits(&mut self) {
        if let Some(passed) = self.bounds.passed(self.nodes) {
            self.stopped = Some(passed);
        }
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.stopped = Some(Stop::Stopped);
        }
        if let Some(bar) = self.progress.filter(|_| self.nodes & 0xffff == 0) {
            let secs = self.started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{:.1} M nodes, {:.0} k nodes/s, table {:.0}% full, no result within {} plies",
                self.nodes as f64 / 1e6,
                self.nodes as f64 / secs / 1e3,
                self.table.fill() * 100.0,
                self.depth_done
            ));
        }
    }

    /// The value of `pos` for its mover, searching `depth` plies, within the window (`alpha`,
    /// `beta`) of {-1, 0, 1}: exact inside it, a bound outside.
    pub(super) fn search(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: usize,
        alpha: i8,
        beta: i8,
    ) -> Res {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped.is_some() {
            return Res::ABORTED;
        }
        let me = pos.side_to_move();
        if let Some(o) = pos.result() {
            return Res::proven(terminal_value(o, me), 0);
        }
        let key = zobrist::hash(pos);
        if let Some(at) = self.path.iter().rposition(|&k| k == key) {
            return Res {
                rep: at,
                ..Res::proven(0, 0)
            };
        }
        let known = self.table.probe(key);
        if let Some(r) = known.as_ref().and_then(|e| settled(e, depth, alpha, beta)) {
            return r;
        }
        if self.lists.len() <= ply {
            self.lists.push(MoveList::new());
        }
        pos.legal_moves(self.rules, &mut self.lists[ply]);
        let n = self.lists[ply].len();
        if n == 0 {
            self.remember(key, known, Entry::new(-1, -1, 0, None, EXACT), 0);
            return Res::proven(-1, 0);
        }
        let mut order = [0u8; MAX_MOVES];
        let best = known.and_then(|e| e.best);
        let window = (alpha, beta);
        if let Some((i, r)) = self.order_moves(pos, ply, depth, best, window, &mut order) {
            let stamp = if r.horizon { depth as u16 } else { EXACT };
            let e = Entry::new(r.value, 1, r.len, Some(i as u8), stamp);
            self.remember(key, known, e, 0);
            return r;
        }
        if depth == 0 {
            return Res {
                horizon: true,
                ..Res::proven(0, 0)
            };
        }
        let nodes_before = self.nodes;
        self.path.push(key);
        let (res, best) = self.expand(pos, ply, depth, alpha, beta, &order[..n]);
        self.path.pop();
        if self.stopped.is_some() {
            return Res::ABORTED;
        }
        if res.rep < ply {
            return res;
        }
        let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
        self.remember(key, known, searched_entry(&res, best, window, depth), work);
        Res { rep: CLEAN, ..res }
    }

    /// Searches the moves of the node at `ply` in `order`; the result and the best move's index.
    fn expand(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: usize,
        mut alpha: i8,
        beta: i8,
        order: &[u8],
    ) -> (Res, u8) {
        let me = pos.side_to_move();
        let mut best = BestChild::new(order[0]);
        for &i in order {
            let child = self.lists[ply].children()[i as usize];
            let r = if child.side_to_move() == me {
                self.search(&child, ply + 1, depth - 1, alpha, beta)
            } else {
                let r = self.search(&child, ply + 1, depth - 1, -beta, -alpha);
                Res {
                    value: -r.value,
                    ..r
                }
            };
            if self.stopped.is_some() {
                return (Res::ABORTED, 0);
            }
            if best.take(i, r, beta) {
                // Only the move that refutes the window matters for this result.
                return best.refuting();
            }
            alpha = alpha.max(r.value);
        }
        best.result()
    }

    /// Stores `entry`, merged with what the table already knew ([`remember`]).
    fn remember(&mut self, key: u64, known: Option<Entry>, entry: Entry, work: u8) {
        remember(self.table, key, known, entry, work);
    }

    /// Orders the moves at `ply` into `order`, or ends the node at once (returning the move's
    /// index and the result): a move that wins on the spot, or a child whose stored value gives
    /// the mover at least `beta` (an enhanced transposition cutoff).
    fn order_moves(
        &self,
        pos: &Position,
        ply: usize,
        depth: usize,
        tt_best: Option<u8>,
        (alpha, beta): (i8, i8),
        order: &mut [u8; MAX_MOVES],
    ) -> Option<(usize, Res)> {
        let me = pos.side_to_move();
        let list = &self.lists[ply];
        let mut keys = [0i64; MAX_MOVES];
        for (i, child) in list.children().iter().enumerate() {
            order[i] = i as u8;
            if let Some(o) = child.result() {
                let v = terminal_value(o, me);
                if v >= beta {
                    return Some((i, Res::proven(v, 1)));
                }
                keys[i] = v as i64 * (1 << 40);
                continue;
            }
            if depth == 0 {
                // A horizon node looks only for a win on the spot.
                continue;
            }
            let mut key = captured(pos, child) as i64 * 4 - mobility(child, self.rules) as i64;
            if let Some(e) = self.table.probe(zobrist::hash(child)) {
                let same = child.side_to_move() == me;
                let flip = |v: i8| if same { v } else { -v };
                let (lo, hi) = if same {
                    (e.lower, e.upper)
                } else {
                    (-e.upper, -e.lower)
                };
                let (a, b) = if same { (alpha, beta) } else { (-beta, -alpha) };
                if let Some(r) = settled(&e, depth.saturating_sub(1), a, b)
                    && flip(r.value) >= beta
                {
                    let r = Res {
                        value: flip(r.value),
                        len: r.len.saturating_add(1),
                        ..r
                    };
                    return Some((i, r));
                }
                key += (lo as i64 + hi as i64) * (1 << 36);
            }
            if tt_best == Some(i as u8) {
                key = i64::MAX;
            }
            keys[i] = key;
        }
        if depth > 0 {
            let n = list.len();
            order[..n].sort_by_key(|&i| std::cmp::Reverse(keys[i as usize]));
        }
        None
    }
}

/// The opponent's pits that could start a move (a cheap stand-in for its number of replies:
/// fewer replies first makes proofs smaller).
pub(super) fn mobility(child: &Position, rules: &Rules) -> u32 {
    let min = rules.min_lift;
    let pits = child.pits(child.side_to_move());
    pits.iter().filter(|&&n| n >= min).count() as u32
}

impl Entry {
    pub(super) fn new(lower: i8, upper: i8, len: u16, best: Option<u8>, depth: u16) -> Entry {
        Entry {
            lower,
            upper,
            len,
            best,
            depth,
        }
    }
}

/// The table entry of a node searched within `window` to `depth`: the value as a bound where it
/// fell outside the window, exact inside it; `best` the index of its best move.
pub(super) fn searched_entry(res: &Res, best: u8, (alpha, beta): (i8, i8), depth: usize) -> Entry {
    let (lower, upper) = if res.value >= beta {
        (res.value, 1)
    } else if res.value <= alpha {
        (-1, res.value)
    } else {
        (res.value, res.value)
    };
    let stamp = if res.horizon { depth as u16 } else { EXACT };
    Entry::new(lower, upper, res.len, Some(best), stamp)
}

/// Stores `entry`, merged with what the table already knew: bounds of the same depth are
/// intersected, and bounds of a deeper search are kept over shallower new ones.
pub(super) fn remember(
    table: &mut Table,
    key: u64,
    known: Option<Entry>,
    mut entry: Entry,
    work: u8,
) {
    let proven = entry.lower == 1 || entry.upper == -1;
    if let Some(k) = known {
        if k.depth > entry.depth && !proven {
            // Deeper knowledge (or a proof) stays.
            return;
        }
        if k.depth == entry.depth {
            if k.lower > entry.lower {
                (entry.lower, entry.len) = (k.lower, k.len);
            }
            if k.upper < entry.upper {
                (entry.upper, entry.len) = (k.upper, k.len);
            }
        }
        entry.best = entry.best.or(k.best);
    }
    if proven {
        entry.depth = EXACT;
    }
    table.store(key, entry, work);
}

/// The best of a node's children so far, as both proof searches keep it (values from the mover's
/// side): a loss lasts as long as its longest line, a win is the first one found, and the node
/// depends on the earliest repetition and on any horizon of the children it searched.
pub(super) struct BestChild {
    best: Res,
    index: u8,
    rep: usize,
    horizon: bool,
}

impl BestChild {
    /// No child searched yet; `first` is the index given when none improves on a proven loss.
    pub(super) fn new(first: u8) -> BestChild {
        BestChild {
            best: Res::proven(-2, 0),
            index: first,
            rep: CLEAN,
            horizon: false,
        }
    }

    /// Takes child `i`'s result `r`; true when it refutes the window (`r.value >= beta`).
    pub(super) fn take(&mut self, i: u8, r: Res, beta: i8) -> bool {
        let len = r.len.saturating_add(1);
        let best = &self.best;
        if r.value > best.value || (r.value == -1 && best.value == -1 && len > best.len) {
            self.best = Res { len, ..r };
            self.index = i;
        }
        if r.value >= beta {
            return true;
        }
        self.rep = self.rep.min(r.rep);
        self.horizon |= r.horizon;
        false
    }

    /// The result when a child refuted the window: that child's alone.
    pub(super) fn refuting(&self) -> (Res, u8) {
        (self.best, self.index)
    }

    /// The node's result and its best child's index, every child searched.
    pub(super) fn result(mut self) -> (Res, u8) {
        if self.best.value == 0 {
            self.best.len = 0;
        }
        let res = Res {
            rep: self.rep,
            horizon: self.horizon,
            ..self.best
        };
        (res, self.index)
    }
}
