//! The search settings, and how they are read: stored configs and player files may still carry
//! the keys of options that no longer exist, which are accepted at their off values only.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The exploration constant of a trained player at play time, unless its file says otherwise:
/// self-play explores with 1.5, but with the long searches of play the tree does better trusting
/// its values more (docs/STRENGTH.md: 1.0 against 1.5, 800 simulations a move, Elo +63 [+24, +102];
/// 0.7 and 2.5 are worse).
pub const PLAY_C_PUCT: f32 = 1.0;

/// Search settings. Every field has a default, so a config may give only some.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", default, deny_unknown_fields)]
pub struct MctsConfig {
    /// Simulations per move (a full search).
    pub sims: u32,
    /// Exploration constant of PUCT.
    pub c_puct: f32,
    /// Dirichlet noise at the root: concentration (0 disables the noise).
    pub dirichlet_alpha: f32,
    /// Dirichlet noise at the root: weight of the noise in the priors.
    pub dirichlet_epsilon: f32,
    /// First-play urgency: an unvisited child is valued at the parent's network value minus this.
    pub fpu_reduction: f32,
    /// Plies from the start during which moves are sampled in proportion to visits^(1/T).
    pub temperature_plies: u32,
    /// The temperature T of that sampling.
    pub temperature: f32,
    /// Playout cap randomization (KataGo): the chance that a move gets a full search (with noise)
    /// and becomes a training target; other moves get `fast_sims` and no target. 1.0 disables it.
    pub full_search_prob: f32,
    /// Simulations of a fast search.
    pub fast_sims: u32,
    /// Keep the subtree of the chosen move for the next search.
    pub reuse_tree: bool,
    /// MCTS-solver: wins and losses proven at terminal nodes are proven up the tree, proven
    /// lines are not searched again, a proven win is played and a proven loss avoided.
    pub solver: bool,
    /// Implicit minimax backups (Lanctot et al. 2014): every node also keeps the minimax of its
    /// evaluated children's values, and selection values a child at
    /// `(1 - w) * mean + w * minimax`; this weight `w` (0 turns it off). A refutation found deep
    /// in the tree then counts at once instead of being averaged away over many visits. At play
    /// in Bao la Kiswahili 0.3 measured level with 0 on a quiet machine and inside the noise
    /// under load (docs/STRENGTH.md), so it is off by default.
    pub minimax_weight: f32,
    /// Forced playouts and policy target pruning (KataGo): at a root with Dirichlet noise (the
    /// full searches of self-play), a child with prior `p` gets at least `sqrt(k * p * N)` of
    /// the root's `N` visits, this `k` (KataGo: 2; 0 turns it off), so that the noise's picks are
    /// searched enough to be judged; the policy target then takes back the forced visits that
    /// PUCT alone would not have given ([`super::Tree::pruned_root_visits`]).
    pub forced_playouts: f32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            sims: 200,
            c_puct: 1.5,
            dirichlet_alpha: 0.3,
            dirichlet_epsilon: 0.25,
            fpu_reduction: 0.2,
            temperature_plies: 12,
            temperature: 1.0,
            full_search_prob: 1.0,
            fast_sims: 50,
            reuse_tree: true,
            solver: false,
            minimax_weight: 0.0,
            forced_playouts: 0.0,
        }
    }
}

/// Keys of removed search options that stored configs and player files may hold, with the test
/// of the value they had when the option was off: `None` for a key that any value leaves off.
type OffTest = Option<fn(&serde_json::Value) -> bool>;

/// The removed options (see docs/STRENGTH.md for what they measured): the Gumbel root and its
/// width, and the alpha-beta guard of timed moves.
const REMOVED: [(&str, OffTest); 3] = [
    ("gumbel", Some(|v| v.as_bool() == Some(false))),
    ("gumbel_considered", None),
    ("guard", Some(|v| v.as_f64() == Some(0.0))),
];

impl Serialize for MctsConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        MctsConfig::serialize(self, s)
    }
}

impl<'de> Deserialize<'de> for MctsConfig {
    /// Reads the settings as the derived code would, after dropping the removed options' keys
    /// when they are off; a removed option that is on is refused with one line naming it.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut map = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        for (key, is_off) in REMOVED {
            match map.remove(key) {
                Some(v) if is_off.is_some_and(|off| !off(&v)) => {
                    return Err(D::Error::custom(format!(
                        "the search option `{key}` no longer exists; remove it (only its off value {} is accepted)",
                        if key == "gumbel" { "false" } else { "0" }
                    )));
                }
                _ => {}
            }
        }
        MctsConfig::deserialize(serde_json::Value::Object(map)).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removed_options_are_read_at_their_off_values_and_refused_on() {
        let read = |text: &str| toml::from_str::<MctsConfig>(text).map_err(|e| e.to_string());
        let old = "sims = 9\ngumbel = false\ngumbel_considered = 16\nguard = 0.0\n";
        let cfg = read(old).unwrap();
        assert_eq!(
            cfg,
            MctsConfig {
                sims: 9,
                ..MctsConfig::default()
            }
        );
        // The same from a player file's JSON header; writing leaves the keys out.
        let json = r#"{"sims": 9, "gumbel": false, "gumbel_considered": 4, "guard": 0}"#;
        assert_eq!(serde_json::from_str::<MctsConfig>(json).unwrap(), cfg);
        let written = serde_json::to_string(&cfg).unwrap();
        assert!(
            !written.contains("gumbel") && !written.contains("guard"),
            "{written}"
        );
        for (on, key) in [("gumbel = true", "`gumbel`"), ("guard = 0.25", "`guard`")] {
            let err = read(on).unwrap_err();
            assert!(
                err.contains(key) && err.contains("no longer exists"),
                "{err}"
            );
        }
        // Other keys are checked as before.
        assert!(
            read("sims = 9\nnoise = 1\n")
                .unwrap_err()
                .contains("unknown field")
        );
        assert!(read("sims = \"many\"").is_err());
    }
}
