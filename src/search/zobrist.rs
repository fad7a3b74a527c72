//! Zobrist keys: a 64-bit hash of every position field that decides the game's future (pits,
//! stores, houses, side to move, takasia block and target, opening hand and phase, the mtaji
//! capture flag, whether the first ply is still to be played, and a game-ending result). The ply
//! number is left out otherwise, so transpositions reached at different plies share an entry.

use crate::rules::{Position, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::LazyLock;

/// The random keys, one per (field, value).
struct Zobrist {
    /// `[side][pit][seeds]` (a pit may hold up to 255 seeds in a hand-made position).
    pits: Box<[[[u64; 256]; 16]; 2]>,
    store: [[u64; 256]; 2],
    house: [u64; 2],
    north_to_move: u64,
    /// `[pit + 1]`, 0 unused (no block).
    blocked: [u64; 17],
    target: [u64; 17],
    hand: [u64; 256],
    opening: [u64; 256],
    mtaji_captured: u64,
    first_ply: u64,
    /// `[winner: South, North, none]`.
    result: [u64; 3],
}

/// The keys, made once from a fixed seed (so hashes are the same in every run).
static KEYS: LazyLock<Zobrist> = LazyLock::new(|| Zobrist::new(0x6261_6f5f_7a6f_6272));

impl Zobrist {
    fn new(seed: u64) -> Zobrist {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut fill = |a: &mut [u64]| a.iter_mut().for_each(|k| *k = rng.next_u64());
        let mut pits = Box::new([[[0u64; 256]; 16]; 2]);
        pits.iter_mut().flatten().for_each(|a| fill(a));
        let mut store = [[0u64; 256]; 2];
        store.iter_mut().for_each(|a| fill(a));
        let mut house = [0u64; 2];
        fill(&mut house);
        let mut single = [0u64; 3];
        fill(&mut single);
        let mut blocked = [0u64; 17];
        fill(&mut blocked);
        let mut target = [0u64; 17];
        fill(&mut target);
        let mut hand = [0u64; 256];
        fill(&mut hand);
        let mut opening = [0u64; 256];
        fill(&mut opening);
        let mut result = [0u64; 3];
        fill(&mut result);
        Zobrist {
            pits,
            store,
            house,
            north_to_move: single[0],
            blocked,
            target,
            hand,
            opening,
            mtaji_captured: single[1],
            first_ply: single[2],
            result,
        }
    }

    /// The hash of a position.
    #[inline]
    pub fn hash(&self, pos: &Position) -> u64 {
        let mut h = 0u64;
        for side in Side::BOTH {
            let keys = &self.pits[side.index()];
            for (pit, &n) in pos.pits(side).iter().enumerate() {
                // Empty pits contribute nothing (key 0 would do too, but this skips a load).
                if n != 0 {
                    h ^= keys[pit][n as usize];
                }
            }
            h ^= self.store[side.index()][pos.store(side) as usize];
            if pos.house_owned(side) {
                h ^= self.house[side.index()];
            }
        }
        if pos.side_to_move() == Side::North {
            h ^= self.north_to_move;
        }
        if let Some(p) = pos.blocked() {
            h ^= self.blocked[p.index() + 1];
        }
        if let Some(p) = pos.target() {
            h ^= self.target[p.index() + 1];
        }
        if pos.hand() != 0 {
            h ^= self.hand[pos.hand() as usize];
        }
        if pos.opening_phase() != 0 {
            h ^= self.opening[pos.opening_phase() as usize];
        }
        if pos.mtaji_captured() {
            h ^= self.mtaji_captured;
        }
        // Kimasai's very first ply plants no seed, so ply 0 differs from the same board later.
        if pos.ply() == 0 {
            h ^= self.first_ply;
        }
        if let Some(o) = pos.result() {
            h ^= self.result[o.winner.map_or(2, |s| s.index())];
        }
        h
    }
}

/// The Zobrist hash of a position (with the shared keys).
#[inline]
pub fn hash(pos: &Position) -> u64 {
    KEYS.hash(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{MoveList, Variant};

    #[test]
    fn every_field_changes_the_hash() {
        let rules = Variant::Kiswahili.rules();
        let start = Position::start(&rules);
        let h = hash(&start);
        let mut list = MoveList::new();
        start.legal_moves(&rules, &mut list);
        for child in list.children() {
            assert_ne!(hash(child), h);
        }
        let read = |text: &str| Position::from_text(text, &rules).unwrap();
        let flipped = read(&start.to_string().replacen(" S ", " N ", 1));
        assert_ne!(hash(&flipped), h);
        let moved = read(&start.to_string().replace(" 0", " 5"));
        // Same board, ply 5 instead of 0: only the first-ply key differs.
        assert_eq!(hash(&moved) ^ KEYS.first_ply, h);
        let board = "2,2,2,2,0,0,0,0/2,2,2,6,2,2,2,2/2,2,2,2,6,2,2,2/2,2,2,2,2,2,2,2 S 0,0 Hh";
        let blocked = read(&format!("{board} A6 - 9"));
        let unblocked = read(&format!("{board} - - 9"));
        assert_ne!(hash(&blocked), hash(&unblocked));
    }
}
