//! The reinforcement-learning face of the engine, for every preset (see `docs/ENV.md`):
//! a fixed action space of 64 ids with legal masks ([`action`]), an observation tensor
//! `[OBS_CHANNELS, 4, 8]` seen from the mover ([`observation`]), a Gym-like [`Env`], a batched
//! [`VecEnv`] stepped with rayon, baseline [`agents`], [`random_opening`]s, a benchmark ([`bench`]) and, with the `ml`
//! feature, burn tensors ([`tensor`]). Only `tensor` depends on burn.

pub mod action;
pub mod agents;
pub mod bench;
#[allow(clippy::module_inception)]
mod env;
pub mod observation;
mod opening;
mod share;
#[cfg(feature = "ml")]
pub mod tensor;
pub mod vec_env;

pub use action::{
    ACTIONS, ActionError, MaskActions, action_text, action_to_move, legal_mask_bits, mask_actions,
    mask_to_bools, move_to_action, parse_action,
};
pub use agents::{Agent, GreedyAgent, RandomAgent};
pub use bench::{BenchReport, EnvBenchConfig, bench_env};
pub use env::{Env, EnvConfig, EnvError, EpisodeEnd, Observation, Step, StepInfo, Transition};
pub use observation::{
    Features, OBS_CHANNELS, OBS_HIGH, OBS_LEN, ObsBufferError, encode,
    encode as encode_observation, try_encode,
};
pub use opening::random_opening;
pub use vec_env::{FinalState, VecEnv, VecEnvError, episode_seed};
