//! A match's result: its games, the score with its interval, and the one JSON layout that
//! `bao eval --json`, `bao gauntlet --json` and Python's `bao_zero.evaluate` share.
//!
//! Games repeat when both players are deterministic (a policy and `ab:depth=2` from the start
//! position play the same two games however many are asked for). Such repeats are one sample,
//! not many: a game is identified by the side player A took and its moves (the random opening
//! included, all from the match's one start position), and when some games repeat, the score
//! and its interval count each distinct game once, with its result (`distinct-trinomial`).
//! Wins, draws and losses still count every game played.

use super::elo::{ScoreEstimate, pentanomial, trinomial};
use super::sprt::{SprtResult, Verdict};
use crate::rules::{Dir, EndReason, Move, Side};
use serde::{Serialize, Serializer};
use std::collections::HashSet;

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
    /// What identifies the game among the match's: [`game_id`] of A's side and the moves
    /// (16 hex digits in JSON).
    #[serde(serialize_with = "hex_id")]
    pub id: u64,
    /// The game as a KIBA record (tags Variant, South, North, Result, Game, Opening); left out
    /// of JSON when emptied.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub record: String,
}

fn hex_id<S: Serializer>(id: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{id:016x}"))
}

/// A game's identity in its match: FNV-1a over player A's side and every move (its pit, and
/// its direction, house choice and kind in one byte). Two games share it when A took the same
/// side and the same moves were played from the match's start position.
pub fn game_id(a_is_south: bool, moves: &[Move]) -> u64 {
    let mut bytes = Vec::with_capacity(1 + 2 * moves.len());
    bytes.push(u8::from(a_is_south));
    for m in moves {
        let kind = m.kind as u8;
        let choice = u8::from(m.dir == Dir::Right) | u8::from(m.house) << 1 | kind << 2;
        bytes.extend([m.pit.index() as u8, choice]);
    }
    crate::util::hash::fnv1a(&bytes)
}

/// The result of a match, from player A's side.
#[derive(Clone, Debug)]
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
    /// Player A's own budget a move, with no limits given ([`Player::default_budget`]).
    ///
    /// [`Player::default_budget`]: crate::search::Player::default_budget
    pub budget_a: String,
    /// Player B's.
    pub budget_b: String,
    /// The match's limits a move for both players (`none`: each its own budget).
    pub limits: String,
    /// Games played.
    pub games: usize,
    /// Distinct games among them (see the module docs).
    pub distinct_games: usize,
    /// A's wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// A's losses.
    pub losses: u64,
    /// Complete pairs by A's points in the pair: 0, 1/2, 1, 3/2, 2.
    pub pentanomial: [u64; 5],
    /// The model of the interval and the SPRT: `pentanomial` when every game is in a complete
    /// pair, else `trinomial`; `distinct-trinomial` when some games repeat.
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

/// The JSON layout of a match, written once for every front end: the estimate's figures at the
/// top level, and nested under `estimate` as well for the readers of older match files.
#[derive(Serialize)]
struct MatchJson<'a> {
    a: &'a str,
    b: &'a str,
    variant: &'a str,
    seed: u64,
    opening_plies: u32,
    budget_a: &'a str,
    budget_b: &'a str,
    limits: &'a str,
    games: usize,
    distinct_games: usize,
    warning: Option<String>,
    wins: u64,
    draws: u64,
    losses: u64,
    pentanomial: [u64; 5],
    model: &'static str,
    #[serde(flatten)]
    score: &'a ScoreEstimate,
    elo_text: String,
    estimate: &'a ScoreEstimate,
    sprt: &'a Option<SprtResult>,
    stopped_early: bool,
    by_colour: [u64; 3],
    mean_plies: f64,
    summary: String,
    game_list: &'a [GameReport],
}

impl Serialize for MatchResult {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        MatchJson {
            a: &self.a,
            b: &self.b,
            variant: &self.variant,
            seed: self.seed,
            opening_plies: self.opening_plies,
            budget_a: &self.budget_a,
            budget_b: &self.budget_b,
            limits: &self.limits,
            games: self.games,
            distinct_games: self.distinct_games,
            warning: self.warning(),
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            pentanomial: self.pentanomial,
            model: self.model,
            score: &self.estimate,
            elo_text: self.estimate.elo_text(),
            estimate: &self.estimate,
            sprt: &self.sprt,
            stopped_early: self.stopped_early,
            by_colour: self.by_colour,
            mean_plies: self.mean_plies,
            summary: self.summary(),
            game_list: &self.game_list,
        }
        .serialize(s)
    }
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

    /// The result as JSON, the layout `bao eval --json` prints and `bao_zero.evaluate` returns:
    /// every game without its record (`records` has them).
    pub fn to_json(&self) -> serde_json::Value {
        let mut bare = self.clone();
        for g in &mut bare.game_list {
            g.record.clear();
        }
        // Plain data with string keys; a non-finite float becomes null: nothing here can fail.
        serde_json::to_value(&bare).expect("a match result is plain data")
    }

    /// Names the players `a` and `b` (labels for tables and JSON) in the result and its games;
    /// the records keep the players' own names.
    pub fn relabel(&mut self, a: &str, b: &str) {
        for g in &mut self.game_list {
            let (south, north) = if g.a_is_south { (a, b) } else { (b, a) };
            g.south = south.to_string();
            g.north = north.to_string();
        }
        self.a = a.to_string();
        self.b = b.to_string();
    }

    /// Player A's points and the games they count, as the estimate counts them: every game
    /// played, or each distinct game once when some repeat.
    pub fn counted(&self) -> (f64, f64) {
        if self.distinct_games < self.games {
            let n = self.distinct_games as f64;
            (self.estimate.score * n, n)
        } else {
            let points = self.wins as f64 + self.draws as f64 / 2.0;
            (points, self.games as f64)
        }
    }

    /// The line that says games repeated, when they did.
    pub fn warning(&self) -> Option<String> {
        (self.distinct_games < self.games).then(|| {
            format!(
                "warning: {} of the {} games are distinct (the same moves from the same \
                 opening): the score and its interval count each distinct game once",
                self.distinct_games, self.games
            )
        })
    }

    /// A one-paragraph summary.
    pub fn summary(&self) -> String {
        let e = &self.estimate;
        let mut s = format!(
            "{} vs {} on {}: {} games, +{} ={} -{} (South won {}, North {}, draws {}; {:.0} plies a game)\n\
             budget a move: {} {}, {} {}; limits for both: {}\n\
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
            self.a,
            self.budget_a,
            self.b,
            self.budget_b,
            self.limits,
            100.0 * e.score,
            100.0 * e.score_low,
            100.0 * e.score_high,
            e.elo_text(),
            self.model
        );
        if let Some(w) = self.warning() {
            s.push('\n');
            s.push_str(&w);
        }
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

/// Each distinct game once, the first of its kind (see the module docs).
fn distinct(games: &[GameReport]) -> Vec<&GameReport> {
    let mut seen = HashSet::new();
    games.iter().filter(|g| seen.insert(g.id)).collect()
}

/// The sample distribution for intervals and the SPRT: each distinct game once when games
/// repeat, else pairs when all games are paired, else games.
pub(super) fn distribution(games: &[GameReport]) -> (Vec<(f64, f64)>, &'static str) {
    let once = distinct(games);
    if once.len() < games.len() {
        let [w, d, l] = wdl(once.into_iter());
        return (trinomial(w, d, l), "distinct-trinomial");
    }
    let (pairs, all_paired) = pair_counts(games);
    if all_paired && !games.is_empty() {
        (pentanomial(&pairs), "pentanomial")
    } else {
        let [w, d, l] = wdl(games.iter());
        (trinomial(w, d, l), "trinomial")
    }
}

fn wdl<'a>(games: impl Iterator<Item = &'a GameReport>) -> [u64; 3] {
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

/// What a match knows before its games: the players' names and budgets, its settings.
pub(super) struct MatchHeader {
    pub a: String,
    pub b: String,
    pub budget_a: String,
    pub budget_b: String,
    pub variant: String,
    pub seed: u64,
    pub opening_plies: u32,
    pub limits: String,
}

/// The result of the games played.
pub(super) fn summarize(
    header: MatchHeader,
    games: Vec<GameReport>,
    sprt: Option<SprtResult>,
    stopped_early: bool,
) -> MatchResult {
    let [wins, draws, losses] = wdl(games.iter());
    let (pentanomial, _) = pair_counts(&games);
    let (dist, model) = distribution(&games);
    let games_per_sample = if model == "pentanomial" { 2.0 } else { 1.0 };
    let mut by_colour = [0u64; 3];
    for g in &games {
        by_colour[g.winner.map_or(2, |s| s.index())] += 1;
    }
    let mean_plies = games.iter().map(|g| g.plies as f64).sum::<f64>() / games.len().max(1) as f64;
    MatchResult {
        a: header.a,
        b: header.b,
        variant: header.variant,
        seed: header.seed,
        opening_plies: header.opening_plies,
        budget_a: header.budget_a,
        budget_b: header.budget_b,
        limits: header.limits,
        games: games.len(),
        distinct_games: distinct(&games).len(),
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
