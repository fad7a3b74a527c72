//! The solver the solver tests share: 20 s and a 16 MiB table, far more than their small
//! positions need.

use bao_zero::search::solver::{SolveLimits, Solver};
use std::time::Duration;

/// A solver with 20 s and a 16 MiB table.
pub fn solver() -> Solver {
    Solver::new(SolveLimits {
        time: Some(Duration::from_secs(20)),
        nodes: None,
        memory: 16 << 20,
    })
    .unwrap()
}
