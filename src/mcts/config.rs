//! The search settings of self-play, and how they are read: stored configs may still carry the
//! keys of options that no longer exist, which are accepted at their off values only.

use super::{MAX_SIMS, PlaySettings};
use crate::util::check::{check_above, check_range};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How self-play searches: what a player searches with at play ([`PlaySettings`]) and what
/// self-play adds to it for exploration and training targets. Read from and written as one flat
/// table (`[selfplay.mcts]` of a training config), whose every key has a default.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlaySearch {
    /// What a player searches with: PUCT, first-play urgency, the solver and implicit minimax.
    pub play: PlaySettings,
    /// Simulations per move (a full search).
    pub sims: u32,
    /// Dirichlet noise at the root: concentration (0 disables the noise).
    pub dirichlet_alpha: f32,
    /// Dirichlet noise at the root: weight of the noise in the priors.
    pub dirichlet_epsilon: f32,
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
    /// Forced playouts and policy target pruning (KataGo): at a root with Dirichlet noise (the
    /// full searches of self-play), a child with prior `p` gets at least `sqrt(k * p * N)` of
    /// the root's `N` visits, this `k` (KataGo: 2; 0 turns it off), so that the noise's picks are
    /// searched enough to be judged; the policy target then takes back the forced visits that
    /// PUCT alone would not have given ([`super::Tree::pruned_root_visits`]).
    pub forced_playouts: f32,
}

impl Default for SelfPlaySearch {
    fn default() -> Self {
        SelfPlaySearch {
            play: PlaySettings::default(),
            sims: 200,
            dirichlet_alpha: 0.3,
            dirichlet_epsilon: 0.25,
            temperature_plies: 12,
            temperature: 1.0,
            full_search_prob: 1.0,
            fast_sims: 50,
            reuse_tree: true,
            forced_playouts: 0.0,
        }
    }
}

impl SelfPlaySearch {
    /// Checks every number against its range, naming the keys under `prefix`
    /// (`selfplay.mcts`): simulations 1 to [`MAX_SIMS`], noise, temperature and forced playouts
    /// finite and not negative (NaN noise would hang the Gamma sampler), a full search's chance
    /// above 0 and at most 1.
    pub fn validate(&self, prefix: &str) -> anyhow::Result<()> {
        let key = |name: &str| format!("{prefix}.{name}");
        self.play.validate(prefix)?;
        check_range(&key("sims"), self.sims, 1..=MAX_SIMS)?;
        check_range(&key("fast_sims"), self.fast_sims, 1..=MAX_SIMS)?;
        check_range(&key("dirichlet_alpha"), self.dirichlet_alpha, 0.0..=100.0)?;
        check_range(&key("dirichlet_epsilon"), self.dirichlet_epsilon, 0.0..=1.0)?;
        check_range(
            &key("temperature_plies"),
            self.temperature_plies,
            0..=10_000,
        )?;
        check_range(&key("temperature"), self.temperature, 0.0..=10.0)?;
        check_above(
            &key("full_search_prob"),
            f64::from(self.full_search_prob),
            0.0,
            1.0,
        )?;
        check_range(&key("forced_playouts"), self.forced_playouts, 0.0..=100.0)
    }
}

/// The keys of [`SelfPlaySearch`] as a config holds them: one flat table, in this order.
#[derive(Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Keys {
    sims: u32,
    c_puct: f32,
    dirichlet_alpha: f32,
    dirichlet_epsilon: f32,
    fpu_reduction: f32,
    temperature_plies: u32,
    temperature: f32,
    full_search_prob: f32,
    fast_sims: u32,
    reuse_tree: bool,
    solver: bool,
    minimax_weight: f32,
    forced_playouts: f32,
}

impl Default for Keys {
    fn default() -> Self {
        Keys::from(&SelfPlaySearch::default())
    }
}

impl From<&SelfPlaySearch> for Keys {
    fn from(s: &SelfPlaySearch) -> Keys {
        Keys {
            sims: s.sims,
            c_puct: s.play.c_puct,
            dirichlet_alpha: s.dirichlet_alpha,
            dirichlet_epsilon: s.dirichlet_epsilon,
            fpu_reduction: s.play.fpu_reduction,
            temperature_plies: s.temperature_plies,
            temperature: s.temperature,
            full_search_prob: s.full_search_prob,
            fast_sims: s.fast_sims,
            reuse_tree: s.reuse_tree,
            solver: s.play.solver,
            minimax_weight: s.play.minimax_weight,
            forced_playouts: s.forced_playouts,
        }
    }
}

impl From<Keys> for SelfPlaySearch {
    fn from(k: Keys) -> SelfPlaySearch {
        SelfPlaySearch {
            play: PlaySettings {
                c_puct: k.c_puct,
                fpu_reduction: k.fpu_reduction,
                solver: k.solver,
                minimax_weight: k.minimax_weight,
            },
            sims: k.sims,
            dirichlet_alpha: k.dirichlet_alpha,
            dirichlet_epsilon: k.dirichlet_epsilon,
            temperature_plies: k.temperature_plies,
            temperature: k.temperature,
            full_search_prob: k.full_search_prob,
            fast_sims: k.fast_sims,
            reuse_tree: k.reuse_tree,
            forced_playouts: k.forced_playouts,
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

impl Serialize for SelfPlaySearch {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Keys::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for SelfPlaySearch {
    /// Reads the settings as the derived code would, after dropping the removed options' keys
    /// when they are off; a removed option that is on is refused with one line naming it.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut map = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        // A JSON value cannot hold NaN or an infinity, so such a number arrives as null (which
        // no config can write otherwise): name the key rather than report a null.
        if let Some((key, _)) = map.iter().find(|(_, v)| v.is_null()) {
            return Err(D::Error::custom(format!(
                "{key} must be a finite number, not NaN or infinite"
            )));
        }
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
        Keys::deserialize(serde_json::Value::Object(map))
            .map(SelfPlaySearch::from)
            .map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removed_options_are_read_at_their_off_values_and_refused_on() {
        let read = |text: &str| toml::from_str::<SelfPlaySearch>(text).map_err(|e| e.to_string());
        let old = "sims = 9\ngumbel = false\ngumbel_considered = 16\nguard = 0.0\n";
        let cfg = read(old).unwrap();
        assert_eq!(
            cfg,
            SelfPlaySearch {
                sims: 9,
                ..SelfPlaySearch::default()
            }
        );
        // The same from JSON; writing leaves the keys out.
        let json = r#"{"sims": 9, "gumbel": false, "gumbel_considered": 4, "guard": 0}"#;
        assert_eq!(serde_json::from_str::<SelfPlaySearch>(json).unwrap(), cfg);
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

    #[test]
    fn the_settings_read_and_write_as_one_flat_table_with_the_play_settings_inside() {
        let text = "sims = 9\nc_puct = 0.8\nfpu_reduction = 0.1\nsolver = true\n\
                    minimax_weight = 0.3\nforced_playouts = 2.0\nreuse_tree = false\n";
        let cfg: SelfPlaySearch = toml::from_str(text).unwrap();
        let play = PlaySettings {
            c_puct: 0.8,
            fpu_reduction: 0.1,
            solver: true,
            minimax_weight: 0.3,
        };
        assert_eq!(cfg.play, play);
        assert_eq!(
            (cfg.sims, cfg.forced_playouts, cfg.reuse_tree),
            (9, 2.0, false)
        );
        assert_eq!(
            cfg.dirichlet_alpha,
            SelfPlaySearch::default().dirichlet_alpha
        );
        // Written back flat, every key in the order configs have always listed them.
        let written = toml::to_string(&cfg).unwrap();
        let keys: Vec<&str> = written
            .lines()
            .filter_map(|l| l.split_once(" = ").map(|(k, _)| k))
            .collect();
        assert_eq!(
            keys,
            [
                "sims",
                "c_puct",
                "dirichlet_alpha",
                "dirichlet_epsilon",
                "fpu_reduction",
                "temperature_plies",
                "temperature",
                "full_search_prob",
                "fast_sims",
                "reuse_tree",
                "solver",
                "minimax_weight",
                "forced_playouts",
            ]
        );
        assert_eq!(toml::from_str::<SelfPlaySearch>(&written).unwrap(), cfg);
    }
}
