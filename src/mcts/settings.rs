//! The search settings a player plays with: all that a player file stores of a search.

use serde::{Deserialize, Serialize};

/// The exploration constant of a trained player at play time, unless its file says otherwise:
/// self-play explores with 1.5, but with the long searches of play the tree does better trusting
/// its values more (docs/STRENGTH.md: 1.0 against 1.5, 800 simulations a move, Elo +63 [+24, +102];
/// 0.7 and 2.5 are worse).
pub const PLAY_C_PUCT: f32 = 1.0;

/// What a player searches with at play: the tree's selection, backup and proofs read only these.
/// Self-play adds its root noise, temperature, playout cap and forced playouts
/// ([`super::SelfPlaySearch`]); a player plays without them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlaySettings {
    /// Exploration constant of PUCT.
    pub c_puct: f32,
    /// First-play urgency: an unvisited child is valued at the parent's network value minus this.
    pub fpu_reduction: f32,
    /// MCTS-solver: wins and losses proven at terminal nodes are proven up the tree, proven
    /// lines are not searched again, a proven win is played and a proven loss avoided.
    pub solver: bool,
    /// Implicit minimax backups (Lanctot et al. 2014): every node also keeps the minimax of its
    /// evaluated children's values, and selection values a child at
    /// `(1 - w) * mean + w * minimax`; this weight `w` (0 turns it off). A refutation found deep
    /// in the tree then counts at once instead of being averaged away over many visits. At play
    /// in Bao la Kiswahili 0.3 measured level with 0 on a quiet machine and inside the noise
    /// under load (docs/STRENGTH.md), so it is off by default.
    pub minimax_weight: f32,
}

impl Default for PlaySettings {
    fn default() -> Self {
        PlaySettings {
            c_puct: 1.5,
            fpu_reduction: 0.2,
            solver: false,
            minimax_weight: 0.0,
        }
    }
}
