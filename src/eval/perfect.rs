//! Players measured against perfect play (`bao judge`): over positions the exact solver has
//! proven, how often a player's move keeps the position's value (a won position stays won), and
//! how often a player given a won position wins it against the perfect defender.
//!
//! Only positions in which the choice matters count: a won position where some move gives the
//! win away, a drawn one where some move loses. A lost position cannot be made worse, and one in
//! which every move keeps the value says nothing about the player.

use crate::eval::arena::play_game;
use crate::eval::elo::wilson;
use crate::players::player::{Choice, Limits, Player};
use crate::rules::{Move, Position, Rules, Side};
use crate::search::solver::{MoveValue, Solver, Value, cache};
use serde::Serialize;
use std::path::Path;
use std::time::{Duration, Instant};

/// A position with the value of each of its legal moves, as the solver proved them.
#[derive(Clone, Debug)]
pub struct Proven {
    /// The position.
    pub pos: Position,
    /// Its value for the side to move.
    pub value: Value,
    /// Every legal move with its value for the mover.
    pub moves: Vec<MoveValue>,
}

impl Proven {
    /// The proven value of `mv` for the mover, if `mv` is one of the position's moves.
    pub fn value_of(&self, mv: Move) -> Option<Value> {
        self.moves.iter().find(|m| m.mv == mv).map(|m| m.value)
    }

    /// Whether some move gives the value away (so the player's choice is tested here).
    pub fn is_critical(&self) -> bool {
        self.value != Value::Loss && self.moves.iter().any(|m| m.value != self.value)
    }
}

/// A count out of a total, with its 95% interval (in JSON: `count`, `of`, and the interval's
/// `low` and `high` as fractions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Share {
    /// The events counted.
    pub count: u64,
    /// Out of this many trials.
    pub of: u64,
}

impl Share {
    /// Counts one trial, an event if `hit`.
    pub fn add(&mut self, hit: bool) {
        self.count += u64::from(hit);
        self.of += 1;
    }

    /// The observed proportion (0 for no trials).
    pub fn ratio(&self) -> f64 {
        if self.of == 0 {
            0.0
        } else {
            self.count as f64 / self.of as f64
        }
    }

    /// Wilson's 95% interval of the proportion.
    pub fn interval(&self) -> (f64, f64) {
        if self.of == 0 {
            (0.0, 1.0)
        } else {
            wilson(self.ratio(), self.of as f64)
        }
    }
}

impl Serialize for Share {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let (low, high) = self.interval();
        let mut s = serializer.serialize_struct("Share", 4)?;
        s.serialize_field("count", &self.count)?;
        s.serialize_field("of", &self.of)?;
        s.serialize_field("low", &low)?;
        s.serialize_field("high", &high)?;
        s.end()
    }
}

impl std::fmt::Display for Share {
    /// `47 of 50 = 94.0% [83.8, 97.9]`, or `none` for no trials.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.of == 0 {
            return f.write_str("none");
        }
        let (lo, hi) = self.interval();
        write!(
            f,
            "{} of {} = {:.1}% [{:.1}, {:.1}]",
            self.count,
            self.of,
            self.ratio() * 100.0,
            lo * 100.0,
            hi * 100.0
        )
    }
}

/// Solves `pos` and each of its moves within `time` each, answering from (and adding to) the
/// on-disk cache in `cache_dir` when one is given; `None` if the solver ran out of time, now or in
/// an earlier try given at least `time` (the cache remembers that too).
pub fn prove(
    rules: &Rules,
    pos: &Position,
    solver: &mut Solver,
    time: Duration,
    cache_dir: Option<&Path>,
) -> anyhow::Result<Option<Proven>> {
    // A cache file that cannot be read is solved again and written over.
    let cached = cache_dir.and_then(|dir| cache::load(dir, rules, pos).ok().flatten());
    if let Some(cache::Cached {
        solution,
        moves: Some(moves),
        ..
    }) = cached
    {
        return Ok(Some(Proven {
            pos: *pos,
            value: solution.value,
            moves,
        }));
    }
    let seconds = time.as_secs_f64();
    if let Some(dir) = cache_dir
        && cache::gave_up(dir, rules, pos).is_some_and(|tried| tried >= seconds)
    {
        return Ok(None);
    }
    solver.set_limits(Some(time), None);
    let solved = solver
        .solve(rules, pos)
        .and_then(|solution| Ok((solution, solver.move_values(rules, pos)?.0)));
    let Ok((solution, moves)) = solved else {
        if let Some(dir) = cache_dir {
            cache::store_gave_up(dir, rules, pos, seconds)?;
        }
        return Ok(None);
    };
    if let Some(dir) = cache_dir {
        cache::store(dir, rules, pos, &solution, Some(&moves))?;
    }
    Ok(Some(Proven {
        pos: *pos,
        value: solution.value,
        moves,
    }))
}

/// How one player's moves fared against the proven values.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Keeping {
    /// Critical won positions in which the player's move kept the win.
    pub won: Share,
    /// Critical drawn positions in which the player's move kept the draw.
    pub drawn: Share,
    /// The median time the player took for a move, in seconds.
    pub median_seconds: f64,
}

/// Asks `player` for its move in every critical position of `proven` and counts the moves that
/// keep the value; `on_position` is called after each position.
pub fn keeping(
    proven: &[Proven],
    player: &mut dyn Player,
    limits: &Limits,
    mut on_position: impl FnMut(),
) -> anyhow::Result<Keeping> {
    let mut out = Keeping::default();
    let mut times = Vec::new();
    for (i, p) in proven.iter().filter(|p| p.is_critical()).enumerate() {
        player.new_game(i as u64);
        let started = Instant::now();
        let choice = player.choose(&p.pos, limits)?;
        times.push(started.elapsed().as_secs_f64());
        let kept = p.value_of(choice.mv) == Some(p.value);
        match p.value {
            Value::Win => out.won.add(kept),
            Value::Draw => out.drawn.add(kept),
            Value::Loss => {}
        }
        on_position();
    }
    out.median_seconds = if times.is_empty() {
        0.0
    } else {
        crate::util::median(&times)
    };
    Ok(out)
}

/// Plays each won position `won` to its end, `player` (within `limits`) for the side to move and
/// `defender` (within its own limits) for the other, and counts the games the player wins (a game
/// reaching `max_plies` is not won).
pub fn converting(
    rules: &Rules,
    won: &[Position],
    player: &mut dyn Player,
    defender: &mut dyn Player,
    limits: &Limits,
    max_plies: usize,
    mut on_game: impl FnMut(),
) -> anyhow::Result<Share> {
    let mut out = Share::default();
    for (i, start) in won.iter().enumerate() {
        player.new_game(i as u64);
        defender.new_game(i as u64);
        let mover = start.side_to_move();
        let mut player = Limited {
            player: &mut *player,
            limits: *limits,
        };
        let mut defender = Limited {
            player: &mut *defender,
            limits: Limits::NONE,
        };
        let (south, north): (&mut dyn Player, &mut dyn Player) = match mover {
            Side::South => (&mut player, &mut defender),
            Side::North => (&mut defender, &mut player),
        };
        let game = play_game(
            rules,
            start,
            south,
            north,
            &Limits::NONE,
            max_plies,
            |_, _, _| {},
        )?;
        out.add(game.winner == Some(mover));
        on_game();
    }
    Ok(out)
}

/// A player that searches within its own limits, whatever the game gives.
struct Limited<'a> {
    player: &'a mut dyn Player,
    limits: Limits,
}

impl Player for Limited<'_> {
    fn name(&self) -> String {
        self.player.name()
    }

    fn rules(&self) -> &Rules {
        self.player.rules()
    }

    fn is_bound(&self) -> bool {
        self.player.is_bound()
    }

    fn choose(&mut self, pos: &Position, _: &Limits) -> anyhow::Result<Choice> {
        self.player.choose(pos, &self.limits)
    }
}
