//! The tactical guard of a timed MCTS move. A network judges a position at a glance and can miss
//! a forced sequence that alpha-beta, which searches every reply to a fixed depth, proves. So a
//! player with a time limit gives part of it to an alpha-beta search first: a proven win is
//! played at once, and the tree's choice is replaced when alpha-beta proves that it loses while
//! proving no loss for another move. Only proven results (`WIN - ply` scores, exact at the end of
//! a game) count; the heuristic evaluation of alpha-beta never overrides the network.

use crate::rules::{Move, Position, Rules};
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig, WIN_BOUND};
use crate::search::{Choice, Limits};
use std::time::Duration;

/// log2 of the guard's transposition-table entries (16 bytes each: 4 MiB).
const GUARD_TT_BITS: u32 = 18;

/// What the first alpha-beta search of a move found.
#[derive(Clone, Debug)]
pub enum Scan {
    /// A forced win: alpha-beta's move and line.
    Win(Choice),
    /// No forced win. `best` is alpha-beta's move, which no search has proved lost unless
    /// `all_lost` (every move loses by force).
    Open { best: Move, all_lost: bool },
}

/// An alpha-beta search kept between moves (its table carries over, like the tree).
pub struct Guard {
    ab: AlphaBeta,
}

impl Default for Guard {
    fn default() -> Self {
        Guard {
            ab: AlphaBeta::new(AlphaBetaConfig {
                tt_bits: GUARD_TT_BITS,
                ..AlphaBetaConfig::default()
            })
            .named("guard"),
        }
    }
}

impl Guard {
    /// Searches `pos` for `time`.
    pub fn scan(&mut self, rules: &Rules, pos: &Position, time: Duration) -> anyhow::Result<Scan> {
        let analysis = self.ab.analyse(rules, pos, &Limits::time(time))?;
        Ok(if analysis.score >= WIN_BOUND {
            Scan::Win(analysis.choice)
        } else {
            Scan::Open {
                best: analysis.choice.mv,
                all_lost: analysis.score <= -WIN_BOUND,
            }
        })
    }

    /// Whether alpha-beta proves within `time` that `mv` loses for the player to move in `pos`.
    pub fn loses(&mut self, rules: &Rules, pos: &Position, mv: Move, time: Duration) -> bool {
        let me = pos.side_to_move();
        let Ok(child) = pos.play(rules, mv) else {
            return false;
        };
        if let Some(outcome) = child.outcome(rules) {
            return outcome.winner.is_some_and(|w| w != me);
        }
        let Ok(analysis) = self.ab.analyse(rules, &child, &Limits::time(time)) else {
            return false;
        };
        // The score is the child's mover's; in a Malawi advanced opening that can still be `me`.
        if child.side_to_move() == me {
            analysis.score <= -WIN_BOUND
        } else {
            analysis.score >= WIN_BOUND
        }
    }

    /// Forgets the table (a new game).
    pub fn clear(&mut self) {
        *self = Guard::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{MoveList, Variant};
    use rand::{RngExt, SeedableRng};

    /// A Hus game's two last positions before a one-move win: `(rules, before, blunder, pos,
    /// win)`, where `blunder` leads from `before` to `pos`, in which `win` ends the game at once
    /// for the side to move (which has other moves too).
    fn one_move_win() -> (Rules, Position, Move, Position, Move) {
        let rules = Variant::Hus.rules();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut list = MoveList::new();
        for _ in 0..500 {
            let mut before: Option<(Position, Move)> = None;
            let mut pos = Position::start(&rules);
            while pos.outcome(&rules).is_none() {
                pos.legal_moves(&rules, &mut list);
                let me = pos.side_to_move();
                if let Some((prev, blunder)) = before
                    && list.len() > 1
                {
                    for &mv in list.moves() {
                        let child = pos.play(&rules, mv).unwrap();
                        if child.outcome(&rules).is_some_and(|o| o.winner == Some(me)) {
                            return (rules, prev, blunder, pos, mv);
                        }
                    }
                }
                let mv = list.moves()[rng.random_range(0..list.len())];
                before = Some((pos, mv));
                pos = pos.play(&rules, mv).unwrap();
            }
        }
        panic!("no position with a one-move win in 500 random games");
    }

    #[test]
    fn scan_finds_a_forced_win() {
        let (rules, _, _, pos, _) = one_move_win();
        let mut guard = Guard::default();
        let scan = guard.scan(&rules, &pos, Duration::from_millis(50)).unwrap();
        let Scan::Win(choice) = scan else {
            panic!("no win found in {pos}: {scan:?}");
        };
        // The fastest win is a win at once.
        let child = pos.play(&rules, choice.mv).unwrap();
        assert_eq!(
            child.outcome(&rules).and_then(|o| o.winner),
            Some(pos.side_to_move())
        );
    }

    #[test]
    fn loses_proves_a_move_that_allows_a_win_and_clears_a_winning_one() {
        let (rules, before, blunder, pos, win) = one_move_win();
        let mut guard = Guard::default();
        let time = Duration::from_millis(20);
        assert!(
            guard.loses(&rules, &before, blunder, time),
            "{before} {blunder:?}"
        );
        assert!(!guard.loses(&rules, &pos, win, time), "{pos} {win:?}");
    }
}
