//! The engine-level and command-line tests: the environment, the searches and the solver, the
//! arena and judge, the engine protocol's inputs, the command line and the web server's guards.
//!
//! One test binary for these files (each a module), so that the suite links a few binaries,
//! not one per file.

// Each binary uses a part of what the test files share.
#[allow(dead_code)]
#[path = "../common/mod.rs"]
mod common;
#[path = "../serve_common/mod.rs"]
mod serve_common;
#[path = "../common/solver.rs"]
mod small_solver;

mod arena;
mod cli;
mod engine_client;
mod env;
mod env_episodes;
mod judge;
mod layers;
mod one_game;
mod protocol_inputs;
mod python_reference;
mod repeats;
mod search;
mod serve_guard;
mod serve_state;
mod solver;
mod solver_cache;
