//! The transposition table of the alpha-beta search: a fixed-size table of buckets keyed by
//! Zobrist hashes, each entry a depth, a bound, a score (mate scores stored relative to the node)
//! and the best move packed into a few bits.

use super::heuristic::WIN_BOUND;
use crate::rules::{Dir, Move, MoveKind, Pit};

/// How a transposition-table score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct TtEntry {
    pub(super) score: i32,
    pub(super) depth: i32,
    pub(super) bound: Bound,
    pub(super) mv: Option<Move>,
}

/// A fixed-size transposition table of two-slot buckets; an entry is two `u64`s: the full key,
/// then score (16 bits), depth (8), bound (2), move (9) and search age (8).
pub(super) struct Tt {
    pub(super) slots: Vec<[u64; 2]>,
    pub(super) mask: usize,
    pub(super) age: u8,
}

pub(super) fn kind_index(k: MoveKind) -> u64 {
    match k {
        MoveKind::Sow => 0,
        MoveKind::Place => 1,
        MoveKind::OpeningCapture => 2,
    }
}

/// A move as 9 bits: pit (4), direction, house, kind (2); bit 8 marks "present".
fn pack_move(mv: Move) -> u64 {
    mv.pit.index() as u64
        | (u64::from(mv.dir == Dir::Right) << 4)
        | (u64::from(mv.house) << 5)
        | (kind_index(mv.kind) << 6)
        | 1 << 8
}

fn unpack_move(bits: u64) -> Option<Move> {
    if bits & (1 << 8) == 0 {
        return None;
    }
    let kind = match (bits >> 6) & 3 {
        0 => MoveKind::Sow,
        1 => MoveKind::Place,
        2 => MoveKind::OpeningCapture,
        _ => return None,
    };
    Some(Move {
        pit: Pit::new((bits & 15) as u8)?,
        dir: if bits & (1 << 4) != 0 {
            Dir::Right
        } else {
            Dir::Left
        },
        house: bits & (1 << 5) != 0,
        kind,
    })
}

impl Tt {
    pub(super) fn new(bits: u32) -> Tt {
        let n = 1usize << bits.clamp(4, 30);
        Tt {
            // Zeroed memory: the pages are only touched when used.
            slots: vec![[0u64; 2]; n],
            mask: n - 1,
            age: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        self.slots.fill([0, 0]);
        self.age = 0;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) & !1
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for slot in &self.slots[b..b + 2] {
            if slot[0] == key && slot[1] != 0 {
                let w = slot[1];
                let bound = match (w >> 24) & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    3 => Bound::Upper,
                    _ => return None,
                };
                return Some(TtEntry {
                    score: (w & 0xffff) as u16 as i16 as i32,
                    depth: ((w >> 16) & 0xff) as i32,
                    bound,
                    mv: unpack_move((w >> 32) & 0x1ff),
                });
            }
        }
        None
    }

    #[inline]
    pub(super) fn store(
        &mut self,
        key: u64,
        depth: i32,
        bound: Bound,
        score: i32,
        mv: Option<Move>,
    ) {
        let b = self.bucket(key);
        let age = self.age;
        let depth_of = |w: u64| ((w >> 16) & 0xff) as i32;
        let age_of = |w: u64| ((w >> 48) & 0xff) as u8;
        // Same key first; else an empty or stale slot; else the shallower one.
        let i = if self.slots[b][0] == key {
            b
        } else if self.slots[b + 1][0] == key {
            b + 1
        } else {
            let value = |s: &[u64; 2]| {
                if s[1] == 0 {
                    -1
                } else if age_of(s[1]) != age {
                    depth_of(s[1])
                } else {
                    256 + depth_of(s[1])
                }
            };
            if value(&self.slots[b + 1]) < value(&self.slots[b]) {
                b + 1
            } else {
                b
            }
        };
        // Keep the old move when this search found none (a fail-low node).
        let old = self.slots[i];
        let mv_bits = match mv {
            Some(m) => pack_move(m),
            None if old[0] == key => (old[1] >> 32) & 0x1ff,
            None => 0,
        };
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        let w = score
            | ((depth.clamp(0, 255) as u64) << 16)
            | ((bound as u64) << 24)
            | (mv_bits << 32)
            | ((age as u64) << 48);
        self.slots[i] = [key, w];
    }
}

/// Mate scores are stored relative to the node, so they stay right at any ply.
#[inline]
pub(super) fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
pub(super) fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::heuristic::WIN;

    #[test]
    fn moves_survive_packing() {
        for pit in Pit::all() {
            for dir in Dir::BOTH {
                for house in [false, true] {
                    for kind in [MoveKind::Sow, MoveKind::Place, MoveKind::OpeningCapture] {
                        let mv = Move {
                            pit,
                            dir,
                            house,
                            kind,
                        };
                        assert_eq!(unpack_move(pack_move(mv)), Some(mv));
                    }
                }
            }
        }
        assert_eq!(unpack_move(0), None);
    }

    #[test]
    fn table_entries_round_trip_with_negative_and_mate_scores() {
        let mut tt = Tt::new(8);
        let mv = Move::sow(Pit::HOUSE, Dir::Right);
        tt.store(12345, 7, Bound::Lower, -WIN + 3, Some(mv));
        let e = tt.probe(12345).unwrap();
        assert_eq!(
            (e.score, e.depth, e.bound, e.mv),
            (-WIN + 3, 7, Bound::Lower, Some(mv))
        );
        assert!(tt.probe(12345 + 256).is_none());
        assert_eq!(score_from_tt(score_to_tt(WIN - 9, 4), 4), WIN - 9);
    }
}
