//! The exact best response to a deterministic victim: from a position, can the exploiter force a
//! win (a draw) against the victim's own replies? The proof search of `search.rs` with one
//! change: at the victim's turns only the victim's move is searched ([`Victim`]), so every
//! value is the exploiter's best result against that one player, not against every defence.
//!
//! The machinery is the solver's: iterative deepening over loss/draw/win, its transposition
//! table (keyed by the position and, for a victim whose history matters, that history: a
//! transposition merges only where the victim would play on alike), repeated positions as
//! draws, a time, node and memory bound. The depth is bounded by the plies a match lets the game
//! run (`bao eval`'s ply cap): a line that reaches it is a draw there, so the last iteration's
//! undecided value is that draw.
//!
//! A position the solver's cache proves won by the exploiter whatever its opponent plays
//! ([`ProvenWins`]) is a win against the victim too: where the proof fits within the plies the
//! iteration has left below it, the search takes it without looking further. An iteration then
//! proves what it proves without the cache (a win within `d` plies), only sooner: the value is
//! the same either way, and the line may be another win, led by the proof's move.

use super::proven::ProvenWins;
use super::search::{
    BestChild, Bounds, CLEAN, Res, mobility, remember, searched_entry, settled, terminal_value,
};
use super::table::{EXACT, Entry, Table};
use super::victim::{Memory, Victim, chain};
use super::{SolveLimits, Stop, Value};
use crate::players::random::captured;
use crate::rules::{MAX_MOVES, Move, MoveList, Position, Rules, Side};
use crate::search::zobrist;
use std::sync::Arc;
use std::time::Instant;

/// The stack of the thread a search runs on (lines recurse up to the ply cap).
const STACK_BYTES: usize = 256 << 20;

/// What the search found for one game.
#[derive(Clone, Debug)]
pub struct Response {
    /// The exploiter's result against the victim, or `None` when a bound stopped the search.
    pub value: Option<Value>,
    /// The line played from the start (exploiter's best moves, the victim's replies) to the end,
    /// the ply cap or a repeated position; empty when the value is unknown.
    pub line: Vec<Move>,
    /// The exploiter's move in each of its positions on the line.
    pub book: Vec<(Position, Move)>,
    /// Positions visited.
    pub nodes: u64,
    /// Moves asked of the victim (replays included).
    pub victim_calls: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// Why the search stopped, when it did.
    pub stop: Option<Stop>,
}

/// The best-response solver: a table kept between games (keys of a game carry its salt, so games
/// never read each other's entries unless they share the victim and the exploiter's side).
pub struct BestResponder {
    table: Table,
    limits: SolveLimits,
    proven: Arc<ProvenWins>,
}

impl BestResponder {
    /// A responder whose table is `limits.memory` bytes, each game bound by `limits`' time and
    /// nodes; a one-line error when the memory cannot be had.
    pub fn new(limits: SolveLimits) -> anyhow::Result<BestResponder> {
        Ok(BestResponder {
            table: Table::with_bytes(limits.memory)?,
            limits,
            proven: Arc::default(),
        })
    }

    /// The responder reading `proven`'s wins (see the module docs).
    pub fn reading(self, proven: Arc<ProvenWins>) -> BestResponder {
        BestResponder { proven, ..self }
    }

    /// The exploiter's best result from `start` as `exploiter` against `victim`, within
    /// `max_plies` plies (a draw past them), with the line that reaches it. `salt` tells this
    /// game's victim from others' (its seed); an error when the victim fails or is caught not
    /// deterministic.
    pub fn respond(
        &mut self,
        rules: &Rules,
        start: &Position,
        exploiter: Side,
        victim: &mut Victim,
        max_plies: usize,
        salt: u64,
    ) -> anyhow::Result<Response> {
        let started = Instant::now();
        let limits = self.limits;
        let (table, proven) = (&mut self.table, &*self.proven);
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let salt = crate::util::hash::mix64(salt ^ exploiter.index() as u64);
                    let mut s = Search::new(rules, table, victim, proven, exploiter, salt, &limits);
                    s.run(start, max_plies.max(1), started)
                })
                .expect("spawn the best response's thread")
                .join()
                .expect("the best response's thread ended normally")
        })
    }
}

/// A line and the exploiter's moves on it.
type Line = (Vec<Move>, Vec<(Position, Move)>);

/// One game's search (see the module docs). Values are the exploiter's: 1 a win, -1 a loss.
struct Search<'a> {
    rules: &'a Rules,
    table: &'a mut Table,
    victim: &'a mut Victim,
    proven: &'a ProvenWins,
    me: Side,
    lists: Vec<MoveList>,
    /// Keys of the positions on the line (repetitions are draws).
    path: Vec<u64>,
    /// The victim's positions on the line and the keys of its history after each.
    asked: Vec<Position>,
    asked_keys: Vec<u64>,
    salt: u64,
    nodes: u64,
    bounds: Bounds,
    stopped: Option<Stop>,
    error: Option<anyhow::Error>,
}

impl<'a> Search<'a> {
    fn new(
        rules: &'a Rules,
        table: &'a mut Table,
        victim: &'a mut Victim,
        proven: &'a ProvenWins,
        me: Side,
        salt: u64,
        limits: &SolveLimits,
    ) -> Search<'a> {
        Search {
            rules,
            table,
            victim,
            proven,
            me,
            lists: Vec::new(),
            path: Vec::new(),
            asked: Vec::new(),
            asked_keys: Vec::new(),
            salt,
            nodes: 0,
            bounds: Bounds::new(Instant::now(), limits.time, limits.nodes),
            stopped: None,
            error: None,
        }
    }

    /// The value by iterative deepening up to `cap` plies, then the line that reaches it.
    fn run(&mut self, start: &Position, cap: usize, started: Instant) -> anyhow::Result<Response> {
        let value = self.deepen(start, 0, cap)?;
        let (line, book) = match value {
            Some(v) => self.line(start, cap, v)?,
            None => (Vec::new(), Vec::new()),
        };
        let known = self.stopped.is_none();
        Ok(Response {
            value: value.filter(|_| known).map(Value::from_i8),
            line: if known { line } else { Vec::new() },
            book: if known { book } else { Vec::new() },
            nodes: self.nodes,
            victim_calls: self.victim.calls,
            seconds: started.elapsed().as_secs_f64(),
            stop: self.stopped,
        })
    }

    /// The value of `pos` at `ply` (the line above it in `path`) by iterative deepening, up to
    /// `depth` plies, where an undecided value is a draw; `None` when a bound stopped it.
    fn deepen(&mut self, pos: &Position, ply: usize, depth: usize) -> anyhow::Result<Option<i8>> {
        // At the cap itself (depth 0) only a finished game counts.
        for d in depth.min(1)..=depth {
            self.path.truncate(ply);
            let r = self.search(pos, ply, d, -1, 1);
            if let Some(e) = self.error.take() {
                return Err(e);
            }
            if self.stopped.is_some() {
                return Ok(None);
            }
            if r.value != 0 || !r.horizon || d >= depth {
                return Ok(Some(r.value));
            }
        }
        Ok(None)
    }

    /// The line from `start` that keeps the value `v`: at the exploiter's turns a move whose
    /// value is `v` (the table's best first), at the victim's its move; with the exploiter's
    /// moves as a book.
    fn line(&mut self, start: &Position, cap: usize, v: i8) -> anyhow::Result<Line> {
        let (mut line, mut book) = (Vec::new(), Vec::new());
        let (mut pos, mut seen) = (*start, Vec::new());
        self.asked.clear();
        self.asked_keys.clear();
        let mut list = MoveList::new();
        while line.len() < cap && pos.result().is_none() && self.stopped.is_none() {
            let key = self.key(&pos);
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            pos.legal_moves(self.rules, &mut list);
            if list.is_empty() {
                break;
            }
            let mv = if pos.side_to_move() == self.me {
                let mv = self.keeping_move(&list, &seen, cap, v)?;
                book.push((pos, mv));
                mv
            } else {
                let key = chain(self.history_key(), &pos);
                let mv = self
                    .victim
                    .reply(&pos, &self.asked, &self.asked_keys, key)?;
                self.asked.push(pos);
                self.asked_keys.push(key);
                mv
            };
            line.push(mv);
            pos = *list.find(mv).expect("a legal move");
        }
        Ok((line, book))
    }

    /// A move of the exploiter's among `list` (the line to its position `seen`) whose value is at least `v`,
    /// else the best one.
    fn keeping_move(
        &mut self,
        list: &MoveList,
        seen: &[u64],
        cap: usize,
        v: i8,
    ) -> anyhow::Result<Move> {
        let ply = seen.len() - 1;
        let tt_best = self.table.probe(seen[ply]).and_then(|e| e.best);
        let first = tt_best.map(usize::from).filter(|&i| i < list.len());
        let order = first
            .into_iter()
            .chain((0..list.len()).filter(|&i| Some(i) != first));
        let mut best = (i8::MIN, list.moves()[0]);
        for i in order {
            self.path.clear();
            self.path.extend_from_slice(seen);
            let Some(value) = self.deepen(&list.children()[i], ply + 1, cap - ply - 1)? else {
                break;
            };
            if value > best.0 {
                best = (value, list.moves()[i]);
            }
            if value >= v {
                break;
            }
        }
        Ok(best.1)
    }

    /// The key of the victim's history so far (the game's salt before its first move).
    fn history_key(&self) -> u64 {
        self.asked_keys.last().copied().unwrap_or(self.salt)
    }

    /// The key of `pos` in this game: its hash, with the victim's history where that matters.
    fn key(&self, pos: &Position) -> u64 {
        let history = match self.victim.memory() {
            Memory::Position => self.salt,
            Memory::History => self.history_key(),
        };
        zobrist::hash(pos) ^ history
    }

    fn check_limits(&mut self) {
        if let Some(passed) = self.bounds.passed(self.nodes) {
            self.stopped = Some(passed);
        }
    }

    /// The exploiter's value of `pos` within `depth` plies and the window (`alpha`, `beta`).
    fn search(&mut self, pos: &Position, ply: usize, depth: usize, alpha: i8, beta: i8) -> Res {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped.is_some() {
            return Res::ABORTED;
        }
        if let Some(o) = pos.result() {
            return Res::proven(terminal_value(o, self.me), 0);
        }
        let key = self.key(pos);
        if let Some(at) = self.path.iter().rposition(|&k| k == key) {
            return Res {
                rep: at,
                ..Res::proven(0, 0)
            };
        }
        let known = self.table.probe(key);
        if let Some(r) = self.proven_win(pos, depth, key, known) {
            return r;
        }
        // A proof longer than the plies left (found where more were left) would end past the
        // ply cap: within `depth` it proves nothing.
        let fits = |e: &&Entry| !(e.lower == 1 || e.upper == -1) || e.len as usize <= depth;
        if let Some(r) = known
            .as_ref()
            .filter(fits)
            .and_then(|e| settled(e, depth, alpha, beta))
        {
            return r;
        }
        while self.lists.len() <= ply {
            self.lists.push(MoveList::new());
        }
        pos.legal_moves(self.rules, &mut self.lists[ply]);
        if self.lists[ply].is_empty() {
            let v = if pos.side_to_move() == self.me { -1 } else { 1 };
            remember(self.table, key, known, Entry::new(v, v, 0, None, EXACT), 0);
            return Res::proven(v, 0);
        }
        if depth == 0 {
            return Res {
                horizon: true,
                ..Res::proven(0, 0)
            };
        }
        let nodes_before = self.nodes;
        self.path.push(key);
        let (res, best) = if pos.side_to_move() == self.me {
            self.exploiter_turn(pos, ply, depth, (alpha, beta), known.and_then(|e| e.best))
        } else {
            self.victim_turn(pos, ply, depth, (alpha, beta))
        };
        self.path.pop();
        if self.stopped.is_some() {
            return Res::ABORTED;
        }
        if res.rep < ply {
            return res;
        }
        let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
        let entry = searched_entry(&res, best, (alpha, beta), depth);
        remember(self.table, key, known, entry, work);
        Res { rep: CLEAN, ..res }
    }

    /// The cache's proven win of `pos` for the exploiter, where its proof fits within `depth`
    /// plies; remembered in the table with the proof's move, which the line then takes.
    fn proven_win(
        &mut self,
        pos: &Position,
        depth: usize,
        key: u64,
        known: Option<Entry>,
    ) -> Option<Res> {
        let win = self.proven.win_of(pos, self.me)?;
        let plies = u16::try_from(win.plies)
            .ok()
            .filter(|&p| p as usize <= depth)?;
        let index = win.mv.and_then(|mv| {
            let mut list = MoveList::new();
            pos.legal_moves(self.rules, &mut list);
            list.moves().iter().position(|&m| m == mv)
        });
        let entry = Entry::new(1, 1, plies, index.map(|i| i as u8), EXACT);
        remember(self.table, key, known, entry, 0);
        Some(Res::proven(1, plies))
    }

    /// Every exploiter move, best first; the result and the best move's index.
    fn exploiter_turn(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: usize,
        (mut alpha, beta): (i8, i8),
        tt_best: Option<u8>,
    ) -> (Res, u8) {
        let order = self.order(pos, ply, tt_best);
        let mut best = BestChild::new(order[0]);
        for &i in &order {
            let child = self.lists[ply].children()[i as usize];
            let r = self.search(&child, ply + 1, depth - 1, alpha, beta);
            if self.stopped.is_some() {
                return (Res::ABORTED, 0);
            }
            if best.take(i, r, beta) {
                return best.refuting();
            }
            alpha = alpha.max(r.value);
        }
        best.result()
    }

    /// The victim's one move, searched; the result and the move's index.
    fn victim_turn(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: usize,
        (alpha, beta): (i8, i8),
    ) -> (Res, u8) {
        // A victim's move may take long (a solver): the bounds are checked before each.
        self.check_limits();
        if self.stopped.is_some() {
            return (Res::ABORTED, 0);
        }
        let key = chain(self.history_key(), pos);
        let reply = self
            .victim
            .reply(pos, &self.asked, &self.asked_keys, key)
            .and_then(|mv| {
                let i = self.lists[ply].moves().iter().position(|&m| m == mv);
                i.ok_or_else(|| anyhow::anyhow!("the victim chose an illegal move in {pos}"))
            });
        let i = match reply {
            Ok(i) => i,
            Err(e) => {
                self.error = Some(e);
                self.stopped = Some(Stop::Stopped);
                return (Res::ABORTED, 0);
            }
        };
        let child = self.lists[ply].children()[i];
        self.asked.push(*pos);
        self.asked_keys.push(key);
        let r = self.search(&child, ply + 1, depth - 1, alpha, beta);
        self.asked.pop();
        self.asked_keys.pop();
        let len = r.len.saturating_add(1);
        (Res { len, ..r }, i as u8)
    }

    /// The order of the exploiter's moves at `ply`: the table's best, a win on the spot, then the
    /// most seeds captured and the fewest pits left to the victim.
    fn order(&self, pos: &Position, ply: usize, tt_best: Option<u8>) -> Vec<u8> {
        let list = &self.lists[ply];
        let keys: Vec<i64> = (0..list.len())
            .map(|i| {
                let child = &list.children()[i];
                if tt_best == Some(i as u8) {
                    return i64::MAX;
                }
                if let Some(o) = child.result() {
                    return terminal_value(o, self.me) as i64 * (1 << 40);
                }
                captured(pos, child) as i64 * 4 - mobility(child, self.rules) as i64
            })
            .collect();
        let mut order: Vec<u8> = (0..list.len() as u8).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(keys[i as usize]));
        debug_assert!(order.len() <= MAX_MOVES);
        order
    }
}
