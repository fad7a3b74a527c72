//! Sides, pits, rows and directions: the small value types every other module speaks.
//!
//! Each player owns two rows of eight pits. Inside the engine a player's 16 pits form a ring,
//! indexed so that `+1` is a clockwise step seen from above:
//!
//! ```text
//!  ring index   0  1  2  3  4  5  6  7      front row  A1 .. A8 (a1 .. a8 for North)
//!              15 14 13 12 11 10  9  8      back row   B1 .. B8 (b1 .. b8 for North)
//! ```
//!
//! Pits are numbered 1..8 from the owner's left hand, so the same index means the same pit for
//! either player, and the front pit `r` faces the opponent's front pit `7 - r`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the two players. South moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    South = 0,
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `S` or `N`.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}

/// The front (inner) or back (outer) row of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Row {
    Front,
    Back,
}

/// The way a player's hand moves, as the player sees it: `<` toward the player's own left,
/// `>` toward the right. On the front row `<` is anticlockwise; on the back row it is clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dir {
    Left,
    Right,
}

impl Dir {
    /// Both directions, `<` first.
    pub const BOTH: [Dir; 2] = [Dir::Left, Dir::Right];

    /// The notation sign: `<` or `>`.
    pub const fn sign(self) -> char {
        match self {
            Dir::Left => '<',
            Dir::Right => '>',
        }
    }
}

/// Sowing direction around a player's two rows, seen from above.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rotation {
    Clockwise,
    Anticlockwise,
}

impl Rotation {
    /// Both rotations.
    pub const BOTH: [Rotation; 2] = [Rotation::Clockwise, Rotation::Anticlockwise];

    /// The ring step of this rotation.
    #[inline]
    pub(crate) const fn step(self) -> u8 {
        match self {
            Rotation::Clockwise => 1,
            Rotation::Anticlockwise => 15,
        }
    }
}

/// One of a player's 16 pits (see the module docs for the ring order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Pit(u8);

impl Pit {
    /// The nyumba (house, Malawi kuu): pit 5 of the front row.
    pub const HOUSE: Pit = Pit(4);
    /// The left kichwa, pit 1 of the front row.
    pub const LEFT_KICHWA: Pit = Pit(0);
    /// The right kichwa, pit 8 of the front row.
    pub const RIGHT_KICHWA: Pit = Pit(7);

    /// The pit at ring index `index` (0..16).
    #[inline]
    pub const fn new(index: u8) -> Option<Pit> {
        if index < 16 { Some(Pit(index)) } else { None }
    }

    /// The pit numbered `number` (1..=8, from the owner's left) in `row`.
    pub const fn at(row: Row, number: u8) -> Option<Pit> {
        if number < 1 || number > 8 {
            return None;
        }
        Some(match row {
            Row::Front => Pit(number - 1),
            Row::Back => Pit(16 - number),
        })
    }

    /// All 16 pits in ring order.
    pub fn all() -> impl Iterator<Item = Pit> {
        (0..16).map(Pit)
    }

    /// The eight front-row pits, A1..A8.
    pub fn front() -> impl Iterator<Item = Pit> {
        (0..8).map(Pit)
    }

    /// The ring index, 0..16.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row of this pit.
    #[inline]
    pub const fn row(self) -> Row {
        if self.0 < 8 { Row::Front } else { Row::Back }
    }

    /// Whether the pit is in the front (inner) row.
    #[inline]
    pub const fn is_front(self) -> bool {
        self.0 < 8
    }

    /// The pit's number in its row, 1..=8 from the owner's left.
    pub const fn number(self) -> u8 {
        if self.0 < 8 { self.0 + 1 } else { 16 - self.0 }
    }

    /// For a front pit, the opponent's front pit facing it (A1 faces a8).
    #[inline]
    pub const fn opposite(self) -> Pit {
        Pit(7 - self.0)
    }

    /// For a front pit, the pit behind it in the back row (A3 -> B3).
    #[inline]
    pub const fn behind(self) -> Pit {
        Pit(15 - self.0)
    }

    /// A1 or A8.
    #[inline]
    pub const fn is_kichwa(self) -> bool {
        self.0 == 0 || self.0 == 7
    }

    /// Pits 1, 2, 7 and 8 of the front row (a kichwa is a kimbi too).
    #[inline]
    pub const fn is_kimbi(self) -> bool {
        matches!(self.0, 0 | 1 | 6 | 7)
    }

    /// The kichwa nearest to a front pit (A1 for A1..A4, A8 for A5..A8).
    #[inline]
    pub const fn nearest_kichwa(self) -> Pit {
        if self.0 < 4 {
            Pit::LEFT_KICHWA
        } else {
            Pit::RIGHT_KICHWA
        }
    }

    /// The next pit in `rotation`.
    #[inline]
    pub const fn step(self, rotation: Rotation) -> Pit {
        Pit((self.0 + rotation.step()) & 15)
    }

    /// The sowing rotation of a hand moving `dir` from this pit.
    #[inline]
    pub const fn rotation(self, dir: Dir) -> Rotation {
        match (self.is_front(), dir) {
            (true, Dir::Right) | (false, Dir::Left) => Rotation::Clockwise,
            (true, Dir::Left) | (false, Dir::Right) => Rotation::Anticlockwise,
        }
    }

    /// The hand direction that sows in `rotation` from this pit (inverse of [`Pit::rotation`]).
    #[inline]
    pub const fn dir(self, rotation: Rotation) -> Dir {
        match (self.is_front(), rotation) {
            (true, Rotation::Clockwise) | (false, Rotation::Anticlockwise) => Dir::Right,
            (true, Rotation::Anticlockwise) | (false, Rotation::Clockwise) => Dir::Left,
        }
    }

    /// The pit's name in KIBA notation for its owner: `A3`, `B7` for South, `a3`, `b7` for North.
    pub fn name(self, owner: Side) -> String {
        format!("{}{}", self.row_letter(owner), self.number())
    }

    /// `A`/`B` for South, `a`/`b` for North.
    pub const fn row_letter(self, owner: Side) -> char {
        match (owner, self.is_front()) {
            (Side::South, true) => 'A',
            (Side::South, false) => 'B',
            (Side::North, true) => 'a',
            (Side::North, false) => 'b',
        }
    }
}

impl TryFrom<u8> for Pit {
    type Error = String;
    fn try_from(v: u8) -> Result<Self, Self::Error> {
        Pit::new(v).ok_or_else(|| format!("pit index {v} is out of range 0..16"))
    }
}

impl From<Pit> for u8 {
    fn from(p: Pit) -> u8 {
        p.0
    }
}

/// The rotation a capture sown from `kichwa` takes: clockwise from the left, anticlockwise from
/// the right, so the front row is sown first.
#[inline]
pub fn kichwa_rotation(kichwa: Pit) -> Rotation {
    if kichwa == Pit::LEFT_KICHWA {
        Rotation::Clockwise
    } else {
        Rotation::Anticlockwise
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_layout_matches_the_notation() {
        assert_eq!(Pit::at(Row::Front, 1), Some(Pit(0)));
        assert_eq!(Pit::at(Row::Back, 8), Some(Pit(8)));
        assert_eq!(Pit::at(Row::Back, 1), Some(Pit(15)));
        assert_eq!(Pit::at(Row::Front, 9), None);
        for p in Pit::all() {
            assert_eq!(Pit::at(p.row(), p.number()), Some(p));
        }
    }

    #[test]
    fn left_from_the_front_row_is_anticlockwise_and_from_the_back_row_clockwise() {
        // RULES.md: A3< is anticlockwise, B3< is clockwise (toward B1, then A1).
        let a3 = Pit::at(Row::Front, 3).unwrap();
        let b3 = Pit::at(Row::Back, 3).unwrap();
        assert_eq!(a3.rotation(Dir::Left), Rotation::Anticlockwise);
        assert_eq!(b3.rotation(Dir::Left), Rotation::Clockwise);
        assert_eq!(b3.step(Rotation::Clockwise).name(Side::South), "B2");
        let b1 = Pit::at(Row::Back, 1).unwrap();
        assert_eq!(b1.step(Rotation::Clockwise).name(Side::South), "A1");
        for p in Pit::all() {
            for d in Dir::BOTH {
                assert_eq!(p.dir(p.rotation(d)), d);
            }
        }
    }

    #[test]
    fn facing_pits_and_kichwa() {
        assert_eq!(Pit::LEFT_KICHWA.opposite(), Pit::RIGHT_KICHWA);
        assert_eq!(Pit::HOUSE.opposite().name(Side::North), "a4");
        assert_eq!(Pit(1).nearest_kichwa(), Pit::LEFT_KICHWA);
        assert_eq!(Pit(6).nearest_kichwa(), Pit::RIGHT_KICHWA);
        assert!(Pit(6).is_kimbi() && !Pit(2).is_kimbi());
        assert_eq!(Pit(2).behind().name(Side::South), "B3");
    }
}
