//! Matches between players: the arena, Elo and SPRT arithmetic, gauntlets, and the command-line
//! entry points `eval`, `gauntlet` and `play`.

pub mod arena;
pub mod cli;
pub mod elo;
pub mod gauntlet;
pub mod sprt;

pub use arena::{GameEnd, GameReport, MatchConfig, MatchResult, play_game, run_match};
pub use elo::{ScoreEstimate, elo_from_score, score_from_elo};
pub use sprt::{SprtConfig, SprtResult, Verdict};
