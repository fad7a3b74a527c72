//! The player interface shared by every way of choosing moves: random, greedy, alpha-beta, and
//! (behind the `ml` feature, later) MCTS with a network.

use crate::rules::{Game, Move, Position, Rules};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How much a player may think about one move. Every field is optional; a player stops at the
/// first limit reached. With none set a player uses its own default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Search depth in plies.
    pub depth: Option<u32>,
    /// Positions visited.
    pub nodes: Option<u64>,
    /// Wall-clock time for the move.
    pub time: Option<Duration>,
}

impl Limits {
    /// No limit at all (the player's own defaults apply).
    pub const NONE: Limits = Limits {
        depth: None,
        nodes: None,
        time: None,
    };

    /// A depth limit only.
    pub const fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            nodes: None,
            time: None,
        }
    }

    /// A node limit only.
    pub const fn nodes(nodes: u64) -> Limits {
        Limits {
            depth: None,
            nodes: Some(nodes),
            time: None,
        }
    }

    /// A time limit only.
    pub const fn time(time: Duration) -> Limits {
        Limits {
            depth: None,
            nodes: None,
            time: Some(time),
        }
    }

    /// The time for one move from a game clock: `remaining` on the mover's clock and `increment`
    /// added after each move. About a thirtieth of what is left plus most of the increment, never
    /// more than a third of what is left, so the clock cannot run out.
    pub fn from_clock(remaining: Duration, increment: Duration) -> Limits {
        let share = remaining / 30 + increment * 3 / 4;
        let safe = remaining.saturating_sub(Duration::from_millis(20)) / 3;
        Limits::time(share.min(safe).max(Duration::from_millis(1)))
    }

    /// Whether no limit is set.
    pub fn is_none(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time.is_none()
    }

    /// The tighter of two sets of limits, field by field.
    pub fn min(&self, other: &Limits) -> Limits {
        fn tighter<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, None) => x,
                (None, y) => y,
            }
        }
        Limits {
            depth: tighter(self.depth, other.depth),
            nodes: tighter(self.nodes, other.nodes),
            time: tighter(self.time, other.time),
        }
    }

    /// Whether the result of a search under these limits depends only on the position and the
    /// player's state (no time limit).
    pub fn is_deterministic(&self) -> bool {
        self.time.is_none()
    }

    /// The limits as match headers print them: `depth 3, 10000 nodes, 500ms`, or `none`.
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        if let Some(t) = self.time {
            parts.push(format!("{}ms", t.as_millis()));
        }
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }
}

/// A player's decision for one position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    /// The move to play.
    pub mv: Move,
    /// The expected score for the mover in [-1, 1] (1 = a sure win), if the player estimates one.
    pub eval: Option<f32>,
    /// The principal variation, starting with `mv` (may be just `mv`).
    pub pv: Vec<Move>,
    /// Positions visited to decide.
    pub nodes: u64,
    /// Depth of the last completed search iteration (0 for players that do not search).
    pub depth: u32,
}

impl Choice {
    /// A choice without search information.
    pub fn just(mv: Move) -> Choice {
        Choice {
            mv,
            eval: None,
            pv: vec![mv],
            nodes: 0,
            depth: 0,
        }
    }
}

/// A move a search weighed at the root, for analysis displays.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Simulations (or nodes) spent below it.
    pub visits: u32,
    /// Its share of the root's visits, in [0, 1].
    pub share: f32,
    /// Its expected score for the mover in [-1, 1], if searched.
    pub value: Option<f32>,
    /// The line the search expects, starting with `mv`.
    pub pv: Vec<Move>,
}

/// Something that chooses moves in one game. A player is built for its game (the [`Game`] it
/// is given, or a trained network's own), and front ends check that game once, when they build
/// it ([`check_players`]), so that asking for a move is only a position and limits. Players are `Send` so an arena
/// can run games in parallel; each game gets its own players.
pub trait Player: Send {
    /// A short name for tables and game records.
    fn name(&self) -> String;

    /// The game this player plays.
    fn game(&self) -> &Game;

    /// The rules of that game.
    fn rules(&self) -> &Rules {
        self.game().rules()
    }

    /// Whether that game is the player's own, whatever game it was built for: a trained network
    /// plays only the game it learned. Front ends that take the game from the players (`bao
    /// eval` without `--variant`, the engine's `player`) ask this.
    fn is_bound(&self) -> bool {
        false
    }

    /// What the player spends on a move when the caller gives no limits, as match headers print
    /// it: `none` for a player that does not search (random, greedy, a Python policy), else its
    /// own default (`depth 4`, `200 simulations`...). A caller's limits tighten it.
    fn default_budget(&self) -> String {
        "none".into()
    }

    /// The move to play in `pos`, a position of [`Player::rules`]'s game that is not finished,
    /// within `limits` (tightened by the player's own limits, if it has any).
    fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice>;

    /// Lets the player use `threads` threads; false if it always runs on one.
    fn set_threads(&mut self, threads: usize) -> bool {
        threads == 1
    }

    /// Gives the player a flag that, once set, asks it to end the current search and answer
    /// with the best move found so far; false if it cannot stop early (it then ends its search
    /// within its limits).
    fn set_stop(&mut self, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> bool {
        let _ = stop;
        false
    }

    /// Forget everything from the previous game and reseed the player's randomness.
    fn new_game(&mut self, seed: u64) {
        let _ = seed;
    }

    /// The moves the last [`choose`](Player::choose) weighed, best first; empty for players
    /// that keep no statistics (an MCTS player gives every root move with its visit share,
    /// value and line).
    fn candidates(&self) -> Vec<Candidate> {
        Vec::new()
    }
}

/// Why players cannot play a game together: the one line that every front end (matches,
/// gauntlets, `bao play`, `bao judge`, the engine, the server, Python) prints.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameMismatch {
    /// Two players bound to different games.
    #[error(
        "{first} plays {first_game} and {second} plays {second_game}: a game needs players of one game"
    )]
    Apart {
        /// The first bound player's name.
        first: String,
        /// Its game, as text.
        first_game: String,
        /// The name of a bound player of another game.
        second: String,
        /// Its game, as text.
        second_game: String,
    },
    /// A player of another game than the one set up.
    #[error("{player} plays {plays}, not {game}: a trained player plays only the game it learned")]
    Elsewhere {
        /// The player's name.
        player: String,
        /// The game it plays, as text.
        plays: String,
        /// The game set up, as text.
        game: String,
    },
}

/// The one check of whether `players` can play `game`, made where a game is set up, before any
/// move: players bound to different games are refused first (naming both games), then any
/// player of another game. Players bound to no game were built for `game`, so in practice only
/// trained players are refused.
pub fn check_players(game: &Game, players: &[&dyn Player]) -> Result<(), GameMismatch> {
    let mut bound = players.iter().filter(|p| p.is_bound());
    if let Some(a) = bound.next()
        && let Some(b) = bound.find(|b| b.game() != a.game())
    {
        return Err(GameMismatch::Apart {
            first: a.name(),
            first_game: a.game().to_string(),
            second: b.name(),
            second_game: b.game().to_string(),
        });
    }
    match players.iter().find(|p| p.game() != game) {
        Some(p) => Err(GameMismatch::Elsewhere {
            player: p.name(),
            plays: p.game().to_string(),
            game: game.to_string(),
        }),
        None => Ok(()),
    }
}
