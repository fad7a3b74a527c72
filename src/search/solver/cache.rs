//! Solved positions on disk: one small file per (rule set, position) in a folder
//! (`checkpoints/solved/` by default), so that solving the same position again is instant.
//!
//! A file is a header line, `bao-solve-cache 1`, then one JSON object: the rule set's fingerprint,
//! the position's Zobrist hash and text, the [`Solution`] and, if they were asked for, the values
//! of every move. It is written atomically and read with a bound; a file with another header, a
//! fingerprint or hash of another game, or unreadable JSON is refused with a one-line error (the
//! caller then solves again and writes a good file over it).
//!
//! A position the solver gave up on gets a file of its own beside it (`.unproven`, the same header,
//! then [`GaveUp`]), so that a caller with no more time than was spent need not try again.

use super::{MoveValue, Solution};
use crate::rules::{Position, Rules};
use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The first line of every cache file.
pub const HEADER: &str = "bao-solve-cache 1";
/// The default folder.
pub const DEFAULT_DIR: &str = "checkpoints/solved";
/// The largest cache file read (a real one is a few kilobytes).
const MAX_BYTES: u64 = 1 << 20;

/// What a cache file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cached {
    /// [`rules_fingerprint`] of the rule set.
    pub rules: String,
    /// The position's Zobrist hash, in hex.
    pub hash: String,
    /// The position as text (for people; the hash decides).
    pub position: String,
    /// The result.
    pub solution: Solution,
    /// Every move's value, if they were solved.
    pub moves: Option<Vec<MoveValue>>,
}

/// A fingerprint of a rule set: FNV-1a of its JSON form, in hex.
pub fn rules_fingerprint(rules: &Rules) -> String {
    let json = serde_json::to_vec(rules).expect("a rule set serialises");
    format!("{:016x}", crate::util::fnv1a(&json))
}

/// The position's Zobrist hash as the files write it.
fn hash_hex(pos: &Position) -> String {
    format!("{:016x}", crate::search::zobrist::hash(pos))
}

/// Writes `entry` under the header line, atomically.
fn write_entry(path: &Path, entry: &impl Serialize) -> anyhow::Result<()> {
    let body = serde_json::to_string_pretty(entry).context("cache entry as JSON")?;
    crate::util::write_atomic(path, format!("{HEADER}\n{body}\n").as_bytes())
}

/// The file of `pos` under `rules` in `dir`.
pub fn path_for(dir: &Path, rules: &Rules, pos: &Position) -> PathBuf {
    dir.join(format!(
        "{}-{}.json",
        rules_fingerprint(rules),
        hash_hex(pos)
    ))
}

/// Reads the cached result of `pos`: `Ok(None)` when there is no file, an error (one line) when
/// the file is not a cache file of this rule set and position.
pub fn load(dir: &Path, rules: &Rules, pos: &Position) -> anyhow::Result<Option<Cached>> {
    let path = path_for(dir, rules, pos);
    if !path.exists() {
        return Ok(None);
    }
    let text = crate::util::read_text_bounded(&path, MAX_BYTES, "solver cache file")?;
    let (header, body) = text.split_once('\n').unwrap_or((text.as_str(), ""));
    if header.trim_end() != HEADER {
        bail!(
            "solver cache file {} does not start with `{HEADER}`: not a cache file of this version",
            path.display()
        );
    }
    let cached: Cached = serde_json::from_str(body)
        .map_err(|e| anyhow::anyhow!("solver cache file {} is corrupt: {e}", path.display()))?;
    let hash = hash_hex(pos);
    if cached.rules != rules_fingerprint(rules) || cached.hash != hash {
        bail!(
            "solver cache file {} belongs to another game or position",
            path.display()
        );
    }
    Ok(Some(cached))
}

/// What an `.unproven` file holds: the solver ran out of time on a position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaveUp {
    /// [`rules_fingerprint`] of the rule set.
    pub rules: String,
    /// The position's Zobrist hash, in hex.
    pub hash: String,
    /// The position as text (for people; the hash decides).
    pub position: String,
    /// The time the solver was given, in seconds.
    pub seconds: f64,
}

/// The `.unproven` file of `pos` under `rules` in `dir`.
pub fn gave_up_path(dir: &Path, rules: &Rules, pos: &Position) -> PathBuf {
    path_for(dir, rules, pos).with_extension("unproven")
}

/// The most time the solver has been given on `pos` without proving it, if it ever gave up on
/// it; a file that cannot be read, or belongs to another game, counts as none.
pub fn gave_up(dir: &Path, rules: &Rules, pos: &Position) -> Option<f64> {
    let path = gave_up_path(dir, rules, pos);
    let text = crate::util::read_text_bounded(&path, MAX_BYTES, "solver cache file").ok()?;
    let body = text.strip_prefix(HEADER)?.strip_prefix('\n')?;
    let record: GaveUp = serde_json::from_str(body).ok()?;
    let hash = hash_hex(pos);
    (record.rules == rules_fingerprint(rules) && record.hash == hash).then_some(record.seconds)
}

/// Records (atomically) that the solver gave up on `pos` after `seconds`, unless it is already
/// known to have failed with as much time.
pub fn store_gave_up(
    dir: &Path,
    rules: &Rules,
    pos: &Position,
    seconds: f64,
) -> anyhow::Result<()> {
    if gave_up(dir, rules, pos).is_some_and(|s| s >= seconds) {
        return Ok(());
    }
    let record = GaveUp {
        rules: rules_fingerprint(rules),
        hash: hash_hex(pos),
        position: pos.to_string(),
        seconds,
    };
    write_entry(&gave_up_path(dir, rules, pos), &record)
}

/// Writes the result of `pos` (atomically); returns the file's path.
pub fn store(
    dir: &Path,
    rules: &Rules,
    pos: &Position,
    solution: &Solution,
    moves: Option<&[MoveValue]>,
) -> anyhow::Result<PathBuf> {
    let path = path_for(dir, rules, pos);
    let cached = Cached {
        rules: rules_fingerprint(rules),
        hash: hash_hex(pos),
        position: pos.to_string(),
        solution: solution.clone(),
        moves: moves.map(<[MoveValue]>::to_vec),
    };
    write_entry(&path, &cached)?;
    Ok(path)
}
