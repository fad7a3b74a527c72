//! The game on the server: the rules, the start, the moves played, the position being looked at,
//! who sits on each side, and the last move's step-by-step frames. The page only shows it, so a
//! reload loses nothing.

use super::sowing::{Frame, frames};
use crate::board_svg::{board_svg, status_line};
use crate::notation::{MoveSpec, Record, move_text};
use crate::players::Bot;
use crate::rules::{Move, MoveKind, MoveList, Pit, Position, Row, Rules, Side, Stage};
use serde::Serialize;
use serde_json::{Value, json};

/// A request the game cannot carry out: answered with 4xx and the message.
#[derive(Debug)]
pub struct Refusal(pub String);

impl<E: std::fmt::Display> From<E> for Refusal {
    fn from(e: E) -> Refusal {
        Refusal(format!("{e:#}").replace('\n', " "))
    }
}

/// Who plays a side: a person at the page, or a player spec.
pub const HUMAN: &str = "human";

/// The last move played, shown step by step.
#[derive(Clone, Debug, Serialize)]
pub struct LastMove {
    /// Its ply number (1-based).
    pub ply: usize,
    /// Its text.
    pub text: String,
    /// The board after each step.
    pub frames: Vec<Frame>,
}

/// One game: everything the page shows.
pub struct Table {
    /// The variant's name.
    pub variant: String,
    /// Its rules.
    pub rules: Rules,
    /// The position the game started from.
    pub start: Position,
    /// Every position of the game: `positions[0]` is the start, `positions[i]` follows `moves[i-1]`.
    pub positions: Vec<Position>,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The ply being looked at (`0..=moves.len()`); a move played there cuts the moves after it.
    pub cursor: usize,
    /// South's and North's seat: [`HUMAN`] or a player spec.
    pub seats: [String; 2],
    /// The players of the seats that are not human (taken out while they think).
    pub players: [Option<Bot>; 2],
    /// Time per move of the players, in milliseconds.
    pub time_ms: u64,
    /// The last move's frames.
    pub last: Option<LastMove>,
    /// A player is thinking (its move will change the game).
    pub thinking: bool,
    /// A word for the page (the last thing that happened).
    pub message: String,
}

impl Table {
    /// A new game of `variant` from `start` (the variant's start if `None`).
    pub fn new(variant: &str, rules: Rules, start: Option<Position>) -> Table {
        let start = start.unwrap_or_else(|| Position::start(&rules));
        Table {
            variant: variant.to_string(),
            rules,
            start,
            positions: vec![start],
            moves: Vec::new(),
            cursor: 0,
            seats: [HUMAN.to_string(), HUMAN.to_string()],
            players: [None, None],
            time_ms: 1000,
            last: None,
            thinking: false,
            message: String::new(),
        }
    }

    /// The position looked at.
    pub fn current(&self) -> Position {
        self.positions[self.cursor]
    }

    /// The legal moves of the position looked at (none once the game is over).
    pub fn legal(&self) -> Vec<Move> {
        let pos = self.current();
        if pos.result().is_some() {
            return Vec::new();
        }
        let mut list = MoveList::new();
        pos.legal_moves(&self.rules, &mut list);
        list.moves().to_vec()
    }

    /// Whether the side to move at the position looked at is a person.
    pub fn human_to_move(&self) -> bool {
        self.seats[self.current().side_to_move().index()] == HUMAN
    }

    /// Plays `mv` at the position looked at (cutting any moves after it) and keeps its frames.
    pub fn play(&mut self, mv: Move) -> Result<(), Refusal> {
        let pos = self.current();
        let side = pos.side_to_move();
        let (child, frames) = frames(&self.rules, &pos, mv).ok_or_else(|| {
            Refusal(format!(
                "{} is not legal here",
                move_text(mv, pos.side_to_move())
            ))
        })?;
        self.moves.truncate(self.cursor);
        self.positions.truncate(self.cursor + 1);
        self.moves.push(mv);
        self.positions.push(child);
        self.cursor += 1;
        let text = move_text(mv, side);
        self.message = format!("{side} played {text}");
        self.last = Some(LastMove {
            ply: self.cursor,
            text,
            frames,
        });
        Ok(())
    }

    /// Plays a move written in KIBA notation (`A6<`, `b3>+`), or says why it cannot be played.
    pub fn play_text(&mut self, text: &str) -> Result<(), Refusal> {
        let pos = self.current();
        if pos.outcome(&self.rules).is_some() {
            return Err(Refusal(format!(
                "the game is over: {}",
                status_line(&pos, &self.rules)
            )));
        }
        let text = text.trim();
        let mut list = MoveList::new();
        pos.legal_moves(&self.rules, &mut list);
        let found = MoveSpec::parse(text, pos.side_to_move())
            .and_then(|spec| spec.resolve(text, &pos, &list));
        match found {
            Ok(mv) => self.play(mv),
            Err(e) => {
                let why = pit_of(text).and_then(|(side, pit)| self.why_not(side, pit));
                Err(Refusal(match why {
                    Some(why) => format!("{text}: {why}"),
                    None => e.to_string(),
                }))
            }
        }
    }

    /// Why no legal move starts at `side`'s `pit`, in words; `None` if some move does.
    pub fn why_not(&self, side: Side, pit: Pit) -> Option<String> {
        let pos = self.current();
        let mover = pos.side_to_move();
        let legal = self.legal();
        if legal.iter().any(|m| m.pit == pit && side == mover) {
            return None;
        }
        let name = pit.name(side);
        let seeds = pos.seeds(side, pit);
        let list: Vec<String> = {
            let mut v: Vec<String> = legal.iter().map(|&m| move_text(m, mover)).collect();
            v.sort();
            v.dedup();
            v
        };
        let legal_text = if list.is_empty() {
            "none".to_string()
        } else {
            list.join(" ")
        };
        let reason = if pos.outcome(&self.rules).is_some() {
            "the game is over".to_string()
        } else if side != mover {
            format!("{name} is {side}'s pit and {mover} is to move")
        } else if pos.blocked() == Some(pit) {
            format!("takasia: {name} may not be played this move")
        } else if pos.stage() == Stage::Namua && pit.row() == Row::Back {
            "in the namua stage a seed is planted in a front-row pit (A)".to_string()
        } else if seeds == 0 && pos.stage() != Stage::Namua {
            format!("{name} is empty")
        } else if seeds == 1 && pos.stage() == Stage::Mtaji {
            format!("{name} holds one seed; a move lifts two or more")
        } else if pos.target().is_some() {
            format!(
                "takasia: the move must capture {}",
                pos.target()
                    .map(|t| t.name(mover.opponent()))
                    .unwrap_or_default()
            )
        } else if legal.iter().any(|m| m.kind != MoveKind::Sow) {
            format!("{name} is not among the opening's moves")
        } else {
            format!("no legal move starts at {name} (a capture elsewhere may be compulsory)")
        };
        Some(format!("{reason}; legal moves: {legal_text}"))
    }

    /// Takes back moves until a person is to move again (at least one move), from the end.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        if self.moves.is_empty() {
            return Err(Refusal("there is no move to take back".to_string()));
        }
        self.cursor = self.moves.len();
        loop {
            self.moves.pop();
            self.positions.pop();
            self.cursor -= 1;
            if self.moves.is_empty() || self.human_to_move() {
                break;
            }
        }
        self.last = None;
        self.message = format!("taken back to ply {}", self.cursor);
        Ok(())
    }

    /// Looks at ply `ply` (0 = the start).
    pub fn goto(&mut self, ply: usize) -> Result<(), Refusal> {
        if ply > self.moves.len() {
            return Err(Refusal(format!(
                "ply {ply} is past the game's {} moves",
                self.moves.len()
            )));
        }
        self.cursor = ply;
        self.last = None;
        Ok(())
    }

    /// The game as a KIBA record.
    pub fn record(&self) -> String {
        let mut rec = Record::from_game(&self.rules, &self.start, &self.moves).unwrap_or_default();
        rec.set_tag("Variant", self.variant.clone());
        rec.set_tag("South", self.seats[0].clone());
        rec.set_tag("North", self.seats[1].clone());
        if self.start != Position::start(&self.rules) {
            rec.set_tag("Position", self.start.to_string());
        }
        rec.to_string()
    }

    /// Everything the page shows, as JSON.
    pub fn view(&self) -> Value {
        let pos = self.current();
        let mover = pos.side_to_move();
        let legal: Vec<Value> = self
            .legal()
            .into_iter()
            .map(|m| json!({ "text": move_text(m, mover), "pit": m.pit.name(mover) }))
            .collect();
        let mut texts = Vec::new();
        let mut p = self.start;
        for (i, &m) in self.moves.iter().enumerate() {
            texts.push(json!({ "ply": i + 1, "side": p.side_to_move().to_string(), "text": move_text(m, p.side_to_move()) }));
            p = self.positions[i + 1];
        }
        json!({
            "variant": self.variant,
            "seats": { "south": self.seats[0], "north": self.seats[1] },
            "time_ms": self.time_ms,
            "moves": texts,
            "cursor": self.cursor,
            "position": pos.to_string(),
            "svg": board_svg(&pos, &self.rules),
            "legal": legal,
            "to_move": mover.to_string(),
            "human_to_move": self.human_to_move(),
            "over": pos.outcome(&self.rules).is_some(),
            "status": status_line(&pos, &self.rules),
            "thinking": self.thinking,
            "message": self.message,
            "last": self.last,
            "record": self.record(),
        })
    }
}

/// The pit named at the start of a move text (`A6<` names South's A6).
fn pit_of(text: &str) -> Option<(Side, Pit)> {
    let mut chars = text.chars();
    let (side, row) = match chars.next()? {
        'A' => (Side::South, Row::Front),
        'B' => (Side::South, Row::Back),
        'a' => (Side::North, Row::Front),
        'b' => (Side::North, Row::Back),
        _ => return None,
    };
    let n = chars.next()?.to_digit(10)?;
    Some((side, Pit::at(row, n as u8)?))
}
