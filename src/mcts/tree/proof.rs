//! The MCTS-solver (Winands et al.): wins and losses proven at terminal nodes are proven up the
//! tree ([`PlaySettings::solver`]); selection skips proven lines and takes proven wins.
//!
//! [`PlaySettings::solver`]: crate::mcts::PlaySettings::solver

use super::{Node, TERMINAL, Tree};
use crate::rules::Side;
#[cfg(test)]
use {super::EXPANDED, crate::rules::Move};

impl Tree {
    /// MCTS-solver (Winands et al.): after a terminal node is proven, walks the current path up
    /// while proofs follow. A node is won for its mover when one child is won for that side,
    /// lost when every child is lost for it.
    pub(super) fn prove_up(&mut self) {
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
}

#[cfg(test)]
impl Tree {
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
    /// The proof (see [`Node::proof`]) seen from `side`.
    pub(super) fn proof_for(&self, side: Side) -> i8 {
        if self.pos.side_to_move() == side {
            self.proof
        } else {
            -self.proof
        }
    }

    /// The exact value for this node's mover, when it is known: a finished game or a proof.
    pub(super) fn exact_value(&self) -> Option<f32> {
        match (self.state, self.proof) {
            (TERMINAL, _) => Some(self.value),
            (_, 0) => None,
            (_, p) => Some(f32::from(p)),
        }
    }
}
