//! The `engine:` player, the project's own client of the engine protocol, against `bao engine`
//! and against fake engines: it reads every line its engine writes (a `stop` that arrives after
//! the `bestmove` included), and ends whatever the engine program started.

use super::protocol_inputs::{run_with, script};
use bao_zero::notation::move_text;
use bao_zero::players::{ExternalEngine, Limits, Player};
use bao_zero::rules::{Position, Variant};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A fake engine that takes a while over each `go`, so that a `stop` sent at once reaches it
/// after its `bestmove`; `stop` and `isready` are its answers to those commands (shell `case`
/// branches).
fn slow_engine(dir: &Path, name: &str, stop: &str, isready: &str) -> String {
    script(
        dir,
        name,
        &format!(
            "echo bao-zero engine ready
while read -r cmd rest; do
  case \"$cmd\" in
    go) sleep 0.1; echo 'bestmove A6< value +0.000 nodes 1 depth 1 pv A6<' ;;
    stop) {stop} ;;
    isready) {isready} ;;
    variant) echo \"ok $rest\" ;;
    position) echo ok ;;
    quit) exit 0 ;;
    *) echo \"error unknown command \\`$cmd\\`; commands: variant, position, go, stop, quit\" ;;
  esac
done"
        ),
    )
}

/// An `engine:` player of Bao la Kiswahili running `program` (with `player`, if given).
fn engine_player(program: &str, player: Option<&str>) -> ExternalEngine {
    let rules = Variant::Kiswahili.rules();
    ExternalEngine::start(program.as_ref(), player, "engine".into(), &rules).unwrap()
}

#[test]
fn an_engine_player_reads_the_line_a_late_stop_leaves_and_stays_in_step() {
    let tmp = tempfile::tempdir().unwrap();
    // An older `bao engine`: a late `stop` is an error line, `isready` an unknown command.
    let answers = slow_engine(
        tmp.path(),
        "answers.sh",
        "echo 'error no search is running'",
        "echo \"error unknown command \\`$cmd\\`\"",
    );
    // A UCI-like engine: a late `stop` gets nothing.
    let silent = slow_engine(tmp.path(), "silent.sh", ":", "echo readyok");
    let start = Position::start(&Variant::Kiswahili.rules());
    for program in [answers, silent] {
        let mut engine = engine_player(&program, None);
        for round in 0..4 {
            // Stopped before it is asked: the `stop` goes out with the `go`, and arrives late.
            engine.set_stop(Arc::new(AtomicBool::new(true)));
            let choice = engine
                .choose(&start, &Limits::NONE)
                .unwrap_or_else(|e| panic!("{program}, move {round}: {e:#}"));
            assert_eq!(move_text(choice.mv, start.side_to_move()), "A6<");
        }
    }
}

#[test]
fn an_engine_player_stopped_as_bao_engine_answers_stays_in_step() {
    let mut engine = engine_player(env!("CARGO_BIN_EXE_bao"), Some("ab"));
    let start = Position::start(&Variant::Kiswahili.rules());
    for round in 0..40u64 {
        let stop = Arc::new(AtomicBool::new(false));
        engine.set_stop(stop.clone());
        // Stops within the move time, some of them (those that reach the engine as its time is
        // up) after its `bestmove`.
        let at = Duration::from_millis(20 + round % 10 * 3);
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(at);
            stop.store(true, Ordering::Relaxed);
        });
        let choice = engine.choose(&start, &Limits::time(Duration::from_millis(50)));
        stopper.join().unwrap();
        let choice = choice.unwrap_or_else(|e| panic!("move {round}: {e:#}"));
        assert!(choice.nodes > 0, "move {round}");
    }
}

#[test]
fn bao_engine_gives_a_late_stop_no_line_and_answers_isready() {
    let input = "stop\ngo depth 1\nstop\nstop\nisready\nlegal\n";
    let (ok, out, _) = run_with(&["engine", "--player", "ab"], input.as_bytes(), &[]);
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[1].starts_with("bestmove "), "{out}");
    assert_eq!(lines[2], "readyok", "{out}");
    assert!(lines[3].starts_with("legal "), "{out}");
}

#[test]
fn bao_engine_takes_a_clock_without_increment() {
    let input = "go depth 2 time 60000 inc 0\ngo depth 2 time 60000 inc x\n";
    let (ok, out, _) = run_with(&["engine", "--player", "ab"], input.as_bytes(), &[]);
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].starts_with("bestmove "), "{out}");
    assert!(
        lines[2].starts_with("error `inc` takes 0 or a positive number"),
        "{out}"
    );
    let sudden_death = bao_zero::cli::engine::go_limits(&["time", "60000", "inc", "0"]).unwrap();
    assert_eq!(
        sudden_death,
        Limits::from_clock(Duration::from_secs(60), Duration::ZERO)
    );
}

/// A process the test started, killed when the test ends however it ends.
#[cfg(target_os = "linux")]
struct Leftover(i32);

#[cfg(target_os = "linux")]
impl Drop for Leftover {
    fn drop(&mut self) {
        if !gone(self.0) {
            // SAFETY: kill touches no memory; the pid is of a process this test started.
            unsafe { libc::kill(self.0, libc::SIGKILL) };
        }
    }
}

/// Whether process `pid` is gone (or a zombie, left to whoever reaps it).
#[cfg(target_os = "linux")]
fn gone(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| stat.contains(") Z"))
}

/// Runs `bao engine` on `input` with the `engine:` program `W` a wrapper script that starts a
/// child and then `last` (shell lines); the child must be gone once bao has ended.
#[cfg(target_os = "linux")]
fn wrapper_child_is_ended(input: &str, last: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let pid_file = tmp.path().join("child");
    let wrapper = script(
        tmp.path(),
        "wrapper.sh",
        &format!(
            "sleep 300 >/dev/null 2>&1 &\necho $! > {}\n{last}",
            pid_file.display()
        ),
    );
    let input = input.replace('W', &wrapper);
    let env = [("BAO_ENGINE_TIMEOUT_S", "1")];
    let (ok, out, _) = run_with(&["engine", "--player", "ab"], input.as_bytes(), &env);
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let _leftover = Leftover(pid);
    assert!(ok, "{out}");
    assert!(out.lines().last().unwrap().starts_with("legal "), "{out}");
    let start = Instant::now();
    while !gone(pid) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the wrapper's child {pid} outlived bao: {out}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn an_engine_program_that_times_out_is_ended_with_what_it_started() {
    wrapper_child_is_ended("player engine:W\nlegal\n", "exec sleep 1000");
}

#[cfg(target_os = "linux")]
#[test]
fn an_engine_program_dropped_is_ended_with_what_it_started() {
    wrapper_child_is_ended(
        "player engine:W\nplayer ab\nlegal\n",
        "echo bao-zero engine ready\nexec sleep 1000",
    );
}
