//! What a rule set may say, checked where rules are set up ([`Rules::validate`], which every
//! front end calls): a bound on never-ending moves that keeps a move cheap, and a game that is
//! not over before its first move.

mod common;

use bao_rules::rule_set::MAX_BOUND;
use bao_rules::{Rules, RulesError, Variant};
use common::rules_with;

/// The refusal of `rules` as text.
fn refusal(rules: &Rules) -> String {
    rules.validate().expect_err("refused").to_string()
}

/// `max_sown` above 1,000,000 (up to 2^32 - 1, which made `legal` take seconds) and `lap_limit`
/// above 62,500 are refused in one line naming the option; the bound itself is a game.
#[test]
fn the_bound_on_never_ending_moves_is_bounded() {
    assert_eq!(MAX_BOUND, 1_000_000);
    for v in Variant::ALL {
        assert_eq!(v.rules().validate(), Ok(()), "{v}");
    }
    let largest = rules_with(Variant::Kiswahili, "max_sown = 1000000");
    assert_eq!(largest.validate(), Ok(()));
    for n in [1_000_001u64, 10_000_000, u64::from(u32::MAX)] {
        let r = rules_with(Variant::Kiswahili, &format!("max_sown = {n}"));
        assert_eq!(
            r.validate(),
            Err(RulesError::BoundTooLarge("max_sown", n as u32, MAX_BOUND))
        );
        let text = refusal(&r);
        assert!(
            text.starts_with(&format!("max_sown = {n} is above 1000000")),
            "{text}"
        );
        assert!(!text.contains('\n'), "{text}");
    }
    let laps = rules_with(Variant::Kiswahili, "lap_limit = 62500");
    assert_eq!(laps.validate(), Ok(()));
    assert_eq!(laps.never_ending_bound(), 1_000_000);
    let text = refusal(&rules_with(Variant::Kiswahili, "lap_limit = 62501"));
    assert!(
        text.starts_with("lap_limit = 62501 is above 62500"),
        "{text}"
    );
}

/// Kujifunza with `max_sown` 1 to 3: every first move sows more, so South has no move and the
/// game is over at the start. Refused, naming why; 4 seeds leave a game.
#[test]
fn a_game_over_before_the_first_move_is_refused() {
    for n in 1..=3 {
        let r = rules_with(Variant::Kujifunza, &format!("max_sown = {n}"));
        let text = refusal(&r);
        assert!(
            matches!(r.validate(), Err(RulesError::OverAtStart(_))),
            "max_sown = {n}: {text}"
        );
        assert!(
            text.starts_with("the game is over before the first move (North wins (no-moves))"),
            "{text}"
        );
    }
    let r = rules_with(Variant::Kujifunza, "lap_limit = 1");
    assert_eq!(r.validate(), Ok(()));
}
