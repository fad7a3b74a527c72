//! Which captures a side could make: the test behind the mandatory capture, takasia and the
//! Malawi kuu restrictions.

use super::options::House;
use super::pit::{Dir, Pit, Rotation, Side};
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
        rules.captures && self.capture_targets(rules, side, 1) != 0
    }

    /// The single opponent pit `side` could capture with a mtaji-stage capture move, if exactly one.
    pub(crate) fn single_capture_target(&self, rules: &Rules, side: Side) -> Option<Pit> {
        let targets = self.capture_targets(rules, side, 2);
        if targets.count_ones() == 1 {
            Pit::new(targets.trailing_zeros() as u8)
        } else {
            None
        }
    }

    /// The opponent pits `side` could take with a mtaji-stage capture move, a bit per pit index
    /// ([`Position::first_sowing_captures`] of every pit and allowed rotation), the search
    /// stopping once `enough` are found.
    fn capture_targets(&self, rules: &Rules, side: Side, enough: u32) -> u8 {
        let (mine, theirs) = (
            &self.pits[side.index()],
            &self.pits[side.opponent().index()],
        );
        let blocked = self.blocked.filter(|_| side == self.to_move);
        let mut targets = 0u8;
        for pit in Pit::all() {
            let n = mine[pit.index()] as u32;
            if !rules.may_capture_lift(n) || blocked == Some(pit) {
                continue;
            }
            for rotation in Rotation::BOTH.into_iter().filter(|&r| rules.allows(r)) {
                if let Some(t) = first_sowing_target(mine, theirs, pit, n, rotation) {
                    targets |= 1 << t.index();
                    if targets.count_ones() >= enough {
                        return targets;
                    }
                }
            }
        }
        targets
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
        if !rules.may_capture_lift(n) || (side == self.to_move && self.blocked == Some(pit)) {
            return None;
        }
        let theirs = &self.pits[side.opponent().index()];
        first_sowing_target(mine, theirs, pit, n, pit.rotation(dir))
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

/// The opponent pit that lifting the `n` seeds of the mover's `pit` and sowing them in
/// `rotation` captures when that sowing ends, if it does: it ends in a front pit then holding
/// more than one seed, facing seeds.
#[inline]
fn first_sowing_target(
    mine: &[u8; 16],
    theirs: &[u8; 16],
    pit: Pit,
    n: u32,
    rotation: Rotation,
) -> Option<Pit> {
    let end = Pit::new(((pit.index() as u32 + n * rotation.step() as u32) & 15) as u8)?;
    if !end.is_front() {
        return None;
    }
    let after = if end == pit {
        n / 16
    } else {
        mine[end.index()] as u32 + n / 16 + 1
    };
    let target = end.opposite();
    (after > 1 && theirs[target.index()] > 0).then_some(target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveList;
    use crate::variant::Variant;
    use rand::{RngExt, SeedableRng};

    /// The targets of every capture move, pit by pit and direction by direction.
    fn targets_one_by_one(pos: &Position, rules: &Rules, side: Side) -> Vec<Pit> {
        let mut found: Vec<Pit> = Pit::all()
            .flat_map(|pit| Position::dirs(rules, pit).map(move |d| (pit, d)))
            .filter_map(|(pit, d)| pos.first_sowing_captures(rules, side, pit, d))
            .collect();
        found.sort();
        found.dedup();
        found
    }

    #[test]
    fn the_one_pass_capture_search_finds_what_each_move_does() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut list = MoveList::new();
        let mut checked = 0;
        for v in [
            Variant::Kiswahili,
            Variant::Kujifunza,
            Variant::MalawiBasic,
            Variant::Hus,
        ] {
            let rules = v.rules();
            for _ in 0..40 {
                let mut pos = Position::start(&rules);
                for _ in 0..120 {
                    for side in Side::BOTH {
                        let targets = targets_one_by_one(&pos, &rules, side);
                        let single = (targets.len() == 1).then(|| targets[0]);
                        assert_eq!(pos.single_capture_target(&rules, side), single, "{pos}");
                        if pos.store(side) == 0 {
                            let any = rules.captures && !targets.is_empty();
                            assert_eq!(pos.has_capture(&rules, side), any, "{pos}");
                        }
                        checked += 1;
                    }
                    pos.legal_moves(&rules, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    pos = list.children()[rng.random_range(0..list.len())];
                }
            }
        }
        assert!(checked > 10_000, "{checked} positions");
    }
}
