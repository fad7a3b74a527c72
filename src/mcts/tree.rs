//! The search tree: nodes in one vector, PUCT selection, expansion, backup, re-rooting.

use super::MctsConfig;
use crate::rules::{Dir, Move, MoveList, Pit, Position, Rules, Side};
use rand::RngExt;

const UNEXPANDED: u8 = 0;
const EXPANDED: u8 = 1;
const TERMINAL: u8 = 2;
/// Gathered for a batched evaluation: children exist, priors and value are on their way.
const PENDING: u8 = 3;

/// Virtual loss: while a leaf waits for its evaluation, every node on its path counts one more
/// visit that lost, so the next descents of the same batch spread to other lines.
const VIRTUAL_LOSS: f32 = 1.0;

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
    /// With the solver ([`MctsConfig::solver`]): 1 when this node's mover is proven to win, -1
    /// to lose, 0 when not proven (always 0 without the solver).
    proof: i8,
    /// The implicit minimax value ([`MctsConfig::minimax_weight`]) for the player who chose
    /// this node: its own evaluation at a leaf, else the best of its evaluated children for
    /// its mover. Kept only while the weight is above 0.
    minimax: f32,
}

/// The visits forced playouts give a root child of prior `prior` out of the root's `visits`.
fn forced_visits(k: f32, prior: f32, visits: u32) -> f32 {
    (k * prior * visits as f32).sqrt()
}

/// What a selection reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// A terminal node: its exact value was backed up; the simulation is complete.
    Done,
    /// A new node whose children exist but need priors and a value: call [`Tree::expand`].
    Eval(u32),
}

/// Leaves gathered for one batched evaluation and the paths that lead to them.
#[derive(Clone, Debug, Default)]
struct Gathered {
    /// The leaves, in the order they were gathered.
    leaves: Vec<u32>,
    /// Every gathered path (leaves' and collisions'), one after the other.
    paths: Vec<u32>,
    /// Each leaf's path: a range of `paths`.
    leaf_paths: Vec<(u32, u32)>,
    /// Each collision's path (a descent that reached a leaf already gathered).
    collisions: Vec<(u32, u32)>,
}

/// A search tree rooted at one position.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    /// The storage a re-rooting copies into, kept empty between re-rootings: reusing it spares a
    /// fresh allocation (and its page faults) and the regrowth of `nodes` at every move.
    spare: Vec<Node>,
    path: Vec<u32>,
    moves: Vec<Move>,
    list: Box<MoveList>,
    gathered: Gathered,
    /// The weight of the implicit minimax values in selection (from the last descent's
    /// config); 0 leaves them unkept.
    minimax_weight: f32,
    /// Forced playouts' `k` at a root with noise ([`MctsConfig::forced_playouts`]); 0 when
    /// the root has no noise or the option is off. Cleared whenever the root changes.
    forced_k: f32,
}

impl Tree {
    /// A tree holding only `pos`.
    pub fn new(pos: Position) -> Tree {
        let mut t = Tree {
            nodes: Vec::with_capacity(1024),
            spare: Vec::new(),
            path: Vec::new(),
            moves: Vec::new(),
            list: Box::default(),
            gathered: Gathered::default(),
            minimax_weight: 0.0,
            forced_k: 0.0,
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
        self.select_through(rules, cfg, None)
    }

    /// [`Tree::select`], but the descent goes through the root's child number `root_child` (in
    /// child order) when one is given and the root is expanded: how a Gumbel root steers.
    pub fn select_through(
        &mut self,
        rules: &Rules,
        cfg: &MctsConfig,
        root_child: Option<usize>,
    ) -> Leaf {
        let id = self.descend(cfg, root_child);
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
    fn descend(&mut self, cfg: &MctsConfig, root_child: Option<usize>) -> u32 {
        self.minimax_weight = cfg.minimax_weight;
        self.path.clear();
        let mut id = 0u32;
        loop {
            self.path.push(id);
            let node = &self.nodes[id as usize];
            if node.state != EXPANDED || (id != 0 && node.proof != 0) {
                return id;
            }
            id = match root_child {
                Some(k) if id == 0 && k < node.num_children as usize => node.first_child + k as u32,
                _ => self.best_child(id, cfg),
            };
        }
    }

    /// Gathers up to `max` leaves for one batched evaluation, under virtual loss, and returns
    /// them. Terminal nodes met on the way are backed up at once (they count as simulations);
    /// descents that reach a leaf already gathered (collisions) stop the gathering after
    /// `max_collisions`. Give each leaf its evaluation with [`Tree::deliver`], then call
    /// [`Tree::end_gather`].
    pub fn gather(
        &mut self,
        rules: &Rules,
        cfg: &MctsConfig,
        max: usize,
        max_collisions: usize,
    ) -> &[u32] {
        let g = &mut self.gathered;
        g.leaves.clear();
        g.paths.clear();
        g.leaf_paths.clear();
        g.collisions.clear();
        // Every attempt either gathers a leaf, collides, or completes a terminal simulation.
        for _ in 0..max + max_collisions {
            if self.gathered.leaves.len() >= max
                || self.gathered.collisions.len() >= max_collisions
                || self.root_is_decided()
            {
                break;
            }
            let id = self.descend(cfg, None);
            let node = self.nodes[id as usize];
            if let Some(value) = node.exact_value() {
                self.backup(value, node.pos.side_to_move());
                continue;
            }
            match node.state {
                PENDING => {
                    let span = self.keep_path_with_virtual_loss();
                    self.gathered.collisions.push(span);
                }
                _ => {
                    if let Leaf::Eval(leaf) = self.open(id, rules, cfg.solver) {
                        self.nodes[leaf as usize].state = PENDING;
                        let span = self.keep_path_with_virtual_loss();
                        self.gathered.leaves.push(leaf);
                        self.gathered.leaf_paths.push(span);
                    }
                }
            }
        }
        &self.gathered.leaves
    }

    /// Counts a lost visit along `self.path` and remembers the path; returns its span.
    fn keep_path_with_virtual_loss(&mut self) -> (u32, u32) {
        let start = self.gathered.paths.len() as u32;
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.value_sum -= VIRTUAL_LOSS;
        }
        self.gathered.paths.extend_from_slice(&self.path);
        (start, self.gathered.paths.len() as u32)
    }

    /// The leaves of the last [`Tree::gather`].
    pub fn gathered(&self) -> &[u32] {
        &self.gathered.leaves
    }

    /// Gives the `k`-th gathered leaf its priors and value: the virtual loss on its path turns
    /// into the real value.
    pub fn deliver(&mut self, k: usize, priors: &[f32], value: f32) {
        let leaf = self.gathered.leaves[k];
        self.set_priors(leaf, priors, value);
        let (a, b) = self.gathered.leaf_paths[k];
        let side = self.nodes[leaf as usize].pos.side_to_move();
        let root_mover = self.nodes[0].pos.side_to_move();
        for i in a as usize..b as usize {
            let chooser = if i == a as usize {
                root_mover
            } else {
                self.nodes[self.gathered.paths[i - 1] as usize]
                    .pos
                    .side_to_move()
            };
            let signed = if chooser == side { value } else { -value };
            self.nodes[self.gathered.paths[i] as usize].value_sum += signed + VIRTUAL_LOSS;
        }
        if self.minimax_weight > 0.0 {
            let path = std::mem::take(&mut self.gathered.paths);
            self.minimax_up(&path[a as usize..b as usize], value);
            self.gathered.paths = path;
        }
    }

    /// Ends a gathering: takes back the virtual visits of the collisions. Every gathered leaf
    /// must have been delivered.
    pub fn end_gather(&mut self) {
        debug_assert!(
            self.gathered
                .leaves
                .iter()
                .all(|&l| self.nodes[l as usize].state != PENDING),
            "a gathered leaf was not delivered"
        );
        for &(a, b) in &self.gathered.collisions {
            for &id in &self.gathered.paths[a as usize..b as usize] {
                let n = &mut self.nodes[id as usize];
                n.visits -= 1;
                n.value_sum += VIRTUAL_LOSS;
            }
        }
        self.gathered.collisions.clear();
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
        self.set_priors(id, priors, value);
        let side = self.nodes[id as usize].pos.side_to_move();
        self.backup(value, side);
        if self.minimax_weight > 0.0 {
            let path = std::mem::take(&mut self.path);
            self.minimax_up(&path, value);
            self.path = path;
        }
    }

    /// Implicit minimax backup (Lanctot et al. 2014): the last node of `path` was just
    /// evaluated at `value` (for its mover); its minimax value and those of its ancestors are
    /// brought up to date, each the best of its evaluated children for its mover. Stops where a
    /// value does not change, since nothing above it can.
    fn minimax_up(&mut self, path: &[u32], value: f32) {
        let root_mover = self.nodes[0].pos.side_to_move();
        let chooser = |nodes: &[Node], i: usize| {
            if i == 0 {
                root_mover
            } else {
                nodes[path[i - 1] as usize].pos.side_to_move()
            }
        };
        let last = path.len() - 1;
        let leaf = path[last] as usize;
        let side = self.nodes[leaf].pos.side_to_move();
        self.nodes[leaf].minimax = if chooser(&self.nodes, last) == side {
            value
        } else {
            -value
        };
        for i in (0..last).rev() {
            let n = self.nodes[path[i] as usize];
            // The path's next node was just evaluated, so some child is.
            let best = self.best_child_minimax(path[i] as usize).unwrap_or(n.value);
            let mm = if chooser(&self.nodes, i) == n.pos.side_to_move() {
                best
            } else {
                -best
            };
            if mm == n.minimax {
                return;
            }
            self.nodes[path[i] as usize].minimax = mm;
        }
    }

    /// The best implicit minimax value among node `id`'s evaluated children, for its mover
    /// (`None` when no child is evaluated yet).
    fn best_child_minimax(&self, id: usize) -> Option<f32> {
        let n = &self.nodes[id];
        let first = n.first_child as usize;
        self.nodes[first..first + n.num_children as usize]
            .iter()
            .filter(|c| c.is_evaluated())
            .map(|c| c.minimax)
            .reduce(f32::max)
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

    /// MCTS-solver (Winands et al.): after a terminal node is proven, walks the current path up
    /// while proofs follow. A node is won for its mover when one child is won for that side,
    /// lost when every child is lost for it.
    fn prove_up(&mut self) {
        for i in (1..self.path.len()).rev() {
            let (child, parent) = (self.path[i] as usize, self.path[i - 1] as usize);
            if self.nodes[child].proof == 0 || self.nodes[parent].proof != 0 {
                return;
            }
            let p = self.nodes[parent];
            let mover = p.pos.side_to_move();
            let first = p.first_child as usize;
            let kids = &self.nodes[first..first + p.num_children as usize];
            self.nodes[parent].proof = if kids.iter().any(|c| c.proof_for(mover) == 1) {
                1
            } else if kids.iter().all(|c| c.proof_for(mover) == -1) {
                -1
            } else {
                return;
            };
        }
    }

    fn best_child(&self, id: u32, cfg: &MctsConfig) -> u32 {
        let (c_puct, fpu_reduction, alpha) = (cfg.c_puct, cfg.fpu_reduction, cfg.minimax_weight);
        let node = &self.nodes[id as usize];
        let mover = node.pos.side_to_move();
        let sqrt_n = (node.visits.max(1) as f32).sqrt();
        let fpu = node.value - fpu_reduction;
        let first = node.first_child as usize;
        let mut best = first;
        let mut best_score = f32::NEG_INFINITY;
        // Forced playouts: at a noised root, a child short of its forced visits goes first.
        let forced = if id == 0 { self.forced_k } else { 0.0 };
        for (i, c) in self.nodes[first..first + node.num_children as usize]
            .iter()
            .enumerate()
        {
            // Proven children (only with the solver): a win is taken, a loss never tried again.
            match c.proof_for(mover) {
                1 => return (first + i) as u32,
                -1 => continue,
                _ => {}
            }
            if forced > 0.0
                && c.prior > 0.0
                && (c.visits as f32) < forced_visits(forced, c.prior, node.visits)
            {
                return (first + i) as u32;
            }
            let q = if c.visits == 0 {
                fpu
            } else if alpha > 0.0 && c.is_evaluated() {
                (1.0 - alpha) * c.value_sum / c.visits as f32 + alpha * c.minimax
            } else {
                c.value_sum / c.visits as f32
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
        self.forced_k = cfg.forced_playouts.max(0.0);
    }

    /// The root's moves with their visits for a policy target: with forced playouts at a noised
    /// root, policy target pruning (KataGo) takes from every child but the most visited the
    /// forced visits that PUCT would not have given it (down to the count at which its PUCT
    /// score reaches the most visited child's), and drops a child left with one visit; without
    /// them, the visits as they are.
    pub fn pruned_root_visits(&self, cfg: &MctsConfig) -> Vec<(Move, u32)> {
        let mut by_move = self.root_visits_by_move();
        if self.forced_k <= 0.0 {
            return by_move;
        }
        let root = &self.nodes[0];
        let first = root.first_child as usize;
        let children = &self.nodes[first..first + root.num_children as usize];
        let Some(top) = (0..children.len()).max_by_key(|&i| children[i].visits) else {
            return by_move;
        };
        let sqrt_n = (root.visits.max(1) as f32).sqrt();
        let mean = |c: &Node| c.value_sum / c.visits.max(1) as f32;
        let puct = |c: &Node, visits: f32| mean(c) + cfg.c_puct * c.prior * sqrt_n / (1.0 + visits);
        let bar = puct(&children[top], children[top].visits as f32);
        for (i, (c, entry)) in children.iter().zip(by_move.iter_mut()).enumerate() {
            if i == top || c.visits == 0 {
                continue;
            }
            let forced = forced_visits(self.forced_k, c.prior, root.visits).floor() as u32;
            // The fewest visits at which this child's PUCT score is no more than the bar.
            let gap = bar - mean(c);
            let needed = if gap > 0.0 {
                (cfg.c_puct * c.prior * sqrt_n / gap - 1.0).ceil().max(0.0) as u32
            } else {
                c.visits
            };
            let kept = c.visits.saturating_sub(forced).max(needed).min(c.visits);
            entry.1 = if kept <= 1 { 0 } else { kept };
        }
        by_move
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
        if root.proof != 0 {
            return f32::from(root.proof);
        }
        let first = root.first_child as usize;
        let kids = &self.nodes[first..first + root.num_children as usize];
        let n: u32 = kids.iter().map(|c| c.visits).sum();
        if n == 0 {
            root.value
        } else {
            kids.iter().map(|c| c.value_sum).sum::<f32>() / n as f32
        }
    }

    /// The most visited move (ties: the higher prior), or `None` at a terminal root. With the
    /// solver, a move proven to win comes first and one proven to lose last.
    pub fn best_move(&self) -> Option<Move> {
        let root = &self.nodes[0];
        let mover = root.pos.side_to_move();
        let first = root.first_child as usize;
        (first..first + root.num_children as usize)
            .max_by(|&a, &b| {
                let (a, b) = (&self.nodes[a], &self.nodes[b]);
                (a.proof_for(mover), a.visits)
                    .cmp(&(b.proof_for(mover), b.visits))
                    .then(a.prior.total_cmp(&b.prior))
            })
            .map(|id| self.nodes[id].mv)
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
        self.line_below(0, max_len)
    }

    /// The root's children, most visited first: each move with its visits, its mean value for
    /// the root's mover (`None` unvisited) and the most visited line from it (starting with it).
    pub fn root_lines(&self, max_len: usize) -> Vec<(Move, u32, Option<f32>, Vec<Move>)> {
        let root = &self.nodes[0];
        if root.state != EXPANDED {
            return Vec::new();
        }
        let first = root.first_child as usize;
        let mut lines: Vec<_> = (first..first + root.num_children as usize)
            .map(|id| {
                let c = &self.nodes[id];
                let value = (c.visits > 0).then(|| c.value_sum / c.visits as f32);
                let mut line = vec![c.mv];
                line.extend(self.line_below(id, max_len.saturating_sub(1)));
                (c.mv, c.visits, value, line)
            })
            .collect();
        lines.sort_by_key(|l| std::cmp::Reverse(l.1));
        lines
    }

    /// The most visited moves from node `id` down.
    fn line_below(&self, id: usize, max_len: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut id = id;
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
        match found {
            Some(child) => self.reroot(child),
            None => self.reset(*next),
        }
    }

    /// Re-roots the tree at `pos` if it is the root or a node at most `depth` plies below it
    /// (keeping its subtree); returns whether it was found.
    pub fn reroot_to(&mut self, pos: &Position, depth: u32) -> bool {
        let mut level = vec![0usize];
        for _ in 0..=depth {
            if let Some(&id) = level.iter().find(|&&id| self.nodes[id].pos == *pos) {
                if id != 0 {
                    self.reroot(id);
                }
                return true;
            }
            level = level
                .iter()
                .filter(|&&id| self.nodes[id].state == EXPANDED)
                .flat_map(|&id| {
                    let n = &self.nodes[id];
                    n.first_child as usize..(n.first_child + u32::from(n.num_children)) as usize
                })
                .collect();
        }
        false
    }

    /// The root's children as a Gumbel root sees them (priors, visits, mean values for the
    /// root's mover), in child order.
    pub fn root_stats(&self) -> Vec<super::gumbel::RootChild> {
        let root = &self.nodes[0];
        let first = root.first_child as usize;
        self.nodes[first..first + root.num_children as usize]
            .iter()
            .map(|c| super::gumbel::RootChild {
                prior: c.prior,
                visits: c.visits,
                q: if c.visits > 0 {
                    c.value_sum / c.visits as f32
                } else {
                    0.0
                },
            })
            .collect()
    }

    /// The evaluator's value of the root for its mover.
    pub fn root_net_value(&self) -> f32 {
        self.nodes[0].value
    }

    /// The move of the root's child number `k`.
    pub fn root_move(&self, k: usize) -> Move {
        self.nodes[self.nodes[0].first_child as usize + k].mv
    }

    /// Number of the root's children (its legal moves, once it has been opened).
    pub fn root_children(&self) -> usize {
        self.nodes[0].num_children as usize
    }

    /// Makes node `id` the root, keeping its subtree and dropping the rest.
    fn reroot(&mut self, id: usize) {
        self.forced_k = 0.0;
        // Copy the subtree breadth first into the spare storage; children stay contiguous.
        let mut fresh = std::mem::take(&mut self.spare);
        fresh.clear();
        let mut top = self.nodes[id];
        top.prior = 1.0;
        // The root's minimax value is for its own mover (it was for the one who chose it).
        top.minimax = self.best_child_minimax(id).unwrap_or(top.value);
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
        let mut old = std::mem::replace(&mut self.nodes, fresh);
        old.clear();
        self.spare = old;
    }
}

#[cfg(test)]
impl Tree {
    /// The root's implicit minimax value for its mover (0 unless the search kept them).
    pub(crate) fn root_minimax(&self) -> f32 {
        self.nodes[0].minimax
    }

    /// Checks every implicit minimax value (kept when the last search's weight was above 0):
    /// a leaf's is its own value and an expanded node's the best of its evaluated children's,
    /// each for the player who chose the node. Returns how many nodes were checked.
    pub(crate) fn assert_minimax(&self) -> usize {
        let sign = |chooser: Side, n: &Node| {
            if chooser == n.pos.side_to_move() {
                1.0
            } else {
                -1.0
            }
        };
        let mut stack = vec![(0usize, self.nodes[0].pos.side_to_move())];
        let mut checked = 0;
        while let Some((id, chooser)) = stack.pop() {
            let n = &self.nodes[id];
            if !n.is_evaluated() {
                continue;
            }
            checked += 1;
            let first = n.first_child as usize;
            let kids = first..first + n.num_children as usize;
            let best = self.nodes[kids.clone()]
                .iter()
                .filter(|c| c.is_evaluated())
                .map(|c| c.minimax)
                .fold(f32::NEG_INFINITY, f32::max);
            let expected = sign(chooser, n) * if best.is_finite() { best } else { n.value };
            assert_eq!(n.minimax, expected, "node {id}");
            stack.extend(kids.map(|k| (k, n.pos.side_to_move())));
        }
        checked
    }

    /// Checks the bookkeeping: every expanded node has one visit for its own evaluation plus
    /// one per visit of a child, nothing is left pending, and (with an evaluator that values
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

    /// The proof of the root's move `mv` for the root's mover (0 when not proven).
    pub(crate) fn root_move_proof(&self, mv: Move) -> i8 {
        let root = &self.nodes[0];
        let first = root.first_child as usize;
        self.nodes[first..first + root.num_children as usize]
            .iter()
            .find(|c| c.mv == mv)
            .map_or(0, |c| c.proof_for(root.pos.side_to_move()))
    }

    /// Checks every proof of the solver against the node's children (or its result at a
    /// terminal), so that by induction every proof is sound; returns how many nodes are proven.
    pub(crate) fn assert_proofs(&self) -> usize {
        let mut proven = 0;
        for (i, n) in self.nodes.iter().enumerate() {
            if n.proof == 0 {
                continue;
            }
            proven += 1;
            if n.state == TERMINAL {
                assert_eq!(f32::from(n.proof), n.value, "terminal node {i}");
                continue;
            }
            assert_eq!(n.state, EXPANDED, "node {i}");
            let mover = n.pos.side_to_move();
            let first = n.first_child as usize;
            let kids = &self.nodes[first..first + n.num_children as usize];
            if n.proof == 1 {
                assert!(kids.iter().any(|c| c.proof_for(mover) == 1), "node {i}");
            } else {
                assert!(kids.iter().all(|c| c.proof_for(mover) == -1), "node {i}");
            }
        }
        proven
    }
}

impl Node {
    /// Whether the node has its value: evaluated by the network, or a finished game.
    fn is_evaluated(&self) -> bool {
        self.state == EXPANDED || self.state == TERMINAL
    }

    /// The proof (see [`Node::proof`]) seen from `side`.
    fn proof_for(&self, side: Side) -> i8 {
        if self.pos.side_to_move() == side {
            self.proof
        } else {
            -self.proof
        }
    }

    /// The exact value for this node's mover, when it is known: a finished game or a proof.
    fn exact_value(&self) -> Option<f32> {
        match (self.state, self.proof) {
            (TERMINAL, _) => Some(self.value),
            (_, 0) => None,
            (_, p) => Some(f32::from(p)),
        }
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
