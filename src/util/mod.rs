//! Small helpers shared by every stage, at the bottom of the layers, by concern: files (atomic
//! writes, bounded reads), the range checks of configs and files, hashing (SplitMix64, FNV-1a),
//! medians.

pub mod check;
pub mod fs;
pub mod hash;
pub mod stats;
