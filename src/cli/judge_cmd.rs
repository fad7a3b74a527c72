//! `bao judge`: players measured against perfect play. The positions of some game records are
//! proven by the exact solver (each position and every move of it); then each player chooses a
//! move in every position where the choice matters, and optionally plays won positions out
//! against the perfect defender (see `crate::eval::perfect`).

use super::GameArgs;
use super::eval_cmds::LimitArgs;
use super::solve_cmd::CacheArgs;
use crate::eval::arena::progress_bar;
use crate::eval::perfect::{Keeping, Proven, Share, converting, keeping, prove};
use crate::notation::{Record, split_records};
use crate::players::SolverSpec;
use crate::players::spec::DEFAULT_MEMORY_MB;
use crate::players::{Limits, PlayerRegistry};
use crate::rules::{Game, Position, Rules};
use crate::search::solver::{SolveLimits, Solver, SolverPlayer, Value};
use anyhow::bail;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::Serialize;
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

/// `bao judge`: see the module docs.
#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// KIBA records whose positions are judged (`bao eval --records`, `bao play --record`).
    #[arg(long)]
    pub records: PathBuf,
    /// A player to judge, as a spec (`player:shipped`, `ab`, `random`...); repeat for several.
    #[arg(long = "player", required = true)]
    pub players: Vec<String>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Plies skipped at the start of each game (the random opening of a match).
    #[arg(long, default_value_t = 4)]
    pub skip_plies: usize,
    /// Only positions at most this many plies before their game's end (0: any): the ones the
    /// solver can prove in a game too large to solve from the start.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub last_plies: usize,
    /// Judge at most this many distinct positions, drawn at random from the games (0: all).
    #[arg(long, default_value_t = 0)]
    pub positions: usize,
    /// Seconds the solver may take to prove a position, and again for its moves.
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    pub solve_time: f64,
    /// The solver's table size in MiB (one table a proving thread).
    #[arg(long, value_name = "MB", default_value_t = 1024)]
    pub memory: usize,
    /// Positions proven at once, each on its own thread with its own table.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Won positions each player plays out against the perfect defender (0: none).
    #[arg(long, default_value_t = 0)]
    pub convert: usize,
    /// A played-out game reaching this many plies counts as not converted (at least 1).
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Seed of the sampling and the players.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}

/// One player's figures.
#[derive(Serialize)]
struct PlayerReport {
    player: String,
    #[serde(flatten)]
    keeping: Keeping,
    converted: Option<Share>,
}

/// Everything `bao judge` found.
#[derive(Serialize)]
struct Report {
    variant: String,
    positions: usize,
    /// `--last-plies`: how near their game's end the positions were taken (0: anywhere).
    last_plies: usize,
    proven: usize,
    critical_won: usize,
    critical_drawn: usize,
    solve_seconds: f64,
    players: Vec<PlayerReport>,
}

/// Runs `bao judge`.
pub fn run_judge(args: JudgeArgs, registry: &PlayerRegistry) -> anyhow::Result<()> {
    check_args(&args)?;
    let limits = args.limits.limits()?;
    let rules = args.game.game()?;
    // Every player is built before the long proving, so a bad spec, or a player of another
    // game, fails at once.
    let mut players = Vec::new();
    for text in &args.players {
        players.push(registry.resolve(text, &rules, args.seed)?);
    }
    let built: Vec<&dyn crate::players::Player> = players.iter().map(|(_, p)| p.as_ref()).collect();
    crate::players::check_players(&rules, &built)?;
    let positions = sample(&args, &rules)?;
    let proven = prove_all(&args, &rules, &positions)?;
    let critical = |v: Value| {
        proven
            .iter()
            .filter(|p| p.is_critical() && p.value == v)
            .count()
    };
    let mut report = Report {
        variant: rules.to_string(),
        positions: positions.len(),
        last_plies: args.last_plies,
        proven: proven.len(),
        critical_won: critical(Value::Win),
        critical_drawn: critical(Value::Draw),
        solve_seconds: args.solve_time,
        players: Vec::new(),
    };
    let won = won_positions(&args, &proven);
    let mut defender = SolverPlayer::new(
        SolverSpec {
            time: Some(Duration::from_secs_f64(args.solve_time)),
            memory_mb: DEFAULT_MEMORY_MB.max(args.memory),
            fallback: None,
        },
        "solver".into(),
        &rules,
        None,
    )?;
    for (spec, mut player) in players {
        let bar = progress_bar(
            (report.critical_won + report.critical_drawn) as u64,
            !args.quiet,
        );
        bar.set_message(format!("{spec}: critical positions"));
        let kept = keeping(&proven, player.as_mut(), &limits, || bar.inc(1))?;
        bar.finish_and_clear();
        let converted = if won.is_empty() {
            None
        } else {
            let bar = progress_bar(won.len() as u64, !args.quiet);
            bar.set_message(format!("{spec}: won positions played out"));
            let c = converting(
                &rules,
                &won,
                player.as_mut(),
                &mut defender,
                &limits,
                args.max_plies,
                || bar.inc(1),
            )?;
            bar.finish_and_clear();
            Some(c)
        };
        report.players.push(PlayerReport {
            player: spec.to_string(),
            keeping: kept,
            converted,
        });
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print(&report, &limits);
    }
    Ok(())
}

/// Refuses options out of range before any work, in one line each.
fn check_args(args: &JudgeArgs) -> anyhow::Result<()> {
    if !(args.solve_time.is_finite() && args.solve_time > 0.0 && args.solve_time <= 86_400.0) {
        bail!("--solve-time must be a positive number of seconds, at most a day");
    }
    if !(1..=1 << 20).contains(&args.memory) {
        bail!("--memory must be 1..=1048576 (MiB)");
    }
    if args.max_plies == 0 {
        bail!("--max-plies must be at least 1 (a played-out game needs a move)");
    }
    Ok(())
}

/// Whether a record's `Variant` tag names `game`: its text, or the preset it starts from (what
/// records of a game with rule options named before they named the whole game).
fn names(tag: &str, game: &Game) -> bool {
    tag.parse::<Game>().is_ok_and(|g| g == *game) || tag == game.preset().name()
}

/// The distinct unfinished positions of the records after the skipped plies, at most
/// `--positions` of them drawn at random.
fn sample(args: &JudgeArgs, rules: &Game) -> anyhow::Result<Vec<Position>> {
    let text = crate::util::fs::read_text_bounded(
        &args.records,
        crate::util::fs::limits::TEXT,
        "records",
    )?;
    let start = args.game.start(rules)?;
    let mut seen = HashSet::new();
    let mut positions = Vec::new();
    for (i, body) in split_records(&text).iter().enumerate() {
        let at = || format!("record {} of {}", i + 1, args.records.display());
        // The rules' errors show their cause in their own text: it is kept out of the error's
        // chain, so that the one line says it once.
        let record = body
            .parse::<Record>()
            .map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
        if let Some(v) = record.tag("Variant").filter(|v| !names(v, rules)) {
            bail!("{} is a game of {v}, not {rules}", at());
        }
        let (_, line) =
            (record.replay(rules, &start)).map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
        let near_end = match args.last_plies {
            0 => 0,
            n => line.len().saturating_sub(n + 1),
        };
        for pos in line.into_iter().skip(args.skip_plies.max(near_end)) {
            if pos.outcome(rules).is_none() && seen.insert(crate::search::zobrist::hash(&pos)) {
                positions.push(pos);
            }
        }
    }
    if positions.is_empty() {
        bail!(
            "{} holds no unfinished position after {} plies{}",
            args.records.display(),
            args.skip_plies,
            near_end(args.last_plies)
        );
    }
    if args.positions > 0 && positions.len() > args.positions {
        positions.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(args.seed));
        positions.truncate(args.positions);
    }
    Ok(positions)
}

/// Every sampled position the solver proves in time, with its moves, in the order sampled. Each
/// of `--threads` threads has its own solver and takes the next position left.
fn prove_all(
    args: &JudgeArgs,
    rules: &Rules,
    positions: &[Position],
) -> anyhow::Result<Vec<Proven>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let time = Duration::from_secs_f64(args.solve_time);
    let bar = progress_bar(positions.len() as u64, !args.quiet);
    bar.set_message("proving positions");
    let next = AtomicUsize::new(0);
    let work = || -> anyhow::Result<Vec<(usize, Proven)>> {
        let mut solver = Solver::new(SolveLimits {
            memory: args.memory << 20,
            ..SolveLimits::default()
        })?;
        let mut found = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(pos) = positions.get(i) else {
                return Ok(found);
            };
            found.extend(prove(rules, pos, &mut solver, time, args.cache.dir())?.map(|p| (i, p)));
            bar.inc(1);
        }
    };
    let mut found: Vec<(usize, Proven)> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..args.threads).map(|_| scope.spawn(work)).collect();
        (threads.into_iter())
            .map(|t| t.join().expect("a proving thread panicked"))
            .collect::<anyhow::Result<Vec<_>>>()
    })?
    .into_iter()
    .flatten()
    .collect();
    bar.finish_and_clear();
    found.sort_by_key(|(i, _)| *i);
    Ok(found.into_iter().map(|(_, p)| p).collect())
}

/// Up to `--convert` won positions, drawn at random.
fn won_positions(args: &JudgeArgs, proven: &[Proven]) -> Vec<Position> {
    let mut won: Vec<Position> = (proven.iter())
        .filter(|p| p.value == Value::Win)
        .map(|p| p.pos)
        .collect();
    let seed = crate::util::hash::splitmix64(args.seed);
    won.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    won.truncate(args.convert);
    won
}

/// ` within N plies of the end` for `--last-plies N`, nothing for 0.
fn near_end(last_plies: usize) -> String {
    match last_plies {
        0 => String::new(),
        n => format!(" within {n} plies of the end"),
    }
}

fn print(report: &Report, limits: &Limits) {
    println!(
        "{}: {} positions{}, {} proven in {} s each ({} not proven); the choice matters in {} won and {} drawn",
        report.variant,
        report.positions,
        near_end(report.last_plies),
        report.proven,
        report.solve_seconds,
        report.positions - report.proven,
        report.critical_won,
        report.critical_drawn,
    );
    let at = match limits.time {
        Some(t) => format!(" at {} s a move", t.as_secs_f64()),
        None => String::new(),
    };
    for p in &report.players {
        println!("{}{at}:", p.player);
        println!("  won positions kept:   {}", p.keeping.won);
        println!("  drawn positions kept: {}", p.keeping.drawn);
        if let Some(c) = &p.converted {
            println!("  won positions converted against the solver: {c}");
        }
        println!("  median time a move: {:.3} s", p.keeping.median_seconds);
    }
}
