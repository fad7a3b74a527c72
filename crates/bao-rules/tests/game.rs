//! A game as one value: its text names the preset and each option that differs, and reads back
//! to the same game; the rule set is checked where the game is made.

use bao_rules::options::{House, Nyumba, Takasia, Tax};
use bao_rules::{Game, GameError, Rules, RulesError, Variant};

fn game(text: &str) -> Game {
    text.parse()
        .unwrap_or_else(|e| panic!("`{text}` is a game: {e}"))
}

#[test]
fn a_preset_is_written_as_its_name_and_reads_back() {
    for v in Variant::ALL {
        let g = Game::from(v);
        assert_eq!(g.to_string(), v.name());
        assert_eq!(game(v.name()), g);
        assert_eq!(Game::new(v.rules()).unwrap(), g);
        assert_eq!(
            Game::new(v.rules()).unwrap().name(),
            Variant::of(&v.rules()).unwrap().name()
        );
    }
    assert_eq!(Game::default().to_string(), "kiswahili");
}

#[test]
fn options_that_differ_from_the_preset_are_written_after_its_name() {
    let cases = [
        "kujifunza+takasia=valid-house-only",
        "kiswahili+house.nyumba.tax=always",
        "kiswahili+house=none",
        "kujifunza+max_capture_lift=none",
        "hus+max_capture_lift=15",
        "kujifunza+lap_limit=12+max_sown=5000",
        "kujifunza+setup.back=[2,2,2,2,2,2,2,3]+setup.front=[2,2,2,2,2,2,2,3]",
    ];
    for text in cases {
        let g = game(text);
        assert_eq!(g.to_string(), text, "written back as read");
        assert_eq!(g.name(), "custom");
        assert_eq!(game(&g.to_string()), g);
    }
    let g = game("kujifunza+takasia=valid-house-only");
    assert_eq!(g.rules().takasia, Takasia::ValidHouseOnly);
    assert_eq!(
        game("kujifunza+max_capture_lift=none")
            .rules()
            .max_capture_lift,
        None
    );
    assert_eq!(game("kiswahili+house=none").rules().house, House::None);
}

#[test]
fn a_rule_set_is_written_from_the_preset_it_differs_least_from() {
    let mut rules = Variant::Kiswahili.rules();
    rules.house = House::Nyumba(Nyumba {
        tax: Tax::Never,
        ..match rules.house {
            House::Nyumba(n) => n,
            _ => unreachable!("Bao la Kiswahili has a nyumba"),
        }
    });
    let g = Game::new(rules.clone()).unwrap();
    assert_eq!(g.to_string(), "kiswahili+house.nyumba.tax=never");
    assert_eq!(g.rules(), &rules);
    // A house where the preset has none is written whole, and reads back.
    let mut hus = Variant::Hus.rules();
    hus.house = Variant::Kiswahili.rules().house;
    let g = Game::new(hus.clone()).unwrap();
    assert_eq!(game(&g.to_string()).rules(), &hus);
}

#[test]
fn every_single_option_changed_in_every_preset_reads_back() {
    let tweaks: [fn(&mut Rules); 8] = [
        |r| r.takasia = Takasia::Malawi,
        |r| r.house = House::Kuu,
        |r| r.max_capture_lift = r.max_capture_lift.map_or(Some(9), |_| None),
        |r| r.lap_limit = Some(7),
        |r| r.max_sown = 777,
        |r| r.kimbi = !r.kimbi,
        |r| r.setup.front[5] += 1,
        |r| r.min_lift = 3 - r.min_lift.min(2),
    ];
    let mut checked = 0;
    for v in Variant::ALL {
        for tweak in tweaks {
            let mut rules = v.rules();
            tweak(&mut rules);
            let Ok(g) = Game::new(rules.clone()) else {
                continue;
            };
            checked += 1;
            let back = game(&g.to_string());
            assert_eq!(back.rules(), &rules, "{v}: {g}");
            assert_eq!(back.to_string(), g.to_string());
        }
    }
    // Only a kuu without a store's seeds (the Malawi advanced opening's) is refused.
    assert!(
        checked >= 8 * Variant::ALL.len() - 4,
        "{checked} rule sets checked"
    );
}

#[test]
fn bad_game_text_is_refused_in_one_line_naming_what_is_wrong() {
    let err = |text: &str| text.parse::<Game>().unwrap_err();
    assert!(matches!(err("bao"), GameError::Variant(_)));
    assert!(err("bao").to_string().contains("unknown variant `bao`"));
    assert_eq!(
        err("kiswahili+takasia"),
        GameError::Malformed("takasia".into())
    );
    assert_eq!(err("kiswahili+=3"), GameError::Malformed("=3".into()));
    assert_eq!(
        err("kiswahili+max_sown=0"),
        GameError::Rules(RulesError::MaxSown)
    );
    let unknown = err("kiswahili+tempo=3").to_string();
    assert!(unknown.contains("tempo"), "{unknown}");
    let wrong_type = err("kiswahili+takasia=7").to_string();
    assert!(
        wrong_type.contains("takasia") || wrong_type.contains("7"),
        "{wrong_type}"
    );
    for text in [
        "bao",
        "kiswahili+tempo=3",
        "kiswahili+takasia=7",
        "kiswahili+setup.front=[1,",
    ] {
        assert!(!err(text).to_string().contains('\n'), "{text}: one line");
    }
}

#[test]
fn a_game_checks_its_rules_where_it_is_made() {
    let mut rules = Variant::Kujifunza.rules();
    rules.min_lift = 0;
    assert_eq!(
        Game::new(rules).unwrap_err(),
        GameError::Rules(RulesError::MinLift)
    );
}

#[test]
fn options_read_from_toml_make_a_new_game_from_the_same_preset_checked_once() {
    let g = game("kujifunza+takasia=valid-house-only")
        .with_overrides("max_sown = 5000")
        .unwrap();
    assert_eq!(
        g.to_string(),
        "kujifunza+max_sown=5000+takasia=valid-house-only"
    );
    assert_eq!(g.preset(), Variant::Kujifunza);
    // A game reads as its rules.
    assert_eq!(g.max_sown, 5000);
    assert!(matches!(
        Game::from(Variant::Hus).with_overrides("no_such_option = 1"),
        Err(GameError::Rules(RulesError::Options(_)))
    ));
    assert!(matches!(
        Game::from(Variant::Hus).with_overrides("min_lift = 0"),
        Err(GameError::Rules(_))
    ));
}
