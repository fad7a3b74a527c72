//! Search options that no longer exist (the Gumbel root, the alpha-beta guard): what was stored
//! with them off still loads, and asking for them gets one line naming the option.

use crate::common;
use bao_zero::players::PlayerSpec;
use bao_zero::train::TrainConfig;
use std::path::PathBuf;

/// A run directory's stored config: the smoke config with `search` as its `[selfplay.mcts]`.
fn stored_config(name: &str, search: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("bao-removed-options-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let smoke = common::SMOKE;
    let text = smoke.replace("[selfplay.mcts]\n", &format!("[selfplay.mcts]\n{search}\n"));
    assert_ne!(text, smoke);
    let path = dir.join("config.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_stored_run_config_with_the_removed_options_off_loads_and_one_with_them_on_is_refused() {
    let off = "gumbel = false\ngumbel_considered = 16\nguard = 0.0";
    let cfg = TrainConfig::load(&stored_config("off", off)).unwrap();
    let plain = TrainConfig::load(&stored_config("plain", "")).unwrap();
    assert_eq!(cfg, plain);
    for (name, on) in [("gumbel", "gumbel = true"), ("guard", "guard = 0.25")] {
        let err = TrainConfig::load(&stored_config(name, on)).unwrap_err();
        let text = format!("{err:#}");
        let line = text
            .lines()
            .find(|l| l.contains("no longer exists"))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(line.contains(&format!("`{name}`")), "{text}");
    }
}

#[test]
fn a_player_spec_naming_the_guard_gets_one_line_saying_it_no_longer_exists() {
    // Refused where the spec is read, before any registry builds it.
    let err = "mcts:guard=0.25".parse::<PlayerSpec>().unwrap_err();
    let text = err.to_string();
    assert!(text.contains("`guard` no longer exists"), "{text}");
    assert!(!text.contains('\n'), "{text}");
}
