//! A `bao serve` for the tests that talk to it over HTTP (tests/web.rs, tests/play/serve_guard.rs).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// A `bao serve` on a free loopback port, stopped when dropped.
pub struct Server {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// Kept open: the server may print more.
    _stdout: BufReader<std::process::ChildStdout>,
}

impl Server {
    /// Starts `bao serve` with `extra` arguments, from the repository's root.
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
            .args(["serve", "--port", "0", "--host", "127.0.0.1"])
            .args(extra)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .spawn()
            .expect("bao serve starts");
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("bao serve: http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .to_string();
        Server {
            child,
            addr,
            _stdout: stdout,
        }
    }

    /// One request with these extra header lines (each ending in `\r\n`); the status and body
    /// (status 0 when no answer came within 30 s).
    pub fn raw(&self, method: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        // A server that hangs gives no answer (status 0) instead of hanging the test.
        s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        let status = answer
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = answer.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
        (status, body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
