//! The wins a solver cache folder proves ([`ProvenWins`]), read once for the best-response search:
//! a position where one side is proven to win whatever the other does is won by that side against
//! any opponent, a victim included, within the plies of the proof. Nothing else in the cache says
//! anything about a victim (a draw or a loss under perfect play may still be won against one), so
//! only the wins are kept.

use super::Value;
use super::cache::{Cached, body, load, path_for, read_file, rules_fingerprint};
use crate::rules::{Move, Position, Rules, Side};
use crate::search::zobrist;
use std::collections::HashMap;
use std::path::Path;

/// The proven wins of a cache folder's positions of one rule set, by Zobrist hash.
#[derive(Clone, Debug, Default)]
pub struct ProvenWins {
    by_hash: HashMap<u64, ProvenWin>,
}

/// A position's proven win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProvenWin {
    /// The side that wins whatever the other plays.
    pub winner: Side,
    /// The plies within which the proof's strategy ends the game.
    pub plies: u32,
    /// The proof's move, where the winner is to move.
    pub mv: Option<Move>,
}

impl ProvenWins {
    /// The wins of the cache folder `dir` under `rules`: every entry of the rule set that passes
    /// the cache's checks ([`load`]); an entry that does not is no evidence, and is left out. A
    /// folder that does not exist holds none; one that cannot be listed is a one-line error.
    pub fn load(dir: &Path, rules: &Rules) -> anyhow::Result<ProvenWins> {
        let mut by_hash = HashMap::new();
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ProvenWins::default()),
            Err(e) => anyhow::bail!("cannot read the solver cache {}: {e}", dir.display()),
        };
        let prefix = format!("{}-", rules_fingerprint(rules));
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if !(name.starts_with(&prefix) && name.ends_with(".json")) {
                continue;
            }
            if let Some((pos, cached)) = read_checked(dir, &entry.path(), rules) {
                let s = &cached.solution;
                let (winner, mv) = match s.value {
                    Value::Win => (pos.side_to_move(), s.best),
                    Value::Loss => (pos.side_to_move().opponent(), None),
                    Value::Draw => continue,
                };
                let plies = s.length;
                by_hash.insert(zobrist::hash(&pos), ProvenWin { winner, plies, mv });
            }
        }
        Ok(ProvenWins { by_hash })
    }

    /// The win of `winner` from `pos` whatever the other side plays, if the cache proves it.
    pub fn win_of(&self, pos: &Position, winner: Side) -> Option<ProvenWin> {
        if self.by_hash.is_empty() {
            return None;
        }
        let win = self.by_hash.get(&zobrist::hash(pos))?;
        (win.winner == winner).then_some(*win)
    }

    /// Positions with a proven win.
    pub fn len(&self) -> usize {
        self.by_hash.len()
    }

    /// Whether none is known.
    pub fn is_empty(&self) -> bool {
        self.by_hash.is_empty()
    }
}

/// The position of the cache file at `path` and its entry, if the file is a cache file of this
/// version whose position reads under `rules` and whose entry passes the cache's checks.
fn read_checked(dir: &Path, path: &Path, rules: &Rules) -> Option<(Position, Cached)> {
    let text = read_file(path).ok()??;
    let cached: Cached = serde_json::from_str(body(path, &text).ok()?).ok()?;
    let pos = Position::from_text(&cached.position, rules).ok()?;
    // `load` finds the file again by the position's hash: a file under another name is not it.
    let checked = load(dir, rules, &pos).ok()??;
    (path_for(dir, rules, &pos) == path).then_some((pos, checked))
}
