//! Arbitrary bytes into every text reader of bao-zero: none may panic.
#![no_main]

use bao_zero::notation::{MoveSpec, Record, parse_and_play};
use bao_zero::rules::{Position, Setup, Side, Variant, variant::rules_with_overrides};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let rules = Variant::Kiswahili.rules();
    let start = Position::start(&rules);
    let _ = MoveSpec::parse(text, Side::South);
    let _ = parse_and_play(&rules, &start, text);
    if let Ok(setup) = text.parse::<Setup>() {
        assert_eq!(setup.to_string().parse::<Setup>().ok(), Some(setup));
        // Only positions through the setup gate are played (as every entry point does).
        if let Ok(p) = Position::from_setup(setup, &rules) {
            let _ = p.outcome(&rules);
        }
    }
    if let Ok(rec) = text.parse::<Record>() {
        let _ = rec.replay(&rules, &start);
    }
    let _ = rules_with_overrides(Variant::Kiswahili, text);
});
