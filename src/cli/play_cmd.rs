//! `bao export`, `bao play`, `bao engine`: using a trained player.

use super::GameArgs;
use super::eval_cmds::LimitArgs;
use crate::export::Bundle;
use crate::notation::{Diagram, Record, legal_strings, line_text, move_text, parse_and_play};
use crate::rules::{Move, MoveList, Position, Rules, Side, Variant};
use crate::search::{Limits, Player, PlayerRegistry};
use anyhow::{Context, bail};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// The player shipped with the project, used when no `--player` is given.
pub const SHIPPED_PLAYER: &str = "checkpoints/shipped/kiswahili.bao";

/// The shipped player's file: under the current directory, or else in the checkout this binary
/// was built from.
pub fn shipped_player() -> anyhow::Result<PathBuf> {
    let here = PathBuf::from(SHIPPED_PLAYER);
    let built = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(SHIPPED_PLAYER);
    [here, built]
        .into_iter()
        .find(|p| p.is_file())
        .with_context(|| {
            format!(
                "the shipped player {SHIPPED_PLAYER} is not here; give one with --player FILE, \
             or play another player with --against SPEC (e.g. ab:depth=4)"
            )
        })
}

/// `bao export`: a training run's network as a one-file player, or as an ONNX model.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The training run directory (this or `--player` is needed).
    #[arg(long, conflicts_with = "player")]
    pub checkpoint: Option<PathBuf>,
    /// A player file to export instead of a run (e.g. to get its network as ONNX).
    #[arg(long)]
    pub player: Option<PathBuf>,
    /// The iteration to export (default: the last complete one).
    #[arg(long, requires = "checkpoint")]
    pub iteration: Option<u32>,
    /// Simulations per move the player uses by default.
    #[arg(long)]
    pub sims: Option<u32>,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
    /// `bundle` (default: a player file for `player:FILE`), or `onnx` (the network alone: input
    /// `obs` [batch, 27, 4, 8], outputs `policy_logits` [batch, 64] unmasked and `value`
    /// [batch, 1]; a `FILE.samples.json` beside it holds sample inputs and burn's outputs for
    /// `scripts/onnx_check.sh`).
    #[arg(long, default_value = "bundle")]
    pub format: String,
}

/// Runs `bao export`.
pub fn run_export(args: ExportArgs) -> anyhow::Result<()> {
    if !matches!(args.format.as_str(), "bundle" | "onnx") {
        bail!(
            "unknown export format `{}`; the formats are `bundle` and `onnx`",
            args.format
        );
    }
    let bundle = match (&args.checkpoint, &args.player) {
        (Some(run), _) => Bundle::from_run(run, args.iteration, args.sims)?,
        (None, Some(file)) => {
            let mut bundle = Bundle::read(file)?;
            if let Some(sims) = args.sims {
                bundle.header.sims = sims;
            }
            bundle
        }
        (None, None) => {
            bail!("give a training run with --checkpoint DIR or a player with --player FILE")
        }
    };
    if args.format == "onnx" {
        use crate::export::onnx;
        onnx::write_onnx(&bundle, &args.out)?;
        let samples = onnx::samples(&bundle, 64, 1)?;
        let path = args.out.with_extension("samples.json");
        crate::util::write_atomic(&path, serde_json::to_string(&samples)?.as_bytes())?;
        println!(
            "wrote {} ({} bytes): {} network from {}; input `{}` [batch, 27, 4, 8], outputs `{}` \
             [batch, 64] (unmasked) and `{}` [batch, 1]; {} sample positions with burn's outputs \
             in {}",
            args.out.display(),
            std::fs::metadata(&args.out)?.len(),
            bundle.header.variant,
            bundle.header.source,
            onnx::INPUT_NAME,
            onnx::OUTPUT_NAMES[0],
            onnx::OUTPUT_NAMES[1],
            samples.positions.len(),
            path.display()
        );
        return Ok(());
    }
    bundle.write(&args.out)?;
    let h = &bundle.header;
    println!(
        "wrote {} ({} bytes): {} player from {}, {} training games, {} sims per move",
        args.out.display(),
        bundle.to_bytes()?.len(),
        h.variant,
        h.source,
        h.training.games,
        h.sims
    );
    for e in &h.training.eval {
        println!(
            "  vs {}: {:.0}% over {} games (Elo {:+.0} [{:+.0}, {:+.0}])",
            e.opponent,
            100.0 * e.score,
            e.games,
            e.elo,
            e.elo_low,
            e.elo_high
        );
    }
    Ok(())
}

/// `bao play`: you against a player in the terminal (by default the shipped player), or with
/// `--south SPEC --north SPEC` a game between two players shown move by move.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The variant, an optional rules file and start position.
    #[command(flatten)]
    pub game: GameArgs,
    /// The player file you play against (default: the shipped player).
    #[arg(long)]
    pub player: Option<PathBuf>,
    /// Or any player spec to play against: ab:depth=4, greedy, mcts:..., player:FILE.
    #[arg(long, conflicts_with = "player")]
    pub against: Option<String>,
    /// Your side: south (moves first) or north.
    #[arg(long, default_value = "south")]
    pub side: String,
    /// The South player's spec, for a game between two players (`human` for you).
    #[arg(long)]
    pub south: Option<String>,
    /// The North player's spec, for a game between two players (`human` for you).
    #[arg(long)]
    pub north: Option<String>,
    /// Limits per move for the players (for a network player, --nodes counts simulations).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Seed of the players' randomness.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Ply cap (a draw).
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Between two players: print only the moves, not the board after each one.
    #[arg(long)]
    pub no_board: bool,
    /// Where the game record is written (a game you play: bao-game.txt by default).
    #[arg(long)]
    pub record: Option<PathBuf>,
}

const HELP: &str = "Type a move in KIBA notation (A6<, b3>, A4>+), or: moves (legal moves), \
undo, eval (what the player thinks of your position), board, help, quit.";

/// Runs `bao play`.
pub fn run_play(args: PlayArgs, players: &PlayerRegistry) -> anyhow::Result<()> {
    let human = |s: &Option<String>| s.as_deref().is_none_or(|s| s.eq_ignore_ascii_case("human"));
    if args.south.is_some() || args.north.is_some() {
        if !human(&args.south) && !human(&args.north) {
            return super::eval_cmds::run_play(
                super::eval_cmds::PlayArgs {
                    game: args.game,
                    south: args.south.unwrap_or_default(),
                    north: args.north.unwrap_or_default(),
                    seed: args.seed,
                    max_plies: args.max_plies,
                    limits: args.limits,
                    no_board: args.no_board,
                    record: args.record,
                },
                players,
            );
        }
        if human(&args.south) && human(&args.north) {
            bail!("one side at least must be a player: --south SPEC or --north SPEC");
        }
    }
    let (me, opponent) = if args.south.is_some() || args.north.is_some() {
        match human(&args.south) {
            true => (Side::South, args.north.clone().unwrap_or_default()),
            false => (Side::North, args.south.clone().unwrap_or_default()),
        }
    } else {
        let me = match args.side.to_ascii_lowercase().as_str() {
            "south" | "s" => Side::South,
            "north" | "n" => Side::North,
            other => bail!("--side must be south or north, not `{other}`"),
        };
        let spec = match (&args.against, &args.player) {
            (Some(spec), _) => spec.clone(),
            (None, Some(file)) => format!("player:{}", file.display()),
            (None, None) => format!("player:{}", shipped_player()?.display()),
        };
        (me, spec)
    };
    let (_, mut ai) = players.resolve(&opponent, args.seed)?;
    let rules = args.game.rules()?;
    if let Some(own) = ai.rules()
        && own != rules
    {
        bail!(
            "{} plays other rules than {} (pick its variant with --variant, or its rule options with --rules)",
            ai.name(),
            args.game.variant
        );
    }
    let start = args.game.start(&rules)?;
    let limits = args.limits.limits()?;
    let record = args.record.unwrap_or_else(|| PathBuf::from("bao-game.txt"));
    let stdin = std::io::stdin();
    play_human(
        &rules,
        start,
        me,
        ai.as_mut(),
        &limits,
        &mut stdin.lock(),
        &record,
    )
}

/// You (reading `input`) against `ai`; the record is written to `record` at the end.
pub fn play_human(
    rules: &Rules,
    start: Position,
    me: Side,
    ai: &mut dyn Player,
    limits: &Limits,
    input: &mut dyn BufRead,
    record: &std::path::Path,
) -> anyhow::Result<()> {
    let mut history: Vec<(Move, Position)> = Vec::new();
    let mut out = std::io::stdout();
    println!("bao-zero: you play {me} against {}.\n{HELP}", ai.name());
    let mut list = MoveList::new();
    let mut line = String::new();
    loop {
        let pos = history.last().map_or(start, |h| h.1);
        pos.legal_moves(rules, &mut list);
        if let Some(o) = pos.outcome_given(&list) {
            println!("{}", Diagram { pos: &pos, rules });
            match o.winner {
                Some(w) if w == me => println!("You win ({:?}).", o.reason),
                Some(_) => println!("{} wins ({:?}).", ai.name(), o.reason),
                None => println!("The game is void ({:?}).", o.reason),
            }
            break;
        }
        if pos.side_to_move() != me {
            let c = ai.choose(rules, &pos, limits)?;
            let next = *list
                .find(c.mv)
                .with_context(|| format!("{} chose an illegal move", ai.name()))?;
            match c.eval {
                Some(v) => println!(
                    "{}: {} (value {v:+.2})",
                    ai.name(),
                    move_text(c.mv, pos.side_to_move())
                ),
                None => println!("{}: {}", ai.name(), move_text(c.mv, pos.side_to_move())),
            }
            history.push((c.mv, next));
            continue;
        }
        println!("{}", Diagram { pos: &pos, rules });
        print!("your move> ");
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            println!("\n(end of input)");
            break;
        }
        match line.trim() {
            "" | "board" => {}
            "quit" | "exit" => break,
            "help" | "?" => println!("{HELP}"),
            "moves" | "legal" => println!("legal: {}", legal_strings(&list, me).join(" ")),
            "undo" => {
                // Take back the player's replies and your last move.
                while history.last().is_some_and(|h| h.1.side_to_move() != me) {
                    history.pop();
                }
                if history.pop().is_none() {
                    println!("nothing to undo");
                } else {
                    while history.last().is_some_and(|h| h.1.side_to_move() != me) {
                        history.pop();
                    }
                    println!("undone");
                }
            }
            "eval" | "hint" => {
                let c = ai.choose(rules, &pos, limits)?;
                let value = c.eval.map_or("?".to_string(), |v| format!("{v:+.2}"));
                println!(
                    "{}'s view of your position: value {value}, best line {}",
                    ai.name(),
                    line_text(rules, &pos, &c.pv).join(" ")
                );
            }
            text => match parse_and_play(rules, &pos, text) {
                Ok((mv, next)) => history.push((mv, next)),
                Err(e) => println!("{e}"),
            },
        }
    }
    let moves: Vec<Move> = history.iter().map(|h| h.0).collect();
    let mut rec = Record::from_game(rules, &start, &moves)?;
    let (mine, theirs) = match me {
        Side::South => ("South", "North"),
        Side::North => ("North", "South"),
    };
    if let Some(v) = Variant::ALL.into_iter().find(|v| v.rules() == *rules) {
        rec.set_tag("Variant", v.name());
    }
    rec.set_tag(mine, "human");
    rec.set_tag(theirs, ai.name());
    crate::util::write_atomic(record, rec.to_string().as_bytes())?;
    println!("game saved to {}", record.display());
    Ok(())
}

/// `bao engine`: a line protocol on stdin/stdout (see the README).
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// The player that searches: a spec (ab:depth=6, player:FILE, mcts:...); default `ab`.
    #[arg(long, default_value = "ab")]
    pub player: String,
}

/// The engine's state between commands.
struct Engine {
    variant: Variant,
    overrides: Vec<String>,
    rules: Rules,
    start: Position,
    pos: Position,
    player: Box<dyn Player>,
    /// How `player SPEC` becomes a player.
    players: PlayerRegistry,
}

const ENGINE_COMMANDS: &str = "variant NAME, option NAME VALUE, player SPEC, threads N, \
position startpos|text POSITION [moves M...], legal, show, \
go [nodes N] [depth N] [movetime MS] [time MS [inc MS]], quit";

impl Engine {
    fn set_rules(&mut self, variant: Variant, overrides: Vec<String>) -> anyhow::Result<()> {
        let rules = crate::rules::variant::rules_with_overrides(variant, &overrides.join("\n"))
            .map_err(|e| anyhow::anyhow!("bad rule option: {e}"))?;
        rules
            .validate()
            .map_err(|e| anyhow::anyhow!("inconsistent rule options: {e}"))?;
        self.variant = variant;
        self.overrides = overrides;
        self.start = Position::start(&rules);
        self.pos = self.start;
        self.rules = rules;
        Ok(())
    }

    /// The reply to one command line, or `None` to stop.
    fn command(&mut self, line: &str) -> anyhow::Result<Option<String>> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = words.split_first() else {
            return Ok(Some(String::new()));
        };
        Ok(Some(match cmd {
            "quit" => return Ok(None),
            "variant" => {
                let [name] = rest else {
                    bail!("usage: variant NAME")
                };
                self.set_rules(name.parse()?, Vec::new())?;
                format!("ok {}", self.variant.name())
            }
            "option" => {
                let [name, value @ ..] = rest else {
                    bail!("usage: option NAME VALUE")
                };
                anyhow::ensure!(!value.is_empty(), "usage: option NAME VALUE");
                let mut overrides = self.overrides.clone();
                overrides.push(format!("{name} = {}", value.join(" ")));
                self.set_rules(self.variant, overrides)?;
                "ok".into()
            }
            "player" => {
                anyhow::ensure!(!rest.is_empty(), "usage: player SPEC");
                self.player = self.players.resolve(&rest.join(" "), 0)?.1;
                // A trained player brings its own rules: the game switches to them.
                if let Some(rules) = self.player.rules() {
                    if let Some(v) = Variant::ALL.into_iter().find(|v| v.rules() == rules) {
                        self.variant = v;
                        self.overrides.clear();
                    }
                    self.start = Position::start(&rules);
                    self.pos = self.start;
                    self.rules = rules;
                }
                format!("ok {}", self.player.name())
            }
            "position" => {
                let (base, moves) = match rest.iter().position(|w| *w == "moves") {
                    Some(i) => (&rest[..i], &rest[i + 1..]),
                    None => (rest, &[][..]),
                };
                let mut pos = match base {
                    ["startpos"] | [] => self.start,
                    ["text", text @ ..] => Position::from_text(&text.join(" "), &self.rules)?,
                    _ => bail!("usage: position startpos|text POSITION [moves M...]"),
                };
                for m in moves {
                    pos = parse_and_play(&self.rules, &pos, m)?.1;
                }
                self.pos = pos;
                "ok".into()
            }
            "legal" => {
                let mut list = MoveList::new();
                self.pos.legal_moves(&self.rules, &mut list);
                let legal = legal_strings(&list, self.pos.side_to_move()).join(" ");
                format!("legal {legal}").trim_end().to_string()
            }
            "show" => format!(
                "{}\nposition {}",
                Diagram {
                    pos: &self.pos,
                    rules: &self.rules
                },
                self.pos
            ),
            "threads" => {
                let n = match rest {
                    [n] => n.parse::<usize>().ok().filter(|n| (1..=256).contains(n)),
                    _ => None,
                }
                .context("usage: threads N (1 to 256)")?;
                anyhow::ensure!(
                    self.player.set_threads(n),
                    "{} always searches on one thread",
                    self.player.name()
                );
                format!("ok threads {n}")
            }
            "go" => {
                let limits = go_limits(rest)?;
                if let Some(o) = self.pos.outcome(&self.rules) {
                    bail!("the game is over: {o:?}");
                }
                let c = self.player.choose(&self.rules, &self.pos, &limits)?;
                let value = c.eval.map_or("none".to_string(), |v| format!("{v:+.3}"));
                format!(
                    "bestmove {} value {value} nodes {} depth {} pv {}",
                    move_text(c.mv, self.pos.side_to_move()),
                    c.nodes,
                    c.depth,
                    line_text(&self.rules, &self.pos, &c.pv).join(" ")
                )
            }
            other => bail!("unknown command `{other}`; commands: {ENGINE_COMMANDS}"),
        }))
    }
}

/// The limits of `go [nodes N] [depth N] [movetime MS] [time MS [inc MS]]` (`sims` is a
/// synonym of `nodes`; counts may be written `100k`, `2m`; `time` is what is left on the mover's
/// clock and `inc` its increment per move).
fn go_limits(words: &[&str]) -> anyhow::Result<Limits> {
    let mut limits = Limits::NONE;
    let (mut clock, mut inc) = (None, std::time::Duration::ZERO);
    let usage = "usage: go [nodes N] [depth N] [movetime MS] [time MS [inc MS]]";
    for pair in words.chunks(2) {
        let [key, value] = pair else { bail!("{usage}") };
        let n: u64 = crate::search::spec::parse_count(value).with_context(|| {
            format!("`{key}` takes a positive number (such as 400, 100k or 2m), not `{value}`")
        })?;
        let ms = std::time::Duration::from_millis(n);
        match *key {
            "nodes" | "sims" => limits.nodes = Some(n),
            "depth" => limits.depth = Some(n.min(u64::from(u32::MAX)) as u32),
            "movetime" => limits.time = Some(ms),
            "time" => clock = Some(ms),
            "inc" => inc = ms,
            other => bail!("unknown limit `{other}`; {usage}"),
        }
    }
    if let Some(remaining) = clock {
        limits = limits.min(&Limits::from_clock(remaining, inc));
    }
    Ok(limits)
}

/// Folds a message onto one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Runs `bao engine` until `quit` or the end of input: one reply line (or block, for `show`)
/// per command; errors are replies starting with `error`, and the engine goes on.
pub fn run_engine(args: EngineArgs, players: &PlayerRegistry) -> anyhow::Result<()> {
    let rules = Variant::Kiswahili.rules();
    let start = Position::start(&rules);
    let mut engine = Engine {
        variant: Variant::Kiswahili,
        overrides: Vec::new(),
        rules,
        start,
        pos: start,
        player: players.resolve(&args.player, 0)?.1,
        players: players.clone(),
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    writeln!(out, "bao-zero engine ready")?;
    out.flush()?;
    for line in stdin.lock().lines() {
        match engine.command(&line?) {
            Ok(Some(reply)) => writeln!(out, "{reply}")?,
            Ok(None) => break,
            // One line per reply, whatever the error's own text holds.
            Err(e) => writeln!(out, "error {}", one_line(&format!("{e:#}")))?,
        }
        out.flush()?;
    }
    Ok(())
}
