//! The perfect player (`solver`, `solver:time=10s,memory=256`). It solves the position, then
//! every legal move, and takes a winning move when there is one (the one with the shortest proven
//! line), else a drawing move, else the losing move whose proven loss is the longest (the length
//! of the opponent's proof line, found by iterative deepening: the most plies the solver shows the
//! loss to last). If the moves are not all solved in the time left, it plays the solution's best
//! move, which keeps the value; if the position itself is not solved within the limits, it falls
//! back to another player, so it always answers: the player the last option names
//! (`solver:time=1s,else=player:checkpoints/shipped/hus.bao`), alpha-beta at depth 4 by default.
//! That player gets the caller's limits (a node limit is its own), less the time the solver
//! spent; the solver takes at most half of a time limit the caller gives.

use super::{MoveValue, SolveLimits, Solver, Value};
use crate::players::player::{Choice, Limits, Player};
use crate::rules::{Game, Position};
use crate::search::alphabeta::AlphaBeta;
use anyhow::bail;
use std::time::Duration;

/// The time a move may take when neither the spec nor the caller says.
pub const DEFAULT_TIME: Duration = Duration::from_secs(10);
use crate::players::SolverSpec;

/// The perfect player (see the module docs).
pub struct SolverPlayer {
    name: String,
    /// The game: the fallback's.
    game: Game,
    spec: SolverSpec,
    solver: Solver,
    /// Moves where the solver proves nothing in time.
    fallback: Box<dyn Player>,
    /// Whether the last move was the fallback's (its candidates are then the answer's).
    fell_back: bool,
}

impl SolverPlayer {
    /// A player from its options; `name` is its spec as written, `fallback` the player built
    /// from the spec's `else=` (alpha-beta at depth 4 of `game` if `None`). It plays
    /// the fallback's game. An error (one line) when the table's memory cannot be had.
    pub fn new(
        spec: SolverSpec,
        name: String,
        game: &Game,
        fallback: Option<Box<dyn Player>>,
    ) -> anyhow::Result<SolverPlayer> {
        let limits = SolveLimits {
            memory: spec.memory_mb << 20,
            ..SolveLimits::default()
        };
        let fallback = fallback.unwrap_or_else(|| Box::new(AlphaBeta::with_depth(game, 4)));
        Ok(SolverPlayer {
            name,
            game: fallback.game().clone(),
            spec,
            solver: Solver::new(limits)?,
            fallback,
            fell_back: false,
        })
    }

    /// The time the solver may take with the caller's `limits`: the spec's (or the default),
    /// within half of the caller's, so that the fallback has time left.
    fn solving_time(&self, limits: &Limits) -> Duration {
        let own = self.spec.time.unwrap_or(DEFAULT_TIME);
        limits.time.map_or(own, |t| own.min(t / 2))
    }

    /// The fallback's move, within the caller's limits less `spent`.
    fn fall_back(
        &mut self,
        pos: &Position,
        limits: &Limits,
        spent: Duration,
    ) -> anyhow::Result<Choice> {
        self.fell_back = true;
        let mut left = *limits;
        left.time = limits
            .time
            .map(|t| t.saturating_sub(spent).max(Duration::from_millis(1)));
        self.fallback.choose(pos, &left)
    }
}

/// The move to play among solved moves: the shortest win, else a draw, else the longest loss.
pub fn pick(values: &[MoveValue]) -> Option<&MoveValue> {
    let wins = values.iter().filter(|m| m.value == Value::Win);
    if let Some(m) = wins.min_by_key(|m| m.length) {
        return Some(m);
    }
    if let Some(m) = values.iter().find(|m| m.value == Value::Draw) {
        return Some(m);
    }
    // max_by_key keeps the last of equal lengths; rev() makes it the first in move order.
    values.iter().rev().max_by_key(|m| m.length)
}

impl Player for SolverPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn game(&self) -> &Game {
        &self.game
    }

    /// Its game is its fallback's: bound where that one is.
    fn is_bound(&self) -> bool {
        self.fallback.is_bound()
    }

    /// Its solving time, then its fallback's budget where the position is not solved in time.
    fn default_budget(&self) -> String {
        let time = self.solving_time(&Limits::NONE);
        format!(
            "solve {}ms, else {}",
            time.as_millis(),
            self.fallback.default_budget()
        )
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        let rules = &self.game.clone();
        if pos.outcome(rules).is_some() {
            bail!("no legal move: the game is over in {pos}");
        }
        let time = self.solving_time(limits);
        let started = std::time::Instant::now();
        self.fell_back = false;
        // A node limit is the fallback's (an MCTS player's simulations), not the solver's.
        self.solver.set_limits(Some(time), None);
        let solution = match self.solver.solve(rules, pos) {
            Ok(s) => s,
            Err(_) => return self.fall_back(pos, limits, started.elapsed()),
        };
        // With the value known, the time left goes to valuing every move (the quickest win, the
        // longest loss); if it runs out, the solution's own best move keeps the value.
        let left = time.saturating_sub(started.elapsed());
        self.solver
            .set_limits(Some(left.max(Duration::from_millis(1))), None);
        let (mv, value, length, nodes) = match self.solver.move_values(rules, pos) {
            Ok((values, nodes)) => {
                let m = pick(&values).expect("a position that goes on has a move");
                (m.mv, m.value, m.length, solution.nodes + nodes)
            }
            Err(_) => {
                let mv = solution
                    .best
                    .expect("a position that goes on has a best move");
                (mv, solution.value, solution.length, solution.nodes)
            }
        };
        let mut pv = vec![mv];
        if let Ok(child) = pos.play(rules, mv) {
            pv.extend(self.solver.pv(rules, &child));
        }
        Ok(Choice {
            mv,
            eval: Some(match value {
                Value::Win => 1.0,
                Value::Draw => 0.0,
                Value::Loss => -1.0,
            }),
            pv,
            nodes,
            depth: length,
        })
    }

    fn set_threads(&mut self, threads: usize) -> bool {
        self.fallback.set_threads(threads)
    }

    fn set_stop(&mut self, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> bool {
        self.solver.set_stop(stop.clone());
        self.fallback.set_stop(stop)
    }

    fn new_game(&mut self, seed: u64) {
        self.fallback.new_game(seed);
    }

    fn candidates(&self) -> Vec<crate::players::player::Candidate> {
        match self.fell_back {
            true => self.fallback.candidates(),
            false => Vec::new(),
        }
    }
}
