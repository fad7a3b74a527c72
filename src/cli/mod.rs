//! The `bao` command line: one file per group of subcommands, all thin over the library.

pub mod bench_cmd;
pub mod engine;
pub mod eval_cmds;
#[cfg(feature = "ml")]
pub mod exploit_cmd;
#[cfg(feature = "ml")]
pub mod export_cmd;
pub mod judge_cmd;
pub mod play_cmd;
pub mod plot_cmd;
pub mod rules_cmds;
#[cfg(feature = "ml")]
pub mod serve_cmd;
pub mod solve_cmd;
#[cfg(feature = "ml")]
pub mod train_cmd;

use crate::rules::{Game, GameError, Position, Rules, RulesError};
use anyhow::Context;

/// Options that pick a rule set and an optional starting position.
#[derive(clap::Args, Clone, Debug)]
pub struct GameArgs {
    /// Variant preset: kiswahili (default), kujifunza, malawi-basic, malawi-intermediate,
    /// malawi-advanced, kimasai, hus, katra-fandatsaka, or a ladder-* step.
    #[arg(long, short = 'v', default_value = "kiswahili")]
    pub variant: String,
    /// A TOML file of rule options overriding the preset (see docs/RULES.md).
    #[arg(long)]
    pub rules: Option<std::path::PathBuf>,
    /// Start from this position (one-line format) instead of the variant's start.
    #[arg(long)]
    pub position: Option<String>,
}

impl GameArgs {
    /// The game: `--variant` (a preset's name or a game's text), with the options of `--rules`
    /// applied.
    pub fn game(&self) -> anyhow::Result<Game> {
        let named: Game = self.variant.parse()?;
        let Some(path) = &self.rules else {
            return Ok(named);
        };
        let text =
            crate::util::fs::read_text_bounded(path, crate::util::fs::limits::TEXT, "rules file")?;
        named.with_overrides(&text).map_err(|e| match e {
            GameError::Rules(RulesError::Options(why)) => {
                anyhow::anyhow!("bad rules file {}: {why}", path.display())
            }
            e => anyhow::Error::msg(e).context("inconsistent rule options"),
        })
    }

    /// The starting position: `--position`, validated against the rules, or the start.
    pub fn start(&self, rules: &Rules) -> anyhow::Result<Position> {
        match &self.position {
            None => Ok(Position::start(rules)),
            Some(text) => Position::from_text(text, rules)
                .with_context(|| format!("--position for variant {}", self.variant)),
        }
    }
}
