//! Backup: values added along the path of a simulation, and the implicit minimax values
//! (Lanctot et al. 2014) that selection blends in when [`PlaySettings::minimax_weight`] is above 0.
//!
//! [`PlaySettings::minimax_weight`]: crate::mcts::PlaySettings::minimax_weight

use super::{Node, Tree};
use crate::rules::Side;

impl Tree {
    /// Adds `value` (for `side`) along the current path.
    pub(super) fn backup(&mut self, value: f32, side: Side) {
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

    /// A visited child's value in selection, for the player who chose it: its mean, blended
    /// with its implicit minimax value when the weight is above 0 (the implicit minimax hook).
    #[inline]
    pub(super) fn child_value(&self, c: &Node) -> f32 {
        let w = self.minimax_weight;
        if w > 0.0 && c.is_evaluated() {
            (1.0 - w) * c.value_sum / c.visits as f32 + w * c.minimax
        } else {
            c.value_sum / c.visits as f32
        }
    }

    /// Implicit minimax backup (Lanctot et al. 2014): the last node of `path` was just
    /// evaluated at `value` (for its mover); its minimax value and those of its ancestors are
    /// brought up to date, each the best of its evaluated children for its mover. Stops where a
    /// value does not change, since nothing above it can.
    pub(super) fn minimax_up(&mut self, path: &[u32], value: f32) {
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
    pub(super) fn best_child_minimax(&self, id: usize) -> Option<f32> {
        let n = &self.nodes[id];
        let first = n.first_child as usize;
        self.nodes[first..first + n.num_children as usize]
            .iter()
            .filter(|c| c.is_evaluated())
            .map(|c| c.minimax)
            .reduce(f32::max)
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
}
