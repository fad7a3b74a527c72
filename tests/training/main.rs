//! The training tests: configs and their checks, the learner and the stages, run directories and
//! crashes, footprint, charts, and the Python package's suite.
//!
//! One test binary for these files (each a module), so that the suite links a few binaries,
//! not one per file.

// Each binary uses a part of what the test files share.
#[allow(dead_code)]
#[path = "../common/mod.rs"]
mod common;

mod config_extends;
mod config_validation;
mod crash;
mod exact;
mod exploit;
mod footprint;
mod learner;
mod plot;
mod python;
mod removed_options;
mod run_files;
mod stages;
mod train;
