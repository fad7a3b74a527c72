//! The legal-move generator: which starts each stage allows, each simulated to its end.

use super::moves::{Move, MoveList};
use super::options::{House, LoneKichwa, PlantRows, SingletonPlanting, Takasia, Tax};
use super::pit::{Dir, Pit, Side, kichwa_rotation};
use super::position::{
    EndReason, OPENING_FIRST, OPENING_NONE, OPENING_SECOND, OPENING_SECOND_MAY_CAPTURE, Outcome,
    Position, Stage, front_empty,
};
use super::rule_set::Rules;
use super::sow::{Mover, Start};

impl Position {
    /// Fills `out` with the legal moves and the positions they lead to.
    pub fn legal_moves(&self, rules: &Rules, out: &mut MoveList) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let me = self.to_move.index();
        if rules.empty_front_row_loses && front_empty(&self.pits[me]) && self.opening == 0 {
            return;
        }
        match self.stage() {
            Stage::Opening => self.gen_opening(rules, out),
            Stage::Namua => self.gen_planting(rules, out),
            Stage::Mtaji => self.gen_mtaji(rules, out),
        }
    }

    /// Whether a takata from `pit` toward `dir` is the forbidden lone-kichwa move.
    #[inline]
    fn lone_kichwa_forbidden(&self, rules: &Rules, pit: Pit, dir: Dir) -> bool {
        rules.lone_kichwa == LoneKichwa::Forbidden
            && pit.is_kichwa()
            && !pit.step(pit.rotation(dir)).is_front()
            && self.pits[self.to_move.index()][..8]
                .iter()
                .enumerate()
                .all(|(i, &n)| n == 0 || i == pit.index())
    }

    /// Simulates `start` (and, if the house choice arises, its `+` twin) and adds the legal results.
    fn try_start(&self, rules: &Rules, mv: Move, start: Start, out: &mut MoveList) {
        let house_offered = self.try_start_in_slot(rules, mv, start, false, out);
        if house_offered {
            let mv = Move { house: true, ..mv };
            self.try_start_in_slot(rules, mv, start, true, out);
        }
    }

    /// Plays `start` in the list's next slot and keeps it if legal; whether the house choice
    /// arose.
    #[inline]
    fn try_start_in_slot(
        &self,
        rules: &Rules,
        mv: Move,
        start: Start,
        play_house: bool,
        out: &mut MoveList,
    ) -> bool {
        let Some(child) = out.next_slot() else {
            return false;
        };
        *child = *self;
        let sim = Mover::run(rules, child, start, play_house, &mut ());
        if !sim.illegal {
            self.finish_in_place(rules, mv, start, child);
            out.keep_slot(mv);
        }
        sim.house_offered
    }

    /// Planting (namua) stage moves.
    fn gen_planting(&self, rules: &Rules, out: &mut MoveList) {
        if !rules.planting.first_move_plants && self.ply == 0 {
            self.gen_first_lifts(rules, out);
            return;
        }
        if rules.planting.captures {
            self.gen_planting_captures(rules, out);
            if !out.is_empty() && rules.mandatory_capture {
                return;
            }
        }
        self.gen_planting_takata(rules, out);
    }

    /// Kimasai's very first turn: any non-empty pit is lifted, and no seed is planted.
    fn gen_first_lifts(&self, rules: &Rules, out: &mut MoveList) {
        let mine = &self.pits[self.to_move.index()];
        for pit in Pit::all().filter(|p| mine[p.index()] > 0) {
            for dir in Self::dirs(rules, pit) {
                let start = Start::Lift {
                    pit,
                    dir,
                    capturing: false,
                };
                self.try_start(rules, Move::sow(pit, dir), start, out);
            }
        }
    }

    /// Planting captures: a seed into a front pit facing seeds, whose capture is sown from the
    /// kichwa the direction names.
    fn gen_planting_captures(&self, rules: &Rules, out: &mut MoveList) {
        let me = self.to_move.index();
        let (mine, theirs) = (&self.pits[me], &self.pits[1 - me]);
        for pit in Pit::front() {
            if mine[pit.index()] == 0
                || theirs[pit.opposite().index()] == 0
                || self.kuu_capture_forbidden(rules, self.to_move, pit)
                || self.target.is_some_and(|t| t != pit.opposite())
            {
                continue;
            }
            for dir in Dir::BOTH {
                // The direction names the kichwa; a kimbi capture must use the nearest one.
                let kichwa = if dir == Dir::Left {
                    Pit::LEFT_KICHWA
                } else {
                    Pit::RIGHT_KICHWA
                };
                if rules.kimbi && pit.is_kimbi() && kichwa != pit.nearest_kichwa() {
                    continue;
                }
                if !rules.allows(kichwa_rotation(kichwa)) {
                    continue;
                }
                let start = Start::PlantCapture { pit, dir };
                self.try_start(rules, Move::sow(pit, dir), start, out);
            }
        }
    }

    /// Planting takata: a seed into a pit that may start one, then that pit sown.
    fn gen_planting_takata(&self, rules: &Rules, out: &mut MoveList) {
        let mine = &self.pits[self.to_move.index()];
        for pit in Pit::all() {
            let n = mine[pit.index()];
            if n == 0
                || (rules.planting.rows == PlantRows::Front && !pit.is_front())
                || self.blocked == Some(pit)
                || (n == 1 && !self.may_plant_singleton(rules))
            {
                continue;
            }
            let Some(tax) = self.planting_tax(rules, pit, n) else {
                continue;
            };
            for dir in Self::dirs(rules, pit) {
                if self.lone_kichwa_forbidden(rules, pit, dir) {
                    continue;
                }
                let start = Start::Plant { pit, dir, tax };
                self.try_start(rules, Move::sow(pit, dir), start, out);
            }
        }
    }

    /// Whether a planting takata may start from `pit` (holding `n` seeds), and if so whether it
    /// is a tax (two seeds of the house sown); `None`: the house may not start one.
    fn planting_tax(&self, rules: &Rules, pit: Pit, n: u8) -> Option<bool> {
        let me = self.to_move.index();
        if pit != Pit::HOUSE || !self.house[me] {
            return Some(false);
        }
        let occupied_front = self.pits[me][..8].iter().filter(|&&n| n > 0).count();
        match &rules.house {
            House::Nyumba(h) if n >= h.valid_from => match h.tax {
                Tax::WhenAlone if occupied_front == 1 => Some(true),
                Tax::WhenAlone => None,
                Tax::Always => Some(true),
                Tax::Never => Some(false),
            },
            // The kuu is never a takata start in the first stage, except when it is the only
            // occupied front pit: taxed, or sown whole when it holds exactly 8.
            House::Kuu => (occupied_front == 1).then_some(n != 8),
            _ => Some(false),
        }
    }

    /// Whether a seed may be planted into a pit holding one (the singleton rule in force).
    fn may_plant_singleton(&self, rules: &Rules) -> bool {
        let me = self.to_move.index();
        let mine = &self.pits[me];
        let house_at = |p: Pit| p == Pit::HOUSE && self.house[me];
        let multiple_front = |skip_kuu: bool| {
            Pit::front().any(|p| mine[p.index()] > 1 && !(skip_kuu && house_at(p)))
        };
        match rules.planting.singletons {
            SingletonPlanting::Always => true,
            SingletonPlanting::UnlessHouseLost => self.house[me] || !multiple_front(false),
            SingletonPlanting::OnlyIfNoOtherMultiple => !multiple_front(true),
        }
    }

    /// Mtaji stage moves.
    fn gen_mtaji(&self, rules: &Rules, out: &mut MoveList) {
        if !rules.takata {
            self.gen_free_lifts(rules, out);
            return;
        }
        if rules.captures {
            self.gen_mtaji_captures(rules, out);
            // Never-ending captures are illegal, so the duty to capture is over the legal ones.
            if !out.is_empty() && rules.mandatory_capture {
                return;
            }
        }
        self.gen_mtaji_takata(rules, out);
    }

    /// Hus, Kimasai: any pit with enough seeds; captures may happen at any sowing's end.
    fn gen_free_lifts(&self, rules: &Rules, out: &mut MoveList) {
        let mine = &self.pits[self.to_move.index()];
        for pit in Pit::all().filter(|p| mine[p.index()] >= rules.min_lift) {
            for dir in Self::dirs(rules, pit) {
                if self.lone_kichwa_forbidden(rules, pit, dir) {
                    continue;
                }
                let start = Start::Lift {
                    pit,
                    dir,
                    capturing: rules.captures,
                };
                self.try_start(rules, Move::sow(pit, dir), start, out);
            }
        }
    }

    /// Mtaji captures; a takasia target restricts them to those taking it (if any still do).
    fn gen_mtaji_captures(&self, rules: &Rules, out: &mut MoveList) {
        let side = self.to_move;
        let hits_target = |pit, dir| {
            self.first_sowing_captures(rules, side, pit, dir)
                .is_some_and(|t| Some(t) == self.target)
        };
        let restrict = self.target.is_some()
            && Pit::all().any(|p| Self::dirs(rules, p).any(|d| hits_target(p, d)));
        for pit in Pit::all() {
            for dir in Self::dirs(rules, pit) {
                if self.first_sowing_captures(rules, side, pit, dir).is_none()
                    || (restrict && !hits_target(pit, dir))
                {
                    continue;
                }
                let start = Start::Lift {
                    pit,
                    dir,
                    capturing: true,
                };
                self.try_start(rules, Move::sow(pit, dir), start, out);
            }
        }
    }

    /// Mtaji takata from the pits that may start one.
    fn gen_mtaji_takata(&self, rules: &Rules, out: &mut MoveList) {
        let starts = self.takata_starts(rules);
        for pit in Pit::all().filter(|p| starts & (1 << p.index()) != 0) {
            for dir in Self::dirs(rules, pit) {
                if self
                    .first_sowing_captures(rules, self.to_move, pit, dir)
                    .is_some()
                    || self.lone_kichwa_forbidden(rules, pit, dir)
                {
                    continue; // a capture move (generated as one), or forbidden
                }
                let start = Start::Lift {
                    pit,
                    dir,
                    capturing: false,
                };
                self.try_start(rules, Move::sow(pit, dir), start, out);
            }
        }
    }

    /// The pits that may start a mtaji takata, one bit each.
    fn takata_starts(&self, rules: &Rules) -> u16 {
        let me = self.to_move.index();
        let mine = &self.pits[me];
        // Malawi: a kuu never moved must be moved on the first takata, unless takasia blocks it:
        // then takasia wins, the other takata moves are legal and the duty waits for the next
        // takata (the blocked kuu still starts one when nothing else can, below).
        if rules.house == House::Kuu
            && self.house[me]
            && mine[Pit::HOUSE.index()] >= rules.min_lift
            && self.blocked != Some(Pit::HOUSE)
        {
            return 1 << Pit::HOUSE.index();
        }
        let startable = |p: Pit| mine[p.index()] >= rules.min_lift && self.blocked != Some(p);
        let mut starts: u16 = 0;
        for p in Pit::front().filter(|&p| startable(p)) {
            starts |= 1 << p.index();
        }
        if starts == 0 || !rules.front_row_first {
            for p in Pit::all().filter(|&p| !p.is_front() && startable(p)) {
                starts |= 1 << p.index();
            }
        }
        if starts == 0
            && rules.takasia == Takasia::Malawi
            && let Some(b) = self.blocked.filter(|b| mine[b.index()] >= rules.min_lift)
        {
            starts = 1 << b.index();
        }
        starts
    }

    /// Malawi advanced opening moves.
    fn gen_opening(&self, rules: &Rules, out: &mut MoveList) {
        let me = self.to_move.index();
        if self.opening == OPENING_SECOND_MAY_CAPTURE {
            // The hole facing the kuu or a setup hole with seeds, if it has seeds.
            for pit in Pit::front() {
                let setup = rules.setup.front[pit.index()];
                let facing = self.pits[1 - me][pit.opposite().index()];
                if setup > 0 && facing > 0 {
                    let mut next = *self;
                    next.pits[1 - me][pit.opposite().index()] = 0;
                    // A kuu emptied by the capture loses its privileges, as any emptied house.
                    if pit.opposite() == Pit::HOUSE {
                        next.house[1 - me] = false;
                    }
                    next.hand += facing;
                    next.opening = OPENING_SECOND;
                    if rules.empty_front_row_loses && next.front_row_empty(self.to_move.opponent())
                    {
                        next.result = Some(Outcome {
                            winner: Some(self.to_move),
                            reason: EndReason::FrontRowEmpty,
                        });
                    }
                    let mv = Move::opening_capture(pit);
                    out.push(mv, self.finish(rules, mv, Start::Opening, next));
                }
            }
        }
        for pit in Pit::all() {
            let mut next = *self;
            next.pits[me][pit.index()] += 1;
            next.hand -= 1;
            if next.opening == OPENING_SECOND_MAY_CAPTURE {
                next.opening = OPENING_SECOND;
            }
            if next.hand == 0 {
                if next.opening == OPENING_FIRST {
                    next.opening = OPENING_SECOND_MAY_CAPTURE;
                    next.begin_distribution(Side::North);
                } else {
                    next.opening = OPENING_NONE;
                    next.to_move = Side::South;
                }
            }
            let mv = Move::place(pit);
            out.push(mv, self.finish(rules, mv, Start::Opening, next));
        }
    }
}
