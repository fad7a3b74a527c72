//! Selection: PUCT with first-play urgency, and at the root of a full self-play search the
//! Dirichlet noise and forced playouts (with the policy target pruning that undoes them).

use super::{EXPANDED, Node, Tree};
use crate::mcts::{PlaySettings, SelfPlaySearch};
use crate::rules::Move;
use rand::RngExt;

/// The visits forced playouts give a root child of prior `prior` out of the root's `visits`.
fn forced_visits(k: f32, prior: f32, visits: u32) -> f32 {
    (k * prior * visits as f32).sqrt()
}

impl Tree {
    /// The child of node `id` that PUCT picks: the highest mean value (or first-play urgency, for
    /// an unvisited child) plus exploration; at a noised root a child short of its forced
    /// playouts comes first, and with the solver a proven win is taken and a proven loss skipped.
    pub(super) fn best_child(&self, id: u32, cfg: &PlaySettings) -> u32 {
        let (c_puct, fpu_reduction) = (cfg.c_puct, cfg.fpu_reduction);
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
            } else {
                self.child_value(c)
            };
            let score = q + c_puct * c.prior * sqrt_n / (1.0 + c.visits as f32);
            if score > best_score {
                best_score = score;
                best = first + i;
            }
        }
        best as u32
    }

    /// Mixes Dirichlet noise into the root's priors, and arms forced playouts at this root.
    pub fn add_root_noise(&mut self, cfg: &SelfPlaySearch, rng: &mut impl rand::Rng) {
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
    pub fn pruned_root_visits(&self, cfg: &PlaySettings) -> Vec<(Move, u32)> {
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
