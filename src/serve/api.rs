//! The page's requests: each takes the game's lock briefly, and players think outside it (on
//! their [`Bot`]'s thread, awaited), so the page can keep asking for the state while a player
//! thinks.

use super::seats::time_of;
use super::table::{HUMAN, Refusal, Table};
use super::{ApiError, App, Body};
use crate::players::{Bot, Candidate, Choice, Limits};
use crate::rules::{Position, Rules, Variant};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;

type ApiResult = Result<Json<Value>, ApiError>;

fn busy() -> ApiError {
    ApiError(
        StatusCode::CONFLICT,
        "a player is thinking; try again when it has moved".into(),
    )
}

/// The game's lock, refused while a player thinks (its move would land on a changed game).
macro_rules! idle_table {
    ($app:expr) => {{
        let t = $app.table();
        if t.thinking {
            return Err(busy());
        }
        t
    }};
}

/// The players of `seats` for `rules` (none for a person).
fn seat_players(
    app: &App,
    seats: &[String; 2],
    rules: &Rules,
) -> Result<[Option<Bot>; 2], Refusal> {
    let mut players: [Option<Bot>; 2] = [None, None];
    for (k, seat) in seats.iter().enumerate() {
        if seat != HUMAN {
            players[k] = Some(Bot::new(app.build(seat, rules)?));
        }
    }
    Ok(players)
}

/// What a player thought: its bot (to keep for the next move), its choice, and the moves it
/// weighed.
type Thought = (Bot, anyhow::Result<Choice>, Vec<Candidate>);

/// `bot`'s move in `pos` within `limits`, searched on the bot's thread while the request
/// waits without holding a thread of the server; `held` (an analysis permit) is let go when the
/// search ends, even if the client hangs up first. Once `hung_up` resolves (its sender dropped
/// with a cancelled request), the search is asked to end early: nobody waits for it.
async fn think<H: Send + 'static>(
    mut bot: Bot,
    pos: &Position,
    limits: Limits,
    held: H,
    hung_up: Option<oneshot::Receiver<()>>,
) -> Thought {
    let (done, mut finished) = oneshot::channel();
    let started = bot.start(pos, limits, move || {
        drop(held);
        let _ = done.send(());
    });
    if let Err(e) = started {
        return (bot, Err(e), Vec::new());
    }
    let hung_up = async {
        match hung_up {
            Some(signal) => {
                let _ = signal.await;
            }
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = &mut finished => {}
        _ = hung_up => {
            bot.stop();
            let _ = finished.await;
        }
    }
    // The search has sent its signal and is handing its answer back: this wait is short.
    let choice = bot
        .wait()
        .unwrap_or_else(|| Err(anyhow::anyhow!("no search was started")));
    let candidates = bot.player().map(|p| p.candidates()).unwrap_or_default();
    (bot, choice, candidates)
}

/// Runs `work` (a search and what follows it) as a task of its own and answers with its
/// answer. A request is cancelled when its client hangs up; the task is not, so what the work
/// took from the app (the thinking mark, a seat's player, the analyst) always comes back.
async fn outliving<F>(work: F) -> ApiResult
where
    F: Future<Output = ApiResult> + Send + 'static,
{
    tokio::spawn(work).await.unwrap_or_else(|e| {
        Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the player's task failed: {e}"),
        ))
    })
}

/// The table's "a player is thinking" mark: set by [`ThinkingMark::set`], taken off by
/// [`ThinkingMark::clear`] or, on any other way out (an error, a panic, a dropped task), when
/// the mark is dropped. Dropping it takes the table's lock: never drop it while holding that.
struct ThinkingMark(Option<Arc<App>>);

impl ThinkingMark {
    /// Marks `t` (the table of `app`, locked by the caller) as thinking.
    fn set(app: &Arc<App>, t: &mut Table) -> ThinkingMark {
        t.thinking = true;
        ThinkingMark(Some(app.clone()))
    }

    /// Takes the mark off `t` (the table, locked by the caller).
    fn clear(mut self, t: &mut Table) {
        t.thinking = false;
        self.0 = None;
    }
}

impl Drop for ThinkingMark {
    fn drop(&mut self) {
        if let Some(app) = self.0.take() {
            app.table().thinking = false;
        }
    }
}

/// `GET /api/state`.
pub(super) async fn state(State(app): State<Arc<App>>) -> Json<Value> {
    let t = app.table();
    app.view(&t)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NewGame {
    variant: Option<String>,
    south: Option<String>,
    north: Option<String>,
    time_ms: Option<u64>,
}

/// `POST /api/new`.
pub(super) async fn new_game(State(app): State<Arc<App>>, Body(req): Body<NewGame>) -> ApiResult {
    let mut t = idle_table!(app);
    let variant = req.variant.unwrap_or_else(|| t.variant.clone());
    let rules = variant.parse::<Variant>().map_err(Refusal::from)?.rules();
    let seats = [
        req.south.unwrap_or_else(|| HUMAN.into()).trim().to_string(),
        req.north
            .unwrap_or_else(|| app.player.clone())
            .trim()
            .to_string(),
    ];
    let players = seat_players(&app, &seats, &rules)?;
    let time_ms = time_of(req.time_ms, t.time_ms)?;
    *t = Table::new(&variant, rules, None);
    t.seats = seats;
    t.players = players;
    t.time_ms = time_ms;
    t.message = format!(
        "new game of {variant}: {} against {}",
        t.seats[0], t.seats[1]
    );
    Ok(app.view(&t))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MoveReq {
    text: String,
}

/// `POST /api/move`.
pub(super) async fn play_move(State(app): State<Arc<App>>, Body(req): Body<MoveReq>) -> ApiResult {
    let mut t = idle_table!(app);
    if !t.human_to_move() {
        let side = t.current().side_to_move();
        return Err(Refusal(format!("{side} is played by {}", t.seats[side.index()])).into());
    }
    t.play_text(&req.text)?;
    Ok(app.view(&t))
}

/// `POST /api/reply`: the player on move thinks (outside the lock) and plays. The search and
/// the move outlive the request: a client that hangs up (a page reloaded) finds the move played
/// and the table free again.
pub(super) async fn reply(State(app): State<Arc<App>>) -> ApiResult {
    let (player, pos, limits, side, mark) = {
        let mut t = idle_table!(app);
        let pos = t.current();
        if pos.outcome(&t.rules).is_some() {
            return Err(Refusal("the game is over".into()).into());
        }
        let side = pos.side_to_move();
        let seat = t.seats[side.index()].clone();
        if seat == HUMAN {
            return Err(Refusal(format!("{side} is played by a person at the page")).into());
        }
        let player = match t.players[side.index()].take() {
            Some(p) => p,
            None => Bot::new(app.build(&seat, &t.rules)?),
        };
        let limits = Limits::time(Duration::from_millis(t.time_ms));
        // The mark is made last: nothing after it returns early while the lock is held.
        let mark = ThinkingMark::set(&app, &mut t);
        (player, pos, limits, side, mark)
    };
    outliving(async move {
        let (player, choice, _) = think(player, &pos, limits, (), None).await;
        let mut t = app.table();
        mark.clear(&mut t);
        t.players[side.index()] = Some(player);
        let choice = choice.map_err(Refusal::from)?;
        if t.current() != pos {
            return Err(Refusal("the game changed while the player thought".into()).into());
        }
        t.play(choice.mv)?;
        Ok(app.view(&t))
    })
    .await
}

/// `POST /api/undo`.
pub(super) async fn undo(State(app): State<Arc<App>>) -> ApiResult {
    let mut t = idle_table!(app);
    t.undo()?;
    Ok(app.view(&t))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Goto {
    ply: usize,
}

/// `POST /api/goto`.
pub(super) async fn goto(State(app): State<Arc<App>>, Body(req): Body<Goto>) -> ApiResult {
    let mut t = idle_table!(app);
    t.goto(req.ply)?;
    Ok(app.view(&t))
}

/// Replaces the game by the one in `text`, played by `seats` (paused: the page looks at the
/// start and steps through). A game that cannot be loaded leaves `t` as it was.
fn load_text(
    app: &App,
    t: &mut Table,
    text: &str,
    variant: &str,
    seats: [String; 2],
) -> Result<(), Refusal> {
    let (name, rules, start, moves) = super::load::read_game(text, variant)?;
    let players = seat_players(app, &seats, &rules)
        .map_err(|Refusal(e)| Refusal(format!("{e}; start a new game with other players first")))?;
    let mut fresh = Table::new(&name, rules, Some(start));
    fresh.seats = seats;
    fresh.players = players;
    fresh.time_ms = t.time_ms;
    for mv in moves {
        fresh.play(mv)?;
    }
    fresh.last = None;
    fresh.message = format!("loaded: {} moves; step with ◀ ▶", fresh.moves.len());
    *t = fresh;
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Load {
    text: String,
    variant: Option<String>,
}

/// `POST /api/load`.
pub(super) async fn load(State(app): State<Arc<App>>, Body(req): Body<Load>) -> ApiResult {
    let mut t = idle_table!(app);
    let variant = req.variant.unwrap_or_else(|| t.variant.clone());
    let seats = t.seats.clone();
    load_text(&app, &mut t, &req.text, &variant, seats)?;
    Ok(app.view(&t))
}

/// `GET /api/run/games`: the run's recorded evaluation games.
pub(super) async fn run_games(State(app): State<Arc<App>>) -> ApiResult {
    let run = app
        .run
        .as_ref()
        .ok_or_else(|| Refusal("no training run: start with --run DIR".into()))?;
    Ok(Json(json!({ "games": run.list() })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RunLoad {
    file: String,
    game: usize,
}

/// `POST /api/run/load`: a recorded game of the run, to step through.
pub(super) async fn run_load(State(app): State<Arc<App>>, Body(req): Body<RunLoad>) -> ApiResult {
    let run = app
        .run
        .as_ref()
        .ok_or_else(|| Refusal("no training run: start with --run DIR".into()))?;
    let text = run
        .record(&req.file, req.game)
        .ok_or_else(|| Refusal(format!("no game {} in {}", req.game, req.file)))?;
    let mut t = idle_table!(app);
    let seats = [HUMAN.to_string(), HUMAN.to_string()];
    load_text(&app, &mut t, &text, &run.variant, seats)?;
    t.cursor = 0;
    Ok(app.view(&t))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Analyse {
    time_ms: Option<u64>,
}

/// `POST /api/analyse`: the analysis player's top moves for the position looked at.
pub(super) async fn analyse(State(app): State<Arc<App>>, Body(req): Body<Analyse>) -> ApiResult {
    let (pos, rules, time_ms) = {
        let t = app.table();
        (
            t.current(),
            t.rules.clone(),
            time_of(req.time_ms, t.time_ms)?,
        )
    };
    if pos.outcome(&rules).is_some() {
        return Err(Refusal("the game is over: nothing to analyse".into()).into());
    }
    // The permit goes with the search: a client that hangs up does not free it early.
    let Ok(permit) = app.analyses.clone().try_acquire_owned() else {
        return Err(ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{} analyses are running, the most this server runs at once; try again when one ends",
                app.max_analyses
            ),
        ));
    };
    let taken = app.analyst.lock().unwrap_or_else(|e| e.into_inner()).take();
    // A network is built again for each analysis (from the cache, unless its file changed): a
    // kept one would go on playing a file replaced since, or a run's first iteration.
    let fits = |bot: &Bot| {
        bot.player()
            .is_ok_and(|p| *p.rules() == rules && !p.is_bound())
    };
    let (name, player) = match taken {
        Some((name, bot)) if fits(&bot) => (name, bot),
        _ => match app.build(&app.player, &rules) {
            Ok(p) => (app.player.clone(), Bot::new(p)),
            // The default player knows other rules: alpha-beta analyses any game.
            Err(_) => ("ab".to_string(), Bot::new(app.build("ab", &rules)?)),
        },
    };
    let limits = Limits::time(Duration::from_millis(time_ms));
    // Dropped with this request: an analysis whose client hung up stops early.
    let (_waiting, hung_up) = oneshot::channel::<()>();
    outliving(async move {
        let (player, choice, candidates) = think(player, &pos, limits, permit, Some(hung_up)).await;
        *app.analyst.lock().unwrap_or_else(|e| e.into_inner()) = Some((name.clone(), player));
        let choice = choice.map_err(Refusal::from)?;
        Ok(analysis(&name, &rules, &pos, &choice, candidates))
    })
    .await
}

/// An analysis's answer: the player's top moves (its choice alone for a player without root
/// statistics, such as alpha-beta) with their share, value and line.
fn analysis(
    name: &str,
    rules: &Rules,
    pos: &Position,
    choice: &Choice,
    mut candidates: Vec<Candidate>,
) -> Json<Value> {
    if candidates.is_empty() {
        candidates.push(Candidate {
            mv: choice.mv,
            visits: choice.nodes.min(u64::from(u32::MAX)) as u32,
            share: 1.0,
            value: choice.eval,
            pv: choice.pv.clone(),
        });
    }
    let lines: Vec<Value> = candidates
        .iter()
        .take(8)
        .map(|c| {
            json!({
                "move": crate::notation::move_text(c.mv, pos.side_to_move()),
                "visits": c.visits,
                "share": c.share,
                "value": c.value,
                "pv": crate::notation::line_text(rules, pos, &c.pv),
            })
        })
        .collect();
    Json(json!({
        "player": name,
        "position": pos.to_string(),
        "nodes": choice.nodes,
        "value": choice.eval,
        "candidates": lines,
    }))
}
