//! bao-zero: a rules engine, a reinforcement-learning environment, self-play training and
//! players for Bao la Kiswahili and the Bao family of four-row mancala games.
//!
//! The rules engine and its notation live in their own crate, `bao_rules`, re-exported here as
//! [`rules`] and [`notation`]; everything else builds on them.

pub mod bench;
pub mod board_raster;
pub mod board_svg;
pub mod cli;
pub mod env;
pub mod eval;
#[cfg(feature = "ml")]
pub mod export;
pub mod mcts;
pub mod nn;
pub mod player_file;
pub mod players;
pub mod plot;
pub mod pool;
pub mod search;
pub mod selfplay;
#[cfg(feature = "ml")]
pub mod serve;
#[cfg(feature = "ml")]
pub mod train;
pub mod trained;
pub mod util;

/// The rules engine (the `bao_rules` crate).
pub use bao_rules as rules;
/// KIBA notation (the `bao_rules` crate's `notation`).
pub use bao_rules::notation;
