//! A game read from text the page sends: a KIBA record (tags and `N: ...;` lines) or one
//! position line, through the setup gate ([`Position::from_text`]) so a bad position is refused
//! with the gate's reason.

use super::table::Refusal;
use crate::notation::Record;
use crate::rules::{Game, Move, Position, Variant};

/// Reads a game from text: a KIBA record or one position line of `variant` (a record's own
/// `Variant` tag wins).
/// Returns the variant's name, its rules, the start and the moves.
pub fn read_game(
    text: &str,
    variant: &str,
) -> Result<(String, Game, Position, Vec<Move>), Refusal> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Refusal(
            "nothing to load: paste a position line or a game record".into(),
        ));
    }
    let looks_like_record = text.lines().any(|l| {
        l.trim_start().starts_with('[')
            || l.split(':')
                .next()
                .is_some_and(|n| n.trim().parse::<u32>().is_ok())
    });
    let variant_of = |name: &str| -> Result<(String, Game), Refusal> {
        let v: Variant = name.parse()?;
        Ok((name.to_string(), v.into()))
    };
    if looks_like_record {
        let rec: Record = text.parse()?;
        let (name, rules) = variant_of(rec.tag("Variant").unwrap_or(variant))?;
        let start = match rec.tag("Position") {
            Some(p) => Position::from_text(p, &rules)?,
            None => Position::start(&rules),
        };
        let (moves, _) = rec.replay(&rules, &start)?;
        Ok((name, rules, start, moves))
    } else {
        let (name, rules) = variant_of(variant)?;
        let start = Position::from_text(text, &rules)?;
        Ok((name, rules, start, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_replay_and_bad_positions_are_refused_with_the_gates_reason() {
        let (name, rules, start, moves) =
            read_game("[Variant \"kiswahili\"]\n1: A6< a5>;\n", "hus").unwrap();
        assert_eq!(name, "kiswahili");
        assert_eq!(start, Position::start(&rules));
        assert_eq!(moves.len(), 2);
        let line = Position::start(&Variant::Hus.rules()).to_string();
        let (name, _, _, moves) = read_game(&line, "hus").unwrap();
        assert_eq!((name.as_str(), moves.len()), ("hus", 0));
        assert!(read_game("not a position", "hus").is_err());
        assert!(read_game("[Variant \"chess\"]\n1: A6<;", "hus").is_err());
        assert!(read_game("1: A9<;", "kiswahili").is_err());
        assert!(
            read_game("   ", "kiswahili")
                .unwrap_err()
                .0
                .contains("nothing")
        );
    }
}
