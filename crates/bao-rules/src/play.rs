//! Playing a move from outside: the checked `play`, the traced replay, and the outcome.

use super::moves::{Move, MoveKind, MoveList, MoveText};
use super::options::{House, Tax};
use super::pit::{Pit, Side};
use super::position::{EndReason, Outcome, Position, Stage};
use super::rule_set::Rules;
use super::sow::{Mover, Start};
use super::trace::Event;

impl Position {
    /// The outcome of the game, or `None` while it goes on. A player with no legal move loses.
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        if self.result.is_some() {
            return self.result;
        }
        let mut list = MoveList::new();
        self.legal_moves(rules, &mut list);
        self.outcome_given(&list)
    }

    /// The outcome, given this position's legal moves already generated into `list`.
    pub fn outcome_given(&self, list: &MoveList) -> Option<Outcome> {
        if self.result.is_some() {
            self.result
        } else if list.is_empty() {
            Some(Outcome {
                winner: Some(self.to_move.opponent()),
                reason: EndReason::NoMoves,
            })
        } else {
            None
        }
    }

    /// Plays `mv` if it is legal; otherwise returns the error naming the legal moves.
    pub fn play(&self, rules: &Rules, mv: Move) -> Result<Position, IllegalMove> {
        let mut list = MoveList::new();
        self.legal_moves(rules, &mut list);
        list.find(mv)
            .copied()
            .ok_or_else(|| IllegalMove::new(self, mv, &list))
    }

    /// Plays `mv` and returns what it did, step by step.
    pub fn play_traced(
        &self,
        rules: &Rules,
        mv: Move,
    ) -> Result<(Position, Vec<Event>), IllegalMove> {
        let child = self.play(rules, mv)?;
        // Replay the same start with a recording observer: the generator's decision is reused.
        let mut events = Vec::new();
        let start = self.start_of(rules, mv);
        let mut replayed = *self;
        Mover::run(rules, &mut replayed, start, mv.house, &mut events);
        let mut replayed = self.finish(rules, mv, start, replayed);
        if let Some(pit) = replayed.blocked {
            events.push(Event::Block {
                side: replayed.to_move,
                pit,
            });
        }
        replayed.result = replayed.result.or(child.result);
        debug_assert_eq!(replayed, child);
        Ok((child, events))
    }

    /// How the generator started `mv` (for replaying it with a trace).
    fn start_of(&self, rules: &Rules, mv: Move) -> Start {
        let me = self.to_move.index();
        match (mv.kind, self.stage()) {
            (MoveKind::Sow, Stage::Namua) => {
                if !rules.planting.first_move_plants && self.ply == 0 {
                    return Start::Lift {
                        pit: mv.pit,
                        dir: mv.dir,
                        capturing: false,
                    };
                }
                let capture = rules.planting.captures
                    && mv.pit.is_front()
                    && self.pits[me][mv.pit.index()] > 0
                    && self.pits[1 - me][mv.pit.opposite().index()] > 0;
                if capture {
                    return Start::PlantCapture {
                        pit: mv.pit,
                        dir: mv.dir,
                    };
                }
                let n = self.pits[me][mv.pit.index()];
                let tax = mv.pit == Pit::HOUSE
                    && self.house[me]
                    && match &rules.house {
                        House::Nyumba(h) => n >= h.valid_from && h.tax != Tax::Never,
                        House::Kuu => n != 8,
                        House::None => false,
                    };
                Start::Plant {
                    pit: mv.pit,
                    dir: mv.dir,
                    tax,
                }
            }
            (MoveKind::Sow, _) => {
                let capturing = if rules.takata {
                    self.first_sowing_captures(rules, self.to_move, mv.pit, mv.dir)
                        .is_some()
                } else {
                    rules.captures
                };
                Start::Lift {
                    pit: mv.pit,
                    dir: mv.dir,
                    capturing,
                }
            }
            _ => Start::Opening,
        }
    }
}

/// An illegal move, with the legal ones for the error message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {} for {side}; legal moves: {}", MoveText { mv: *mv, side: *side }, legal_text(legal, *side))]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The mover.
    pub side: Side,
    /// The legal moves.
    pub legal: Vec<Move>,
}

/// The legal moves in canonical notation, sorted, or `none`.
fn legal_text(legal: &[Move], side: Side) -> String {
    let mut v: Vec<String> = legal
        .iter()
        .map(|&mv| MoveText { mv, side }.to_string())
        .collect();
    v.sort();
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(" ")
    }
}

impl IllegalMove {
    fn new(pos: &Position, mv: Move, list: &MoveList) -> IllegalMove {
        IllegalMove {
            mv,
            side: pos.to_move,
            legal: list.moves().to_vec(),
        }
    }
}
