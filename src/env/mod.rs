//! The reinforcement-learning face of the engine: a fixed action space with legal-move masks and
//! an observation tensor, for every preset (see `docs/ENV.md`).

pub mod action;
pub mod observation;

pub use action::{ACTIONS, action_to_move, move_to_action};
pub use observation::{OBS_CHANNELS, OBS_LEN, encode as encode_observation};
