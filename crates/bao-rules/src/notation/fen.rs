//! The one-line position format: `Display` for [`Position`] and [`Setup`], `FromStr` for
//! [`Setup`], and [`Position::from_text`], which reads and passes the setup gate.
//!
//! ```text
//! 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22,22 Hh - - 0
//! ```
//!
//! Fields, separated by spaces:
//! 1. the board as seen from South, top to bottom: North's back row `b8..b1`, North's front row
//!    `a8..a1`, South's front row `A1..A8`, South's back row `B1..B8`; seed counts separated by
//!    `,`, rows by `/`;
//! 2. the side to move, `S` or `N`;
//! 3. seeds in store, `south,north`;
//! 4. houses still owned: `H` (South) and `h` (North), `-` for none of them;
//! 5. the mover's pit blocked by takasia (`a4`), or `-`;
//! 6. the opponent's pit the mover must capture (takasia), or `-`;
//! 7. the ply number;
//!
//! then optional `key=value` fields, only when they differ from the default: `hand=N` and
//! `opening=K` (Malawi advanced opening), `mtaji-captured=1`, and `over=S|N|draw/REASON` for a game
//! a move has ended (`REASON`: `front-row-empty`, `no-moves`, `never-ending-move`). `over=` is
//! written so that a finished position can be shown; the setup gate refuses it as input.

use super::parse_pit;
use crate::{EndReason, Outcome, Pit, Position, Row, Rules, Setup, SetupError, Side};
use std::fmt;
use std::str::FromStr;

/// A position string that cannot be read: the text and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad position `{text}`: {kind}")]
pub struct FenError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub kind: FenErrorKind,
}

/// What is wrong with a position string, naming the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenErrorKind {
    /// Too few fields.
    #[error(
        "expected at least 7 fields (board, side, stores, houses, blocked, target, ply), found {0}"
    )]
    FieldCount(usize),
    /// The board does not have four rows.
    #[error("the board has {0} rows separated by `/`; expected 4")]
    RowCount(usize),
    /// A board row without eight pits.
    #[error("board row {row} has {found} pits; expected 8")]
    PitCount {
        /// Row 1..=4, top to bottom.
        row: usize,
        /// Pits found.
        found: usize,
    },
    /// A pit that is not a seed count.
    #[error("board row {row}, pit {pit}: `{text}` is not a seed count (0 to 255)")]
    SeedCount {
        /// Row 1..=4, top to bottom.
        row: usize,
        /// Pit 1..=8, left to right.
        pit: usize,
        /// The text.
        text: String,
    },
    /// The side to move is not `S` or `N`.
    #[error("side to move `{0}` must be S or N")]
    Side(String),
    /// The stores are not two counts.
    #[error("stores `{0}` must be two seed counts, as 22,22")]
    Stores(String),
    /// The houses field is not `Hh`, `H`, `h` or `-`.
    #[error("houses `{0}` must be Hh, H, h or -")]
    Houses(String),
    /// A takasia field that is not a front pit of the right side.
    #[error("{field} `{text}` must be a front pit of {owner} (or -)")]
    Pit {
        /// Which field.
        field: crate::TakasiaField,
        /// The text.
        text: String,
        /// The side it must belong to.
        owner: Side,
    },
    /// The ply is not a number.
    #[error("ply `{0}` is not a number from 0 to 65535")]
    Ply(String),
    /// An extra field that is not `key=value` with a good value.
    #[error(
        "extra field `{0}`: expected hand=N, opening=1..3, mtaji-captured=1 or over=S|N|draw/REASON"
    )]
    Extra(String),
    /// An extra field with an unknown key.
    #[error("unknown extra field `{0}`; known: hand, opening, mtaji-captured, over")]
    UnknownExtra(String),
}

/// Position text that cannot be read, or that describes no position of the rule set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The text cannot be read.
    #[error(transparent)]
    Syntax(#[from] FenError),
    /// The text reads, but the setup gate refuses it (the message is the gate's, on one line).
    #[error("position does not fit the rules: {0}")]
    Invalid(SetupError),
}

impl From<SetupError> for PositionError {
    fn from(e: SetupError) -> PositionError {
        PositionError::Invalid(e)
    }
}

impl Position {
    /// Reads position text and passes it through the setup gate of `rules`.
    pub fn from_text(text: &str, rules: &Rules) -> Result<Position, PositionError> {
        let setup: Setup = text.parse()?;
        Ok(Position::from_setup(setup, rules)?)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_setup().fmt(f)
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |side: Side, row: Row, reversed: bool| {
            let mut v: Vec<String> = (1..=8)
                .map(|n| {
                    self.pits[side.index()][Pit::at(row, n).expect("1..=8").index()].to_string()
                })
                .collect();
            if reversed {
                v.reverse();
            }
            v.join(",")
        };
        write!(
            f,
            "{}/{}/{}/{}",
            row(Side::North, Row::Back, true),
            row(Side::North, Row::Front, true),
            row(Side::South, Row::Front, false),
            row(Side::South, Row::Back, false)
        )?;
        let houses = match (self.house[0], self.house[1]) {
            (true, true) => "Hh",
            (true, false) => "H",
            (false, true) => "h",
            (false, false) => "-",
        };
        let mover = self.to_move;
        let pit = |p: Option<Pit>, owner: Side| p.map_or("-".to_string(), |p| p.name(owner));
        write!(
            f,
            " {} {},{} {} {} {} {}",
            mover.letter(),
            self.store[0],
            self.store[1],
            houses,
            pit(self.blocked, mover),
            pit(self.target, mover.opponent()),
            self.ply
        )?;
        if self.hand != 0 {
            write!(f, " hand={}", self.hand)?;
        }
        if self.opening != 0 {
            write!(f, " opening={}", self.opening)?;
        }
        if self.mtaji_captured {
            f.write_str(" mtaji-captured=1")?;
        }
        if let Some(o) = self.over {
            let who = o
                .winner
                .map_or("draw", |s| if s == Side::South { "S" } else { "N" });
            write!(f, " over={who}/{}", o.reason.name())?;
        }
        Ok(())
    }
}

impl FromStr for Setup {
    type Err = FenError;

    fn from_str(text: &str) -> Result<Setup, FenError> {
        parse_setup(text).map_err(|kind| FenError {
            text: text.to_string(),
            kind,
        })
    }
}

/// Reads the seven fields and the optional `key=value` ones, naming the first bad field.
fn parse_setup(text: &str) -> Result<Setup, FenErrorKind> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 7 {
        return Err(FenErrorKind::FieldCount(fields.len()));
    }
    let mut p = Position::EMPTY.to_setup();
    parse_board(fields[0], &mut p)?;
    p.to_move = match fields[1] {
        "S" => Side::South,
        "N" => Side::North,
        other => return Err(FenErrorKind::Side(other.to_string())),
    };
    let stores: Vec<&str> = fields[2].split(',').collect();
    if stores.len() != 2 {
        return Err(FenErrorKind::Stores(fields[2].to_string()));
    }
    for (i, s) in stores.iter().enumerate() {
        p.store[i] = s
            .parse()
            .map_err(|_| FenErrorKind::Stores(fields[2].to_string()))?;
    }
    p.house = match fields[3] {
        "Hh" => [true, true],
        "H" => [true, false],
        "h" => [false, true],
        "-" => [false, false],
        other => return Err(FenErrorKind::Houses(other.to_string())),
    };
    let blocked = crate::TakasiaField::Blocked;
    p.blocked = parse_takasia_pit(fields[4], p.to_move, blocked)?;
    let target = crate::TakasiaField::Target;
    p.target = parse_takasia_pit(fields[5], p.to_move.opponent(), target)?;
    p.ply = fields[6]
        .parse()
        .map_err(|_| FenErrorKind::Ply(fields[6].to_string()))?;
    for extra in &fields[7..] {
        parse_extra(extra, &mut p)?;
    }
    Ok(p)
}

/// Reads the board field, four rows of eight seed counts as seen from South, into `p`.
fn parse_board(board: &str, p: &mut Setup) -> Result<(), FenErrorKind> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 4 {
        return Err(FenErrorKind::RowCount(rows.len()));
    }
    let layout = [
        (Side::North, Row::Back, true),
        (Side::North, Row::Front, true),
        (Side::South, Row::Front, false),
        (Side::South, Row::Back, false),
    ];
    for (i, (&(side, row, reversed), text_row)) in layout.iter().zip(&rows).enumerate() {
        let counts: Vec<&str> = text_row.split(',').collect();
        if counts.len() != 8 {
            return Err(FenErrorKind::PitCount {
                row: i + 1,
                found: counts.len(),
            });
        }
        for (j, c) in counts.iter().enumerate() {
            let n: u8 = c.parse().map_err(|_| FenErrorKind::SeedCount {
                row: i + 1,
                pit: j + 1,
                text: c.to_string(),
            })?;
            let number = if reversed { 8 - j as u8 } else { j as u8 + 1 };
            p.pits[side.index()][Pit::at(row, number).expect("1..=8").index()] = n;
        }
    }
    Ok(())
}

/// A takasia pit field: `-`, or a front-row pit of `owner`.
fn parse_takasia_pit(
    text: &str,
    owner: Side,
    field: crate::TakasiaField,
) -> Result<Option<Pit>, FenErrorKind> {
    if text == "-" {
        return Ok(None);
    }
    match parse_pit(text) {
        Some((side, pit)) if side == owner && pit.is_front() => Ok(Some(pit)),
        _ => Err(FenErrorKind::Pit {
            field,
            text: text.to_string(),
            owner,
        }),
    }
}

/// Reads one optional `key=value` field into `p`.
fn parse_extra(extra: &str, p: &mut Setup) -> Result<(), FenErrorKind> {
    let bad = || FenErrorKind::Extra(extra.to_string());
    let (key, value) = extra.split_once('=').ok_or_else(bad)?;
    let number = || value.parse::<u8>().map_err(|_| bad());
    match key {
        "hand" => p.hand = number()?,
        "opening" if (1..=3).contains(&number()?) => p.opening = number()?,
        "mtaji-captured" if value == "1" => p.mtaji_captured = true,
        "over" => p.over = Some(parse_over(value).ok_or_else(bad)?),
        "opening" | "mtaji-captured" => return Err(bad()),
        _ => return Err(FenErrorKind::UnknownExtra(extra.to_string())),
    }
    Ok(())
}

fn parse_over(v: &str) -> Option<Outcome> {
    let (who, reason) = v.split_once('/')?;
    let winner = match who {
        "S" => Some(Side::South),
        "N" => Some(Side::North),
        "draw" => None,
        _ => return None,
    };
    Some(Outcome {
        winner,
        reason: EndReason::from_name(reason)?,
    })
}
