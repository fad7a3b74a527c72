//! Never-ending moves: Brent's cycle detection over the relay states, the exact cut of a move
//! that is played on, the safety bound, and what the rules make of such a move.
//!
//! The state at each relay (the whole board, the pit about to be lifted, the rotation, the house
//! flags) is compared with one saved state, so no memory grows with the loop, however long: loops
//! of millions of relays occur. Brent notices a cycle some relays after it began; a move that is
//! played on is replayed and cut at the first relay whose state repeats an earlier one, so where
//! it stops does not depend on the detector.

use super::{Mover, Next, Sim, Start};
use crate::options::InfiniteMoves;
use crate::pit::{Pit, Rotation};
use crate::position::{EndReason, Outcome, Position};
use crate::rule_set::Rules;
use crate::trace::{Observer, StopReason};

/// The board state at a relay, for cycle detection.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct RelayState {
    pits: [[u8; 16]; 2],
    pit: Pit,
    rotation: Rotation,
    house: [bool; 2],
}

/// Says once on standard error that the safety bound decided a move: the rules say only a
/// repeated state may, so the position is named for a report (and `max_sown` may be raised).
#[cold]
pub(super) fn warn_bound(rules: &Rules, pos: &Position) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        eprintln!(
            "bao-rules: a move in `{pos}` sowed more than max_sown = {} seeds without repeating \
             a state; it counts as never-ending (raise max_sown to decide it exactly)",
            rules.max_sown
        );
    }
}
impl<'a, O: Observer> Mover<'a, O> {
    /// Replays a never-ending move whose cycle is `period` relays long and cuts it at the first
    /// relay whose state repeats an earlier one: this move runs `period` relays ahead of a copy
    /// from the start, and both go on together until their states agree.
    #[cold]
    #[inline(never)]
    pub(super) fn cut(
        rules: &'a Rules,
        pos: &Position,
        start: Start,
        play_house: bool,
        obs: &'a mut O,
        period: u32,
    ) -> Sim {
        let mut hare = Mover::new(rules, pos, play_house, obs);
        let mut unit = ();
        let mut tortoise = Mover::new(rules, pos, play_house, &mut unit);
        let mut h = hare.begin(start);
        h = hare.sow_to_relay(h);
        for _ in 0..period {
            // The sowing is deterministic: the probe went through these relays already.
            let Next::Relay { pit, rotation } = h else {
                return hare.finish(h);
            };
            h = hare.relay(pit, rotation);
            h = hare.sow_to_relay(h);
        }
        let mut t = tortoise.begin(start);
        t = tortoise.sow_to_relay(t);
        loop {
            let (
                Next::Relay { pit, rotation },
                Next::Relay {
                    pit: t_pit,
                    rotation: t_rotation,
                },
            ) = (h, t)
            else {
                return hare.finish(h);
            };
            if hare.state(pit, rotation) == tortoise.state(t_pit, t_rotation) {
                hare.period = Some(period);
                let stop = hare.declare_never_ending();
                return hare.finish(stop);
            }
            h = hare.relay(pit, rotation);
            h = hare.sow_to_relay(h);
            t = tortoise.relay(t_pit, t_rotation);
            t = tortoise.sow_to_relay(t);
        }
    }

    /// The state at a relay from `pit`.
    pub(super) fn state(&self, pit: Pit, rotation: Rotation) -> RelayState {
        RelayState {
            pits: self.p.pits,
            pit,
            rotation,
            house: self.p.house,
        }
    }

    /// At a relay from `pit`: whether the move is proven never-ending (or over the bounds), and if
    /// so what the rules make of it.
    pub(super) fn never_ending(&mut self, pit: Pit, rotation: Rotation) -> Option<Next> {
        let over_bound = self.over_bound();
        let mut cycle = false;
        if self.relays >= 8 {
            let state = self.state(pit, rotation);
            // Brent's cycle detection; most moves are short, so start after a few relays.
            if self.saved == Some(state) {
                cycle = true;
                // The saved state came back after `lambda + 1` relays: the cycle's length.
                self.period = Some(self.lambda + 1);
            } else {
                self.lambda += 1;
                if self.saved.is_none() || self.lambda == self.power {
                    self.saved = Some(state);
                    self.power = self.power.saturating_mul(2);
                    self.lambda = 0;
                }
            }
        }
        if !(cycle || over_bound) {
            return None;
        }
        Some(self.declare_never_ending())
    }

    /// Whether the seeds sown so far pass the safety bound or the lap limit.
    pub(super) fn over_bound(&self) -> bool {
        self.sown > self.bound()
    }

    /// The most seeds a move may sow: the safety bound, or the lap limit if tighter.
    pub(super) fn bound(&self) -> u64 {
        let laps = (self.rules.lap_limit).map_or(u64::MAX, |laps| 16 * laps as u64);
        laps.min(self.rules.max_sown as u64)
    }

    /// Starts the cycle detection afresh (after relays it did not see).
    pub(super) fn forget_cycle_search(&mut self) {
        self.saved = None;
        self.power = 1;
        self.lambda = 0;
    }

    /// Ends a never-ending move as the rules say.
    pub(super) fn declare_never_ending(&mut self) -> Next {
        match self.rules.infinite_moves {
            InfiniteMoves::Illegal => self.illegal = true,
            InfiniteMoves::MoverLoses => self.lose(self.side, EndReason::NeverEndingMove),
            InfiniteMoves::Void => {
                self.p.result = Some(Outcome {
                    winner: None,
                    reason: EndReason::NeverEndingMove,
                })
            }
            InfiniteMoves::Stop => {}
        }
        Next::Stop(StopReason::NeverEnding)
    }
}
