//! The setup gate: position text that describes no position of the rule set is refused with a
//! typed error naming the field (counters, houses, takasia, a finished game, the seed total).

use bao_rules::notation::PositionError;
use bao_rules::{Position, Setup, SetupError, Side, TakasiaField, Variant};

/// The gate's verdict on `text` under a preset.
fn gate(v: Variant, text: &str) -> Result<Position, SetupError> {
    match Position::from_text(text, &v.rules()) {
        Ok(p) => Ok(p),
        Err(PositionError::Invalid(e)) => Err(e),
        Err(e) => panic!("{text} should parse: {e}"),
    }
}

const START: &str =
    "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22,22 Hh - - 0";

#[test]
fn the_start_passes_the_gate_and_round_trips() {
    let p = gate(Variant::Kiswahili, START).unwrap();
    assert_eq!(p, Position::start(&Variant::Kiswahili.rules()));
    let setup: Setup = START.parse().unwrap();
    assert_eq!(setup, p.to_setup());
    assert_eq!(setup.to_string(), START);
}

/// Issue repro: in the Malawi advanced opening with no seed in hand, the counters disagreed and a
/// placement made the hand wrap to 255.
#[test]
fn opening_without_seeds_in_hand_is_refused() {
    let text = "0,0,0,0,0,0,0,0/0,2,2,8,0,0,0,0/0,0,0,0,8,0,0,0/0,0,0,0,0,0,0,0 S 24,20 Hh - - 0 opening=1";
    assert_eq!(
        gate(Variant::MalawiAdvanced, text),
        Err(SetupError::EmptyHand(Side::South))
    );
    // With the hand given, the stores must be those of the phase: South 19, North 20.
    let stores = text
        .replace("S 24,20", "S 20,19")
        .replace("opening=1", "opening=1 hand=5");
    assert_eq!(
        gate(Variant::MalawiAdvanced, &stores),
        Err(SetupError::OpeningStore {
            side: Side::South,
            phase: 1,
            found: 20,
            expected: 19
        })
    );
    let good = "0,0,0,0,0,0,0,0/0,2,2,8,0,0,0,0/0,0,0,0,8,0,0,0/0,0,0,0,0,0,0,0 S 19,20 Hh - - 0 hand=5 opening=1";
    assert_eq!(
        gate(Variant::MalawiAdvanced, good).unwrap(),
        Position::start(&Variant::MalawiAdvanced.rules())
    );
    // No hand outside the opening, no opening in a variant without one.
    assert_eq!(
        gate(
            Variant::Kiswahili,
            &format!("{} hand=1", START.replace("S 22,22", "S 21,22"))
        ),
        Err(SetupError::HandOutsideOpening(1))
    );
    assert_eq!(
        gate(
            Variant::Kiswahili,
            &format!("{} opening=2 hand=1", START.replace("S 22,22", "S 21,22"))
        ),
        Err(SetupError::NoOpening(2))
    );
}

/// Issue repro: a house flagged as owned whose pit is empty.
#[test]
fn owned_house_with_an_empty_pit_is_refused() {
    let text = "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,0,2,2,6/0,0,0,0,0,0,0,0 S 22,22 Hh - - 0";
    let err = gate(Variant::Kiswahili, text).unwrap_err();
    assert_eq!(
        err,
        SetupError::EmptyHouse {
            side: Side::South,
            pit: "A5".into()
        }
    );
    assert!(err.to_string().starts_with("houses:"), "{err}");
    // A house in a variant without one.
    let kujifunza = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S 0,0 H - - 0";
    assert_eq!(
        gate(Variant::Kujifunza, kujifunza),
        Err(SetupError::NoHouse(Side::South))
    );
}

/// Issue repro: a takasia target (or block) during namua, or in a variant without takasia.
#[test]
fn takasia_outside_the_mtaji_stage_is_refused() {
    let target = START.replace("Hh - - 0", "Hh - a6 0");
    let err = gate(Variant::Kiswahili, &target).unwrap_err();
    assert!(matches!(
        err,
        SetupError::TakasiaOutsideMtaji {
            field: TakasiaField::Target,
            ..
        }
    ));
    assert!(err.to_string().starts_with("takasia target:"), "{err}");
    let blocked = START.replace("Hh - - 0", "Hh A6 - 0");
    assert!(matches!(
        gate(Variant::Kiswahili, &blocked),
        Err(SetupError::TakasiaOutsideMtaji {
            field: TakasiaField::Blocked,
            ..
        })
    ));
    let kujifunza =
        "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S 0,0 - A3 - 9";
    assert_eq!(
        gate(Variant::Kujifunza, kujifunza),
        Err(SetupError::NoTakasia(TakasiaField::Blocked))
    );
    // In the mtaji stage takasia is fine.
    let mtaji = "2,2,2,2,0,0,0,0/2,2,2,6,2,2,2,2/2,2,2,2,6,2,2,2/2,2,2,2,2,2,2,2 S 0,0 Hh A6 - 9";
    assert!(gate(Variant::Kiswahili, mtaji).is_ok());
}

/// Issue repro: `over=` in the input; a finished game is not a position to play from.
#[test]
fn a_finished_game_is_refused() {
    let err = gate(Variant::Kiswahili, &format!("{START} over=S/no-moves")).unwrap_err();
    assert!(matches!(err, SetupError::GameOver(_)));
    assert!(err.to_string().starts_with("over:"), "{err}");
    // An empty front row means the game is over too.
    let empty = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 S 0,0 - - - 30";
    assert_eq!(
        gate(Variant::Kujifunza, empty),
        Err(SetupError::FrontRowEmpty(Side::South))
    );
}

#[test]
fn counters_that_disagree_with_the_board_are_refused() {
    // 63 seeds.
    let short = START.replace("S 22,22", "S 21,22");
    assert_eq!(
        gate(Variant::Kiswahili, &short),
        Err(SetupError::SeedTotal {
            found: 63,
            expected: 64
        })
    );
    // The same 64 seeds, but a store above the start's, or stores two apart.
    let above = START.replace("S 22,22", "S 21,23");
    assert_eq!(
        gate(Variant::Kiswahili, &above),
        Err(SetupError::StoreAboveStart {
            side: Side::North,
            found: 23,
            start: 22
        })
    );
    let apart = "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,2/0,0,0,0,0,0,0,0 S 20,22 Hh - - 3";
    assert_eq!(
        gate(Variant::Kiswahili, apart),
        Err(SetupError::StoresApart {
            south: 20,
            north: 22
        })
    );
}

#[test]
fn every_position_of_random_play_passes_the_gate() {
    // The positions the engine itself reaches always pass (checked over a few hundred plies of
    // every preset, taking the first legal move and then the last, alternately).
    let mut list = bao_rules::MoveList::new();
    for v in Variant::ALL {
        let rules = v.rules();
        let mut p = Position::start(&rules);
        for ply in 0..300 {
            p.legal_moves(&rules, &mut list);
            if list.is_empty() {
                break;
            }
            let i = if ply % 2 == 0 { 0 } else { list.len() - 1 };
            let next = list.children()[i];
            if next.result().is_some() {
                break;
            }
            p = next;
            assert_eq!(
                Position::from_setup(p.to_setup(), &rules),
                Ok(p),
                "{v}: {p}"
            );
        }
    }
}
