//! Helpers shared by the named rule tests (`tests/rules_*.rs`, `never_ending.rs`) and the
//! playthroughs: read a position, play a move written in KIBA notation, list the legal moves, look
//! at what a move did, pick random moves. The mtaji-stage rules that several games share, each on
//! its hand-worked position, are in [`mtaji`].
//!
//! Positions are written in the one-line format of `the notation module (fen.rs)`:
//! `b8..b1/a8..a1/A1..A8/B1..B8 side stores houses blocked target ply` (North's rows are written as
//! South sees them, so reversed).

#![allow(dead_code)] // each test file uses its own subset

pub mod mtaji;

use bao_rules::notation::{MoveError, legal_strings, parse_and_play};
use bao_rules::variant::rules_with_overrides;
use bao_rules::{EndReason, Event, MoveList, Outcome, Position, Rules, Side, StopReason, Variant};

/// Reads a position string through the setup gate of a rule set; panics with the reason if it is
/// malformed or does not fit the rules.
pub fn pos_for(rules: &Rules, s: &str) -> Position {
    Position::from_text(s, rules).unwrap_or_else(|e| panic!("test position {s}: {e}"))
}

/// The rules of Bao la Kiswahili, the default game.
pub fn kiswahili() -> Rules {
    Variant::Kiswahili.rules()
}

/// The start position of a preset.
pub fn start(v: Variant) -> Position {
    Position::start(&v.rules())
}

/// A preset with options changed, written as TOML (`takasia = "none"`).
pub fn rules_with(v: Variant, toml: &str) -> Rules {
    rules_with_overrides(v, toml).unwrap_or_else(|e| panic!("bad rule override {toml}: {e}"))
}

/// Plays `mv` (KIBA notation) and returns the position after it; panics if it is not legal.
/// Checks on the way that no seed is lost or made.
pub fn play(rules: &Rules, p: &Position, mv: &str) -> Position {
    let (_, child) =
        parse_and_play(rules, p, mv).unwrap_or_else(|e| panic!("move {mv} in {p}: {e}"));
    assert_eq!(
        child.total_seeds(),
        p.total_seeds(),
        "{mv} in {p} changed the number of seeds: {child}"
    );
    child
}

/// Plays a sequence of moves from `p`.
pub fn play_all(rules: &Rules, p: &Position, moves: &[&str]) -> Position {
    moves.iter().fold(*p, |q, mv| play(rules, &q, mv))
}

/// Plays `mv` and returns the position string after it.
pub fn after(rules: &Rules, p: &Position, mv: &str) -> String {
    play(rules, p, mv).to_string()
}

/// Tries to play `mv`; the error if it cannot be read, is illegal or ambiguous.
pub fn try_play(rules: &Rules, p: &Position, mv: &str) -> Result<Position, MoveError> {
    parse_and_play(rules, p, mv).map(|(_, child)| child)
}

/// The legal moves in canonical notation, sorted.
pub fn legal(rules: &Rules, p: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(rules, &mut list);
    legal_strings(&list, p.side_to_move())
}

/// What `mv` did, event by event.
pub fn trace(rules: &Rules, p: &Position, mv: &str) -> Vec<Event> {
    let (m, _) = parse_and_play(rules, p, mv).unwrap_or_else(|e| panic!("move {mv} in {p}: {e}"));
    let (_, events) = p.play_traced(rules, m).expect("the move is legal");
    events
}

/// Why `mv` stopped (the last `Stop` event of its trace).
pub fn stop_reason(rules: &Rules, p: &Position, mv: &str) -> StopReason {
    trace(rules, p, mv)
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Stop { reason } => Some(*reason),
            _ => None,
        })
        .expect("every move ends with a Stop event")
}

/// The (side, pit name, seeds) of every capture `mv` makes, in order.
pub fn captures(rules: &Rules, p: &Position, mv: &str) -> Vec<String> {
    trace(rules, p, mv)
        .iter()
        .filter_map(|e| match e {
            Event::Capture { side, pit, seeds } => Some(format!("{}:{seeds}", pit.name(*side))),
            _ => None,
        })
        .collect()
}

/// The outcome of the game at `p`, if it is over.
pub fn outcome(rules: &Rules, p: &Position) -> Option<Outcome> {
    p.outcome(rules)
}

/// The outcome in which `side` wins by `reason`, to compare with [`outcome`].
pub fn won(side: Side, reason: EndReason) -> Option<Outcome> {
    Some(Outcome {
        winner: Some(side),
        reason,
    })
}

/// The winner at `p`: `Some(Some(side))`, `Some(None)` for a void game, `None` while it goes on.
pub fn winner(rules: &Rules, p: &Position) -> Option<Option<Side>> {
    p.outcome(rules).map(|o| o.winner)
}

/// Strings, for comparing legal-move lists with literals.
pub fn s(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Picks moves at random, the same on every machine (a 64-bit linear congruential generator):
/// the playthroughs and the fast-ring comparison walk their random games with it.
pub struct RandomPick(u64);

impl RandomPick {
    /// A pick seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomPick(seed)
    }

    /// The index of the next pick among `len` choices (`len` > 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize % len
    }
}
