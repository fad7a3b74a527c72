//! Re-rooting: the tree moves down to the position played, keeping that subtree in storage kept
//! from the last re-rooting.

use super::{EXPANDED, Tree};
use crate::rules::{Move, Position};

impl Tree {
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
    pub(crate) fn reroot_to(&mut self, pos: &Position, depth: u32) -> bool {
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
