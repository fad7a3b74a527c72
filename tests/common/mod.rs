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

/// Runs `bao` with `args`, no input, and waits for it.
pub fn bao(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("bao runs")
}

/// The error of a failed command: it failed, and said why in one line, its last (a line of
/// progress such as "resuming it" may come before).
pub fn one_line_error(args: &[&str]) -> String {
    let out = bao(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{args:?} succeeded: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    let lines: Vec<&str> = err.trim_end().lines().collect();
    let errors = lines.iter().filter(|l| l.starts_with("error:")).count();
    assert_eq!(errors, 1, "{args:?}: {err}");
    assert!(
        lines.last().unwrap().starts_with("error:"),
        "{args:?}: {err}"
    );
    lines.last().unwrap().to_string()
}

/// The text of the smoke config (`configs/smoke.toml`), the tests' small training run.
pub const SMOKE: &str = include_str!("../../configs/smoke.toml");

/// The smoke config with its runs in `run_dir`.
#[cfg(feature = "ml")]
pub fn smoke(run_dir: &Path) -> bao_zero::train::TrainConfig {
    let mut cfg: bao_zero::train::TrainConfig = toml::from_str(SMOKE).expect("the smoke config");
    cfg.run_dir = run_dir.to_str().expect("a UTF-8 path").to_string();
    cfg
}

/// `bao-<what>-<pid>-<name>` in the temporary folder, emptied (the pid keeps two test runs
/// apart; `what` the test files of one binary).
pub fn fresh_dir(what: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bao-{what}-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    dir
}
