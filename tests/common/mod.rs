//! What the tests that run the `bao` binary share.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `bao` with `args` (in `dir` when given), feeding `input` on stdin, and waits for it.
pub fn bao_with_input(args: &[&str], input: &str, dir: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bao"));
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bao starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("bao reads its input");
    child.wait_with_output().expect("bao ends")
}
