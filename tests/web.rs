//! `bao serve` from outside: malformed requests get 4xx answers with a message while the server
//! goes on serving, and the page works in a real browser (Playwright driving Debian's chromium,
//! `web/tests/page.test.mjs`).
//!
//! The browser part needs node, npm (for `npm ci` in web/tests) and /usr/bin/chromium, which a
//! Rust toolchain alone does not bring: it is marked `#[ignore]`, so the plain test command counts
//! it as ignored, and runs with `cargo test --release --test web -- --ignored` (`.ci/run` does).
//! Run so on a machine without them, it fails naming what is missing.
#![cfg(feature = "ml")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod serve_common;
use serve_common::Server;

impl Server {
    /// One request naming the server by its own address; the status and the body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        self.raw(method, path, &format!("Host: {}\r\n", self.addr), body)
    }
}

/// Malformed requests: method, path, body, the status and words of the answer.
const MALFORMED: [(&str, &str, &str, u16, &str); 14] = [
    (
        "POST",
        "/api/load",
        r#"{"text":"not a position"}"#,
        400,
        "error",
    ),
    ("POST", "/api/move", r#"{"text":"A9<"}"#, 400, "error"),
    ("POST", "/api/move", r#"{"text":"a3<"}"#, 400, "North's pit"),
    (
        "POST",
        "/api/new",
        r#"{"north":"grandmaster"}"#,
        400,
        "unknown player kind",
    ),
    (
        "POST",
        "/api/new",
        r#"{"north":"engine:/bin/sh"}"#,
        400,
        "would start a program",
    ),
    (
        "POST",
        "/api/new",
        r#"{"north":"player:/etc/passwd"}"#,
        400,
        "reads a file",
    ),
    (
        "POST",
        "/api/new",
        r#"{"variant":"chess"}"#,
        400,
        "unknown variant",
    ),
    ("POST", "/api/goto", r#"{"ply":7}"#, 400, "past the game"),
    ("POST", "/api/move", "{", 400, "error"),
    ("POST", "/api/new", r#"{"north":"ab:tt=30"}"#, 400, "table"),
    ("POST", "/api/new", r#"{"time_ms":0}"#, 400, "time_ms"),
    (
        "POST",
        "/api/load",
        r#"{"text":""}"#,
        400,
        "nothing to load",
    ),
    ("POST", "/api/run/games", "{}", 405, ""),
    ("GET", "/api/run/games", "", 400, "--run"),
];

#[test]
fn malformed_requests_get_4xx_with_a_message() {
    let server = Server::start(&["--player", "ab:depth=2"]);
    let (status, body) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(body.contains("/page.js"));
    for (method, path, body, want, words) in MALFORMED {
        let (status, answer) = server.request(method, path, body);
        assert_eq!(status, want, "{path} {body}: {answer}");
        assert!(answer.contains(words), "{path} {body}: {answer}");
    }
    let huge = format!(r#"{{"text":"{}"}}"#, "x".repeat(200_000));
    let (status, _) = server.request("POST", "/api/load", &huge);
    assert_eq!(status, 413);
    let (status, _) = server.request("GET", "/nowhere", "");
    assert_eq!(status, 404);
    // Still serving, and a legal game goes on: a move, the player's answer, an analysis.
    let (status, state) = server.request("GET", "/api/state", "");
    assert_eq!(status, 200);
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    let first = state["legal"][0]["text"].as_str().unwrap().to_string();
    let (status, _) = server.request("POST", "/api/move", &format!(r#"{{"text":"{first}"}}"#));
    assert_eq!(status, 200);
    let (status, answer) = server.request("POST", "/api/reply", "{}");
    assert_eq!(status, 200, "{answer}");
    let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["moves"].as_array().unwrap().len(), 2);
    assert!(!answer["last"]["frames"].as_array().unwrap().is_empty());
    let (status, answer) = server.request("POST", "/api/analyse", r#"{"time_ms":100}"#);
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("candidates"));
}

/// Whether `program --version` runs.
fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
#[ignore = "needs node, npm and chromium: cargo test --release --test web -- --ignored"]
fn the_page_works_in_a_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tests = root.join("web/tests");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    // playwright-core from the lockfile (no browser download), the first time.
    if !tests.join("node_modules/playwright-core").is_dir() && runs("npm") {
        let _ = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&tests)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let missing: Vec<&str> = [
        (!runs("node")).then_some("node"),
        (!Path::new(&chromium).exists()).then_some("chromium (apt-get install chromium)"),
        (!tests.join("node_modules/playwright-core").is_dir())
            .then_some("playwright-core (npm ci in web/tests)"),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert!(
        missing.is_empty(),
        "the browser test needs what this machine lacks: {}",
        missing.join(", ")
    );
    let server = Server::start(&[]);
    let shot: PathBuf = std::env::temp_dir().join("bao-page.png");
    let out = Command::new("node")
        .arg(tests.join("page.test.mjs"))
        .env("BAO_URL", format!("http://{}/", server.addr))
        .env("BAO_SCREENSHOT", &shot)
        .env("CHROMIUM", &chromium)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the browser test failed:\n{text}");
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    eprintln!("screenshot: {}", shot.display());
}
