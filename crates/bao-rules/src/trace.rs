//! What a move did, step by step: for display, debugging and tests.

use super::pit::{Pit, Rotation, Side};
use serde::{Deserialize, Serialize};

/// Why a move stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// The last seed fell into an empty pit.
    EmptyPit,
    /// The last seed fell into the house and the move stopped there (rule or choice).
    House,
    /// The last seed fell into the pit blocked by takasia.
    Blocked,
    /// A front row became empty: the game is over.
    FrontRowEmpty,
    /// The move is never-ending: its sowings passed the bound on seeds sown.
    NeverEnding,
}

/// One step of a move, in the order it happened. Pits belong to `side`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A seed from store planted into a pit.
    Plant { side: Side, pit: Pit },
    /// Seeds taken up from a pit to be sown (a start, a relay, or a 2-seed tax of the house).
    Lift { side: Side, pit: Pit, seeds: u32 },
    /// A sowing: `seeds` seeds dropped one by one from `first` to `last`.
    Sow {
        side: Side,
        first: Pit,
        last: Pit,
        seeds: u32,
        rotation: Rotation,
    },
    /// Seeds captured from the opponent's pit (and, in Hus, the pit behind it).
    Capture { side: Side, pit: Pit, seeds: u32 },
    /// The house was taxed: two seeds sown, the rest stays.
    Tax { side: Side },
    /// The mover chose to play (relay-sow) the house, losing it.
    HousePlayed { side: Side },
    /// A house lost its privileges (emptied or captured).
    HouseLost { side: Side },
    /// A Malawi advanced opening placement or capture.
    Place { side: Side, pit: Pit },
    /// The move stopped.
    Stop { reason: StopReason },
    /// After the move, takasia blocks this pit of `side` for its next move.
    Block { side: Side, pit: Pit },
}

/// Receives the events of a move. The no-op implementation for `()` compiles away, so the
/// move generator pays nothing for tracing.
pub trait Observer {
    /// Whether events are wanted at all.
    const ENABLED: bool;
    /// One event.
    fn event(&mut self, e: Event);
}

impl Observer for () {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

/// The most steps a trace ([`Vec<Event>`]) keeps before the end of its move: a move may relay
/// for up to [`crate::rule_set::MAX_BOUND`] seeds, and a display has no use for more.
pub const MAX_TRACE_EVENTS: usize = 10_000;

/// A trace: the move's first [`MAX_TRACE_EVENTS`] steps, and always how it ended (its
/// [`Event::Stop`] and [`Event::Block`]), so its memory stays bounded whatever the move.
impl Observer for Vec<Event> {
    const ENABLED: bool = true;
    fn event(&mut self, e: Event) {
        if self.len() < MAX_TRACE_EVENTS || matches!(e, Event::Stop { .. } | Event::Block { .. }) {
            self.push(e);
        }
    }
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Event::Plant { side, pit } => {
                write!(f, "{side} plants a seed from store in {}", pit.name(side))
            }
            Event::Lift { side, pit, seeds } => {
                write!(f, "{side} lifts {seeds} from {}", pit.name(side))
            }
            Event::Sow {
                side,
                first,
                last,
                seeds,
                rotation,
            } => {
                let way = if rotation == Rotation::Clockwise {
                    "clockwise"
                } else {
                    "anticlockwise"
                };
                write!(
                    f,
                    "  sows {seeds} {way} from {} to {}",
                    first.name(side),
                    last.name(side)
                )
            }
            Event::Capture { side, pit, seeds } => {
                write!(f, "  captures {seeds} from {}", pit.name(side))
            }
            Event::Tax { side } => write!(
                f,
                "{side} taxes the house: 2 seeds are sown, the rest stays"
            ),
            Event::HousePlayed { side } => write!(f, "  {side} plays the house (+)"),
            Event::HouseLost { side } => write!(f, "  {side}'s house is lost"),
            Event::Place { side, pit } => write!(f, "{side} places a seed in {}", pit.name(side)),
            Event::Stop { reason } => write!(
                f,
                "  the move stops: {}",
                match reason {
                    StopReason::EmptyPit => "the last seed fell in an empty pit",
                    StopReason::House => "in the house",
                    StopReason::Blocked => "in the blocked pit",
                    StopReason::FrontRowEmpty => "a front row is empty, the game is over",
                    StopReason::NeverEnding => "the move never ends",
                }
            ),
            Event::Block { side, pit } => write!(
                f,
                "takasia: {}'s {} is blocked for its next move",
                side,
                pit.name(side)
            ),
        }
    }
}
