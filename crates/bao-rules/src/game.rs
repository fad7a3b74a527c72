//! A game of the Bao family as one value: a checked rule set with the name it goes by, as
//! OpenSpiel's `Game` holds a name and parameters. Written as text, a game is its preset's name,
//! followed by each option that differs from that preset: `kiswahili`,
//! `kujifunza+takasia=valid-house-only`, `hus+max_sown=5000+house.kuu`... The text reads back
//! to the same game, so front ends can name a game in one word where it is a preset and
//! exactly where it is not.

use super::rule_set::Rules;
use super::rules_check::RulesError;
use super::variant::{UnknownVariant, Variant};
use std::fmt;
use std::str::FromStr;

/// A game: a rule set that passed [`Rules::validate`], and the preset it is written from (the
/// one its text named, else the one it differs least from, found when it is written). Two games
/// are equal when their rules are, whatever preset their text starts from.
#[derive(Clone, Debug)]
pub struct Game {
    base: Option<Variant>,
    rules: Rules,
}

/// Why a game's text or rule set is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The text names no preset.
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    /// An option is not written `key=value`.
    #[error("`{0}`: a game's options are written key=value, e.g. kujifunza+takasia=none")]
    Malformed(String),
    /// The options do not make a rule set, or the rule set is refused.
    #[error(transparent)]
    Rules(#[from] RulesError),
}

impl Game {
    /// The game of `rules`, checked once here; written from the preset it differs least from.
    pub fn new(rules: Rules) -> Result<Game, GameError> {
        rules.validate()?;
        Ok(Game { base: None, rules })
    }

    /// The preset the game's text starts from: the one it named, else the one it differs least
    /// from.
    pub fn preset(&self) -> Variant {
        self.base.unwrap_or_else(|| {
            let own = table(&self.rules);
            Variant::ALL
                .into_iter()
                .min_by_key(|v| differences(&table(&v.rules()), &own).len())
                .unwrap_or_default()
        })
    }

    /// The text of the game that `rules` make (a preset's name where they are one), or `custom`
    /// where they make none.
    pub fn describe(rules: &Rules) -> String {
        Game::new(rules.clone()).map_or_else(|_| "custom".into(), |g| g.to_string())
    }

    /// This game with options overridden by a TOML table (as a `--rules` file or a training
    /// config's `[rules]`), checked; its text starts from the same preset.
    pub fn with_overrides(&self, toml_text: &str) -> Result<Game, GameError> {
        let rules = super::overrides::overridden(&self.rules, toml_text)?;
        rules.validate()?;
        Ok(Game {
            base: self.base,
            rules,
        })
    }

    /// The rules of the game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The preset whose rules these are exactly, if any.
    pub fn variant(&self) -> Option<Variant> {
        Variant::of(&self.rules)
    }

    /// The preset's name, or `custom` for rules of no preset.
    pub fn name(&self) -> &'static str {
        self.variant().map_or("custom", Variant::name)
    }
}

/// A game reads as its rules, so that code of one game passes `&game` where rules are asked for.
impl std::ops::Deref for Game {
    type Target = Rules;
    fn deref(&self) -> &Rules {
        &self.rules
    }
}

impl From<Variant> for Game {
    fn from(variant: Variant) -> Game {
        Game {
            base: Some(variant),
            rules: variant.rules(),
        }
    }
}

impl Default for Game {
    fn default() -> Game {
        Variant::default().into()
    }
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.rules == other.rules
    }
}

impl Eq for Game {}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = self.preset();
        f.write_str(base.name())?;
        for (key, value) in differences(&table(&base.rules()), &table(&self.rules)) {
            match value {
                Some(v) => write!(f, "+{key}={}", Written(&v, true))?,
                None => write!(f, "+{key}=none")?,
            }
        }
        Ok(())
    }
}

impl FromStr for Game {
    type Err = GameError;
    fn from_str(text: &str) -> Result<Game, GameError> {
        let mut parts = split_top_level(text.trim());
        let base: Variant = parts.remove(0).parse()?;
        let mut options = table(&base.rules());
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .filter(|(k, v)| !k.trim().is_empty() && !v.trim().is_empty())
                .ok_or_else(|| GameError::Malformed(part.to_string()))?;
            set(&mut options, key.trim(), value.trim())?;
        }
        let rules: Rules = toml::Value::Table(options)
            .try_into()
            .map_err(|e: toml::de::Error| options_error(&e))?;
        rules.validate()?;
        Ok(Game {
            base: Some(base),
            rules,
        })
    }
}

/// A rule set as a TOML table: options by name, nested as `house.nyumba.tax`.
fn table(rules: &Rules) -> toml::Table {
    toml::Table::try_from(rules).expect("a rule set is a TOML table")
}

/// The options of `to` that differ from `from`, as dotted keys in order: `None` where `to` has
/// no value (an unset optional bound).
fn differences(from: &toml::Table, to: &toml::Table) -> Vec<(String, Option<toml::Value>)> {
    let mut out = Vec::new();
    let keys = from
        .keys()
        .chain(to.keys().filter(|k| !from.contains_key(*k)));
    let mut keys: Vec<&String> = keys.collect();
    keys.sort();
    for key in keys {
        match (from.get(key), to.get(key)) {
            (Some(toml::Value::Table(a)), Some(toml::Value::Table(b))) => {
                for (inner, v) in differences(a, b) {
                    out.push((format!("{key}.{inner}"), v));
                }
            }
            (a, b) if a != b => out.push((key.clone(), b.cloned())),
            _ => {}
        }
    }
    out
}

/// Sets the option at a dotted key from its written value: a bare word is a string, `none`
/// clears an optional bound, anything else is read as a TOML value.
fn set(options: &mut toml::Table, key: &str, value: &str) -> Result<(), GameError> {
    let (parents, last) = key.rsplit_once('.').map_or(("", key), |(p, l)| (p, l));
    let mut node = options;
    for part in parents.split('.').filter(|p| !p.is_empty()) {
        let entry = node
            .entry(part.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if !entry.is_table() {
            *entry = toml::Value::Table(toml::Table::new());
        }
        node = entry.as_table_mut().expect("made a table above");
    }
    let is_bound = node.get(last).is_none_or(|v| v.is_integer());
    if value == "none" && is_bound {
        node.remove(last);
        return Ok(());
    }
    let parsed = match toml::from_str::<toml::Table>(&format!("v = {value}")) {
        Ok(mut t) => t.remove("v").expect("the key written above"),
        Err(_) if is_bare(value) => toml::Value::String(value.to_string()),
        Err(e) => {
            return Err(GameError::Malformed(format!(
                "{key}={value}: {}",
                one_line(&e)
            )));
        }
    };
    node.insert(last.to_string(), parsed);
    Ok(())
}

/// The text split at each `+` outside brackets, braces and quotes.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut quoted, mut start) = (Vec::new(), 0i32, false, 0);
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '[' | '{' if !quoted => depth += 1,
            ']' | '}' if !quoted => depth -= 1,
            '+' if !quoted && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Whether a string option can be written without quotes.
fn is_bare(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn one_line(e: &dyn fmt::Display) -> String {
    e.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn options_error(e: &dyn fmt::Display) -> GameError {
    GameError::Rules(RulesError::Options(one_line(e)))
}

/// A TOML value as a game's text writes it: compact, a string bare at the top level.
struct Written<'a>(&'a toml::Value, bool);

impl fmt::Display for Written<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            toml::Value::String(s) if self.1 && is_bare(s) => f.write_str(s),
            toml::Value::Array(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    write!(f, "{}{}", if i > 0 { "," } else { "" }, Written(v, false))?;
                }
                f.write_str("]")
            }
            toml::Value::Table(t) => {
                f.write_str("{")?;
                for (i, (k, v)) in t.iter().enumerate() {
                    write!(
                        f,
                        "{}{k}={}",
                        if i > 0 { "," } else { "" },
                        Written(v, false)
                    )?;
                }
                f.write_str("}")
            }
            other => write!(f, "{other}"),
        }
    }
}
