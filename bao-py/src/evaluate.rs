//! `bao_zero.evaluate`: a Python policy against any player spec, in the arena `bao eval` plays
//! (pairs of games from the same random opening, each side once) and reported as `bao eval`
//! reports (score with its 95% interval, Elo).

use crate::args::{int_arg, opt_int_arg};
use crate::errors::{runtime_error, value_error};
use crate::pyjson::json_to_py;
use crate::rules_arg::rules_of;
use bao_zero::env::{ACTIONS, OBS_CHANNELS, OBS_LEN, action_to_move, encode, legal_mask_bits};
use bao_zero::eval::arena::{MAX_GAMES, MAX_OPENING_PLIES, MatchConfig, MatchResult, run_match};
use bao_zero::players::{Choice, Limits, Player, PlayerSpec};
use bao_zero::rules::{Game, MoveList, Position};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

/// The kind under which the policy is registered for the match.
const KIND: &str = "python-policy";

/// How often the caller's thread, waiting for the match, runs Python's signal handlers.
const SIGNAL_CHECK: Duration = Duration::from_millis(20);

/// A question of the match to the policy: its action in `pos`, answered on `reply` (or why
/// there is none).
struct Ask {
    pos: Position,
    reply: Sender<Result<usize, String>>,
}

/// The policy as a player of the arena: it hands each position to the caller's thread, where
/// the policy runs (see [`Policy`]).
struct PolicyPlayer {
    game: Game,
    name: String,
    asks: Sender<Ask>,
}

impl Player for PolicyPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn game(&self) -> &Game {
        &self.game
    }

    fn choose(&mut self, pos: &Position, _: &Limits) -> anyhow::Result<Choice> {
        let stopped = || anyhow::anyhow!("the evaluation was stopped");
        let (reply, answer) = channel();
        let ask = Ask { pos: *pos, reply };
        self.asks.send(ask).map_err(|_| stopped())?;
        match answer.recv().map_err(|_| stopped())? {
            Ok(action) => Ok(Choice::just(action_to_move(pos, action)?)),
            Err(why) => anyhow::bail!("the policy failed: {why}"),
        }
    }
}

/// The Python callable `(observation, mask) -> action`, called on the caller's thread: there
/// Python runs its signal handlers, so Ctrl-C raises `KeyboardInterrupt` in the policy itself,
/// and the policy is never called from two threads at once.
struct Policy<'py> {
    callable: Bound<'py, PyAny>,
    rules: Game,
    moves: MoveList,
    /// The first error raised (by the policy, or Ctrl-C meanwhile): every later question is
    /// refused, so the match ends at once, and it is raised again as it was.
    raised: Option<PyErr>,
}

impl<'py> Policy<'py> {
    /// Answers the match's questions until it ends, running Python's signal handlers while
    /// the opponent thinks.
    fn serve(&mut self, mut asks: Receiver<Ask>) {
        let py = self.callable.py();
        loop {
            // The receiver goes to the waiting and back (a receiver is never shared).
            let (back, asked) = py.detach(move || {
                let asked = asks.recv_timeout(SIGNAL_CHECK);
                (asks, asked)
            });
            asks = back;
            match asked {
                Ok(ask) => {
                    let answer = self.answer(&ask.pos);
                    // A match that failed meanwhile no longer waits for the answer.
                    let _ = ask.reply.send(answer);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.raised.get_or_insert(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    /// The policy's action in `pos`, or why there is none.
    fn answer(&mut self, pos: &Position) -> Result<usize, String> {
        if self.raised.is_some() {
            return Err("the evaluation was stopped".into());
        }
        self.ask(pos).map_err(|e| {
            let text = e.to_string();
            self.raised = Some(e);
            text
        })
    }

    /// Plays the match `cfg` on a thread of its own, answering its questions here; the
    /// policy's first error is raised again as it was.
    fn play(mut self, cfg: MatchConfig, questions: Receiver<Ask>) -> PyResult<MatchResult> {
        // One game at a time: the policy answers one question at a time anyway.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .map_err(runtime_error)?;
        let result = std::thread::scope(|s| {
            let pool = &pool;
            let games = s.spawn(move || {
                let result = pool.install(|| run_match(&cfg));
                // The policy's questions end with the match: this thread stops serving them.
                drop(cfg);
                result
            });
            self.serve(questions);
            (games.join()).unwrap_or_else(|_| Err(anyhow::anyhow!("the match failed")))
        });
        if let Some(e) = self.raised.take() {
            return Err(e);
        }
        result.map_err(|e| value_error(format!("{e:#}")))
    }

    /// Asks the policy for an action in `pos` and checks it.
    fn ask(&mut self, pos: &Position) -> PyResult<usize> {
        let (py, rules) = (self.callable.py(), &self.rules);
        pos.legal_moves(rules, &mut self.moves);
        let bits = legal_mask_bits(pos, &self.moves);
        let obs = PyArray3::<f32>::zeros(py, [OBS_CHANNELS, 4, 8], false);
        // SAFETY: the array was just created here and nothing else refers to it yet.
        let out = unsafe { obs.as_slice_mut() }.expect("a new array is contiguous");
        debug_assert_eq!(out.len(), OBS_LEN);
        encode(rules, pos, out);
        let mask: Vec<i8> = (0..ACTIONS).map(|a| (bits >> a & 1) as i8).collect();
        let mask = PyArray1::from_vec(py, mask);
        let answer = self.callable.call1((obs, mask))?;
        let action = int_arg(&answer, "the policy's action", 0, ACTIONS as u64 - 1)? as usize;
        if bits >> action & 1 == 0 {
            return Err(value_error(format!(
                "the policy chose action {action}, which is illegal in {pos}"
            )));
        }
        Ok(action)
    }
}

/// `evaluate(policy, opponent="random", variant="kiswahili", games=100, seed=0,
/// opening_plies=4, max_plies=400, rules=None, name="policy", movetime_ms=None, sims=None,
/// depth=None, nodes=None)`: plays `policy`, a callable
/// `(observation, mask) -> action` (the observation float32 `(27, 4, 8)` for the player to
/// move, the mask int8 `(64,)`), against the player `opponent` (any spec of the `bao` command:
/// `"random"`, `"greedy"`, `"ab:depth=3"`, `"player:FILE.bao"`, ...), as `bao eval` does:
/// `games` games in pairs from the same `opening_plies` random plies, the policy South in one
/// game of a pair and North in the other, a game reaching `max_plies` a draw. The opponent
/// searches each move within `movetime_ms`, `sims`, `depth` or `nodes` as `bao eval`'s
/// `--movetime`, `--sims`, `--depth` and `--nodes` bound it (none: its own default), checked as
/// `Player.choose` checks them. Returns a dict
/// from the policy's side with the keys `bao eval --json` prints (one layout, written once in
/// Rust): among them `games`, `distinct_games` (games that repeat move for move count once in
/// the score and its interval, and `warning` says so; else it is `None`), `wins`, `draws`,
/// `losses`, `score`, `score_low`, `score_high` (95%), `elo`, `elo_low`, `elo_high`, `elo_text`,
/// `model`, `budget_a` and `budget_b` (each player's own budget a move), `limits`, `game_list`
/// and `summary` (the text `bao eval` prints). The games are played one at a time, and the policy is called on the
/// caller's thread only. The first exception in the policy (`KeyboardInterrupt` included, or one
/// raised by Ctrl-C while the opponent thinks) ends the evaluation at once and is raised again
/// as it was; an illegal action is a `ValueError`.
#[pyfunction]
#[pyo3(
    signature = (policy, opponent = "random", variant = "kiswahili", games = None, seed = None, opening_plies = None, max_plies = None, rules = None, name = "policy", movetime_ms = None, sims = None, depth = None, nodes = None),
    text_signature = "(policy, opponent='random', variant='kiswahili', games=100, seed=0, opening_plies=4, max_plies=400, rules=None, name='policy', movetime_ms=None, sims=None, depth=None, nodes=None)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn evaluate<'py>(
    py: Python<'py>,
    policy: Bound<'py, PyAny>,
    opponent: &str,
    variant: &str,
    games: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    opening_plies: Option<&Bound<'py, PyAny>>,
    max_plies: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
    name: &str,
    movetime_ms: Option<u64>,
    sims: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    if !policy.is_callable() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "policy must be a callable (observation, mask) -> action",
        ));
    }
    let games = opt_int_arg(games, "games", 1, MAX_GAMES as u64, 100)? as usize;
    let seed = opt_int_arg(seed, "seed", 0, u64::MAX, 0)?;
    let opening = opt_int_arg(
        opening_plies,
        "opening_plies",
        0,
        MAX_OPENING_PLIES.into(),
        4,
    )?;
    let max_plies = opt_int_arg(max_plies, "max_plies", 1, u32::MAX.into(), 400)? as usize;
    let (v, rules) = rules_of(variant, rules)?;
    let b: PlayerSpec = opponent.parse().map_err(value_error)?;
    let mut players = crate::players().clone();
    let (asks, questions) = channel::<Ask>();
    let label = name.to_string();
    players.register(KIND, move |_, _, game, _| {
        Ok(Box::new(PolicyPlayer {
            game: game.clone(),
            name: label.clone(),
            asks: asks.clone(),
        }))
    });
    let a: PlayerSpec = KIND.parse().map_err(value_error)?;
    let mut cfg = MatchConfig::new(a, b, v);
    cfg.game = rules.clone();
    cfg.games = games;
    cfg.seed = seed;
    cfg.opening_plies = opening as u32;
    cfg.max_plies = max_plies;
    cfg.limits = crate::player::choose_limits(movetime_ms, sims, depth, nodes)?;
    cfg.progress = false;
    cfg.players = players;
    let served = Policy {
        callable: policy,
        rules,
        moves: MoveList::new(),
        raised: None,
    };
    let result = served.play(cfg, questions)?;
    let e = result.estimate;
    let dict = json_to_py(py, &result.to_json())?;
    // An unbounded end of the Elo interval (a score of 0% or 100%) is an infinite float; JSON
    // could only say null.
    dict.set_item("elo_low", e.elo_low)?;
    dict.set_item("elo_high", e.elo_high)?;
    Ok(dict)
}
