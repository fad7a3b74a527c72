//! The root's answers: the move to play, its value, the principal variation and the lines of
//! each root move.

use super::{EXPANDED, Tree};
use crate::rules::Move;
use rand::RngExt;

impl Tree {
    /// The root's moves with their visit counts.
    pub(crate) fn root_visits_by_move(&self) -> Vec<(Move, u32)> {
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
    pub(crate) fn best_move(&self) -> Option<Move> {
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
    pub(crate) fn root_lines(&self, max_len: usize) -> Vec<(Move, u32, Option<f32>, Vec<Move>)> {
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

    /// Number of the root's children (its legal moves, once it has been opened).
    pub(crate) fn root_children(&self) -> usize {
        self.nodes[0].num_children as usize
    }
}

#[cfg(test)]
impl Tree {
    /// The root's children's priors and visits, in child order.
    pub(crate) fn root_priors_and_visits(&self) -> Vec<(f32, u32)> {
        self.children(0)
            .iter()
            .map(|c| (c.prior, c.visits))
            .collect()
    }
}
