//! The game state and the legal-move generator.

use super::moves::{Move, MoveKind, MoveList};
use super::pit::{Dir, Pit, Rotation, Side};
use super::sow::{Mover, Start};
use super::trace::Event;
use super::variant::{
    House, LoneKichwa, Opening, PlantRows, Rules, SingletonPlanting, Sowing, Takasia, Tax,
};
use serde::{Deserialize, Serialize};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The loser's front row became empty.
    FrontRowEmpty,
    /// The loser, to move, had no legal move.
    NoMoves,
    /// A never-ending move was played (lost, or the game is void).
    NeverEndingMove,
}

/// The result of a finished game: the winner (`None` for a void game) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner, or `None` for a void (drawn) game.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// The stage of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// Malawi advanced opening: seeds are placed one at a time.
    Opening,
    /// Planting stage (kunamua): the mover still has seeds in store.
    Namua,
    /// Mtaji stage: all the mover's seeds are on the board.
    Mtaji,
}

/// Malawi advanced opening phases.
pub(crate) const OPENING_NONE: u8 = 0;
pub(crate) const OPENING_FIRST: u8 = 1;
pub(crate) const OPENING_SECOND_MAY_CAPTURE: u8 = 2;
pub(crate) const OPENING_SECOND: u8 = 3;

/// A Bao position: everything that decides the legal moves and the future of the game.
/// Small and `Copy` (48 bytes); the rule set is passed alongside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    /// Seeds per pit, `[side][ring index]`.
    pub(crate) pits: [[u8; 16]; 2],
    /// Seeds in store per side.
    pub(crate) store: [u8; 2],
    /// Whether each side still owns its house (nyumba or kuu).
    pub(crate) house: [bool; 2],
    pub(crate) to_move: Side,
    /// Plies played since the start.
    pub(crate) ply: u16,
    /// Takasia: the mover's pit it may not start from (and where a relay stops).
    pub(crate) blocked: Option<Pit>,
    /// Takasia: the opponent's pit the mover must capture.
    pub(crate) target: Option<Pit>,
    /// Malawi advanced opening: seeds the mover still has to place.
    pub(crate) hand: u8,
    /// Malawi advanced opening phase (0 = over).
    pub(crate) opening: u8,
    /// A capture has been made in the mtaji stage (ends house ownership under `Nyumba::in_mtaji`).
    pub(crate) mtaji_captured: bool,
    /// Set when a move ended the game.
    pub(crate) result: Option<Outcome>,
}

impl Position {
    /// An empty board, South to move (a placeholder for buffers).
    pub const EMPTY: Position = Position {
        pits: [[0; 16]; 2],
        store: [0; 2],
        house: [false; 2],
        to_move: Side::South,
        ply: 0,
        blocked: None,
        target: None,
        hand: 0,
        opening: OPENING_NONE,
        mtaji_captured: false,
        result: None,
    };

    /// The start position of a rule set.
    pub fn start(rules: &Rules) -> Position {
        let mut p = Position::EMPTY;
        for side in 0..2 {
            for (i, (&f, &b)) in rules.setup.front.iter().zip(&rules.setup.back).enumerate() {
                p.pits[side][i] = f;
                p.pits[side][15 - i] = b;
            }
            p.store[side] = rules.setup.store;
            p.house[side] = rules.has_house();
        }
        if rules.opening == Opening::MalawiAdvanced {
            p.opening = OPENING_FIRST;
            p.begin_distribution(Side::South);
        }
        p
    }

    /// The player to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// Seeds in a pit.
    #[inline]
    pub fn seeds(&self, side: Side, pit: Pit) -> u8 {
        self.pits[side.index()][pit.index()]
    }

    /// All 16 pits of a side, in ring order.
    #[inline]
    pub fn pits(&self, side: Side) -> &[u8; 16] {
        &self.pits[side.index()]
    }

    /// Seeds in a side's store.
    #[inline]
    pub fn store(&self, side: Side) -> u8 {
        self.store[side.index()]
    }

    /// Whether a side still owns its house.
    #[inline]
    pub fn house_owned(&self, side: Side) -> bool {
        self.house[side.index()]
    }

    /// Plies played.
    #[inline]
    pub fn ply(&self) -> u16 {
        self.ply
    }

    /// The mover's pit blocked by takasia, if any.
    #[inline]
    pub fn blocked(&self) -> Option<Pit> {
        self.blocked
    }

    /// The opponent's pit the mover must capture (takasia), if any.
    #[inline]
    pub fn target(&self) -> Option<Pit> {
        self.target
    }

    /// Seeds the mover still places in the Malawi advanced opening.
    #[inline]
    pub fn hand(&self) -> u8 {
        self.hand
    }

    /// The Malawi advanced opening phase (0 when there is none or it is over).
    #[inline]
    pub fn opening_phase(&self) -> u8 {
        self.opening
    }

    /// A position from its fields (for compact storage formats; no check is made: see
    /// [`Position::validate`]).
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        pits: [[u8; 16]; 2],
        store: [u8; 2],
        house: [bool; 2],
        to_move: Side,
        ply: u16,
        blocked: Option<Pit>,
        target: Option<Pit>,
        hand: u8,
        opening: u8,
        mtaji_captured: bool,
    ) -> Position {
        Position {
            pits,
            store,
            house,
            to_move,
            ply,
            blocked,
            target,
            hand,
            opening,
            mtaji_captured,
            result: None,
        }
    }

    /// Whether a capture has been made in the mtaji stage.
    #[inline]
    pub fn mtaji_captured(&self) -> bool {
        self.mtaji_captured
    }

    /// The stage of the player to move.
    pub fn stage(&self) -> Stage {
        if self.opening != OPENING_NONE {
            Stage::Opening
        } else if self.store[self.to_move.index()] > 0 {
            Stage::Namua
        } else {
            Stage::Mtaji
        }
    }

    /// Seeds on the board and in the stores (and in an opening hand).
    pub fn total_seeds(&self) -> u32 {
        let board: u32 = self.pits.iter().flatten().map(|&n| n as u32).sum();
        board + self.store.iter().map(|&n| n as u32).sum::<u32>() + self.hand as u32
    }

    /// Whether a side's front row is empty.
    #[inline]
    pub fn front_row_empty(&self, side: Side) -> bool {
        front_empty(&self.pits[side.index()])
    }

    /// The result if a move has ended the game (without generating moves; see [`Position::outcome`]).
    #[inline]
    pub fn result(&self) -> Option<Outcome> {
        self.result
    }

    /// The outcome of the game, or `None` while it goes on. A player with no legal move loses.
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        if self.result.is_some() {
            return self.result;
        }
        let mut list = MoveList::new();
        self.legal_moves(rules, &mut list);
        self.outcome_given(&list)
    }

    /// The outcome, given this position's legal moves already generated into `list`.
    pub fn outcome_given(&self, list: &MoveList) -> Option<Outcome> {
        if self.result.is_some() {
            self.result
        } else if list.is_empty() {
            Some(Outcome {
                winner: Some(self.to_move.opponent()),
                reason: EndReason::NoMoves,
            })
        } else {
            None
        }
    }

    /// Plays `mv` if it is legal; otherwise returns the error naming the legal moves.
    pub fn play(&self, rules: &Rules, mv: Move) -> Result<Position, IllegalMove> {
        let mut list = MoveList::new();
        self.legal_moves(rules, &mut list);
        list.find(mv)
            .copied()
            .ok_or_else(|| IllegalMove::new(self, mv, &list))
    }

    /// Plays `mv` and returns what it did, step by step.
    pub fn play_traced(
        &self,
        rules: &Rules,
        mv: Move,
    ) -> Result<(Position, Vec<Event>), IllegalMove> {
        let child = self.play(rules, mv)?;
        // Replay the same start with a recording observer: the generator's decision is reused.
        let mut events = Vec::new();
        let start = self.start_of(rules, mv);
        let sim = Mover::run(rules, self, start, mv.house, &mut events);
        let mut replayed = self.finish(rules, mv, start, sim.pos);
        if let Some(pit) = replayed.blocked {
            events.push(Event::Block {
                side: replayed.to_move,
                pit,
            });
        }
        replayed.result = replayed.result.or(child.result);
        debug_assert_eq!(replayed, child);
        Ok((child, events))
    }

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

    /// The rotations a move from `pit` toward each direction would sow, as allowed by the rules.
    #[inline]
    fn dirs(rules: &Rules, pit: Pit) -> impl Iterator<Item = Dir> {
        Dir::BOTH
            .into_iter()
            .filter(move |&d| rotation_allowed(rules, pit.rotation(d)))
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
        let sim = Mover::run(rules, self, start, false, &mut ());
        if !sim.illegal {
            out.push(mv, self.finish(rules, mv, start, sim.pos));
        }
        if sim.house_offered {
            let sim = Mover::run(rules, self, start, true, &mut ());
            if !sim.illegal {
                let mv = Move { house: true, ..mv };
                out.push(mv, self.finish(rules, mv, start, sim.pos));
            }
        }
    }

    /// Bookkeeping after a move: ply, side to move, takasia.
    fn finish(&self, rules: &Rules, mv: Move, start: Start, mut next: Position) -> Position {
        next.ply = self.ply.wrapping_add(1);
        next.blocked = None;
        next.target = None;
        if mv.kind != MoveKind::Sow {
            return next; // the opening code sets the side to move itself
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
        next
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
    fn single_capture_target(&self, rules: &Rules, side: Side) -> Option<Pit> {
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
    fn first_sowing_captures(&self, rules: &Rules, side: Side, pit: Pit, dir: Dir) -> Option<Pit> {
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
    fn kuu_capture_forbidden(&self, rules: &Rules, side: Side, plant: Pit) -> bool {
        let (me, opp) = (side.index(), side.opponent().index());
        rules.house == House::Kuu
            && plant.opposite() == Pit::HOUSE
            && self.house[opp]
            && self.house[me]
            && self.pits[opp][Pit::HOUSE.opposite().index()] > 0
    }

    /// Planting (namua) stage moves.
    fn gen_planting(&self, rules: &Rules, out: &mut MoveList) {
        let me = self.to_move.index();
        let mine = &self.pits[me];
        let theirs = &self.pits[1 - me];
        if !rules.planting.first_move_plants && self.ply == 0 {
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
            return;
        }
        if rules.planting.captures {
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
                    if !rotation_allowed(rules, kichwa_rotation(kichwa)) {
                        continue;
                    }
                    self.try_start(
                        rules,
                        Move::sow(pit, dir),
                        Start::PlantCapture { pit, dir },
                        out,
                    );
                }
            }
            if !out.is_empty() && rules.mandatory_capture {
                return;
            }
        }
        let occupied_front = mine[..8].iter().filter(|&&n| n > 0).count();
        let house_at = |p: Pit| p == Pit::HOUSE && self.house[me];
        let multiple_front = |skip_kuu: bool| {
            Pit::front().any(|p| mine[p.index()] > 1 && !(skip_kuu && house_at(p)))
        };
        for pit in Pit::all() {
            let n = mine[pit.index()];
            if n == 0 || (rules.planting.rows == PlantRows::Front && !pit.is_front()) {
                continue;
            }
            if self.blocked == Some(pit) {
                continue;
            }
            let tax = match &rules.house {
                House::Nyumba(h) if house_at(pit) && n >= h.valid_from => match h.tax {
                    Tax::WhenAlone if occupied_front == 1 => true,
                    Tax::WhenAlone => continue,
                    Tax::Always => true,
                    Tax::Never => false,
                },
                // The kuu is never a takata start in the first stage, except when it is the only
                // occupied front pit: taxed, or sown whole when it holds exactly 8.
                House::Kuu if house_at(pit) => {
                    if occupied_front != 1 {
                        continue;
                    }
                    n != 8
                }
                _ => false,
            };
            if n == 1 {
                let allowed = match rules.planting.singletons {
                    SingletonPlanting::Always => true,
                    SingletonPlanting::UnlessHouseLost => self.house[me] || !multiple_front(false),
                    SingletonPlanting::OnlyIfNoOtherMultiple => !multiple_front(true),
                };
                if !allowed {
                    continue;
                }
            }
            for dir in Self::dirs(rules, pit) {
                if self.lone_kichwa_forbidden(rules, pit, dir) {
                    continue;
                }
                self.try_start(
                    rules,
                    Move::sow(pit, dir),
                    Start::Plant { pit, dir, tax },
                    out,
                );
            }
        }
    }

    /// Mtaji stage moves.
    fn gen_mtaji(&self, rules: &Rules, out: &mut MoveList) {
        let me = self.to_move.index();
        let mine = &self.pits[me];
        if !rules.takata {
            // Hus, Kimasai: any pit with enough seeds; captures may happen at any sowing's end.
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
            return;
        }
        let side = self.to_move;
        if rules.captures {
            // A takasia target restricts the captures to those taking it (if any still do).
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
            // Never-ending captures are illegal, so the duty to capture is over the legal ones.
            if !out.is_empty() && rules.mandatory_capture {
                return;
            }
        }
        // Takata: which pits may start one.
        let startable = |p: Pit| mine[p.index()] >= rules.min_lift && self.blocked != Some(p);
        let mut starts: u16 = 0;
        if rules.house == House::Kuu && self.house[me] && mine[Pit::HOUSE.index()] >= rules.min_lift
        {
            starts = 1 << Pit::HOUSE.index(); // Malawi: the kuu must be moved on the first takata.
        }
        if starts == 0 {
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
        }
        for pit in Pit::all().filter(|p| starts & (1 << p.index()) != 0) {
            for dir in Self::dirs(rules, pit) {
                if self.first_sowing_captures(rules, side, pit, dir).is_some()
                    || self.lone_kichwa_forbidden(rules, pit, dir)
                {
                    continue; // a capture move (handled above), or forbidden
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

    /// The side that distributes seeds in the Malawi advanced opening takes its setup seeds other
    /// than the kuu's into its hand, plus one from store.
    fn begin_distribution(&mut self, side: Side) {
        let s = side.index();
        let mut hand = 0u32;
        for pit in Pit::all().filter(|&p| p != Pit::HOUSE) {
            hand += self.pits[s][pit.index()] as u32;
            self.pits[s][pit.index()] = 0;
        }
        self.store[s] -= 1;
        self.hand = (hand + 1) as u8;
        self.to_move = side;
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

    /// How the generator started `mv` (for replaying it with a trace).
    fn start_of(&self, rules: &Rules, mv: Move) -> Start {
        let me = self.to_move.index();
        match (mv.kind, self.stage()) {
            (MoveKind::Sow, Stage::Namua) => {
                if !rules.planting.first_move_plants && self.ply == 0 {
                    return Start::Lift {
                        pit: mv.pit,
                        dir: mv.dir,
                        capturing: false,
                    };
                }
                let capture = rules.planting.captures
                    && mv.pit.is_front()
                    && self.pits[me][mv.pit.index()] > 0
                    && self.pits[1 - me][mv.pit.opposite().index()] > 0;
                if capture {
                    return Start::PlantCapture {
                        pit: mv.pit,
                        dir: mv.dir,
                    };
                }
                let n = self.pits[me][mv.pit.index()];
                let tax = mv.pit == Pit::HOUSE
                    && self.house[me]
                    && match &rules.house {
                        House::Nyumba(h) => n >= h.valid_from && h.tax != Tax::Never,
                        House::Kuu => n != 8,
                        House::None => false,
                    };
                Start::Plant {
                    pit: mv.pit,
                    dir: mv.dir,
                    tax,
                }
            }
            (MoveKind::Sow, _) => {
                let capturing = if rules.takata {
                    self.first_sowing_captures(rules, self.to_move, mv.pit, mv.dir)
                        .is_some()
                } else {
                    rules.captures
                };
                Start::Lift {
                    pit: mv.pit,
                    dir: mv.dir,
                    capturing,
                }
            }
            _ => Start::Opening,
        }
    }
}

/// Whether the rules allow sowing in `rotation`.
#[inline]
fn rotation_allowed(rules: &Rules, rotation: Rotation) -> bool {
    match rules.sowing {
        Sowing::Both => true,
        Sowing::Clockwise => rotation == Rotation::Clockwise,
        Sowing::Anticlockwise => rotation == Rotation::Anticlockwise,
    }
}

/// The rotation a capture sown from `kichwa` takes: clockwise from the left, anticlockwise from
/// the right, so the front row is sown first.
#[inline]
pub(crate) fn kichwa_rotation(kichwa: Pit) -> Rotation {
    if kichwa == Pit::LEFT_KICHWA {
        Rotation::Clockwise
    } else {
        Rotation::Anticlockwise
    }
}

#[inline]
pub(crate) fn front_empty(pits: &[u8; 16]) -> bool {
    u64::from_ne_bytes(pits[..8].try_into().expect("8 bytes")) == 0
}

/// An illegal move, with the legal ones for the error message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv} for {side}; legal moves: {legal}", legal = if legal.is_empty() { "none".to_string() } else { legal.join(" ") })]
pub struct IllegalMove {
    /// The move in notation.
    pub mv: String,
    /// The mover.
    pub side: Side,
    /// The legal moves in canonical notation.
    pub legal: Vec<String>,
}

impl IllegalMove {
    fn new(pos: &Position, mv: Move, list: &MoveList) -> IllegalMove {
        let side = pos.to_move;
        let name = |m: Move| crate::notation::MoveText { mv: m, side }.to_string();
        let mut legal: Vec<String> = list.moves().iter().map(|&m| name(m)).collect();
        legal.sort();
        IllegalMove {
            mv: name(mv),
            side,
            legal,
        }
    }
}
