//! Long moves remembered per thread. A never-ending move is proven by walking its whole loop
//! (millions of relays in some games), and the move generator, a search or a replay meets the
//! same move again and again; a move that has made `LONG` relays is looked up, and its result
//! kept once known, so short moves pay nothing and long ones are walked once per thread.

use super::{Sim, Start};
use crate::position::Position;
use crate::rule_set::Rules;
use std::cell::RefCell;
use std::collections::HashMap;

/// The relays after which a move is long: looked up, and remembered once played (ordinary moves
/// make a few dozen).
pub(super) const LONG: u32 = 4096;
/// The most moves remembered per thread; the memory starts afresh when it is full.
const CAPACITY: usize = 1024;

/// A move: the position, how it begins, the answer to the house choice.
pub(super) type Key = (Position, Start, bool);

/// The moves remembered, for one rule set.
#[derive(Default)]
struct Memo {
    rules: Option<Rules>,
    moves: HashMap<Key, Sim>,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

/// The same rule set, safety bound included (the bound can decide a move).
fn same_rules(a: &Rules, b: &Rules) -> bool {
    a == b && a.max_sown == b.max_sown
}

/// The result of `key` under `rules`, if this thread played it before.
pub(super) fn recall(rules: &Rules, key: &Key) -> Option<Sim> {
    MEMO.with_borrow(|m| match &m.rules {
        Some(r) if same_rules(r, rules) => m.moves.get(key).copied(),
        _ => None,
    })
}

/// Keeps the result of the long move `key` under `rules`.
pub(super) fn remember(rules: &Rules, key: Key, sim: Sim) {
    MEMO.with_borrow_mut(|m| {
        if !m.rules.as_ref().is_some_and(|r| same_rules(r, rules)) {
            m.rules = Some(rules.clone());
            m.moves.clear();
        }
        if m.moves.len() >= CAPACITY {
            m.moves.clear();
        }
        m.moves.insert(key, sim);
    });
}
