//! Matches between two players: game pairs from shared random openings (each player takes South
//! once), played in parallel, with a ply cap, an optional SPRT that stops early, Elo estimates
//! and every game as a KIBA record.
//!
//! Reproducible: game `g` depends only on the seed and `g` (its opening, its players' seeds), not
//! on thread scheduling; with depth or node limits the same config gives the same games.

use super::elo::{ScoreEstimate, pentanomial, trinomial};
use super::sprt::{SprtConfig, SprtResult, Verdict};
use crate::env::random_opening;
use crate::notation::{Record, move_text};
use crate::players::{Choice, Limits, Player, PlayerRegistry, PlayerSpec};
use crate::rules::{EndReason, Move, MoveList, Position, Rules, Side, Variant};
use anyhow::{Context, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use std::io::IsTerminal;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameEnd {
    /// The loser's front row became empty.
    FrontRowEmpty,
    /// The loser had no legal move.
    NoMoves,
    /// A never-ending move ended the game.
    NeverEndingMove,
    /// The ply cap was reached: a draw.
    MaxPlies,
}

impl GameEnd {
    /// The name used in records: `front-row-empty`, `no-moves`, `never-ending-move`, `max-plies`.
    pub fn name(self) -> &'static str {
        match self {
            GameEnd::FrontRowEmpty => EndReason::FrontRowEmpty.name(),
            GameEnd::NoMoves => EndReason::NoMoves.name(),
            GameEnd::NeverEndingMove => EndReason::NeverEndingMove.name(),
            GameEnd::MaxPlies => "max-plies",
        }
    }
}

impl From<EndReason> for GameEnd {
    fn from(r: EndReason) -> GameEnd {
        match r {
            EndReason::FrontRowEmpty => GameEnd::FrontRowEmpty,
            EndReason::NoMoves => GameEnd::NoMoves,
            EndReason::NeverEndingMove => GameEnd::NeverEndingMove,
        }
    }
}

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
    /// The rule set.
    pub rules: Rules,
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
}

impl MatchConfig {
    /// A match of 100 games on a preset with the defaults: 4 opening plies, a 400-ply cap,
    /// no extra limits, no SPRT, a progress bar.
    pub fn new(a: PlayerSpec, b: PlayerSpec, variant: Variant) -> MatchConfig {
        MatchConfig {
            a,
            b,
            rules: variant.rules(),
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
        }
    }
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameReport {
    /// 1-based game number.
    pub game: usize,
    /// 0-based pair number (the two games of a pair share their opening).
    pub pair: usize,
    /// The South player.
    pub south: String,
    /// The North player.
    pub north: String,
    /// Whether player A was South.
    pub a_is_south: bool,
    /// The winner.
    pub winner: Option<Side>,
    /// How it ended.
    pub end: GameEnd,
    /// Plies played, opening included.
    pub plies: usize,
    /// Player A's score: 1, 1/2 or 0.
    pub score_a: f64,
    /// The game as a KIBA record (tags Variant, South, North, Result, Game, Opening); left out
    /// of JSON when emptied.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub record: String,
}

/// The result of a match, from player A's side.
#[derive(Clone, Debug, Serialize)]
pub struct MatchResult {
    /// Player A.
    pub a: String,
    /// Player B.
    pub b: String,
    /// The variant.
    pub variant: String,
    /// The seed of the openings (`--seed`): matches with the same seed, opening plies and
    /// opponent opened pair k alike (`bao pool` compares them).
    pub seed: u64,
    /// Random plies before each pair.
    pub opening_plies: u32,
    /// Games played.
    pub games: usize,
    /// A's wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// A's losses.
    pub losses: u64,
    /// Complete pairs by A's points in the pair: 0, 1/2, 1, 3/2, 2.
    pub pentanomial: [u64; 5],
    /// The model of the interval and the SPRT: `pentanomial` when every game is in a complete
    /// pair, else `trinomial`.
    pub model: &'static str,
    /// Score and Elo difference (A minus B) with 95% intervals.
    pub estimate: ScoreEstimate,
    /// The SPRT, if one was asked for.
    pub sprt: Option<SprtResult>,
    /// Whether the SPRT stopped the match before all games.
    pub stopped_early: bool,
    /// Games won by South, by North, drawn.
    pub by_colour: [u64; 3],
    /// Mean plies per game.
    pub mean_plies: f64,
    /// Every game, in order.
    pub game_list: Vec<GameReport>,
}

impl MatchResult {
    /// Every game's record, separated by blank lines.
    pub fn records(&self) -> String {
        self.game_list
            .iter()
            .map(|g| g.record.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A one-paragraph summary.
    pub fn summary(&self) -> String {
        let e = &self.estimate;
        let mut s = format!(
            "{} vs {} on {}: {} games, +{} ={} -{} (South won {}, North {}, draws {}; {:.0} plies a game)\n\
             score {:.1}% [{:.1}%, {:.1}%], Elo {} (95%, {})",
            self.a,
            self.b,
            self.variant,
            self.games,
            self.wins,
            self.draws,
            self.losses,
            self.by_colour[0],
            self.by_colour[1],
            self.by_colour[2],
            self.mean_plies,
            100.0 * e.score,
            100.0 * e.score_low,
            100.0 * e.score_high,
            e.elo_text(),
            self.model
        );
        if let Some(t) = &self.sprt {
            let verdict = match t.verdict {
                Verdict::H1 => "H1 accepted",
                Verdict::H0 => "H0 accepted",
                Verdict::Continue => "undecided",
            };
            s.push_str(&format!(
                "\nSPRT elo0={} elo1={} alpha={} beta={} ({}): LLR {:.2} [{:.2}, {:.2}]: {verdict}{}",
                t.config.elo0,
                t.config.elo1,
                t.config.alpha,
                t.config.beta,
                t.model,
                t.llr,
                t.lower,
                t.upper,
                if self.stopped_early {
                    " (stopped early)"
                } else {
                    ""
                }
            ));
        }
        s
    }
}

/// Well-spread seeds from a seed and an index (SplitMix64's mix).
pub fn mix(seed: u64, index: u64) -> u64 {
    crate::util::mix64(
        seed ^ index
            .wrapping_add(1)
            .wrapping_mul(crate::util::GOLDEN_GAMMA),
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
    // Fail on a bad spec, or players of another game, before any game, and learn the names.
    let (a, b) = (
        cfg.players.build(&cfg.a, &cfg.rules, 0)?,
        cfg.players.build(&cfg.b, &cfg.rules, 0)?,
    );
    super::check_one_game(&cfg.rules, &[a.as_ref(), b.as_ref()])?;
    let (name_a, name_b) = (a.name(), b.name());
    let start = cfg.start.unwrap_or_else(|| Position::start(&cfg.rules));
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
    Ok(summarize(name_a, name_b, cfg, games, sprt, stopped_early))
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
    let (opening, from) = random_opening(&cfg.rules, start, cfg.opening_plies, &mut rng);
    let games_here = if 2 * p + 1 < cfg.games { 2 } else { 1 };
    let mut out = Vec::with_capacity(games_here);
    for g in 0..games_here {
        let game = 2 * p + g + 1;
        let a_is_south = g == 0;
        let (seed_a, seed_b) = (
            mix(pair_seed, 2 * g as u64 + 1),
            mix(pair_seed, 2 * g as u64 + 2),
        );
        let mut a = cfg.players.build(&cfg.a, &cfg.rules, seed_a)?;
        let mut b = cfg.players.build(&cfg.b, &cfg.rules, seed_b)?;
        a.new_game(seed_a);
        b.new_game(seed_b);
        let (south, north): (&mut dyn Player, &mut dyn Player) = if a_is_south {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        let left = cfg.max_plies.saturating_sub(opening.len());
        let outcome = play_game(
            &cfg.rules,
            &from,
            south,
            north,
            &cfg.limits,
            left,
            |_, _, _| {},
        )
        .with_context(|| format!("game {game} of {name_a} vs {name_b}"))?;
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
    let mut rec = Record::from_game(&cfg.rules, start, moves)
        .map_err(|e| anyhow!("cannot write the record of a game: {e}"))?;
    rec.set_tag("Variant", cfg.variant.clone());
    rec.set_tag("South", report.south.as_str());
    rec.set_tag("North", report.north.as_str());
    rec.set_tag("Result", result_tag(report.winner, report.end));
    rec.set_tag("Game", report.game.to_string());
    rec.set_tag("Opening", format!("{opening_plies} random plies"));
    Ok(rec.to_string())
}

/// Complete pairs by A's points (index = points x 2).
fn pair_counts(games: &[GameReport]) -> ([u64; 5], bool) {
    let mut counts = [0u64; 5];
    let mut all_paired = true;
    for pair in games.chunk_by(|x, y| x.pair == y.pair) {
        if pair.len() == 2 {
            let points: f64 = pair.iter().map(|g| g.score_a).sum();
            counts[(points * 2.0).round() as usize] += 1;
        } else {
            all_paired = false;
        }
    }
    (counts, all_paired)
}

/// The sample distribution for intervals and the SPRT: pairs when all games are paired.
fn distribution(games: &[GameReport]) -> (Vec<(f64, f64)>, &'static str) {
    let (pairs, all_paired) = pair_counts(games);
    if all_paired && !games.is_empty() {
        (pentanomial(&pairs), "pentanomial")
    } else {
        let [w, d, l] = wdl(games);
        (trinomial(w, d, l), "trinomial")
    }
}

fn wdl(games: &[GameReport]) -> [u64; 3] {
    let mut r = [0u64; 3];
    for g in games {
        r[if g.score_a == 1.0 {
            0
        } else if g.score_a == 0.0 {
            2
        } else {
            1
        }] += 1;
    }
    r
}

fn summarize(
    a: String,
    b: String,
    cfg: &MatchConfig,
    games: Vec<GameReport>,
    sprt: Option<SprtResult>,
    stopped_early: bool,
) -> MatchResult {
    let [wins, draws, losses] = wdl(&games);
    let (pentanomial, _) = pair_counts(&games);
    let (dist, model) = distribution(&games);
    let games_per_sample = if model == "pentanomial" { 2.0 } else { 1.0 };
    let mut by_colour = [0u64; 3];
    for g in &games {
        by_colour[g.winner.map_or(2, |s| s.index())] += 1;
    }
    let mean_plies = games.iter().map(|g| g.plies as f64).sum::<f64>() / games.len().max(1) as f64;
    MatchResult {
        a,
        b,
        variant: cfg.variant.clone(),
        seed: cfg.seed,
        opening_plies: cfg.opening_plies,
        games: games.len(),
        wins,
        draws,
        losses,
        pentanomial,
        model,
        estimate: ScoreEstimate::from_distribution(&dist, games_per_sample),
        sprt,
        stopped_early,
        by_colour,
        mean_plies,
        game_list: games,
    }
}
