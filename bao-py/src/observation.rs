//! Observations as numpy arrays for a player who is not to move (PettingZoo's per-agent views,
//! the vector envs' final observations), shared by `Env` and `VecEnv`.

use bao_zero::env::OBS_CHANNELS;
use bao_zero::rules::Position;
use numpy::{PyArray3, PyArrayMethods};
use pyo3::prelude::*;

/// The observation of `pos` as `player` (0 South, 1 North) sees it, as a new `(27, 4, 8)`
/// array: for the player to move the usual one, for the other the same board encoded as if it
/// were to move (the mover's takasia marks, which bind only the mover, left out). Finished
/// positions too.
pub(crate) fn observation_as<'py>(
    py: Python<'py>,
    rules: &bao_zero::rules::Rules,
    pos: &Position,
    player: usize,
) -> Bound<'py, PyArray3<f32>> {
    let obs = PyArray3::<f32>::zeros(py, [OBS_CHANNELS, 4, 8], false);
    // SAFETY: the array was just created here and nothing else refers to it yet.
    let out = unsafe { obs.as_slice_mut() }.expect("a new array is contiguous");
    if player == pos.side_to_move().index() {
        bao_zero::env::encode(rules, pos, out);
    } else {
        let mut setup = pos.to_setup();
        setup.to_move = setup.to_move.opponent();
        setup.blocked = None;
        setup.target = None;
        bao_zero::env::encode(rules, &Position::from_setup_unchecked(setup), out);
    }
    obs
}
