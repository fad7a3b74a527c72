//! Rust errors as Python exceptions: `ValueError` for bad input (an illegal or unknown action,
//! a malformed position, a bad argument), `RuntimeError` for a call the state does not allow
//! (stepping a finished game), `FileNotFoundError` for a missing file.

use bao_zero::env::{EnvError, VecEnvError};
use pyo3::PyErr;
use pyo3::exceptions::{PyFileNotFoundError, PyRuntimeError, PyValueError};
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
