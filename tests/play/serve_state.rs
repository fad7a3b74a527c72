//! What a request to `bao serve` leaves behind whatever happens to it, and which network the
//! server plays: a client that hangs up while a player thinks (a reply, an analysis) finds the
//! table free again, a run's game that cannot be loaded leaves the table as it was; a player
//! file replaced, or a watched run's new iteration, plays at the next game.
#![cfg(feature = "ml")]

use std::io::Write;
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::serve_common::Server;
use serde_json::Value;

/// Sends a `POST path` with `body` and hangs up `after` later, before any answer.
fn hang_up(server: &Server, path: &str, body: &str, after: Duration) {
    let mut s = TcpStream::connect(&server.addr).unwrap();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        server.addr,
        body.len()
    )
    .unwrap();
    std::thread::sleep(after);
}

/// Repeats `request` while it answers `busy`, for up to `limit`; its last answer.
fn while_busy(busy: u16, limit: Duration, request: impl Fn() -> (u16, String)) -> (u16, String) {
    let t = Instant::now();
    loop {
        let (status, body) = request();
        if status != busy || t.elapsed() > limit {
            return (status, body);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|_| panic!("{body}"))
}

/// The start of an answer, for a message (a state's board picture is long).
fn short(body: &str) -> String {
    body.chars().take(300).collect()
}

#[test]
fn a_client_that_hangs_up_mid_reply_leaves_the_table_free() {
    let server = Server::start(&["--player", "ab"]);
    let game = r#"{"south":"ab","north":"human","time_ms":1500}"#;
    let (status, body) = server.own("POST", "/api/new", "", game);
    assert_eq!(status, 200, "{body}");
    // The page reloads while the computer thinks.
    hang_up(&server, "/api/reply", "", Duration::from_millis(300));
    let (status, body) = server.own("GET", "/api/state", "", "");
    assert_eq!(
        (status, json(&body)["thinking"].clone()),
        (200, true.into())
    );
    // Once the search's time is up, writes are taken again, and the player's move was played.
    let (status, body) = while_busy(409, Duration::from_secs(10), || {
        server.own("POST", "/api/goto", "", r#"{"ply":1}"#)
    });
    assert_eq!(status, 200, "{}", short(&body));
    let state = json(&body);
    assert_eq!(
        state["moves"].as_array().unwrap().len(),
        1,
        "{}",
        short(&body)
    );
    assert_eq!(state["thinking"], false);
    let (status, body) = server.own("POST", "/api/new", "", game);
    assert_eq!(status, 200, "{}", short(&body));
    let (status, body) = server.own("POST", "/api/reply", "", "");
    assert_eq!(status, 200, "{}", short(&body));
}

#[test]
fn an_analysis_whose_client_hangs_up_stops_and_gives_back_its_permit() {
    let server = Server::start(&["--player", "ab", "--max-analyses", "1"]);
    let t = Instant::now();
    hang_up(
        &server,
        "/api/analyse",
        r#"{"time_ms":30000}"#,
        Duration::from_millis(300),
    );
    let (status, body) = while_busy(503, Duration::from_secs(10), || {
        server.own("POST", "/api/analyse", "", r#"{"time_ms":100}"#)
    });
    assert_eq!(status, 200, "{body}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

/// Writes the shipped player of `variant` to `to`, replacing any file there atomically.
fn place(variant: &str, to: &Path) {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("checkpoints/shipped");
    let bytes = std::fs::read(shipped.join(format!("{variant}.bao"))).unwrap();
    bao_zero::util::fs::write_atomic(to, &bytes).unwrap();
}

#[test]
fn a_replaced_player_file_plays_at_the_next_game() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("net.bao");
    place("kiswahili", &file);
    let spec = format!("player:{}", file.display());
    let server = Server::start(&["--player", &spec]);
    let new = |variant: &str| {
        let body = serde_json::json!({ "variant": variant, "north": spec }).to_string();
        server.own("POST", "/api/new", "", &body)
    };
    assert_eq!(new("kiswahili").0, 200);
    place("hus", &file);
    let (status, body) = new("kiswahili");
    assert_eq!(status, 400, "{}", short(&body));
    assert!(
        body.contains("plays hus, not kiswahili: a trained player plays only the game it learned"),
        "{body}"
    );
    let (status, body) = new("hus");
    assert_eq!(status, 200, "{}", short(&body));
}

#[test]
fn a_watched_run_plays_its_last_iteration() {
    let dir = tempfile::tempdir().unwrap();
    let run = bao_zero::train::RunDir::new(dir.path());
    run.write_config(crate::common::SMOKE).unwrap();
    let net = crate::common::smoke(dir.path()).net.shape;
    let mut meta = bao_zero::train::Meta {
        version: 1,
        iteration: 1,
        variant: "kiswahili".into(),
        ..Default::default()
    };
    let save = |it: u32| {
        let trainer =
            bao_zero::nn::Trainer::new(&net, bao_zero::nn::Compute::Cpu, 0.0, u64::from(it))
                .unwrap();
        trainer.save(&run.iteration(it)).unwrap();
    };
    save(1);
    run.write_meta(&meta).unwrap();
    let server = Server::start(&["--player", "ab", "--run", dir.path().to_str().unwrap()]);
    let state = || json(&server.own("GET", "/api/state", "", "").1);
    let watch = || {
        let net = state()["run"]["net"].clone();
        let body = serde_json::json!({ "variant": "kiswahili", "south": net, "north": "random" });
        server.own("POST", "/api/new", "", &body.to_string())
    };
    assert_eq!(watch().0, 200);
    // The run names iteration 2 its last before the checkpoint is there: the next game reads
    // it, and says why it cannot, rather than playing iteration 1 again.
    meta.iteration = 2;
    run.write_meta(&meta).unwrap();
    let (status, body) = watch();
    assert_eq!(status, 400, "{}", short(&body));
    assert!(body.contains("iter-0002"), "{body}");
    save(2);
    let (status, body) = watch();
    assert_eq!(status, 200, "{}", short(&body));
    // The page shows the iteration now played.
    assert_eq!(state()["run"]["iteration"], 2);
}

#[test]
fn a_run_game_that_cannot_be_loaded_leaves_the_seats_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let run = bao_zero::train::RunDir::new(dir.path());
    run.write_config(crate::common::SMOKE).unwrap();
    let meta = bao_zero::train::Meta {
        version: 1,
        variant: "kiswahili".into(),
        ..Default::default()
    };
    run.write_meta(&meta).unwrap();
    std::fs::create_dir_all(run.games()).unwrap();
    let record = "[Variant \"kiswahili\"]\n[South \"ab\"]\n[North \"random\"]\n1: B8<;\n";
    std::fs::write(run.eval_games(1), record).unwrap();
    let server = Server::start(&["--player", "ab", "--run", dir.path().to_str().unwrap()]);
    let body = r#"{"file":"eval-0001.kiba","game":0}"#;
    let (status, answer) = server.own("POST", "/api/run/load", "", body);
    assert_eq!(status, 400, "{}", short(&answer));
    let state = json(&server.own("GET", "/api/state", "", "").1);
    assert_eq!(state["seats"]["north"], "ab", "{}", state["seats"]);
    assert_eq!(state["seats"]["south"], "human", "{}", state["seats"]);
}
