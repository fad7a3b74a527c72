//! Matches between players: the arena, Elo and SPRT arithmetic, gauntlets. The command-line
//! entry points `eval`, `gauntlet` and `pool` are in src/cli/eval_cmds.rs, `play` in
//! src/cli/play_cmd.rs.

pub mod arena;
pub mod elo;
pub mod exact;
pub mod gauntlet;
pub mod kept;
pub mod match_result;
pub mod perfect;
pub mod pool;
pub mod sprt;

pub use arena::{GameEnd, GameReport, MatchConfig, MatchResult, play_game, run_match};
pub use elo::{ScoreEstimate, elo_from_score, score_from_elo};
pub use kept::KeptPlayers;
pub use sprt::{SprtConfig, SprtResult, Verdict};
