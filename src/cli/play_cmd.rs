//! `bao export`, `bao play --player`, `bao engine`: using a trained player.

use crate::export::{Bundle, Decision, LoadedPlayer};
use crate::mcts::{MctsConfig, Tree, UniformEvaluator, search};
use crate::notation::{Diagram, Record, legal_strings, move_text, parse_and_play};
use crate::rules::{Move, MoveList, Position, Rules, Side, Variant};
use anyhow::{Context, bail};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// The player shipped with the project, used when no `--player` is given.
pub const SHIPPED_PLAYER: &str = "checkpoints/shipped/kiswahili.bao";

/// `bao export`: a training run's network as a one-file player.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The training run directory.
    #[arg(long)]
    pub checkpoint: PathBuf,
    /// The iteration to export (default: the last complete one).
    #[arg(long)]
    pub iteration: Option<u32>,
    /// Simulations per move the player uses by default.
    #[arg(long)]
    pub sims: Option<u32>,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
    /// `bundle` (default). (`onnx` is not built into this version.)
    #[arg(long, default_value = "bundle")]
    pub format: String,
}

/// Runs `bao export`.
pub fn run_export(args: ExportArgs) -> anyhow::Result<()> {
    if args.format != "bundle" {
        bail!(
            "export format `{}` is not available; this build writes `bundle`",
            args.format
        );
    }
    let bundle = Bundle::from_run(&args.checkpoint, args.iteration, args.sims)?;
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

/// `bao play --player FILE`: play against a trained player in the terminal.
#[derive(clap::Args, Debug)]
pub struct HumanArgs {
    /// Player file (default: the shipped player).
    #[arg(long)]
    pub player: Option<PathBuf>,
    /// Your side: south (moves first) or north.
    #[arg(long, default_value = "south")]
    pub side: String,
    /// Simulations per move for the player (default: the file's).
    #[arg(long)]
    pub sims: Option<u32>,
    /// Where the game record is saved at the end.
    #[arg(long, default_value = "bao-game.txt")]
    pub save: PathBuf,
}

const HELP: &str = "Type a move in KIBA notation (A6<, b3>, A4>+), or: moves (legal moves), undo, eval (what the player thinks), board, help, quit.";

/// Runs the human-vs-player loop on stdin/stdout.
pub fn run_human(args: HumanArgs) -> anyhow::Result<()> {
    let path = args
        .player
        .clone()
        .unwrap_or_else(|| PathBuf::from(SHIPPED_PLAYER));
    let mut ai = LoadedPlayer::load(&path).with_context(|| {
        format!("cannot load the player (give one with --player; default {SHIPPED_PLAYER})")
    })?;
    let human = match args.side.to_ascii_lowercase().as_str() {
        "south" | "s" => Side::South,
        "north" | "n" => Side::North,
        other => bail!("--side must be south or north, not `{other}`"),
    };
    let rules = ai.rules().clone();
    let start = Position::start(&rules);
    let mut history: Vec<(Move, Position)> = Vec::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout();
    println!(
        "bao-zero: you play {human} in {} against {}.\n{HELP}",
        ai.header.variant,
        path.display()
    );
    let mut list = MoveList::new();
    loop {
        let pos = history.last().map_or(start, |h| h.1);
        pos.legal_moves(&rules, &mut list);
        if let Some(o) = pos.outcome_given(&list) {
            println!(
                "{}",
                Diagram {
                    pos: &pos,
                    rules: &rules
                }
            );
            match o.winner {
                Some(w) if w == human => println!("You win ({:?}).", o.reason),
                Some(_) => println!("The player wins ({:?}).", o.reason),
                None => println!("The game is void ({:?}).", o.reason),
            }
            break;
        }
        if pos.side_to_move() != human {
            let d = ai.choose(&pos, args.sims)?;
            println!(
                "player: {} (value {:+.2})",
                move_text(d.mv, pos.side_to_move()),
                d.value
            );
            history.push((
                d.mv,
                *list
                    .find(d.mv)
                    .context("the player chose an illegal move")?,
            ));
            continue;
        }
        println!(
            "{}",
            Diagram {
                pos: &pos,
                rules: &rules
            }
        );
        print!("your move> ");
        out.flush()?;
        let Some(line) = lines.next() else {
            println!("\n(end of input)");
            break;
        };
        let line = line?;
        match line.trim() {
            "" => {}
            "quit" | "exit" => break,
            "help" | "?" => println!("{HELP}"),
            "board" => {}
            "moves" | "legal" => println!("legal: {}", legal_strings(&list, human).join(" ")),
            "undo" => {
                // Take back the player's reply and your move.
                while history
                    .pop()
                    .is_some_and(|(_, p)| p.side_to_move() != human)
                {}
                let back = history.last().map_or(start, |h| h.1);
                if back.side_to_move() != human {
                    history.clear();
                }
                println!("undone");
            }
            "eval" | "hint" => {
                let d: Decision = ai.choose(&pos, args.sims)?;
                let pv: Vec<String> = pv_text(&rules, &pos, &d.pv);
                println!(
                    "the player's view for you: value {:+.2}, best line {}",
                    d.value,
                    pv.join(" ")
                );
            }
            text => match parse_and_play(&rules, &pos, text) {
                Ok((mv, next)) => history.push((mv, next)),
                Err(e) => println!("{e}"),
            },
        }
    }
    let moves: Vec<Move> = history.iter().map(|h| h.0).collect();
    let mut rec = Record::from_game(&rules, &start, &moves)?;
    rec.set_tag("Variant", ai.header.variant.clone());
    rec.set_tag(
        if human == Side::South {
            "South"
        } else {
            "North"
        },
        "human",
    );
    rec.set_tag(
        if human == Side::South {
            "North"
        } else {
            "South"
        },
        path.display().to_string(),
    );
    crate::util::write_atomic(&args.save, rec.to_string().as_bytes())?;
    println!("game saved to {}", args.save.display());
    Ok(())
}

/// A principal variation in notation, each move for its own mover.
fn pv_text(rules: &Rules, pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::new();
    for &mv in pv {
        out.push(move_text(mv, p.side_to_move()));
        match p.play(rules, mv) {
            Ok(n) => p = n,
            Err(_) => break,
        }
    }
    out
}

/// `bao engine`: a line protocol on stdin/stdout (see the README).
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Player file to search with (default: none, a pure search with uniform priors).
    #[arg(long)]
    pub player: Option<PathBuf>,
}

/// The engine's state between commands.
struct Engine {
    rules: Rules,
    variant: String,
    start: Position,
    pos: Position,
    player: Option<LoadedPlayer>,
}

impl Engine {
    fn command(&mut self, line: &str) -> anyhow::Result<Option<String>> {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return Ok(Some(String::new()));
        };
        let rest: Vec<&str> = words.collect();
        Ok(Some(match cmd {
            "quit" => return Ok(None),
            "variant" => {
                let name = rest.first().context("usage: variant NAME")?;
                let v: Variant = name.parse()?;
                if self
                    .player
                    .as_ref()
                    .is_some_and(|p| p.header.variant != v.name())
                {
                    bail!(
                        "the loaded player plays {}, not {}",
                        self.player
                            .as_ref()
                            .map(|p| p.header.variant.clone())
                            .unwrap_or_default(),
                        v.name()
                    );
                }
                self.rules = v.rules();
                self.variant = v.name().to_string();
                self.start = Position::start(&self.rules);
                self.pos = self.start;
                "ok".into()
            }
            "player" => {
                let path = rest.first().context("usage: player FILE")?;
                let p = LoadedPlayer::load(std::path::Path::new(path))?;
                self.rules = p.rules().clone();
                self.variant = p.header.variant.clone();
                self.start = Position::start(&self.rules);
                self.pos = self.start;
                self.player = Some(p);
                format!("ok {}", self.variant)
            }
            "position" => {
                let (base, moves) = match rest.iter().position(|w| *w == "moves") {
                    Some(i) => (&rest[..i], &rest[i + 1..]),
                    None => (&rest[..], &[][..]),
                };
                let mut pos = match base {
                    ["startpos"] | [] => self.start,
                    ["text", text @ ..] => {
                        let p: Position = text.join(" ").parse()?;
                        p.validate(&self.rules).map_err(anyhow::Error::msg)?;
                        p
                    }
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
                format!(
                    "legal {}",
                    legal_strings(&list, self.pos.side_to_move()).join(" ")
                )
            }
            "show" => format!(
                "{}\nposition {}",
                Diagram {
                    pos: &self.pos,
                    rules: &self.rules
                },
                self.pos
            ),
            "go" => {
                let sims = match rest.as_slice() {
                    ["sims", n] => Some(n.parse::<u32>().context("sims takes a number")?),
                    [] => None,
                    _ => bail!("usage: go [sims N]"),
                };
                if let Some(o) = self.pos.outcome(&self.rules) {
                    bail!("the game is over: {o:?}");
                }
                let d = match &mut self.player {
                    Some(p) => p.choose(&self.pos, sims)?,
                    None => {
                        let mut tree = Tree::new(self.pos);
                        let cfg = MctsConfig {
                            dirichlet_epsilon: 0.0,
                            ..MctsConfig::default()
                        };
                        let mut rng =
                            <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0);
                        search(
                            &mut tree,
                            &self.rules,
                            &UniformEvaluator,
                            &cfg,
                            sims.unwrap_or(400),
                            &mut rng,
                        );
                        Decision {
                            mv: tree.best_move().context("no move")?,
                            value: tree.root_value(),
                            pv: tree.pv(12),
                            sims: tree.root_visits(),
                        }
                    }
                };
                format!(
                    "bestmove {} value {:+.3} sims {} pv {}",
                    move_text(d.mv, self.pos.side_to_move()),
                    d.value,
                    d.sims,
                    pv_text(&self.rules, &self.pos, &d.pv).join(" ")
                )
            }
            other => bail!(
                "unknown command `{other}`; commands: variant, player, position, legal, show, go, quit"
            ),
        }))
    }
}

/// Runs `bao engine` until `quit` or the end of input.
pub fn run_engine(args: EngineArgs) -> anyhow::Result<()> {
    let rules = Variant::Kiswahili.rules();
    let start = Position::start(&rules);
    let mut engine = Engine {
        rules,
        variant: "kiswahili".into(),
        start,
        pos: start,
        player: None,
    };
    if let Some(p) = &args.player {
        engine.command(&format!("player {}", p.display()))?;
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    writeln!(out, "bao-zero engine ready")?;
    out.flush()?;
    for line in stdin.lock().lines() {
        match engine.command(&line?) {
            Ok(Some(reply)) => writeln!(out, "{reply}")?,
            Ok(None) => break,
            Err(e) => writeln!(out, "error {e:#}")?,
        }
        out.flush()?;
    }
    Ok(())
}
