//! The one-line position format (`Display`/`FromStr` for [`Position`]).
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
//! a move has ended (`REASON`: `front-row-empty`, `no-moves`, `never-ending-move`).

use super::parse_pit;
use crate::rules::{EndReason, Outcome, Pit, Position, Row, Side};
use std::fmt;
use std::str::FromStr;

/// A position string that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad position `{text}`: {why}")]
pub struct FenError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub why: String,
}

fn reason_name(r: EndReason) -> &'static str {
    match r {
        EndReason::FrontRowEmpty => "front-row-empty",
        EndReason::NoMoves => "no-moves",
        EndReason::NeverEndingMove => "never-ending-move",
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |side: Side, row: Row, reversed: bool| {
            let mut v: Vec<String> = (1..=8)
                .map(|n| {
                    self.seeds(side, Pit::at(row, n).expect("1..=8"))
                        .to_string()
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
        let houses = match (self.house_owned(Side::South), self.house_owned(Side::North)) {
            (true, true) => "Hh",
            (true, false) => "H",
            (false, true) => "h",
            (false, false) => "-",
        };
        let mover = self.side_to_move();
        let pit = |p: Option<Pit>, owner: Side| p.map_or("-".to_string(), |p| p.name(owner));
        write!(
            f,
            " {} {},{} {} {} {} {}",
            mover.letter(),
            self.store(Side::South),
            self.store(Side::North),
            houses,
            pit(self.blocked(), mover),
            pit(self.target(), mover.opponent()),
            self.ply()
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
        if let Some(o) = self.result {
            let who = o
                .winner
                .map_or("draw", |s| if s == Side::South { "S" } else { "N" });
            write!(f, " over={who}/{}", reason_name(o.reason))?;
        }
        Ok(())
    }
}

impl FromStr for Position {
    type Err = FenError;

    fn from_str(text: &str) -> Result<Position, FenError> {
        let err = |why: String| FenError {
            text: text.to_string(),
            why,
        };
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 7 {
            return Err(err(format!(
                "expected at least 7 fields (board, side, stores, houses, blocked, target, ply), found {}",
                fields.len()
            )));
        }
        let mut p = Position::EMPTY;
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 4 {
            return Err(err(format!(
                "the board has {} rows separated by `/`; expected 4",
                rows.len()
            )));
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
                return Err(err(format!(
                    "board row {} has {} pits; expected 8",
                    i + 1,
                    counts.len()
                )));
            }
            for (j, c) in counts.iter().enumerate() {
                let n: u8 = c.parse().map_err(|_| {
                    err(format!(
                        "board row {}, pit {}: `{c}` is not a seed count",
                        i + 1,
                        j + 1
                    ))
                })?;
                let number = if reversed { 8 - j as u8 } else { j as u8 + 1 };
                p.pits[side.index()][Pit::at(row, number).expect("1..=8").index()] = n;
            }
        }
        p.to_move = match fields[1] {
            "S" => Side::South,
            "N" => Side::North,
            other => return Err(err(format!("side to move `{other}` must be S or N"))),
        };
        let stores: Vec<&str> = fields[2].split(',').collect();
        if stores.len() != 2 {
            return Err(err(format!(
                "stores `{}` must be two counts, as 22,22",
                fields[2]
            )));
        }
        for (i, s) in stores.iter().enumerate() {
            p.store[i] = s
                .parse()
                .map_err(|_| err(format!("store `{s}` is not a seed count")))?;
        }
        p.house = match fields[3] {
            "Hh" => [true, true],
            "H" => [true, false],
            "h" => [false, true],
            "-" => [false, false],
            other => return Err(err(format!("houses `{other}` must be Hh, H, h or -"))),
        };
        let pit_field = |f: &str, owner: Side, what: &str| -> Result<Option<Pit>, FenError> {
            if f == "-" {
                return Ok(None);
            }
            match parse_pit(f) {
                Some((side, pit)) if side == owner && pit.is_front() => Ok(Some(pit)),
                _ => Err(err(format!(
                    "{what} `{f}` must be a front pit of {owner} (or -)"
                ))),
            }
        };
        p.blocked = pit_field(fields[4], p.to_move, "blocked pit")?;
        p.target = pit_field(fields[5], p.to_move.opponent(), "takasia target")?;
        p.ply = fields[6]
            .parse()
            .map_err(|_| err(format!("ply `{}` is not a number", fields[6])))?;
        for extra in &fields[7..] {
            let (key, value) = extra
                .split_once('=')
                .ok_or_else(|| err(format!("extra field `{extra}` must be key=value")))?;
            let number = || {
                value
                    .parse::<u8>()
                    .map_err(|_| err(format!("`{extra}`: not a number")))
            };
            match key {
                "hand" => p.hand = number()?,
                "opening" if number()? <= 3 => p.opening = number()?,
                "mtaji-captured" if value == "1" => p.mtaji_captured = true,
                "over" => {
                    p.result =
                        Some(parse_over(value).ok_or_else(|| {
                            err(format!("`{extra}`: expected over=S|N|draw/REASON"))
                        })?)
                }
                _ => return Err(err(format!("unknown extra field `{extra}`"))),
            }
        }
        Ok(p)
    }
}

fn parse_over(v: &str) -> Option<Outcome> {
    let (who, reason) = v.split_once('/')?;
    let winner = match who {
        "S" => Some(Side::South),
        "N" => Some(Side::North),
        "draw" => None,
        _ => return None,
    };
    let reason = [
        EndReason::FrontRowEmpty,
        EndReason::NoMoves,
        EndReason::NeverEndingMove,
    ]
    .into_iter()
    .find(|&r| reason_name(r) == reason)?;
    Some(Outcome { winner, reason })
}

impl Position {
    /// Checks a position (read from text, say) against a rule set: the seed total, the houses,
    /// the stage. Returns what is wrong.
    pub fn validate(&self, rules: &crate::rules::Rules) -> Result<(), String> {
        let total = self.total_seeds();
        if total != rules.total_seeds() {
            return Err(format!(
                "the position has {total} seeds; this variant has {}",
                rules.total_seeds()
            ));
        }
        if !rules.has_house() && (self.house[0] || self.house[1]) {
            return Err("this variant has no house, but the position owns one".into());
        }
        if self.opening != 0 && rules.opening == crate::rules::variant::Opening::None {
            return Err("this variant has no opening stage".into());
        }
        Ok(())
    }
}
