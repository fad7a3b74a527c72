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
    let out: &mut [f32; OBS_LEN] = (&mut out[..OBS_LEN])
        .try_into()
        .expect("the slice is OBS_LEN long");
    out.fill(0.0);
    let me = pos.side_to_move();
    let opp = me.opponent();
    for (cells, side) in [(&MOVER_CELL, me), (&OPPONENT_CELL, opp)] {
        for (&c, &n) in cells.iter().zip(pos.pits(side)) {
            out[BUCKET[n as usize] as usize * CELLS + c] = 1.0;
            out[CH_SEEDS * CELLS + c] = f32::from(n) / 16.0;
        }
    }
    let mut fill = |ch: usize, v: f32| {
        if v != 0.0 {
            out[ch * CELLS..(ch + 1) * CELLS].fill(v);
        }
    };
    fill(CH_MOVER_STORE, f32::from(pos.store(me)) / 32.0);
    fill(CH_OPPONENT_STORE, f32::from(pos.store(opp)) / 32.0);
    fill(
        match pos.stage() {
            Stage::Namua => CH_STAGE_NAMUA,
            Stage::Mtaji => CH_STAGE_MTAJI,
            Stage::Opening => CH_STAGE_OPENING,
        },
        1.0,
    );
    fill(CH_OPPONENT_NAMUA, f32::from(u8::from(pos.store(opp) > 0)));
    fill(CH_HAND, f32::from(pos.hand()) / 16.0);
    fill(CH_FIRST_MOVE, f32::from(u8::from(pos.ply() == 0)));
    fill(CH_MTAJI_CAPTURED, f32::from(u8::from(pos.mtaji_captured())));
    fill(
        CH_OPENING_FIRST,
        f32::from(u8::from(pos.opening_phase() == 1)),
    );
    fill(
        CH_OPENING_MAY_CAPTURE,
        f32::from(u8::from(pos.opening_phase() == 2)),
    );
    if let Some(result) = pos.result() {
        fill(
            match result.winner {
                Some(w) if w == me => CH_OVER_MOVER_WON,
                Some(_) => CH_OVER_MOVER_LOST,
                None => CH_OVER_VOID,
            },
            1.0,
        );
    }
    if pos.house_owned(me) {
        out[CH_MOVER_HOUSE * CELLS + MOVER_CELL[Pit::HOUSE.index()]] = 1.0;
    }
    if pos.house_owned(opp) {
        out[CH_OPPONENT_HOUSE * CELLS + OPPONENT_CELL[Pit::HOUSE.index()]] = 1.0;
    }
    if let Some(b) = pos.blocked() {
        out[CH_BLOCKED * CELLS + MOVER_CELL[b.index()]] = 1.0;
    }
    if let Some(t) = pos.target() {
        out[CH_TARGET * CELLS + OPPONENT_CELL[t.index()]] = 1.0;
    }
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
