//! Where the project ships the trained player of each game.

use std::path::{Path, PathBuf};

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
