//! The setup gate: a position read from outside (text, a GUI, a record) is first an unchecked
//! [`Setup`]; [`Position::from_setup`] is the one way from it to a [`Position`], and it names
//! what is wrong with a [`SetupError`].

use super::options::{Opening, Takasia};
use super::pit::{Pit, Side};
use super::position::{
    OPENING_FIRST, OPENING_NONE, OPENING_SECOND, Outcome, Position, Stage, front_empty,
};
use super::rule_set::Rules;
use std::fmt;

/// Every field of a position, as given, before any check. Read it from the one-line text format
/// (`str::parse`, in [`crate::notation`]) or fill it in, then pass it through
/// [`Position::from_setup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Seeds per pit, `[side][ring index]` (see [`Pit`]).
    pub pits: [[u8; 16]; 2],
    /// Seeds in store per side.
    pub store: [u8; 2],
    /// Whether each side owns its house (nyumba or kuu).
    pub house: [bool; 2],
    /// The side to move.
    pub to_move: Side,
    /// Plies played since the start.
    pub ply: u16,
    /// Takasia: the mover's pit it may not start from.
    pub blocked: Option<Pit>,
    /// Takasia: the opponent's pit the mover must capture.
    pub target: Option<Pit>,
    /// Malawi advanced opening: seeds the mover still has to place.
    pub hand: u8,
    /// Malawi advanced opening phase (0: none or over; 1..=3).
    pub opening: u8,
    /// A capture has been made in the mtaji stage.
    pub mtaji_captured: bool,
    /// How the game ended, if the text says it did (always refused by the gate).
    pub over: Option<Outcome>,
}

/// Which takasia field a [`SetupError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakasiaField {
    /// The mover's blocked pit.
    Blocked,
    /// The opponent's pit the mover must capture.
    Target,
}

impl fmt::Display for TakasiaField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TakasiaField::Blocked => "blocked pit",
            TakasiaField::Target => "takasia target",
        })
    }
}

/// What is wrong with a [`Setup`] under a rule set: each error names the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// `over=` was given: a finished game cannot be set up to play on.
    #[error("over: the position is of a finished game ({winner} won, {reason}); only a game in progress can be set up", winner = .0.winner.map_or("nobody".to_string(), |s| s.to_string()), reason = .0.reason)]
    GameOver(Outcome),
    /// A front row is empty under rules where that ends the game.
    #[error("board: {0}'s front row is empty, so the game is already over")]
    FrontRowEmpty(Side),
    /// Board, stores and hand do not hold the rule set's seeds.
    #[error(
        "seeds: the position has {found} seeds (board, stores and hand); this rule set has {expected}"
    )]
    SeedTotal {
        /// Seeds in the setup.
        found: u32,
        /// Seeds of the rule set.
        expected: u32,
    },
    /// An opening phase under rules without an opening.
    #[error("opening={0}: this rule set has no opening stage")]
    NoOpening(u8),
    /// An opening phase out of range.
    #[error("opening={0}: the opening phases are 1, 2 and 3")]
    OpeningPhase(u8),
    /// The distributing player holds no seed during the opening.
    #[error("hand: {0} is distributing in the opening but holds no seed (hand=0)")]
    EmptyHand(Side),
    /// Seeds in hand outside the opening.
    #[error("hand={0}: seeds in hand outside the opening")]
    HandOutsideOpening(u8),
    /// The wrong side to move in an opening phase.
    #[error("side to move: in opening phase {phase} {expected} distributes, not {found}")]
    OpeningSide {
        /// The phase.
        phase: u8,
        /// Who distributes in that phase.
        expected: Side,
        /// The side to move given.
        found: Side,
    },
    /// A store that disagrees with the opening phase.
    #[error(
        "stores: {side} has {found} seeds in store; in opening phase {phase} it has {expected}"
    )]
    OpeningStore {
        /// Whose store.
        side: Side,
        /// The phase.
        phase: u8,
        /// Seeds given.
        found: u8,
        /// Seeds it must hold.
        expected: u8,
    },
    /// A store above the start's.
    #[error("stores: {side} has {found} seeds in store; this rule set starts with {start}")]
    StoreAboveStart {
        /// Whose store.
        side: Side,
        /// Seeds given.
        found: u8,
        /// Seeds at the start.
        start: u8,
    },
    /// Stores more than one seed apart: the players plant one seed each in turn.
    #[error("stores: {south},{north} are more than one seed apart, but the players plant in turn")]
    StoresApart {
        /// South's store.
        south: u8,
        /// North's store.
        north: u8,
    },
    /// A house owned under rules without a house.
    #[error("houses: {0} owns a house, but this rule set has none")]
    NoHouse(Side),
    /// A house owned whose pit is empty (an emptied house is lost).
    #[error("houses: {side}'s house {pit} is owned but empty; an emptied house is lost")]
    EmptyHouse {
        /// Whose house.
        side: Side,
        /// Its name, `A5` or `a5`.
        pit: String,
    },
    /// Takasia under rules without takasia.
    #[error("{0}: this rule set has no takasia")]
    NoTakasia(TakasiaField),
    /// Takasia outside the mtaji stage.
    #[error(
        "{field}: takasia only arises in the mtaji stage, and {side} to move is in the {stage} stage"
    )]
    TakasiaOutsideMtaji {
        /// The field.
        field: TakasiaField,
        /// The side to move.
        side: Side,
        /// Its stage.
        stage: Stage,
    },
}

impl Position {
    /// The setup gate: the position `setup` describes, if it can arise under `rules`; otherwise
    /// what is wrong (seed total, stores, hand and opening counters, houses, takasia, a game
    /// already over).
    pub fn from_setup(setup: Setup, rules: &Rules) -> Result<Position, SetupError> {
        check(&setup, rules, false)?;
        Ok(Position::from_setup_unchecked(setup))
    }

    /// The position `setup` describes, without the gate's checks (a finished game keeps its
    /// outcome). The explicit way out of the gate, for hand-made studies that no preset could
    /// reach (an endgame with an odd number of seeds, say) and for tests; input from outside
    /// goes through [`Position::from_setup`].
    pub fn from_setup_unchecked(setup: Setup) -> Position {
        Position {
            pits: setup.pits,
            store: setup.store,
            house: setup.house,
            to_move: setup.to_move,
            ply: setup.ply,
            blocked: setup.blocked,
            target: setup.target,
            hand: setup.hand,
            opening: setup.opening,
            mtaji_captured: setup.mtaji_captured,
            result: setup.over,
        }
    }

    /// Every field of this position, as a [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            pits: self.pits,
            store: self.store,
            house: self.house,
            to_move: self.to_move,
            ply: self.ply,
            blocked: self.blocked,
            target: self.target,
            hand: self.hand,
            opening: self.opening,
            mtaji_captured: self.mtaji_captured,
            over: self.result,
        }
    }

    /// Whether this position fits `rules` (it may come from another rule set): the gate's
    /// checks, except that a game a move has ended is fine here, as play makes such positions.
    pub fn validate(&self, rules: &Rules) -> Result<(), SetupError> {
        let setup = Setup {
            over: None,
            ..self.to_setup()
        };
        check(&setup, rules, self.result.is_some())
    }
}

/// The checks of the gate, in the order a reader would make them. `finished`: the position is
/// known to end a game (made by play), so an empty front row is expected.
fn check(s: &Setup, rules: &Rules, finished: bool) -> Result<(), SetupError> {
    if let Some(o) = s.over {
        return Err(SetupError::GameOver(o));
    }
    let board: u32 = s.pits.iter().flatten().map(|&n| u32::from(n)).sum();
    let found = board + s.store.iter().map(|&n| u32::from(n)).sum::<u32>() + u32::from(s.hand);
    if found != rules.total_seeds() {
        return Err(SetupError::SeedTotal {
            found,
            expected: rules.total_seeds(),
        });
    }
    check_opening(s, rules, finished)?;
    for side in Side::BOTH {
        let i = side.index();
        if s.house[i] && !rules.has_house() {
            return Err(SetupError::NoHouse(side));
        }
        if s.house[i] && s.pits[i][Pit::HOUSE.index()] == 0 {
            return Err(SetupError::EmptyHouse {
                side,
                pit: Pit::HOUSE.name(side),
            });
        }
    }
    let stage = if s.opening != OPENING_NONE {
        Stage::Opening
    } else if s.store[s.to_move.index()] > 0 {
        Stage::Namua
    } else {
        Stage::Mtaji
    };
    for (field, given) in [
        (TakasiaField::Blocked, s.blocked),
        (TakasiaField::Target, s.target),
    ] {
        if given.is_none() {
            continue;
        }
        if rules.takasia == Takasia::None {
            return Err(SetupError::NoTakasia(field));
        }
        if stage != Stage::Mtaji {
            return Err(SetupError::TakasiaOutsideMtaji {
                field,
                side: s.to_move,
                stage,
            });
        }
    }
    if rules.empty_front_row_loses && s.opening == OPENING_NONE && !finished {
        // The mover first: an empty front row of the side to move means it has already lost.
        for side in [s.to_move, s.to_move.opponent()] {
            if front_empty(&s.pits[side.index()]) {
                return Err(SetupError::FrontRowEmpty(side));
            }
        }
    }
    Ok(())
}

/// The opening fields (`opening=`, `hand=`) and the stores they imply. A game that ended in the
/// middle of a move keeps the seeds then in hand in the mover's store, so `finished` relaxes the
/// stores.
fn check_opening(s: &Setup, rules: &Rules, finished: bool) -> Result<(), SetupError> {
    let start = rules.setup.store;
    if s.opening == OPENING_NONE {
        if s.hand != 0 {
            return Err(SetupError::HandOutsideOpening(s.hand));
        }
        if finished {
            return Ok(());
        }
        for side in Side::BOTH {
            let found = s.store[side.index()];
            if found > start {
                return Err(SetupError::StoreAboveStart { side, found, start });
            }
        }
        let [south, north] = s.store;
        if south.abs_diff(north) > 1 {
            return Err(SetupError::StoresApart { south, north });
        }
        return Ok(());
    }
    if rules.opening == Opening::None {
        return Err(SetupError::NoOpening(s.opening));
    }
    if s.opening > OPENING_SECOND {
        return Err(SetupError::OpeningPhase(s.opening));
    }
    // Phase 1: South distributes (its seed from store taken); phases 2 and 3: North.
    let distributor = if s.opening == OPENING_FIRST {
        Side::South
    } else {
        Side::North
    };
    if s.to_move != distributor {
        return Err(SetupError::OpeningSide {
            phase: s.opening,
            expected: distributor,
            found: s.to_move,
        });
    }
    if s.hand == 0 {
        return Err(SetupError::EmptyHand(distributor));
    }
    for side in Side::BOTH {
        let taken = side == Side::South || s.opening != OPENING_FIRST;
        let expected = start.saturating_sub(u8::from(taken));
        let found = s.store[side.index()];
        if found != expected {
            return Err(SetupError::OpeningStore {
                side,
                phase: s.opening,
                found,
                expected,
            });
        }
    }
    Ok(())
}
