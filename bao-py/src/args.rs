//! Integer arguments from Python (sizes, counts, seeds, actions), checked against their bounds
//! before Rust sees them.
//!
//! pyo3's own conversions raise `OverflowError` for a negative or huge int, and a size that
//! fits the type can still be too large to allocate (an abort, not an exception). Every size,
//! count and seed the environments take goes through [`int_arg`] instead: a value outside its
//! range is a one-line `ValueError` naming the argument and the range, a non-integer a
//! `TypeError`.

use crate::errors::{out_of_range, value_error};
use bao_zero::env::ACTIONS;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;

/// Most environments one `VecEnv` holds (about 4 KiB each: 4 GiB at the bound).
pub(crate) const MAX_ENVS: u64 = 1 << 20;

/// Most threads a `VecEnv` steps on or a `Player` searches with (the engine's bound).
pub(crate) const MAX_THREADS: u64 = 256;

/// `value`, an integer in `lo..=hi`; otherwise a `ValueError` (or `TypeError` for a value that
/// is not an integer) naming `name`.
pub(crate) fn int_arg(value: &Bound<'_, PyAny>, name: &str, lo: u64, hi: u64) -> PyResult<u64> {
    let out_of_range = || out_of_range(name, lo, hi, short_repr(value));
    match value.extract::<i128>() {
        Ok(v) => u64::try_from(v)
            .ok()
            .filter(|v| (lo..=hi).contains(v))
            .ok_or_else(out_of_range),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => Err(out_of_range()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} must be an integer, not {}",
            type_name(value)
        ))),
    }
}

/// [`int_arg`] of an optional argument: `default` when it is absent or `None`.
pub(crate) fn opt_int_arg(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    lo: u64,
    hi: u64,
    default: u64,
) -> PyResult<u64> {
    match value {
        Some(v) if !v.is_none() => int_arg(v, name, lo, hi),
        _ => Ok(default),
    }
}

/// A seed: any integer from 0 to 2^64 - 1; `None` when it is absent or `None`.
pub(crate) fn seed_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    match value {
        Some(v) if !v.is_none() => int_arg(v, "seed", 0, u64::MAX).map(Some),
        _ => Ok(None),
    }
}

/// Plies: `max_plies` from 1 and `opening_random_plies` from 0, both below 2^32.
pub(crate) fn plies_args(
    max_plies: Option<&Bound<'_, PyAny>>,
    opening_random_plies: Option<&Bound<'_, PyAny>>,
) -> PyResult<(u32, u32)> {
    let max = opt_int_arg(max_plies, "max_plies", 1, u32::MAX.into(), 1000)?;
    let opening = opt_int_arg(
        opening_random_plies,
        "opening_random_plies",
        0,
        u32::MAX.into(),
        0,
    )?;
    // Both are in range of u32 by the bounds above.
    Ok((max as u32, opening as u32))
}

/// The name of a value's type.
pub(crate) fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A value's repr, cut to 40 characters.
pub(crate) fn short_repr(v: &Bound<'_, PyAny>) -> String {
    let text = v.repr().map(|r| r.to_string()).unwrap_or_default();
    match text.char_indices().nth(37) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text,
    }
}

/// An action id in `0..64`, or `ValueError`.
pub(crate) fn checked_action_id(action: i64) -> PyResult<usize> {
    usize::try_from(action)
        .ok()
        .filter(|&a| a < ACTIONS)
        .ok_or_else(|| {
            value_error(format!(
                "action {action} is out of range: actions are 0..{ACTIONS}"
            ))
        })
}

/// A Python action (an int or numpy integer) as an id in `0..64`: `ValueError` out of range,
/// `TypeError` for a non-integer.
pub(crate) fn checked_action(action: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(a) = action.extract::<i64>() {
        return checked_action_id(a);
    }
    int_arg(action, "action", 0, ACTIONS as u64 - 1)
        .map(|a| a as usize)
        .map_err(|e| {
            if e.is_instance_of::<pyo3::exceptions::PyValueError>(action.py()) {
                value_error(format!(
                    "action {} is out of range: actions are 0..{ACTIONS}",
                    short_repr(action)
                ))
            } else {
                e
            }
        })
}
