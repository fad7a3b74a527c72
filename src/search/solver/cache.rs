//! Solved positions on disk: one small file per (rule set, position) in a folder
//! (`checkpoints/solved/` by default), so that solving the same position again is instant.
//!
//! A file is a header line, `bao-solve-cache 2`, then one JSON object: the rule set's fingerprint,
//! the position's Zobrist hash and text, the [`Solution`] and, if they were asked for, the values
//! of every move. Version 2 came with the rule that ends a never-ending move after 100,000 seeds
//! sown (before, a safety net of 10^8): a proof made under the old bound may not hold under the
//! new one, so files of version 1 are refused like any other, and solved again.
//!
//! Only regular files are read, with a bound (a FIFO or a device at an entry's name is refused at
//! once), and nothing read is trusted: an entry is refused unless its best move and principal
//! variation are legal in the position, its moves are exactly the position's legal moves, its
//! value is the best of its moves' values (and that of its best move), and it agrees with the
//! entries of its moves' positions where the cache has them. A refused entry is a one-line error
//! (the caller then solves again and writes a good file over it).
//!
//! Writes are atomic and, within one cache folder, one at a time (a lock file, `.lock`, held while
//! the entry is read and written): a write keeps what is there, so a solve without the moves'
//! values never replaces an entry that has them, however two solves of one position interleave.
//!
//! A position the solver gave up on gets a file of its own beside it (`.unproven`, the same header,
//! then [`GaveUp`]), so that a caller with no more time than was spent need not try again.

use super::{MoveValue, Solution, Value};
use crate::rules::{Move, MoveList, Position, Rules};
use anyhow::{Context, bail, ensure};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The first line of every cache file.
pub const HEADER: &str = "bao-solve-cache 2";
/// The header of the files older versions wrote (their proofs are not read).
const OLD_HEADER: &str = "bao-solve-cache 1";
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
pub(crate) fn rules_fingerprint(rules: &Rules) -> String {
    let json = serde_json::to_vec(rules).expect("a rule set serialises");
    format!("{:016x}", crate::util::hash::fnv1a(&json))
}

/// The position's Zobrist hash as the files write it.
fn hash_hex(pos: &Position) -> String {
    format!("{:016x}", crate::search::zobrist::hash(pos))
}

/// Writes `entry` under the header line, atomically.
fn write_entry(path: &Path, entry: &impl Serialize) -> anyhow::Result<()> {
    let body = serde_json::to_string_pretty(entry).context("cache entry as JSON")?;
    crate::util::fs::write_atomic(path, format!("{HEADER}\n{body}\n").as_bytes())
}

/// The file of `pos` under `rules` in `dir`.
pub fn path_for(dir: &Path, rules: &Rules, pos: &Position) -> PathBuf {
    dir.join(format!(
        "{}-{}.json",
        rules_fingerprint(rules),
        hash_hex(pos)
    ))
}

/// The text of the cache file at `path` (regular files only, bounded); `Ok(None)` when there is
/// none.
pub(super) fn read_file(path: &Path) -> anyhow::Result<Option<String>> {
    match crate::util::fs::read_regular_bounded(path, MAX_BYTES, "solver cache file") {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| anyhow::anyhow!("solver cache file {} is not text", path.display())),
        Err(e) if crate::util::fs::is_not_found(&e) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The JSON body of a cache file's text, after its header line.
pub(super) fn body<'a>(path: &Path, text: &'a str) -> anyhow::Result<&'a str> {
    let (header, body) = text.split_once('\n').unwrap_or((text, ""));
    match header.trim_end() {
        HEADER => Ok(body),
        OLD_HEADER => bail!(
            "solver cache file {} was written by an older bao (`{OLD_HEADER}`, proven under \
             other rules for never-ending moves)",
            path.display()
        ),
        _ => bail!(
            "solver cache file {} does not start with `{HEADER}`: not a cache file of this version",
            path.display()
        ),
    }
}

/// The entry at `path`, if it is a cache file of `pos` under `rules` (not checked further).
fn read_entry(path: &Path, rules: &Rules, pos: &Position) -> anyhow::Result<Option<Cached>> {
    let Some(text) = read_file(path)? else {
        return Ok(None);
    };
    let cached: Cached = serde_json::from_str(body(path, &text)?)
        .map_err(|e| anyhow::anyhow!("solver cache file {} is corrupt: {e}", path.display()))?;
    if cached.rules != rules_fingerprint(rules) || cached.hash != hash_hex(pos) {
        bail!(
            "solver cache file {} belongs to another game or position",
            path.display()
        );
    }
    Ok(Some(cached))
}

/// Reads the cached result of `pos`: `Ok(None)` when there is no file, an error (one line) when
/// the file is not a cache file of this rule set and position, or says what cannot be true of it
/// (see the module docs).
pub fn load(dir: &Path, rules: &Rules, pos: &Position) -> anyhow::Result<Option<Cached>> {
    let path = path_for(dir, rules, pos);
    let Some(cached) = read_entry(&path, rules, pos)? else {
        return Ok(None);
    };
    check(&cached, rules, pos, Some(dir))
        .map_err(|why| anyhow::anyhow!("solver cache file {} is wrong: {why}", path.display()))?;
    Ok(Some(cached))
}

/// The best of some values for the side that chooses among them.
fn best_of(values: impl Iterator<Item = Value>) -> Option<Value> {
    let rank = |v: &Value| match v {
        Value::Loss => 0,
        Value::Draw => 1,
        Value::Win => 2,
    };
    values.max_by_key(rank)
}

/// Whether `entry` can be the result of `pos`: see the module docs. `dir`, when given, is the
/// cache whose entries of the moves' positions it must agree with.
fn check(entry: &Cached, rules: &Rules, pos: &Position, dir: Option<&Path>) -> anyhow::Result<()> {
    let s = &entry.solution;
    let mover = pos.side_to_move();
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    if let Some(end) = pos.outcome_given(&list) {
        ensure!(s.best.is_none(), "a best move in a finished game");
        ensure!(
            s.value.winner(mover) == end.winner,
            "the value {} in a finished game that {end}",
            s.value
        );
        return Ok(());
    }
    let best = s.best.context("no best move")?;
    ensure!(list.moves().contains(&best), "its best move is not legal");
    let mut at = *pos;
    for &mv in &s.pv {
        at = at
            .play(rules, mv)
            .ok()
            .context("its line holds an illegal move")?;
    }
    ensure!(
        s.pv.first().is_none_or(|&m| m == best),
        "its line does not start with its best move"
    );
    let mut valued: Vec<(Move, Value)> = vec![(best, s.value)];
    if let Some(moves) = &entry.moves {
        let listed: Vec<Move> = moves.iter().map(|m| m.mv).collect();
        ensure!(
            listed == list.moves(),
            "its moves are not the position's legal moves"
        );
        for m in moves {
            ensure!(
                (m.value == Value::Draw) == (m.length == 0),
                "a move's proof length does not fit its value"
            );
        }
        ensure!(
            best_of(moves.iter().map(|m| m.value)) == Some(s.value),
            "its value {} is not the best of its moves' values",
            s.value
        );
        valued = moves.iter().map(|m| (m.mv, m.value)).collect();
        let of_best = moves.iter().find(|m| m.mv == best).map(|m| m.value);
        ensure!(
            of_best == Some(s.value),
            "its best move does not reach its value"
        );
    }
    match dir {
        Some(dir) => agrees_with_moves(dir, rules, pos, &valued),
        None => Ok(()),
    }
}

/// Whether the cache's entries of the positions after `valued` moves (where it has readable ones)
/// give each move the value it is said to have for the mover.
fn agrees_with_moves(
    dir: &Path,
    rules: &Rules,
    pos: &Position,
    valued: &[(Move, Value)],
) -> anyhow::Result<()> {
    for &(mv, value) in valued {
        let Ok(child) = pos.play(rules, mv) else {
            bail!("a move that cannot be played");
        };
        let path = path_for(dir, rules, &child);
        // An entry that cannot be read is no evidence either way.
        let Ok(Some(entry)) = read_entry(&path, rules, &child) else {
            continue;
        };
        let v = entry.solution.value;
        let for_mover = if child.side_to_move() == pos.side_to_move() {
            v
        } else {
            v.flip()
        };
        ensure!(
            for_mover == value,
            "a move it values {value} leads to a position that {} holds as {v} for its mover",
            path.display()
        );
    }
    Ok(())
}

/// What an `.unproven` file holds: the solver ran out of time on a position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct GaveUp {
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
    let text = read_file(&path).ok()??;
    let record: GaveUp = serde_json::from_str(body(&path, &text).ok()?).ok()?;
    let hash = hash_hex(pos);
    (record.rules == rules_fingerprint(rules) && record.hash == hash).then_some(record.seconds)
}

/// Holds the cache folder's lock (`dir/.lock`) while `body` runs, so that a write reads and
/// replaces an entry with no other write in between (across processes too).
fn locked<T>(dir: &Path, body: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(".lock");
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true);
    // Non-blocking and not through a link: a FIFO or a symbolic link put at the lock's name is
    // refused at once, never waited on or followed.
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let lock = (options.open(&path))
        .with_context(|| format!("cannot open the cache's lock {}", path.display()))?;
    ensure!(
        lock.metadata().is_ok_and(|m| m.is_file()),
        "the cache's lock {} is not a regular file",
        path.display()
    );
    lock.lock()
        .with_context(|| format!("cannot lock {}", path.display()))?;
    // The lock ends when the file is closed, whatever `body` returns.
    body()
}

/// Records (atomically) that the solver gave up on `pos` after `seconds`, unless it is already
/// known to have failed with as much time.
pub fn store_gave_up(
    dir: &Path,
    rules: &Rules,
    pos: &Position,
    seconds: f64,
) -> anyhow::Result<()> {
    locked(dir, || {
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
    })
}

/// Writes the result of `pos` (atomically, under the cache's lock); returns the file's path. What
/// is there is kept: a result without the moves' values takes them from a sound entry of the same
/// value already there.
pub fn store(
    dir: &Path,
    rules: &Rules,
    pos: &Position,
    solution: &Solution,
    moves: Option<&[MoveValue]>,
) -> anyhow::Result<PathBuf> {
    let path = path_for(dir, rules, pos);
    crate::util::fs::check_output_path(&path)?;
    let mut cached = Cached {
        rules: rules_fingerprint(rules),
        hash: hash_hex(pos),
        position: pos.to_string(),
        solution: solution.clone(),
        moves: moves.map(<[MoveValue]>::to_vec),
    };
    locked(dir, || {
        if cached.moves.is_none()
            && let Ok(Some(there)) = load(dir, rules, pos)
            && there.solution.value == solution.value
            && there.moves.is_some()
        {
            cached = Cached {
                solution: solution.clone(),
                ..there
            };
        }
        write_entry(&path, &cached)
    })?;
    Ok(path)
}
