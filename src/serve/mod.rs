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
//! | `GET /api/run/games`, `POST /api/run/load {file, game}` | a training run's recorded evaluation games |
//!
//! Malformed requests get a 4xx answer with a message (bodies over [`BODY_LIMIT`] 413, bodies
//! slower than [`ServeConfig::body_timeout`] 408; connections past
//! [`ServeConfig::max_connections`] wait to be accepted); the
//! handlers return errors instead of panicking, and a poisoned lock is taken over, so one bad
//! request never stops the server. Player specs from the page are limited ([`seats`]). Requests
//! that name the server by a foreign `Host`, and writes from another page (`Origin`), are
//! refused with 403 ([`guard`]); analyses beyond [`ServeConfig::max_analyses`] at once get 503.

mod api;
mod guard;
pub mod load;
pub mod run;
mod seats;
pub mod sowing;
pub mod table;

use crate::players::{Bot, PlayerRegistry, PlayerSpec};
use crate::rules::{Game, Position, Variant};
use axum::extract::{DefaultBodyLimit, FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use table::{Refusal, Table};

/// The largest request body accepted.
pub(crate) const BODY_LIMIT: usize = 64 * 1024;

pub use guard::{BODY_TIMEOUT, MAX_CONNECTIONS};

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

/// What `bao serve` serves.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The address to listen on.
    pub host: String,
    /// The port (0: any free one).
    pub port: u16,
    /// The default opponent and analysis player.
    pub player: PlayerSpec,
    /// A training run whose network, opponents and recorded games are offered.
    pub run: Option<PathBuf>,
    /// Seed of the players' randomness.
    pub seed: u64,
    /// The most analyses (`/api/analyse`) that run at once; more are refused with 503.
    pub max_analyses: usize,
    /// How long a client may take to send a request's body (then 408).
    pub body_timeout: std::time::Duration,
    /// The most connections open at once (more wait to be accepted); lowered where the process
    /// may open fewer files.
    pub max_connections: usize,
}

/// The server's state.
struct App {
    table: Mutex<Table>,
    /// How specs become players.
    players: PlayerRegistry,
    /// The default player (opponent and analysis).
    player: String,
    /// The specs the page offers (the command line's may read files).
    offered: Vec<String>,
    run: Option<run::RunInfo>,
    /// The analysis player, built on first use (taken out while it thinks).
    analyst: Mutex<Option<(String, Bot)>>,
    /// One permit per analysis that may run; held until its search ends.
    analyses: Arc<tokio::sync::Semaphore>,
    max_analyses: usize,
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

/// A JSON request body; a malformed one (not JSON, wrong fields, too big) is answered with its
/// status and a JSON message like every other refusal.
struct Body<T>(T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(r) => Err(ApiError(r.status(), r.body_text())),
        }
    }
}

impl App {
    /// The game (a lock poisoned by a panic elsewhere is taken over: the table stays usable).
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
            v["run"] = json!({
                "net": run.net,
                "opponents": run.opponents,
                "variant": run.variant,
                "iteration": run.iteration(),
            });
        }
        Json(v)
    }
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// The page's routes, behind the guard; bodies are read within `body_timeout`.
fn router(app: Arc<App>, guard: guard::Guard, body_timeout: std::time::Duration) -> Router {
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
        .route("/api/state", get(api::state))
        .route("/api/new", post(api::new_game))
        .route("/api/move", post(api::play_move))
        .route("/api/reply", post(api::reply))
        .route("/api/undo", post(api::undo))
        .route("/api/goto", post(api::goto))
        .route("/api/load", post(api::load))
        .route("/api/analyse", post(api::analyse))
        .route("/api/run/games", get(api::run_games))
        .route("/api/run/load", post(api::run_load))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            body_timeout,
            guard::read_body,
        ))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(guard),
            guard::check,
        ))
        .with_state(app)
}

/// The server's state for `config`: the first game is South (a person) against the player.
fn app(config: &ServeConfig, players: PlayerRegistry) -> anyhow::Result<App> {
    // A bad --player fails now, not at the first game.
    let kiswahili = Game::from(Variant::Kiswahili);
    let (spec, first) = (
        &config.player,
        players.build(&config.player, &kiswahili, config.seed)?,
    );
    // The page names players by their spec's text.
    let player = spec.to_string();
    let run = config.run.as_deref().map(run::RunInfo::read).transpose()?;
    let mut offered = vec![player.clone()];
    if let Some(r) = &run {
        offered.push(r.net.clone());
        offered.extend(r.opponents.iter().cloned());
    }
    for s in seats::CLASSICAL {
        if !offered.iter().any(|o| o == s) {
            offered.push(s.to_string());
        }
    }
    // The first game is the player's own if it is bound to one, else the run's.
    let variant = (first.is_bound())
        .then(|| first.game().variant().map(|v| v.name().to_string()))
        .flatten()
        .or_else(|| run.as_ref().map(|r| r.variant.clone()))
        .unwrap_or_else(|| Variant::Kiswahili.name().to_string());
    let rules = Game::from(variant.parse::<Variant>()?);
    let first = match first.is_bound() || *first.game() == rules {
        true => first,
        false => players.build(spec, &rules, config.seed)?,
    };
    let mut table = Table::new(&variant, rules.clone(), Some(Position::start(&rules)));
    if *first.game() == rules {
        table.seats[1] = player.clone();
        table.players[1] = Some(Bot::new(first));
    }
    table.message = format!("you play South against {}", table.seats[1]);
    Ok(App {
        table: Mutex::new(table),
        players,
        player,
        offered,
        run,
        analyst: Mutex::new(None),
        analyses: Arc::new(tokio::sync::Semaphore::new(config.max_analyses)),
        max_analyses: config.max_analyses,
        seed: config.seed,
    })
}

/// Serves the page until interrupted (Ctrl-C); prints `bao serve: http://ADDRESS/` first.
pub fn serve(config: ServeConfig, players: PlayerRegistry) -> anyhow::Result<()> {
    let app = Arc::new(app(&config, players)?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let served = runtime.block_on(async move {
        let listener = bind(&config.host, config.port).await?;
        let addr = listener.local_addr()?;
        println!("bao serve: http://{addr}/");
        let guard = guard::Guard::new(&config.host, addr.port());
        let router = router(app, guard, config.body_timeout);
        let cap = guard::connection_cap(config.max_connections);
        guard::serve(listener, router, cap).await;
        anyhow::Ok(())
    });
    // A search under way does not hold the process after Ctrl-C.
    runtime.shutdown_timeout(guard::SHUTDOWN_GRACE);
    served
}

/// Listens on `host`:`port`; the error names the address.
async fn bind(host: &str, port: u16) -> anyhow::Result<tokio::net::TcpListener> {
    let shown = if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    };
    tokio::net::TcpListener::bind((host, port))
        .await
        .map_err(|e| {
            let hint = match e.kind() {
                std::io::ErrorKind::AddrInUse => {
                    "; another program listens there: choose another --port"
                }
                std::io::ErrorKind::AddrNotAvailable => "; not an address of this machine",
                _ => "",
            };
            anyhow::anyhow!("cannot listen on {shown}: {e}{hint}")
        })
}
