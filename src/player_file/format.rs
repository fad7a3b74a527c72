//! The `.bao` format: header, weights and checksum, written and read with every part checked.

use super::Meta;
use crate::mcts::{MAX_SIMS, PlaySettings};
use crate::nn::{NetConfig, NetInference};
use crate::rules::{Game, Rules};
use crate::util::check::check_range;
use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use std::path::Path;

const MAGIC: &[u8] = b"BAOZERO-PLAYER\n";
/// The format version this build writes. Version 2 may hold f16 weights, which builds that read
/// only version 1 would misload; version 3 stores only the settings a player searches with at
/// play ([`PlaySettings`]). This build reads all three.
pub const FORMAT_VERSION: u32 = 3;
/// The oldest format version this build reads.
const OLDEST_VERSION: u32 = 1;
/// The search settings of a version 1 or 2 header that only self-play reads: a player never
/// used them, so loading drops them. The other fields are the [`PlaySettings`].
const SELFPLAY_ONLY_FIELDS: [&str; 12] = [
    "sims",
    "dirichlet_alpha",
    "dirichlet_epsilon",
    "temperature_plies",
    "temperature",
    "full_search_prob",
    "fast_sims",
    "reuse_tree",
    "gumbel",
    "gumbel_considered",
    "guard",
    "forced_playouts",
];

/// What a player file says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The game's text ([`Game`]'s: a preset's name, else a preset and the options that
    /// differ). Files that predate it hold the preset's name only; their `rules` say the rest.
    pub variant: String,
    /// The full rule set the player was trained on.
    pub rules: Rules,
    /// The network's shape.
    pub net: NetConfig,
    /// Search settings used when it plays.
    pub search: PlaySettings,
    /// Simulations per move by default.
    pub sims: u32,
    /// Where it came from: run directory and iteration.
    pub source: String,
    /// Training games, positions, steps and evaluation results at export time.
    pub training: Meta,
}

impl Header {
    /// Checks what the header says before anything is built from it: a variant this build knows,
    /// consistent rules, a network shape that can be built (checked as it is read, see
    /// [`NetConfig::validate`]), search settings in range and 1 to [`MAX_SIMS`] simulations. A
    /// file with a correct checksum can still say any of these wrong; one line names the key.
    pub fn validate(&self) -> anyhow::Result<()> {
        let named: Game =
            (self.variant.parse()).map_err(|e| anyhow::anyhow!("the header's variant: {e}"))?;
        // The rules as a loader reads them (a file of the former safety bound is still read).
        let game = Game::new(rules_as_loaded(&self.rules))
            .map_err(|e| anyhow::anyhow!("the header's rules are inconsistent: {e}"))?;
        // A text with options names the whole game; a preset's name alone may head other rules.
        if self.variant.contains('+') && named != game {
            bail!(
                "the header's variant `{}` is another game than its rules ({game})",
                self.variant
            );
        }
        self.net.validate()?;
        self.search.validate("search")?;
        check_range("sims", self.sims, 1..=MAX_SIMS)
    }

    /// The game the player plays: its rules, checked.
    pub fn game(&self) -> anyhow::Result<Game> {
        Game::new(self.rules.clone())
            .map_err(|e| anyhow::anyhow!("the header's rules are inconsistent: {e}"))
    }
}

/// A header of format `version`. Versions 1 and 2 stored the whole self-play search config; of
/// it, a player read only what [`PlaySettings`] holds, so the rest is dropped. A field no
/// version knows is refused by name.
fn parse_header(bytes: &[u8], version: u32) -> anyhow::Result<Header> {
    let mut header: serde_json::Value = serde_json::from_slice(bytes)?;
    if version < 3
        && let Some(search) = header.get_mut("search").and_then(|s| s.as_object_mut())
    {
        search.retain(|field, _| !SELFPLAY_ONLY_FIELDS.contains(&field.as_str()));
    }
    // A player plays on the CPU wherever it was trained: a device a header names is dropped.
    if let Some(net) = header.get_mut("net").and_then(|n| n.as_object_mut()) {
        net.remove("device");
    }
    let mut header: Header = serde_json::from_value(header)?;
    migrate_old_bound(&mut header.rules);
    Ok(header)
}

/// The bound on seeds sown that the presets used while it was a safety net, not yet the rule.
const OLD_SAFETY_BOUND: u32 = 100_000_000;

/// A file written while the presets bounded moves at 10^8 seeds sown (as a safety net that was
/// not meant to decide a move) plays the game as the rules now define it: N = 100,000, which the
/// eleven shipped files always had. Says so once, on standard error.
fn migrate_old_bound(rules: &mut Rules) {
    if rules.max_sown != OLD_SAFETY_BOUND {
        return;
    }
    *rules = rules_as_loaded(rules);
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        eprintln!(
            "note: a player file written with max_sown = {OLD_SAFETY_BOUND} (a former safety \
             net) plays under the rule max_sown = {} (docs/RULES.md)",
            rules.max_sown
        )
    });
}

/// The rules a file that says `rules` plays: the former safety bound read as N = 100,000.
fn rules_as_loaded(rules: &Rules) -> Rules {
    let mut loaded = rules.clone();
    if loaded.max_sown == OLD_SAFETY_BOUND {
        loaded.max_sown = crate::rules::variant::MAX_SOWN;
    }
    loaded
}

/// A player file in memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Bundle {
    /// The header.
    pub header: Header,
    /// Network weights (burnpack bytes).
    pub weights: Vec<u8>,
}

use crate::util::hash::fnv1a as checksum;

impl Bundle {
    /// One player with the mean weights of several players of the same rules and network shape
    /// (a "model soup": networks trained on from one start by different runs average into a
    /// stronger one). The first player's header gives the search settings and training counts;
    /// one player is its own mean, unchanged.
    pub fn average(players: &[Bundle]) -> anyhow::Result<Bundle> {
        let first = match players {
            [] => bail!("no players to average"),
            [one] => return Ok(one.clone()),
            [first, ..] => first,
        };
        for (k, p) in players.iter().enumerate().skip(1) {
            let h = &p.header;
            if h.rules != first.header.rules {
                bail!("player {} plays other rules than player 1", k + 1);
            }
            if h.net != first.header.net {
                bail!(
                    "player {} has another network shape ({}) than player 1 ({})",
                    k + 1,
                    h.net,
                    first.header.net
                );
            }
        }
        let nets: Vec<&[u8]> = players.iter().map(|p| p.weights.as_slice()).collect();
        let weights =
            crate::nn::average_weights(&first.header.net, &nets, crate::nn::Precision::F32)?;
        let sources: Vec<&str> = players.iter().map(|p| p.header.source.as_str()).collect();
        let header = Header {
            source: format!("the mean of {}", sources.join(" and ")),
            ..first.header.clone()
        };
        Ok(Bundle { header, weights })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
        // A file no loader would read is never made: the loader's own checks, before writing.
        self.header
            .validate()
            .context("refusing to write a player file that no loader reads")?;
        let header = serde_json::to_vec_pretty(&self.header)?;
        let mut out = Vec::with_capacity(MAGIC.len() + header.len() + self.weights.len() + 32);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(header.len() as u64).to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(&(self.weights.len() as u64).to_le_bytes());
        out.extend_from_slice(&self.weights);
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        Ok(out)
    }

    /// Reads a player file from bytes, checking every part.
    pub fn from_bytes(bytes: &[u8]) -> anyhow::Result<Bundle> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            bail!("not a bao-zero player file (the magic line is missing)");
        }
        let mut at = MAGIC.len();
        let mut take = |n: usize, what: &str| -> anyhow::Result<&[u8]> {
            let end = at
                .checked_add(n)
                .filter(|&e| e <= bytes.len())
                .with_context(|| format!("the file is truncated (in the {what})"))?;
            let s = &bytes[at..end];
            at = end;
            Ok(s)
        };
        let version = u32::from_le_bytes(take(4, "version")?.try_into().expect("4 bytes"));
        if !(OLDEST_VERSION..=FORMAT_VERSION).contains(&version) {
            bail!(
                "player file format version {version}; this build reads versions \
                 {OLDEST_VERSION} to {FORMAT_VERSION}"
            );
        }
        let hlen =
            u64::from_le_bytes(take(8, "header length")?.try_into().expect("8 bytes")) as usize;
        let header_bytes = take(hlen, "header")?.to_vec();
        let wlen =
            u64::from_le_bytes(take(8, "weights length")?.try_into().expect("8 bytes")) as usize;
        let weights = take(wlen, "weights")?.to_vec();
        let sum = u64::from_le_bytes(take(8, "checksum")?.try_into().expect("8 bytes"));
        if at != bytes.len() {
            bail!(
                "the file has {} unexpected bytes at the end",
                bytes.len() - at
            );
        }
        if checksum(&bytes[..bytes.len() - 8]) != sum {
            bail!("the file is damaged (checksum mismatch)");
        }
        let header = parse_header(&header_bytes, version).context("the header is not valid")?;
        header.validate()?;
        Ok(Bundle { header, weights })
    }

    /// Writes the file atomically.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        crate::util::fs::write_atomic(path, &self.to_bytes()?)
    }

    /// Reads a player file.
    pub fn read(path: &Path) -> anyhow::Result<Bundle> {
        let bytes =
            crate::util::fs::read_bounded(path, crate::util::fs::limits::NETWORK, "player file")?;
        Bundle::from_bytes(&bytes).with_context(|| format!("bad player file {}", path.display()))
    }

    /// The same player with its weights stored in `precision` (f16 halves the file).
    pub fn with_precision(self, precision: crate::nn::Precision) -> anyhow::Result<Bundle> {
        let weights = crate::nn::convert_weights(&self.header.net, &self.weights, precision)?;
        Ok(Bundle { weights, ..self })
    }

    /// The network, ready for inference.
    pub fn inference(&self) -> anyhow::Result<NetInference> {
        let net = crate::nn::load_net_bytes(&self.header.net, &crate::nn::device(), &self.weights);
        Ok(NetInference::new(
            net.context("the weights do not match the network config")?,
        ))
    }
}
