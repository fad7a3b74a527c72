//! The classical searches: alpha-beta with a hand-written evaluation and its transposition
//! table, the exact solver and its perfect player ([`solver`]), the Zobrist hashes they share,
//! the classical player kinds of a [`PlayerRegistry`](crate::players::PlayerRegistry)
//! (classical.rs), and a speed benchmark of the search.
//!
//! Nothing here needs the `ml` feature. MCTS with a network plugs in as another
//! [`Player`](crate::players::Player) kind registered in the registry.

pub mod alphabeta;
pub mod bench;
pub mod book;
mod classical;
pub mod heuristic;
pub mod solver;
mod tt;
pub mod zobrist;

pub use alphabeta::{AlphaBeta, AlphaBetaConfig, Analysis};
pub use heuristic::HeuristicWeights;
