//! Parsers never panic: arbitrary text into the move, position, record and rule-option readers
//! gives either a value or an error. (A cargo-fuzz target for the same lives in `fuzz/`.)

use bao_rules::notation::{MoveSpec, Record, parse_and_play};
use bao_rules::{Position, Setup, Side, Variant, variant::rules_with_overrides};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn move_text_never_panics(s in "\\PC{0,12}", t in "[ABab@xX]?[0-9]?[<>]?[+]?[*#]{0,3}") {
        let rules = Variant::Kiswahili.rules();
        let start = Position::start(&rules);
        for text in [&s, &t] {
            let _ = MoveSpec::parse(text, Side::South);
            let _ = MoveSpec::parse(text, Side::North);
            let _ = parse_and_play(&rules, &start, text);
        }
    }

    #[test]
    fn position_text_never_panics(s in "\\PC{0,80}", counts in proptest::collection::vec(0u16..300, 32)) {
        let _ = s.parse::<Setup>();
        let _ = Position::from_text(&s, &Variant::Kiswahili.rules());
        // Well-formed rows with arbitrary counts: parse (or reject) and, if parsed, round-trip.
        let rows: Vec<String> = counts.chunks(8).map(|c| c.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(",")).collect();
        let text = format!("{} S 0,0 - - - 10", rows.join("/"));
        if let Ok(p) = text.parse::<Setup>() {
            prop_assert_eq!(p.to_string().parse::<Setup>().unwrap(), p);
            if let Ok(q) = Position::from_setup(p, &Variant::Kiswahili.rules()) {
                prop_assert_eq!(q.to_setup(), p);
            }
        }
    }

    #[test]
    fn records_never_panic(s in "(\\[[A-Za-z]{1,6} \"[a-z ]{0,8}\"\\]\n)?([0-9]{1,2}: ([ABab]?[1-8][<>]?[+]? ?){0,2};\n){0,4}") {
        let rules = Variant::Kiswahili.rules();
        if let Ok(rec) = s.parse::<Record>() {
            let _ = rec.replay(&rules, &Position::start(&rules));
        }
    }

    #[test]
    fn rule_options_never_panic(s in "\\PC{0,60}", key in "(takasia|sowing|min_lift|house|max_sown)", val in "(\"none\"|\"both\"|0|1|2|true|\\[\\])") {
        let _ = rules_with_overrides(Variant::Kiswahili, &s);
        if let Ok(r) = rules_with_overrides(Variant::Kiswahili, &format!("{key} = {val}")) {
            let _ = r.validate();
        }
    }
}
