//! Playing one move: planting, lifting, sowing, relays, captures, the house, the end of a move.
//!
//! The sowing is deterministic once the move's choices are made, so a move is simulated on a
//! copy of the position. A move that sows more than the rule set's bound is never-ending
//! ([`bound`]); deep into a long move, plain relays run on the mover's ring of pits ([`ring`]).

mod bound;
mod ring;

pub use ring::without_ring;

use super::options::{CapturedSowing, House};
use super::pit::{Dir, Pit, Rotation, Side, kichwa_rotation};
use super::position::{EndReason, Outcome, Position, Stage};
use super::rule_set::Rules;
use super::trace::{Event, Observer, StopReason};

/// How a move begins; decided by the move generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Start {
    /// Planting stage takata: a seed from store into `pit`, then the pit (or 2 seeds of a taxed
    /// house) sown toward `dir`.
    Plant { pit: Pit, dir: Dir, tax: bool },
    /// Planting stage capture: a seed from store into `pit`, the facing pit captured and sown from
    /// the kichwa `dir` names (`<` left, `>` right).
    PlantCapture { pit: Pit, dir: Dir },
    /// Lift `pit` whole and sow toward `dir`; `capturing`: the move may capture.
    Lift { pit: Pit, dir: Dir, capturing: bool },
    /// A Malawi advanced opening action (no sowing).
    Opening,
}

impl Start {
    /// Whether the move is a takata (makes no capture).
    pub(crate) fn is_takata(self) -> bool {
        match self {
            Start::Plant { .. } => true,
            Start::Lift { capturing, .. } => !capturing,
            Start::PlantCapture { .. } | Start::Opening => false,
        }
    }
}

/// What simulating a move found besides the position it left.
#[derive(Clone, Copy)]
pub(crate) struct Sim {
    /// The house choice arose (a `+` twin of the move exists).
    pub house_offered: bool,
    /// The move never ends and the rules make such a move illegal.
    pub illegal: bool,
}

/// One move being played.
pub(crate) struct Mover<'a, O: Observer> {
    rules: &'a Rules,
    /// The position being played on, in place: the move generator's own slot for the child,
    /// so that no position is copied after the move (reading a just-written position back as a
    /// whole stalls the CPU on store forwarding, a fifth of the generator's time when it was
    /// returned by value).
    p: &'a mut Position,
    side: Side,
    me: usize,
    opp: usize,
    obs: &'a mut O,
    /// The move may capture (a capture move, or a variant where any sowing may capture).
    capturing: bool,
    /// The mover's stage at the start of the move.
    mtaji: bool,
    play_house: bool,
    house_offered: bool,
    illegal: bool,
    /// Seeds sown so far: every seed a sowing dropped.
    sown: u64,
    /// The most seeds the move may sow before it is never-ending (the rules' N).
    bound: u64,
    relays: u32,
}

/// What to do after a sowing ends.
#[derive(Clone, Copy)]
enum Next {
    /// Sow `seeds` starting at `first` (inclusive) in `rotation`; `lifted_front`: the seeds were
    /// just lifted from a front pit (the front row may now be empty). `take`: the seeds the
    /// lift takes out of the mover's ring, as ring bytes, still in it: the sowing takes them
    /// and sows in one write of the whole ring (writing the lifted pit's byte first, then
    /// reading the ring whole, stalls the CPU on store forwarding).
    Sow {
        first: Pit,
        seeds: u32,
        rotation: Rotation,
        lifted_front: bool,
        take: u128,
    },
    /// The sowing ended in `pit`, which is lifted and sown on in `rotation`.
    Relay {
        pit: Pit,
        rotation: Rotation,
    },
    Stop(StopReason),
}

impl<'a, O: Observer> Mover<'a, O> {
    /// Plays `start` on `pos` in place (the position before the move; afterwards the position
    /// after it, side to move not yet switched). `play_house`: answer to the house choice if it
    /// arises.
    pub(crate) fn run(
        rules: &'a Rules,
        pos: &'a mut Position,
        start: Start,
        play_house: bool,
        obs: &'a mut O,
    ) -> Sim {
        let mut m = Mover::new(rules, pos, play_house, obs);
        let mut next = m.begin(start);
        loop {
            next = m.sow_to_relay(next);
            let Next::Relay { pit, rotation } = next else {
                break;
            };
            next = m.relay_on(pit, rotation);
        }
        m.finish(next)
    }
}

impl<'a, O: Observer> Mover<'a, O> {
    /// A move about to begin on `pos`.
    fn new(rules: &'a Rules, pos: &'a mut Position, play_house: bool, obs: &'a mut O) -> Self {
        let side = pos.to_move;
        let mtaji = pos.stage() == Stage::Mtaji;
        Mover {
            rules,
            p: pos,
            side,
            me: side.index(),
            opp: side.opponent().index(),
            obs,
            capturing: false,
            mtaji,
            play_house,
            house_offered: false,
            illegal: false,
            sown: 0,
            bound: rules.never_ending_bound(),
            relays: 0,
        }
    }

    /// Plays on from `next` up to the next relay (not yet lifted) or the end of the move.
    fn sow_to_relay(&mut self, mut next: Next) -> Next {
        while let Next::Sow {
            first,
            seeds,
            rotation,
            lifted_front,
            take,
        } = next
        {
            next = match self.sow(first, seeds, rotation, lifted_front, take) {
                // The rules count when a sowing's last seed falls: past the bound, the move is
                // never-ending there, whatever would have followed.
                Some(_) if self.passed_bound() => self.declare_never_ending(),
                Some(last) => self.after_sowing(last, rotation),
                None => Next::Stop(StopReason::FrontRowEmpty),
            };
        }
        next
    }

    /// Relays from `pit`: deep into a long untraced move through the ring ([`ring`]), else one
    /// relay of the general engine.
    fn relay_on(&mut self, pit: Pit, rotation: Rotation) -> Next {
        if !O::ENABLED
            && self.relays >= ring::FROM
            && ring::on()
            && self.ring_can_lift(u128::from_le_bytes(self.p.pits[self.me]), pit)
        {
            self.ring_relays(pit, rotation)
        } else {
            self.relay(pit, rotation)
        }
    }

    /// Lifts the relay pit `pit` whole and sows on.
    fn relay(&mut self, pit: Pit, rotation: Rotation) -> Next {
        self.relays += 1;
        let seeds = self.p.pits[self.me][pit.index()];
        self.lift(pit, seeds as u32, rotation)
    }

    /// The move's end: the stop event, the result.
    fn finish(self, next: Next) -> Sim {
        if let Next::Stop(reason) = next
            && O::ENABLED
        {
            self.obs.event(Event::Stop { reason });
        }
        Sim {
            house_offered: self.house_offered,
            illegal: self.illegal,
        }
    }

    fn begin(&mut self, start: Start) -> Next {
        match start {
            Start::Opening => Next::Stop(StopReason::EmptyPit),
            Start::Plant { pit, dir, tax } => {
                self.plant(pit);
                let seeds = if tax {
                    2
                } else {
                    self.p.pits[self.me][pit.index()] as u32
                };
                if tax && O::ENABLED {
                    self.obs.event(Event::Tax { side: self.side });
                }
                self.lift(pit, seeds, pit.rotation(dir))
            }
            Start::PlantCapture { pit, dir } => {
                self.plant(pit);
                self.capturing = true;
                let kichwa = if dir == Dir::Left {
                    Pit::LEFT_KICHWA
                } else {
                    Pit::RIGHT_KICHWA
                };
                self.capture(pit, Some(kichwa), kichwa_rotation(kichwa))
            }
            Start::Lift {
                pit,
                dir,
                capturing,
            } => {
                self.capturing = capturing;
                let seeds = self.p.pits[self.me][pit.index()] as u32;
                self.lift(pit, seeds, pit.rotation(dir))
            }
        }
    }

    fn plant(&mut self, pit: Pit) {
        self.p.store[self.me] -= 1;
        self.p.pits[self.me][pit.index()] += 1;
        if O::ENABLED {
            self.obs.event(Event::Plant {
                side: self.side,
                pit,
            });
        }
    }

    /// Takes `seeds` seeds out of `pit` to sow from the next pit. Emptying the house loses it.
    fn lift(&mut self, pit: Pit, seeds: u32, rotation: Rotation) -> Next {
        let emptied = u32::from(self.p.pits[self.me][pit.index()]) == seeds;
        if O::ENABLED {
            self.obs.event(Event::Lift {
                side: self.side,
                pit,
                seeds,
            });
        }
        if emptied && pit == Pit::HOUSE && self.p.house[self.me] {
            self.lose_house(self.me);
        }
        Next::Sow {
            first: pit.step(rotation),
            seeds,
            rotation,
            lifted_front: pit.is_front(),
            take: u128::from(seeds as u8) << (8 * pit.index()),
        }
    }

    // Cold, as `lose` is: rare, and kept out of the sowing loop's registers and branches.
    #[cold]
    fn lose_house(&mut self, side: usize) {
        self.p.house[side] = false;
        if O::ENABLED {
            self.obs.event(Event::HouseLost {
                side: Side::BOTH[side],
            });
        }
    }

    /// Drops `seeds` seeds one by one from `first`; returns the last pit, or `None` if the mover's
    /// front row is left empty by the lift and the first seed falls in the back row (a loss).
    fn sow(
        &mut self,
        first: Pit,
        seeds: u32,
        rotation: Rotation,
        lifted_front: bool,
        take: u128,
    ) -> Option<Pit> {
        let me = self.me;
        let ring = u128::from_le_bytes(self.p.pits[me]) - take;
        // The front row is the ring's low 8 bytes.
        if lifted_front && self.rules.empty_front_row_loses && !first.is_front() && ring as u64 == 0
        {
            self.p.pits[me] = ring.to_le_bytes();
            // The first seed empties nothing back: the mover's front row is empty and the game is
            // over. The seeds still in hand are kept in the store, so that no seed leaves the game.
            self.p.pits[me][first.index()] += 1;
            self.p.store[me] += (seeds - 1) as u8;
            self.lose(self.side, EndReason::FrontRowEmpty);
            return None;
        }
        let step = rotation.step() as usize;
        // The whole sowing as one add over the ring's 16 bytes: a seed for every pit per full
        // lap, and one more for each pit of the arc the last partial lap covers. Most sowings
        // are under a lap: they skip the multiply.
        let laps = if seeds < 16 {
            0
        } else {
            u128::from(seeds / 16) * ring::ONES
        };
        let add = laps + ring::arc(first, rotation, seeds % 16);
        debug_assert!(
            (ring.to_le_bytes().iter().zip(add.to_le_bytes()))
                .all(|(&n, a)| n.checked_add(a).is_some()),
            "a pit overflows its byte"
        );
        self.p.pits[me] = (ring + add).to_le_bytes();
        let last = Pit::new(((first.index() + (seeds as usize - 1) * step) & 15) as u8)?;
        self.sown += seeds as u64;
        if O::ENABLED {
            self.obs.event(Event::Sow {
                side: self.side,
                first,
                last,
                seeds,
                rotation,
            });
        }
        Some(last)
    }

    #[cold]
    fn lose(&mut self, loser: Side, reason: EndReason) {
        self.p.result = Some(Outcome {
            winner: Some(loser.opponent()),
            reason,
        });
    }

    /// Decides what follows a sowing that ended in `last`. Always inlined, as `capture` is: left
    /// to the compiler they are calls, and the move generator runs a sixth more instructions.
    #[inline(always)]
    fn after_sowing(&mut self, last: Pit, rotation: Rotation) -> Next {
        let (me, opp) = (self.me, self.opp);
        let seeds = self.p.pits[me][last.index()];
        if self.capturing
            && last.is_front()
            && seeds > 1
            && self.p.pits[opp][last.opposite().index()] > 0
        {
            return self.capture(last, None, rotation);
        }
        if seeds == 1 {
            return Next::Stop(StopReason::EmptyPit);
        }
        if self.p.blocked == Some(last) {
            return Next::Stop(StopReason::Blocked);
        }
        if last == Pit::HOUSE && self.p.house[me] {
            match self.house_rule(seeds) {
                HouseRule::Ordinary => {}
                HouseRule::Stop => return Next::Stop(StopReason::House),
                HouseRule::Choice => {
                    self.house_offered = true;
                    if !self.play_house {
                        return Next::Stop(StopReason::House);
                    }
                    if O::ENABLED {
                        self.obs.event(Event::HousePlayed { side: self.side });
                    }
                }
            }
        }
        Next::Relay {
            pit: last,
            rotation,
        }
    }

    /// The house rule for a sowing that ends in the mover's owned house holding `seeds`.
    fn house_rule(&self, seeds: u8) -> HouseRule {
        let namua = !self.mtaji;
        match &self.rules.house {
            House::None => HouseRule::Ordinary,
            House::Nyumba(h) => {
                let active = namua || (h.in_mtaji && !self.p.mtaji_captured);
                if !active || seeds < h.valid_from {
                    HouseRule::Ordinary
                } else if !self.capturing {
                    HouseRule::Stop
                } else if h.play_mandatory {
                    HouseRule::Ordinary
                } else {
                    HouseRule::Choice
                }
            }
            House::Kuu if namua => {
                if self.capturing {
                    HouseRule::Choice
                } else {
                    HouseRule::Stop
                }
            }
            House::Kuu => HouseRule::Ordinary,
        }
    }

    /// Captures the opponent pit facing `pit` (the mover's front pit where a sowing ended) and
    /// says where the captured seeds are sown. `kichwa`: a kichwa already chosen (planting stage).
    #[inline(always)]
    fn capture(&mut self, pit: Pit, kichwa: Option<Pit>, rotation: Rotation) -> Next {
        let (me, opp) = (self.me, self.opp);
        let target = pit.opposite();
        debug_assert!(target.is_front(), "captures take from the front row");
        // The front row as one word, emptied at the target and stored whole, so that whether it
        // is now empty is known without reading back bytes just written (a CPU stall on store
        // forwarding, two thirds of this function's time when the row was read byte-stored).
        let row = &mut self.p.pits[opp];
        let front = u64::from_le_bytes(row[..8].try_into().expect("8 front pits"));
        let shift = 8 * target.index();
        let mut seeds = (front >> shift & 0xFF) as u32;
        let front = front & !(0xFF << shift);
        row[..8].copy_from_slice(&front.to_le_bytes());
        if self.rules.capture_back_row {
            seeds += std::mem::take(&mut row[target.behind().index()]) as u32;
        }
        if O::ENABLED {
            self.obs.event(Event::Capture {
                side: self.side.opponent(),
                pit: target,
                seeds,
            });
        }
        if target == Pit::HOUSE && self.p.house[opp] {
            self.lose_house(opp);
        }
        if self.mtaji {
            self.p.mtaji_captured = true;
            if matches!(&self.rules.house, House::Nyumba(h) if h.in_mtaji) {
                for side in [me, opp] {
                    if self.p.house[side] {
                        self.lose_house(side);
                    }
                }
            }
        }
        if self.rules.empty_front_row_loses && front == 0 {
            // The game ends on the spot; the captured seeds stay in the capturer's hand, which
            // the position keeps in its store so that no seed leaves the game.
            self.p.store[me] += seeds as u8;
            self.lose(self.side.opponent(), EndReason::FrontRowEmpty);
            return Next::Stop(StopReason::FrontRowEmpty);
        }
        self.sow_captured(pit, kichwa, rotation, seeds)
    }

    /// Where the `seeds` captured by the mover's front pit `pit` are sown, by the rules'
    /// [`CapturedSowing`] (`kichwa`: a kichwa already chosen in the planting stage).
    #[inline]
    fn sow_captured(
        &mut self,
        pit: Pit,
        kichwa: Option<Pit>,
        rotation: Rotation,
        seeds: u32,
    ) -> Next {
        let me = self.me;
        match self.rules.captured_sowing {
            CapturedSowing::Kichwa => {
                let kichwa = kichwa.unwrap_or(if self.rules.kimbi && pit.is_kimbi() {
                    pit.nearest_kichwa()
                } else if rotation == Rotation::Clockwise {
                    Pit::LEFT_KICHWA
                } else {
                    Pit::RIGHT_KICHWA
                });
                Next::Sow {
                    first: kichwa,
                    seeds,
                    rotation: kichwa_rotation(kichwa),
                    lifted_front: false,
                    take: 0,
                }
            }
            CapturedSowing::CapturingPit => Next::Sow {
                first: pit,
                seeds,
                rotation,
                lifted_front: false,
                take: 0,
            },
            CapturedSowing::NextPit => Next::Sow {
                first: pit.step(rotation),
                seeds,
                rotation,
                lifted_front: false,
                take: 0,
            },
            CapturedSowing::NextPitWithOwn => {
                let own = u32::from(self.p.pits[me][pit.index()]);
                if O::ENABLED {
                    self.obs.event(Event::Lift {
                        side: self.side,
                        pit,
                        seeds: own,
                    });
                }
                if pit == Pit::HOUSE && self.p.house[me] {
                    self.lose_house(me);
                }
                Next::Sow {
                    first: pit.step(rotation),
                    seeds: seeds + own,
                    rotation,
                    lifted_front: true,
                    take: u128::from(own) << (8 * pit.index()),
                }
            }
        }
    }
}

enum HouseRule {
    /// An ordinary pit here: relay.
    Ordinary,
    /// The move stops in the house.
    Stop,
    /// The mover chooses: stop, or play the house (`+`).
    Choice,
}
