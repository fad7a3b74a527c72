//! Command-line entry points: `bao eval` (a match), `bao pool` (matches pooled and compared pair
//! by pair) and `bao gauntlet` (an Elo table). Each is an `Args` struct and a `run_*` function.

use super::GameArgs;
use crate::eval::KeptPlayers;
use crate::eval::arena::MatchConfig;
use crate::eval::gauntlet::{GauntletConfig, Pairing, run_gauntlet};
use crate::eval::pool::{MatchFile, PairedMatch, Pooled, compare, pool};
use crate::eval::sprt::SprtConfig;
use crate::players::{Limits, PlayerRegistry, PlayerSpec};
use anyhow::{Context, anyhow, bail};
use std::path::PathBuf;
use std::time::Duration;

/// Limits per move shared by every player that searches; where a spec has its own limits too,
/// the tighter one applies (so `ab` follows these, `ab:depth=3` stays at depth 3 or less).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LimitArgs {
    /// Search depth per move, for every player that searches.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Nodes per move, for every player that searches.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Seconds per move, for every player that searches.
    #[arg(long)]
    pub move_time: Option<f64>,
}

/// The longest time per move a command takes: a day.
const MAX_MOVE_SECONDS: f64 = 86_400.0;

impl LimitArgs {
    /// The limits.
    pub fn limits(&self) -> anyhow::Result<Limits> {
        let time = match self.move_time {
            None => None,
            Some(t) if t > 0.0 && t <= MAX_MOVE_SECONDS => Duration::try_from_secs_f64(t).ok(),
            Some(t) => bail!(
                "--move-time must be a number of seconds above 0 and at most {MAX_MOVE_SECONDS} (a day), not {t}"
            ),
        };
        if self.depth == Some(0) || self.nodes == Some(0) {
            bail!("--depth and --nodes must be at least 1");
        }
        Ok(Limits {
            depth: self.depth,
            nodes: self.nodes,
            time,
        })
    }
}

pub(super) fn spec(text: &str) -> anyhow::Result<PlayerSpec> {
    Ok(text.parse::<PlayerSpec>()?)
}

/// A player argument of a match or a gauntlet: `SPEC`, or `LABEL=SPEC` to name the player
/// `LABEL` in tables and JSON. A spec's kind holds no `=`, and a spec's options (which may) come
/// after a `:`, so text with an `=` before any `:` is a label.
pub fn labeled_spec(text: &str) -> anyhow::Result<(Option<String>, PlayerSpec)> {
    let Some((label, rest)) = text.split_once('=').filter(|(l, _)| !l.contains(':')) else {
        return Ok((None, spec(text)?));
    };
    let label = label.trim();
    let fits = |c: char| c.is_ascii_alphanumeric() || "_.-".contains(c);
    if label.is_empty() || !label.chars().all(fits) {
        bail!(
            "`{label}` in `{text}` is not a label: a label (LABEL=SPEC) is letters, digits, `_`, \
             `.` and `-`"
        );
    }
    Ok((Some(label.to_string()), spec(rest)?))
}

/// The game of a match: like [`GameArgs`], but without `--variant` (and `--rules`) the game is
/// the one the players' files were trained for (Bao la Kiswahili when no player brings one).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct MatchGameArgs {
    /// Variant preset (default: the game of the player files, else kiswahili): kiswahili,
    /// kujifunza, malawi-basic, malawi-intermediate, malawi-advanced, kimasai, hus,
    /// katra-fandatsaka, or a ladder-* step.
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// A TOML file of rule options overriding the preset (see docs/RULES.md).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Start from this position (one-line format) instead of the variant's start.
    #[arg(long)]
    pub position: Option<String>,
}

/// The rules, variant name and start of a match between `specs`: the game named on the command
/// line, else the one the players' files bring. Players bound to different games, or to another
/// game than the one named, are refused before any game is played. The players built to learn
/// their games are left in `kept`, for the match to play with.
fn match_game(
    game: &MatchGameArgs,
    specs: &[&PlayerSpec],
    players: &PlayerRegistry,
    kept: &KeptPlayers,
) -> anyhow::Result<(crate::rules::Game, String, crate::rules::Position)> {
    let named = game.variant.is_some() || game.rules.is_some();
    let args = GameArgs {
        variant: game.variant.clone().unwrap_or_else(|| "kiswahili".into()),
        rules: game.rules.clone(),
        position: game.position.clone(),
    };
    let asked = args.game()?;
    let built = (specs.iter())
        .map(|s| kept.take(players, s, &asked, 0))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // Players bound to no game were built for `asked`; those bound to one say which it is.
    let own: Vec<&dyn crate::players::Player> = (built.iter())
        .map(|p| p.as_ref())
        .filter(|p| p.is_bound())
        .collect();
    let game = match own.first() {
        Some(p) if !named => p.game().clone(),
        _ => asked.clone(),
    };
    crate::players::check_players(&game, &own)?;
    // Kept for the match, which takes them again: an engine starts once.
    for (s, p) in specs.iter().zip(built) {
        kept.keep(s, &asked, p);
    }
    let variant = game.to_string();
    let start = args.start(&game)?;
    Ok((game, variant, start))
}

/// `bao eval`: a match between two players.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// The variant (default: the game of the player files), an optional rules file and start.
    #[command(flatten)]
    pub game: MatchGameArgs,
    /// Player A (results are A's): random, greedy, ab, ab:depth=N, ab:nodes=N, ab:time=500ms...;
    /// LABEL=SPEC names it LABEL in the result.
    #[arg(long)]
    pub a: String,
    /// Player B (LABEL=SPEC as for --a).
    #[arg(long)]
    pub b: String,
    /// Games (in pairs with a shared opening, each player South once).
    #[arg(long, short = 'n', default_value_t = 100)]
    pub games: usize,
    /// Seed of the openings and the players.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Random plies at the start of each pair's opening.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Ply cap (opening included); a game reaching it is a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Stop early by an SPRT: elo0,elo1,alpha,beta (e.g. 0,20,0.05,0.05).
    #[arg(long)]
    pub sprt: Option<String>,
    /// With --sprt, test after every batch of this many game pairs.
    #[arg(long, default_value_t = 8)]
    pub batch_pairs: usize,
    /// Limits per move, records and output.
    #[command(flatten)]
    pub run: MatchRunArgs,
}

/// What every match command takes beside its players: limits per move, records, output.
#[derive(clap::Args, Debug)]
pub struct MatchRunArgs {
    /// Limits per move for every player.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Write every game as a KIBA record to this file.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Print the result as JSON (without the records).
    #[arg(long)]
    pub json: bool,
    /// No progress bars.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl MatchRunArgs {
    /// Refuses a --records path that could not be written, before the match is played.
    fn check_records(&self) -> anyhow::Result<()> {
        match &self.records {
            Some(path) => crate::util::fs::check_output_path(path)
                .with_context(|| format!("cannot write records to {}", path.display())),
            None => Ok(()),
        }
    }

    /// Writes the KIBA records `text` to the --records file, if one is named.
    fn write_records(&self, text: &str) -> anyhow::Result<()> {
        if let Some(path) = &self.records {
            crate::util::fs::write_atomic(path, text.as_bytes())
                .with_context(|| format!("cannot write records to {}", path.display()))?;
        }
        Ok(())
    }
}

/// Runs `bao eval`.
pub fn run_eval(args: EvalArgs, players: &PlayerRegistry) -> anyhow::Result<()> {
    let ((label_a, a), (label_b, b)) = (labeled_spec(&args.a)?, labeled_spec(&args.b)?);
    let kept = KeptPlayers::new();
    let (game, variant, start) = match_game(&args.game, &[&a, &b], players, &kept)?;
    let sprt = match &args.sprt {
        None => None,
        Some(s) => Some(s.parse::<SprtConfig>().map_err(|e| anyhow!(e))?),
    };
    args.run.check_records()?;
    let cfg = MatchConfig {
        a,
        b,
        game,
        variant,
        start: Some(start),
        games: args.games,
        seed: args.seed,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies,
        limits: args.run.limits.limits()?,
        sprt,
        batch_pairs: args.batch_pairs,
        progress: !args.run.quiet,
        players: players.clone(),
        kept,
    };
    let mut result = crate::eval::arena::run_match(&cfg)?;
    let a = label_a.unwrap_or_else(|| result.a.clone());
    let b = label_b.unwrap_or_else(|| result.b.clone());
    result.relabel(&a, &b);
    let records = result.records();
    // The result is printed first, so that a failed write loses no more than the records.
    if args.run.json {
        println!("{}", serde_json::to_string_pretty(&result.to_json())?);
    } else {
        println!("{}", result.summary());
    }
    args.run.write_records(&records)?;
    if let (Some(path), false) = (&args.run.records, args.run.json) {
        println!("records written to {}", path.display());
    }
    Ok(())
}

/// `bao pool`: one player's matches (`bao eval --json` files) pooled pair by pair, and compared
/// pair by pair with another player's matches on the same openings.
#[derive(clap::Args, Debug)]
pub struct PoolArgs {
    /// One player's match files (`bao eval --json`), pooled.
    #[arg(required = true)]
    pub matches: Vec<PathBuf>,
    /// Another player's match files against the same opponent with the same seeds and number of
    /// games, in the same order: the two are compared pair by pair.
    #[arg(long, num_args = 1..)]
    pub against: Vec<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

fn read_match_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PairedMatch>> {
    paths
        .iter()
        .map(|path| {
            let text = crate::util::fs::read_text_bounded(
                path,
                crate::util::fs::limits::TEXT,
                "match file",
            )?;
            let file: MatchFile = serde_json::from_str(&text).map_err(|e| {
                anyhow!(
                    "{} is not a match file of `bao eval --json`: {e}",
                    path.display()
                )
            })?;
            file.paired()
                .map_err(|e| anyhow!("{}: {e}", path.display()))
        })
        .collect()
}

/// Runs `bao pool`.
pub fn run_pool(args: PoolArgs) -> anyhow::Result<()> {
    let new = read_match_files(&args.matches)?;
    let old = read_match_files(&args.against)?;
    let pooled_new = pool(&new)?;
    let (pooled_old, difference) = if old.is_empty() {
        (None, None)
    } else {
        (Some(pool(&old)?), Some(compare(&new, &old)?))
    };
    if args.json {
        let result = serde_json::json!({
            "player": new[0].file.a,
            "pooled": pooled_new,
            "against": old.first().map(|m| &m.file.a),
            "against_pooled": pooled_old,
            "difference": difference,
        });
        println!("{}", serde_json::to_string_pretty(&result)?);
        return Ok(());
    }
    let line = |name: &str, p: &Pooled| {
        let e = &p.estimate;
        let repeated = match p.repeated_pairs {
            0 => String::new(),
            n => format!(" ({n} pairs repeat an earlier one move for move: counted once)"),
        };
        format!(
            "{name}: {:.1}% [{:.1}, {:.1}] over {} games, Elo {}{repeated}",
            100.0 * e.score,
            100.0 * e.score_low,
            100.0 * e.score_high,
            p.games,
            e.elo_text()
        )
    };
    println!("{}", line(&new[0].file.a, &pooled_new));
    if let (Some(p), Some(d)) = (&pooled_old, &difference) {
        println!("{}", line(&old[0].file.a, p));
        println!("difference: {d}");
    }
    Ok(())
}

/// `bao gauntlet`: several players on one Elo scale.
#[derive(clap::Args, Debug)]
pub struct GauntletArgs {
    /// The variant, an optional rules file and start position.
    #[command(flatten)]
    pub game: GameArgs,
    /// The players (several values, or the option repeated): random greedy ab:depth=2 ...;
    /// LABEL=SPEC names a player LABEL in the tables and JSON (fast=ab:depth=2).
    #[arg(long = "player", num_args = 1.., required = true)]
    pub players: Vec<String>,
    /// The player at Elo 0, by spec or label (default: random if it plays, else the first player). With
    /// --vs-anchors, every other player plays each anchor; repeat for several anchors.
    #[arg(long = "anchor")]
    pub anchors: Vec<String>,
    /// Play only against the anchors instead of a round robin.
    #[arg(long)]
    pub vs_anchors: bool,
    /// Games per pair of players.
    #[arg(long, short = 'n', default_value_t = 100)]
    pub games: usize,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Random plies at the start of each game pair.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Ply cap (a draw).
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Virtual draws added to each pair that played (keeps perfect scores finite).
    #[arg(long, default_value_t = 1.0)]
    pub prior: f64,
    /// Limits per move, records and output.
    #[command(flatten)]
    pub run: MatchRunArgs,
}

/// Runs `bao gauntlet`.
pub fn run_gauntlet_cmd(args: GauntletArgs, registry: &PlayerRegistry) -> anyhow::Result<()> {
    let game = args.game.game()?;
    let start = args.game.start(&game)?;
    args.run.check_records()?;
    let (labels, players): (Vec<Option<String>>, Vec<PlayerSpec>) = args
        .players
        .iter()
        .map(|s| labeled_spec(s))
        .collect::<anyhow::Result<Vec<_>>>()?
        .into_iter()
        .unzip();
    let (anchor, pairing) = gauntlet_pairing(&args, &players, &labels)?;
    if !(args.prior >= 0.0 && args.prior.is_finite()) {
        bail!("--prior must be a non-negative number");
    }
    let cfg = GauntletConfig {
        players,
        anchor,
        pairing,
        variant: game.to_string(),
        game,
        start: Some(start),
        games_per_pair: args.games,
        seed: args.seed,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies,
        limits: args.run.limits.limits()?,
        prior_draws: args.prior,
        progress: !args.run.quiet,
        registry: registry.clone(),
        labels,
    };
    let mut result = run_gauntlet(&cfg)?;
    let records: Vec<String> = result.matches.iter().map(|m| m.records()).collect();
    if args.run.json {
        for m in &mut result.matches {
            m.game_list.clear();
        }
        println!("{}", serde_json::to_string_pretty(&result)?);
    } else {
        print_gauntlet(&result);
    }
    args.run.write_records(&records.join("\n"))
}

/// The rating anchor (the first --anchor, else `random` if it plays, else the first player) and
/// who meets whom, from the --anchor and --vs-anchors arguments.
fn gauntlet_pairing(
    args: &GauntletArgs,
    players: &[PlayerSpec],
    labels: &[Option<String>],
) -> anyhow::Result<(usize, Pairing)> {
    let find = |text: &str| -> anyhow::Result<usize> {
        let not_one = || anyhow!("anchor `{text}` is not one of the --player values");
        if let Some(p) = labels
            .iter()
            .position(|l| l.as_deref() == Some(text.trim()))
        {
            return Ok(p);
        }
        let (_, s) = labeled_spec(text).map_err(|_| not_one())?;
        players.iter().position(|p| *p == s).ok_or_else(not_one)
    };
    let anchors: Vec<usize> = args
        .anchors
        .iter()
        .map(|a| find(a))
        .collect::<anyhow::Result<_>>()?;
    let anchor = match anchors.first() {
        Some(&a) => a,
        None => players
            .iter()
            .position(|p| *p == PlayerSpec::Random)
            .unwrap_or(0),
    };
    let pairing = if args.vs_anchors {
        Pairing::VsAnchors(if anchors.is_empty() {
            vec![anchor]
        } else {
            anchors
        })
    } else {
        Pairing::RoundRobin
    };
    Ok((anchor, pairing))
}

/// Prints one line per match and the rating table.
fn print_gauntlet(result: &crate::eval::gauntlet::GauntletResult) {
    let width = (result.matches.iter())
        .map(|m| m.a.len().max(m.b.len()))
        .max()
        .unwrap_or(0);
    for m in &result.matches {
        let e = &m.estimate;
        println!(
            "{:>width$} vs {:<width$} +{:<3} ={:<3} -{:<3} {:5.1}%  Elo {}",
            m.a,
            m.b,
            m.wins,
            m.draws,
            m.losses,
            100.0 * e.score,
            e.elo_text()
        );
        if let Some(w) = m.warning() {
            println!("  {w}");
        }
    }
    println!();
    print!("{}", result.table());
}
