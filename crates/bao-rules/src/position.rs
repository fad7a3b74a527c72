//! The game state: seeds in every pit and store, houses, the side to move, takasia, and how a
//! finished game ended. Legal moves are generated in `movegen.rs`, moves played in `play.rs`.

use super::options::Opening;
use super::pit::{Pit, Side};
use super::rule_set::Rules;
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

impl EndReason {
    /// Every reason.
    pub const ALL: [EndReason; 3] = [
        EndReason::FrontRowEmpty,
        EndReason::NoMoves,
        EndReason::NeverEndingMove,
    ];

    /// The name used in position text, records and JSON: `front-row-empty`, `no-moves`,
    /// `never-ending-move`.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::FrontRowEmpty => "front-row-empty",
            EndReason::NoMoves => "no-moves",
            EndReason::NeverEndingMove => "never-ending-move",
        }
    }

    /// The reason with this name.
    pub fn from_name(name: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of a finished game: the winner (`None` for a void game) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner, or `None` for a void (drawn) game.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl std::fmt::Display for Outcome {
    /// `South wins (front-row-empty)`, `void game (never-ending-move)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins ({})", self.reason),
            None => write!(f, "void game ({})", self.reason),
        }
    }
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

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stage::Opening => "opening",
            Stage::Namua => "namua",
            Stage::Mtaji => "mtaji",
        })
    }
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

    /// A position from its fields, unchecked: only for the engine's own binary storage of
    /// positions it made itself (replay files). Text and every other input goes through
    /// [`Position::from_setup`].
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

    /// The side that distributes seeds in the Malawi advanced opening takes its setup seeds other
    /// than the kuu's into its hand, plus one from store.
    pub(crate) fn begin_distribution(&mut self, side: Side) {
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
}

/// Whether the front row (ring indices 0..8) of a side's pits is empty.
#[inline]
pub(crate) fn front_empty(pits: &[u8; 16]) -> bool {
    u64::from_ne_bytes(pits[..8].try_into().expect("8 bytes")) == 0
}
