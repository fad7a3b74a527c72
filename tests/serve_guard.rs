//! What `bao serve` refuses before any handler runs: a foreign `Host` (DNS rebinding), a write
//! from another page (`Origin`), analyses past the bound; and how it stops: Ctrl-C is obeyed
//! while a client has sent half a request, whose connection is cut after the header timeout.
//! A port in use or an address that cannot be listened on gives a one-line error naming it.
#![cfg(feature = "ml")]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod serve_common;
use serve_common::Server;

/// A `bao serve` with alpha-beta as its player.
fn serve(extra: &[&str]) -> Server {
    Server::start(&[&["--player", "ab"], extra].concat())
}

impl Server {
    fn port(&self) -> &str {
        self.addr.rsplit_once(':').unwrap().1
    }

    /// A request naming the server by its own address.
    fn own(&self, method: &str, path: &str, extra: &str, body: &str) -> (u16, String) {
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
