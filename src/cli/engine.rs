//! `bao engine`: a line protocol on stdin/stdout for GUIs and scripts. One reply line per
//! command (a block for `show`); errors are replies starting with `error`, and the engine goes on.

use crate::notation::{Diagram, legal_strings, line_text, move_text, parse_and_play};
use crate::rules::{MoveList, Position, Rules, Variant};
use crate::search::{Limits, Player, PlayerRegistry};
use anyhow::{Context, bail};
use std::io::{BufRead, Write};

/// `bao engine`: a line protocol on stdin/stdout (see the README).
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// The player that searches: a spec (ab:depth=6, player:FILE, mcts:...), or `default`: the
    /// shipped player of the game being played (checkpoints/shipped/<variant>.bao; `ab` for a
    /// game with none), following `variant` commands.
    #[arg(long, default_value = DEFAULT_PLAYER)]
    pub player: String,
}

/// The engine's state between commands.
pub struct Engine {
    variant: Variant,
    overrides: Vec<String>,
    rules: Rules,
    start: Position,
    pos: Position,
    player: Box<dyn Player>,
    /// Whether the player is the game's default one, changing with `variant`.
    default_player: bool,
    /// How `player SPEC` becomes a player.
    players: PlayerRegistry,
}

/// The spec that names the game's default player.
pub const DEFAULT_PLAYER: &str = "default";

const ENGINE_COMMANDS: &str = "variant NAME, option NAME VALUE, player SPEC|default, threads N, \
position startpos|text POSITION [moves M...], legal, show, \
go [nodes N] [depth N] [movetime MS] [time MS [inc MS]], quit";

impl Engine {
    /// An engine at the Bao la Kiswahili start, searching with the player `spec` names.
    pub fn new(spec: &str, players: &PlayerRegistry) -> anyhow::Result<Engine> {
        let rules = Variant::Kiswahili.rules();
        let start = Position::start(&rules);
        let default_player = spec == DEFAULT_PLAYER;
        let player = match default_player {
            true => default_player_of(Variant::Kiswahili, players)?,
            false => players.resolve(spec, 0)?.1,
        };
        Ok(Engine {
            variant: Variant::Kiswahili,
            overrides: Vec::new(),
            rules,
            start,
            pos: start,
            player,
            default_player,
            players: players.clone(),
        })
    }

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
                    rules: &self.rules
                },
                self.pos
            ),
            "threads" => self.threads_cmd(rest)?,
            "go" => self.go_cmd(rest)?,
            other => bail!("unknown command `{other}`; commands: {ENGINE_COMMANDS}"),
        }))
    }

    /// `variant NAME`: a new game of that variant, with its default player if one is followed.
    fn variant_cmd(&mut self, rest: &[&str]) -> anyhow::Result<String> {
        let [name] = rest else {
            bail!("usage: variant NAME")
        };
        let variant: Variant = name.parse()?;
        if self.default_player {
            self.player = default_player_of(variant, &self.players)?;
        }
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
        overrides.push(format!("{name} = {}", value.join(" ")));
        self.set_rules(self.variant, overrides)?;
        Ok("ok".into())
    }

    /// `player SPEC|default`: the player that searches from now on.
    fn player_cmd(&mut self, rest: &[&str]) -> anyhow::Result<String> {
        anyhow::ensure!(!rest.is_empty(), "usage: player SPEC|default");
        if rest == [DEFAULT_PLAYER] {
            self.player = default_player_of(self.variant, &self.players)?;
            self.default_player = true;
            return Ok(format!("ok {}", self.player.name()));
        }
        self.player = self.players.resolve(&rest.join(" "), 0)?.1;
        self.default_player = false;
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
        Ok(format!("ok {}", self.player.name()))
    }

    /// `position startpos|text POSITION [moves M...]`: the position to search from.
    fn position_cmd(&mut self, rest: &[&str]) -> anyhow::Result<String> {
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
        Ok("ok".into())
    }

    /// `legal`: the legal moves of the position, in move notation.
    fn legal_cmd(&self) -> String {
        let mut list = MoveList::new();
        self.pos.legal_moves(&self.rules, &mut list);
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
        anyhow::ensure!(
            self.player.set_threads(n),
            "{} always searches on one thread",
            self.player.name()
        );
        Ok(format!("ok threads {n}"))
    }

    /// `go [limits]`: the player's move, value, effort and principal variation.
    fn go_cmd(&mut self, rest: &[&str]) -> anyhow::Result<String> {
        let limits = go_limits(rest)?;
        if let Some(o) = self.pos.outcome(&self.rules) {
            bail!("the game is over: {o:?}");
        }
        let c = self.player.choose(&self.rules, &self.pos, &limits)?;
        let value = c.eval.map_or("none".to_string(), |v| format!("{v:+.3}"));
        Ok(format!(
            "bestmove {} value {value} nodes {} depth {} pv {}",
            move_text(c.mv, self.pos.side_to_move()),
            c.nodes,
            c.depth,
            line_text(&self.rules, &self.pos, &c.pv).join(" ")
        ))
    }
}

/// The default player of `variant`: its shipped player when the program can load player files
/// and one is shipped, else alpha-beta.
fn default_player_of(
    variant: Variant,
    players: &PlayerRegistry,
) -> anyhow::Result<Box<dyn Player>> {
    let shipped = crate::player_file::shipped_player(variant.name());
    match shipped {
        Some(file) if players.kinds().contains(&"player") => {
            Ok(players.resolve(&format!("player:{}", file.display()), 0)?.1)
        }
        _ => Ok(players.resolve("ab", 0)?.1),
    }
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
    let mut engine = Engine::new(&args.player, players)?;
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
