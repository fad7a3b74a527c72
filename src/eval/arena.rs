//! Matches between two players: game pairs from shared random openings (each player takes South
//! once), played in parallel, with a ply cap, an optional SPRT that stops early, Elo estimates
//! and every game as a KIBA record.
//!
//! Reproducible: game `g` depends only on the seed and `g` (its opening, its players' seeds), not
//! on thread scheduling; with depth or node limits the same config gives the same games.

use super::kept::KeptPlayers;
pub use super::match_result::{GameEnd, GameReport, MatchResult, game_id};
use super::match_result::{MatchHeader, distribution, summarize};
use super::sprt::{SprtConfig, Verdict};
use crate::env::random_opening;
use crate::notation::{Record, move_text};
use crate::players::{Choice, Limits, Player, PlayerRegistry, PlayerSpec};
use crate::rules::{Game, Move, MoveList, Position, Rules, Side, Variant};
use anyhow::{Context, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::io::IsTerminal;

/// The `Result` tag of a record: `S front-row-empty`, `N no-moves`, `draw max-plies`.
pub fn result_tag(winner: Option<Side>, end: GameEnd) -> String {
    let who = match winner {
        Some(Side::South) => "S",
        Some(Side::North) => "N",
        None => "draw",
    };
    format!("{who} {}", end.name())
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// The moves played from the start position given.
    pub moves: Vec<Move>,
    /// The winner (`None`: a draw by the ply cap, or a void game).
    pub winner: Option<Side>,
    /// Why it ended.
    pub end: GameEnd,
    /// The final position.
    pub last: Position,
}

/// Plays one game from `start` until it ends or `max_plies` plies are played (a draw).
/// `observe` sees each position, the mover's choice and the position after it.
pub fn play_game(
    rules: &Rules,
    start: &Position,
    south: &mut dyn Player,
    north: &mut dyn Player,
    limits: &Limits,
    max_plies: usize,
    mut observe: impl FnMut(&Position, &Choice, &Position),
) -> anyhow::Result<GameOutcome> {
    let mut pos = *start;
    let mut list = MoveList::new();
    let mut moves = Vec::new();
    loop {
        pos.legal_moves(rules, &mut list);
        if let Some(o) = pos.outcome_given(&list) {
            return Ok(GameOutcome {
                moves,
                winner: o.winner,
                end: o.reason.into(),
                last: pos,
            });
        }
        if moves.len() >= max_plies {
            return Ok(GameOutcome {
                moves,
                winner: None,
                end: GameEnd::MaxPlies,
                last: pos,
            });
        }
        let side = pos.side_to_move();
        let player: &mut dyn Player = match side {
            Side::South => &mut *south,
            Side::North => &mut *north,
        };
        let choice = player
            .choose(&pos, limits)
            .with_context(|| format!("{} ({side}) failed to move in {pos}", player.name()))?;
        let child = *list.find(choice.mv).ok_or_else(|| {
            anyhow!(
                "{} ({side}) chose the illegal move {} in {pos}",
                player.name(),
                move_text(choice.mv, side)
            )
        })?;
        observe(&pos, &choice, &child);
        moves.push(choice.mv);
        pos = child;
    }
}

/// A match between players `a` and `b`.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The first player (results are given from its side).
    pub a: PlayerSpec,
    /// The second player.
    pub b: PlayerSpec,
    /// The game.
    pub game: Game,
    /// The variant's name, for records and reports.
    pub variant: String,
    /// The start position (default: the rule set's start).
    pub start: Option<Position>,
    /// Games to play (pairs of two; an odd count leaves the last pair one game).
    pub games: usize,
    /// Seed of the openings and the players.
    pub seed: u64,
    /// Random plies at the start of each pair's opening.
    pub opening_plies: u32,
    /// The ply cap (opening included): a game that reaches it is a draw.
    pub max_plies: usize,
    /// Limits per move for both players (tightened by each player's own).
    pub limits: Limits,
    /// Stop early when this test decides.
    pub sprt: Option<SprtConfig>,
    /// With an SPRT, the test is evaluated after every batch of this many pairs.
    pub batch_pairs: usize,
    /// Show a progress bar on the terminal (never when stderr is not a terminal).
    pub progress: bool,
    /// How specs become players (default: the classical kinds).
    pub players: PlayerRegistry,
    /// The players between games (a new match's own by default; a gauntlet shares one).
    pub kept: KeptPlayers,
}

impl MatchConfig {
    /// A match of 100 games on a preset with the defaults: 4 opening plies, a 400-ply cap,
    /// no extra limits, no SPRT, a progress bar.
    pub fn new(a: PlayerSpec, b: PlayerSpec, variant: Variant) -> MatchConfig {
        MatchConfig {
            a,
            b,
            game: variant.into(),
            variant: variant.name().to_string(),
            start: None,
            games: 100,
            seed: 0,
            opening_plies: 4,
            max_plies: 400,
            limits: Limits::NONE,
            sprt: None,
            batch_pairs: 8,
            progress: true,
            players: PlayerRegistry::classical(),
            kept: KeptPlayers::new(),
        }
    }
}

/// Well-spread seeds from a seed and an index (SplitMix64's mix).
pub fn mix(seed: u64, index: u64) -> u64 {
    crate::util::hash::mix64(
        seed ^ index
            .wrapping_add(1)
            .wrapping_mul(crate::util::hash::GOLDEN_GAMMA),
    )
}

/// A progress bar on stderr, hidden when asked or when stderr is not a terminal.
pub fn progress_bar(len: u64, show: bool) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} games [{elapsed}<{eta}]")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// The most games one match plays.
pub const MAX_GAMES: usize = 10_000_000;

/// The longest random opening: a few plies spread the games, a long one would only be slow (each
/// opening is drawn ply by ply, again when it ends the game).
pub const MAX_OPENING_PLIES: u32 = 200;

/// Plays a match (see the module docs).
pub fn run_match(cfg: &MatchConfig) -> anyhow::Result<MatchResult> {
    if !(1..=MAX_GAMES).contains(&cfg.games) {
        bail!(
            "a match needs at least one game and at most {MAX_GAMES}, not {}",
            cfg.games
        );
    }
    if cfg.opening_plies > MAX_OPENING_PLIES || cfg.opening_plies as usize >= cfg.max_plies {
        bail!(
            "the random opening has at most {MAX_OPENING_PLIES} plies, and fewer than the ply cap \
             ({}), not {}",
            cfg.max_plies,
            cfg.opening_plies
        );
    }
    if let Some(s) = &cfg.sprt {
        s.validate().map_err(|e| anyhow!("bad SPRT: {e}"))?;
    }
    // Fail on a bad spec, or players of another game, before any game, and learn the names;
    // the players built for that play the first games.
    let (a, b) = (
        cfg.kept.take(&cfg.players, &cfg.a, &cfg.game, 0)?,
        cfg.kept.take(&cfg.players, &cfg.b, &cfg.game, 0)?,
    );
    crate::players::check_players(&cfg.game, &[a.as_ref(), b.as_ref()])?;
    let header = MatchHeader {
        a: a.name(),
        b: b.name(),
        budget_a: a.default_budget(),
        budget_b: b.default_budget(),
        variant: cfg.variant.clone(),
        seed: cfg.seed,
        opening_plies: cfg.opening_plies,
        limits: cfg.limits.text(),
    };
    let (name_a, name_b) = (header.a.clone(), header.b.clone());
    cfg.kept.keep(&cfg.a, &cfg.game, a);
    cfg.kept.keep(&cfg.b, &cfg.game, b);
    let start = cfg.start.unwrap_or_else(|| Position::start(&cfg.game));
    let n_pairs = cfg.games.div_ceil(2);
    let bar = progress_bar(cfg.games as u64, cfg.progress);
    bar.set_message(format!("{name_a} vs {name_b}"));
    let batch = if cfg.sprt.is_some() {
        cfg.batch_pairs.max(1)
    } else {
        n_pairs
    };
    let mut games: Vec<GameReport> = Vec::with_capacity(cfg.games);
    let mut sprt = None;
    let mut done = 0;
    while done < n_pairs {
        let end = (done + batch).min(n_pairs);
        // The first failure (a player's error) ends the match: no pair starts after it.
        let results: anyhow::Result<Vec<Vec<GameReport>>> = (done..end)
            .into_par_iter()
            .map(|p| play_pair(cfg, &start, p, &name_a, &name_b, &bar))
            .collect();
        games.extend(results?.into_iter().flatten());
        done = end;
        if let Some(test) = &cfg.sprt {
            let (dist, model) = distribution(&games);
            let r = test.evaluate(&dist, model);
            sprt = Some(r);
            bar.set_message(format!(
                "{name_a} vs {name_b} LLR {:.2} [{:.2}, {:.2}]",
                r.llr, r.lower, r.upper
            ));
            if r.verdict != Verdict::Continue {
                break;
            }
        }
    }
    bar.finish_and_clear();
    let stopped_early = games.len() < cfg.games;
    Ok(summarize(header, games, sprt, stopped_early))
}

/// The two games of pair `p` (one if it is the odd last one).
fn play_pair(
    cfg: &MatchConfig,
    start: &Position,
    p: usize,
    name_a: &str,
    name_b: &str,
    bar: &ProgressBar,
) -> anyhow::Result<Vec<GameReport>> {
    let pair_seed = mix(cfg.seed, p as u64);
    let mut rng = ChaCha8Rng::seed_from_u64(pair_seed);
    let (opening, from) = random_opening(&cfg.game, start, cfg.opening_plies, &mut rng);
    let games_here = if 2 * p + 1 < cfg.games { 2 } else { 1 };
    let mut out = Vec::with_capacity(games_here);
    for g in 0..games_here {
        let game = 2 * p + g + 1;
        let a_is_south = g == 0;
        let (seed_a, seed_b) = (
            mix(pair_seed, 2 * g as u64 + 1),
            mix(pair_seed, 2 * g as u64 + 2),
        );
        let mut a = cfg.kept.take(&cfg.players, &cfg.a, &cfg.game, seed_a)?;
        let mut b = cfg.kept.take(&cfg.players, &cfg.b, &cfg.game, seed_b)?;
        let (south, north): (&mut dyn Player, &mut dyn Player) = if a_is_south {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        let left = cfg.max_plies.saturating_sub(opening.len());
        let outcome = play_game(
            &cfg.game,
            &from,
            south,
            north,
            &cfg.limits,
            left,
            |_, _, _| {},
        )
        .with_context(|| format!("game {game} of {name_a} vs {name_b}"))?;
        // Only players whose game ended well play again (an error drops them above).
        cfg.kept.keep(&cfg.a, &cfg.game, a);
        cfg.kept.keep(&cfg.b, &cfg.game, b);
        let (south, north) = if a_is_south {
            (name_a, name_b)
        } else {
            (name_b, name_a)
        };
        let a_side = if a_is_south { Side::South } else { Side::North };
        let score_a = match outcome.winner {
            Some(w) if w == a_side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let moves: Vec<Move> = opening.iter().chain(&outcome.moves).copied().collect();
        let mut report = GameReport {
            game,
            pair: p,
            south: south.to_string(),
            north: north.to_string(),
            a_is_south,
            winner: outcome.winner,
            end: outcome.end,
            plies: moves.len(),
            score_a,
            id: game_id(a_is_south, &moves),
            record: String::new(),
        };
        report.record = game_record(cfg, start, &moves, &report, opening.len())?;
        out.push(report);
        bar.inc(1);
    }
    Ok(out)
}

/// The KIBA record of a match game: its `moves` from `start` (the random opening included),
/// tagged with the players, result and game number from its `report`.
fn game_record(
    cfg: &MatchConfig,
    start: &Position,
    moves: &[Move],
    report: &GameReport,
    opening_plies: usize,
) -> anyhow::Result<String> {
    let mut rec = Record::from_game(&cfg.game, start, moves)
        .map_err(|e| anyhow!("cannot write the record of a game: {e}"))?;
    rec.set_tag("Variant", cfg.game.to_string());
    rec.set_tag("South", report.south.as_str());
    rec.set_tag("North", report.north.as_str());
    rec.set_tag("Result", result_tag(report.winner, report.end));
    rec.set_tag("Game", report.game.to_string());
    rec.set_tag("Opening", format!("{opening_plies} random plies"));
    Ok(rec.to_string())
}
