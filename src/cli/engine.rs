//! `bao engine`: a line protocol on stdin/stdout for GUIs and scripts. One reply line per
//! command (a block for `show`, none for `stop`: the reply of the `go` it stops answers it);
//! errors are replies starting with `error`, and the engine goes on.

use crate::notation::{Diagram, legal_strings, line_text, move_text, parse_and_play};
use crate::players::{Bot, Limits, Player, PlayerRegistry, excerpt};
use crate::rules::{Game, GameError, MoveList, Position, Rules, RulesError, Variant};
use anyhow::{Context, bail};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, Sender};

/// `bao engine`: a line protocol on stdin/stdout (see the README).
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// The player that searches: a spec (ab:depth=6, player:FILE, mcts:...), or `default`: the
    /// shipped player of the game being played (checkpoints/shipped/<variant>.bao; `ab` for a
    /// game with none), following `variant` commands; in a solved game (Kujifunza, Malawi
    /// basic, Hus) the perfect player first, the shipped one where it proves nothing in 1 s.
    #[arg(long, default_value = DEFAULT_PLAYER)]
    pub player: String,
}

/// The engine's state between commands.
pub struct Engine {
    variant: Variant,
    overrides: Vec<String>,
    game: Game,
    start: Position,
    pos: Position,
    /// The player, searching on a thread of its own.
    bot: Bot,
    /// The spec the player was built from ([`DEFAULT_PLAYER`]: the game's default player), built
    /// again for each new game.
    spec: String,
    /// The threads `threads N` gave the player, given again to each new one of the same spec.
    threads: Option<usize>,
    /// Why the player cannot play the game, found when either last changed; `go` answers it.
    misfit: Option<String>,
    /// How `player SPEC` becomes a player.
    players: PlayerRegistry,
}

/// The spec that names the game's default player.
const DEFAULT_PLAYER: &str = "default";

const ENGINE_COMMANDS: &str = "variant NAME, option NAME VALUE, player SPEC|default, threads N, \
position startpos|text POSITION [moves M...], legal, show, \
go [nodes N] [depth N] [movetime MS] [time MS [inc MS]], stop, isready, quit";

impl Engine {
    /// An engine at the Bao la Kiswahili start, searching with the player `spec` names.
    pub fn new(spec: &str, players: &PlayerRegistry) -> anyhow::Result<Engine> {
        let game = Game::from(Variant::Kiswahili);
        let player = build_player(spec, Variant::Kiswahili, &game, players)?;
        let mut engine = Engine {
            variant: Variant::Kiswahili,
            overrides: Vec::new(),
            start: Position::start(&game),
            pos: Position::start(&game),
            game,
            bot: Bot::new(player),
            spec: spec.to_string(),
            threads: None,
            misfit: None,
            players: players.clone(),
        };
        engine.note_misfit()?;
        Ok(engine)
    }

    /// Notes whether the player can play the game: the check made once, when either changes.
    fn note_misfit(&mut self) -> anyhow::Result<()> {
        let player = self.bot.player()?;
        self.misfit = crate::players::check_players(&self.game, &[player])
            .err()
            .map(|e| e.to_string());
        Ok(())
    }

    /// A player bound to a game of its own (a trained network) takes the engine to its game,
    /// at its start.
    fn follow_the_players_game(&mut self) -> anyhow::Result<()> {
        let player = self.bot.player()?;
        if player.is_bound() {
            let game = player.game().clone();
            if let Some(v) = game.variant() {
                self.variant = v;
                self.overrides.clear();
            }
            self.start = Position::start(&game);
            self.pos = self.start;
            self.game = game;
        }
        Ok(())
    }

    /// The player built again from its spec for the game now played (after `variant` or
    /// `option`): the game's default player, or the same spec. One bound to another game stays,
    /// and `go` says that it cannot play this one.
    fn rebuild_player(&mut self) -> anyhow::Result<()> {
        let player = build_player(&self.spec, self.variant, &self.game, &self.players)?;
        self.bot.set_player(player)?;
        if let Some(n) = self.threads {
            self.bot.player_mut()?.set_threads(n);
        }
        self.note_misfit()
    }

    /// A new game of `variant` with `overrides`, at its start, the player built for it; on an
    /// error nothing changes.
    fn set_rules(&mut self, variant: Variant, overrides: Vec<String>) -> anyhow::Result<()> {
        let game =
            (Game::from(variant).with_overrides(&overrides.join("\n"))).map_err(|e| match e {
                GameError::Rules(RulesError::Options(why)) => {
                    anyhow::anyhow!("bad rule option: {why}")
                }
                e => anyhow::anyhow!("inconsistent rule options: {e}"),
            })?;
        let before = (
            self.variant,
            std::mem::take(&mut self.overrides),
            self.game.clone(),
        );
        (self.variant, self.overrides, self.game) = (variant, overrides, game);
        if let Err(e) = self.rebuild_player() {
            (self.variant, self.overrides, self.game) = before;
            return Err(e);
        }
        self.start = Position::start(&self.game);
        self.pos = self.start;
        Ok(())
    }

    /// The reply to one command line, or `None` to stop.
    pub fn command(&mut self, line: &str) -> anyhow::Result<Option<String>> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = words.split_first() else {
            return Ok(Some(String::new()));
        };
        Ok(Some(match cmd {
            "quit" => return Ok(None),
            "variant" => self.variant_cmd(rest)?,
            "option" => self.option_cmd(rest)?,
            "player" => self.player_cmd(rest)?,
            "position" => self.position_cmd(rest)?,
            "legal" => self.legal_cmd(),
            "show" => format!(
                "{}\nposition {}",
                Diagram {
                    pos: &self.pos,
                    rules: &self.game
                },
                self.pos
            ),
            "threads" => self.threads_cmd(rest)?,
            "go" => self.go_cmd(rest)?,
            // Every command before it is answered: a client reads up to here.
            "isready" => "readyok".into(),
            // [`engine_loop`] ignores a `stop` that comes after its search's reply.
            "stop" => bail!("no search is running"),
            other => bail!(
                "unknown command `{}`; commands: {ENGINE_COMMANDS}",
                excerpt(other, 40)
            ),
        }))
    }

    /// `variant NAME`: a new game of that variant, with its default player if one is followed.
    fn variant_cmd(&mut self, rest: &[&str]) -> anyhow::Result<String> {
        let [name] = rest else {
            bail!("usage: variant NAME")
        };
        let variant: Variant = name.parse()?;
        self.set_rules(variant, Vec::new())?;
        Ok(format!("ok {}", self.variant.name()))
    }

    /// `option NAME VALUE`: one more rule override, restarting the game.
    fn option_cmd(&mut self, rest: &[&str]) -> anyhow::Result<String> {
        let [name, value @ ..] = rest else {
            bail!("usage: option NAME VALUE")
        };
        anyhow::ensure!(!value.is_empty(), "usage: option NAME VALUE");
        let mut overrides = self.overrides.clone();
        // The same option again replaces its value.
        overrides.retain(|o| o.split(" = ").next() != Some(*name));
        overrides.push(format!("{name} = {}", toml_value(&value.join(" "))));
        self.set_rules(self.variant, overrides)?;
        Ok("ok".into())
    }

    /// `player SPEC|default`: the player that searches from now on.
    fn player_cmd(&mut self, rest: &[&str]) -> anyhow::Result<String> {
        anyhow::ensure!(!rest.is_empty(), "usage: player SPEC|default");
        let spec = rest.join(" ");
        let player = build_player(&spec, self.variant, &self.game, &self.players)?;
        self.bot.set_player(player)?;
        (self.spec, self.threads) = (spec, None);
        // A trained player brings its own rules: the game switches to them (the default
        // player of a game plays that game's).
        if self.spec != DEFAULT_PLAYER {
            self.follow_the_players_game()?;
        }
        self.note_misfit()?;
        Ok(format!("ok {}", self.bot.player()?.name()))
    }

    /// `position startpos|text POSITION [moves M...]`: the position to search from.
    fn position_cmd(&mut self, rest: &[&str]) -> anyhow::Result<String> {
        let (base, moves) = match rest.iter().position(|w| *w == "moves") {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &[][..]),
        };
        let mut pos = match base {
            ["startpos"] | [] => self.start,
            ["text", text @ ..] => Position::from_text(&text.join(" "), &self.game)?,
            _ => bail!("usage: position startpos|text POSITION [moves M...]"),
        };
        for m in moves {
            pos = parse_and_play(&self.game, &pos, m)?.1;
        }
        self.pos = pos;
        Ok("ok".into())
    }

    /// `legal`: the legal moves of the position, in move notation.
    fn legal_cmd(&self) -> String {
        let mut list = MoveList::new();
        self.pos.legal_moves(&self.game, &mut list);
        let legal = legal_strings(&list, self.pos.side_to_move()).join(" ");
        format!("legal {legal}").trim_end().to_string()
    }

    /// `threads N`: the player's search threads.
    fn threads_cmd(&mut self, rest: &[&str]) -> anyhow::Result<String> {
        let n = match rest {
            [n] => n.parse::<usize>().ok().filter(|n| (1..=256).contains(n)),
            _ => None,
        }
        .context("usage: threads N (1 to 256)")?;
        let player = self.bot.player_mut()?;
        anyhow::ensure!(
            player.set_threads(n),
            "{} always searches on one thread",
            player.name()
        );
        self.threads = Some(n);
        Ok(format!("ok threads {n}"))
    }

    /// `go [limits]`: the player's move, value, effort and principal variation.
    fn go_cmd(&mut self, rest: &[&str]) -> anyhow::Result<String> {
        let limits = self.go_limits(rest)?;
        let choice = self.bot.choose(&self.pos, limits);
        search_reply(choice, &self.game, &self.pos)
    }

    /// The limits of `go`, refused where the game is over.
    fn go_limits(&self, rest: &[&str]) -> anyhow::Result<Limits> {
        let limits = go_limits(rest)?;
        if let Some(why) = &self.misfit {
            bail!("{why}");
        }
        if let Some(o) = self.pos.outcome(&self.game) {
            let end = match o.winner {
                Some(w) => format!("{w} won ({})", o.reason),
                None => format!("the game is void ({})", o.reason),
            };
            bail!("the game is over: {end}");
        }
        Ok(limits)
    }

    /// Starts `go` on the bot's thread, which sends [`Event::Done`] to `done` when its answer
    /// is ready ([`Engine::search_done`] gives the reply).
    fn start_go(&mut self, rest: &[&str], done: Sender<Event>) -> anyhow::Result<()> {
        let limits = self.go_limits(rest)?;
        self.bot.start(&self.pos, limits, move || {
            let _ = done.send(Event::Done);
        })
    }

    /// The reply of the search started by [`Engine::start_go`], waiting for it; at the end of
    /// input (`eof`) the search is stopped first where the player can stop.
    fn search_done(&mut self, eof: bool) -> Option<anyhow::Result<String>> {
        let choice = match eof {
            true => self.bot.finish()?,
            false => self.bot.wait()?,
        };
        Some(search_reply(choice, &self.game, &self.pos))
    }
}

/// The reply to `go`: the player's move, value, effort and principal variation.
fn search_reply(
    choice: anyhow::Result<crate::players::Choice>,
    rules: &Rules,
    pos: &Position,
) -> anyhow::Result<String> {
    let c = choice?;
    let value = c.eval.map_or("none".to_string(), |v| format!("{v:+.3}"));
    Ok(format!(
        "bestmove {} value {value} nodes {} depth {} pv {}",
        move_text(c.mv, pos.side_to_move()),
        c.nodes,
        c.depth,
        line_text(rules, pos, &c.pv).join(" ")
    ))
}

/// `value` as TOML: as written when it is a TOML value (a number, `true`, a quoted string),
/// else as a string, so that `option takasia none` means the word `none`.
fn toml_value(value: &str) -> String {
    match format!("v = {value}").parse::<toml::Table>() {
        Ok(_) => value.to_string(),
        Err(_) => toml::Value::String(value.to_string()).to_string(),
    }
}

/// The player `spec` names for `game`, of `variant`: for [`DEFAULT_PLAYER`], the
/// variant's default player (`crate::player_file::default_player_spec`).
fn build_player(
    spec: &str,
    variant: Variant,
    game: &Game,
    players: &PlayerRegistry,
) -> anyhow::Result<Box<dyn Player>> {
    let spec = match spec {
        DEFAULT_PLAYER => {
            let files = players.kinds().contains(&"player");
            crate::player_file::default_player_spec(variant, files)
        }
        other => other.parse()?,
    };
    players.build(&spec, game, 0)
}

/// The limits of `go [nodes N] [depth N] [movetime MS] [time MS [inc MS]]` (`sims` is a
/// synonym of `nodes`; counts may be written `100k`, `2m`; `time` is what is left on the mover's
/// clock and `inc` its increment per move).
pub fn go_limits(words: &[&str]) -> anyhow::Result<Limits> {
    let mut limits = Limits::NONE;
    let (mut clock, mut inc) = (None, std::time::Duration::ZERO);
    let usage = "usage: go [nodes N] [depth N] [movetime MS] [time MS [inc MS]]";
    for pair in words.chunks(2) {
        let [key, value] = pair else { bail!("{usage}") };
        // An increment may be nothing (sudden death); every other limit is a positive count.
        let zero_ok = *key == "inc";
        let n: u64 = match crate::players::options::parse_count(value) {
            Some(n) => n,
            None if zero_ok && value.parse::<u64>() == Ok(0) => 0,
            None => bail!(
                "`{}` takes {} number (such as 400, 100k or 2m), not `{}`",
                excerpt(key, 20),
                if zero_ok {
                    "0 or a positive"
                } else {
                    "a positive"
                },
                excerpt(value, 40)
            ),
        };
        if *key != "nodes" && *key != "sims" && *key != "depth" && n > MAX_MS {
            bail!("`{key}` takes at most {MAX_MS} ms (a week), not {n}");
        }
        let ms = std::time::Duration::from_millis(n);
        match *key {
            "nodes" | "sims" => limits.nodes = Some(n),
            "depth" if n > u64::from(MAX_DEPTH) => {
                bail!("`depth` takes 1 to {MAX_DEPTH}, not {n}")
            }
            "depth" => limits.depth = Some(n as u32),
            "movetime" => limits.time = Some(ms),
            "time" => clock = Some(ms),
            "inc" => inc = ms,
            other => bail!("unknown limit `{}`; {usage}", excerpt(other, 20)),
        }
    }
    if let Some(remaining) = clock {
        limits = limits.min(&Limits::from_clock(remaining, inc));
    }
    Ok(limits)
}

/// The deepest search `go depth` asks for (alpha-beta's own bound).
const MAX_DEPTH: u32 = crate::players::options::MAX_DEPTH;

/// The longest time `go` takes: a week, in milliseconds.
const MAX_MS: u64 = 7 * 24 * 3600 * 1000;

/// The longest command line; a longer one is an error answered like any other.
const MAX_LINE: u64 = 1 << 20;

/// The longest reply line of an error: a message that echoes a huge input is cut.
const MAX_ERROR: usize = 500;

/// Folds a message onto one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What the engine's loop waits for: a command line (numbered from 1; an error for a line that
/// cannot be read as text), the end of input, or the end of a search with its reply.
pub enum Event {
    /// A command line, or why line N is not one.
    Line(usize, Result<String, String>),
    /// The end of standard input.
    Eof,
    /// The search under way has its answer ready.
    Done,
}

/// Reads `input` line by line as bytes on a thread of its own, so that the engine reads `stop`
/// while it searches; a line that is not UTF-8 text, or too long, is an error for that line.
pub(crate) fn spawn_line_reader(
    mut input: impl BufRead + Send + 'static,
    events: Sender<Event>,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("engine-stdin".into())
        .spawn(move || {
            for n in 1.. {
                let event = match read_line_bytes(&mut input) {
                    Ok(None) | Err(_) => Event::Eof,
                    Ok(Some(Ok(bytes))) => Event::Line(
                        n,
                        String::from_utf8(bytes).map_err(|_| format!("line {n} is not UTF-8 text")),
                    ),
                    Ok(Some(Err(()))) => {
                        Event::Line(n, Err(format!("line {n} is longer than {MAX_LINE} bytes")))
                    }
                };
                let end = matches!(event, Event::Eof);
                if events.send(event).is_err() || end {
                    return;
                }
            }
        })
        .map(drop)
}

/// One line of `input` without its line end; `Err(())` for a line over [`MAX_LINE`] bytes (read
/// to its end and dropped); `None` at the end of input.
fn read_line_bytes(input: &mut impl BufRead) -> std::io::Result<Option<Result<Vec<u8>, ()>>> {
    let mut line = Vec::new();
    let n = std::io::Read::take(&mut *input, MAX_LINE).read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    if line.last() != Some(&b'\n') && n as u64 == MAX_LINE {
        let mut rest = Vec::new();
        while std::io::Read::take(&mut *input, MAX_LINE).read_until(b'\n', &mut rest)? > 0
            && rest.last() != Some(&b'\n')
        {
            rest.clear();
        }
        return Ok(Some(Err(())));
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(Some(Ok(line)))
}

/// The reply line of an error: on one line, and short whatever the input it echoes.
fn error_line(e: &anyhow::Error) -> String {
    format!("error {}", excerpt(&one_line(&format!("{e:#}")), MAX_ERROR))
}

/// Runs `bao engine` until `quit` or the end of input: one reply line (or block, for `show`)
/// per command; errors are replies starting with `error`, and the engine goes on. `go` searches
/// on a thread while input is read, and commands take effect in the order given: a `stop` ends
/// the search of the `go` before it (whose reply is then the best move so far; a `stop` after
/// that reply gets no line, so that a `go` has one line whenever its `stop` arrives), other
/// commands wait for the reply and follow in order (`quit` too: the search runs to its limits),
/// and the end of input stops the search where the player can stop, still giving its reply.
pub fn run_engine(args: EngineArgs, players: &PlayerRegistry) -> anyhow::Result<()> {
    let mut engine = Engine::new(&args.player, players)?;
    let (tx, rx) = std::sync::mpsc::channel();
    spawn_line_reader(std::io::BufReader::new(std::io::stdin()), tx.clone())
        .context("cannot start the input thread")?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "bao-zero engine ready")?;
    out.flush()?;
    engine_loop(&mut engine, &rx, &tx, &mut out)
}

/// The command word of `event`, if it is a command line.
fn command_word(event: &Event) -> Option<&str> {
    match event {
        Event::Line(_, Ok(line)) => line.split_whitespace().next(),
        _ => None,
    }
}

/// Whether `event` ends the engine: `quit` or the end of input.
fn is_end(event: &Event) -> bool {
    matches!(event, Event::Eof) || command_word(event) == Some("quit")
}

/// Whether the input queued behind the search under way asks it to end: a `stop` before the
/// next `go` (taken out of the queue: the search's reply answers it). A `stop` after a later
/// `go` waits for that one.
fn ends_search(queue: &mut VecDeque<Event>) -> bool {
    let mut asked = false;
    let mut i = 0;
    while i < queue.len() && command_word(&queue[i]) != Some("go") {
        if command_word(&queue[i]) == Some("stop") {
            queue.remove(i);
            asked = true;
            continue;
        }
        i += 1;
    }
    asked
}

/// The engine's loop over `events` (see [`run_engine`]), replying on `out`. While a search
/// runs, input waits in a queue; what in it concerns the search ([`ends_search`]) is applied at
/// once, the rest in order when the search has replied.
fn engine_loop(
    engine: &mut Engine,
    events: &Receiver<Event>,
    sender: &Sender<Event>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut queue: VecDeque<Event> = VecDeque::new();
    loop {
        if engine.bot.is_searching() {
            if let Some(end) = queue.front().filter(|e| is_end(e)) {
                // Nothing more will be asked: `quit` lets the search run to its limits, the end
                // of input stops it where it can stop; either way it replies.
                let eof = matches!(end, Event::Eof);
                if let Some(reply) = engine.search_done(eof) {
                    write_reply(out, reply)?;
                }
                return Ok(());
            }
            if ends_search(&mut queue) {
                engine.bot.stop();
            }
            match events.recv() {
                Ok(Event::Done) => {
                    if let Some(reply) = engine.search_done(false) {
                        write_reply(out, reply)?;
                    }
                }
                Ok(event) => queue.push_back(event),
                Err(_) => queue.push_back(Event::Eof),
            }
            continue;
        }
        let Some(event) = queue.pop_front().or_else(|| events.recv().ok()) else {
            return Ok(());
        };
        let reply = match event {
            Event::Done => continue,
            Event::Eof => return Ok(()),
            Event::Line(_, Err(why)) => Err(anyhow::anyhow!(why)),
            Event::Line(_, Ok(line)) => {
                let words: Vec<&str> = line.split_whitespace().collect();
                if let ["go", rest @ ..] = words.as_slice() {
                    match engine.start_go(rest, sender.clone()) {
                        Ok(()) => continue,
                        Err(e) => Err(e),
                    }
                } else if words.first() == Some(&"stop") {
                    // A `stop` that reached no search came after its search's reply (or had none
                    // to end): it gets no line, as in UCI, since a client cannot tell whether
                    // its `stop` arrives before the `bestmove` or after it.
                    continue;
                } else {
                    match engine.command(&line) {
                        Ok(None) => return Ok(()),
                        Ok(Some(reply)) => Ok(reply),
                        Err(e) => Err(e),
                    }
                }
            }
        };
        write_reply(out, reply)?;
    }
}

/// Writes one reply (an error as a line starting with `error`).
fn write_reply(out: &mut dyn Write, reply: anyhow::Result<String>) -> anyhow::Result<()> {
    match reply {
        Ok(text) => writeln!(out, "{text}")?,
        Err(e) => writeln!(out, "{}", error_line(&e))?,
    }
    out.flush()?;
    Ok(())
}
