//! The observation: a float tensor `[OBS_CHANNELS, 4, 8]` seen from the player to move.
//!
//! Rows: 0 the opponent's back row, 1 the opponent's front row, 2 the mover's front row, 3 the
//! mover's back row. Column `c` of the mover's rows holds its pit `c + 1` (left to right as the
//! mover sees them); column `c` of the opponent's front row holds the pit facing the mover's front
//! pit `c + 1` (the opponent's pit `8 - c`, ring index `7 - c`), and column `c` of the opponent's
//! back row the pit behind that one. The same position seen by either player therefore encodes
//! identically once the sides are swapped. Every channel is listed in `docs/ENV.md`.

use crate::rules::{Pit, Position, Rules, Side, Stage};

/// Rows of the board image.
pub const ROWS: usize = 4;
/// Columns of the board image.
pub const COLS: usize = 8;
/// Cells per channel.
pub const CELLS: usize = ROWS * COLS;

/// Seed-count buckets, one one-hot plane each: 0, 1, 2, 3, 4-5, 6-9, 10-15, 16+ (channels 0..8).
pub const SEED_BUCKETS: usize = 8;
/// Seeds in the pit / 16.
pub const CH_SEEDS: usize = 8;
/// Mover's store / 32 (constant plane).
pub const CH_MOVER_STORE: usize = 9;
/// Opponent's store / 32 (constant plane).
pub const CH_OPPONENT_STORE: usize = 10;
/// 1.0 on the mover's house cell while the mover owns its house (nyumba or kuu).
pub const CH_MOVER_HOUSE: usize = 11;
/// 1.0 on the opponent's house cell while the opponent owns its house.
pub const CH_OPPONENT_HOUSE: usize = 12;
/// The mover is in the namua (planting) stage (constant plane).
pub const CH_STAGE_NAMUA: usize = 13;
/// The mover is in the mtaji stage (constant plane).
pub const CH_STAGE_MTAJI: usize = 14;
/// The game is in the Malawi advanced opening (constant plane).
pub const CH_STAGE_OPENING: usize = 15;
/// The opponent still has seeds in store, i.e. is still in namua (constant plane).
pub const CH_OPPONENT_NAMUA: usize = 16;
/// 1.0 on the mover's pit blocked by takasia.
pub const CH_BLOCKED: usize = 17;
/// 1.0 on the opponent's pit the mover must capture (takasia target).
pub const CH_TARGET: usize = 18;
/// Seeds in the mover's opening hand / 16 (constant plane).
pub const CH_HAND: usize = 19;
/// The first ply of the game (ply 0; in Bao la Kimasai it plants no seed) (constant plane).
pub const CH_FIRST_MOVE: usize = 20;
/// A capture has been made in the mtaji stage (ends house ownership under one option).
pub const CH_MTAJI_CAPTURED: usize = 21;
/// Malawi opening: the mover distributes first (phase 1) (constant plane).
pub const CH_OPENING_FIRST: usize = 22;
/// Malawi opening: the mover may still make the opening capture (phase 2) (constant plane).
pub const CH_OPENING_MAY_CAPTURE: usize = 23;
/// A move has ended the game and the mover has won (constant plane).
pub const CH_OVER_MOVER_WON: usize = 24;
/// A move has ended the game and the mover has lost (constant plane).
pub const CH_OVER_MOVER_LOST: usize = 25;
/// A move has ended the game and it is void, a draw (constant plane).
pub const CH_OVER_VOID: usize = 26;
/// Number of channels.
pub const OBS_CHANNELS: usize = 27;
/// Floats per observation: `OBS_CHANNELS * 4 * 8`.
pub const OBS_LEN: usize = OBS_CHANNELS * CELLS;
/// The largest value of any cell: seeds / 16, a count of seeds being a `u8`.
pub const OBS_HIGH: f32 = (u8::MAX as f32 + 1.0) / 16.0;

/// An observation buffer of the wrong size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("observation buffer holds {found} floats; expected {expected} ([{OBS_CHANNELS}, 4, 8])")]
pub struct ObsBufferError {
    /// `OBS_LEN`.
    pub expected: usize,
    /// The length given.
    pub found: usize,
}

/// The bucket plane of a seed count.
const BUCKET: [u8; 256] = {
    let mut t = [7u8; 256];
    let mut n = 0;
    while n < 16 {
        t[n] = match n {
            0..=3 => n as u8,
            4..=5 => 4,
            6..=9 => 5,
            _ => 6,
        };
        n += 1;
    }
    t
};

/// Cell (row * 8 + column) of each of the mover's pits, by ring index.
const MOVER_CELL: [usize; 16] = {
    let mut t = [0; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = if i < 8 {
            2 * COLS + i
        } else {
            3 * COLS + (15 - i)
        };
        i += 1;
    }
    t
};

/// Cell of each of the opponent's pits, by ring index: front pit `7 - c` in row 1, column `c`;
/// back pit `8 + c` (the one behind it) in row 0, column `c`.
const OPPONENT_CELL: [usize; 16] = {
    let mut t = [0; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = if i < 8 { COLS + (7 - i) } else { i - 8 };
        i += 1;
    }
    t
};

/// The cell (`row * 8 + column`) where `owner`'s `pit` appears when `mover` is to move.
#[inline]
pub fn cell(mover: Side, owner: Side, pit: Pit) -> usize {
    if owner == mover {
        MOVER_CELL[pit.index()]
    } else {
        OPPONENT_CELL[pit.index()]
    }
}

/// The constant planes, in the order of [`Features::planes`].
const CONSTANT_PLANES: [usize; 14] = [
    CH_MOVER_STORE,
    CH_OPPONENT_STORE,
    CH_STAGE_NAMUA,
    CH_STAGE_MTAJI,
    CH_STAGE_OPENING,
    CH_OPPONENT_NAMUA,
    CH_HAND,
    CH_FIRST_MOVE,
    CH_MTAJI_CAPTURED,
    CH_OPENING_FIRST,
    CH_OPENING_MAY_CAPTURE,
    CH_OVER_MOVER_WON,
    CH_OVER_MOVER_LOST,
    CH_OVER_VOID,
];

/// The planes with at most one marked cell, in the order of [`Features::marks`].
const MARK_PLANES: [usize; 4] = [CH_MOVER_HOUSE, CH_OPPONENT_HOUSE, CH_BLOCKED, CH_TARGET];

/// Everything an observation shows, in compact form: the seeds of each cell, the value of each
/// constant plane and the marked cell of each one-cell plane. An observation buffer is written
/// from it whole ([`Features::write`]) or, when the buffer already shows other features, by
/// changing only the cells that differ ([`Features::update`]): a step then leaves the constant
/// planes that did not change untouched, which counts when a [`VecEnv`](super::VecEnv) writes the
/// observations of many environments every step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// Seeds per cell (`row * 8 + column`, rows from the mover's side).
    seeds: [u8; CELLS],
    /// Values of the [`CONSTANT_PLANES`].
    planes: [f32; CONSTANT_PLANES.len()],
    /// The marked cell of each of the [`MARK_PLANES`], if any.
    marks: [Option<u8>; MARK_PLANES.len()],
}

impl Features {
    /// The features of `pos`, seen from the player to move.
    #[inline]
    pub fn of(pos: &Position) -> Features {
        let me = pos.side_to_move();
        let opp = me.opponent();
        let mut seeds = [0u8; CELLS];
        for (cells, side) in [(&MOVER_CELL, me), (&OPPONENT_CELL, opp)] {
            for (&c, &n) in cells.iter().zip(pos.pits(side)) {
                seeds[c] = n;
            }
        }
        let flag = |b: bool| f32::from(u8::from(b));
        let stage = pos.stage();
        let winner = pos.result().map(|r| r.winner);
        Features {
            seeds,
            planes: [
                f32::from(pos.store(me)) / 32.0,
                f32::from(pos.store(opp)) / 32.0,
                flag(stage == Stage::Namua),
                flag(stage == Stage::Mtaji),
                flag(stage == Stage::Opening),
                flag(pos.store(opp) > 0),
                f32::from(pos.hand()) / 16.0,
                flag(pos.ply() == 0),
                flag(pos.mtaji_captured()),
                flag(pos.opening_phase() == 1),
                flag(pos.opening_phase() == 2),
                flag(winner == Some(Some(me))),
                flag(winner == Some(Some(opp))),
                flag(winner == Some(None)),
            ],
            marks: [
                pos.house_owned(me)
                    .then_some(MOVER_CELL[Pit::HOUSE.index()] as u8),
                pos.house_owned(opp)
                    .then_some(OPPONENT_CELL[Pit::HOUSE.index()] as u8),
                pos.blocked().map(|b| MOVER_CELL[b.index()] as u8),
                pos.target().map(|t| OPPONENT_CELL[t.index()] as u8),
            ],
        }
    }

    /// Writes the observation into `out`, overwriting all of it.
    ///
    /// # Panics
    /// If `out` is shorter than `OBS_LEN`.
    // Not inlined: LLVM spent tens of minutes folding it into callers with constant positions.
    #[inline(never)]
    pub fn write(&self, out: &mut [f32]) {
        let out: &mut [f32; OBS_LEN] = (&mut out[..OBS_LEN])
            .try_into()
            .expect("the slice is OBS_LEN long");
        out.fill(0.0);
        for (c, &n) in self.seeds.iter().enumerate() {
            out[BUCKET[n as usize] as usize * CELLS + c] = 1.0;
            out[CH_SEEDS * CELLS + c] = f32::from(n) / 16.0;
        }
        for (&ch, &v) in CONSTANT_PLANES.iter().zip(&self.planes) {
            if v != 0.0 {
                out[ch * CELLS..(ch + 1) * CELLS].fill(v);
            }
        }
        for (&ch, &mark) in MARK_PLANES.iter().zip(&self.marks) {
            if let Some(c) = mark {
                out[ch * CELLS + c as usize] = 1.0;
            }
        }
    }

    /// Turns `out`, which holds the observation of `shown` (as [`Features::write`] left it),
    /// into the observation of `self`, writing only the cells that differ.
    ///
    /// # Panics
    /// If `out` is shorter than `OBS_LEN`.
    #[inline]
    pub fn update(&self, shown: &Features, out: &mut [f32]) {
        let out: &mut [f32; OBS_LEN] = (&mut out[..OBS_LEN])
            .try_into()
            .expect("the slice is OBS_LEN long");
        // Most cells change at every ply (the board turns to the other mover): writing all 32
        // without a test is faster than mispredicted branches.
        for (c, (&n, &was)) in self.seeds.iter().zip(&shown.seeds).enumerate() {
            out[BUCKET[was as usize] as usize * CELLS + c] = 0.0;
            out[BUCKET[n as usize] as usize * CELLS + c] = 1.0;
            out[CH_SEEDS * CELLS + c] = f32::from(n) / 16.0;
        }
        for (k, &ch) in CONSTANT_PLANES.iter().enumerate() {
            if self.planes[k] != shown.planes[k] {
                out[ch * CELLS..(ch + 1) * CELLS].fill(self.planes[k]);
            }
        }
        for (k, &ch) in MARK_PLANES.iter().enumerate() {
            if self.marks[k] != shown.marks[k] {
                if let Some(c) = shown.marks[k] {
                    out[ch * CELLS + c as usize] = 0.0;
                }
                if let Some(c) = self.marks[k] {
                    out[ch * CELLS + c as usize] = 1.0;
                }
            }
        }
    }
}

/// Writes the observation of `pos` into `out[..OBS_LEN]`, overwriting it entirely.
///
/// `rules` is taken so rule-dependent features can be added without touching callers; the
/// current channels depend on the position alone.
///
/// # Panics
/// If `out` is shorter than `OBS_LEN` (a caller bug, as with slice indexing); see [`try_encode`]
/// for a checked version.
#[inline]
pub fn encode(rules: &Rules, pos: &Position, out: &mut [f32]) {
    let _ = rules;
    Features::of(pos).write(out);
}

/// As [`encode`], but a buffer of the wrong length is an error instead of a panic.
pub fn try_encode(rules: &Rules, pos: &Position, out: &mut [f32]) -> Result<(), ObsBufferError> {
    if out.len() != OBS_LEN {
        return Err(ObsBufferError {
            expected: OBS_LEN,
            found: out.len(),
        });
    }
    encode(rules, pos, out);
    Ok(())
}

/// The observation of `pos` in a new vector.
pub fn observe(rules: &Rules, pos: &Position) -> Vec<f32> {
    let mut v = vec![0.0; OBS_LEN];
    encode(rules, pos, &mut v);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Row, Variant};

    fn at(obs: &[f32], ch: usize, row: usize, col: usize) -> f32 {
        obs[ch * CELLS + row * COLS + col]
    }

    #[test]
    fn buckets() {
        let expect = [
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 4),
            (6, 5),
            (9, 5),
            (10, 6),
            (15, 6),
            (16, 7),
            (255, 7),
        ];
        for (n, b) in expect {
            assert_eq!(BUCKET[n] as usize, b, "{n} seeds");
        }
    }

    #[test]
    fn the_cells_form_the_board_as_the_mover_sees_it() {
        // Each cell holds exactly one pit of one side.
        let mut seen = [false; CELLS];
        for owner in Side::BOTH {
            for pit in Pit::all() {
                let c = cell(Side::South, owner, pit);
                assert!(!seen[c], "cell {c} used twice");
                seen[c] = true;
            }
        }
        // Column c of row 1 faces the mover's front pit c; row 0 is behind row 1.
        for pit in Pit::front() {
            let mine = cell(Side::North, Side::North, pit);
            let facing = cell(Side::North, Side::South, pit.opposite());
            assert_eq!((mine / COLS, facing / COLS), (2, 1));
            assert_eq!(mine % COLS, facing % COLS);
            let behind = cell(Side::North, Side::South, pit.opposite().behind());
            assert_eq!((behind / COLS, behind % COLS), (0, facing % COLS));
            let my_back = cell(Side::North, Side::North, pit.behind());
            assert_eq!((my_back / COLS, my_back % COLS), (3, mine % COLS));
        }
        assert_eq!(
            cell(Side::South, Side::South, Pit::at(Row::Back, 1).unwrap()),
            24
        );
    }

    #[test]
    fn the_kiswahili_start() {
        let rules = Variant::Kiswahili.rules();
        let obs = observe(&rules, &Position::start(&rules));
        // Mover's A5 (column 4) holds 6 seeds; the opponent's a5 faces A4 (column 3).
        assert_eq!(at(&obs, 5, 2, 4), 1.0);
        assert_eq!(at(&obs, CH_SEEDS, 2, 4), 6.0 / 16.0);
        assert_eq!(at(&obs, 5, 1, 3), 1.0);
        assert_eq!(at(&obs, 2, 2, 5), 1.0);
        assert_eq!(at(&obs, 2, 1, 2), 1.0);
        assert_eq!(at(&obs, 0, 0, 0), 1.0);
        assert_eq!(at(&obs, CH_MOVER_HOUSE, 2, 4), 1.0);
        assert_eq!(at(&obs, CH_OPPONENT_HOUSE, 1, 3), 1.0);
        assert_eq!(
            obs[CH_MOVER_HOUSE * CELLS..(CH_OPPONENT_HOUSE + 1) * CELLS]
                .iter()
                .sum::<f32>(),
            2.0
        );
        assert_eq!(at(&obs, CH_MOVER_STORE, 3, 7), 22.0 / 32.0);
        assert_eq!(at(&obs, CH_STAGE_NAMUA, 0, 0), 1.0);
        assert_eq!(at(&obs, CH_STAGE_MTAJI, 0, 0), 0.0);
        assert_eq!(at(&obs, CH_OPPONENT_NAMUA, 1, 1), 1.0);
        assert_eq!(at(&obs, CH_FIRST_MOVE, 2, 2), 1.0);
        // Every cell is in exactly one bucket.
        for c in 0..CELLS {
            let s: f32 = (0..SEED_BUCKETS).map(|b| obs[b * CELLS + c]).sum();
            assert_eq!(s, 1.0);
        }
    }

    #[test]
    fn a_wrong_buffer_is_an_error() {
        let rules = Variant::Kiswahili.rules();
        let pos = Position::start(&rules);
        let mut short = vec![0.0; OBS_LEN - 1];
        assert_eq!(
            try_encode(&rules, &pos, &mut short),
            Err(ObsBufferError {
                expected: OBS_LEN,
                found: OBS_LEN - 1
            })
        );
    }
}
