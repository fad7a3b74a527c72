//! The Python package (`bao-py`): `scripts/python_test.sh` installs it the README's way
//! into a fresh virtual environment under `target/` and runs its pytest suite, so the README's
//! test command covers the Python side too (the Ray tests compare with the `bao` binary
//! this build made).
//!
//! The README names `python3` with `venv` as a requirement of the tests, so this test is not
//! ignored: on a machine without them it fails, saying what is missing and how to leave the
//! Python tests out, rather than passing without having tested anything.

use std::process::{Command, Stdio};

/// Why this machine cannot run the Python tests, if it cannot: `python3` missing, or without
/// the `venv` and `ensurepip` modules a virtual environment needs.
fn python_missing() -> Option<&'static str> {
    let import = Command::new("python3")
        .args(["-c", "import venv, ensurepip"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match import {
        Err(_) => Some("python3 is not installed"),
        Ok(status) if !status.success() => {
            Some("python3 lacks venv (Debian and Ubuntu: apt-get install python3-venv)")
        }
        Ok(_) => None,
    }
}

#[test]
fn the_python_package_passes_its_tests() {
    if let Some(why) = python_missing() {
        panic!(
            "the Python tests need python3 with venv, and {why}; to leave them out, run \
             `cargo test --release --workspace -- --skip the_python_package`"
        );
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/python_test.sh");
    let out = Command::new("bash")
        .arg(script)
        .env("BAO_BIN", env!("CARGO_BIN_EXE_bao"))
        .output()
        .expect("bash runs scripts/python_test.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "scripts/python_test.sh failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
}
