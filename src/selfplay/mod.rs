//! Self-play: many games at once, each with its own search tree; every round each game picks a
//! leaf and one batched evaluation serves them all, so the network is the bottleneck.

mod replay;
// The stage plays with a network: it needs the `ml` feature.
#[cfg(feature = "ml")]
mod stage;

pub use replay::ReplayBuffer;
#[cfg(feature = "ml")]
pub use stage::{
    GameRange, SelfPlayOutput, SelfPlayPart, merge_parts, play_games, play_games_against,
};

use crate::env::random_opening;
use crate::mcts::{Inference, Leaf, LeafBatch, OpponentModel, SelfPlaySearch, Tree};
use crate::nn::Sample;
use crate::players::{Limits, Player};
use crate::rules::{Game, Move, MoveList, Position, Side};
use crate::search::{AlphaBeta, AlphaBetaConfig};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Self-play settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// Games played per training iteration.
    pub games_per_iteration: usize,
    /// Games in flight per worker thread: the batch size of the evaluations.
    pub concurrent_games: usize,
    /// Worker threads (each with its own batches).
    pub threads: usize,
    /// A game still going after this many plies is stopped and scored as a draw.
    pub max_plies: u32,
    /// The share of games (0 to 1) that start from `random_opening_plies` random plies.
    pub random_opening_share: f32,
    /// How many uniformly random plies such a game starts with: 1 to this many, drawn per game
    /// (the random plies are not searched and make no samples). Matches open with random plies
    /// too (`bao eval`), and the positions they lead to are often lopsided in ways self-play
    /// from the start never shows the network.
    pub random_opening_plies: u32,
    /// Games against the alpha-beta player instead of the network itself.
    pub alphabeta: AlphaBetaOpponent,
    /// The search.
    pub mcts: SelfPlaySearch,
}

/// A share of self-play games in which alpha-beta plays one side: the network then also learns
/// from the positions a tactical searcher steers it into, and from the plans that beat it there
/// (an exploiter in the sense of league training). Alpha-beta's moves make no samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AlphaBetaOpponent {
    /// The share of games (0 to 1) with alpha-beta on one side, drawn per game, as is its side.
    pub share: f32,
    /// Positions alpha-beta visits per move: a node limit, so the same seed gives the same games.
    pub nodes: u64,
}

impl Default for AlphaBetaOpponent {
    fn default() -> Self {
        AlphaBetaOpponent {
            share: 0.0,
            nodes: 10_000,
        }
    }
}

/// The most random plies a self-play game may open with (`selfplay.random_opening_plies`).
pub const MAX_RANDOM_OPENING_PLIES: u32 = 32;
/// The most worker threads: far more than any machine's cores, and few enough to start.
pub const MAX_THREADS: usize = 1024;
/// The most games an iteration may play.
pub const MAX_GAMES: usize = 1_000_000;
/// The most games in flight per worker (the batch of an evaluation).
const MAX_CONCURRENT_GAMES: usize = 4096;
/// The longest game, in plies, before it is stopped as a draw.
pub const MAX_PLIES: u32 = 100_000;
/// The most positions alpha-beta may visit per move in self-play.
pub const MAX_ALPHABETA_NODES: u64 = 100_000_000;

impl SelfPlayConfig {
    /// Checks every number against its range, with one line naming the key (`selfplay.*`): the
    /// counts at least 1 and bounded (a huge one would exhaust memory or threads), the shares in
    /// 0..=1 and the search's settings.
    pub fn validate(&self) -> anyhow::Result<()> {
        use crate::util::check::check_range;
        let games = self.games_per_iteration;
        check_range("selfplay.games_per_iteration", games, 1..=MAX_GAMES)?;
        let concurrent = self.concurrent_games;
        check_range(
            "selfplay.concurrent_games",
            concurrent,
            1..=MAX_CONCURRENT_GAMES,
        )?;
        check_range("selfplay.threads", self.threads, 1..=MAX_THREADS)?;
        check_range("selfplay.max_plies", self.max_plies, 1..=MAX_PLIES)?;
        let share = self.random_opening_share;
        check_range("selfplay.random_opening_share", share, 0.0..=1.0)?;
        let plies = self.random_opening_plies;
        check_range(
            "selfplay.random_opening_plies",
            plies,
            0..=MAX_RANDOM_OPENING_PLIES,
        )?;
        let ab = &self.alphabeta;
        check_range("selfplay.alphabeta.share", ab.share, 0.0..=1.0)?;
        check_range(
            "selfplay.alphabeta.nodes",
            ab.nodes,
            1..=MAX_ALPHABETA_NODES,
        )?;
        self.mcts.validate("selfplay.mcts")
    }
}

/// Builds a fresh player for one self-play game: the rules and the game's seed (for a player
/// with randomness of its own). Passed down from above, as the players' registry lives there.
pub type PlayerFactory = dyn Fn(&Game, u64) -> anyhow::Result<Box<dyn Player>> + Sync;

/// A frozen player that plays one side of every self-play game (an exploiter's training): the
/// network plays South in games of even seed and North in the others, so that each seat comes
/// in turn. The victim's moves make no samples.
pub struct Victim<'a> {
    /// Builds the victim, one per game, so that no game's moves depend on which games shared
    /// its worker; a victim with a budget of its own carries it (`players::Budgeted`).
    pub build: &'a PlayerFactory,
    /// Whether the network's search assumes the victim's replies (an [`OpponentModel`], a
    /// second victim of the game's seed), rather than searching every reply.
    pub model: bool,
}

impl Victim<'_> {
    /// The victim of the game of `seed`, started on it.
    fn start(&self, rules: &Game, seed: u64) -> anyhow::Result<Box<dyn Player>> {
        let mut player = (self.build)(rules, seed)?;
        player.new_game(seed);
        Ok(player)
    }

    /// The victim's seat in the game of `seed`: North in games of even seed, South in the others.
    fn side(seed: u64) -> Side {
        if seed.is_multiple_of(2) {
            Side::North
        } else {
            Side::South
        }
    }
}

/// Transposition table of the self-play alpha-beta player: 2^16 entries, 1 MiB per game
/// against it.
const OPPONENT_TT_BITS: u32 = 16;

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            games_per_iteration: 128,
            concurrent_games: 32,
            threads: 2,
            max_plies: 400,
            random_opening_share: 0.0,
            random_opening_plies: 0,
            alphabeta: AlphaBetaOpponent::default(),
            mcts: SelfPlaySearch::default(),
        }
    }
}

/// What a batch of self-play games produced.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SelfPlayResult {
    /// Training samples (full searches only), outcomes filled in; in game order.
    #[serde(skip)]
    pub samples: Vec<Sample>,
    /// Games finished, and how: South wins, North wins, draws (including stopped games).
    pub games: usize,
    pub south_wins: usize,
    pub north_wins: usize,
    pub draws: usize,
    /// Plies played.
    pub plies: u64,
    /// Simulations run (inference calls plus terminal visits).
    pub simulations: u64,
    /// Positions the inference answered.
    pub evaluations: u64,
    /// Games against alpha-beta, and the network's wins and draws in them.
    pub alphabeta_games: usize,
    pub alphabeta_wins: usize,
    pub alphabeta_draws: usize,
    /// Games against the victim (see [`Victim`]), and the network's wins and draws there.
    #[serde(default)]
    pub victim_games: usize,
    /// The network's wins against the victim.
    #[serde(default)]
    pub victim_wins: usize,
    /// Draws against the victim.
    #[serde(default)]
    pub victim_draws: usize,
}

impl SelfPlayResult {
    /// Both results: the samples of `self`, then those of `o`; the figures summed.
    pub(crate) fn merge(mut self, o: SelfPlayResult) -> SelfPlayResult {
        self.samples.extend(o.samples);
        self.games += o.games;
        self.south_wins += o.south_wins;
        self.north_wins += o.north_wins;
        self.draws += o.draws;
        self.plies += o.plies;
        self.simulations += o.simulations;
        self.evaluations += o.evaluations;
        self.alphabeta_games += o.alphabeta_games;
        self.alphabeta_wins += o.alphabeta_wins;
        self.alphabeta_draws += o.alphabeta_draws;
        self.victim_games += o.victim_games;
        self.victim_wins += o.victim_wins;
        self.victim_draws += o.victim_draws;
        self
    }

    /// The network's score against the victim (wins plus half the draws, over its games there).
    pub fn victim_score(&self) -> Option<f64> {
        (self.victim_games > 0).then(|| {
            (self.victim_wins as f64 + 0.5 * self.victim_draws as f64) / self.victim_games as f64
        })
    }

    /// The network's score against alpha-beta (wins plus half the draws, over its games there).
    pub fn alphabeta_score(&self) -> Option<f64> {
        (self.alphabeta_games > 0).then(|| {
            (self.alphabeta_wins as f64 + 0.5 * self.alphabeta_draws as f64)
                / self.alphabeta_games as f64
        })
    }
}

/// One game in flight.
struct Slot {
    rng: ChaCha8Rng,
    tree: Tree,
    ply: u32,
    /// Simulations the current move's search must reach at the root.
    target: u32,
    full: bool,
    noised: bool,
    pending: Vec<(Sample, Side)>,
    /// The side alpha-beta plays, in a game against it.
    alphabeta: Option<Side>,
    /// Alpha-beta's searcher in such a game: one per game, so that no game's moves depend on
    /// which games shared its worker (a transposition table would carry them over).
    engine: Option<Box<AlphaBeta>>,
    /// The victim in a game against it (it then plays the side in `alphabeta`).
    victim: Option<Box<dyn Player>>,
    /// The game's index among the worker's games (its samples are put in game order).
    game: usize,
}

impl Slot {
    fn new(
        rules: &Game,
        game: usize,
        seed: u64,
        cfg: &SelfPlayConfig,
        victim: Option<&Victim>,
    ) -> anyhow::Result<Slot> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut start = Position::start(rules);
        // No draw from the generator without random openings: older runs replay exactly.
        if cfg.random_opening_plies > 0
            && cfg.random_opening_share > 0.0
            && rng.random::<f32>() < cfg.random_opening_share
        {
            let plies = rng.random_range(1..=cfg.random_opening_plies);
            start = random_opening(rules, &start, plies, &mut rng).1;
        }
        let mut tree = Tree::new(start);
        let (victim, victim_side) = match victim {
            Some(v) => {
                let (player, side) = (v.start(rules, seed)?, Victim::side(seed));
                if v.model {
                    let model = OpponentModel::new(v.start(rules, seed)?, Limits::NONE);
                    tree.set_model(Some((Arc::new(model), side)));
                }
                (Some(player), Some(side))
            }
            None => (None, None),
        };
        // Likewise no draw without games against alpha-beta (the victim plays every game).
        let alphabeta = victim_side.or_else(|| {
            (cfg.alphabeta.share > 0.0 && rng.random::<f32>() < cfg.alphabeta.share).then(|| {
                if rng.random::<bool>() {
                    Side::South
                } else {
                    Side::North
                }
            })
        });
        let engine = alphabeta.filter(|_| victim.is_none()).map(|_| {
            Box::new(AlphaBeta::new(
                rules,
                AlphaBetaConfig {
                    limits: Limits::nodes(cfg.alphabeta.nodes.max(1)),
                    tt_bits: OPPONENT_TT_BITS,
                    ..AlphaBetaConfig::default()
                },
            ))
        });
        let mut s = Slot {
            rng,
            tree,
            ply: 0,
            target: 0,
            full: true,
            noised: false,
            pending: Vec::new(),
            alphabeta,
            engine,
            victim,
            game,
        };
        s.plan_search(&cfg.mcts);
        Ok(s)
    }

    /// Playout cap randomization: a full search (with noise, recorded) or a fast one.
    fn plan_search(&mut self, cfg: &SelfPlaySearch) {
        self.full = cfg.full_search_prob >= 1.0 || self.rng.random::<f32>() < cfg.full_search_prob;
        self.target = if self.full {
            cfg.sims
        } else {
            cfg.fast_sims.min(cfg.sims)
        }
        .max(1);
        self.noised = false;
    }

    /// Whether alpha-beta is to move (no search then).
    fn alphabeta_to_move(&self) -> bool {
        self.alphabeta == Some(self.tree.root().side_to_move())
    }

    /// The samples of a finished game (their outcomes scored by `finish_move`).
    fn scored_samples(&mut self) -> Vec<Sample> {
        self.pending.drain(..).map(|(s, _)| s).collect()
    }

    /// Whether the current search is complete.
    fn searched(&self) -> bool {
        self.tree.root_is_decided() || self.tree.root_visits() >= self.target
    }
}

/// Plays the games whose seeds are given, spread over `cfg.threads` workers; calls `progress`
/// with the number of games finished so far after each game. The samples come in game order
/// (a game's in ply order), so a game's samples depend on its seed alone, not on the threads,
/// the games in flight, or which call played it.
pub fn play(
    rules: &Game,
    eval: &dyn Inference,
    cfg: &SelfPlayConfig,
    game_seeds: &[u64],
    progress: &(dyn Fn(usize) + Sync),
) -> SelfPlayResult {
    // Without a victim no player is built, so nothing can fail.
    play_against(rules, eval, cfg, None, game_seeds, progress).unwrap_or_default()
}

/// [`play`] with `victim` (if any) on one side of every game; fails when the victim cannot be
/// built.
pub(crate) fn play_against(
    rules: &Game,
    eval: &dyn Inference,
    cfg: &SelfPlayConfig,
    victim: Option<&Victim>,
    game_seeds: &[u64],
    progress: &(dyn Fn(usize) + Sync),
) -> anyhow::Result<SelfPlayResult> {
    use rayon::prelude::*;
    let threads = cfg.threads.max(1);
    // A fixed split of the games over workers keeps the run reproducible.
    let chunks: Vec<&[u64]> = game_seeds
        .chunks(game_seeds.len().div_ceil(threads).max(1))
        .collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tick = || progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
    chunks
        .par_iter()
        .map(|seeds| play_worker(rules, eval, cfg, victim, seeds, &tick))
        .try_reduce(SelfPlayResult::default, |a, b| Ok(a.merge(b)))
}

/// One worker: up to `cfg.concurrent_games` games at once, one batched evaluation per round.
fn play_worker(
    rules: &Game,
    eval: &dyn Inference,
    cfg: &SelfPlayConfig,
    victim: Option<&Victim>,
    seeds: &[u64],
    tick: &(dyn Fn() + Sync),
) -> anyhow::Result<SelfPlayResult> {
    let mcts = &cfg.mcts;
    let mut out = SelfPlayResult::default();
    let mut queue = seeds.iter().copied().enumerate();
    let mut slots: Vec<Slot> = queue
        .by_ref()
        .take(cfg.concurrent_games.max(1))
        .map(|(game, seed)| Slot::new(rules, game, seed, cfg, victim))
        .collect::<anyhow::Result<_>>()?;
    // Each game's scored samples, put together in game order at the end.
    let mut by_game: Vec<Vec<Sample>> = vec![Vec::new(); seeds.len()];
    let mut leaves: Vec<(usize, u32)> = Vec::new();
    let mut batch = LeafBatch::default();
    let mut list = MoveList::new();
    while !slots.is_empty() {
        // Each game descends to one leaf (terminal leaves are backed up on the spot).
        leaves.clear();
        for (i, slot) in slots.iter_mut().enumerate() {
            if slot.alphabeta_to_move() {
                continue;
            }
            while !slot.searched() {
                out.simulations += 1;
                if let Leaf::Eval(id) = slot.tree.select(rules, &mcts.play) {
                    leaves.push((i, id));
                    break;
                }
            }
        }
        // One evaluation for all of them.
        batch.clear();
        for &(i, id) in &leaves {
            batch.push(&slots[i].tree, id);
        }
        out.evaluations += batch.infer(rules, eval, None, |k, priors, value| {
            let (i, id) = leaves[k];
            slots[i].tree.expand(id, priors, value)
        }) as u64;
        // Noise once a full search's root has priors; moves for games whose search is done.
        let mut i = 0;
        while i < slots.len() {
            let slot = &mut slots[i];
            let searching = !slot.alphabeta_to_move();
            if searching && slot.full && !slot.noised && slot.tree.root_expanded() {
                slot.tree.add_root_noise(mcts, &mut slot.rng);
                slot.noised = true;
            }
            let ready = !searching || slot.searched();
            if ready && finish_move(rules, cfg, slot, &mut list, &mut out)? {
                by_game[slot.game] = slot.scored_samples();
                tick();
                match queue.next() {
                    Some((game, seed)) => slots[i] = Slot::new(rules, game, seed, cfg, victim)?,
                    None => {
                        slots.swap_remove(i);
                        continue;
                    }
                }
            }
            i += 1;
        }
    }
    out.samples = by_game.concat();
    Ok(out)
}

/// The move of the network's finished search at `root` (whose legal moves `list` holds); a full
/// search's targets become a pending sample.
fn searched_move(
    mcts: &SelfPlaySearch,
    slot: &mut Slot,
    root: &Position,
    list: &MoveList,
) -> Option<Move> {
    // A full search's policy target: the visit counts (less the forced playouts'), in
    // legal-move order.
    if slot.full {
        let by_move = slot.tree.pruned_root_visits(&mcts.play);
        let weights: Vec<u32> = list
            .moves()
            .iter()
            .map(|m| by_move.iter().find(|(mv, _)| mv == m).map_or(0, |x| x.1))
            .collect();
        let value = slot.tree.root_value();
        slot.pending.push((
            Sample::new(*root, list, &weights, value),
            root.side_to_move(),
        ));
    }
    let temperature = if slot.ply < mcts.temperature_plies {
        mcts.temperature
    } else {
        0.0
    };
    slot.tree.sample_move(temperature, &mut slot.rng)
}

/// The victim's move at `root` (whose legal moves `list` holds): a victim that fails or plays an
/// illegal move stops the self-play with one line naming it, as its games would be worthless.
fn victim_move(victim: &mut dyn Player, root: &Position, list: &MoveList) -> anyhow::Result<Move> {
    let mv = victim
        .choose(root, &Limits::NONE)
        .map_err(|e| anyhow::anyhow!("the victim {} failed: {e}", victim.name()))?
        .mv;
    anyhow::ensure!(
        list.find(mv).is_some(),
        "the victim {} played an illegal move",
        victim.name()
    );
    Ok(mv)
}

/// Plays the searched move of a game, the victim's or alpha-beta's; returns true when the game
/// is over (its pending samples are then scored, and its result counted in `out`).
fn finish_move(
    rules: &Game,
    cfg: &SelfPlayConfig,
    slot: &mut Slot,
    list: &mut MoveList,
    out: &mut SelfPlayResult,
) -> anyhow::Result<bool> {
    let mcts = &cfg.mcts;
    let root = *slot.tree.root();
    root.legal_moves(rules, list);
    let outcome = root.outcome_given(list);
    if outcome.is_none() && slot.ply < cfg.max_plies {
        let mv = if let (true, Some(victim)) = (slot.alphabeta_to_move(), &mut slot.victim) {
            Some(victim_move(victim.as_mut(), &root, list)?)
        } else if slot.alphabeta_to_move() {
            slot.engine
                .as_mut()
                .and_then(|ab| ab.analyse(&root, &Limits::NONE).ok())
                .map(|a| a.choice.mv)
        } else {
            searched_move(mcts, slot, &root, list)
        };
        let Some(mv) = mv.or_else(|| list.moves().first().copied()) else {
            return Ok(true);
        };
        let next = *list.find(mv).expect("a root move is legal");
        // After alpha-beta's move too: the network's last search often looked at this reply.
        if mcts.reuse_tree {
            slot.tree.advance(mv, &next);
        } else {
            slot.tree.reset(next);
        }
        slot.ply += 1;
        out.plies += 1;
        slot.plan_search(mcts);
        return Ok(false);
    }
    let winner = outcome.and_then(|o| o.winner);
    match winner {
        Some(Side::South) => out.south_wins += 1,
        Some(Side::North) => out.north_wins += 1,
        None => out.draws += 1,
    }
    out.games += 1;
    if let (Some(side), Some(_)) = (slot.alphabeta, &slot.victim) {
        out.victim_games += 1;
        match winner {
            None => out.victim_draws += 1,
            Some(w) if w != side => out.victim_wins += 1,
            Some(_) => {}
        }
    } else if let Some(side) = slot.alphabeta {
        out.alphabeta_games += 1;
        match winner {
            None => out.alphabeta_draws += 1,
            Some(w) if w != side => out.alphabeta_wins += 1,
            Some(_) => {}
        }
    }
    for (s, side) in &mut slot.pending {
        s.outcome = match winner {
            None => 0,
            Some(w) if w == *side => 1,
            Some(_) => -1,
        };
    }
    Ok(true)
}

#[cfg(test)]
mod tests;
