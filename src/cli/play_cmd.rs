//! `bao export`, `bao play`: using a trained player.

use super::GameArgs;
use super::eval_cmds::LimitArgs;
use crate::export::Bundle;
use crate::notation::{Diagram, Record, legal_strings, line_text, move_text, parse_and_play};
use crate::rules::{Move, MoveList, Position, Rules, Side, Variant};
use crate::search::{Limits, Player, PlayerRegistry};
use anyhow::{Context, bail};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// `bao export`: a training run's network as a one-file player, or as an ONNX model.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The training run directory (this or `--player` is needed).
    #[arg(long, conflicts_with = "player")]
    pub checkpoint: Option<PathBuf>,
    /// A player file to export instead of a run (e.g. to get its network as ONNX); several
    /// (`--player A.bao B.bao`) export one player with their mean weights.
    #[arg(long, num_args = 1..)]
    pub player: Vec<PathBuf>,
    /// The iteration to export (default: the last complete one).
    #[arg(long, requires = "checkpoint")]
    pub iteration: Option<u32>,
    /// Average the weights of this many iterations, up to the one exported (they must still be
    /// in the run: `keep_iterations`), as KataGo averages its networks before it plays them
    /// (for the shipped Kiswahili recipe it lost: docs/STRENGTH.md).
    #[arg(long, requires = "checkpoint", default_value_t = 1)]
    pub average: u32,
    /// Simulations per move the player uses by default.
    #[arg(long)]
    pub sims: Option<u32>,
    /// The exploration constant the player searches with (default: 1.0 for a run's network,
    /// `mcts::PLAY_C_PUCT`; a player file keeps its own).
    #[arg(long, value_parser = crate::export::parse_c_puct, allow_negative_numbers = true)]
    pub cpuct: Option<f32>,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
    /// `bundle` (default: a player file for `player:FILE`), or `onnx` (the network alone: input
    /// `obs` [batch, 27, 4, 8], outputs `policy_logits` [batch, 64] unmasked and `value`
    /// [batch, 1]; a `FILE.samples.json` beside it holds sample inputs and burn's outputs for
    /// `scripts/onnx_check.sh`).
    #[arg(long, default_value = "bundle")]
    pub format: String,
    /// The float precision of a player file's weights: `f16` (default, half the size) or `f32`
    /// (the network exactly as trained). ONNX models are always f32.
    #[arg(long, default_value = "f16")]
    pub precision: crate::nn::Precision,
}

/// Runs `bao export`.
pub fn run_export(args: ExportArgs) -> anyhow::Result<()> {
    if !matches!(args.format.as_str(), "bundle" | "onnx") {
        bail!(
            "unknown export format `{}`; the formats are `bundle` and `onnx`",
            args.format
        );
    }
    let mut bundle = match (&args.checkpoint, args.player.as_slice()) {
        (Some(run), _) => Bundle::from_run_averaged(run, args.iteration, args.sims, args.average)?,
        (None, []) => {
            bail!("give a training run with --checkpoint DIR or a player with --player FILE")
        }
        (None, files) => {
            let players = files
                .iter()
                .map(|f| Bundle::read(f))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let mut bundle = Bundle::average(&players).with_context(|| {
                let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                format!("cannot average the players {}", names.join(", "))
            })?;
            if let Some(sims) = args.sims {
                bundle.header.sims = sims;
            }
            bundle
        }
    };
    if let Some(c) = args.cpuct {
        bundle.header.search.c_puct = c;
    }
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
    let bundle = bundle.with_precision(args.precision)?;
    bundle.write(&args.out)?;
    let h = &bundle.header;
    println!(
        "wrote {} ({} bytes, {} weights): {} player from {}, {} training games, {} sims per move, c_puct {}",
        args.out.display(),
        bundle.to_bytes()?.len(),
        args.precision,
        h.variant,
        h.source,
        h.training.games,
        h.sims,
        h.search.c_puct
    );
    for e in &h.training.eval {
        println!(
            "  vs {}: {:.0}% over {} games (Elo {})",
            e.opponent,
            100.0 * e.score,
            e.games,
            e.elo_text()
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
    /// Where the game record is written (a game you play: games/<variant>-<time>.txt by default,
    /// a folder git ignores).
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
            (None, None) => {
                let variant = args.game.variant.parse::<Variant>()?.name();
                let file = super::shipped_player(variant).with_context(|| {
                    format!(
                        "no shipped player for {variant} ({}); give one with --player FILE, or \
                         play another player with --against SPEC (e.g. ab:depth=4)",
                        super::shipped_player_path(variant).display()
                    )
                })?;
                format!("player:{}", file.display())
            }
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
    let record = args
        .record
        .unwrap_or_else(|| default_record_path(&args.game.variant));
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

/// Where a game you play is saved unless you say: `games/<variant>-<unix seconds>.txt`, under
/// the current folder (ignored by git in this repository), never over an earlier game.
pub fn default_record_path(variant: &str) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let name = |k: u32| match k {
        0 => format!("{variant}-{secs}.txt"),
        k => format!("{variant}-{secs}-{k}.txt"),
    };
    let dir = PathBuf::from("games");
    (0..)
        .map(|k| dir.join(name(k)))
        .find(|p| !p.exists())
        .expect("some numbered name is free")
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
