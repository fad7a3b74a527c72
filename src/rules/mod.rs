//! The rules engine for the Bao family: positions, legal moves, sowing, outcomes.
//! It depends on no ML crate; everything else in the project builds on it.

pub mod moves;
pub mod perft;
pub mod pit;
pub mod position;
mod sow;
pub mod trace;
pub mod variant;

pub use moves::{MAX_MOVES, Move, MoveKind, MoveList};
pub use pit::{Dir, Pit, Rotation, Row, Side};
pub use position::{EndReason, IllegalMove, Outcome, Position, Stage};
pub use trace::{Event, Observer, StopReason};
pub use variant::{Rules, UnknownVariant, Variant};
