//! bao-zero: a rules engine, a reinforcement-learning environment, self-play training and
//! players for Bao la Kiswahili and the Bao family of four-row mancala games.
//!
//! The `rules` and `notation` modules depend on no ML crate; everything else builds on them.

pub mod bench;
pub mod cli;
pub mod env;
pub mod eval;
#[cfg(feature = "ml")]
pub mod export;
pub mod mcts;
#[cfg(feature = "ml")]
pub mod nn;
pub mod notation;
pub mod rules;
pub mod search;
pub mod selfplay;
#[cfg(feature = "ml")]
pub mod train;
pub mod util;
