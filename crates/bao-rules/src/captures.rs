//! Which captures a side could make: the test behind the mandatory capture, takasia and the
//! Malawi kuu restrictions.

use super::options::House;
use super::pit::{Dir, Pit, Side};
use super::position::Position;
use super::rule_set::Rules;

impl Position {
    /// The rotations a move from `pit` toward each direction would sow, as allowed by the rules.
    #[inline]
    pub(crate) fn dirs(rules: &Rules, pit: Pit) -> impl Iterator<Item = Dir> {
        Dir::BOTH
            .into_iter()
            .filter(move |&d| rules.allows(pit.rotation(d)))
    }

    /// Whether `side`, if it were to move now, would have a capture move (by the first sowing or
    /// planting, as its stage has it).
    pub(crate) fn has_capture(&self, rules: &Rules, side: Side) -> bool {
        let (mine, theirs) = (
            &self.pits[side.index()],
            &self.pits[side.opponent().index()],
        );
        if self.store[side.index()] > 0 {
            return rules.planting.captures
                && Pit::front().any(|r| {
                    mine[r.index()] > 0
                        && theirs[r.opposite().index()] > 0
                        && !self.kuu_capture_forbidden(rules, side, r)
                });
        }
        rules.captures
            && Pit::all().any(|pit| {
                Self::dirs(rules, pit)
                    .any(|d| self.first_sowing_captures(rules, side, pit, d).is_some())
            })
    }

    /// The single opponent pit `side` could capture with a mtaji-stage capture move, if exactly one.
    pub(crate) fn single_capture_target(&self, rules: &Rules, side: Side) -> Option<Pit> {
        let mut found: Option<Pit> = None;
        for pit in Pit::all() {
            for d in Self::dirs(rules, pit) {
                if let Some(t) = self.first_sowing_captures(rules, side, pit, d) {
                    match found {
                        Some(f) if f != t => return None,
                        _ => found = Some(t),
                    }
                }
            }
        }
        found
    }

    /// If lifting `pit` of `side` and sowing toward `dir` starts a capture move (mtaji stage),
    /// the opponent pit it captures first.
    #[inline]
    pub(crate) fn first_sowing_captures(
        &self,
        rules: &Rules,
        side: Side,
        pit: Pit,
        dir: Dir,
    ) -> Option<Pit> {
        let mine = &self.pits[side.index()];
        let n = mine[pit.index()] as u32;
        if n < rules.min_lift as u32 || n > rules.max_capture_lift.map_or(u32::MAX, u32::from) {
            return None;
        }
        if side == self.to_move && self.blocked == Some(pit) {
            return None;
        }
        let step = pit.rotation(dir).step() as u32;
        let end = Pit::new(((pit.index() as u32 + n * step) & 15) as u8)?;
        if !end.is_front() {
            return None;
        }
        let after = if end == pit {
            n / 16
        } else {
            mine[end.index()] as u32 + n / 16 + 1
        };
        let target = end.opposite();
        (after > 1 && self.pits[side.opponent().index()][target.index()] > 0).then_some(target)
    }

    /// Malawi: in the first stage a player may not directly take the opponent's kuu while its own
    /// kuu is threatened.
    #[inline]
    pub(crate) fn kuu_capture_forbidden(&self, rules: &Rules, side: Side, plant: Pit) -> bool {
        let (me, opp) = (side.index(), side.opponent().index());
        rules.house == House::Kuu
            && plant.opposite() == Pit::HOUSE
            && self.house[opp]
            && self.house[me]
            && self.pits[opp][Pit::HOUSE.opposite().index()] > 0
    }
}
