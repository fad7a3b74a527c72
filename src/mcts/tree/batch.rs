//! Batches of leaves under virtual loss: a batched search gathers many leaves of one tree before
//! one evaluation answers them all.

use super::{Leaf, PENDING, Tree};
use crate::mcts::PlaySettings;
use crate::rules::Rules;

/// Virtual loss: while a leaf waits for its evaluation, every node on its path counts one more
/// visit that lost, so the next descents of the same batch spread to other lines.
const VIRTUAL_LOSS: f32 = 1.0;

/// Leaves gathered for one batched evaluation and the paths that lead to them.
#[derive(Clone, Debug, Default)]
pub(super) struct Gathered {
    /// The leaves, in the order they were gathered.
    leaves: Vec<u32>,
    /// Every gathered path (leaves' and collisions'), one after the other.
    paths: Vec<u32>,
    /// Each leaf's path: a range of `paths`.
    leaf_paths: Vec<(u32, u32)>,
    /// Each collision's path (a descent that reached a leaf already gathered).
    collisions: Vec<(u32, u32)>,
}

impl Tree {
    /// Gathers up to `max` leaves for one batched evaluation, under virtual loss, and returns
    /// them. Terminal nodes met on the way are backed up at once (they count as simulations,
    /// and leaves and terminal simulations together stop at `max_sims`, so that a node limit is
    /// met exactly); descents that reach a leaf already gathered (collisions) stop the gathering
    /// after `max_collisions`. Give each leaf its evaluation with [`Tree::deliver`], then call
    /// [`Tree::end_gather`].
    pub fn gather(
        &mut self,
        rules: &Rules,
        cfg: &PlaySettings,
        max: usize,
        max_collisions: usize,
        max_sims: usize,
    ) -> &[u32] {
        let g = &mut self.gathered;
        g.leaves.clear();
        g.paths.clear();
        g.leaf_paths.clear();
        g.collisions.clear();
        let mut terminal = 0;
        // Every attempt either gathers a leaf, collides, or completes a terminal simulation.
        for _ in 0..max + max_collisions {
            let leaves = self.gathered.leaves.len();
            if leaves >= max
                || leaves + terminal >= max_sims
                || self.gathered.collisions.len() >= max_collisions
                || self.root_is_decided()
            {
                break;
            }
            let id = self.descend(cfg);
            let node = self.nodes[id as usize];
            if let Some(value) = node.exact_value() {
                self.backup(value, node.pos.side_to_move());
                terminal += 1;
                continue;
            }
            match node.state {
                PENDING => {
                    let span = self.keep_path_with_virtual_loss();
                    self.gathered.collisions.push(span);
                }
                _ => match self.open(id, rules, cfg.solver) {
                    Leaf::Eval(leaf) => {
                        self.nodes[leaf as usize].state = PENDING;
                        let span = self.keep_path_with_virtual_loss();
                        self.gathered.leaves.push(leaf);
                        self.gathered.leaf_paths.push(span);
                    }
                    // A node found terminal when opened was backed up there.
                    Leaf::Done => terminal += 1,
                },
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
    pub(crate) fn gathered(&self) -> &[u32] {
        &self.gathered.leaves
    }

    /// Gives the `k`-th gathered leaf its priors and value: the virtual loss on its path turns
    /// into the real value.
    pub(crate) fn deliver(&mut self, k: usize, priors: &[f32], value: f32) {
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
    pub(crate) fn end_gather(&mut self) {
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
}
