//! Players: the [`Player`] interface every searcher implements, with its [`Limits`] and
//! [`Choice`]; a [`Bot`] that runs a player's search on a thread of its own; players written as
//! strings ([`PlayerSpec`]) and the [`PlayerRegistry`] that builds them; the uniform random and
//! greedy baselines; another engine's program as a player ([`ExternalEngine`]).
//!
//! The searches that implement [`Player`] sit above this room (`search`, `mcts`) and register
//! their kinds there (`PlayerRegistry::classical` in `search`); the network kinds and the one
//! registry of every kind, [`crate::trained::all_players`], sit above `export` in [`crate::trained`].

pub mod bot;
pub mod budgeted;
pub(crate) mod external;
pub mod options;
pub mod player;
pub mod random;
pub mod registry;
pub mod spec;

pub use bot::{BUSY, Bot, PlayerPanicked};
pub use budgeted::{Budgeted, with_budget};
pub use external::ExternalEngine;
pub use player::{Candidate, Choice, GameMismatch, Limits, Player, check_players};
pub use random::{GreedyPlayer, RandomPlayer};
pub use registry::{BuildFn, PlayerRegistry};
pub use spec::{MctsSpec, PlayerSpec, SolverSpec, SpecError};

/// At most `max` characters of `text` (a user's input echoed in a message), with `…` where it
/// was cut, so that a huge input makes a short message.
pub fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}
