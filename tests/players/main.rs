//! The player-file tests: export and loading, ONNX, the default and shipped players, devices.
//!
//! One test binary for these files (each a module), so that the suite links a few binaries,
//! not one per file.

// Each binary uses a part of what the test files share.
#[allow(dead_code)]
#[path = "../common/mod.rs"]
mod common;
#[path = "../common/solver.rs"]
mod small_solver;

mod default_player;
mod device;
mod export;
mod export_checks;
mod header_game;
mod onnx;
mod opponent_model;
mod shipped_players;
