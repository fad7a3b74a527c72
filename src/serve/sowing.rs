//! A move shown step by step: the engine's trace ([`Event`]s) replayed on the seed counts, one
//! frame per event (a plant, a lift, a sowing, a capture, a tax of the house, a house lost,
//! takasia), each with the counts after it, the pits it touched and a caption.

use crate::rules::{Event, Move, Pit, Position, Rotation, Rules, Side};
use serde::Serialize;
use std::collections::BTreeMap;

/// The board after one step of a move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Frame {
    /// What happened, in words (the trace's own).
    pub caption: String,
    /// Seeds per pit, by KIBA name (`A1`, `b8`, ...).
    pub counts: BTreeMap<String, u8>,
    /// Seeds in store, South's then North's.
    pub stores: [u8; 2],
    /// The pits this step touched, in order.
    pub active: Vec<String>,
}

/// Seed counts as a move goes on.
struct Board {
    pits: [[u8; 16]; 2],
    stores: [u8; 2],
}

impl Board {
    fn of(pos: &Position) -> Board {
        Board {
            pits: [*pos.pits(Side::South), *pos.pits(Side::North)],
            stores: [pos.store(Side::South), pos.store(Side::North)],
        }
    }

    fn frame(&self, caption: String, active: Vec<String>) -> Frame {
        let mut counts = BTreeMap::new();
        for side in Side::BOTH {
            for pit in Pit::all() {
                counts.insert(pit.name(side), self.pits[side.index()][pit.index()]);
            }
        }
        Frame {
            caption,
            counts,
            stores: self.stores,
            active,
        }
    }

    fn pit(&mut self, side: Side, pit: Pit) -> &mut u8 {
        &mut self.pits[side.index()][pit.index()]
    }
}

/// The pits a sowing of `seeds` from `first` passes, in order (at most one lap's worth named).
fn sowing_path(first: Pit, seeds: u32, rotation: Rotation) -> Vec<Pit> {
    let step = match rotation {
        Rotation::Clockwise => 1,
        Rotation::Anticlockwise => 15,
    };
    (0..seeds.min(16) as usize)
        .filter_map(|k| Pit::new(((first.index() + k * step) & 15) as u8))
        .collect()
}

/// The frames of `mv` played in `pos`: one per traced event, and a last one that is exactly the
/// position the move leads to. `None` if the move is not legal.
pub fn frames(rules: &Rules, pos: &Position, mv: Move) -> Option<(Position, Vec<Frame>)> {
    let (child, events) = pos.play_traced(rules, mv).ok()?;
    let mut board = Board::of(pos);
    let mut frames = Vec::with_capacity(events.len() + 1);
    for e in &events {
        let mut active = Vec::new();
        match *e {
            Event::Plant { side, pit } => {
                let store = &mut board.stores[side.index()];
                *store = store.saturating_sub(1);
                *board.pit(side, pit) += 1;
                active.push(pit.name(side));
            }
            Event::Lift { side, pit, seeds } => {
                let cell = board.pit(side, pit);
                *cell = cell.saturating_sub(seeds as u8);
                active.push(pit.name(side));
            }
            Event::Sow {
                side,
                first,
                seeds,
                rotation,
                ..
            } => {
                let laps = (seeds / 16) as u8;
                for pit in Pit::all() {
                    *board.pit(side, pit) += laps;
                }
                for pit in sowing_path(first, seeds % 16, rotation) {
                    *board.pit(side, pit) += 1;
                }
                active = sowing_path(first, seeds, rotation)
                    .into_iter()
                    .map(|p| p.name(side))
                    .collect();
            }
            Event::Capture { side, pit, .. } => {
                *board.pit(side, pit) = 0;
                if rules.capture_back_row {
                    *board.pit(side, pit.behind()) = 0;
                }
                active.push(pit.name(side));
            }
            Event::Place { side, pit } => {
                *board.pit(side, pit) += 1;
                active.push(pit.name(side));
            }
            Event::Block { side, pit } => active.push(pit.name(side)),
            Event::Tax { .. }
            | Event::HousePlayed { .. }
            | Event::HouseLost { .. }
            | Event::Stop { .. } => {}
        }
        frames.push(board.frame(e.to_string().trim().to_string(), active));
    }
    // The engine's own result is the last word (it also settles what the events do not say,
    // such as seeds kept in store when a game ends mid-move).
    let last = Board::of(&child).frame(String::new(), Vec::new());
    if frames
        .last()
        .is_none_or(|f| f.counts != last.counts || f.stores != last.stores)
    {
        frames.push(Frame {
            caption: "the move is complete".to_string(),
            ..last
        });
    }
    Some((child, frames))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{MoveList, Variant};
    use rand::{RngExt, SeedableRng};

    /// In ordinary moves the replayed events reach the engine's position on their own, so the
    /// step-by-step display never jumps at the end.
    #[test]
    fn replayed_events_reach_the_engines_position() {
        for variant in [Variant::Kiswahili, Variant::Kujifunza, Variant::Hus] {
            let rules = variant.rules();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
            let (mut jumps, mut moves) = (0, 0);
            for _ in 0..20 {
                let mut pos = Position::start(&rules);
                let mut list = MoveList::new();
                for _ in 0..200 {
                    pos.legal_moves(&rules, &mut list);
                    if list.is_empty() || pos.result().is_some() {
                        break;
                    }
                    let mv = list.moves()[rng.random_range(0..list.len())];
                    let (child, frames) = frames(&rules, &pos, mv).unwrap();
                    let last = frames.last().unwrap();
                    let exact = Board::of(&child).frame(String::new(), Vec::new());
                    assert_eq!(last.counts, exact.counts);
                    // A move that ends the game may need the engine's last word (it settles
                    // the stores); any other must be replayed exactly by its events.
                    if child.result().is_none()
                        && frames.iter().any(|f| f.caption == "the move is complete")
                    {
                        jumps += 1;
                    }
                    moves += 1;
                    pos = child;
                }
            }
            assert_eq!(jumps, 0, "{variant}: {jumps} jumps in {moves} moves");
        }
    }
}
