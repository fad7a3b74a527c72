//! `bao_zero.Player`: any of the project's players (an exported `.bao` file, alpha-beta, the
//! baselines, any player spec), asked for moves on positions given as text or as an `Env`.

use crate::env::Env;
use crate::errors::{
    bug, chain_value_error, check_range, guarded, require_file, runtime_error, value_error,
};
use crate::{players, variant_rules};
use bao_zero::notation::{line_text, move_text};
use bao_zero::players::options::AbSpec;
use bao_zero::players::{Bot, Limits, PlayerPanicked, PlayerSpec};
use bao_zero::rules::{Game, MoveList, Position};
use bao_zero::trained::LoadedPlayer;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// A player's decision: the move, its value for the mover and the line it expects.
#[pyclass(name = "Choice", module = "bao_zero._core", frozen)]
#[derive(Clone, Debug)]
pub struct Choice {
    /// The move in KIBA notation (`A6<`).
    #[pyo3(get, name = "move")]
    pub mv: String,
    /// Its action id in the position where it was chosen.
    #[pyo3(get)]
    pub action: usize,
    /// The expected score for the mover in [-1, 1], if the player estimates one.
    #[pyo3(get)]
    pub value: Option<f32>,
    /// The principal variation in KIBA notation, starting with the move.
    #[pyo3(get)]
    pub pv: Vec<String>,
    /// Positions (or, for a network player, simulations) searched.
    #[pyo3(get)]
    pub nodes: u64,
    /// Depth of the last completed search iteration (0 for players that do not search).
    #[pyo3(get)]
    pub depth: u32,
}

#[pymethods]
impl Choice {
    fn __repr__(&self) -> String {
        format!(
            "Choice(move={:?}, value={:?}, pv={:?}, nodes={}, depth={})",
            self.mv, self.value, self.pv, self.nodes, self.depth
        )
    }
}

/// Other games' players a `Player` keeps, besides the one of the game it met last.
const MAX_KEPT: usize = 4;

/// The players behind one `Player`: the bot's, of the game met last, and those built for the
/// other games it met, kept (their tables, trees and random streams) for when a game comes back.
struct Seat {
    bot: Bot,
    /// The index of the bot's game among those met (0: the game it was built for).
    game: u64,
    /// The players of other games with their games' indices, the least recently used first.
    kept: Vec<(u64, Box<dyn bao_zero::players::Player>)>,
    /// Games met so far.
    met: u64,
    /// Whether the bot's player is the one built with the `Player` for Bao la Kiswahili and
    /// never asked a move: a first call in another game replaces it, as that game's first.
    provisional: bool,
}

impl Seat {
    fn new(player: Box<dyn bao_zero::players::Player>) -> Seat {
        Seat {
            bot: Bot::new(player),
            game: 0,
            kept: Vec::new(),
            met: 1,
            provisional: true,
        }
    }
}

/// The seed of the `game`th game a player meets, from its seed: the seed itself for the first
/// (the first game it is asked a move in, whichever that is), and seeds apart from it for the
/// others, so that no two games repeat one random stream.
fn game_seed(seed: u64, game: u64) -> u64 {
    match game {
        0 => seed,
        _ => bao_zero::util::hash::splitmix64(seed ^ bao_zero::util::hash::mix64(game)),
    }
}

/// A player (the Rust `bao_zero::players::Player`): `Player.load(path)` for an exported player
/// file, `Player.alphabeta(depth=...)`, `Player.random()`, `Player.greedy()` or
/// `Player.from_spec("ab:nodes=100k")`. The search runs with the GIL released (a search of the
/// Rust `Bot`, as in `bao engine`); calls from several threads take turns. A player of any game
/// asked about several games keeps what it built for each (at most five), its random stream
/// going on in each.
#[pyclass(name = "Player", module = "bao_zero._core")]
pub struct Player {
    /// The player on its bot, with those of other games. The lock is held for a whole call (a
    /// search, a change of settings), so that calls from several Python threads take turns
    /// instead of meeting the bot's refusal of a second search; it is taken with the GIL
    /// released.
    seat: Mutex<Seat>,
    /// Its name (the spec, or `player:PATH`).
    name: String,
    /// The game it is bound to (a trained player), with its text.
    bound: Option<(String, Game)>,
    /// The spec it was built from, to build it for another game (a player of any game meets
    /// the game with each call); `None` for a loaded file, bound to its own.
    spec: Option<PlayerSpec>,
    /// Its seed: the one it was built with, or the last `new_game`'s.
    seed: AtomicU64,
    /// The threads `set_threads` gave it (0: never called), given to a player built later.
    threads: AtomicUsize,
}

impl Player {
    /// The player of `spec`, built for Bao la Kiswahili until a call brings another game.
    fn from_built(spec: &PlayerSpec, seed: u64) -> PyResult<Player> {
        let kiswahili = Game::from(bao_zero::rules::Variant::Kiswahili);
        let player = guarded("building a player", || {
            players()
                .build(spec, &kiswahili, seed)
                .map_err(|e| crate::errors::chain_value_error(&e))
        })?;
        let bound = player.is_bound().then(|| {
            let r = player.game().clone();
            let name = r.to_string();
            (name, r)
        });
        Ok(Player {
            name: player.name(),
            seat: Mutex::new(Seat::new(player)),
            bound,
            spec: Some(spec.clone()),
            seed: AtomicU64::new(seed),
            threads: AtomicUsize::new(0),
        })
    }

    /// Makes the bot's player one of `game`, the check made where the game enters:
    /// the player kept for that game, or one built from the spec for a game not met yet (the
    /// player it replaces is kept); a trained player of another game is refused.
    fn fit(&self, seat: &mut Seat, game: &Game) -> PyResult<()> {
        let player = seat.bot.player().map_err(runtime_error)?;
        let Err(mismatch) = bao_zero::players::check_players(game, &[player]) else {
            return Ok(());
        };
        let Some(spec) = self.spec.as_ref().filter(|_| !player.is_bound()) else {
            return Err(value_error(mismatch));
        };
        let build = |index: u64| -> PyResult<Box<dyn bao_zero::players::Player>> {
            let seed = game_seed(self.seed.load(Ordering::Relaxed), index);
            let mut built = (players().build(spec, game, seed))
                .map_err(|e| crate::errors::chain_value_error(&e))?;
            match self.threads.load(Ordering::Relaxed) {
                0 => {}
                n => drop(built.set_threads(n)),
            }
            Ok(built)
        };
        if seat.provisional {
            // Never asked a move: the first game met is this one, with the player's own seed.
            seat.bot.swap_player(build(0)?).map_err(runtime_error)?;
            return Ok(());
        }
        let (game, next) = match seat.kept.iter().position(|(_, p)| p.game() == game) {
            Some(i) => seat.kept.remove(i),
            None => {
                let built = build(seat.met)?;
                seat.met += 1;
                (seat.met - 1, built)
            }
        };
        let previous = seat.bot.swap_player(next).map_err(runtime_error)?;
        seat.kept
            .push((std::mem::replace(&mut seat.game, game), previous));
        if seat.kept.len() > MAX_KEPT {
            seat.kept.remove(0);
        }
        Ok(())
    }

    /// The players, for this call's turn. Taken only with the GIL released (inside
    /// `Python::detach`), so that no thread ever waits for the lock while holding the GIL.
    fn seat(&self) -> PyResult<MutexGuard<'_, Seat>> {
        self.seat
            .lock()
            .map_err(|_| runtime_error("the player failed in an earlier call"))
    }

    /// Runs `change` on the player of every game it keeps, with the index of its game, with
    /// the GIL released, in its turn; the answer is the bot player's.
    fn change<T: Send>(
        &self,
        py: Python<'_>,
        change: impl Fn(&mut dyn bao_zero::players::Player, u64) -> T + Send + Sync,
    ) -> PyResult<T> {
        py.detach(|| {
            let mut seat = self.seat()?;
            let seat = &mut *seat;
            for (game, kept) in &mut seat.kept {
                change(kept.as_mut(), *game);
            }
            let player = seat.bot.player_mut().map_err(runtime_error)?;
            Ok(change(player, seat.game))
        })
    }

    /// The player's move in `pos`, searched on this thread as the bot's search, in this call's
    /// turn. Call with the GIL released.
    fn search(
        &self,
        game: &Game,
        pos: &Position,
        limits: Limits,
    ) -> PyResult<bao_zero::players::Choice> {
        let mut seat = self.seat()?;
        self.fit(&mut seat, game)?;
        seat.provisional = false;
        let bot = &mut seat.bot;
        // Other calls wait for the lock meanwhile, so only this one takes the answer.
        bot.start_here(pos, limits).map_err(runtime_error)?.run();
        let answer = bot.wait();
        match answer {
            Some(Ok(choice)) => Ok(choice),
            Some(Err(e)) => Err(match e.downcast_ref::<PlayerPanicked>() {
                Some(PlayerPanicked(why)) => {
                    bug("Player.choose", why.lines().next().unwrap_or_default())
                }
                None => chain_value_error(&e),
            }),
            None => Err(runtime_error(
                "the search's answer was taken by another call",
            )),
        }
    }

    /// The game and position to decide on: an `Env`'s, or text read in the player's own game
    /// (if bound) or that of `variant`.
    fn position_of(
        &self,
        position: &Bound<'_, PyAny>,
        variant: Option<&str>,
    ) -> PyResult<(Game, Position)> {
        if let Ok(env) = position.cast::<Env>() {
            let env = env.borrow();
            return Ok((env.env.game().clone(), *env.env.state()));
        }
        let text: String = position
            .extract()
            .map_err(|_| value_error("position must be position text (str) or a bao_zero.Env"))?;
        let rules = match (&self.bound, variant) {
            (_, Some(v)) => v.parse::<Game>().map_err(value_error)?,
            (Some((_, r)), None) => r.clone(),
            (None, None) => variant_rules("kiswahili")?.1,
        };
        let pos = Position::from_text(&text, &rules).map_err(value_error)?;
        Ok((rules, pos))
    }
}

/// The limits of one `choose`, checked as the engine's `go` checks its own (`movetime` at most a
/// week, `depth` at most alpha-beta's deepest, counts positive): a bound no search can keep
/// (a deadline past the clock's end) is a `ValueError` here, never a panic in the search.
pub(crate) fn choose_limits(
    movetime_ms: Option<u64>,
    sims: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
) -> PyResult<Limits> {
    let mut words: Vec<String> = Vec::new();
    for (key, value) in [
        ("movetime", movetime_ms),
        ("nodes", sims.or(nodes)),
        ("depth", depth.map(u64::from)),
    ] {
        if let Some(v) = value {
            words.extend([key.to_string(), v.to_string()]);
        }
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    bao_zero::cli::engine::go_limits(&words).map_err(|e| value_error(format!("{e:#}")))
}

#[pymethods]
impl Player {
    /// Loads an exported player file (`bao export`, e.g. `checkpoints/shipped/kiswahili.bao`):
    /// its network, rules and search settings. `FileNotFoundError` if there is no such file,
    /// `ValueError` if it is damaged, truncated or not a player file.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Player> {
        guarded("Player.load", || {
            require_file(&path, "player file")?;
            let loaded = crate::errors::detach(py, || LoadedPlayer::load(&path))?;
            let game = bao_zero::players::Player::game(&loaded).clone();
            let bound = Some((loaded.header.variant.clone(), game));
            let name = bao_zero::players::Player::name(&loaded);
            Ok(Player {
                seat: Mutex::new(Seat::new(Box::new(loaded))),
                name,
                bound,
                spec: None,
                seed: AtomicU64::new(0),
                threads: AtomicUsize::new(0),
            })
        })
    }

    /// The shipped player of a game (`checkpoints/shipped/<variant>.bao`, looked for under the
    /// current folder, then in the checkout the package was built from), as `bao play` and
    /// `bao engine` find it. `ValueError` for an unknown game, `FileNotFoundError` if it has none.
    #[staticmethod]
    #[pyo3(signature = (variant = "kiswahili"))]
    fn shipped(py: Python<'_>, variant: &str) -> PyResult<Player> {
        variant_rules(variant)?;
        // When there is none, the error names the path `bao play` looks for first.
        let path = bao_zero::player_file::shipped_player(variant)
            .unwrap_or_else(|| bao_zero::player_file::shipped_player_path(variant));
        require_file(&path, &format!("shipped player for {variant}"))?;
        Player::load(py, path)
    }

    /// The default player of a game, as `bao play` and `bao engine` play it: its shipped player
    /// (alpha-beta for a game with none) and, in a game solved from the start (Bao la Kujifunza,
    /// Malawi Bao basic, Hus), the perfect player first, the shipped one moving only where the
    /// solver proves nothing within a second. `ValueError` for an unknown game.
    #[staticmethod]
    #[pyo3(signature = (variant = "kiswahili"))]
    fn default(variant: &str) -> PyResult<Player> {
        let (game, _) = variant_rules(variant)?;
        Player::from_built(&bao_zero::player_file::default_player_spec(game, true), 0)
    }

    /// Alpha-beta search with the project's evaluation, to `depth` plies (and at most `nodes`
    /// positions or `movetime_ms` per move, if given: the first limit reached stops it).
    #[staticmethod]
    #[pyo3(signature = (depth = 4, nodes = None, movetime_ms = None))]
    fn alphabeta(depth: u32, nodes: Option<u64>, movetime_ms: Option<u64>) -> PyResult<Player> {
        guarded("Player.alphabeta", || {
            let limits = choose_limits(movetime_ms, None, Some(depth), nodes)?;
            let spec = PlayerSpec::AlphaBeta(AbSpec {
                limits,
                ..AbSpec::default()
            });
            Player::from_built(&spec, 0)
        })
    }

    /// Uniformly random legal moves from a seeded generator.
    #[staticmethod]
    #[pyo3(signature = (seed = 0))]
    fn random(seed: u64) -> PyResult<Player> {
        Player::from_built(&PlayerSpec::Random, seed)
    }

    /// The move capturing the most seeds, ties at random.
    #[staticmethod]
    #[pyo3(signature = (seed = 0))]
    fn greedy(seed: u64) -> PyResult<Player> {
        Player::from_built(&PlayerSpec::Greedy, seed)
    }

    /// Any player spec of the `bao` command (`random`, `greedy`, `ab:depth=6`,
    /// `ab:time=500ms`, `player:FILE`, `mcts:sims=400`, ...); `ValueError` if it is malformed.
    #[staticmethod]
    #[pyo3(signature = (spec, seed = 0))]
    fn from_spec(spec: &str, seed: u64) -> PyResult<Player> {
        guarded("Player.from_spec", || {
            let parsed: PlayerSpec = spec.parse().map_err(value_error)?;
            if let PlayerSpec::File(path) = &parsed {
                require_file(path, "player file")?;
            }
            Player::from_built(&parsed, seed)
        })
    }

    /// The player's move in `position` (position text, read with the player's rules or
    /// `variant`'s, or an `Env`), within the limits given (none: the player's own defaults;
    /// `sims` counts a network player's simulations, `nodes` a search's positions; `movetime_ms`
    /// at most a week, `depth` at most 64, as the engine's `go` takes them). Returns a `Choice`
    /// with the move text, its value and the principal variation. `ValueError` for a malformed
    /// position, one of other rules than a trained player's, a finished game or a limit out of
    /// range. A call while another thread's search on this player runs waits for it to end.
    #[pyo3(signature = (position, movetime_ms = None, sims = None, depth = None, nodes = None, variant = None))]
    // The Python method's keyword arguments, one parameter each.
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        movetime_ms: Option<u64>,
        sims: Option<u64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        variant: Option<&str>,
    ) -> PyResult<Choice> {
        guarded("Player.choose", || {
            let limits = choose_limits(movetime_ms, sims, depth, nodes)?;
            let (rules, pos) = self.position_of(position, variant)?;
            let mut list = MoveList::new();
            pos.legal_moves(&rules, &mut list);
            if let Some(o) = pos.outcome_given(&list) {
                return Err(value_error(format!(
                    "the game is over ({}): there is no move to choose",
                    match o.winner {
                        Some(w) => format!("{w} won, {}", o.reason),
                        None => format!("void, {}", o.reason),
                    }
                )));
            }
            let choice = py.detach(|| self.search(&rules, &pos, limits))?;
            Ok(Choice {
                mv: move_text(choice.mv, pos.side_to_move()),
                action: bao_zero::env::move_to_action(&pos, choice.mv),
                value: choice.eval,
                pv: line_text(&rules, &pos, &choice.pv),
                nodes: choice.nodes,
                depth: choice.depth,
            })
        })
    }

    /// Forgets the previous game (search tree, caches) and reseeds the player's randomness,
    /// in every game it keeps (after any search running on another thread).
    #[pyo3(signature = (seed = 0))]
    fn new_game(&self, py: Python<'_>, seed: u64) -> PyResult<()> {
        guarded("Player.new_game", || {
            self.seed.store(seed, Ordering::Relaxed);
            self.change(py, |p, game| p.new_game(game_seed(seed, game)))
        })
    }

    /// Lets the player search on `threads` threads (1 to 256, as the engine's `threads`);
    /// false if it always uses one (after any search running on another thread).
    fn set_threads(&self, py: Python<'_>, threads: usize) -> PyResult<bool> {
        guarded("Player.set_threads", || {
            let threads = check_range("threads", threads, 1..=crate::args::MAX_THREADS as usize)?;
            let taken = self.change(py, |p, _| p.set_threads(threads))?;
            self.threads.store(threads, Ordering::Relaxed);
            Ok(taken)
        })
    }

    /// The player's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The preset a trained player plays (`"kiswahili"`), or `None` for players of any rules.
    #[getter]
    fn variant(&self) -> Option<&str> {
        self.bound.as_ref().map(|(v, _)| v.as_str())
    }

    fn __repr__(&self) -> String {
        format!("Player({:?})", self.name)
    }

    /// A player holds a search's threads and a network, which do not travel in a pickle:
    /// `TypeError` saying how to build it again where it is wanted.
    fn __reduce__(&self) -> PyResult<()> {
        Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "cannot pickle Player({:?}): it holds search threads and a network; build it again \
             where it is needed, with Player.load(path), Player.shipped(variant) or \
             Player.from_spec(spec)",
            self.name
        )))
    }
}
