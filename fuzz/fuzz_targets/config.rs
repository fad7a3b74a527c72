//! Arbitrary text as a training config (TOML): it is read, checked and its rules built, or
//! refused with an error; nothing panics.
#![no_main]

use bao_zero::train::TrainConfig;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(config) = toml::from_str::<TrainConfig>(text) else { return };
    if config.validate().is_ok() && config.rules().is_ok() {
        // What is accepted prints as a config that reads back the same.
        let printed = toml::to_string(&config).expect("a valid config prints");
        let again: TrainConfig = toml::from_str(&printed).expect("a printed config reads back");
        assert_eq!(again, config);
        let _ = config.learning_rate(config.iterations.saturating_sub(1));
    }
});
