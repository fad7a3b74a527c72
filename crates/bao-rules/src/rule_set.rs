//! A complete rule set ([`Rules`]): the options of every rule (their check is `rules_check.rs`).
//! Named games are presets of it (`variant.rs`).

use super::options::{
    CapturedSowing, House, InfiniteMoves, LoneKichwa, Opening, Planting, Sowing, StartSeeds,
    Takasia,
};
use super::pit::Rotation;
use serde::{Deserialize, Serialize};

/// A complete rule set. Build one from a [`Variant`] preset and change options as needed.
/// Two rule sets that differ in any option, the bound on never-ending moves included, are
/// different games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Starting seeds.
    pub setup: StartSeeds,
    /// Allowed sowing directions.
    pub sowing: Sowing,
    /// Fewest seeds a pit needs to start a move in the mtaji stage (Bao: 2; Kimasai: 1).
    pub min_lift: u8,
    /// Whether captures exist at all in the mtaji stage.
    pub captures: bool,
    /// A capture also takes the opponent's back pit behind the captured front pit (Hus).
    pub capture_back_row: bool,
    /// Where captured seeds are sown.
    pub captured_sowing: CapturedSowing,
    /// A capture in a kimbi (pits 1, 2, 7, 8) sows from the nearest kichwa.
    pub kimbi: bool,
    /// A move whose first sowing does not capture is a takata: it captures nothing later.
    pub takata: bool,
    /// A pit holding more seeds than this never starts a capture move (Bao: 15).
    pub max_capture_lift: Option<u8>,
    /// A player who can capture must.
    pub mandatory_capture: bool,
    /// A takata starts in the back row only if no front pit can start one.
    pub front_row_first: bool,
    /// A takata from a lone kichwa toward the back row.
    pub lone_kichwa: LoneKichwa,
    /// A player whose front row is empty loses at once, even in the middle of a move.
    pub empty_front_row_loses: bool,
    /// The planting stage.
    pub planting: Planting,
    /// The house (nyumba or kuu).
    pub house: House,
    /// Blocking after a takata.
    pub takasia: Takasia,
    /// Never-ending moves.
    pub infinite_moves: InfiniteMoves,
    /// Seed 000's "12 laps": `Some(L)` makes the bound on never-ending moves 16 L seeds, in
    /// place of `max_sown`.
    pub lap_limit: Option<u32>,
    /// A move that sows more seeds than this in all is never-ending (seed 003 1.5.6 leaves what
    /// counts as an infinite move to be agreed before the game; every preset says 100,000).
    pub max_sown: u32,
    /// Opening before the planting stage.
    pub opening: Opening,
}

/// The most seeds a rule set lets a move sow before it is never-ending (`max_sown`, or 16
/// `lap_limit`): ten times the presets' 100,000, where generating a position's moves still takes
/// milliseconds and a search can be stopped between them.
pub const MAX_BOUND: u32 = 1_000_000;

impl Rules {
    /// Total seeds on the board and in the stores at the start.
    pub fn total_seeds(&self) -> u32 {
        let s = &self.setup;
        2 * (s
            .front
            .iter()
            .chain(&s.back)
            .map(|&n| n as u32)
            .sum::<u32>()
            + s.store as u32)
    }

    /// N, the most seeds a move may sow: a move whose sowings pass it is never-ending at the end
    /// of the sowing that passed it (`lap_limit` laps of 16 seeds if set, else `max_sown`).
    #[inline]
    pub fn never_ending_bound(&self) -> u64 {
        self.lap_limit
            .map_or(u64::from(self.max_sown), |laps| 16 * u64::from(laps))
    }

    /// Whether the rule set has a house (nyumba or kuu).
    pub fn has_house(&self) -> bool {
        !matches!(self.house, House::None)
    }

    /// Whether a pit holding `n` seeds may start a mtaji-stage capture move (`min_lift` to
    /// `max_capture_lift` seeds).
    #[inline]
    pub(crate) fn may_capture_lift(&self, n: u32) -> bool {
        n >= u32::from(self.min_lift) && self.max_capture_lift.is_none_or(|max| n <= u32::from(max))
    }

    /// Whether the rules allow sowing in `rotation`.
    #[inline]
    pub fn allows(&self, rotation: Rotation) -> bool {
        match self.sowing {
            Sowing::Both => true,
            Sowing::Clockwise => rotation == Rotation::Clockwise,
            Sowing::Anticlockwise => rotation == Rotation::Anticlockwise,
        }
    }
}
