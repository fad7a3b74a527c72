//! The fixed discrete action space: 64 actions seen from the mover's side.
//!
//! An ordinary move (`MoveKind::Sow`) is `pit.index() * 4 + dir * 2 + house`, with the mover's
//! pit ring index 0..16 (0..8 = front row pits 1..8, 8..16 = back row pits 8..1), `Dir::Left` = 0,
//! `Dir::Right` = 1, and the house bit (`+`, play the nyumba). The ring index is the mover's own,
//! so the same action means the same move for South and North.
//!
//! In the Malawi advanced opening (`Stage::Opening`) no ordinary move exists; there a placement
//! `@pit` is `pit * 4 + 0` and an opening capture of the hole facing the mover's front pit `pit`
//! is `pit * 4 + 1`. Ids `pit * 4 + 2` and `pit * 4 + 3` name nothing in that stage, and neither
//! does `pit * 4 + 1` for a back-row pit. Which reading applies is decided by `pos.stage()`.
//!
//! Illegal actions are masked out, never remapped to a legal one.

use crate::notation::{MoveError, MoveText, parse_and_play};
use crate::rules::{Dir, Move, MoveKind, MoveList, Pit, Position, Rules, Stage};

/// Size of the action space.
pub const ACTIONS: usize = 64;

/// An action id that names no move, or a KIBA text that names no legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The id is not in `0..ACTIONS`.
    #[error("action {action} is out of range: actions are 0..{ACTIONS}")]
    OutOfRange {
        /// The id given.
        action: usize,
    },
    /// The id is in range but names no move in the position's stage.
    #[error("action {action} names no move in the {stage} stage: {why}")]
    NoSuchMove {
        /// The id given.
        action: usize,
        /// The stage's name.
        stage: &'static str,
        /// Why.
        why: &'static str,
    },
    /// The text is not a legal move (syntax, wrong side, illegal, ambiguous, game over).
    #[error(transparent)]
    Notation(#[from] MoveError),
}

/// The stage's name for messages.
pub(crate) fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Opening => "opening",
        Stage::Namua => "namua",
        Stage::Mtaji => "mtaji",
    }
}

/// The move action `action` names in `pos` (legal or not; see [`legal_mask_bits`]).
pub fn action_to_move(pos: &Position, action: usize) -> Result<Move, ActionError> {
    if action >= ACTIONS {
        return Err(ActionError::OutOfRange { action });
    }
    let pit = Pit::new((action / 4) as u8).ok_or(ActionError::OutOfRange { action })?;
    if pos.stage() == Stage::Opening {
        let no_move = |why| ActionError::NoSuchMove {
            action,
            stage: "opening",
            why,
        };
        return match action % 4 {
            0 => Ok(Move::place(pit)),
            1 if pit.is_front() => Ok(Move::opening_capture(pit)),
            1 => Err(no_move(
                "an opening capture (pit * 4 + 1) names a front pit",
            )),
            _ => Err(no_move(
                "only placements (pit * 4) and opening captures (pit * 4 + 1) exist",
            )),
        };
    }
    let dir = if action & 2 == 0 {
        Dir::Left
    } else {
        Dir::Right
    };
    Ok(Move {
        house: action & 1 == 1,
        ..Move::sow(pit, dir)
    })
}

/// The action id of `mv`. The id depends on the stage only through the move's kind (a placement
/// or an opening capture exists only in the opening), so `pos` is there for symmetry with
/// [`action_to_move`]: `action_to_move(pos, move_to_action(pos, mv)) == mv` for every move of
/// `pos`'s stage.
#[inline]
pub fn move_to_action(_pos: &Position, mv: Move) -> usize {
    let base = mv.pit.index() * 4;
    match mv.kind {
        MoveKind::Sow => base + (mv.dir as usize) * 2 + mv.house as usize,
        MoveKind::Place => base,
        MoveKind::OpeningCapture => base + 1,
    }
}

/// The legal actions of a generated move list as a bitmask (bit `a` set = action `a` legal).
#[inline]
pub fn legal_mask_bits(pos: &Position, list: &MoveList) -> u64 {
    list.moves()
        .iter()
        .fold(0u64, |bits, &mv| bits | 1u64 << move_to_action(pos, mv))
}

/// A bitmask as 64 booleans.
#[inline]
pub fn mask_to_bools(bits: u64) -> [bool; ACTIONS] {
    std::array::from_fn(|a| bits >> a & 1 == 1)
}

/// Writes a bitmask as 64 floats (1.0 legal, 0.0 illegal), the form the network takes.
/// Writes `min(out.len(), ACTIONS)` floats.
#[inline]
pub fn write_mask(bits: u64, out: &mut [f32]) {
    for (a, x) in out.iter_mut().take(ACTIONS).enumerate() {
        *x = (bits >> a & 1) as f32;
    }
}

/// The set actions of a bitmask, in increasing order (an exact-size iterator, so that a list of
/// them is built at its final size).
pub fn mask_actions(bits: u64) -> MaskActions {
    MaskActions(bits)
}

/// The iterator of [`mask_actions`]: the bits still to yield.
#[derive(Clone, Copy, Debug)]
pub struct MaskActions(u64);

impl Iterator for MaskActions {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let a = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(a)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MaskActions {}

/// The `k`-th set action of a bitmask (0-based), if there are more than `k`.
#[inline]
pub(crate) fn nth_action(bits: u64, k: usize) -> Option<usize> {
    mask_actions(bits).nth(k)
}

/// The action's move in KIBA notation for the mover of `pos` (`A3>`, `b2<+`, `@B3`, `xA4`).
pub fn action_text(pos: &Position, action: usize) -> Result<String, ActionError> {
    let mv = action_to_move(pos, action)?;
    Ok(MoveText {
        mv,
        side: pos.side_to_move(),
    }
    .to_string())
}

/// Reads a move in KIBA notation (parts may be omitted where the notation allows) and returns
/// the action of the one legal move it names.
pub fn parse_action(rules: &Rules, pos: &Position, text: &str) -> Result<usize, ActionError> {
    let (mv, _) = parse_and_play(rules, pos, text)?;
    Ok(move_to_action(pos, mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn layout_of_the_ids() {
        let pos = Position::start(&Variant::Kiswahili.rules());
        let a3 = Pit::new(2).unwrap();
        assert_eq!(move_to_action(&pos, Move::sow(a3, Dir::Left)), 8);
        assert_eq!(move_to_action(&pos, Move::sow(a3, Dir::Right)), 10);
        let plus = Move {
            house: true,
            ..Move::sow(a3, Dir::Right)
        };
        assert_eq!(move_to_action(&pos, plus), 11);
        assert_eq!(action_to_move(&pos, 11).unwrap(), plus);
        assert_eq!(action_text(&pos, 11).unwrap(), "A3>+");
        // B1 is ring index 15.
        assert_eq!(action_text(&pos, 63).unwrap(), "B1>+");
        assert!(matches!(
            action_to_move(&pos, 64),
            Err(ActionError::OutOfRange { action: 64 })
        ));
    }

    #[test]
    fn opening_ids_are_placements_and_captures() {
        let rules = Variant::MalawiAdvanced.rules();
        let pos = Position::start(&rules);
        assert_eq!(pos.stage(), Stage::Opening);
        let b3 = Pit::new(13).unwrap();
        assert_eq!(action_to_move(&pos, 13 * 4).unwrap(), Move::place(b3));
        assert_eq!(action_text(&pos, 13 * 4).unwrap(), "@B3");
        assert_eq!(
            action_to_move(&pos, 4 * 4 + 1).unwrap(),
            Move::opening_capture(Pit::HOUSE)
        );
        assert!(matches!(
            action_to_move(&pos, 13 * 4 + 1),
            Err(ActionError::NoSuchMove { .. })
        ));
        assert!(matches!(
            action_to_move(&pos, 2),
            Err(ActionError::NoSuchMove { .. })
        ));
    }

    #[test]
    fn mask_helpers_agree() {
        let bits = (1u64 << 3) | (1 << 17) | (1 << 63);
        assert_eq!(mask_actions(bits).collect::<Vec<_>>(), vec![3, 17, 63]);
        assert_eq!(nth_action(bits, 1), Some(17));
        assert_eq!(nth_action(bits, 3), None);
        let bools = mask_to_bools(bits);
        assert_eq!(bools.iter().filter(|&&b| b).count(), 3);
        assert!(bools[63] && !bools[62]);
        let mut f = [0.5f32; ACTIONS];
        write_mask(bits, &mut f);
        assert_eq!(f.iter().sum::<f32>(), 3.0);
        assert_eq!(f[17], 1.0);
    }
}
