//! Where the project ships the trained player of each game, and the default player it makes.

use crate::players::options::AbSpec;
use crate::players::{PlayerSpec, SolverSpec};
use crate::rules::Variant;
use crate::search::solver::SOLVED_GAMES;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where the project ships the trained player of a game: `checkpoints/shipped/<variant>.bao`.
pub fn shipped_player_path(variant: &str) -> PathBuf {
    PathBuf::from(format!("checkpoints/shipped/{variant}.bao"))
}

/// The shipped player of `variant` (a preset name such as `kiswahili` or `hus`), if there is
/// one: under the current folder, or else in the checkout this library was built from.
pub fn shipped_player(variant: &str) -> Option<PathBuf> {
    let relative = shipped_player_path(variant);
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(&relative);
    [relative, built].into_iter().find(|p| p.is_file())
}

/// The time a move the default player of a solved game gives the solver before its other player
/// answers.
const DEFAULT_SOLVER_TIME: Duration = Duration::from_secs(1);

/// The spec of `variant`'s default player, the one `bao play` and `bao engine` play: its shipped
/// player when the program can load player files (`player_files`) and one is shipped, else
/// alpha-beta; in a game the solver proves from the start ([`SOLVED_GAMES`]), the perfect player
/// first, that player answering only where the solver proves nothing within a second.
pub fn default_player_spec(variant: Variant, player_files: bool) -> PlayerSpec {
    let shipped = shipped_player(variant.name()).filter(|_| player_files);
    let trained = match shipped {
        Some(file) => PlayerSpec::File(file),
        None => PlayerSpec::AlphaBeta(AbSpec::default()),
    };
    match SOLVED_GAMES.contains(&variant) {
        true => PlayerSpec::Solver(SolverSpec::with_fallback(DEFAULT_SOLVER_TIME, trained)),
        false => trained,
    }
}
