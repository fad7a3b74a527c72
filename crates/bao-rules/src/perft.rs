//! Perft: the number of move sequences of a given length, to check the move generator.

use super::moves::MoveList;
use super::position::Position;
use super::rule_set::Rules;

/// The deepest perft the command line runs. The count grows exponentially (from the Kiswahili
/// start, 405 sequences at 5 plies), so anything deeper never finishes; and the recursion holds
/// one move list per ply on the stack, which a depth in the thousands would overflow.
pub const MAX_DEPTH: u32 = 64;

/// Number of distinct move sequences of exactly `depth` plies from `pos` (games that end sooner
/// count nothing). Recursive: keep `depth` within [`MAX_DEPTH`].
pub fn perft(rules: &Rules, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    list.children()
        .iter()
        .map(|child| perft(rules, child, depth - 1))
        .sum()
}

/// Perft split by first move: (move, count) for each legal move.
pub fn divide(rules: &Rules, pos: &Position, depth: u32) -> Vec<(super::Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    list.iter()
        .map(|(mv, child)| (mv, perft(rules, child, depth.saturating_sub(1))))
        .collect()
}
