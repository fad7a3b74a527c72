//! Gumbel AlphaZero's root (Danihelka et al., 2022): sample the moves to consider without
//! replacement with the Gumbel-top-k trick, share the simulations among them by sequential
//! halving, and learn from an improved policy built from completed Q-values. With few
//! simulations this still improves the policy, where visit counts would mostly echo the priors.

use rand::RngExt;

/// Settings of the Gumbel root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GumbelSettings {
    /// Moves considered at most (sampled by Gumbel-top-k).
    pub considered: usize,
    /// `c_visit` of the monotone transform sigma of the Q-values.
    pub c_visit: f32,
    /// `c_scale` of that transform.
    pub c_scale: f32,
}

impl Default for GumbelSettings {
    fn default() -> Self {
        GumbelSettings {
            considered: 16,
            c_visit: 50.0,
            c_scale: 0.1,
        }
    }
}

/// The root's moves as the Gumbel procedure sees them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootChild {
    /// Prior probability from the evaluator.
    pub prior: f32,
    /// Visits.
    pub visits: u32,
    /// Mean value for the root's mover (meaningless when `visits` is 0).
    pub q: f32,
}

/// One root's Gumbel state for a whole search.
#[derive(Clone, Debug)]
pub struct GumbelRoot {
    settings: GumbelSettings,
    /// One Gumbel(0, 1) sample per root move.
    gumbel: Vec<f32>,
    /// The visit count a move must have to receive simulation `k` (sequential halving).
    schedule: Vec<u32>,
}

impl GumbelRoot {
    /// Draws the noise for a root with `moves` legal moves and plans `sims` simulations.
    pub fn new(
        settings: GumbelSettings,
        moves: usize,
        sims: u32,
        rng: &mut impl rand::Rng,
    ) -> GumbelRoot {
        let gumbel = (0..moves)
            .map(|_| {
                let u: f32 = rng.random::<f32>().clamp(1e-20, 1.0 - 1e-7);
                -(-u.ln()).ln()
            })
            .collect();
        let considered = settings.considered.min(moves).max(1);
        GumbelRoot {
            settings,
            gumbel,
            schedule: halving_schedule(considered, sims as usize),
        }
    }

    /// The root move that simulation number `k` (0-based) must go through.
    pub fn child_for(&self, k: usize, children: &[RootChild]) -> usize {
        let want = self
            .schedule
            .get(k)
            .copied()
            .unwrap_or_else(|| children.iter().map(|c| c.visits).max().unwrap_or(0));
        self.best_among(children, |c| c.visits == want)
            .or_else(|| self.best_among(children, |_| true))
            .unwrap_or(0)
    }

    /// The move to play: the best by `g + logit + sigma(q)` among the most visited.
    pub fn choice(&self, children: &[RootChild]) -> usize {
        let most = children.iter().map(|c| c.visits).max().unwrap_or(0);
        self.best_among(children, |c| c.visits == most).unwrap_or(0)
    }

    /// The best considered move passing `filter` by `g + logit + sigma(q)`.
    fn best_among(
        &self,
        children: &[RootChild],
        filter: impl Fn(&RootChild) -> bool,
    ) -> Option<usize> {
        let top = self.considered_set(children);
        let sigma = transformed_q(&self.settings, children);
        (0..children.len())
            .filter(|&i| top[i] && filter(&children[i]))
            .max_by(|&a, &b| {
                let score = |i: usize| self.gumbel[i] + logit(children[i].prior) + sigma[i];
                score(a).total_cmp(&score(b))
            })
    }

    /// Which moves are considered: the top `considered` by `g + logit`.
    fn considered_set(&self, children: &[RootChild]) -> Vec<bool> {
        let m = self.settings.considered.min(children.len()).max(1);
        let mut order: Vec<usize> = (0..children.len()).collect();
        order.sort_by(|&a, &b| {
            let score = |i: usize| self.gumbel[i] + logit(children[i].prior);
            score(b).total_cmp(&score(a))
        });
        let mut top = vec![false; children.len()];
        for &i in &order[..m] {
            top[i] = true;
        }
        top
    }
}

/// The improved policy `softmax(logit + sigma(completed q))` over all root moves: the policy
/// target of a Gumbel search.
pub fn improved_policy(settings: &GumbelSettings, children: &[RootChild], value: f32) -> Vec<f32> {
    let sigma = transformed_q_with(settings, children, value);
    let scores: Vec<f32> = children
        .iter()
        .zip(&sigma)
        .map(|(c, s)| logit(c.prior) + s)
        .collect();
    let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exp: Vec<f32> = scores.iter().map(|s| (s - max).exp()).collect();
    let total: f32 = exp.iter().sum();
    exp.iter()
        .map(|e| e / total.max(f32::MIN_POSITIVE))
        .collect()
}

fn logit(prior: f32) -> f32 {
    prior.max(1e-12).ln()
}

/// sigma(completed q) with the value mix computed from the children alone (the root's own
/// value does not change which move is best among visited ones).
fn transformed_q(settings: &GumbelSettings, children: &[RootChild]) -> Vec<f32> {
    let visited: f32 = children
        .iter()
        .filter(|c| c.visits > 0)
        .map(|c| c.prior)
        .sum();
    let mean = if visited > 0.0 {
        children
            .iter()
            .filter(|c| c.visits > 0)
            .map(|c| c.prior * c.q)
            .sum::<f32>()
            / visited
    } else {
        0.0
    };
    transformed_q_with(settings, children, mean)
}

/// sigma(completed q): unvisited moves get the mixed value of the root, then all are rescaled to
/// [0, 1] and scaled by `(c_visit + max visits) * c_scale`.
fn transformed_q_with(settings: &GumbelSettings, children: &[RootChild], value: f32) -> Vec<f32> {
    let total: u32 = children.iter().map(|c| c.visits).sum();
    let visited_prior: f32 = children
        .iter()
        .filter(|c| c.visits > 0)
        .map(|c| c.prior)
        .sum();
    let mix = if total > 0 && visited_prior > 0.0 {
        let weighted = children
            .iter()
            .filter(|c| c.visits > 0)
            .map(|c| c.prior * c.q)
            .sum::<f32>()
            / visited_prior;
        (value + total as f32 * weighted) / (1.0 + total as f32)
    } else {
        value
    };
    let completed: Vec<f32> = children
        .iter()
        .map(|c| if c.visits > 0 { c.q } else { mix })
        .collect();
    let lo = completed.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = completed.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let max_visits = children.iter().map(|c| c.visits).max().unwrap_or(0) as f32;
    let scale = (settings.c_visit + max_visits) * settings.c_scale;
    completed
        .iter()
        .map(|&q| scale * (q - lo) / (hi - lo).max(1e-8))
        .collect()
}

/// Sequential halving: the visit count a considered move must have to get each simulation.
/// Each phase gives every remaining move the same number of visits, then keeps the better half.
fn halving_schedule(considered: usize, sims: usize) -> Vec<u32> {
    if considered <= 1 {
        return (0..sims as u32).collect();
    }
    let phases = (considered as f64).log2().ceil().max(1.0) as usize;
    let mut out = Vec::with_capacity(sims);
    let mut visits = vec![0u32; considered];
    let mut remaining = considered;
    while out.len() < sims {
        let extra = (sims / (phases * remaining)).max(1);
        for _ in 0..extra {
            out.extend_from_slice(&visits[..remaining]);
            for v in &mut visits[..remaining] {
                *v += 1;
            }
        }
        remaining = (remaining / 2).max(2);
    }
    out.truncate(sims);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn sequential_halving_visits_every_considered_move_then_halves() {
        let s = halving_schedule(4, 16);
        // 2 phases: 4 moves x 2 visits, then 2 moves x 4 visits.
        assert_eq!(s, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
        assert_eq!(halving_schedule(1, 3), [0, 1, 2]);
        assert_eq!(halving_schedule(16, 8).len(), 8);
    }

    #[test]
    fn a_clearly_better_move_wins_the_halving_and_the_improved_policy() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let settings = GumbelSettings::default();
        let root = GumbelRoot::new(settings, 4, 32, &mut rng);
        // Move 2 has a low prior but wins; the others lose.
        let mut children = vec![
            RootChild {
                prior: 0.4,
                visits: 0,
                q: 0.0
            };
            4
        ];
        children[2].prior = 0.1;
        let true_q = [-0.5, -0.4, 0.9, -0.6];
        for k in 0..32 {
            let i = root.child_for(k, &children);
            let c = &mut children[i];
            c.q = (c.q * c.visits as f32 + true_q[i]) / (c.visits + 1) as f32;
            c.visits += 1;
        }
        assert_eq!(root.choice(&children), 2);
        let p = improved_policy(&settings, &children, 0.0);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(p[2] > 0.5, "{p:?}");
    }
}
