//! `bao play`: a game in the terminal: you against a player (by default the shipped player of
//! the variant), or two players watched move by move.

use super::GameArgs;
use super::engine::{Event, spawn_line_reader};
use super::eval_cmds::{LimitArgs, spec};
use crate::eval::arena::{mix, play_game, result_tag};
use crate::notation::{Diagram, Record, legal_strings, line_text, move_text, parse_and_play};
use crate::players::{Bot, Choice, Limits, Player, PlayerRegistry, PlayerSpec};
use crate::rules::{Move, MoveList, Position, Rules, Side, Variant};
use anyhow::{Context, anyhow, bail};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

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
    /// a folder git ignores; a game between two players: only when given).
    #[arg(long)]
    pub record: Option<PathBuf>,
}

const HELP: &str = "Type a move in KIBA notation (A6<, b3>, A4>+), or: moves (legal moves), \
undo, eval (what the player thinks of your position), board, help, quit.";

/// Runs `bao play`: a game between two players when `--south` and `--north` both name one,
/// else a game you play.
pub fn run_play(args: PlayArgs, players: &PlayerRegistry) -> anyhow::Result<()> {
    let human = |s: &Option<String>| s.as_deref().is_none_or(|s| s.eq_ignore_ascii_case("human"));
    if args.south.is_some() || args.north.is_some() {
        if !human(&args.south) && !human(&args.north) {
            let south = args.south.clone().unwrap_or_default();
            let north = args.north.clone().unwrap_or_default();
            return watch_game(&args, &south, &north, players);
        }
        if human(&args.south) && human(&args.north) {
            bail!("one side at least must be a player: --south SPEC or --north SPEC");
        }
    }
    let (me, opponent) = if args.south.is_some() || args.north.is_some() {
        match human(&args.south) {
            true => (
                Side::South,
                spec(args.north.as_deref().unwrap_or_default())?,
            ),
            false => (
                Side::North,
                spec(args.south.as_deref().unwrap_or_default())?,
            ),
        }
    } else {
        let me = match args.side.to_ascii_lowercase().as_str() {
            "south" | "s" => Side::South,
            "north" | "n" => Side::North,
            other => bail!("--side must be south or north, not `{other}`"),
        };
        (me, opponent_spec(&args, players)?)
    };
    let rules = args.game.game()?;
    let ai = players.build(&opponent, &rules, args.seed)?;
    crate::players::check_players(&rules, &[ai.as_ref()])?;
    let start = args.game.start(&rules)?;
    let limits = args.limits.limits()?;
    let record = args
        .record
        .unwrap_or_else(|| default_record_path(&args.game.variant));
    crate::util::fs::check_output_path(&record)
        .with_context(|| format!("cannot write the record to {}", record.display()))?;
    interrupt::install();
    let input = std::io::BufReader::new(std::io::stdin());
    play_human(&rules, start, me, ai, &limits, input, &record)
}

/// The spec of the player you play against: `--against`, `--player`, or the variant's default
/// player (its shipped player; in a solved game, the perfect player first).
fn opponent_spec(args: &PlayArgs, players: &PlayerRegistry) -> anyhow::Result<PlayerSpec> {
    if let Some(text) = &args.against {
        return spec(text);
    }
    if let Some(file) = &args.player {
        return Ok(PlayerSpec::File(file.clone()));
    }
    let game = args.game.variant.parse::<Variant>()?;
    let variant = game.name();
    if !players.kinds().contains(&"player") {
        bail!(
            "this build plays no player files (it has no network); play another player with \
             --against SPEC (e.g. ab:depth=4)"
        );
    }
    // The default player of a solved game plays the shipped one where the solver proves nothing.
    crate::player_file::shipped_player(variant).with_context(|| {
        format!(
            "no shipped player for {variant} ({}); give one with --player FILE, or play another \
             player with --against SPEC (e.g. ab:depth=4)",
            crate::player_file::shipped_player_path(variant).display()
        )
    })?;
    Ok(crate::player_file::default_player_spec(game, true))
}

/// A game between the players `south` and `north` (specs), shown move by move; its record is
/// printed, and written to `--record` when given.
fn watch_game(
    args: &PlayArgs,
    south: &str,
    north: &str,
    players: &PlayerRegistry,
) -> anyhow::Result<()> {
    let rules = args.game.game()?;
    let start = args.game.start(&rules)?;
    if let Some(path) = &args.record {
        crate::util::fs::check_output_path(path)
            .with_context(|| format!("cannot write the record to {}", path.display()))?;
    }
    let (south_spec, north_spec) = (spec(south)?, spec(north)?);
    let seeds = (mix(args.seed, 1), mix(args.seed, 2));
    let mut south = players.build(&south_spec, &rules, seeds.0)?;
    let mut north = players.build(&north_spec, &rules, seeds.1)?;
    crate::players::check_players(&rules, &[south.as_ref(), north.as_ref()])?;
    south.new_game(seeds.0);
    north.new_game(seeds.1);
    let limits = args.limits.limits()?;
    let variant = rules.to_string();
    println!(
        "{} (South) vs {} (North), {variant}",
        south.name(),
        north.name()
    );
    let show_board = !args.no_board;
    if show_board {
        println!(
            "{}\n",
            Diagram {
                pos: &start,
                rules: &rules
            }
        );
    }
    let outcome = play_game(
        &rules,
        &start,
        &mut *south,
        &mut *north,
        &limits,
        args.max_plies,
        |pos: &Position, choice, child: &Position| {
            println!("{}", move_line(&rules, pos, choice));
            if show_board {
                println!(
                    "{}\n",
                    Diagram {
                        pos: child,
                        rules: &rules
                    }
                );
            }
        },
    )?;
    let names = [south.name(), north.name()];
    match outcome.winner {
        Some(w) => println!(
            "{w} ({}) wins: {}",
            names[usize::from(w == Side::North)],
            outcome.end.name()
        ),
        None => println!("draw: {}", outcome.end.name()),
    }
    let mut rec = Record::from_game(&rules, &start, &outcome.moves)
        .map_err(|e| anyhow!("cannot write the record: {e}"))?;
    rec.set_tag("Variant", variant);
    rec.set_tag("South", &names[0]);
    rec.set_tag("North", &names[1]);
    rec.set_tag("Result", result_tag(outcome.winner, outcome.end));
    print!("\n{rec}");
    if let Some(path) = &args.record {
        crate::util::fs::write_atomic(path, rec.to_string().as_bytes())
            .with_context(|| format!("cannot write the record to {}", path.display()))?;
        println!("record written to {}", path.display());
    }
    Ok(())
}

/// One line of a watched game: ply, side, move, and what the player saw (when it searched).
fn move_line(rules: &Rules, pos: &Position, choice: &Choice) -> String {
    let side = pos.side_to_move();
    let mut line = format!(
        "{:>3}. {:<5} {:<6}",
        pos.ply() + 1,
        side.to_string(),
        move_text(choice.mv, side)
    );
    if let Some(e) = choice.eval {
        line.push_str(&format!(
            " eval {e:+.2}, depth {}, {} nodes, pv {}",
            choice.depth,
            choice.nodes,
            line_text(rules, pos, &choice.pv).join(" ")
        ));
    }
    line
}

/// Where a game you play is saved unless you say: `games/<variant>-<unix seconds>.txt`, under
/// the current folder (ignored by git in this repository), never over an earlier game.
fn default_record_path(variant: &str) -> PathBuf {
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

/// You (reading `input`) against `ai`; the record of the game so far is written to `record`
/// when it ends: at its end, at `quit` or the end of input, on Ctrl-C (see [`interrupt`]), or
/// when the player fails. The player searches on a [`Bot`]'s thread, so Ctrl-C stops it.
fn play_human(
    rules: &crate::rules::Game,
    start: Position,
    me: Side,
    ai: Box<dyn Player>,
    limits: &Limits,
    input: impl BufRead + Send + 'static,
    record: &std::path::Path,
) -> anyhow::Result<()> {
    let mut history: Vec<(Move, Position)> = Vec::new();
    let (tx, lines) = std::sync::mpsc::channel();
    spawn_line_reader(input, tx).context("cannot start the input thread")?;
    let name = ai.name();
    let mut ai = Bot::new(ai);
    println!("bao-zero: you play {me} against {name}.\n{HELP}");
    let game = Game {
        rules,
        me,
        name: &name,
        limits,
    };
    let played = game_loop(&game, start, &mut ai, &lines, &mut history);
    if let Err(e) = &played {
        println!("the game stopped: {e:#}");
    }
    let moves: Vec<Move> = history.iter().map(|h| h.0).collect();
    save_record(rules, &start, &moves, me, &name, record)?;
    played
}

/// What stays the same through a game you play: the rules, your side, the player's name and
/// its limits per move.
struct Game<'a> {
    rules: &'a Rules,
    me: Side,
    name: &'a str,
    limits: &'a Limits,
}

/// What the prompt read.
enum Input {
    Line(String),
    /// The end of input, or Ctrl-C.
    End(&'static str),
}

/// The next line you type, waiting for it while watching for Ctrl-C.
fn next_line(lines: &Receiver<Event>) -> Input {
    loop {
        if interrupt::happened() {
            return Input::End("interrupted");
        }
        match lines.recv_timeout(Duration::from_millis(50)) {
            Ok(Event::Line(_, Ok(line))) => return Input::Line(line),
            Ok(Event::Line(_, Err(why))) => println!("{why}"),
            Ok(Event::Eof | Event::Done) | Err(RecvTimeoutError::Disconnected) => {
                return Input::End("end of input");
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

/// The player's move in `pos`, stopped early on Ctrl-C; `None` when interrupted.
fn ai_move(game: &Game, pos: &Position, ai: &mut Bot) -> anyhow::Result<Option<Choice>> {
    let choice = ai.choose_until(pos, *game.limits, interrupt::happened);
    match interrupt::happened() {
        true => Ok(None),
        false => choice.map(Some),
    }
}

/// The moves of a game you play, until it ends or you leave; `history` holds them.
fn game_loop(
    game: &Game,
    start: Position,
    ai: &mut Bot,
    lines: &Receiver<Event>,
    history: &mut Vec<(Move, Position)>,
) -> anyhow::Result<()> {
    let Game {
        rules, me, name, ..
    } = *game;
    let mut list = MoveList::new();
    loop {
        let pos = history.last().map_or(start, |h| h.1);
        pos.legal_moves(rules, &mut list);
        if let Some(o) = pos.outcome_given(&list) {
            println!("{}", Diagram { pos: &pos, rules });
            match o.winner {
                Some(w) if w == me => println!("You win ({}).", o.reason),
                Some(_) => println!("{name} wins ({}).", o.reason),
                None => println!("The game is void ({}).", o.reason),
            }
            return Ok(());
        }
        if pos.side_to_move() != me {
            let Some(c) = ai_move(game, &pos, ai)? else {
                println!("\n(interrupted)");
                return Ok(());
            };
            let next = *list
                .find(c.mv)
                .with_context(|| format!("{name} chose an illegal move"))?;
            let mv = move_text(c.mv, pos.side_to_move());
            match c.eval {
                Some(v) => println!("{name}: {mv} (value {v:+.2})"),
                None => println!("{name}: {mv}"),
            }
            history.push((c.mv, next));
            continue;
        }
        println!("{}", Diagram { pos: &pos, rules });
        print!("your move> ");
        std::io::stdout().flush()?;
        let line = match next_line(lines) {
            Input::Line(line) => line,
            Input::End(why) => {
                println!("\n({why})");
                return Ok(());
            }
        };
        match line.trim() {
            "" | "board" => {}
            "quit" | "exit" => return Ok(()),
            "help" | "?" => println!("{HELP}"),
            "moves" | "legal" => println!("legal: {}", legal_strings(&list, me).join(" ")),
            "undo" => undo(history, me),
            "eval" | "hint" => {
                let Some(c) = ai_move(game, &pos, ai)? else {
                    println!("\n(interrupted)");
                    return Ok(());
                };
                let value = c.eval.map_or("?".to_string(), |v| format!("{v:+.2}"));
                println!(
                    "{name}'s view of your position: value {value}, best line {}",
                    line_text(rules, &pos, &c.pv).join(" ")
                );
            }
            text => match parse_and_play(rules, &pos, text) {
                Ok((mv, next)) => history.push((mv, next)),
                Err(e) => println!("{}", crate::players::excerpt(&e.to_string(), 200)),
            },
        }
    }
}

/// Ctrl-C during a game you play: the first one ends the game (its record is saved), a second
/// one ends the program at once.
pub(crate) mod interrupt {
    use std::sync::atomic::{AtomicBool, Ordering};

    static INTERRUPTED: AtomicBool = AtomicBool::new(false);

    #[cfg(unix)]
    extern "C" fn on_sigint(_: libc::c_int) {
        INTERRUPTED.store(true, Ordering::SeqCst);
    }

    /// Catches the next SIGINT (the one after it has its default action).
    pub fn install() {
        #[cfg(unix)]
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe; the
        // sigaction struct is zeroed, then its mask emptied, before use.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
        }
    }

    /// Whether Ctrl-C was pressed.
    pub fn happened() -> bool {
        INTERRUPTED.load(Ordering::SeqCst)
    }
}

/// Takes back the player's replies and your last move.
fn undo(history: &mut Vec<(Move, Position)>, me: Side) {
    let drop_replies = |history: &mut Vec<(Move, Position)>| {
        while history.last().is_some_and(|h| h.1.side_to_move() != me) {
            history.pop();
        }
    };
    drop_replies(history);
    if history.pop().is_none() {
        println!("nothing to undo");
    } else {
        drop_replies(history);
        println!("undone");
    }
}

/// Writes the record of a game you (`me`) played against `opponent` to `path`.
fn save_record(
    rules: &crate::rules::Game,
    start: &Position,
    moves: &[Move],
    me: Side,
    opponent: &str,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    let mut rec = Record::from_game(rules, start, moves)?;
    let (mine, theirs) = match me {
        Side::South => ("South", "North"),
        Side::North => ("North", "South"),
    };
    rec.set_tag("Variant", rules.to_string());
    rec.set_tag(mine, "human");
    rec.set_tag(theirs, opponent);
    crate::util::fs::write_atomic(path, rec.to_string().as_bytes())?;
    println!("game saved to {}", path.display());
    Ok(())
}
