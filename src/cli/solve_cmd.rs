//! `bao solve`: the exact value of a position (the start, `--position`, after `--moves`), with
//! a best move, its line and the search's figures; results are cached on disk.

use super::GameArgs;
use crate::notation::{line_text, move_text, parse_and_play};
use crate::rules::{Position, Rules, Side};
use crate::search::solver::{MoveValue, Solution, SolveLimits, Solver, Value, cache};
use anyhow::bail;
use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;

/// `bao solve`: see the module docs.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Moves in KIBA notation played before solving (from the start or `--position`); one
    /// argument each, or several in one quoted argument.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Give up after this many seconds.
    #[arg(long, value_name = "S", default_value_t = 600.0)]
    pub time_limit: f64,
    /// The transposition table's size in MiB, rounded down to a power of two (the search's
    /// memory; it never grows past it).
    #[arg(long, value_name = "MB", default_value_t = 1024)]
    pub memory: usize,
    /// Also solve every legal move of the position (its winning, drawing and losing moves).
    #[arg(long)]
    pub all_moves: bool,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Where solved positions are kept (`bao solve`, `bao judge`).
#[derive(clap::Args, Debug)]
pub struct CacheArgs {
    /// The cache folder of solved positions.
    #[arg(long, value_name = "DIR", default_value = cache::DEFAULT_DIR)]
    pub cache: PathBuf,
    /// Neither read nor write the cache.
    #[arg(long)]
    pub no_cache: bool,
}

impl CacheArgs {
    /// The cache folder, unless `--no-cache`.
    pub fn dir(&self) -> Option<&std::path::Path> {
        (!self.no_cache).then_some(self.cache.as_path())
    }
}

/// The position to solve: the start or `--position`, then `--moves`.
fn position(args: &SolveArgs, rules: &Rules) -> anyhow::Result<Position> {
    let mut pos = args.game.start(rules)?;
    let texts = args.moves.iter().flat_map(|m| m.split_whitespace());
    for (i, text) in texts.enumerate() {
        let (_, next) = parse_and_play(rules, &pos, text)
            .map_err(|e| anyhow::anyhow!("move {}: {e}", i + 1))?;
        pos = next;
    }
    Ok(pos)
}

/// Runs `bao solve`.
pub fn run_solve(args: SolveArgs) -> anyhow::Result<()> {
    if !(args.time_limit.is_finite() && args.time_limit > 0.0 && args.time_limit < 1e7) {
        bail!("--time-limit must be a positive number of seconds");
    }
    if !(1..=1 << 20).contains(&args.memory) {
        bail!("--memory must be 1..=1048576 (MiB)");
    }
    let rules = args.game.game()?;
    let pos = position(&args, &rules)?;
    let cached = match args.cache.dir().map(|dir| cache::load(dir, &rules, &pos)) {
        None => None,
        Some(Ok(c)) => c.filter(|c| c.moves.is_some() || !args.all_moves),
        Some(Err(e)) => {
            eprintln!("warning: {e:#}; solving again");
            None
        }
    };
    let (solution, moves, from_cache) = match cached {
        Some(c) => (c.solution, c.moves, true),
        None => {
            let (s, m) = solve(&args, &rules, &pos)?;
            // The answer is proven: a cache that cannot take it is a warning, not a failure.
            if let Some(dir) = args.cache.dir()
                && let Err(e) = cache::store(dir, &rules, &pos, &s, m.as_deref())
            {
                eprintln!("warning: cannot write the solver cache: {e:#}");
            }
            (s, m, false)
        }
    };
    let report = Report {
        rules: &rules,
        pos: &pos,
        variant: &args.game.variant,
        solution: &solution,
        moves: moves.as_deref(),
        from_cache,
    };
    if args.json {
        println!("{}", report.json());
    } else {
        report.print();
    }
    Ok(())
}

/// Solves `pos` (and its moves with `--all-moves`) within the command's limits.
fn solve(
    args: &SolveArgs,
    rules: &Rules,
    pos: &Position,
) -> anyhow::Result<(Solution, Option<Vec<MoveValue>>)> {
    let limits = SolveLimits {
        time: Some(Duration::from_secs_f64(args.time_limit)),
        nodes: None,
        memory: args.memory << 20,
    };
    let started = std::time::Instant::now();
    let mut solver = Solver::new(limits)?.with_progress(true);
    let mut solution = solver.solve(rules, pos).map_err(anyhow::Error::msg)?;
    let moves = if args.all_moves && pos.result().is_none() {
        // The moves get what is left of the time limit.
        let left = limits.time.map(|t| t.saturating_sub(started.elapsed()));
        solver.set_limits(left.map(|t| t.max(Duration::from_millis(1))), None);
        match solver.move_values(rules, pos) {
            Ok((values, nodes)) => {
                // The figures of the whole command: the position and then each of its moves.
                solution.nodes += nodes;
                solution.seconds = started.elapsed().as_secs_f64();
                Some(values)
            }
            Err(e) => {
                eprintln!("warning: the position is solved, but not all its moves: {e}");
                None
            }
        }
    } else {
        None
    };
    Ok((solution, moves))
}

/// What `bao solve` prints.
struct Report<'a> {
    rules: &'a Rules,
    pos: &'a Position,
    variant: &'a str,
    solution: &'a Solution,
    moves: Option<&'a [MoveValue]>,
    from_cache: bool,
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::South => "South",
        Side::North => "North",
    }
}

impl Report<'_> {
    fn mover(&self) -> Side {
        self.pos.side_to_move()
    }

    fn moves_of(&self, value: Value) -> Vec<String> {
        let mut v: Vec<String> = (self.moves.unwrap_or(&[]).iter())
            .filter(|m| m.value == value)
            .map(|m| move_text(m.mv, self.mover()))
            .collect();
        v.sort();
        v
    }

    fn print(&self) {
        let s = self.solution;
        let winner = match s.value.winner(self.mover()) {
            Some(w) => format!(" ({} wins)", side_name(w)),
            None => String::new(),
        };
        println!("position: {}", self.pos);
        println!(
            "value: {} for {}, the side to move{winner}",
            s.value,
            side_name(self.mover())
        );
        if let Some(best) = s.best {
            println!("best move: {}", move_text(best, self.mover()));
        }
        if self.moves.is_some() {
            for (v, name) in [
                (Value::Win, "winning"),
                (Value::Draw, "drawing"),
                (Value::Loss, "losing"),
            ] {
                println!("{name} moves: {}", self.moves_of(v).join(" "));
            }
        }
        println!("pv: {}", line_text(self.rules, self.pos, &s.pv).join(" "));
        if s.value != Value::Draw {
            println!("proof line length: {} plies", s.length);
        }
        println!(
            "nodes: {} in {:.2} s ({:.0} k nodes/s); table {} MiB, {:.1}% full; no forced result within {} plies{}",
            s.nodes,
            s.seconds,
            s.nodes as f64 / s.seconds.max(1e-9) / 1e3,
            s.table_bytes >> 20,
            s.table_fill * 100.0,
            s.depth,
            if self.from_cache {
                " (from the cache)"
            } else {
                ""
            }
        );
    }

    fn json(&self) -> serde_json::Value {
        let s = self.solution;
        let mover = self.mover();
        json!({
            "variant": self.variant,
            "position": self.pos.to_string(),
            "to_move": side_name(mover).to_lowercase(),
            "value": s.value.name(),
            "winner": s.value.winner(mover).map(|w| side_name(w).to_lowercase()),
            "best": s.best.map(|m| move_text(m, mover)),
            "pv": line_text(self.rules, self.pos, &s.pv),
            "length": s.length,
            "winning_moves": self.moves.map(|_| self.moves_of(Value::Win)),
            "drawing_moves": self.moves.map(|_| self.moves_of(Value::Draw)),
            "losing_moves": self.moves.map(|_| self.moves_of(Value::Loss)),
            "nodes": s.nodes,
            "seconds": s.seconds,
            "table_bytes": s.table_bytes,
            "table_fill": s.table_fill,
            "depth": s.depth,
            "cached": self.from_cache,
        })
    }
}
