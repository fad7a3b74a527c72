//! The bookkeeping after a move: the ply, the side to move, and takasia (kutakatia), the block a
//! mtaji-stage takata may put on one of the opponent's pits.

use super::moves::{Move, MoveKind};
use super::options::{House, Takasia};
use super::pit::Pit;
use super::position::{Position, Stage};
use super::rule_set::Rules;
use super::sow::Start;

impl Position {
    /// Bookkeeping after a move: ply, side to move, takasia.
    pub(crate) fn finish(
        &self,
        rules: &Rules,
        mv: Move,
        start: Start,
        mut next: Position,
    ) -> Position {
        self.finish_in_place(rules, mv, start, &mut next);
        next
    }

    /// [`Position::finish`] on the position after the move where it lies.
    pub(crate) fn finish_in_place(
        &self,
        rules: &Rules,
        mv: Move,
        start: Start,
        next: &mut Position,
    ) {
        next.ply = self.ply.wrapping_add(1);
        next.blocked = None;
        next.target = None;
        if mv.kind != MoveKind::Sow {
            return; // the opening code sets the side to move itself
        }
        next.to_move = self.to_move.opponent();
        next.target = self.blocked;
        if next.result.is_none()
            && rules.takasia != Takasia::None
            && start.is_takata()
            && self.stage() == Stage::Mtaji
        {
            next.blocked = next.takasia_pit(rules);
        }
    }

    /// After the previous mover X's mtaji-stage takata, with Y to move: the Y pit takasia
    /// blocks, if Y has no capture and X could capture exactly one Y pit not exempt.
    fn takasia_pit(&self, rules: &Rules) -> Option<Pit> {
        let y = self.to_move;
        let x = y.opponent();
        if self.has_capture(rules, y) {
            return None;
        }
        let target = self.single_capture_target(rules, x)?;
        let ys = &self.pits[y.index()];
        let exempt = match rules.takasia {
            Takasia::None => true,
            Takasia::Malawi => false,
            Takasia::Kiswahili | Takasia::ValidHouseOnly => {
                let house_exempt = target == Pit::HOUSE
                    && self.house[y.index()]
                    && match (&rules.house, rules.takasia) {
                        (House::Nyumba(n), Takasia::ValidHouseOnly) => ys[4] >= n.valid_from,
                        _ => true,
                    };
                let occupied = ys[..8].iter().filter(|&&n| n > 0).count();
                let multiple = ys[..8].iter().filter(|&&n| n > 1).count();
                house_exempt || occupied == 1 || (multiple == 1 && ys[target.index()] > 1)
            }
        };
        if exempt { None } else { Some(target) }
    }
}
