//! Classical players: the [`Player`] interface, uniform random and greedy baselines, and an
//! alpha-beta search with a hand-written evaluation; players written as strings
//! ([`PlayerSpec`]); an exact solver and its perfect player ([`solver`]); and a speed benchmark
//! of the search.
//!
//! Nothing here needs the `ml` feature. MCTS with a network plugs in as another [`Player`] kind
//! registered in a [`PlayerRegistry`].

pub mod alphabeta;
pub mod bench;
pub mod bot;
pub mod eval_fn;
pub mod external;
pub mod player;
pub mod random;
pub mod solver;
pub mod spec;
mod tt;
pub mod zobrist;

pub use alphabeta::{AlphaBeta, AlphaBetaConfig, Analysis};
pub use bot::{BUSY, Bot, PlayerPanicked};
pub use eval_fn::EvalWeights;
pub use external::ExternalEngine;
pub use player::{Candidate, Choice, GameMismatch, Limits, Player, check_players};
pub use random::{GreedyPlayer, RandomPlayer};
pub use spec::{PlayerRegistry, PlayerSpec, SpecError};

/// At most `max` characters of `text` (a user's input echoed in a message), with `…` where it
/// was cut, so that a huge input makes a short message.
pub fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}
