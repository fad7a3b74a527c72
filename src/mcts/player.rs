//! MCTS as a [`Player`]: a search over any [`Inference`] (a network, or uniform priors) that
//! answers with its most visited move, its value and principal variation.
//!
//! At play time the search gathers batches of leaves under virtual loss, so one forward pass
//! serves many simulations; evaluations are cached by position hash, the tree is kept between
//! moves, and a time limit is met by stopping before a batch that would overrun it.

use super::{
    EvalCache, Inference, LeafBatch, OpponentModel, PlaySettings, SplitInference, Tree,
    search_round,
};
use crate::players::{Candidate, Choice, Limits, Player};
use crate::pool::OwnPool;
use crate::rules::{Game, Position};
use anyhow::Context;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Simulations a time-limited search may never exceed (the tree's memory bound).
const MAX_SIMS: u32 = 2_000_000;

/// The most leaves one batch gathers at play time unless told otherwise.
pub const MAX_BATCH: usize = 32;

/// The most leaves a batch may be told to gather (`mcts:batch=N`, [`MctsPlayer::with_batch`]).
pub const MAX_BATCH_OPTION: usize = MAX_BATCH * 8;

/// Simulations per leaf of a batch: a node-limited search uses batches of about
/// `budget / SIMS_PER_BATCH_LEAF` leaves, so small searches stay close to sequential ones.
const SIMS_PER_BATCH_LEAF: u32 = 16;

/// Time kept in hand under a time limit, for answering after the last batch.
const TIME_MARGIN: Duration = Duration::from_millis(2);

/// log2 of the evaluation cache's entries (about 9 MB).
const CACHE_BITS: u32 = 16;

/// The name of the search's threads.
const POOL_NAME: &str = "mcts";

/// An MCTS player: a search with its play settings only (no root noise), the most visited move.
pub struct MctsPlayer {
    name: String,
    game: Game,
    /// Whether `game` is the network's own (see [`Player::is_bound`]).
    bound: bool,
    eval: Arc<dyn Inference>,
    settings: PlaySettings,
    sims: u32,
    /// Leaves per batch (0: chosen from the budget).
    batch: usize,
    /// Worker threads for the network, in a pool that confines it to them.
    pool: OwnPool,
    cache: EvalCache,
    /// The last search's tree, kept for the next move.
    tree: Option<Tree>,
    leaves: LeafBatch,
    /// Set from outside (the engine's `stop`) to end the search at its next batch.
    stop: Option<Arc<AtomicBool>>,
    /// The opponent the search assumes (see [`OpponentModel`]); `None`: every reply.
    model: Option<Arc<OpponentModel>>,
}

impl MctsPlayer {
    /// A player of `game` over `eval`, searching with `settings`, `sims` simulations
    /// per move unless its limits say otherwise.
    pub fn new(
        name: impl Into<String>,
        game: &Game,
        eval: Arc<dyn Inference>,
        settings: &PlaySettings,
        sims: u32,
    ) -> Self {
        MctsPlayer {
            name: name.into(),
            game: game.clone(),
            bound: false,
            eval,
            settings: settings.clone(),
            sims: sims.max(1),
            batch: 0,
            pool: OwnPool::new(1, POOL_NAME),
            cache: EvalCache::new(CACHE_BITS),
            tree: None,
            leaves: LeafBatch::default(),
            stop: None,
            model: None,
        }
    }

    /// Searches assuming that its opponent plays as `model` does: strong against that opponent,
    /// misled against any other.
    pub fn with_model(mut self, model: OpponentModel) -> Self {
        self.model = Some(Arc::new(model));
        self
    }

    /// Makes its game the network's own (a trained network knows only its own variant).
    pub fn bound(mut self) -> Self {
        self.bound = true;
        self
    }

    /// Leaves per batched evaluation (1: one simulation at a time; 0: chosen from the budget).
    pub fn with_batch(mut self, batch: usize) -> Self {
        self.batch = batch.min(MAX_BATCH_OPTION);
        self
    }

    /// Threads the network may use (default 1).
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.pool = OwnPool::new(threads.max(1), POOL_NAME);
        self
    }

    /// Simulations per move when the limits give none.
    pub fn sims(&self) -> u32 {
        self.sims
    }

    /// The tree to search `pos` with: the last one, re-rooted at `pos` if `pos` is its root or
    /// follows from it within two plies; else one holding only `pos`.
    fn take_tree(&mut self, pos: &Position) -> Tree {
        match self.tree.take() {
            Some(mut tree) => {
                // A tree that does not hold `pos` starts again in its own storage.
                if !tree.reroot_to(pos, 2) {
                    tree.reset(*pos);
                }
                tree
            }
            None => Tree::new(*pos),
        }
    }

    /// Leaves per batch for a search of `budget` simulations. A timed search gathers batches of
    /// `MAX_BATCH` under virtual loss even on one thread, where the fast MLP gains no speed from
    /// them: one leaf at a time scored no better against alpha-beta (docs/STRENGTH.md), and every
    /// rating of the shipped players but two was taken with batches of 32.
    fn batch_for(&self, budget: u32, timed: bool) -> usize {
        match self.batch {
            0 if timed => MAX_BATCH,
            0 => (budget / SIMS_PER_BATCH_LEAF).clamp(1, MAX_BATCH as u32) as usize,
            b => b,
        }
    }

    fn search(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        let started = Instant::now();
        // A copy (a few dozen bytes, no allocation), so that the search may borrow itself mutably.
        let rules = &self.game.clone();
        let budget = match (limits.nodes, limits.time) {
            (Some(n), _) => n.min(u64::from(MAX_SIMS)) as u32,
            (None, Some(_)) => MAX_SIMS,
            (None, None) => self.sims,
        }
        .max(1);
        let deadline = limits.time.map(|t| started + t.saturating_sub(TIME_MARGIN));
        let batch = self.batch_for(budget, limits.time.is_some());
        // On several threads each batch is shared out among them.
        let eval = Arc::clone(&self.eval);
        let split = SplitInference::new(eval.as_ref(), self.pool.threads());
        let mut tree = self.take_tree(pos);
        let opponent = pos.side_to_move().opponent();
        tree.set_model(self.model.clone().map(|m| (m, opponent)));
        let first = tree.root_visits();
        let mut slowest_round = Duration::ZERO;
        loop {
            let done = tree.root_visits() - first;
            if done >= budget || tree.root_is_decided() {
                break;
            }
            // A forced move needs no thought beyond a value.
            if done > 0 && tree.root_children() == 1 {
                break;
            }
            if done > 0
                && self
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                break;
            }
            let round_start = Instant::now();
            if let Some(deadline) = deadline
                && done > 0
                && round_start + slowest_round > deadline
            {
                break;
            }
            let left = (budget - done) as usize;
            search_round(
                &mut tree,
                rules,
                &split,
                &self.settings,
                batch.min(left),
                left,
                &mut self.cache,
                &mut self.leaves,
            );
            slowest_round = slowest_round.max(round_start.elapsed());
        }
        if let Some(why) = self.model.as_ref().and_then(|m| m.take_failure()) {
            anyhow::bail!("{why}");
        }
        let mv = tree.best_move().context("the search found no move")?;
        let pv = tree.pv(16);
        let choice = Choice {
            mv,
            eval: Some(tree.root_value()),
            depth: pv.len() as u32,
            pv,
            nodes: u64::from(tree.root_visits() - first),
        };
        self.tree = Some(tree);
        Ok(choice)
    }
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// Node limits count this move's simulations; a time limit searches until the time is spent
    /// (the default simulations still cap it unless a node limit is given too); depth is
    /// ignored.
    fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        let rules = &self.game;
        pos.validate(rules)
            .map_err(|e| anyhow::anyhow!("the position does not fit the rules: {e}"))?;
        anyhow::ensure!(pos.outcome(rules).is_none(), "the game is over");
        let pool = self.pool.pool()?;
        // Everything the network runs in parallel stays on the player's own threads. The search
        // is entered from a plain thread: a thread of another rayon pool (an arena's, a training
        // evaluation's) waiting in `install` would start other work meanwhile, and more games
        // would think at once. A `Bot`'s search thread is plain already, but arenas call players
        // straight from their pool's threads, with no bot, so this thread is the player's own.
        std::thread::scope(|s| {
            s.spawn(|| pool.install(|| self.search(pos, limits)))
                .join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("the search panicked")))
        })
    }

    fn game(&self) -> &Game {
        &self.game
    }

    fn default_budget(&self) -> String {
        format!("{} simulations", self.sims)
    }

    fn is_bound(&self) -> bool {
        self.bound
    }

    fn set_threads(&mut self, threads: usize) -> bool {
        self.pool = OwnPool::new(threads.max(1), POOL_NAME);
        true
    }

    /// The search ends at the next batch once `stop` is set (after its first, so that a move
    /// has been searched).
    fn set_stop(&mut self, stop: Arc<AtomicBool>) -> bool {
        self.stop = Some(stop);
        true
    }

    /// The root's moves of the last search, most visited first.
    fn candidates(&self) -> Vec<Candidate> {
        let Some(tree) = &self.tree else {
            return Vec::new();
        };
        let lines = tree.root_lines(12);
        let total = lines.iter().map(|l| l.1).sum::<u32>().max(1);
        lines
            .into_iter()
            .map(|(mv, visits, value, pv)| Candidate {
                mv,
                visits,
                share: visits as f32 / total as f32,
                value,
                pv,
            })
            .collect()
    }

    /// The search has no randomness; a new game starts with an empty tree and cache, and the
    /// opponent model, if any, reseeded as its player would be.
    fn new_game(&mut self, seed: u64) {
        self.tree = None;
        self.cache = EvalCache::new(CACHE_BITS);
        if let Some(model) = &self.model {
            model.new_game(seed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::{Stamped, UniformInference};
    use crate::rules::{MoveList, Variant};
    use std::time::Duration;

    #[test]
    fn plays_legal_moves_within_its_limits() {
        let rules = Game::from(Variant::Kiswahili);
        let pos = Position::start(&rules);
        let mut p = MctsPlayer::new(
            "uniform",
            &rules,
            Arc::new(UniformInference),
            &PlaySettings::default(),
            50,
        );
        let mut list = MoveList::new();
        pos.legal_moves(&rules, &mut list);
        let c = p.choose(&pos, &Limits::NONE).unwrap();
        assert!(list.find(c.mv).is_some());
        assert_eq!(c.nodes, 50);
        assert_eq!(c.pv[0], c.mv);
        let c = p.choose(&pos, &Limits::nodes(7)).unwrap();
        assert_eq!(c.nodes, 7);
        let c = p
            .choose(&pos, &Limits::time(Duration::from_millis(20)))
            .unwrap();
        assert!(c.nodes >= 1);
    }

    #[test]
    fn timed_searches_gather_full_batches_and_small_searches_small_ones() {
        let cfg = PlaySettings::default();
        let batched = MctsPlayer::new("batched", &Variant::Hus.into(), Arc::new(Stamped), &cfg, 50);
        assert_eq!(batched.batch_for(u32::MAX, true), MAX_BATCH);
        assert_eq!(batched.batch_for(64, false), 4);
        assert_eq!(batched.batch_for(10, false), 1);
        assert_eq!(batched.batch_for(10_000, false), MAX_BATCH);
        let told = MctsPlayer::new("told", &Variant::Hus.into(), Arc::new(Stamped), &cfg, 50)
            .with_batch(8);
        assert_eq!(told.batch_for(10_000, true), 8);
    }

    #[test]
    fn a_player_on_two_threads_makes_the_same_search_as_on_one_with_the_same_batches() {
        // Sharing a batch out over threads changes where the network runs, not what it answers.
        let rules = Game::from(Variant::Kiswahili);
        let pos = Position::start(&rules);
        let cfg = PlaySettings::default();
        let mut one = MctsPlayer::new("one", &rules, Arc::new(Stamped), &cfg, 400).with_batch(16);
        let mut two = MctsPlayer::new("two", &rules, Arc::new(Stamped), &cfg, 400)
            .with_batch(16)
            .with_threads(2);
        let (a, b) = (
            one.choose(&pos, &Limits::NONE).unwrap(),
            two.choose(&pos, &Limits::NONE).unwrap(),
        );
        assert_eq!((a.mv, a.nodes, a.pv), (b.mv, b.nodes, b.pv));
    }

    #[test]
    fn refuses_positions_of_another_game() {
        let rules = Game::from(Variant::Hus);
        // Hus with three seeds a pit: 80 seeds, where Hus has 64.
        let mut other = rules.rules().clone();
        other.setup.front = [3; 8];
        other.setup.back = [3; 8];
        let mut p = MctsPlayer::new(
            "uniform",
            &rules,
            Arc::new(UniformInference),
            &PlaySettings::default(),
            8,
        );
        let err = p
            .choose(&Position::start(&other), &Limits::NONE)
            .unwrap_err();
        assert!(err.to_string().contains("does not fit the rules"), "{err}");
    }
}
