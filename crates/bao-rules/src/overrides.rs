//! Rule options read from TOML over a preset (`--rules FILE`, training configs, `option` in the
//! engine protocol).

use super::rule_set::Rules;
use super::rules_check::RulesError;
use super::variant::Variant;

/// A preset with options overridden by a TOML table, e.g. `takasia = "none"` or
/// `[house.nyumba]\ntax = "always"`. Unknown options are rejected by name.
pub fn rules_with_overrides(variant: Variant, toml_text: &str) -> Result<Rules, RulesError> {
    overridden(&variant.rules(), toml_text)
}

/// `rules` with options overridden by a TOML table, as [`rules_with_overrides`] over a preset.
pub fn overridden(rules: &Rules, toml_text: &str) -> Result<Rules, RulesError> {
    let bad =
        |e: &dyn std::fmt::Display| RulesError::Options(e.to_string().trim().replace('\n', " "));
    let overrides: toml::Table = toml::from_str(toml_text).map_err(|e| bad(&e))?;
    let mut base = toml::Table::try_from(rules).map_err(|e| bad(&e))?;
    merge(&mut base, overrides);
    toml::Value::Table(base)
        .try_into()
        .map_err(|e: toml::de::Error| bad(&e))
}

/// Merges `over` into `base`, table by table.
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}
