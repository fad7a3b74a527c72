//! Game records in the style of seed 003: tag lines, then one line per move pair.
//!
//! ```text
//! [Variant "kiswahili"]
//! [Result "S front-row-empty"]
//! 1: A6< a5>;
//! 2: A3> a6<; a comment
//! ```
//!
//! Each line is `N: south north;` (the last may lack North's move) with an optional comment after
//! the `;`. A turn of several plies by one player (the Malawi advanced opening) is written with
//! commas: `1: @A1,@A2,@B3,@B3,@B8 xA2,@a1,...;`.

use super::{MoveError, MoveSpec, MoveText};
use crate::{Move, MoveList, Position, Rules, Side};
use std::fmt;
use std::str::FromStr;

/// A game record: tags and the plies grouped into turns, as text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// `[Key "value"]` tags in order.
    pub tags: Vec<(String, String)>,
    /// Turns in order, South's first; each turn is one or more plies by the same player.
    pub turns: Vec<Vec<String>>,
}

/// A record that cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A line that is neither a tag nor a move line.
    #[error("record line {line}: {why}")]
    Syntax { line: usize, why: String },
    /// A move that is not legal when replayed.
    #[error("record move {ply} (turn {turn}): {source}")]
    Move {
        turn: usize,
        ply: usize,
        source: MoveError,
    },
}

impl Record {
    /// The record of `moves` played from `start`.
    pub fn from_game(
        rules: &Rules,
        start: &Position,
        moves: &[Move],
    ) -> Result<Record, RecordError> {
        let mut rec = Record::default();
        let mut pos = *start;
        let mut last_side: Option<Side> = None;
        for (i, &mv) in moves.iter().enumerate() {
            let side = pos.side_to_move();
            let text = MoveText { mv, side }.to_string();
            pos = pos.play(rules, mv).map_err(|e| RecordError::Move {
                turn: rec.turns.len() + 1,
                ply: i + 1,
                source: MoveError::Illegal {
                    text,
                    side,
                    legal: super::legal_moves_text(&e.legal, side),
                },
            })?;
            let text = MoveText { mv, side }.to_string();
            match rec.turns.last_mut() {
                Some(turn) if last_side == Some(side) => turn.push(text),
                _ => rec.turns.push(vec![text]),
            }
            last_side = Some(side);
        }
        Ok(rec)
    }

    /// The value of a tag.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets (or adds) a tag.
    pub fn set_tag(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == key) {
            Some(t) => t.1 = value,
            None => self.tags.push((key.to_string(), value)),
        }
    }

    /// Replays the record from `start`: the moves and every position (the first is `start`).
    pub fn replay(
        &self,
        rules: &Rules,
        start: &Position,
    ) -> Result<(Vec<Move>, Vec<Position>), RecordError> {
        let mut positions = vec![*start];
        let mut moves = Vec::new();
        let mut list = MoveList::new();
        for (t, turn) in self.turns.iter().enumerate() {
            for text in turn {
                let pos = *positions.last().expect("starts non-empty");
                let err = |source| RecordError::Move {
                    turn: t + 1,
                    ply: moves.len() + 1,
                    source,
                };
                let spec = MoveSpec::parse(text, pos.side_to_move()).map_err(err)?;
                pos.legal_moves(rules, &mut list);
                let mv = spec.resolve(text, &pos, &list).map_err(err)?;
                moves.push(mv);
                positions.push(*list.find(mv).expect("resolved from the list"));
            }
        }
        Ok((moves, positions))
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.tags {
            writeln!(f, "[{k} \"{}\"]", v.replace('"', "'"))?;
        }
        for (i, pair) in self.turns.chunks(2).enumerate() {
            let turns: Vec<String> = pair.iter().map(|t| t.join(",")).collect();
            writeln!(f, "{}: {};", i + 1, turns.join(" "))?;
        }
        Ok(())
    }
}

impl FromStr for Record {
    type Err = RecordError;

    fn from_str(text: &str) -> Result<Record, RecordError> {
        let mut rec = Record::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let syntax = |why: &str| RecordError::Syntax {
                line: i + 1,
                why: why.to_string(),
            };
            if line.is_empty() {
                continue;
            }
            if let Some(tag) = line.strip_prefix('[') {
                let tag = tag
                    .strip_suffix(']')
                    .ok_or_else(|| syntax("a tag ends with ]"))?;
                let (key, value) = tag
                    .split_once(' ')
                    .ok_or_else(|| syntax("a tag is [Key \"value\"]"))?;
                let value = value.trim().trim_matches('"');
                rec.tags.push((key.to_string(), value.to_string()));
                continue;
            }
            // `N: south north; comment` — the number and the `;` are optional.
            let body = line.split_once(';').map_or(line, |(moves, _comment)| moves);
            let body = match body.split_once(':') {
                Some((num, rest)) if num.trim().chars().all(|c| c.is_ascii_digit()) => rest,
                Some(_) => return Err(syntax("a move line starts with its number, as `3:`")),
                None => body,
            };
            for turn in body.split_whitespace() {
                rec.turns.push(
                    turn.split(',')
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect(),
                );
            }
        }
        Ok(rec)
    }
}

/// The records of a file of several, each starting at its first tag line.
pub fn split_records(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut after_tag = false;
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let tag = line.trim_start().starts_with('[');
        if out.is_empty() || (tag && !after_tag) {
            out.push(String::new());
        }
        after_tag = tag;
        if let Some(last) = out.last_mut() {
            last.push_str(line);
            last.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_of_a_file_are_split_at_their_tags() {
        let text = "[Variant \"hus\"]\n[Result \"S\"]\n1: A6< a5>;\n\n[Variant \"hus\"]\n1: A3>;\n";
        let recs = split_records(text);
        assert_eq!(recs.len(), 2);
        assert!(recs[0].contains("A6<") && !recs[0].contains("A3>"));
        assert!(recs[1].starts_with("[Variant") && recs[1].contains("A3>"));
    }
}
