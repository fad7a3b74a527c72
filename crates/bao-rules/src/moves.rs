//! Moves and the fixed-capacity list the generator fills.

use super::pit::{Dir, Pit, Side};
use super::position::Position;
use serde::{Deserialize, Serialize};

/// What kind of ply a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveKind {
    /// An ordinary move: plant (planting stage) or lift (mtaji stage) at `pit`, sow toward `dir`.
    Sow,
    /// Malawi advanced opening: one seed from the hand placed into `pit`.
    Place,
    /// Malawi advanced opening: capture the opponent's hole facing `pit`.
    OpeningCapture,
}

/// One move (ply), with every mid-move choice in it: the start pit, the direction (in a
/// planting-stage capture, the kichwa the captured seeds are sown from: `<` left, `>` right),
/// and whether the house is played when a capture-move sowing ends in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Move {
    /// The mover's pit the move starts from.
    pub pit: Pit,
    /// The hand's direction, `<` or `>`.
    pub dir: Dir,
    /// `+`: play the house when the choice arises.
    pub house: bool,
    /// Ordinary move or an opening action.
    pub kind: MoveKind,
}

impl Move {
    /// An ordinary move without playing the house.
    pub const fn sow(pit: Pit, dir: Dir) -> Move {
        Move {
            pit,
            dir,
            house: false,
            kind: MoveKind::Sow,
        }
    }

    /// An opening placement.
    pub const fn place(pit: Pit) -> Move {
        Move {
            pit,
            dir: Dir::Left,
            house: false,
            kind: MoveKind::Place,
        }
    }

    /// An opening capture of the hole facing `pit`.
    pub const fn opening_capture(pit: Pit) -> Move {
        Move {
            pit,
            dir: Dir::Left,
            house: false,
            kind: MoveKind::OpeningCapture,
        }
    }
}

/// The most legal moves a position can have: 16 pits x 2 directions x house choice.
pub const MAX_MOVES: usize = 64;

/// Legal moves with the position each one leads to, in a fixed-capacity buffer (no heap).
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
    children: [Position; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            len: 0,
            moves: [Move::sow(Pit::HOUSE, Dir::Left); MAX_MOVES],
            children: [Position::EMPTY; MAX_MOVES],
        }
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.moves()).finish()
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves.
    #[inline]
    pub fn moves(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The positions after each move, in the same order.
    #[inline]
    pub fn children(&self) -> &[Position] {
        &self.children[..self.len]
    }

    /// Move `i` and the position it leads to.
    #[inline]
    pub fn get(&self, i: usize) -> (Move, &Position) {
        (self.moves[i], &self.children[i])
    }

    /// Iterates over (move, child position).
    pub fn iter(&self) -> impl Iterator<Item = (Move, &Position)> {
        self.moves().iter().copied().zip(self.children())
    }

    /// The child position of `mv`, if `mv` is in the list.
    pub fn find(&self, mv: Move) -> Option<&Position> {
        self.moves()
            .iter()
            .position(|&m| m == mv)
            .map(|i| &self.children[i])
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub(crate) fn push(&mut self, mv: Move, child: Position) {
        // The generator never makes more than MAX_MOVES moves; guard anyway.
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.children[self.len] = child;
            self.len += 1;
        }
    }

    /// The slot of the next child, for the generator to play a move in place (`None` when
    /// full, which the generator never makes).
    #[inline]
    pub(crate) fn next_slot(&mut self) -> Option<&mut Position> {
        self.children.get_mut(self.len)
    }

    /// Keeps the child played in [`MoveList::next_slot`] as the position after `mv`.
    #[inline]
    pub(crate) fn keep_slot(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }
}

/// A move printed for its mover, canonically: row letter, number, direction, `+`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The move.
    pub mv: Move,
    /// Whose move it is (decides `A`/`a`).
    pub side: Side,
}

impl std::fmt::Display for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Move {
            pit,
            dir,
            house,
            kind,
        } = self.mv;
        match kind {
            MoveKind::Sow => {
                write!(f, "{}{}", pit.name(self.side), dir.sign())?;
                if house {
                    f.write_str("+")?;
                }
                Ok(())
            }
            MoveKind::Place => write!(f, "@{}", pit.name(self.side)),
            MoveKind::OpeningCapture => write!(f, "x{}", pit.opposite().name(self.side.opponent())),
        }
    }
}
