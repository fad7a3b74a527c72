//! The player file: a trained player in one versioned file, and where the shipped ones are.
//!
//! Layout of a `.bao` player file: the magic line `BAOZERO-PLAYER\n`, the format version (u32
//! little-endian), a JSON header (u64 length, then the text: variant, full rule options, network
//! config, the search settings it plays with, training metadata), the network weights (u64 length, then burnpack
//! bytes, f16 or f32), and an FNV-1a checksum (u64) of everything before it. Loading checks each part and says
//! what is wrong with a damaged, truncated, foreign or mismatched file.
//!
//! The format sits right above the network: training reads a player file's weights (`init_from`)
//! and the export, the network player kinds and the Python package build on it.

#[cfg(feature = "ml")]
mod format;
mod shipped;
#[cfg(feature = "ml")]
mod training;

#[cfg(feature = "ml")]
pub use format::{Bundle, FORMAT_VERSION, Header};
pub use shipped::{default_player_spec, shipped_player, shipped_player_path};
#[cfg(feature = "ml")]
pub use training::{EvalEntry, Meta};
