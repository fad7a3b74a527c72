//! A board diagram for people: rows named as in KIBA, the houses, the stores, the stage.

use crate::{Pit, Position, Row, Rules, Side, Stage};
use std::fmt;

/// A position drawn as text (`Display`). South sits at the bottom.
pub struct Diagram<'a> {
    /// The position.
    pub pos: &'a Position,
    /// Its rules (for the house name and the outcome).
    pub rules: &'a Rules,
}

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.pos;
        let cell = |side: Side, row: Row, n: u8| {
            let pit = Pit::at(row, n).expect("1..=8");
            let seeds = p.seeds(side, pit);
            let mark = if pit == Pit::HOUSE && p.house_owned(side) {
                ('[', ']')
            } else if p.blocked() == Some(pit) && side == p.side_to_move() {
                ('!', '!')
            } else {
                (' ', ' ')
            };
            format!("{}{:>2}{}", mark.0, seeds, mark.1)
        };
        let line = |side: Side, row: Row, reversed: bool| {
            let mut v: Vec<String> = (1..=8).map(|n| cell(side, row, n)).collect();
            if reversed {
                v.reverse();
            }
            v.join(" ")
        };
        let house = |side: Side| {
            if !self.rules.has_house() {
                String::new()
            } else if p.house_owned(side) {
                "  house owned".to_string()
            } else {
                "  house lost".to_string()
            }
        };
        writeln!(f, "       8    7    6    5    4    3    2    1")?;
        writeln!(
            f,
            "  b  {}   North store {:>2}{}",
            line(Side::North, Row::Back, true),
            p.store(Side::North),
            house(Side::North)
        )?;
        writeln!(f, "  a  {}", line(Side::North, Row::Front, true))?;
        writeln!(f, "     {}", "-".repeat(39))?;
        writeln!(f, "  A  {}", line(Side::South, Row::Front, false))?;
        writeln!(
            f,
            "  B  {}   South store {:>2}{}",
            line(Side::South, Row::Back, false),
            p.store(Side::South),
            house(Side::South)
        )?;
        writeln!(f, "       1    2    3    4    5    6    7    8")?;
        let stage = match p.stage() {
            Stage::Opening => format!("opening ({} seeds to place)", p.hand()),
            Stage::Namua => "namua (planting) stage".to_string(),
            Stage::Mtaji => "mtaji stage".to_string(),
        };
        write!(
            f,
            "{} to move, {}, ply {}",
            p.side_to_move(),
            stage,
            p.ply()
        )?;
        if let Some(b) = p.blocked() {
            write!(f, ", {} blocked (takasia)", b.name(p.side_to_move()))?;
        }
        if let Some(t) = p.target() {
            write!(f, ", must capture {}", t.name(p.side_to_move().opponent()))?;
        }
        if let Some(o) = p.outcome(self.rules) {
            match o.winner {
                Some(w) => write!(f, "\nGame over: {w} wins ({:?})", o.reason)?,
                None => write!(f, "\nGame over: void ({:?})", o.reason)?,
            }
        }
        Ok(())
    }
}
