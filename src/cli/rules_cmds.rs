//! `bao moves`, `bao perft`, `bao show`, `bao random`: the rules engine from the command line.

use super::GameArgs;
use crate::notation::{Diagram, MoveSpec, Record, legal_strings, move_text};
use crate::rules::{MoveList, Outcome, Position, Rules, perft};
use anyhow::bail;
use serde_json::json;
use std::io::{BufRead, Write};

/// `bao moves`: reads games (whitespace-separated KIBA moves) from stdin, one per line, and
/// prints for each one JSON line `{"legal": [...], "result": ..., "error": ...}`.
#[derive(clap::Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub game: GameArgs,
}

/// The JSON form of an outcome.
fn outcome_json(o: Option<Outcome>) -> serde_json::Value {
    match o {
        None => serde_json::Value::Null,
        Some(o) => json!({
            "winner": o.winner.map(|s| s.to_string().to_lowercase()),
            "reason": o.reason.name(),
        }),
    }
}

/// Replays one line of moves; returns the JSON object and whether it had an error.
fn moves_line(rules: &Rules, start: &Position, line: &str) -> (serde_json::Value, bool) {
    let mut pos = *start;
    let mut list = MoveList::new();
    let mut legal = Vec::new();
    let mut error = serde_json::Value::Null;
    for (i, text) in line.split_whitespace().enumerate() {
        pos.legal_moves(rules, &mut list);
        legal.push(legal_strings(&list, pos.side_to_move()));
        let fail = |msg: String| json!({ "ply": i + 1, "move": text, "message": msg });
        match MoveSpec::parse(text, pos.side_to_move()).and_then(|s| s.resolve(text, &pos, &list)) {
            Ok(mv) => pos = *list.find(mv).expect("resolved from the list"),
            Err(e) => {
                error = fail(e.to_string());
                break;
            }
        }
    }
    let failed = !error.is_null();
    if !failed {
        pos.legal_moves(rules, &mut list);
        legal.push(legal_strings(&list, pos.side_to_move()));
    }
    let result = if failed {
        None
    } else {
        pos.outcome_given(&list)
    };
    (
        json!({ "legal": legal, "result": outcome_json(result), "error": error }),
        failed,
    )
}

/// Runs `bao moves`.
pub fn run_moves(args: MovesArgs) -> anyhow::Result<()> {
    let rules = args.game.game()?;
    let start = args.game.start(&rules)?;
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut errors = 0usize;
    for (i, line) in stdin.lock().split(b'\n').enumerate() {
        let line = String::from_utf8(line?)
            .map_err(|_| anyhow::anyhow!("line {} of the input is not UTF-8 text", i + 1))?;
        let (value, failed) = moves_line(&rules, &start, line.trim_end_matches('\r'));
        errors += failed as usize;
        writeln!(out, "{value}")?;
    }
    out.flush()?;
    if errors > 0 {
        bail!(
            "{errors} input line(s) had an illegal or unreadable move (see the \"error\" fields)"
        );
    }
    Ok(())
}

/// `bao perft`: the number of move sequences of exactly N plies.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Number of plies (at most 64: the count grows exponentially, and the search recurses
    /// once per ply).
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(0..=perft::MAX_DEPTH as i64))]
    pub depth: u32,
    /// Print the count below each first move.
    #[arg(long)]
    pub divide: bool,
}

/// Runs `bao perft`.
pub fn run_perft(args: PerftArgs) -> anyhow::Result<()> {
    let rules = args.game.game()?;
    let pos = args.game.start(&rules)?;
    let t = std::time::Instant::now();
    let total = if args.divide {
        let mut rows: Vec<(String, u64)> = perft::divide(&rules, &pos, args.depth)
            .into_iter()
            .map(|(mv, n)| (move_text(mv, pos.side_to_move()), n))
            .collect();
        rows.sort();
        for (mv, n) in &rows {
            println!("{mv} {n}");
        }
        rows.iter().map(|r| r.1).sum()
    } else {
        perft::perft(&rules, &pos, args.depth)
    };
    println!("perft {} = {total}", args.depth);
    eprintln!("({:.3} s)", t.elapsed().as_secs_f64());
    Ok(())
}

/// `bao show`: the board after some moves.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Print each step of the last move (lifts, sowings, captures, house decisions).
    #[arg(long)]
    pub trace: bool,
    /// Also write the board as an SVG picture to this file (the drawing of `bao serve`).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// Moves in KIBA notation from the start position.
    pub moves: Vec<String>,
}

/// Runs `bao show`.
pub fn run_show(args: ShowArgs) -> anyhow::Result<()> {
    let rules = args.game.game()?;
    let mut pos = args.game.start(&rules)?;
    let mut list = MoveList::new();
    let mut last_events = Vec::new();
    for (i, text) in args
        .moves
        .iter()
        .flat_map(|m| m.split_whitespace())
        .enumerate()
    {
        pos.legal_moves(&rules, &mut list);
        let spec = MoveSpec::parse(text, pos.side_to_move())
            .map_err(|e| anyhow::anyhow!("move {}: {e}", i + 1))?;
        let mv = spec
            .resolve(text, &pos, &list)
            .map_err(|e| anyhow::anyhow!("move {}: {e}", i + 1))?;
        let (next, events) = pos.play_traced(&rules, mv)?;
        last_events = events;
        pos = next;
    }
    println!(
        "{}",
        Diagram {
            pos: &pos,
            rules: &rules
        }
    );
    println!("position: {pos}");
    if let Some(path) = &args.svg {
        crate::util::fs::write_atomic(path, crate::board_svg::board_svg(&pos, &rules).as_bytes())?;
        println!("svg: {}", path.display());
    }
    pos.legal_moves(&rules, &mut list);
    if !list.is_empty() {
        println!(
            "legal: {}",
            legal_strings(&list, pos.side_to_move()).join(" ")
        );
    }
    if args.trace {
        for e in &last_events {
            println!("  {e}");
        }
    }
    Ok(())
}

/// `bao random`: random games with statistics (and optionally their records).
#[derive(clap::Args, Debug)]
pub struct RandomArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Number of games.
    #[arg(long, short = 'n', default_value_t = 1000)]
    pub games: u64,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write every game as a KIBA record to this file.
    #[arg(long)]
    pub records: Option<std::path::PathBuf>,
    /// Stop a game that has not ended after this many plies and count it as truncated (rule
    /// options can make games endless).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_plies: u64,
}

/// Runs `bao random`.
pub fn run_random(args: RandomArgs) -> anyhow::Result<()> {
    use rand::{RngExt, SeedableRng};
    let rules = args.game.game()?;
    let start = args.game.start(&rules)?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
    let mut list = MoveList::new();
    let (mut wins, mut plies, mut longest, mut truncated) = ([0u64; 3], 0u64, 0u64, 0u64);
    let mut records = String::new();
    let bar = indicatif::ProgressBar::new(args.games);
    for g in 0..args.games {
        let mut pos = start;
        let mut moves = Vec::new();
        let outcome = loop {
            pos.legal_moves(&rules, &mut list);
            if let Some(o) = pos.outcome_given(&list) {
                break Some(o);
            }
            if moves.len() as u64 >= args.max_plies {
                break None;
            }
            let i = rng.random_range(0..list.len());
            moves.push(list.moves()[i]);
            pos = list.children()[i];
        };
        match outcome {
            Some(o) => wins[o.winner.map_or(2, |s| s.index())] += 1,
            None => truncated += 1,
        }
        plies += moves.len() as u64;
        longest = longest.max(moves.len() as u64);
        if args.records.is_some() {
            let mut rec = Record::from_game(&rules, &start, &moves)?;
            rec.set_tag("Game", (g + 1).to_string());
            rec.set_tag("Variant", rules.to_string());
            let result = match outcome {
                Some(o) => outcome_json(Some(o)).to_string(),
                None => format!("truncated after {} plies", args.max_plies),
            };
            rec.set_tag("Result", result);
            records.push_str(&rec.to_string());
            records.push('\n');
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let n = args.games.max(1) as f64;
    println!(
        "{} random games of {}: South won {} ({:.1}%), North won {} ({:.1}%), void {}, truncated at {} plies {}; {:.1} plies a game on average, longest {}",
        args.games,
        args.game.variant,
        wins[0],
        100.0 * wins[0] as f64 / n,
        wins[1],
        100.0 * wins[1] as f64 / n,
        wins[2],
        args.max_plies,
        truncated,
        plies as f64 / n,
        longest
    );
    if let Some(path) = &args.records {
        crate::util::fs::write_atomic(path, records.as_bytes())?;
        println!("records written to {}", path.display());
    }
    Ok(())
}
