//! The options of a rule set: every rule where the Bao family differs, or where the sources
//! disagree, is one of these types. See `docs/RULES.md` for the rules in words.

use serde::{Deserialize, Serialize};

/// Seeds per side at the start, mirrored for North.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartSeeds {
    /// Front row, pits 1..8 from the owner's left.
    pub front: [u8; 8],
    /// Back row, pits 1..8 from the owner's left.
    pub back: [u8; 8],
    /// Seeds in store (in hand) for the planting stage.
    pub store: u8,
}

/// Which way seeds may be sown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sowing {
    /// The player chooses clockwise or anticlockwise at the start of the move (Bao).
    Both,
    /// Clockwise only (Bao la Kimasai).
    Clockwise,
    /// Anticlockwise only (Hus).
    Anticlockwise,
}

/// Where captured seeds are sown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CapturedSowing {
    /// From a kichwa, into the front row first (Bao).
    Kichwa,
    /// From the pit after the capturing pit, together with the capturing pit's own seeds (Hus).
    NextPitWithOwn,
    /// From the pit after the capturing pit; the capturing pit keeps its seeds (ladder step).
    NextPit,
    /// Starting in the capturing pit itself (Bao la Kimasai).
    CapturingPit,
}

/// A takata from a kichwa that is the only non-empty front pit, toward the back row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoneKichwa {
    /// Not a legal move (seed 003, 1.5.3.1).
    Forbidden,
    /// Legal, and loses at once because the front row is empty (Malawi).
    Loses,
}

/// Which pits may receive a planted seed in the planting (namua) stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlantRows {
    /// A non-empty front pit (Bao).
    Front,
    /// A non-empty pit of either row (Bao la Kimasai).
    Both,
}

/// When a takata may plant into a pit holding a single seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SingletonPlanting {
    /// Always.
    Always,
    /// Once the house is lost, only if no front pit holds more than one seed (seed 000, 003 2.3.3).
    UnlessHouseLost,
    /// Only if no front pit other than the kuu holds more than one seed (Malawi).
    OnlyIfNoOtherMultiple,
}

/// How the planting (namua) stage is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Planting {
    /// Whether a planted seed facing a non-empty opponent pit captures (Bao: yes; Kimasai: no).
    pub captures: bool,
    /// Which pits may be planted into.
    pub rows: PlantRows,
    /// Whether the very first move of the game plants a seed (Kimasai: no, it only sows).
    pub first_move_plants: bool,
    /// Restriction on planting a takata into a singleton.
    pub singletons: SingletonPlanting,
}

/// What a takata planting may do with the house.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tax {
    /// Only when the house is the only non-empty front pit; 2 seeds are sown, the rest stays.
    WhenAlone,
    /// Any takata planting into the valid house is a tax (seed 002).
    Always,
    /// No tax: a takata planting into the house sows it whole and loses it (ladder step).
    Never,
}

/// Rules of the Bao la Kiswahili nyumba.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nyumba {
    /// Seeds (counting one just landed) from which an owned house is valid.
    pub valid_from: u8,
    /// Taxing rule for takata plantings into the valid house.
    pub tax: Tax,
    /// The stop/choice rules also apply in the mtaji stage while the house is owned; ownership
    /// then ends at the first capture of the mtaji stage by either player (seed 003 1.6.2, 3.2).
    pub in_mtaji: bool,
    /// Playing the house when a capture-move sowing ends in it is mandatory (seed 002).
    pub play_mandatory: bool,
}

/// The special pit A5, if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum House {
    /// No house: A5 is an ordinary pit.
    None,
    /// The Bao la Kiswahili nyumba.
    Nyumba(Nyumba),
    /// The Malawi kuu (seed 001): privileged until emptied, in the first stage only.
    Kuu,
}

/// Takasia (kutakatia): blocking a threatened pit after a takata.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Takasia {
    /// No blocking.
    None,
    /// Bao la Kiswahili: the owned house, the only non-empty front pit and the only front pit
    /// with more than one seed are exempt.
    Kiswahili,
    /// As `Kiswahili`, but only a valid house (6 or more seeds) is exempt (seed 000).
    ValidHouseOnly,
    /// Malawi (seed 001): no exemptions; the blocked pit may still start a takata when it is the
    /// only pit that can.
    Malawi,
}

/// What happens to a move that never ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InfiniteMoves {
    /// The move is illegal; a player with only never-ending moves loses (seed 003 1.5.6).
    Illegal,
    /// The move may be played and loses (seed 000).
    MoverLoses,
    /// The move may be played and the game is void: a draw (seed 000).
    Void,
    /// The move may be played and stops where the sowing that passed the bound ended, with nothing
    /// more happening in it (seed 000; Malawi: "sleeps at the end of the current relay").
    Stop,
}

/// The opening that precedes the planting stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opening {
    /// None: the game starts in the planting stage (or mtaji if the stores are empty).
    None,
    /// Malawi advanced: each player redistributes its non-kuu seeds plus one from store, one seed
    /// a ply; the second player may first capture one hole facing its kuu or its 2-seed holes.
    MalawiAdvanced,
}
