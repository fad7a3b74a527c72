//! Rust errors as Python exceptions: `ValueError` for bad input (an illegal or unknown action,
//! a malformed position, a bad argument), `RuntimeError` for a call the state does not allow
//! (stepping a finished game), `FileNotFoundError` for a missing file.

use bao_zero::env::{EnvError, VecEnvError};
use pyo3::exceptions::{PyFileNotFoundError, PyRuntimeError, PyValueError};
use pyo3::{PyErr, PyResult};
use std::fmt::Display;
use std::path::Path;

/// A `ValueError` with the error's message.
pub(crate) fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A `RuntimeError` with the error's message.
pub(crate) fn runtime_error(e: impl Display) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

/// An `anyhow` error with its whole chain of causes on one line, as a `ValueError`.
pub(crate) fn chain_value_error(e: &anyhow::Error) -> PyErr {
    PyValueError::new_err(format!("{e:#}"))
}

/// An environment error: `RuntimeError` once the episode is over, `ValueError` otherwise.
pub(crate) fn env_error(e: EnvError) -> PyErr {
    match e {
        EnvError::EpisodeOver { .. } => runtime_error(e),
        _ => value_error(e),
    }
}

/// A batched environment's error, typed as [`env_error`] types the environment's own.
pub(crate) fn vec_env_error(e: VecEnvError) -> PyErr {
    match e {
        VecEnvError::Env {
            source: EnvError::EpisodeOver { .. },
            ..
        } => runtime_error(e),
        _ => value_error(e),
    }
}

/// `FileNotFoundError` (with the path as its filename) unless `path` names an existing file.
pub(crate) fn require_file(path: &Path, what: &str) -> Result<(), PyErr> {
    if path.exists() {
        Ok(())
    } else {
        Err(PyFileNotFoundError::new_err((
            2,
            format!("no such {what}: {}", path.display()),
            path.display().to_string(),
        )))
    }
}

/// Runs one call of the module so that no Rust panic reaches Python as a panic: pyo3 would raise
/// it as `PanicException`, which `except Exception` does not catch (a Ray worker, a web handler
/// or a notebook would die of it). A panic here is a bug of bao_zero; it becomes a one-line
/// `RuntimeError` naming `what` and the panic's first line. The arguments are checked before
/// any work starts, so that bad input is a `ValueError` and never reaches this net; allocation
/// failures, which abort rather than panic, are kept out the same way.
pub(crate) fn guarded<T>(what: &str, call: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)) {
        Ok(result) => result,
        Err(payload) => Err(bug(what, &panic_message(payload.as_ref()))),
    }
}

/// The one-line `RuntimeError` of a panic inside bao_zero while running `what`: a bug.
pub(crate) fn bug(what: &str, message: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "{what} failed inside bao_zero (a bug, please report it): {message}"
    ))
}

/// The first line of a panic's message.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    text.lines().next().unwrap_or_default().to_string()
}

/// `ValueError` unless `value` lies in `range`: a size, count or seed given from Python, named
/// `name` in the message, checked before it sizes anything.
pub(crate) fn check_range<T>(
    name: &str,
    value: T,
    range: std::ops::RangeInclusive<T>,
) -> PyResult<T>
where
    T: PartialOrd + Display + Copy,
{
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(out_of_range(name, range.start(), range.end(), value))
    }
}

/// The one-line `ValueError` of an argument `name` given as `shown`, outside `lo` to `hi`: the
/// message every size, count and seed check from Python gives.
pub(crate) fn out_of_range(
    name: &str,
    lo: impl Display,
    hi: impl Display,
    shown: impl Display,
) -> PyErr {
    PyValueError::new_err(format!("{name} must be {lo} to {hi}, not {shown}"))
}

/// Runs `work` with the GIL released (`Python::detach`); its error becomes a one-line
/// `ValueError` with its chain of causes.
pub(crate) fn detach<T, F>(py: pyo3::Python<'_>, work: F) -> Result<T, PyErr>
where
    F: Send + FnOnce() -> anyhow::Result<T>,
    T: Send,
{
    py.detach(work).map_err(|e| chain_value_error(&e))
}
