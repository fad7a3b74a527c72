//! The rules engine for the Bao family of four-row mancala games: positions, legal moves,
//! sowing, outcomes, and the KIBA notation ([`notation`]). It depends on no ML or command-line
//! crate; everything else in the project builds on it.
//!
//! A position comes from [`Position::start`], from a move played, or from text through the
//! setup gate: the text parses into an unchecked [`Setup`], and [`Position::from_setup`] checks it
//! against a rule set and says, with a [`SetupError`], what is wrong.

mod captures;
pub mod game;
mod movegen;
pub mod moves;
pub mod notation;
pub mod options;
pub mod overrides;
pub mod perft;
pub mod pit;
mod play;
pub mod position;
pub mod rule_set;
pub mod rules_check;
pub mod setup;
mod sow;
mod takasia;
pub mod trace;
pub mod variant;

pub use game::{Game, GameError};
pub use moves::{MAX_MOVES, Move, MoveKind, MoveList, MoveText};
pub use pit::{Dir, Pit, Rotation, Row, Side};
pub use play::IllegalMove;
pub use position::{EndReason, Outcome, Position, Stage};
pub use rule_set::Rules;
pub use rules_check::RulesError;
pub use setup::{Setup, SetupError, TakasiaField};
pub use trace::{Event, Observer, StopReason};
pub use variant::{UnknownVariant, Variant};

/// Hooks for tests of the engine itself.
#[doc(hidden)]
pub mod testing {
    pub use crate::sow::without_ring;
}
