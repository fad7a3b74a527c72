//! Who may sit at the page's table: the players a request may name, and the checks of the
//! numbers it sends.
//!
//! The page builds the classical players (`random`, `greedy`, `ab` with its own limits and a
//! modest table) and exactly the specs given on the command line. Anything else (a program to
//! start, `engine:`; a file to read, `player:`, `mcts:checkpoint=`, `weights=`; a huge table) is
//! refused with a message, so a request cannot make the server start programs, read files or
//! exhaust memory.

use super::App;
use super::table::Refusal;
use crate::players::{Player, PlayerSpec};
use crate::rules::{Rules, Variant};

/// The classical specs the page always offers.
pub const CLASSICAL: [&str; 4] = ["ab:depth=4", "ab:time=1s", "greedy", "random"];

/// The largest transposition table (log2 entries) a page spec may ask for.
const MAX_TT_BITS: u32 = 22;

/// The longest time per move a request may ask for.
pub const MAX_TIME_MS: u64 = 60_000;

/// Why the page may not build `spec` by itself (`None`: it may).
fn refused(spec: &PlayerSpec) -> Option<String> {
    match spec {
        PlayerSpec::Random | PlayerSpec::Greedy => None,
        PlayerSpec::AlphaBeta(ab) if ab.weights.is_some() => {
            Some("reads a weights file".to_string())
        }
        PlayerSpec::AlphaBeta(ab) if ab.tt_bits.is_some_and(|b| b > MAX_TT_BITS) => {
            Some(format!("asks for a table over 2^{MAX_TT_BITS} entries"))
        }
        PlayerSpec::AlphaBeta(_) => None,
        PlayerSpec::Other { kind, .. } if kind == "engine" => {
            Some("would start a program; engine players cannot be started from the page".into())
        }
        _ => Some("reads a file or a network".to_string()),
    }
}

impl App {
    /// A player for `rules` from a spec a request named.
    pub(super) fn build(&self, spec: &str, rules: &Rules) -> Result<Box<dyn Player>, Refusal> {
        let spec = spec.trim();
        let parsed: PlayerSpec = spec.parse()?;
        if !self.players.kinds().contains(&parsed.kind()) {
            // The registry's own message names the kinds it knows.
            return Err(Refusal::from(
                self.players
                    .build(&parsed, rules, self.seed)
                    .err()
                    .unwrap_or_else(|| anyhow::anyhow!("unknown player kind `{}`", parsed.kind())),
            ));
        }
        if !self.offered.iter().any(|o| o == spec)
            && let Some(why) = refused(&parsed)
        {
            return Err(Refusal(format!(
                "`{spec}` {why}; the page builds random, greedy and ab players and those given \
                 on the command line: {}",
                self.offered.join(", ")
            )));
        }
        let player = self.players.build(&parsed, rules, self.seed)?;
        if player.rules() != rules {
            let name = crate::rules::Game::describe(player.rules());
            return Err(Refusal(format!("{spec} plays only {name}")));
        }
        Ok(player)
    }
}

/// The name of the variant whose preset rules are `rules`.
pub fn variant_of(rules: &Rules) -> Option<String> {
    Variant::of(rules).map(|v| v.name().to_string())
}

/// The time per move a request asks for, checked.
pub fn time_of(ms: Option<u64>, default: u64) -> Result<u64, Refusal> {
    match ms.unwrap_or(default) {
        0 => Err(Refusal("time_ms must be at least 1".into())),
        ms if ms > MAX_TIME_MS => Err(Refusal(format!("time_ms is at most {MAX_TIME_MS}"))),
        ms => Ok(ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_specs_are_limited() {
        let no = |s: &str| refused(&s.parse().unwrap());
        assert_eq!(no("random"), None);
        assert_eq!(no("ab:depth=6,time=1s"), None);
        assert!(no("ab:tt=24").unwrap().contains("table"));
        assert!(
            "ab:tt=30".parse::<PlayerSpec>().is_err(),
            "no spec asks for 16 GiB"
        );
        assert!(no("ab:weights=/etc/passwd").unwrap().contains("weights"));
        assert!(no("engine:/bin/sh").unwrap().contains("program"));
        assert!(no("player:/etc/passwd").unwrap().contains("file"));
        assert!(no("mcts:checkpoint=/tmp").unwrap().contains("file"));
        assert!(time_of(Some(0), 1).is_err());
        assert!(time_of(Some(MAX_TIME_MS + 1), 1).is_err());
        assert_eq!(time_of(None, 250).unwrap(), 250);
    }
}
