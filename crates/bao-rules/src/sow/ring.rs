//! Long runs of plain relays, fast. Deep into a long move, each relay only lifts a pit of the
//! mover's ring of 16 and sows it on: the opponent's pits, the house flags and the rotation stay
//! as they are until a capture, the house or an end. Here the ring is one `u128` (a byte a pit)
//! and a sowing is two additions from a table, so a move that runs to the bound on seeds sown is
//! walked several times as fast as by the general engine.
//!
//! Every landing the general rules treat specially (a capture, the blocked pit, the owned house,
//! a lift that would leave the front row empty) hands the move back to the general engine, and
//! the bound is checked after every sowing as there, so the result is the same move, relay for
//! relay.

use super::{HouseRule, Mover, Next};
use crate::pit::{Pit, Rotation};
use crate::trace::{Observer, StopReason};

/// The relays a move makes before its plain relays go through the ring (ordinary moves end
/// sooner and never pay for setting it up).
pub(super) const FROM: u32 = 64;

/// Bytes 0 to 7: the front row.
const FRONT: u128 = u64::MAX as u128;
/// One seed in every pit.
pub(super) const ONES: u128 = u128::from_le_bytes([1; 16]);

/// `SOW[s][f][r]`: one seed in each of the `r` pits from `f` on, stepping by `1` (s = 0) or by
/// `-1` (s = 1).
static SOW: [[[u128; 16]; 16]; 2] = [sow_table(1), sow_table(15)];

/// One seed in each of the `k` (< 16) pits from `first` on in `rotation`, as ring bytes.
#[inline]
pub(super) fn arc(first: Pit, rotation: Rotation, k: u32) -> u128 {
    SOW[usize::from(rotation.step() != 1)][first.index()][k as usize]
}

const fn sow_table(step: usize) -> [[u128; 16]; 16] {
    let mut table = [[0u128; 16]; 16];
    let mut first = 0;
    while first < 16 {
        let (mut pit, mut seeds, mut acc) = (first, 1, 0u128);
        while seeds < 16 {
            acc |= 1u128 << (8 * pit);
            table[first][seeds] = acc;
            pit = (pit + step) & 15;
            seeds += 1;
        }
        first += 1;
    }
    table
}

thread_local! {
    /// Set while a test compares the ring with the general engine.
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every relay of this thread played by the general engine, not the ring: for
/// tests and benchmarks that compare the two.
pub fn without_ring<T>(f: impl FnOnce() -> T) -> T {
    OFF.set(true);
    let out = f();
    OFF.set(false);
    out
}

/// Whether the ring is in use on this thread.
pub(super) fn on() -> bool {
    !OFF.get()
}

fn seeds_at(ring: u128, pit: usize) -> u32 {
    (ring >> (8 * pit)) as u8 as u32
}

impl<O: Observer> Mover<'_, O> {
    /// Whether the ring may lift `pit` of `ring`: not the owned house (lifting it loses it), and
    /// not the last seeds of the front row where that loses the game.
    pub(super) fn ring_can_lift(&self, ring: u128, pit: Pit) -> bool {
        let house = pit == Pit::HOUSE && self.p.house[self.me];
        let i = pit.index();
        let empties_front = self.rules.empty_front_row_loses
            && pit.is_front()
            && ring & FRONT & !(0xFF << (8 * i)) == 0;
        !(house || empties_front)
    }

    /// Plays plain relays from `pit` (which [`Self::ring_can_lift`]) in the ring until the move
    /// ends, passes the bound, or reaches something the general engine must decide; returns what
    /// follows.
    pub(super) fn ring_relays(&mut self, pit: Pit, rotation: Rotation) -> Next {
        debug_assert!(!O::ENABLED, "a traced move reports every sowing");
        let me = self.me;
        let mut ring = u128::from_le_bytes(self.p.pits[me]);
        let end = self.ring_walk(&mut ring, pit, rotation);
        self.p.pits[me] = ring.to_le_bytes();
        match end {
            RingEnd::Next(next) => next,
            RingEnd::Special(pit) => self.after_sowing(pit, rotation),
            RingEnd::PassedBound => self.declare_never_ending(),
        }
    }

    /// The relays themselves, on `ring`.
    fn ring_walk(&mut self, ring: &mut u128, mut pit: Pit, rotation: Rotation) -> RingEnd {
        let opp = self.opp;
        let forward = rotation.step() == 1;
        let step = if forward { 1 } else { 15 };
        let sow = &SOW[usize::from(!forward)];
        // Landings where a capture or the blocked pit needs the general rules.
        let mut special = 0u16;
        if self.capturing {
            for front in Pit::front() {
                if self.p.pits[opp][front.opposite().index()] > 0 {
                    special |= 1 << front.index();
                }
            }
        }
        if let Some(b) = self.p.blocked {
            special |= 1 << b.index();
        }
        let house = self.p.house[self.me];
        loop {
            let i = pit.index();
            let seeds = seeds_at(*ring, i);
            *ring &= !(0xFF << (8 * i));
            *ring += (seeds / 16) as u128 * ONES + sow[(i + step) & 15][(seeds % 16) as usize];
            let last = (i + seeds as usize * step) & 15;
            let landed = Pit::new(last as u8).expect("a pit index");
            self.relays += 1;
            self.sown += seeds as u64;
            if self.passed_bound() {
                return RingEnd::PassedBound;
            }
            let held = seeds_at(*ring, last);
            if held == 1 {
                return RingEnd::Next(Next::Stop(StopReason::EmptyPit));
            }
            if special & (1 << last) != 0 {
                return RingEnd::Special(landed);
            }
            if house && landed == Pit::HOUSE {
                match self.house_rule(held as u8) {
                    HouseRule::Ordinary => {}
                    HouseRule::Stop => return RingEnd::Next(Next::Stop(StopReason::House)),
                    HouseRule::Choice => {
                        self.house_offered = true;
                        if !self.play_house {
                            return RingEnd::Next(Next::Stop(StopReason::House));
                        }
                    }
                }
            }
            pit = landed;
            if !self.ring_can_lift(*ring, pit) {
                return RingEnd::Next(Next::Relay { pit, rotation });
            }
        }
    }
}

/// How the ring's walk ended.
enum RingEnd {
    /// Go on with this in the general engine.
    Next(Next),
    /// A sowing ended in this pit, where a capture or the blocked pit decides.
    Special(Pit),
    /// The last sowing passed the bound on seeds sown: the move is never-ending.
    PassedBound,
}
