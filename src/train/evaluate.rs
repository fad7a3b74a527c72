//! The evaluation stage's door: the network (weights as bytes) with a small search against
//! baseline players (any player spec: `random`, `greedy`, `ab:depth=2`, ...), as arena matches:
//! pairs of games that share a random opening, one with each colour, scored with the arena's Elo.

use super::exploit_report::MatchScore;
use super::{EvalEntry, TrainConfig};
use crate::eval::arena::{MatchConfig, run_match};
use crate::mcts::{Inference, MctsPlayer, OpponentModel, PlaySettings};
use crate::nn::NetWeights;
use crate::players::{Limits, PlayerRegistry, PlayerSpec};
use crate::rules::{Game, Variant};
use std::sync::Arc;

/// How the network is evaluated: its search, and the matches it plays.
#[derive(Clone)]
pub struct EvalSettings {
    /// The variant name the game records are tagged with.
    pub variant: String,
    /// The network's search: the play settings of the run's self-play search.
    pub search: PlaySettings,
    /// Its simulations a move.
    pub sims: u32,
    /// Games against each opponent (played in pairs, so rounded up to even).
    pub games: usize,
    /// Random plies at the start of each pair of games.
    pub opening_plies: u32,
    /// How the opponents' specs become players.
    pub players: PlayerRegistry,
    /// The opponent the network's search assumes when it plays that very opponent (an exploit
    /// run's victim, if the run searches with it as its model).
    pub model: Option<PlayerSpec>,
}

impl EvalSettings {
    /// The evaluation of a run with `config`, its opponents made by `players`.
    pub fn of_run(config: &TrainConfig, players: &PlayerRegistry) -> EvalSettings {
        EvalSettings {
            variant: config.variant.clone(),
            search: config.selfplay.mcts.play.clone(),
            sims: config.eval.sims,
            games: config.eval.games,
            opening_plies: config.eval.opening_plies,
            players: match &config.exploit {
                Some(x) => x.players(players),
                None => players.clone(),
            },
            model: config.exploit.as_ref().and_then(|x| x.model()),
        }
    }

    /// Games a whole evaluation against `opponents` plays.
    pub fn total_games(&self, opponents: usize) -> usize {
        self.games.div_ceil(2).max(1) * 2 * opponents
    }
}

/// What an evaluation found.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalReport {
    /// One result per opponent, in the order given, tagged with the iteration evaluated.
    pub entries: Vec<EvalEntry>,
    /// The games against each opponent as KIBA records, one record a line.
    pub records: Vec<String>,
}

/// Evaluates the network `weights` (of `iteration`) against each of `opponents` (player specs):
/// the match against opponent `k` draws its openings from `seed + k`. `on_game` is called once
/// per game played.
pub fn evaluate(
    game: &Game,
    weights: &NetWeights,
    settings: &EvalSettings,
    opponents: &[String],
    iteration: u32,
    seed: u64,
    on_game: &(dyn Fn(&str) + Sync),
) -> anyhow::Result<EvalReport> {
    let network: Arc<dyn Inference> = weights.inference().clone();
    let mut report = EvalReport::default();
    for (k, opponent) in opponents.iter().enumerate() {
        let (entry, records) = play_match(
            game,
            network.clone(),
            settings,
            opponent,
            seed.wrapping_add(k as u64),
            &|| on_game(opponent),
        )?;
        report.entries.push(EvalEntry { iteration, ..entry });
        report.records.push(records);
    }
    Ok(report)
}

/// Evaluates the network `weights` of `iteration` of a run with `config` against the config's
/// opponents, from the iteration's own seed: the same games wherever it runs.
pub fn evaluate_iteration(
    game: &Game,
    config: &TrainConfig,
    settings: &EvalSettings,
    weights: &NetWeights,
    iteration: u32,
    on_game: &(dyn Fn(&str) + Sync),
) -> anyhow::Result<EvalReport> {
    evaluate(
        game,
        weights,
        settings,
        &config.eval.opponents,
        iteration,
        super::derive_seed(config.seed, iteration, super::stages::SEED_EVAL),
        on_game,
    )
}

/// Games longer than this are draws.
const MAX_PLIES: usize = 600;

/// The kind under which the network under training enters the match.
const NETWORK: &str = "network";

/// Plays `settings.games` games (in pairs: the same random opening with each colour) of the
/// network against the player `opponent`; returns the network's score and Elo difference with
/// 95% intervals, its score in each seat, and the games as KIBA records. `on_game` is called once per game played, after
/// the match.
fn play_match(
    game: &Game,
    eval: Arc<dyn Inference>,
    settings: &EvalSettings,
    opponent: &str,
    seed: u64,
    on_game: &(dyn Fn() + Sync),
) -> anyhow::Result<(EvalEntry, String)> {
    let opponent_spec: PlayerSpec = opponent.parse()?;
    let mut players = settings.players.clone();
    let (search, sims) = (settings.search.clone(), settings.sims);
    let model = settings.model.clone().filter(|m| *m == opponent_spec);
    players.register(NETWORK, move |players, _, game, seed| {
        let mut net = MctsPlayer::new(NETWORK, game, eval.clone(), &search, sims);
        if let Some(model) = &model {
            let player = players.build(model, game, seed)?;
            net = net.with_model(OpponentModel::new(player, Limits::NONE));
        }
        crate::players::Player::new_game(&mut net, seed);
        Ok(Box::new(net))
    });
    let network = PlayerSpec::Other {
        kind: NETWORK.to_string(),
        options: String::new(),
    };
    let result = run_match(&MatchConfig {
        game: game.clone(),
        start: None,
        games: settings.total_games(1),
        seed,
        opening_plies: settings.opening_plies,
        max_plies: MAX_PLIES,
        limits: Limits::NONE,
        progress: false,
        players,
        variant: settings.variant.clone(),
        ..MatchConfig::new(network, opponent_spec, Variant::Kiswahili)
    })?;
    for _ in 0..result.games {
        on_game();
    }
    let e = &result.estimate;
    let seats = MatchScore::of(&result);
    let entry = EvalEntry {
        iteration: 0,
        opponent: opponent.to_string(),
        games: result.games,
        score: e.score,
        elo: e.elo,
        elo_low: e.elo_low,
        elo_high: e.elo_high,
        as_south: Some(seats.as_south.score),
        as_north: Some(seats.as_north.score),
    };
    Ok((entry, result.records()))
}
