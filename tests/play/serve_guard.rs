//! What `bao serve` refuses before any handler runs: a foreign `Host` (DNS rebinding), a write
//! from another page (`Origin`), analyses past the bound; and how it stops: Ctrl-C is obeyed
//! while a client has sent half a request, whose connection is cut after the header timeout.
//! A port in use or an address that cannot be listened on gives a one-line error naming it.
//! Slow bodies are cut, connections past the bound wait for a free one, and a FIFO among a
//! run's files never hangs a request.
#![cfg(feature = "ml")]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::serve_common::Server;

/// A `bao serve` with alpha-beta as its player.
fn serve(extra: &[&str]) -> Server {
    Server::start(&[&["--player", "ab"], extra].concat())
}

impl Server {
    fn port(&self) -> &str {
        self.addr.rsplit_once(':').unwrap().1
    }

    /// A request naming the server by its own address.
    pub(crate) fn own(&self, method: &str, path: &str, extra: &str, body: &str) -> (u16, String) {
        self.raw(
            method,
            path,
            &format!("Host: {}\r\n{extra}", self.addr),
            body,
        )
    }
}

/// The error of a JSON answer, which is one line.
fn error_of(body: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("{body}"));
    let e = v["error"].as_str().unwrap_or_else(|| panic!("{body}"));
    assert!(!e.contains('\n'), "{e}");
    e.to_string()
}

#[test]
fn requests_naming_a_foreign_host_are_refused() {
    let server = serve(&[]);
    let port = server.port().to_string();
    for host in [
        format!("evil.example:{port}"),
        format!("localhost.evil.example:{port}"),
        "127.0.0.1:1".to_string(),
    ] {
        for (method, path) in [("GET", "/"), ("GET", "/api/state"), ("POST", "/api/new")] {
            let (status, body) = server.raw(method, path, &format!("Host: {host}\r\n"), "{}");
            assert_eq!(status, 403, "{host} {path}: {body}");
            assert!(error_of(&body).contains("Host"), "{body}");
        }
    }
    for host in [
        server.addr.clone(),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ] {
        let (status, body) = server.raw("GET", "/api/state", &format!("Host: {host}\r\n"), "");
        assert_eq!(status, 200, "{host}: {body}");
    }
}

#[test]
fn writes_from_another_page_are_refused() {
    let server = serve(&[]);
    let own = format!("http://{}", server.addr);
    for origin in [
        "http://evil.example",
        "null",
        &format!("http://localhost:{}", server.port()),
    ] {
        for path in ["/api/new", "/api/move", "/api/analyse", "/api/load"] {
            let (status, body) = server.own("POST", path, &format!("Origin: {origin}\r\n"), "{}");
            assert_eq!(status, 403, "{origin} {path}: {body}");
            assert!(error_of(&body).contains("another page"), "{body}");
        }
    }
    // The page's own writes, and reads from anywhere (a browser hides their answers).
    let (status, body) = server.own("POST", "/api/new", &format!("Origin: {own}\r\n"), "{}");
    assert_eq!(status, 200, "{body}");
    let (status, _) = server.own("POST", "/api/new", "", "{}");
    assert_eq!(status, 200);
    let (status, _) = server.own("GET", "/api/state", "Origin: http://evil.example\r\n", "");
    assert_eq!(status, 200);
}

#[test]
fn analyses_past_the_bound_are_refused_with_503() {
    let server = serve(&["--max-analyses", "1"]);
    let slow = {
        let addr = server.addr.clone();
        std::thread::spawn(move || {
            let mut s = TcpStream::connect(&addr).unwrap();
            let body = r#"{"time_ms":3000}"#;
            write!(
                s,
                "POST /api/analyse HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .unwrap();
            let mut answer = String::new();
            let _ = s.read_to_string(&mut answer);
            answer
        })
    };
    std::thread::sleep(Duration::from_millis(800));
    let (status, body) = server.own("POST", "/api/analyse", "", r#"{"time_ms":100}"#);
    assert_eq!(status, 503, "{body}");
    assert!(error_of(&body).contains("analyses are running"), "{body}");
    let first = slow.join().unwrap();
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    // The permit came back with the search.
    let (status, body) = server.own("POST", "/api/analyse", "", r#"{"time_ms":100}"#);
    assert_eq!(status, 200, "{body}");
}

/// Waits up to `limit` for the child to exit.
fn exits_within(child: &mut Child, limit: Duration) -> bool {
    let t = Instant::now();
    while t.elapsed() < limit {
        if child.try_wait().unwrap().is_some() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn ctrl_c_stops_the_server_while_a_client_has_sent_half_a_request() {
    let mut server = serve(&[]);
    let mut half = TcpStream::connect(&server.addr).unwrap();
    write!(
        half,
        "POST /api/new HTTP/1.1\r\nHost: {}\r\nContent-Le",
        server.addr
    )
    .unwrap();
    // The server cuts the connection after its header timeout (10 s).
    half.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let t = Instant::now();
    let mut buf = Vec::new();
    let _ = half.read_to_end(&mut buf);
    assert!(t.elapsed() < Duration::from_secs(25), "{:?}", t.elapsed());
    // A second half request, then Ctrl-C (SIGINT): the server stops within its grace time.
    let mut again = TcpStream::connect(&server.addr).unwrap();
    write!(again, "GET / HTTP/1.1\r\nHo").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let pid = server.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    assert!(
        exits_within(&mut server.child, Duration::from_secs(8)),
        "bao serve ignored Ctrl-C"
    );
}

/// Runs `bao serve` expecting it to fail at once; its standard error.
fn serve_fails(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(["serve", "--player", "ab"])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn a_port_in_use_or_a_bad_host_names_the_address() {
    let server = serve(&[]);
    let err = serve_fails(&["--host", "127.0.0.1", "--port", server.port()]);
    assert!(
        err.contains(&server.addr) && err.contains("--port"),
        "{err}"
    );
    let err = serve_fails(&["--host", "no-such-host.invalid", "--port", "0"]);
    assert!(err.contains("no-such-host.invalid:0"), "{err}");
    let err = serve_fails(&["--host", "192.0.2.1", "--port", "0"]);
    assert!(err.contains("192.0.2.1:0"), "{err}");
}

/// A connection that sent the headers of a request whose body (`Content-Length: 60000`) it
/// then sends one byte of, and no more.
fn slow_client(addr: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /api/load HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: 60000\r\n\r\n{{"
    )
    .unwrap();
    s
}

#[test]
fn slow_bodies_are_cut_and_connections_past_the_bound_wait_for_a_free_one() {
    let server = serve(&["--max-connections", "4", "--body-timeout", "2s"]);
    let t = Instant::now();
    let slow: Vec<TcpStream> = (0..4).map(|_| slow_client(&server.addr)).collect();
    // The bound's four connections are the slow clients': a fifth request waits for one to end,
    // which the body timeout brings about.
    let (status, body) = server.own("GET", "/api/state", "", "");
    assert_eq!(status, 200, "{body}");
    assert!(t.elapsed() > Duration::from_secs(1), "{:?}", t.elapsed());
    // Each slow body was answered 408 after the body timeout, and its connection closed.
    for mut s in slow {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(error_of(answer.split_once("\r\n\r\n").unwrap().1).contains("2000 ms"));
    }
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
}

#[test]
fn a_fifo_among_a_runs_games_does_not_hang_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let run = bao_zero::train::RunDir::new(dir.path());
    let meta = bao_zero::train::Meta {
        version: 1,
        variant: "kiswahili".into(),
        ..Default::default()
    };
    run.write_meta(&meta).unwrap();
    run.write_config(crate::common::SMOKE).unwrap();
    std::fs::create_dir_all(run.games()).unwrap();
    let record = "[Variant \"kiswahili\"]\n[South \"ab\"]\n[North \"random\"]\n1: A6<;\n";
    std::fs::write(run.eval_games(1), record).unwrap();
    let fifo = run.eval_games(99);
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let server = serve(&["--run", dir.path().to_str().unwrap()]);
    // Every answer comes back (a FIFO that nobody writes to would block a read for ever).
    for _ in 0..3 {
        let (status, body) = server.own("GET", "/api/run/games", "", "");
        assert_eq!(status, 200, "{body}");
        let games: serde_json::Value = serde_json::from_str(&body).unwrap();
        let games = games["games"].as_array().unwrap();
        assert_eq!(games.len(), 1, "{body}");
        assert_eq!(games[0]["file"], "eval-0001.kiba");
        let body = r#"{"file":"eval-0099.kiba","game":0}"#;
        let (status, answer) = server.own("POST", "/api/run/load", "", body);
        assert_eq!(status, 400, "{answer}");
        assert_eq!(server.own("GET", "/api/state", "", "").0, 200);
    }
}
