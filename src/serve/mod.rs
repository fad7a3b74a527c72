//! `bao serve`: a local web page to play, watch and analyse Bao.
//!
//! One page (HTML, CSS and JavaScript embedded in the binary, no build step) shows the board as
//! SVG ([`crate::board_svg`]). The game lives on the server ([`table::Table`]); the page sends
//! small JSON requests and redraws from the answer, so a reload loses nothing:
//!
//! | request | what it does |
//! | --- | --- |
//! | `GET /api/state` | the game, the board picture, the legal moves, the players offered |
//! | `POST /api/new {variant, south, north, time_ms}` | a new game (`south`/`north`: `human` or a player spec) |
//! | `POST /api/move {text}` | a person's move (`A6<`); an illegal one is answered 400 with why |
//! | `POST /api/reply` | the player on move plays (its move's sowing comes step by step) |
//! | `POST /api/undo`, `POST /api/goto {ply}` | take back; look at an earlier ply |
//! | `POST /api/load {text, variant}` | a position line or a game record |
//! | `POST /api/analyse {time_ms}` | the analysis player's top moves: visit share, value, line |
//!
//! Malformed requests get a 4xx answer with a message (bodies over [`BODY_LIMIT`] 413). Player
//! specs from the page may not start programs (`engine:`) or read files (`player:`, network
//! checkpoints, `weights=`) other than those offered on the command line.

pub mod sowing;
pub mod table;

use crate::rules::{Position, Rules, Variant};
use crate::search::{Limits, Player, PlayerSpec};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use table::{HUMAN, Refusal, Table};

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 64 * 1024;
/// The longest time per move a request may ask for.
const MAX_TIME_MS: u64 = 60_000;

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

/// `bao serve`: the web page.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The port (0: any free one; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on (loopback unless told otherwise).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The opponent and analysis player (a spec; default: the shipped player).
    #[arg(long)]
    pub player: Option<String>,
    /// A training run: its network and evaluation opponents are offered, to watch its
    /// evaluation games and self-play.
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// Seed of the players' randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A training run offered to watch.
#[derive(Clone, Debug)]
struct RunInfo {
    /// The network at the run's last iteration, at its evaluation simulations.
    net: String,
    /// The opponents of its evaluations.
    opponents: Vec<String>,
    /// Its variant.
    variant: String,
}

/// The server's state.
struct App {
    table: Mutex<Table>,
    /// The default player (opponent and analysis).
    player: String,
    /// The specs the page offers (command-line ones may read files).
    offered: Vec<String>,
    run: Option<RunInfo>,
    /// The analysis player, built on first use (taken out while it thinks).
    analyst: Mutex<Option<(String, Box<dyn Player>)>>,
    seed: u64,
}

/// An error answer: a status and a message.
struct ApiError(StatusCode, String);

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, r.0)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

type ApiResult = Result<Json<Value>, ApiError>;

impl App {
    fn table(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game as the page sees it, with what the server offers.
    fn view(&self, t: &Table) -> Json<Value> {
        let mut v = t.view();
        v["offered"] = json!(self.offered);
        v["default_player"] = json!(self.player);
        v["variants"] = json!(Variant::ALL.map(|v| v.name()));
        if let Some(run) = &self.run {
            v["run"] =
                json!({ "net": run.net, "opponents": run.opponents, "variant": run.variant });
        }
        Json(v)
    }

    /// A player from a spec of the page, for `rules`.
    fn build(&self, spec: &str, rules: &Rules) -> Result<Box<dyn Player>, Refusal> {
        let spec = spec.trim();
        let parsed: PlayerSpec = spec.parse()?;
        let reads_files = match &parsed {
            PlayerSpec::Engine { .. } => {
                return Err(Refusal(
                    "engine: players cannot be started from the page; give one with --player"
                        .into(),
                ));
            }
            PlayerSpec::File(_) => true,
            PlayerSpec::Mcts(opts) => opts.contains("checkpoint"),
            PlayerSpec::AlphaBeta(ab) => ab.weights.is_some(),
            _ => false,
        };
        if reads_files && !self.offered.iter().any(|o| o == spec) {
            return Err(Refusal(format!(
                "`{spec}` reads a file; the page may use only the files given on the command line: {}",
                self.offered.join(", ")
            )));
        }
        let player = parsed.build(self.seed)?;
        if let Some(own) = player.rules()
            && own != *rules
        {
            let name = variant_of(&own).unwrap_or_else(|| "its own rules".into());
            return Err(Refusal(format!("{spec} plays only {name}")));
        }
        Ok(player)
    }
}

/// The name of the variant whose preset rules are `rules`.
fn variant_of(rules: &Rules) -> Option<String> {
    Variant::ALL
        .into_iter()
        .find(|v| v.rules() == *rules)
        .map(|v| v.name().to_string())
}

/// The time per move a request asks for, checked.
fn time_of(ms: Option<u64>, default: u64) -> Result<u64, Refusal> {
    match ms.unwrap_or(default) {
        0 => Err(Refusal("time_ms must be at least 1".into())),
        ms if ms > MAX_TIME_MS => Err(Refusal(format!("time_ms is at most {MAX_TIME_MS}"))),
        ms => Ok(ms),
    }
}

fn busy() -> ApiError {
    ApiError(
        StatusCode::CONFLICT,
        "a player is thinking; try again when it has moved".into(),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: Option<String>,
    south: Option<String>,
    north: Option<String>,
    time_ms: Option<u64>,
}

async fn new_game(State(app): State<Arc<App>>, Json(req): Json<NewGame>) -> ApiResult {
    let mut t = app.table();
    if t.thinking {
        return Err(busy());
    }
    let variant = req.variant.unwrap_or_else(|| t.variant.clone());
    let rules = variant.parse::<Variant>().map_err(Refusal::from)?.rules();
    let seats = [
        req.south.unwrap_or_else(|| HUMAN.into()),
        req.north.unwrap_or_else(|| app.player.clone()),
    ];
    let mut players: [Option<Box<dyn Player>>; 2] = [None, None];
    for (k, seat) in seats.iter().enumerate() {
        if seat != HUMAN {
            players[k] = Some(app.build(seat, &rules)?);
        }
    }
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
struct MoveReq {
    text: String,
}

async fn play_move(State(app): State<Arc<App>>, Json(req): Json<MoveReq>) -> ApiResult {
    let mut t = app.table();
    if t.thinking {
        return Err(busy());
    }
    t.play_text(&req.text)?;
    Ok(app.view(&t))
}

async fn reply(State(app): State<Arc<App>>) -> ApiResult {
    let (mut player, pos, rules, limits, side) = {
        let mut t = app.table();
        if t.thinking {
            return Err(busy());
        }
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
            None => app.build(&seat, &t.rules)?,
        };
        t.thinking = true;
        let limits = Limits::time(Duration::from_millis(t.time_ms));
        (player, pos, t.rules.clone(), limits, side)
    };
    let thought = tokio::task::spawn_blocking(move || {
        let choice = player.choose(&rules, &pos, &limits);
        (player, choice)
    })
    .await;
    let mut t = app.table();
    t.thinking = false;
    let (player, choice) = thought.map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the player failed: {e}"),
        )
    })?;
    t.players[side.index()] = Some(player);
    let choice = choice.map_err(Refusal::from)?;
    if t.current() != pos {
        return Err(Refusal("the game changed while the player thought".into()).into());
    }
    t.play(choice.mv)?;
    Ok(app.view(&t))
}

async fn undo(State(app): State<Arc<App>>) -> ApiResult {
    let mut t = app.table();
    if t.thinking {
        return Err(busy());
    }
    t.undo()?;
    Ok(app.view(&t))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Goto {
    ply: usize,
}

async fn goto(State(app): State<Arc<App>>, Json(req): Json<Goto>) -> ApiResult {
    let mut t = app.table();
    if t.thinking {
        return Err(busy());
    }
    t.goto(req.ply)?;
    Ok(app.view(&t))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Load {
    text: String,
    variant: Option<String>,
}

async fn load(State(app): State<Arc<App>>, Json(req): Json<Load>) -> ApiResult {
    let mut t = app.table();
    if t.thinking {
        return Err(busy());
    }
    let variant = req.variant.unwrap_or_else(|| t.variant.clone());
    let (name, rules, start, moves) = table::read_game(&req.text, &variant)?;
    let seats = t.seats.clone();
    let mut players: [Option<Box<dyn Player>>; 2] = [None, None];
    for (k, seat) in seats.iter().enumerate() {
        if seat != HUMAN {
            players[k] = Some(app.build(seat, &rules).map_err(|Refusal(e)| {
                Refusal(format!("{e}; start a new game with other players first"))
            })?);
        }
    }
    let time_ms = t.time_ms;
    let mut fresh = Table::new(&name, rules, Some(start));
    fresh.seats = seats;
    fresh.players = players;
    fresh.time_ms = time_ms;
    for mv in moves {
        fresh.play(mv)?;
    }
    fresh.last = None;
    fresh.message = format!("loaded: {} moves; step with ◀ ▶", fresh.moves.len());
    *t = fresh;
    Ok(app.view(&t))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Analyse {
    time_ms: Option<u64>,
}

async fn analyse(State(app): State<Arc<App>>, Json(req): Json<Analyse>) -> ApiResult {
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
    let taken = app.analyst.lock().unwrap_or_else(|e| e.into_inner()).take();
    let (name, mut player) = match taken {
        Some((name, p)) if p.rules().is_none_or(|r| r == rules) => (name, p),
        _ => match app.build(&app.player, &rules) {
            Ok(p) => (app.player.clone(), p),
            // The default player knows other rules: alpha-beta analyses any game.
            Err(_) => ("ab".to_string(), app.build("ab", &rules)?),
        },
    };
    let limits = Limits::time(Duration::from_millis(time_ms));
    let rules2 = rules.clone();
    let done = tokio::task::spawn_blocking(move || {
        let choice = player.choose(&rules2, &pos, &limits);
        let candidates = player.candidates();
        (player, choice, candidates)
    })
    .await
    .map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the analysis failed: {e}"),
        )
    })?;
    let (player, choice, mut candidates) = done;
    *app.analyst.lock().unwrap_or_else(|e| e.into_inner()) = Some((name.clone(), player));
    let choice = choice.map_err(Refusal::from)?;
    if candidates.is_empty() {
        candidates.push(crate::search::Candidate {
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
                "pv": crate::notation::line_text(&rules, &pos, &c.pv),
            })
        })
        .collect();
    Ok(Json(json!({
        "player": name,
        "position": pos.to_string(),
        "nodes": choice.nodes,
        "value": choice.eval,
        "candidates": lines,
    })))
}

async fn state(State(app): State<Arc<App>>) -> Json<Value> {
    let t = app.table();
    app.view(&t)
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// The page's routes over a fresh game.
fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route(
            "/page.js",
            get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/page.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE) }),
        )
        .route("/api/state", get(state))
        .route("/api/new", post(new_game))
        .route("/api/move", post(play_move))
        .route("/api/reply", post(reply))
        .route("/api/undo", post(undo))
        .route("/api/goto", post(goto))
        .route("/api/load", post(load))
        .route("/api/analyse", post(analyse))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}

/// The run offered by `--run DIR`: its network and its evaluation opponents.
fn run_info(dir: &std::path::Path) -> anyhow::Result<RunInfo> {
    let run = crate::train::RunDir::new(dir);
    let meta = run.read_meta()?;
    let config = crate::train::TrainConfig::load(&run.config())?;
    Ok(RunInfo {
        net: format!(
            "mcts:checkpoint={},sims={}",
            dir.display(),
            config.eval.sims
        ),
        opponents: config.eval.opponents.clone(),
        variant: meta.variant,
    })
}

/// Runs `bao serve` until interrupted.
pub fn run_serve(args: ServeArgs) -> anyhow::Result<()> {
    crate::export::install_player_specs();
    let player = match &args.player {
        Some(p) => p.clone(),
        None => format!(
            "player:{}",
            crate::cli::play_cmd::shipped_player()?.display()
        ),
    };
    // A bad --player fails now, not at the first game.
    let first = player.parse::<PlayerSpec>()?.build(args.seed)?;
    let run = args.run.as_deref().map(run_info).transpose()?;
    let mut offered = vec![player.clone()];
    if let Some(r) = &run {
        offered.push(r.net.clone());
        offered.extend(r.opponents.iter().cloned());
    }
    for s in ["ab:depth=4", "ab:time=1s", "greedy", "random"] {
        if !offered.iter().any(|o| o == s) {
            offered.push(s.to_string());
        }
    }
    let variant = first
        .rules()
        .and_then(|r| variant_of(&r))
        .or_else(|| run.as_ref().map(|r| r.variant.clone()))
        .unwrap_or_else(|| "kiswahili".to_string());
    let rules = variant.parse::<Variant>()?.rules();
    let mut table = Table::new(&variant, rules.clone(), Some(Position::start(&rules)));
    if first.rules().is_none_or(|r| r == rules) {
        table.seats[1] = player.clone();
        table.players[1] = Some(first);
    }
    table.message = format!("you play South against {}", table.seats[1]);
    let app = Arc::new(App {
        table: Mutex::new(table),
        player,
        offered,
        run,
        analyst: Mutex::new(None),
        seed: args.seed,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port)).await?;
        let addr = listener.local_addr()?;
        println!("bao serve: http://{addr}/");
        axum::serve(listener, router(app))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        anyhow::Ok(())
    })
}
