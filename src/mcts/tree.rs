//! The search tree: nodes in one vector, PUCT selection, expansion, backup, re-rooting.

use super::MctsConfig;
use crate::rules::{Dir, Move, MoveList, Pit, Position, Rules, Side};
use rand::RngExt;

const UNEXPANDED: u8 = 0;
const EXPANDED: u8 = 1;
const TERMINAL: u8 = 2;

/// A node: a position and the statistics of the move that led to it.
#[derive(Clone, Copy, Debug)]
struct Node {
    pos: Position,
    mv: Move,
    prior: f32,
    visits: u32,
    /// Sum of backed-up values from the point of view of the player who chose this node (the
    /// mover at the parent).
    value_sum: f32,
    /// The evaluator's value (or the exact one at a terminal) for this node's mover.
    value: f32,
    first_child: u32,
    num_children: u8,
    state: u8,
}

/// What a selection reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// A terminal node: its exact value was backed up; the simulation is complete.
    Done,
    /// A new node whose children exist but need priors and a value: call [`Tree::expand`].
    Eval(u32),
}

/// A search tree rooted at one position.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    path: Vec<u32>,
    moves: Vec<Move>,
    list: Box<MoveList>,
}

impl Tree {
    /// A tree holding only `pos`.
    pub fn new(pos: Position) -> Tree {
        let mut t = Tree {
            nodes: Vec::with_capacity(1024),
            path: Vec::new(),
            moves: Vec::new(),
            list: Box::default(),
        };
        t.reset(pos);
        t
    }

    /// Drops everything and starts again from `pos`.
    pub fn reset(&mut self, pos: Position) {
        self.nodes.clear();
        self.nodes
            .push(Node::new(pos, Move::sow(Pit::HOUSE, Dir::Left), 1.0));
    }

    /// The root position.
    pub fn root(&self) -> &Position {
        &self.nodes[0].pos
    }

    /// Simulations through the root so far.
    pub fn root_visits(&self) -> u32 {
        self.nodes[0].visits
    }

    /// Whether the root has children with priors.
    pub fn root_expanded(&self) -> bool {
        self.nodes[0].state == EXPANDED
    }

    /// Whether the root is a finished game.
    pub fn root_is_terminal(&self) -> bool {
        self.nodes[0].state == TERMINAL
    }

    /// Number of nodes (for memory accounting).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The position of node `id`.
    pub fn position(&self, id: u32) -> &Position {
        &self.nodes[id as usize].pos
    }

    /// The moves of node `id`'s children, in child order (valid until the next mutation).
    pub fn child_moves(&mut self, id: u32) -> &[Move] {
        let n = self.nodes[id as usize];
        self.moves.clear();
        let first = n.first_child as usize;
        self.moves.extend(
            self.nodes[first..first + n.num_children as usize]
                .iter()
                .map(|c| c.mv),
        );
        &self.moves
    }

    /// Descends from the root by PUCT to a node not yet evaluated, creating its children; or to
    /// a terminal node, whose exact value is backed up at once.
    pub fn select(&mut self, rules: &Rules, cfg: &MctsConfig) -> Leaf {
        self.path.clear();
        let mut id = 0u32;
        loop {
            self.path.push(id);
            let node = self.nodes[id as usize];
            match node.state {
                TERMINAL => {
                    self.backup(node.value, node.pos.side_to_move());
                    return Leaf::Done;
                }
                UNEXPANDED => return self.open(id, rules),
                _ => id = self.best_child(id, cfg.c_puct, cfg.fpu_reduction),
            }
        }
    }

    /// Generates the children of a new node, or marks it terminal and backs up its value.
    fn open(&mut self, id: u32, rules: &Rules) -> Leaf {
        let pos = self.nodes[id as usize].pos;
        pos.legal_moves(rules, &mut self.list);
        if let Some(outcome) = pos.outcome_given(&self.list) {
            let mover = pos.side_to_move();
            let value = match outcome.winner {
                None => 0.0,
                Some(w) if w == mover => 1.0,
                Some(_) => -1.0,
            };
            let node = &mut self.nodes[id as usize];
            node.state = TERMINAL;
            node.value = value;
            self.backup(value, mover);
            return Leaf::Done;
        }
        let first = self.nodes.len() as u32;
        for (mv, child) in self.list.iter() {
            self.nodes.push(Node::new(*child, mv, 0.0));
        }
        let node = &mut self.nodes[id as usize];
        node.first_child = first;
        node.num_children = self.list.len() as u8;
        Leaf::Eval(id)
    }

    /// Gives node `id` (returned by `select` as `Leaf::Eval`) its priors and value, and backs up.
    pub fn expand(&mut self, id: u32, priors: &[f32], value: f32) {
        let node = self.nodes[id as usize];
        let first = node.first_child as usize;
        for (child, &p) in self.nodes[first..first + node.num_children as usize]
            .iter_mut()
            .zip(priors)
        {
            child.prior = p;
        }
        let n = &mut self.nodes[id as usize];
        n.state = EXPANDED;
        n.value = value;
        self.backup(value, node.pos.side_to_move());
    }

    /// Adds `value` (for `side`) along the current path.
    fn backup(&mut self, value: f32, side: Side) {
        let root_mover = self.nodes[0].pos.side_to_move();
        for i in 0..self.path.len() {
            let chooser = if i == 0 {
                root_mover
            } else {
                self.nodes[self.path[i - 1] as usize].pos.side_to_move()
            };
            let node = &mut self.nodes[self.path[i] as usize];
            node.visits += 1;
            node.value_sum += if chooser == side { value } else { -value };
        }
    }

    fn best_child(&self, id: u32, c_puct: f32, fpu_reduction: f32) -> u32 {
        let node = &self.nodes[id as usize];
        let sqrt_n = (node.visits.max(1) as f32).sqrt();
        let fpu = node.value - fpu_reduction;
        let first = node.first_child as usize;
        let mut best = first;
        let mut best_score = f32::NEG_INFINITY;
        for (i, c) in self.nodes[first..first + node.num_children as usize]
            .iter()
            .enumerate()
        {
            let q = if c.visits > 0 {
                c.value_sum / c.visits as f32
            } else {
                fpu
            };
            let score = q + c_puct * c.prior * sqrt_n / (1.0 + c.visits as f32);
            if score > best_score {
                best_score = score;
                best = first + i;
            }
        }
        best as u32
    }

    /// Mixes Dirichlet noise into the root's priors.
    pub fn add_root_noise(&mut self, cfg: &MctsConfig, rng: &mut impl rand::Rng) {
        let root = self.nodes[0];
        if root.state != EXPANDED || cfg.dirichlet_alpha <= 0.0 || cfg.dirichlet_epsilon <= 0.0 {
            return;
        }
        let first = root.first_child as usize;
        let children = &mut self.nodes[first..first + root.num_children as usize];
        let noise: Vec<f32> = children
            .iter()
            .map(|_| gamma(cfg.dirichlet_alpha as f64, rng) as f32)
            .collect();
        let total: f32 = noise.iter().sum();
        if total > 0.0 {
            for (c, n) in children.iter_mut().zip(noise) {
                c.prior =
                    (1.0 - cfg.dirichlet_epsilon) * c.prior + cfg.dirichlet_epsilon * n / total;
            }
        }
    }

    /// The root's moves with their visit counts.
    pub fn root_visits_by_move(&self) -> Vec<(Move, u32)> {
        let root = &self.nodes[0];
        let first = root.first_child as usize;
        self.nodes[first..first + root.num_children as usize]
            .iter()
            .map(|c| (c.mv, c.visits))
            .collect()
    }

    /// The root's value for its mover: the mean of the backed-up values of its children, weighted
    /// by visits (the network value if nothing was searched).
    pub fn root_value(&self) -> f32 {
        let root = &self.nodes[0];
        let first = root.first_child as usize;
        let kids = &self.nodes[first..first + root.num_children as usize];
        let n: u32 = kids.iter().map(|c| c.visits).sum();
        if n == 0 {
            root.value
        } else {
            kids.iter().map(|c| c.value_sum).sum::<f32>() / n as f32
        }
    }

    /// The most visited move (ties: the higher prior), or `None` at a terminal root.
    pub fn best_move(&self) -> Option<Move> {
        self.most_visited_child(0).map(|id| self.nodes[id].mv)
    }

    /// The id of node `id`'s most visited child (ties: the higher prior).
    fn most_visited_child(&self, id: usize) -> Option<usize> {
        let n = &self.nodes[id];
        let first = n.first_child as usize;
        (first..first + n.num_children as usize).max_by(|&a, &b| {
            let (a, b) = (&self.nodes[a], &self.nodes[b]);
            a.visits.cmp(&b.visits).then(a.prior.total_cmp(&b.prior))
        })
    }

    /// The principal variation: most visited moves from the root down.
    pub fn pv(&self, max_len: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut id = 0usize;
        while pv.len() < max_len {
            let n = &self.nodes[id];
            if n.state != EXPANDED {
                break;
            }
            let Some(best) = self.most_visited_child(id) else {
                break;
            };
            if self.nodes[best].visits == 0 {
                break;
            }
            pv.push(self.nodes[best].mv);
            id = best;
        }
        pv
    }

    /// A move sampled in proportion to visits^(1/temperature) (the best move at temperature 0).
    pub fn sample_move(&self, temperature: f32, rng: &mut impl rand::Rng) -> Option<Move> {
        if temperature <= 0.0 {
            return self.best_move();
        }
        let visits = self.root_visits_by_move();
        let weights: Vec<f64> = visits
            .iter()
            .map(|&(_, n)| (n as f64).powf(1.0 / temperature as f64))
            .collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return self.best_move();
        }
        let mut x = rng.random::<f64>() * total;
        for ((mv, _), w) in visits.iter().zip(&weights) {
            if x < *w {
                return Some(*mv);
            }
            x -= w;
        }
        visits.last().map(|v| v.0)
    }

    /// Re-roots the tree at the child reached by `mv` (keeping its subtree), or starts afresh
    /// from `next` if that child is not in the tree.
    pub fn advance(&mut self, mv: Move, next: &Position) {
        let root = self.nodes[0];
        let first = root.first_child as usize;
        let found = (root.state == EXPANDED)
            .then(|| {
                (first..first + root.num_children as usize)
                    .find(|&i| self.nodes[i].mv == mv && self.nodes[i].pos == *next)
            })
            .flatten();
        let Some(child) = found else {
            self.reset(*next);
            return;
        };
        // Copy the subtree breadth first into a fresh vector; children stay contiguous.
        let mut fresh = Vec::with_capacity(self.nodes.len() / 4 + 16);
        let mut top = self.nodes[child];
        top.prior = 1.0;
        fresh.push(top);
        let mut i = 0;
        while i < fresh.len() {
            let n = fresh[i];
            if n.num_children > 0 {
                let start = fresh.len() as u32;
                let old = n.first_child as usize;
                fresh.extend_from_slice(&self.nodes[old..old + n.num_children as usize]);
                fresh[i].first_child = start;
            }
            i += 1;
        }
        self.nodes = fresh;
    }
}

impl Node {
    fn new(pos: Position, mv: Move, prior: f32) -> Node {
        Node {
            pos,
            mv,
            prior,
            visits: 0,
            value_sum: 0.0,
            value: 0.0,
            first_child: 0,
            num_children: 0,
            state: UNEXPANDED,
        }
    }
}

/// A Gamma(alpha, 1) sample (Marsaglia and Tsang; alpha < 1 boosted), for Dirichlet noise.
fn gamma(alpha: f64, rng: &mut impl rand::Rng) -> f64 {
    if alpha < 1.0 {
        let u: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
        return gamma(alpha + 1.0, rng) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        // A standard normal by Box-Muller.
        let (u1, u2): (f64, f64) = (rng.random::<f64>().max(f64::MIN_POSITIVE), rng.random());
        let x = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.random();
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}
