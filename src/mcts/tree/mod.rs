//! The search tree: nodes in one vector, and the operations on them by concern: PUCT selection
//! with first-play urgency, root noise and forced playouts (`select`), backup with implicit
//! minimax (`backup`), batches under virtual loss (`batch`), the root's answers (`root`),
//! re-rooting into kept storage (`reroot`) and the MCTS-solver's proofs (`proof`). The solver and
//! implicit minimax are options the core reaches through one hook each: a proven child in
//! selection (`Node::proof_for`) and a child's value (`Tree::child_value`).

mod backup;
mod batch;
mod proof;
mod reroot;
mod root;
mod select;

use super::{OpponentModel, PlaySettings};
use crate::rules::{Dir, Move, MoveList, Pit, Position, Rules, Side};
use std::sync::Arc;

const UNEXPANDED: u8 = 0;
const EXPANDED: u8 = 1;
const TERMINAL: u8 = 2;
/// Gathered for a batched evaluation: children exist, priors and value are on their way.
const PENDING: u8 = 3;

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
    /// The inference's value (or the exact one at a terminal) for this node's mover.
    value: f32,
    first_child: u32,
    num_children: u8,
    state: u8,
    /// With the solver ([`PlaySettings::solver`]): 1 when this node's mover is proven to win, -1
    /// to lose, 0 when not proven (always 0 without the solver).
    proof: i8,
    /// The implicit minimax value ([`PlaySettings::minimax_weight`]) for the player who chose
    /// this node: its own evaluation at a leaf, else the best of its evaluated children for
    /// its mover. Kept only while the weight is above 0.
    minimax: f32,
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
    /// The storage a re-rooting copies into, kept empty between re-rootings: reusing it spares a
    /// fresh allocation (and its page faults) and the regrowth of `nodes` at every move.
    spare: Vec<Node>,
    path: Vec<u32>,
    list: Box<MoveList>,
    gathered: batch::Gathered,
    /// The weight of the implicit minimax values in selection (from the last descent's
    /// config); 0 leaves them unkept.
    minimax_weight: f32,
    /// Forced playouts' `k` at a root with noise ([`super::SelfPlaySearch::forced_playouts`]); 0 when
    /// the root has no noise or the option is off. Cleared whenever the root changes.
    forced_k: f32,
    /// The opponent the search assumes, and the side it plays: where that side is to move, a
    /// new node gets only the model's move as its child.
    model: Option<(Arc<OpponentModel>, Side)>,
}

impl Tree {
    /// A tree holding only `pos`.
    pub fn new(pos: Position) -> Tree {
        let mut t = Tree {
            nodes: Vec::with_capacity(1024),
            spare: Vec::new(),
            path: Vec::new(),
            list: Box::default(),
            gathered: batch::Gathered::default(),
            minimax_weight: 0.0,
            forced_k: 0.0,
            model: None,
        };
        t.reset(pos);
        t
    }

    /// Drops everything and starts again from `pos`.
    pub fn reset(&mut self, pos: Position) {
        self.forced_k = 0.0;
        self.nodes.clear();
        self.nodes
            .push(Node::new(pos, Move::sow(Pit::HOUSE, Dir::Left), 1.0));
    }

    /// Searches on assuming that `side` plays as `model` does (see [`OpponentModel`]), or, with
    /// `None`, every reply. Nodes already expanded keep their children.
    pub fn set_model(&mut self, model: Option<(Arc<OpponentModel>, Side)>) {
        self.model = model;
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
    pub(crate) fn root_is_terminal(&self) -> bool {
        self.nodes[0].state == TERMINAL
    }

    /// Whether the root's result is known: a finished game, or proven by the solver. Searching
    /// on cannot change the move then.
    pub fn root_is_decided(&self) -> bool {
        self.root_is_terminal() || self.nodes[0].proof != 0
    }

    /// Number of nodes (for memory accounting).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The position of node `id`.
    pub fn position(&self, id: u32) -> &Position {
        &self.nodes[id as usize].pos
    }

    /// Appends the moves of node `id`'s children, in child order, to `out`.
    pub(crate) fn extend_child_moves(&self, id: u32, out: &mut Vec<Move>) {
        out.extend(self.children(id as usize).iter().map(|c| c.mv));
    }

    /// The children of node `id`, in child order.
    fn children(&self, id: usize) -> &[Node] {
        let n = &self.nodes[id];
        let first = n.first_child as usize;
        &self.nodes[first..first + n.num_children as usize]
    }

    /// Descends from the root by PUCT to a node not yet evaluated, creating its children; or to
    /// a terminal node, whose exact value is backed up at once.
    pub fn select(&mut self, rules: &Rules, cfg: &PlaySettings) -> Leaf {
        let id = self.descend(cfg);
        let node = self.nodes[id as usize];
        debug_assert_ne!(node.state, PENDING, "select() while a batch is gathered");
        if let Some(value) = node.exact_value() {
            self.backup(value, node.pos.side_to_move());
            return Leaf::Done;
        }
        self.open(id, rules, cfg.solver)
    }

    /// Follows PUCT from the root down to the first node that is not expanded, or (below the
    /// root) proven; `self.path` holds the way there.
    fn descend(&mut self, cfg: &PlaySettings) -> u32 {
        self.minimax_weight = cfg.minimax_weight;
        self.path.clear();
        let mut id = 0u32;
        loop {
            self.path.push(id);
            let node = &self.nodes[id as usize];
            if node.state != EXPANDED || (id != 0 && node.proof != 0) {
                return id;
            }
            id = self.best_child(id, cfg);
        }
    }

    /// Generates the children of a new node, or marks it terminal and backs up its value (and,
    /// with the `solver`, proves what its result proves up the path).
    fn open(&mut self, id: u32, rules: &Rules, solver: bool) -> Leaf {
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
            if self.minimax_weight > 0.0 {
                let path = std::mem::take(&mut self.path);
                self.minimax_up(&path, value);
                self.path = path;
            }
            if solver && value != 0.0 {
                self.nodes[id as usize].proof = value as i8;
                self.prove_up();
            }
            return Leaf::Done;
        }
        let first = self.nodes.len() as u32;
        let modelled = self
            .model
            .as_ref()
            .filter(|(_, side)| *side == pos.side_to_move())
            .and_then(|(model, _)| model.reply(&pos, &self.list));
        let children = self.list.iter().enumerate();
        for (_, (mv, child)) in children.filter(|(i, _)| modelled.is_none_or(|m| m == *i)) {
            self.nodes.push(Node::new(*child, mv, 0.0));
        }
        let count = (self.nodes.len() as u32 - first) as u8;
        let node = &mut self.nodes[id as usize];
        node.first_child = first;
        node.num_children = count;
        Leaf::Eval(id)
    }

    /// Stores an evaluation in node `id` and marks it expanded.
    fn set_priors(&mut self, id: u32, priors: &[f32], value: f32) {
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
    }

    /// Gives node `id` (returned by `select` as `Leaf::Eval`) its priors and value, and backs up.
    pub fn expand(&mut self, id: u32, priors: &[f32], value: f32) {
        self.set_priors(id, priors, value);
        let side = self.nodes[id as usize].pos.side_to_move();
        self.backup(value, side);
        if self.minimax_weight > 0.0 {
            let path = std::mem::take(&mut self.path);
            self.minimax_up(&path, value);
            self.path = path;
        }
    }
}

#[cfg(test)]
impl Tree {
    /// Each expanded node's position and its children's moves, in tree order.
    pub(crate) fn expanded_nodes(&self) -> Vec<(Position, Vec<Move>)> {
        let expanded = self
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.state == EXPANDED);
        expanded
            .map(|(i, n)| (n.pos, self.children(i).iter().map(|c| c.mv).collect()))
            .collect()
    }

    /// Checks the bookkeeping: every expanded node has one visit for its own evaluation plus
    /// one per visit of a child, nothing is left pending, and (with an inference that values
    /// every position 0) no value is left over from a virtual loss.
    pub(crate) fn assert_consistent(&self, zero_values: bool) {
        // Terminal values are real wins and losses: the zero check needs a tree without them.
        let zero_values = zero_values && self.nodes.iter().all(|n| n.state != TERMINAL);
        for (i, n) in self.nodes.iter().enumerate() {
            assert!(n.value_sum.abs() <= n.visits as f32 + 1e-3, "node {i}");
            assert_ne!(n.state, PENDING, "node {i} still pending");
            if n.state == EXPANDED {
                let first = n.first_child as usize;
                let kids: u32 = self.nodes[first..first + n.num_children as usize]
                    .iter()
                    .map(|c| c.visits)
                    .sum();
                assert_eq!(n.visits, kids + 1, "node {i}");
            }
            if zero_values && n.state != TERMINAL {
                assert_eq!(n.value_sum, 0.0, "node {i}");
            }
        }
    }
}

impl Node {
    /// Whether the node has its value: evaluated by the network, or a finished game.
    fn is_evaluated(&self) -> bool {
        self.state == EXPANDED || self.state == TERMINAL
    }

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
            proof: 0,
            minimax: 0.0,
        }
    }
}
