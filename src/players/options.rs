//! The options of the specs that hold no other player: alpha-beta's ([`AbSpec`]), and the
//! counts, durations and numbers every spec's options are written with.

use super::player::Limits;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Alpha-beta options of a spec.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AbSpec {
    /// Limits per move (none: the caller's limits, or else depth
    /// [`DEFAULT_DEPTH`](crate::search::alphabeta::DEFAULT_DEPTH)).
    pub limits: Limits,
    /// log2 of the transposition table's entries.
    pub tt_bits: Option<u32>,
    /// A JSON file of evaluation weights.
    pub weights: Option<PathBuf>,
}

impl fmt::Display for AbSpec {
    /// The options as [`parse_ab_options`] reads them, in one order (empty when none is set).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ab = self;
        let mut parts = Vec::new();
        if let Some(d) = ab.limits.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = ab.limits.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(t) = ab.limits.time {
            parts.push(format!("time={}", format_duration(t)));
        }
        if let Some(b) = ab.tt_bits {
            parts.push(format!("tt={b}"));
        }
        if let Some(w) = &ab.weights {
            parts.push(format!("weights={}", w.display()));
        }
        f.write_str(&parts.join(","))
    }
}

/// The deepest search iteration of alpha-beta.
pub const MAX_DEPTH: u32 = 64;
/// The smallest transposition table a spec may ask for (`tt=`), log2 of its entries.
const MIN_TT_BITS: u32 = 10;
/// The largest transposition table a spec may ask for (`tt=`): 2^26 entries of 16 bytes are
/// 1 GiB; 2^30 (16 GiB) ends most machines' process on allocation.
pub const MAX_TT_BITS: u32 = 26;

/// A positive count as a spec or the engine protocol writes it: `100000`, `100k`, `2m`.
pub fn parse_count(v: &str) -> Option<u64> {
    let v = v.trim().to_ascii_lowercase();
    let (num, mult) = if let Some(n) = v.strip_suffix('k') {
        (n, 1_000)
    } else if let Some(n) = v.strip_suffix('m') {
        (n, 1_000_000)
    } else {
        (v.as_str(), 1)
    };
    let n: u64 = num.parse().ok()?;
    n.checked_mul(mult).filter(|&n| n > 0)
}

/// A positive duration as a spec writes it: `500ms`, `1s`, `1.5s`, `2m`.
pub fn parse_duration(v: &str) -> Option<std::time::Duration> {
    let (num, unit) = v
        .find(|c: char| c.is_ascii_alphabetic())
        .map_or((v, ""), |i| v.split_at(i));
    let x: f64 = num.trim().parse().ok()?;
    let secs = match unit.trim() {
        "ms" => x / 1000.0,
        "s" => x,
        "m" | "min" => x * 60.0,
        _ => return None,
    };
    (secs.is_finite() && secs > 0.0 && secs < 1e7).then(|| std::time::Duration::from_secs_f64(secs))
}

pub(crate) fn format_duration(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

/// The alpha-beta options `depth=6,nodes=100k,...`, or why they are wrong.
pub(crate) fn parse_ab_options(options: &str) -> Result<AbSpec, String> {
    let mut ab = AbSpec::default();
    for item in options.split(',').map(str::trim) {
        if item.is_empty() {
            return Err("empty option (two commas in a row?)".into());
        }
        let (key, value) = item
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| format!("option `{item}` must be key=value"))?;
        set_ab_option(&mut ab, key, value)?;
    }
    Ok(ab)
}

/// Sets one alpha-beta option `key=value` on `ab`, or says why it is wrong.
fn set_ab_option(ab: &mut AbSpec, key: &str, value: &str) -> Result<(), String> {
    match key {
        "depth" => {
            let d: u32 = value
                .parse()
                .ok()
                .filter(|d| (1..=MAX_DEPTH).contains(d))
                .ok_or_else(|| format!("depth `{value}` must be 1..={MAX_DEPTH}"))?;
            ab.limits.depth = Some(d);
        }
        "nodes" => {
            ab.limits.nodes = Some(parse_count(value).ok_or_else(|| {
                format!("nodes `{value}` must be a positive count such as 100000 or 100k")
            })?)
        }
        "time" => {
            ab.limits.time = Some(parse_duration(value).ok_or_else(|| {
                format!("time `{value}` must be a positive duration such as 500ms or 1.5s")
            })?)
        }
        "tt" => {
            ab.tt_bits = Some(
                value
                    .parse()
                    .ok()
                    .filter(|b| (MIN_TT_BITS..=MAX_TT_BITS).contains(b))
                    .ok_or_else(|| {
                        format!(
                            "tt `{value}` must be {MIN_TT_BITS}..={MAX_TT_BITS} (log2 of the \
                             table's entries; 2^{MAX_TT_BITS} entries take 1 GiB)"
                        )
                    })?,
            )
        }
        "weights" if !value.is_empty() => ab.weights = Some(PathBuf::from(value)),
        _ => {
            return Err(format!(
                "unknown alpha-beta option `{key}` (known: depth, nodes, time, tt, weights)"
            ));
        }
    }
    Ok(())
}

/// The number an option `key=value` gives, if it parses and passes `ok`; else why not (it
/// must be `must`).
pub(crate) fn number<T: std::str::FromStr>(
    key: &str,
    value: &str,
    ok: impl Fn(&T) -> bool,
    must: &str,
) -> Result<T, String> {
    value
        .parse()
        .ok()
        .filter(|n| ok(n))
        .ok_or_else(|| format!("{key} `{value}` must be {must}"))
}

/// The most characters of a spec an error repeats (a longer one is cut, with `...`).
const SHOWN_CHARS: usize = 120;

/// `spec` as an error shows it: whole, or its first [`SHOWN_CHARS`] characters and `...`.
pub(crate) fn shown(spec: &str) -> String {
    match spec.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}...", &spec[..cut]),
        None => spec.to_string(),
    }
}
