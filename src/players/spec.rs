//! Players written as short strings, for the command line and match configs:
//!
//! | spec | player |
//! | --- | --- |
//! | `random` | uniform random legal move |
//! | `greedy` | the move capturing the most seeds, ties at random |
//! | `ab` | alpha-beta, depth 4 |
//! | `ab:depth=6` | alpha-beta to depth 6 |
//! | `ab:nodes=100000` (`100k`, `2m`) | alpha-beta, at most that many nodes per move |
//! | `ab:time=500ms` (`1s`, `1.5s`) | alpha-beta, that much time per move |
//! | `ab:depth=6,time=1s` | limits combine: the first one reached stops the search |
//! | `ab:...,tt=16` | a transposition table of 2^16 entries (default 2^20) |
//! | `ab:...,weights=FILE.json` | evaluation weights from a JSON file ([`HeuristicWeights`](crate::search::HeuristicWeights)) |
//! | `mcts:...` | MCTS with a network (needs the `ml` feature; registered by `trained`) |
//! | `player:PATH` | a player file (needs the `ml` feature; registered by `trained`) |
//! | `engine:PROGRAM` | another `bao` program through `PROGRAM engine` (its default player) |
//! | `engine:PROGRAM ARGS...` | any program of the engine protocol, run as `PROGRAM ARGS... engine` (a word with spaces in '...' or "...") |
//! | `engine:PROGRAM,player=SPEC` | the same, playing SPEC (the rest of the text, commas and all) |
//! | `solver`, `solver:time=10s,memory=256` | the perfect player: every move solved exactly ([`crate::search::solver`]) |
//! | `book:FILE`, `book:FILE,else=SPEC` | a best-response book's move for each position (`bao exploit --exact`), SPEC where it has none |
//!
//! A spec names a kind; a [`PlayerRegistry`] turns it into a player. Kinds this parser does not
//! know are kept as [`PlayerSpec::Other`] for the registry to build.

use super::options::{AbSpec, format_duration, number, parse_ab_options, parse_duration, shown};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// The forms a player spec may take, for error messages.
const ACCEPTED: &str = "accepted forms: random, greedy, ab (depth 4), ab:depth=N, \
ab:nodes=N (100000, 100k, 2m), ab:time=T (500ms, 1s, 1.5s), several limits joined by commas \
(ab:depth=6,time=1s), with tt=BITS (2^BITS table entries, 10..=26) and weights=FILE.json; \
mcts:OPTIONS and player:PATH (these need the ml feature), engine:PROGRAM[,player=SPEC], \
solver[:time=T,memory=MIB] (the exact solver), book:FILE[,else=SPEC] (a best-response book)";

/// A player described by a string (see the module docs): a typed value inside the program, text
/// only at its edges (`FromStr` reads it, `Display` writes the same value back).
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// Uniform random moves.
    Random,
    /// One-ply greedy captures.
    Greedy,
    /// Alpha-beta search.
    AlphaBeta(AbSpec),
    /// MCTS with a network, `mcts:OPTIONS` (built by a registered kind).
    Mcts(MctsSpec),
    /// A player file, `player:PATH` (built by a registered kind).
    File(PathBuf),
    /// The exact solver, `solver:OPTIONS`, with the player it falls back on.
    Solver(SolverSpec),
    /// Any other kind, `kind:options`, built by whatever the [`PlayerRegistry`] has for it.
    Other {
        /// The kind, lower case.
        kind: String,
        /// The text after `:` (empty if none).
        options: String,
    },
}

/// The most players one spec may hold inside one another (the solver's `else=SPEC`, an engine's
/// `player=SPEC`, in any mix): a handful is plenty, and a bound keeps a spec of thousands of levels
/// from exhausting the stack of whatever builds it.
pub const MAX_NESTING: usize = 4;

/// A bad player spec: what is wrong, and the accepted forms.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad player spec `{}`: {why}; {ACCEPTED}", shown(spec))]
pub struct SpecError {
    /// The text given.
    pub spec: String,
    /// What is wrong with it.
    pub why: String,
}

/// The default table size of the solver player, in MiB.
pub const DEFAULT_MEMORY_MB: usize = 256;

/// Options of a `solver` spec: `solver:time=10s,memory=256,else=SPEC` (any of them, or none).
#[derive(Clone, Debug, PartialEq)]
pub struct SolverSpec {
    /// Time per move (the caller's tighter limit wins).
    pub time: Option<Duration>,
    /// Table size in MiB.
    pub memory_mb: usize,
    /// The player that moves where the solver proves nothing (`else=`, always the last option,
    /// since a spec may hold commas); `None`: alpha-beta at depth 4.
    pub fallback: Option<Box<PlayerSpec>>,
}

impl Default for SolverSpec {
    fn default() -> SolverSpec {
        SolverSpec {
            time: None,
            memory_mb: DEFAULT_MEMORY_MB,
            fallback: None,
        }
    }
}

impl SolverSpec {
    /// The solver with `time` a move, falling back on `fallback`.
    pub fn with_fallback(time: Duration, fallback: PlayerSpec) -> SolverSpec {
        SolverSpec {
            time: Some(time),
            fallback: Some(Box::new(fallback)),
            ..SolverSpec::default()
        }
    }

    /// Reads `time=10s,memory=256,else=SPEC` (the text after `solver:`), or says what is wrong
    /// in one line.
    pub fn parse(options: &str) -> Result<SolverSpec, String> {
        let (own, fallback) = split_inner_spec(options, "else", "solver option `else=`")?;
        let mut spec = SolverSpec {
            fallback,
            ..SolverSpec::default()
        };
        for item in own.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(format!(
                    "solver option `{item}` must be key=value (time=10s, memory=256, else=SPEC)"
                ));
            };
            match key.trim() {
                "time" => {
                    spec.time = Some(parse_duration(value.trim()).ok_or_else(|| {
                        format!("solver time `{value}` must be a duration such as 10s")
                    })?)
                }
                "memory" => {
                    spec.memory_mb = value
                        .trim()
                        .parse()
                        .ok()
                        .filter(|m| (1..=65_536).contains(m))
                        .ok_or_else(|| format!("solver memory `{value}` must be 1..=65536 (MiB)"))?
                }
                other => {
                    return Err(format!(
                        "unknown solver option `{other}` (known: time, memory, else)"
                    ));
                }
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for SolverSpec {
    /// The options as [`SolverSpec::parse`] reads them (empty when all are the defaults).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(t) = self.time {
            parts.push(format!("time={}", format_duration(t)));
        }
        if self.memory_mb != DEFAULT_MEMORY_MB {
            parts.push(format!("memory={}", self.memory_mb));
        }
        if let Some(fallback) = &self.fallback {
            parts.push(format!("else={fallback}"));
        }
        f.write_str(&parts.join(","))
    }
}

/// Splits `options` at the option `key=SPEC`, which holds a player and so is always the last (its
/// spec may have commas of its own): the options before it, and that player read. `what` names
/// the option in errors.
fn split_inner_spec<'a>(
    options: &'a str,
    key: &str,
    what: &str,
) -> Result<(&'a str, Option<Box<PlayerSpec>>), String> {
    let first = format!("{key}=");
    let later = format!(",{key}=");
    let (own, inner) = match options.trim_start().strip_prefix(&first) {
        Some(rest) => ("", Some(rest)),
        None => match options.split_once(&later) {
            Some((own, rest)) => (own, Some(rest)),
            None => (options, None),
        },
    };
    let inner = match inner.map(str::trim) {
        Some("") => return Err(format!("{what} needs a player spec ({key}=ab:depth=4)")),
        Some(text) => Some(Box::new(
            text.parse::<PlayerSpec>()
                .map_err(|e| format!("{key}=: {}", e.why))?,
        )),
        None => None,
    };
    Ok((own, inner))
}

impl PlayerSpec {
    /// The kind: the name before `:` (`random`, `greedy`, `ab`, `mcts`, `player`, ...).
    pub fn kind(&self) -> &str {
        match self {
            PlayerSpec::Random => "random",
            PlayerSpec::Greedy => "greedy",
            PlayerSpec::AlphaBeta(_) => "ab",
            PlayerSpec::Mcts(_) => "mcts",
            PlayerSpec::File(_) => "player",
            PlayerSpec::Solver(_) => "solver",
            PlayerSpec::Other { kind, .. } => kind,
        }
    }
}

/// How many players `spec` holds inside one another: its options that are specs themselves
/// (`else=`, `player=`, `model=`), wherever they stand. Counted on the text, without parsing the inner
/// specs, so that the count costs one pass however deep the nesting goes.
fn nesting(spec: &str) -> usize {
    ["else=", "player=", "model="]
        .iter()
        .map(|key| {
            (spec.match_indices(key))
                .filter(|(i, _)| spec[..*i].trim_end().ends_with([':', ',']))
                .count()
        })
        .sum()
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<PlayerSpec, SpecError> {
        let err = |why: String| SpecError {
            spec: text.to_string(),
            why,
        };
        let s = text.trim();
        if nesting(s) > MAX_NESTING {
            return Err(err(format!(
                "it holds players inside players more than {MAX_NESTING} deep (`else=` or \
                 `player=` inside one another)"
            )));
        }
        let (kind, options) = match s.split_once(':') {
            Some((k, o)) => (k.trim().to_ascii_lowercase(), Some(o)),
            None => (s.to_ascii_lowercase(), None),
        };
        match (kind.as_str(), options) {
            ("random", None) => Ok(PlayerSpec::Random),
            ("greedy", None) => Ok(PlayerSpec::Greedy),
            ("random" | "greedy", Some(_)) => Err(err(format!("`{kind}` takes no options"))),
            ("mcts", o) => MctsSpec::parse(o.unwrap_or(""))
                .map(PlayerSpec::Mcts)
                .map_err(err),
            ("solver", o) => SolverSpec::parse(o.unwrap_or(""))
                .map(PlayerSpec::Solver)
                .map_err(err),
            ("player", Some(path)) if !path.trim().is_empty() => {
                Ok(PlayerSpec::File(PathBuf::from(path.trim())))
            }
            ("player", _) => Err(err("`player:` needs a file path".into())),
            ("ab" | "alphabeta", None) => Ok(PlayerSpec::AlphaBeta(AbSpec::default())),
            ("ab" | "alphabeta", Some(o)) => {
                parse_ab_options(o).map(PlayerSpec::AlphaBeta).map_err(err)
            }
            ("", _) => Err(err("empty spec".into())),
            (k, o)
                if k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
            {
                Ok(PlayerSpec::Other {
                    kind: k.to_string(),
                    options: o.unwrap_or("").trim().to_string(),
                })
            }
            _ => Err(err(format!("unknown player kind `{kind}`"))),
        }
    }
}

/// `kind`, or `kind:options` when there are options.
fn with_options(f: &mut fmt::Formatter<'_>, kind: &str, options: &str) -> fmt::Result {
    match options {
        "" => f.write_str(kind),
        _ => write!(f, "{kind}:{options}"),
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Mcts(o) => with_options(f, "mcts", &o.to_string()),
            PlayerSpec::Solver(o) => with_options(f, "solver", &o.to_string()),
            PlayerSpec::File(p) => write!(f, "player:{}", p.display()),
            PlayerSpec::Other { kind, options } if options.is_empty() => f.write_str(kind),
            PlayerSpec::Other { kind, options } => write!(f, "{kind}:{options}"),
            PlayerSpec::AlphaBeta(ab) => with_options(f, "ab", &ab.to_string()),
        }
    }
}

/// The options of an `mcts:` spec as a typed value ([`MctsSpec`]): read from the text after
/// `mcts:` and written back in one order, so that code builds the value and the registry builds
/// the player from it; text only at the edges. The bounds that belong to the search (simulations,
/// exploration constant, batch) are checked where the player is built (`trained`).
///
/// | option | meaning |
/// | --- | --- |
/// | `checkpoint=PATH` (`player=PATH`) | a player file, or a training run (its last iteration) |
/// | `iteration=N` | the run's iteration N (needs a run as `checkpoint`) |
/// | `sims=200` | simulations per move (default: the file's, or 200) |
/// | `cpuct=1.0` | exploration constant (default: the file's) |
/// | `batch=8` | leaves per batched evaluation, 1 to 256 (default: chosen from the budget) |
/// | `solver=1` | MCTS-solver: proven wins and losses |
/// | `minimax=0.3` | weight of implicit minimax values in selection, 0 to 1 |
/// | `fpu=0.2` | first-play urgency reduction, 0 to 2 |
/// | `model=SPEC` | the opponent the search assumes: only its move is searched where it is to move (last, as it may hold commas) |
///
/// An MCTS player's options: a network (a player file or a run) or none (uniform priors), and
/// the search settings it overrides. `None`: the file's setting, or the default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MctsSpec {
    /// A player file, or a training run directory (`checkpoint=`).
    pub checkpoint: Option<PathBuf>,
    /// The run's iteration to play (`iteration=`; its last if `None`).
    pub iteration: Option<u32>,
    /// Simulations per move (`sims=`).
    pub sims: Option<u32>,
    /// Exploration constant (`cpuct=`).
    pub c_puct: Option<f32>,
    /// Leaves per batched evaluation (`batch=`; 0 or `None`: chosen from the budget).
    pub batch: Option<usize>,
    /// The MCTS-solver (`solver=1|0`).
    pub solver: Option<bool>,
    /// Weight of implicit minimax values (`minimax=`).
    pub minimax_weight: Option<f32>,
    /// First-play urgency reduction (`fpu=`).
    pub fpu_reduction: Option<f32>,
    /// The opponent the search assumes (`model=SPEC`, always the last option): where it is to
    /// move, only its move is searched (see [`crate::mcts::OpponentModel`]).
    pub model: Option<Box<PlayerSpec>>,
}

impl MctsSpec {
    /// The spec of a training run's network (its last iteration) at `sims` simulations a move.
    pub fn of_run(dir: impl Into<PathBuf>, sims: u32) -> MctsSpec {
        MctsSpec {
            checkpoint: Some(dir.into()),
            sims: Some(sims),
            ..MctsSpec::default()
        }
    }

    /// Reads the options `checkpoint=PATH,sims=200,...` (the text after `mcts:`), or says what is
    /// wrong with them in one line.
    pub fn parse(options: &str) -> Result<MctsSpec, String> {
        let (own, model) = split_inner_spec(options, "model", "mcts option `model=`")?;
        let mut spec = MctsSpec {
            model,
            ..MctsSpec::default()
        };
        for item in own.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| format!("option `{item}` must be key=value"))?;
            spec.set(key, value)?;
        }
        if spec.iteration.is_some() && spec.checkpoint.is_none() {
            return Err("iteration= needs checkpoint=RUN_DIR".into());
        }
        Ok(spec)
    }

    /// Sets one option `key=value`, or says why it is wrong.
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "checkpoint" | "player" if value.is_empty() => {
                return Err(format!(
                    "{key}= needs a path (a player file or a run directory)"
                ));
            }
            "checkpoint" | "player" => self.checkpoint = Some(PathBuf::from(value)),
            "iteration" => {
                self.iteration = Some(number(key, value, |&i: &u32| i > 0, "a positive number")?)
            }
            "sims" => self.sims = Some(number(key, value, |_| true, "a whole number")?),
            "cpuct" | "c_puct" => {
                self.c_puct = Some(number(key, value, |c: &f32| c.is_finite(), "a number")?)
            }
            "batch" => self.batch = Some(number(key, value, |_| true, "a whole number")?),
            "guard" => return Err("the option `guard` no longer exists".into()),
            "minimax" => {
                let weight = |w: &f32| (0.0..=1.0).contains(w);
                self.minimax_weight = Some(number(key, value, weight, "from 0 to 1")?)
            }
            "fpu" => {
                // Values lie in [-1, 1], so a reduction above 2 only repeats 2.
                let reduction = |r: &f32| (0.0..=2.0).contains(r);
                self.fpu_reduction = Some(number(key, value, reduction, "from 0 to 2")?)
            }
            "solver" => {
                self.solver = Some(match value {
                    "1" | "true" | "on" => true,
                    "0" | "false" | "off" => false,
                    _ => return Err(format!("solver must be 1 or 0, not `{value}`")),
                })
            }
            other => {
                return Err(format!(
                    "unknown option `{other}`; mcts takes checkpoint=PATH, iteration=N, sims=N, cpuct=X, batch=N, solver=1|0, minimax=X, fpu=X, model=SPEC (last)"
                ));
            }
        }
        Ok(())
    }
}

impl fmt::Display for MctsSpec {
    /// The options as [`MctsSpec::parse`] reads them, in one order (empty when none is set).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(p) = &self.checkpoint {
            parts.push(format!("checkpoint={}", p.display()));
        }
        if let Some(i) = self.iteration {
            parts.push(format!("iteration={i}"));
        }
        if let Some(s) = self.sims {
            parts.push(format!("sims={s}"));
        }
        if let Some(c) = self.c_puct {
            parts.push(format!("cpuct={c}"));
        }
        if let Some(b) = self.batch {
            parts.push(format!("batch={b}"));
        }
        if let Some(s) = self.solver {
            parts.push(format!("solver={}", u8::from(s)));
        }
        if let Some(w) = self.minimax_weight {
            parts.push(format!("minimax={w}"));
        }
        if let Some(r) = self.fpu_reduction {
            parts.push(format!("fpu={r}"));
        }
        if let Some(m) = &self.model {
            parts.push(format!("model={m}"));
        }
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::Limits;

    #[test]
    fn specs_round_trip_through_display() {
        for s in [
            "random",
            "greedy",
            "ab",
            "ab:depth=4",
            "ab:time=500ms",
            "ab:nodes=100000",
            "ab:depth=6,time=1s",
            "ab:depth=3,tt=16",
            "mcts:sims=200",
            "player:runs/a.bao",
        ] {
            let spec: PlayerSpec = s.parse().unwrap();
            assert_eq!(spec.to_string(), s);
        }
        let spec: PlayerSpec = "AB: nodes=100k , time=1.5s".parse().unwrap();
        assert_eq!(spec.to_string(), "ab:nodes=100000,time=1500ms");
    }

    #[test]
    fn a_spec_built_in_code_reads_back_from_its_text_for_each_kind() {
        use std::time::Duration;
        let file = PlayerSpec::File(PathBuf::from("checkpoints/shipped/hus.bao"));
        let depth = PlayerSpec::AlphaBeta(AbSpec {
            limits: Limits::depth(6),
            ..AbSpec::default()
        });
        let every_option = MctsSpec {
            checkpoint: Some(PathBuf::from("runs/a")),
            iteration: Some(7),
            sims: Some(64),
            c_puct: Some(1.25),
            batch: Some(8),
            solver: Some(true),
            minimax_weight: Some(0.3),
            fpu_reduction: Some(0.0),
            // A nested spec with commas of its own, read back whole as the last option.
            model: Some(Box::new(PlayerSpec::AlphaBeta(AbSpec {
                limits: Limits::depth(2),
                tt_bits: Some(12),
                ..AbSpec::default()
            }))),
        };
        let specs = [
            PlayerSpec::Random,
            PlayerSpec::Greedy,
            depth.clone(),
            file.clone(),
            PlayerSpec::Mcts(MctsSpec::of_run("runs/a", 200)),
            PlayerSpec::Mcts(MctsSpec::default()),
            PlayerSpec::Mcts(every_option),
            PlayerSpec::Solver(SolverSpec::default()),
            PlayerSpec::Solver(SolverSpec::with_fallback(Duration::from_secs(1), file)),
            PlayerSpec::Solver(SolverSpec {
                memory_mb: 64,
                ..SolverSpec::with_fallback(Duration::from_millis(1500), depth)
            }),
            PlayerSpec::Other {
                kind: "engine".into(),
                options: "bao,player=ab:depth=2".into(),
            },
        ];
        for spec in specs {
            let text = spec.to_string();
            assert_eq!(text.parse::<PlayerSpec>(), Ok(spec), "{text}");
        }
        let run = PlayerSpec::Mcts(MctsSpec::of_run("runs/a", 200));
        assert_eq!(run.to_string(), "mcts:checkpoint=runs/a,sims=200");
    }

    #[test]
    fn mcts_and_solver_options_are_read_into_their_values_or_refused_in_one_line() {
        let spec: PlayerSpec = "mcts: sims=8 , player=x.bao,cpuct=1.0".parse().unwrap();
        let PlayerSpec::Mcts(options) = &spec else {
            panic!("{spec:?}")
        };
        assert_eq!(
            (options.checkpoint.as_deref(), options.sims, options.c_puct),
            (Some(std::path::Path::new("x.bao")), Some(8), Some(1.0))
        );
        assert_eq!(spec.to_string(), "mcts:checkpoint=x.bao,sims=8,cpuct=1");
        let spec: PlayerSpec = "solver:time=2s,else=solver:else=ab:depth=2"
            .parse()
            .unwrap();
        let PlayerSpec::Solver(outer) = &spec else {
            panic!("{spec:?}")
        };
        assert!(matches!(
            outer.fallback.as_deref(),
            Some(PlayerSpec::Solver(_))
        ));
        let spec: PlayerSpec = "mcts:sims=8,model=ab:depth=2,tt=12".parse().unwrap();
        let PlayerSpec::Mcts(options) = &spec else {
            panic!("{spec:?}")
        };
        assert_eq!(
            (options.sims, options.model.as_ref().map(|m| m.to_string())),
            (Some(8), Some("ab:depth=2,tt=12".to_string()))
        );
        for bad in [
            "mcts:sims=x",
            "mcts:iteration=2",
            "mcts:minimax=1.5",
            "mcts:fpu=nan",
            "mcts:checkpoint=",
            "mcts:colour=red",
            "solver:else=",
            "solver:memory=0",
            "solver:else=random:x",
            "mcts:sims=8,model=",
            "mcts:model=random:x",
        ] {
            let err = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(
                err.starts_with("bad player spec") && !err.contains('\n'),
                "{err}"
            );
        }
    }

    #[test]
    fn a_transposition_table_too_large_to_allocate_is_refused_where_the_spec_is_read() {
        for bad in ["ab:tt=30", "ab:tt=27", "ab:depth=2,tt=64", "ab:tt=9"] {
            let err = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(err.contains("tt `") && err.contains("10..=26"), "{err}");
            assert!(!err.contains('\n'), "{err}");
        }
        for good in ["ab:tt=10", "ab:tt=26"] {
            assert!(good.parse::<PlayerSpec>().is_ok(), "{good}");
        }
    }
}
