//! The exact exploitability of a deterministic victim (`bao exploit --exact`): for each game of a
//! suite, the openings and seats `bao eval` gives a match with the same seed, whether some line
//! beats the victim ([`BestResponder`]). The lines found become a book (`book:FILE`), which is
//! then played against the victim through [`run_match`], so that every claimed result is
//! confirmed game for game; a trained exploiter, if named, plays the same suite beside it.
//!
//! The games are searched in parallel (`threads` at once, each with a table of its own), so the
//! report is the same whatever the threads; a search reads the wins the solver's cache proves
//! ([`ProvenWins`]), which hold against any victim.
//!
//! Only the games the solver proves from the start ([`SOLVED_GAMES`]) are taken: elsewhere a
//! search over every exploiter move proves nothing in reasonable time.

use super::arena::{MAX_OPENING_PLIES, mix};
use super::{MatchConfig, MatchResult, run_match};
use crate::env::random_opening;
use crate::players::{Limits, PlayerRegistry, PlayerSpec};
use crate::rules::{Game, Position, Rules, Side, Variant};
use crate::search::book::{Book, BookEntry};
use crate::search::solver::best_response::{BestResponder, Response};
use crate::search::solver::proven::ProvenWins;
use crate::search::solver::victim::{Memory, Victim, VictimBuilder, check_determinism};
use crate::search::solver::{SOLVED_GAMES, SolveLimits, Value};
use crate::util::check::check_range;
use anyhow::{Context, bail};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The report's file name.
pub const EXACT_JSON: &str = "exact.json";
/// The book's file name.
pub const BOOK_JSON: &str = "book.json";
/// The most games of a suite.
pub const MAX_GAMES: usize = 10_000;
/// Games of the determinism check (from the suite's first openings).
const CHECK_GAMES: usize = 4;
/// The most threads searching a suite.
pub const MAX_THREADS: usize = 1024;

/// What `--exact` computes.
#[derive(Clone, Debug)]
pub struct ExactConfig {
    /// The victim's player spec.
    pub victim: String,
    /// The game.
    pub variant: Variant,
    /// Games of the suite (pairs sharing an opening, one game with each seat).
    pub games: usize,
    /// The seed of the openings (`bao eval --seed`).
    pub seed: u64,
    /// Random plies of each opening (`bao eval --opening-plies`).
    pub opening_plies: u32,
    /// The ply cap (`bao eval --max-plies`): a game that reaches it is a draw.
    pub max_plies: usize,
    /// Bounds of each game's search (time, nodes) and its table's bytes.
    pub limits: SolveLimits,
    /// Games searched at once (0: one per core), each with a table of `limits.memory` bytes.
    pub threads: usize,
    /// The solver's cache folder whose proven wins the searches read (`bao solve --cache`).
    pub cache: Option<PathBuf>,
    /// Where the book is written.
    pub book: PathBuf,
    /// A trained exploiter's spec, played on the same suite.
    pub trained: Option<String>,
}

/// One game of the suite.
#[derive(Clone, Debug, Serialize)]
pub struct ExactGame {
    /// 1-based game number, as `bao eval` numbers them.
    pub game: usize,
    /// The exploiter's seat.
    pub exploiter: Side,
    /// `win`, `draw` or `loss` for the exploiter, or `unknown` within the bounds.
    pub result: String,
    /// Plies of the line found (the opening not counted).
    pub plies: usize,
    /// Positions searched.
    pub nodes: u64,
    /// Moves asked of the victim.
    pub victim_calls: u64,
    /// Seconds of the search.
    pub seconds: f64,
    /// The book's score in this game through `bao eval` (1, 1/2, 0).
    pub book_score: f64,
    /// The trained exploiter's score in this game, if one was named.
    pub trained_score: Option<f64>,
}

/// A trained exploiter's score on the suite.
#[derive(Clone, Debug, Serialize)]
pub struct Trained {
    /// Its player spec.
    pub spec: String,
    /// Its mean score over the suite's games.
    pub score: f64,
}

/// The report (`exact.json`).
#[derive(Clone, Debug, Serialize)]
pub struct ExactReport {
    /// The victim.
    pub victim: String,
    /// The game.
    pub variant: String,
    /// What the victim's moves were found to depend on.
    pub victim_memory: Memory,
    /// The suite: seed, random plies and ply cap of `bao eval`.
    pub seed: u64,
    /// Random plies of each opening.
    pub opening_plies: u32,
    /// The ply cap.
    pub max_plies: usize,
    /// The exact exploitability: the share of the suite's games (openings and seats) in which
    /// some line beats the victim.
    pub exploitability: f64,
    /// The exact best response's score (wins and half the draws) over the games it decided.
    pub score: f64,
    /// Games left unknown within the bounds.
    pub unknown: usize,
    /// Games whose result the book's game through `bao eval` confirmed.
    pub confirmed: usize,
    /// The book written, and its positions.
    pub book: PathBuf,
    /// Positions in the book.
    pub book_positions: usize,
    /// The trained exploiter's score on the same games, if one was named.
    pub trained: Option<Trained>,
    /// Every game.
    pub games: Vec<ExactGame>,
}

/// Computes the report (see the module docs); one-line errors for bad input, before any search.
pub fn exact_exploitability(
    cfg: &ExactConfig,
    players: &PlayerRegistry,
) -> anyhow::Result<ExactReport> {
    let rules = check_config(cfg, players)?;
    let games = suite(cfg, &rules);
    let mut check = victim_builder(cfg, players, &rules, cfg.seed);
    let starts: Vec<Position> = games.iter().take(CHECK_GAMES).map(|g| g.1.0).collect();
    let mut memory = check_determinism(&mut check, &rules, &starts)?;
    let proven = Arc::new(match &cfg.cache {
        Some(dir) => ProvenWins::load(dir, &rules)?,
        None => ProvenWins::default(),
    });
    let mut searched = search_suite(cfg, players, &rules, &games, memory, &proven)?;
    // The check asks a victim only a few positions. One judged to answer by position alone
    // whose book's games then contradict a claimed result remembers more than the position (by
    // position, a line's replies are the victim's whatever the way there): search it again by
    // history.
    if memory == Memory::Position && contradicts(&searched) {
        memory = Memory::History;
        searched = search_suite(cfg, players, &rules, &games, memory, &proven)?;
    }
    let (found, book, confirmed) = searched;
    let trained = match &cfg.trained {
        Some(spec) => Some((spec.clone(), play_suite(cfg, &rules, players, spec)?)),
        None => None,
    };
    Ok(report(cfg, memory, found, book, &confirmed, trained))
}

/// What searching the suite found (each game's response), the book's positions, and each
/// game's score for the book through `bao eval`.
type Searched = (Vec<(usize, Side, Response)>, usize, Vec<f64>);

/// Whether a game's book scored other than the search claimed.
fn contradicts((found, _, confirmed): &Searched) -> bool {
    (found.iter().zip(confirmed))
        .any(|((_, _, r), &score)| r.value.is_some_and(|v| points(v) != score))
}

/// Searches each game of `games` against the victim with `memory`, writes the book and plays it.
fn search_suite(
    cfg: &ExactConfig,
    players: &PlayerRegistry,
    rules: &Game,
    games: &[Suite],
    memory: Memory,
    proven: &Arc<ProvenWins>,
) -> anyhow::Result<Searched> {
    // Each game alone, on a table of its own: its result and figures are the same whatever
    // else runs beside it.
    let search = |&(game, start, exploiter, victim_seed): &Suite| {
        let build = victim_builder(cfg, players, rules, victim_seed);
        let mut victim = Victim::new(build, memory)?;
        let mut responder = BestResponder::new(cfg.limits)?.reading(proven.clone());
        let cap = cfg.max_plies - start.1;
        let r = responder
            .respond(rules, &start.0, exploiter, &mut victim, cap, victim_seed)
            .with_context(|| format!("game {game} of the suite"))?;
        Ok((game, exploiter, r))
    };
    let pool = crate::pool::OwnPool::new(cfg.threads, "exact");
    let found: Vec<(usize, Side, Response)> =
        pool.install(|| games.par_iter().map(search).collect::<anyhow::Result<_>>())??;
    let book = write_book(cfg, rules, &found)?;
    let book_spec = format!("book:{},else=ab:depth=1", cfg.book.display());
    let confirmed = play_suite(cfg, rules, players, &book_spec)?;
    Ok((found, book, confirmed))
}

/// Checks the config's bounds, the game and the victim (it loads, plays this game and is not
/// random by kind); the rule set.
fn check_config(cfg: &ExactConfig, players: &PlayerRegistry) -> anyhow::Result<Game> {
    if !SOLVED_GAMES.contains(&cfg.variant) {
        let names: Vec<&str> = SOLVED_GAMES.iter().map(|v| v.name()).collect();
        bail!(
            "--exact needs a game the solver proves ({}), not {}",
            names.join(", "),
            cfg.variant.name()
        );
    }
    check_range("--games", cfg.games, 1..=MAX_GAMES)?;
    check_range("--threads", cfg.threads, 0..=MAX_THREADS)?;
    check_range("--opening-plies", cfg.opening_plies, 0..=MAX_OPENING_PLIES)?;
    check_range(
        "--max-plies",
        cfg.max_plies,
        cfg.opening_plies as usize + 1..=crate::search::solver::MAX_PLY,
    )?;
    let rules = Game::from(cfg.variant);
    let spec: PlayerSpec = cfg.victim.parse()?;
    if matches!(spec, PlayerSpec::Random) {
        bail!("the victim `random` plays at random: --exact needs a deterministic victim");
    }
    if let PlayerSpec::AlphaBeta(ab) = &spec
        && ab.limits.time.is_some()
    {
        bail!(
            "the victim `{}` thinks for a time, so its moves vary: --exact needs a deterministic \
             victim (give it depth= or nodes=)",
            cfg.victim
        );
    }
    let victim = players.build(&spec, &rules, cfg.seed)?;
    crate::players::check_players(&rules, &[victim.as_ref()])?;
    if let Some(trained) = &cfg.trained {
        let t = players.resolve(trained, &rules, cfg.seed)?.1;
        crate::players::check_players(&rules, &[t.as_ref()])?;
    }
    Ok(rules)
}

/// A builder of the victim of the game whose victim is seeded `seed`, as [`run_match`] builds it.
fn victim_builder(
    cfg: &ExactConfig,
    players: &PlayerRegistry,
    rules: &Game,
    seed: u64,
) -> Box<VictimBuilder> {
    let (players, rules, text) = (players.clone(), rules.clone(), cfg.victim.clone());
    Box::new(move || {
        let spec: PlayerSpec = text.parse()?;
        let mut victim = players.build(&spec, &rules, seed)?;
        victim.new_game(seed);
        Ok(victim)
    })
}

/// A game of the suite: the game number, the position after the opening and the opening's
/// plies, the exploiter's seat, the victim's seed.
type Suite = (usize, (Position, usize), Side, u64);

/// The suite's games as `run_match` plays them with the exploiter as player A.
fn suite(cfg: &ExactConfig, rules: &Rules) -> Vec<Suite> {
    let start = Position::start(rules);
    let mut out = Vec::with_capacity(cfg.games);
    for p in 0..cfg.games.div_ceil(2) {
        let pair_seed = mix(cfg.seed, p as u64);
        let mut rng = ChaCha8Rng::seed_from_u64(pair_seed);
        let (opening, from) = random_opening(rules, &start, cfg.opening_plies, &mut rng);
        for g in 0..2usize {
            let game = 2 * p + g + 1;
            if game > cfg.games {
                break;
            }
            let seat = if g == 0 { Side::South } else { Side::North };
            let victim_seed = mix(pair_seed, 2 * g as u64 + 2);
            out.push((game, (from, opening.len()), seat, victim_seed));
        }
    }
    out
}

/// Writes the book of every line found; its number of positions. A position two games reach
/// with different moves keeps the first game's (its confirmation then says whether that held).
fn write_book(
    cfg: &ExactConfig,
    rules: &Rules,
    found: &[(usize, Side, Response)],
) -> anyhow::Result<usize> {
    let mut book = Book::new(cfg.variant.name(), rules, &cfg.victim);
    let mut seen = HashMap::new();
    for (pos, mv) in found.iter().flat_map(|(_, _, r)| &r.book) {
        let key = crate::search::zobrist::hash(pos);
        if seen.insert(key, *mv).is_none() {
            book.entries.push(BookEntry {
                position: pos.to_string(),
                mv: *mv,
            });
        }
    }
    let folder = crate::util::fs::parent_dir(&cfg.book);
    std::fs::create_dir_all(folder).with_context(|| format!("cannot make {}", folder.display()))?;
    book.write(&cfg.book)?;
    Ok(book.entries.len())
}

/// The scores of `exploiter` (a spec) against the victim in the suite's games, through
/// [`run_match`] with the suite's seed, openings and cap.
fn play_suite(
    cfg: &ExactConfig,
    rules: &Game,
    players: &PlayerRegistry,
    exploiter: &str,
) -> anyhow::Result<Vec<f64>> {
    let result: MatchResult = run_match(&MatchConfig {
        game: rules.clone(),
        variant: cfg.variant.name().to_string(),
        games: cfg.games,
        seed: cfg.seed,
        opening_plies: cfg.opening_plies,
        max_plies: cfg.max_plies,
        limits: Limits::NONE,
        progress: false,
        players: players.clone(),
        ..MatchConfig::new(exploiter.parse()?, cfg.victim.parse()?, cfg.variant)
    })?;
    Ok(result.game_list.iter().map(|g| g.score_a).collect())
}

/// The exploiter's score of a result.
fn points(value: Value) -> f64 {
    match value {
        Value::Win => 1.0,
        Value::Draw => 0.5,
        Value::Loss => 0.0,
    }
}

/// The report of the searches `found`, the book's `confirmed` scores and the `trained` ones.
fn report(
    cfg: &ExactConfig,
    memory: Memory,
    found: Vec<(usize, Side, Response)>,
    book_positions: usize,
    confirmed: &[f64],
    trained: Option<(String, Vec<f64>)>,
) -> ExactReport {
    let n = found.len();
    let games: Vec<ExactGame> = found
        .into_iter()
        .enumerate()
        .map(|(i, (game, exploiter, r))| ExactGame {
            game,
            exploiter,
            result: r.value.map_or("unknown", Value::name).to_string(),
            plies: r.line.len(),
            nodes: r.nodes,
            victim_calls: r.victim_calls,
            seconds: r.seconds,
            book_score: confirmed[i],
            trained_score: trained.as_ref().map(|(_, s)| s[i]),
        })
        .collect();
    let known: Vec<(f64, f64)> = games
        .iter()
        .filter_map(|g| Some((points(result_value(&g.result)?), g.book_score)))
        .collect();
    let wins = known.iter().filter(|(v, _)| *v == 1.0).count();
    let mean = |xs: &[f64]| xs.iter().fold(0.0, |a, b| a + b) / xs.len().max(1) as f64;
    ExactReport {
        victim: cfg.victim.clone(),
        variant: cfg.variant.name().to_string(),
        victim_memory: memory,
        seed: cfg.seed,
        opening_plies: cfg.opening_plies,
        max_plies: cfg.max_plies,
        exploitability: wins as f64 / n as f64,
        score: mean(&known.iter().map(|k| k.0).collect::<Vec<_>>()),
        unknown: n - known.len(),
        confirmed: known.iter().filter(|(v, b)| v == b).count(),
        book: cfg.book.clone(),
        book_positions,
        trained: trained.map(|(spec, s)| Trained {
            spec,
            score: mean(&s),
        }),
        games,
    }
}

fn result_value(name: &str) -> Option<Value> {
    [Value::Win, Value::Draw, Value::Loss]
        .into_iter()
        .find(|v| v.name() == name)
}

/// The report's lines for the terminal.
pub fn exact_lines(r: &ExactReport) -> Vec<String> {
    let decided = r.games.len() - r.unknown;
    let mut lines = vec![
        format!(
            "exact exploitability of `{}` in {}: {:.1}% ({} of {} games beaten; {} unknown \
             within the bounds); best-response score {:.1}% over the {decided} decided",
            r.victim,
            r.variant,
            100.0 * r.exploitability,
            (r.exploitability * r.games.len() as f64).round(),
            r.games.len(),
            r.unknown,
            100.0 * r.score
        ),
        format!(
            "book {} ({} positions): `bao eval` confirmed {} of {decided} results",
            r.book.display(),
            r.book_positions,
            r.confirmed
        ),
    ];
    if let Some(t) = &r.trained {
        lines.push(format!(
            "exploiter {}: {:.1}% on the same games",
            t.spec,
            100.0 * t.score
        ));
    }
    lines
}

/// Seconds as a bound of each game's search, from `--exact-time`.
pub fn per_game_time(text: Option<&str>) -> anyhow::Result<Option<Duration>> {
    text.map(|t| {
        crate::players::options::parse_duration(t)
            .filter(|d| !d.is_zero() && *d <= Duration::from_secs(86_400))
            .ok_or_else(|| anyhow::anyhow!("--exact-time must be a duration up to 24h, not `{t}`"))
    })
    .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{Choice, Player};
    use crate::rules::MoveList;

    /// Plays alpha-beta's move until it has been asked `patience` times in a game, then its
    /// first legal move: its answers depend on its history, but not within the moves the check
    /// asks, nor within a real game, which is too short for it to run out of patience.
    struct Impatient {
        game: Game,
        asked: u32,
        patience: u32,
        strong: Box<dyn Player>,
    }

    impl Player for Impatient {
        fn name(&self) -> String {
            "impatient".into()
        }
        fn game(&self) -> &Game {
            &self.game
        }
        fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
            self.asked += 1;
            if self.asked <= self.patience {
                return self.strong.choose(pos, limits);
            }
            let mut list = MoveList::new();
            pos.legal_moves(self.game.rules(), &mut list);
            Ok(Choice::just(list.moves()[0]))
        }
        fn new_game(&mut self, seed: u64) {
            self.asked = 0;
            self.strong.new_game(seed);
        }
    }

    #[test]
    fn a_victim_judged_to_answer_by_position_that_its_book_contradicts_is_searched_by_history() {
        let mut players = PlayerRegistry::classical();
        players.register("impatient", |players, _, game, seed| {
            let strong = players.build(&STRONG.parse()?, game, seed)?;
            let (asked, patience) = (0, PATIENCE);
            Ok(Box::new(Impatient {
                game: game.clone(),
                asked,
                patience,
                strong,
            }))
        });
        let dir = tempfile::tempdir().unwrap();
        let cfg = ExactConfig {
            victim: "impatient".into(),
            variant: Variant::Kujifunza,
            games: 6,
            seed: 0,
            opening_plies: 4,
            max_plies: 400,
            limits: SolveLimits::default(),
            threads: 1,
            cache: None,
            book: dir.path().join("book.json"),
            trained: None,
        };
        let report = exact_exploitability(&cfg, &players).unwrap();
        assert_eq!(report.victim_memory, Memory::History, "{report:?}");
        let decided = report.games.len() - report.unknown;
        assert_eq!(report.confirmed, decided, "{report:?}");
    }

    const PATIENCE: u32 = 20;
    const STRONG: &str = "ab:depth=3";
}
