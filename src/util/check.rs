//! The range checks of config and file values: one line naming the key, the range and the
//! value.

/// Checks that the config value `key` lies in `range` (NaN never does), with one line naming the
/// key, the range and the value: the check every numeric field of a config goes through.
pub fn check_range<T: PartialOrd + std::fmt::Display>(
    key: &str,
    value: T,
    range: std::ops::RangeInclusive<T>,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        range.contains(&value),
        "{key} must be in {}..={}, not {value}",
        range.start(),
        range.end()
    );
    Ok(())
}

/// Checks that the config value `key` lies above `low` and at most `high` (NaN never does), with
/// one line naming the key, the bounds and the value.
pub fn check_above(key: &str, value: f64, low: f64, high: f64) -> anyhow::Result<()> {
    anyhow::ensure!(
        value > low && value <= high,
        "{key} must be above {low} and at most {high}, not {value}"
    );
    Ok(())
}
