//! Configs that extend configs: each shipped second-stage config, resolved through its `extends`
//! chain, is the same training config as the full file it replaces (tests/fixtures/configs/).

use bao_zero::train::TrainConfig;
use std::path::Path;

#[test]
fn each_shipped_second_stage_config_resolves_to_its_full_config() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in [
        "kiswahili-ab",
        "kiswahili-ab-fp",
        "kiswahili-ab-q05",
        "kiswahili-ab-fp-q05",
    ] {
        let file = format!("{name}.toml");
        let resolved = TrainConfig::load(&root.join("configs").join(&file))
            .unwrap_or_else(|e| panic!("{file}: {e:#}"));
        let full = TrainConfig::load(&root.join("tests/fixtures/configs").join(&file))
            .unwrap_or_else(|e| panic!("fixture {file}: {e:#}"));
        assert_eq!(resolved, full, "{file}");
    }
}

#[test]
fn the_second_stage_configs_extend_rather_than_repeat_their_base() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["kiswahili-ab-fp", "kiswahili-ab-q05", "kiswahili-ab-fp-q05"] {
        let text = std::fs::read_to_string(root.join(format!("configs/{name}.toml"))).unwrap();
        let table: toml::Table = toml::from_str(&text).unwrap();
        assert!(table.contains_key("extends"), "{name} extends a base");
        assert!(
            !table.contains_key("net"),
            "{name} repeats no table of its base"
        );
    }
}
