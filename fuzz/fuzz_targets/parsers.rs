//! Arbitrary bytes into every text reader of bao-zero: none may panic.
#![no_main]

use bao_zero::notation::{MoveSpec, Record, parse_and_play};
use bao_zero::rules::{Position, Side, Variant, variant::rules_with_overrides};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let rules = Variant::Kiswahili.rules();
    let start = Position::start(&rules);
    let _ = MoveSpec::parse(text, Side::South);
    let _ = parse_and_play(&rules, &start, text);
    if let Ok(p) = text.parse::<Position>() {
        assert_eq!(p.to_string().parse::<Position>().ok(), Some(p));
        // Only positions that fit the rules are played (the CLI checks the same way).
        if p.validate(&rules).is_ok() {
            let _ = p.outcome(&rules);
        }
    }
    if let Ok(rec) = text.parse::<Record>() {
        let _ = rec.replay(&rules, &start);
    }
    let _ = rules_with_overrides(Variant::Kiswahili, text);
});
