//! The search proper: the root iteration, negamax with principal-variation search, the
//! transposition table's probe and store, and move ordering.

use super::{AlphaBeta, INF, MAX_PLY, WIN, history_index, terminal_score};
use crate::env::agents::captured;
use crate::rules::{MAX_MOVES, Move, Position, Rules, Side};
use crate::search::tt::{Bound, score_from_tt, score_to_tt};
use crate::search::zobrist;

/// A node's place in the search: depth left, distance from the root, and its window.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    alpha: i32,
    beta: i32,
}

/// What the transposition table says at a node: a score that settles it, or the move to try
/// first.
enum Probe {
    Settled(i32),
    Search { key: u64, tt_move: Option<Move> },
}

/// A node's moves in search order, with the seeds each captures.
struct MoveOrder {
    order: [u8; MAX_MOVES],
    caps: [u32; MAX_MOVES],
    len: usize,
}

impl AlphaBeta {
    /// One root iteration over `order`: (best score, its root index, whether it completed).
    pub(super) fn search_root(
        &mut self,
        rules: &Rules,
        root: &Position,
        depth: i32,
        order: &[usize],
    ) -> (i32, Option<usize>, bool) {
        let me = root.side_to_move();
        let mut node = Node {
            depth,
            ply: 0,
            alpha: -INF,
            beta: INF,
        };
        let mut best: Option<usize> = None;
        let mut best_score = -INF;
        self.pv_len[0] = 0;
        self.nodes += 1;
        for (k, &i) in order.iter().enumerate() {
            let (mv, child) = self.lists[0].get(i);
            let child = *child;
            let score = self.pvs(rules, me, &child, node, k == 0);
            if self.aborted {
                return (best_score, best, false);
            }
            if score > best_score {
                best_score = score;
                best = Some(i);
                node.alpha = node.alpha.max(score);
                self.set_pv(0, mv);
            }
        }
        (best_score, best, true)
    }

    /// The value of `child` of `node` for `mover`, who moved into it: the first child with the
    /// full window, the others with a null window first and again with the full one only where
    /// they may beat alpha (principal-variation search).
    #[inline]
    fn pvs(
        &mut self,
        rules: &Rules,
        mover: Side,
        child: &Position,
        node: Node,
        first: bool,
    ) -> i32 {
        let Node {
            depth,
            ply,
            alpha,
            beta,
        } = node;
        if first {
            return self.child_value(rules, mover, child, depth - 1, ply + 1, alpha, beta);
        }
        let s = self.child_value(rules, mover, child, depth - 1, ply + 1, alpha, alpha + 1);
        if s > alpha && s < beta && !self.aborted {
            self.child_value(rules, mover, child, depth - 1, ply + 1, alpha, beta)
        } else {
            s
        }
    }

    /// The value of `child` for the player who moved into it.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_value(
        &mut self,
        rules: &Rules,
        mover: Side,
        child: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if child.side_to_move() == mover {
            self.negamax(rules, child, depth, ply, alpha, beta)
        } else {
            -self.negamax(rules, child, depth, ply, -beta, -alpha)
        }
    }

    /// Makes `mv` followed by the child's principal variation the variation at `ply`.
    #[inline]
    fn set_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1].min(MAX_PLY - 1)
        } else {
            0
        };
        head[ply][0] = mv;
        if child_len > 0 {
            head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// Whether the search must stop. The clock and the stop flag are read every 4 nodes: a node
    /// whose moves run to the bound on seeds sown costs a tenth of a millisecond or more, and a
    /// read costs tens of nanoseconds.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.armed
            && (self.nodes >= self.node_limit
                || (self.nodes & 3 == 0
                    && self
                        .deadline
                        .is_some_and(|d| std::time::Instant::now() >= d))
                || (self.nodes & 3 == 0
                    && (self.stop.as_ref())
                        .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn negamax(
        &mut self,
        rules: &Rules,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let me = pos.side_to_move();
        if let Some(o) = pos.result() {
            return terminal_score(o, me, ply);
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.leaf(rules, pos, ply);
        }
        // Mate-distance pruning: nothing here beats a win already found nearer the root.
        alpha = alpha.max(-(WIN - ply as i32));
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let node = Node {
            depth,
            ply,
            alpha,
            beta,
        };
        let (key, tt_move) = match self.probe(pos, node) {
            Probe::Settled(score) => return score,
            Probe::Search { key, tt_move } => (key, tt_move),
        };
        pos.legal_moves(rules, &mut self.lists[ply]);
        if self.lists[ply].is_empty() {
            return -(WIN - ply as i32);
        }
        let order = self.order_moves(pos, ply, tt_move);
        let Some((best, best_mv)) = self.search_children(rules, me, &order, node) else {
            return 0;
        };
        if depth >= 2 {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            if let Some(tt) = self.tt.as_mut() {
                tt.store(key, depth, bound, score_to_tt(best, ply), best_mv);
            }
        }
        best
    }

    /// The table's word on `node` (consulted from depth 2 on).
    #[inline]
    fn probe(&self, pos: &Position, node: Node) -> Probe {
        if node.depth < 2 {
            return Probe::Search {
                key: 0,
                tt_move: None,
            };
        }
        let key = zobrist::hash(pos);
        let Some(e) = self.tt.as_ref().and_then(|t| t.probe(key)) else {
            return Probe::Search { key, tt_move: None };
        };
        if e.depth >= node.depth {
            let s = score_from_tt(e.score, node.ply);
            match e.bound {
                Bound::Exact => return Probe::Settled(s),
                Bound::Lower if s >= node.beta => return Probe::Settled(s),
                Bound::Upper if s <= node.alpha => return Probe::Settled(s),
                _ => {}
            }
        }
        Probe::Search { key, tt_move: e.mv }
    }

    /// The moves at `ply` in search order: the table's move, then captures by size, then
    /// history; equal keys keep the generator's order.
    #[inline]
    fn order_moves(&self, pos: &Position, ply: usize, tt_move: Option<Move>) -> MoveOrder {
        let list = &self.lists[ply];
        let hist = &self.history[pos.side_to_move().index()];
        let mut m = MoveOrder {
            order: [0; MAX_MOVES],
            caps: [0; MAX_MOVES],
            len: list.len(),
        };
        let mut keys = [0i64; MAX_MOVES];
        for (i, (mv, child)) in list.iter().enumerate() {
            m.caps[i] = captured(pos, child);
            keys[i] = if Some(mv) == tt_move {
                i64::MAX
            } else {
                m.caps[i] as i64 * (1 << 32) + hist[history_index(mv)] as i64
            };
            m.order[i] = i as u8;
        }
        // Insertion sort, stable.
        for i in 1..m.len {
            let o = m.order[i];
            let k = keys[o as usize];
            let mut j = i;
            while j > 0 && keys[m.order[j - 1] as usize] < k {
                m.order[j] = m.order[j - 1];
                j -= 1;
            }
            m.order[j] = o;
        }
        m
    }

    /// Searches the children of `node` in `order`: the best score and move, or `None` where a
    /// limit cut the search. A quiet move that causes a cutoff gains history.
    #[inline]
    fn search_children(
        &mut self,
        rules: &Rules,
        me: Side,
        order: &MoveOrder,
        mut node: Node,
    ) -> Option<(i32, Option<Move>)> {
        let mut best = -INF;
        let mut best_mv = None;
        for (k, &i) in order.order[..order.len].iter().enumerate() {
            let i = i as usize;
            let (mv, child) = self.lists[node.ply].get(i);
            let child = *child;
            let score = self.pvs(rules, me, &child, node, k == 0);
            if self.aborted {
                return None;
            }
            if score > best {
                best = score;
                best_mv = Some(mv);
                if score > node.alpha {
                    node.alpha = score;
                    self.set_pv(node.ply, mv);
                    if node.alpha >= node.beta {
                        if order.caps[i] == 0 {
                            let h = &mut self.history[me.index()][history_index(mv)];
                            *h = h.saturating_add((node.depth * node.depth) as u32);
                        }
                        break;
                    }
                }
            }
        }
        Some((best, best_mv))
    }

    /// A leaf: the static evaluation (with the leaf's moves when the weights need them, which
    /// also finds a mover without moves).
    #[inline]
    fn leaf(&mut self, rules: &Rules, pos: &Position, ply: usize) -> i32 {
        if self.leaf_moves {
            let list = &mut self.lists[ply];
            pos.legal_moves(rules, list);
            if list.is_empty() {
                return -(WIN - ply as i32);
            }
            self.cfg.weights.evaluate(rules, pos, Some(list))
        } else {
            self.cfg.weights.evaluate(rules, pos, None)
        }
    }
}
