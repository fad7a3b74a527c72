//! KIBA algebraic notation: moves, the one-line position format, game records, board diagrams.
//!
//! A move names the mover's start pit (`A3`; South uses `A`/`B`, North `a`/`b`), the direction of
//! the hand (`<` toward the player's left, `>` toward the right), and `+` when the player plays the
//! house. In a planting-stage capture, `<`/`>` name the left/right kichwa the captured seeds are
//! sown from. Markers `*` (takata), `**` (takasia) and `#` (winning move) are accepted and ignored.
//! The row letter may be left out in the planting stage, and the direction where only one is legal.
//! Malawi advanced opening actions have no direction: `@B3` places one seed in B3, and `xA4`
//! (North only) captures South's hole A4.

mod diagram;
mod fen;
mod record;

pub use diagram::Diagram;
pub use fen::{FenError, FenErrorKind, PositionError};
pub use record::{Record, RecordError, split_records};

pub use crate::moves::MoveText;
use crate::{Dir, Move, MoveKind, MoveList, Pit, Position, Row, Rules, Side};

/// A move as written, before it is matched against the legal moves: parts may be missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveSpec {
    /// The kind of action.
    pub kind: MoveKind,
    /// Row, if written.
    pub row: Option<Row>,
    /// Pit number 1..=8.
    pub number: u8,
    /// Direction, if written.
    pub dir: Option<Dir>,
    /// `+` written.
    pub house: bool,
}

/// A move that could not be read or is not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not KIBA move syntax.
    #[error("cannot read move `{text}`: {why}")]
    Syntax { text: String, why: String },
    /// A pit of the wrong player.
    #[error("move `{text}` names a pit of {owner}, but {mover} is to move")]
    WrongSide {
        text: String,
        owner: Side,
        mover: Side,
    },
    /// No legal move matches.
    #[error("illegal move `{text}` for {side}; legal moves: {legal}")]
    Illegal {
        text: String,
        side: Side,
        legal: String,
    },
    /// More than one legal move matches (a part was left out that is needed).
    #[error("ambiguous move `{text}`: it could be {candidates}")]
    Ambiguous { text: String, candidates: String },
    /// The game is already over.
    #[error("move `{text}` after the end of the game")]
    GameOver { text: String },
}

impl MoveSpec {
    /// Reads a move as written by `mover`.
    pub fn parse(text: &str, mover: Side) -> Result<MoveSpec, MoveError> {
        let syntax = |why: &str| MoveError::Syntax {
            text: text.to_string(),
            why: why.to_string(),
        };
        let mut s = text.trim();
        if s.is_empty() {
            return Err(syntax("empty move"));
        }
        // Markers at the end: `#`, `*`, `**`, in any order.
        s = s.trim_end_matches(['#', '*']);
        let (kind, body) = if let Some(rest) = s.strip_prefix('@') {
            (MoveKind::Place, rest)
        } else if let Some(rest) = s.strip_prefix(['x', 'X']).filter(|r| !r.is_empty()) {
            (MoveKind::OpeningCapture, rest)
        } else {
            (MoveKind::Sow, s)
        };
        let mut chars = body.chars().peekable();
        let mut row = None;
        let mut letter_side = None;
        if let Some(&c) = chars.peek() {
            let found = match c {
                'A' => Some((Row::Front, Side::South)),
                'B' => Some((Row::Back, Side::South)),
                'a' => Some((Row::Front, Side::North)),
                'b' => Some((Row::Back, Side::North)),
                _ => None,
            };
            if let Some((r, side)) = found {
                row = Some(r);
                letter_side = Some(side);
                chars.next();
            }
        }
        let number = match chars.next() {
            Some(c @ '1'..='8') => c as u8 - b'0',
            Some(c) if c.is_ascii_digit() => return Err(syntax("pit numbers run from 1 to 8")),
            _ => return Err(syntax("expected a pit such as A3 or a6")),
        };
        let mut dir = None;
        let mut house = false;
        for c in chars {
            match c {
                '<' | '>' if dir.is_none() && !house && kind == MoveKind::Sow => {
                    dir = Some(if c == '<' { Dir::Left } else { Dir::Right })
                }
                '+' if !house && kind == MoveKind::Sow => house = true,
                _ => return Err(syntax(&format!("unexpected `{c}`"))),
            }
        }
        // An opening capture names the opponent's hole; everything else the mover's own pit.
        let owner = if kind == MoveKind::OpeningCapture {
            mover.opponent()
        } else {
            mover
        };
        if let Some(side) = letter_side
            && side != owner
        {
            return Err(MoveError::WrongSide {
                text: text.to_string(),
                owner: side,
                mover,
            });
        }
        if kind != MoveKind::Sow && row.is_none() {
            return Err(syntax("an opening action names its row, as in @B3 or xA4"));
        }
        if kind == MoveKind::OpeningCapture && row != Some(Row::Front) {
            return Err(syntax("an opening capture takes a front-row hole"));
        }
        Ok(MoveSpec {
            kind,
            row,
            number,
            dir,
            house,
        })
    }

    /// Whether `mv` fits what was written.
    pub fn matches(&self, mv: Move) -> bool {
        if mv.kind != self.kind {
            return false;
        }
        // An opening capture is written as the hole it takes, facing the mover's pit; only a
        // front-row pit faces anything, so the row is checked before the opposite pit is taken.
        let pit = match self.kind {
            MoveKind::OpeningCapture if !mv.pit.is_front() => return false,
            MoveKind::OpeningCapture => mv.pit.opposite(),
            _ => mv.pit,
        };
        pit.number() == self.number
            && self.row.is_none_or(|r| r == pit.row())
            && self.dir.is_none_or(|d| d == mv.dir)
            && mv.house == self.house
    }

    /// The one legal move that fits, from a generated list.
    pub fn resolve(&self, text: &str, pos: &Position, list: &MoveList) -> Result<Move, MoveError> {
        let side = pos.side_to_move();
        let fits: Vec<Move> = list
            .moves()
            .iter()
            .copied()
            .filter(|&m| self.matches(m))
            .collect();
        match fits.as_slice() {
            [mv] => Ok(*mv),
            [] if list.is_empty() => Err(MoveError::GameOver {
                text: text.to_string(),
            }),
            [] => Err(MoveError::Illegal {
                text: text.to_string(),
                side,
                legal: legal_strings(list, side).join(" "),
            }),
            many => Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: many
                    .iter()
                    .map(|&mv| MoveText { mv, side }.to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
            }),
        }
    }
}

/// The legal moves in canonical notation, sorted by string.
pub fn legal_strings(list: &MoveList, side: Side) -> Vec<String> {
    sorted_texts(list.moves(), side)
}

/// Moves in canonical notation, sorted by string.
fn sorted_texts(moves: &[Move], side: Side) -> Vec<String> {
    let mut v: Vec<String> = moves
        .iter()
        .map(|&mv| MoveText { mv, side }.to_string())
        .collect();
    v.sort();
    v
}

/// Moves in canonical notation, sorted and joined by spaces (for error messages).
pub(crate) fn legal_moves_text(moves: &[Move], side: Side) -> String {
    sorted_texts(moves, side).join(" ")
}

/// Reads `text` as a move in `pos` and returns it with the position it leads to.
pub fn parse_and_play(
    rules: &Rules,
    pos: &Position,
    text: &str,
) -> Result<(Move, Position), MoveError> {
    let spec = MoveSpec::parse(text, pos.side_to_move())?;
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    if list.is_empty() {
        return Err(MoveError::GameOver {
            text: text.to_string(),
        });
    }
    let mv = spec.resolve(text, pos, &list)?;
    let child = *list.find(mv).expect("resolved from the list");
    Ok((mv, child))
}

/// A line of play (a principal variation) from `pos`, each move written for its own mover;
/// stops at the first move that is not legal.
pub fn line_text(rules: &Rules, pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        let side = p.side_to_move();
        match p.play(rules, mv) {
            Ok(next) => p = next,
            Err(_) => break,
        }
        out.push(move_text(mv, side));
    }
    out
}

/// Writes a move for `side`.
pub fn move_text(mv: Move, side: Side) -> String {
    MoveText { mv, side }.to_string()
}

/// The mover's pit named `A3`/`b7` etc. (for the position format and diagrams).
pub(crate) fn parse_pit(text: &str) -> Option<(Side, Pit)> {
    let mut c = text.chars();
    let (row, side) = match c.next()? {
        'A' => (Row::Front, Side::South),
        'B' => (Row::Back, Side::South),
        'a' => (Row::Front, Side::North),
        'b' => (Row::Back, Side::North),
        _ => return None,
    };
    let n = c.next()?.to_digit(10)? as u8;
    if c.next().is_some() {
        return None;
    }
    Some((side, Pit::at(row, n)?))
}
