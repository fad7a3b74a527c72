//! Named rule sets: each game of the Bao family, and each step of seed 000's ladder, is a preset
//! of [`Rules`]. The option types and the rule set itself live in `options.rs` and
//! `rule_set.rs`; they are re-exported here, where callers have always found them.

pub use super::options::*;
pub use super::overrides::{overridden, rules_with_overrides};
pub use super::rule_set::Rules;
pub use super::rules_check::RulesError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

impl Default for Rules {
    fn default() -> Self {
        Variant::Kiswahili.rules()
    }
}

impl Rules {
    const KISWAHILI_HOUSE: Nyumba = Nyumba {
        valid_from: 6,
        tax: Tax::WhenAlone,
        in_mtaji: false,
        play_mandatory: false,
    };

    /// Bao la Kujifunza: the base of most presets.
    fn kujifunza() -> Rules {
        Rules {
            setup: StartSeeds {
                front: [2; 8],
                back: [2; 8],
                store: 0,
            },
            sowing: Sowing::Both,
            min_lift: 2,
            captures: true,
            capture_back_row: false,
            captured_sowing: CapturedSowing::Kichwa,
            kimbi: true,
            takata: true,
            max_capture_lift: Some(15),
            mandatory_capture: true,
            front_row_first: true,
            lone_kichwa: LoneKichwa::Forbidden,
            empty_front_row_loses: true,
            planting: Planting {
                captures: true,
                rows: PlantRows::Front,
                first_move_plants: true,
                singletons: SingletonPlanting::Always,
            },
            house: House::None,
            takasia: Takasia::None,
            infinite_moves: InfiniteMoves::Illegal,
            lap_limit: None,
            max_sown: MAX_SOWN,
            opening: Opening::None,
        }
    }

    /// Hus: the base of the ladder.
    fn hus() -> Rules {
        Rules {
            setup: StartSeeds {
                front: [0, 0, 0, 0, 2, 2, 2, 2],
                back: [2; 8],
                store: 0,
            },
            sowing: Sowing::Anticlockwise,
            captures: true,
            capture_back_row: true,
            captured_sowing: CapturedSowing::NextPitWithOwn,
            kimbi: false,
            takata: false,
            max_capture_lift: None,
            mandatory_capture: false,
            front_row_first: false,
            lone_kichwa: LoneKichwa::Loses,
            empty_front_row_loses: false,
            ..Rules::kujifunza()
        }
    }

    const KISWAHILI_SETUP: StartSeeds = StartSeeds {
        front: [0, 0, 0, 0, 6, 2, 2, 0],
        back: [0; 8],
        store: 22,
    };
}

/// N in every preset: a move that sows more than 100,000 seeds in all is never-ending (RULES.md).
pub const MAX_SOWN: u32 = 100_000;

/// A named rule set. `Kiswahili` is the default game; the `Ladder*` presets are the steps of
/// seed 000's tutorial from Hus to Bao la Kiswahili, each adding one rule (a training curriculum).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    #[default]
    Kiswahili,
    Kujifunza,
    MalawiBasic,
    MalawiIntermediate,
    MalawiAdvanced,
    Kimasai,
    Hus,
    KatraFandatsaka,
    /// Hus, but a capture sows only the captured seeds.
    LadderOwnSeedsStay,
    /// ... and only the opponent's front row can be captured.
    LadderFrontCapture,
    /// ... and a player with an empty front row loses.
    LadderFrontRowLoss,
    /// ... and both directions may be sown.
    LadderBidirectional,
    /// ... and captured seeds are sown from a kichwa, keeping the direction.
    LadderKichwa,
    /// ... and captures in a kimbi sow from the nearest kichwa.
    LadderKimbi,
    /// ... and a move that does not start with a capture never captures; 16+ seeds is a takata.
    LadderTakata,
    /// ... and 2 seeds in every pit.
    LadderMoreSeeds,
    /// ... and captures are mandatory, takata from the front row first: Bao la Kujifunza.
    LadderKujifunza,
    /// ... then the Kiswahili start with a planting stage in which nothing is captured.
    LadderPlanting,
    /// ... and planting may capture.
    LadderPlantingCaptures,
    /// ... and the nyumba (no tax yet).
    LadderHouse,
    /// ... and the tax.
    LadderTax,
    /// ... and the singleton-planting restriction. Then takasia gives Bao la Kiswahili.
    LadderSingletons,
}

impl Variant {
    /// Every preset, the eight games first.
    pub const ALL: [Variant; 22] = [
        Variant::Kiswahili,
        Variant::Kujifunza,
        Variant::MalawiBasic,
        Variant::MalawiIntermediate,
        Variant::MalawiAdvanced,
        Variant::Kimasai,
        Variant::Hus,
        Variant::KatraFandatsaka,
        Variant::LadderOwnSeedsStay,
        Variant::LadderFrontCapture,
        Variant::LadderFrontRowLoss,
        Variant::LadderBidirectional,
        Variant::LadderKichwa,
        Variant::LadderKimbi,
        Variant::LadderTakata,
        Variant::LadderMoreSeeds,
        Variant::LadderKujifunza,
        Variant::LadderPlanting,
        Variant::LadderPlantingCaptures,
        Variant::LadderHouse,
        Variant::LadderTax,
        Variant::LadderSingletons,
    ];

    /// The preset's name as used on the command line and in configs.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Kiswahili => "kiswahili",
            Variant::Kujifunza => "kujifunza",
            Variant::MalawiBasic => "malawi-basic",
            Variant::MalawiIntermediate => "malawi-intermediate",
            Variant::MalawiAdvanced => "malawi-advanced",
            Variant::Kimasai => "kimasai",
            Variant::Hus => "hus",
            Variant::KatraFandatsaka => "katra-fandatsaka",
            Variant::LadderOwnSeedsStay => "ladder-own-seeds-stay",
            Variant::LadderFrontCapture => "ladder-front-capture",
            Variant::LadderFrontRowLoss => "ladder-front-row-loss",
            Variant::LadderBidirectional => "ladder-bidirectional",
            Variant::LadderKichwa => "ladder-kichwa",
            Variant::LadderKimbi => "ladder-kimbi",
            Variant::LadderTakata => "ladder-takata",
            Variant::LadderMoreSeeds => "ladder-more-seeds",
            Variant::LadderKujifunza => "ladder-kujifunza",
            Variant::LadderPlanting => "ladder-planting",
            Variant::LadderPlantingCaptures => "ladder-planting-captures",
            Variant::LadderHouse => "ladder-house",
            Variant::LadderTax => "ladder-tax",
            Variant::LadderSingletons => "ladder-singletons",
        }
    }

    /// The preset whose rule set is exactly `rules`, if any.
    pub fn of(rules: &Rules) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.rules() == *rules)
    }

    /// The rule set of this preset.
    pub fn rules(self) -> Rules {
        use Variant::*;
        match self {
            Kiswahili | Kujifunza | MalawiBasic | MalawiIntermediate | MalawiAdvanced | Kimasai
            | Hus | KatraFandatsaka => self.game_rules(),
            _ => self.ladder_rules(),
        }
    }

    /// The rule set of one of the eight games.
    fn game_rules(self) -> Rules {
        use Variant::*;
        let kujifunza = Rules::kujifunza();
        match self {
            Kiswahili => Rules {
                setup: Rules::KISWAHILI_SETUP,
                house: House::Nyumba(Rules::KISWAHILI_HOUSE),
                planting: Planting {
                    singletons: SingletonPlanting::UnlessHouseLost,
                    ..kujifunza.planting.clone()
                },
                takasia: Takasia::Kiswahili,
                ..kujifunza
            },
            Kujifunza => kujifunza,
            MalawiBasic => Rules {
                lone_kichwa: LoneKichwa::Loses,
                infinite_moves: InfiniteMoves::Stop,
                ..kujifunza
            },
            MalawiIntermediate | MalawiAdvanced => Rules {
                setup: StartSeeds {
                    front: [0, 0, 0, 0, 8, 2, 2, 0],
                    back: [0; 8],
                    store: 20,
                },
                house: House::Kuu,
                planting: Planting {
                    singletons: SingletonPlanting::OnlyIfNoOtherMultiple,
                    ..kujifunza.planting.clone()
                },
                takasia: Takasia::Malawi,
                opening: if self == MalawiAdvanced {
                    Opening::MalawiAdvanced
                } else {
                    Opening::None
                },
                ..Variant::MalawiBasic.rules()
            },
            Kimasai => Rules {
                setup: StartSeeds {
                    front: [1; 8],
                    back: [0; 8],
                    store: 24,
                },
                sowing: Sowing::Clockwise,
                min_lift: 1,
                captured_sowing: CapturedSowing::CapturingPit,
                kimbi: false,
                takata: false,
                max_capture_lift: None,
                mandatory_capture: false,
                front_row_first: false,
                lone_kichwa: LoneKichwa::Loses,
                planting: Planting {
                    captures: false,
                    rows: PlantRows::Both,
                    first_move_plants: false,
                    singletons: SingletonPlanting::Always,
                },
                ..kujifunza
            },
            Hus => Rules::hus(),
            KatraFandatsaka => Rules {
                setup: StartSeeds {
                    front: [0, 1, 1, 1, 1, 1, 1, 0],
                    back: [0; 8],
                    store: 26,
                },
                ..kujifunza
            },
            _ => unreachable!("{self} is a step of the ladder"),
        }
    }

    /// The rule set of a step of seed 000's ladder: the step before it plus one rule.
    fn ladder_rules(self) -> Rules {
        use Variant::*;
        let kujifunza = Rules::kujifunza();
        match self {
            LadderKujifunza => kujifunza,
            LadderOwnSeedsStay => Rules {
                captured_sowing: CapturedSowing::NextPit,
                ..Rules::hus()
            },
            LadderFrontCapture => Rules {
                capture_back_row: false,
                ..LadderOwnSeedsStay.rules()
            },
            LadderFrontRowLoss => Rules {
                empty_front_row_loses: true,
                ..LadderFrontCapture.rules()
            },
            LadderBidirectional => Rules {
                sowing: Sowing::Both,
                ..LadderFrontRowLoss.rules()
            },
            LadderKichwa => Rules {
                captured_sowing: CapturedSowing::Kichwa,
                ..LadderBidirectional.rules()
            },
            LadderKimbi => Rules {
                kimbi: true,
                ..LadderKichwa.rules()
            },
            LadderTakata => Rules {
                takata: true,
                max_capture_lift: Some(15),
                ..LadderKimbi.rules()
            },
            LadderMoreSeeds => Rules {
                setup: kujifunza.setup.clone(),
                ..LadderTakata.rules()
            },
            LadderPlanting => Rules {
                setup: Rules::KISWAHILI_SETUP,
                planting: Planting {
                    captures: false,
                    ..kujifunza.planting.clone()
                },
                ..kujifunza
            },
            LadderPlantingCaptures => Rules {
                setup: Rules::KISWAHILI_SETUP,
                ..kujifunza
            },
            LadderHouse => Rules {
                house: House::Nyumba(Nyumba {
                    tax: Tax::Never,
                    ..Rules::KISWAHILI_HOUSE
                }),
                ..LadderPlantingCaptures.rules()
            },
            LadderTax => Rules {
                house: House::Nyumba(Rules::KISWAHILI_HOUSE),
                ..LadderHouse.rules()
            },
            LadderSingletons => Rules {
                takasia: Takasia::None,
                ..Kiswahili.rules()
            },
            _ => unreachable!("{self} is a game, not a step of the ladder"),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{0}`; known variants: {known}", known = Variant::ALL.map(|v| v.name()).join(", "))]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = s.trim().to_ascii_lowercase().replace('_', "-");
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == key)
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::overrides::rules_with_overrides;

    #[test]
    fn every_preset_is_valid_and_named_uniquely() {
        for v in Variant::ALL {
            v.rules().validate().unwrap();
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
        }
        assert!(
            "chess"
                .parse::<Variant>()
                .unwrap_err()
                .to_string()
                .contains("kiswahili")
        );
    }

    #[test]
    fn seed_totals_per_preset() {
        assert_eq!(Variant::Kiswahili.rules().total_seeds(), 64);
        assert_eq!(Variant::Kujifunza.rules().total_seeds(), 64);
        assert_eq!(Variant::MalawiIntermediate.rules().total_seeds(), 64);
        assert_eq!(Variant::Kimasai.rules().total_seeds(), 64);
        assert_eq!(Variant::Hus.rules().total_seeds(), 48);
        assert_eq!(Variant::KatraFandatsaka.rules().total_seeds(), 64);
    }

    #[test]
    fn the_last_ladder_step_plus_takasia_is_kiswahili() {
        let step = Variant::LadderSingletons.rules();
        assert_eq!(
            Rules {
                takasia: Takasia::Kiswahili,
                ..step
            },
            Variant::Kiswahili.rules()
        );
    }

    #[test]
    fn options_can_be_overridden_by_name_and_typos_are_rejected() {
        let r = rules_with_overrides(
            Variant::Kiswahili,
            "takasia = \"valid-house-only\"\n[house.nyumba]\ntax = \"always\"",
        )
        .unwrap();
        assert_eq!(r.takasia, Takasia::ValidHouseOnly);
        assert!(matches!(
            r.house,
            House::Nyumba(Nyumba {
                tax: Tax::Always,
                ..
            })
        ));
        let err = rules_with_overrides(Variant::Kiswahili, "takasiaa = \"none\"").unwrap_err();
        assert!(err.to_string().contains("takasiaa"), "{err}");
    }
}
