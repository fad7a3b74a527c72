//! What `bao engine`, `bao eval` and `bao play` do with inputs a careless user or a broken
//! program gives: one-line errors, answers that keep the engine going, no hang, nothing lost.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bao() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bao"))
}

/// `bao ARGS` with `input` on stdin (bytes, closed after), as (success, stdout, stderr).
pub(crate) fn run_with(
    args: &[&str],
    input: &[u8],
    env: &[(&str, &str)],
) -> (bool, String, String) {
    let mut command = bao();
    command.args(args).envs(env.iter().copied());
    run_command(command, input)
}

/// `command` with `input` on stdin (bytes, closed after), as (success, stdout, stderr); it must
/// end within a minute.
fn run_command(mut command: Command, input: &[u8]) -> (bool, String, String) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // bao may end before it reads all (a refused argument): a closed pipe is no failure here.
    let _ = child.stdin.take().unwrap().write_all(input);
    let out = wait_at_most(child, Duration::from_secs(60));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The output of `child`, which must end within `limit`.
fn wait_at_most(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            panic!(
                "bao ran past {limit:?}: {:?}",
                child.wait_with_output().unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

pub(crate) fn run(args: &[&str]) -> (bool, String, String) {
    run_with(args, b"", &[])
}

/// A shell script at `dir/name`, executable.
pub(crate) fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.to_str().unwrap().to_string()
}

pub(crate) fn assert_one_line_error(err: &str, needle: &str) {
    assert!(err.contains(needle), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// `bao eval` of two random players with `extra` arguments fails with one line holding `what`.
fn eval_of_randoms_is_refused(extra: &[&str], what: &str) {
    let args = [&["eval", "--a", "random", "--b", "random"], extra].concat();
    let (ok, _, err) = run(&args);
    assert!(!ok);
    assert_one_line_error(&err, what);
}

#[test]
fn eval_refuses_a_game_count_or_move_time_out_of_range_in_one_line() {
    eval_of_randoms_is_refused(&["-n", "18446744073709551615"], "at most 10000000");
    eval_of_randoms_is_refused(&["--move-time", "1e300"], "--move-time");
}

#[test]
fn eval_refuses_an_opening_longer_than_its_bound_instead_of_running_for_ever() {
    eval_of_randoms_is_refused(&["--opening-plies", "100000"], "at most 200 plies");
}

#[test]
fn an_engine_program_that_exits_is_reported_and_the_engine_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let greets = script(tmp.path(), "greets.sh", "echo bao-zero engine ready");
    let input = format!("player engine:/bin/true\nlegal\nplayer engine:{greets}\ngo\nlegal\n");
    let (ok, out, _) = run_with(&["engine", "--player", "ab"], input.as_bytes(), &[]);
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].starts_with("error the engine /bin/true exited"),
        "{out}"
    );
    assert!(lines[2].starts_with("legal "), "{out}");
    assert!(lines[3].starts_with("ok engine:"), "{out}");
    assert!(lines[4].contains("exited (exit status: 0)"), "{out}");
    assert!(lines[5].starts_with("legal "), "{out}");
    // In a match, the same death is one line, not a silent end by SIGPIPE.
    let spec = format!("engine:{greets}");
    let (ok, _, err) = run(&["eval", "--a", &spec, "--b", "random", "-n", "2", "-q"]);
    assert!(!ok);
    assert!(err.contains("exited (exit status: 0)"), "{err}");
}

#[test]
fn engine_answers_a_line_that_is_not_utf8_with_an_error_and_goes_on() {
    let (ok, out, _) = run_with(&["engine", "--player", "ab"], b"\xff\nlegal\n", &[]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], "error line 1 is not UTF-8 text", "{out}");
    assert!(lines[2].starts_with("legal "), "{out}");
}

#[test]
fn an_engine_program_that_never_answers_is_stopped_after_the_timeout() {
    let tmp = tempfile::tempdir().unwrap();
    let never = script(
        tmp.path(),
        "never.sh",
        "echo bao-zero engine ready\nexec sleep 1000",
    );
    let input = format!("player engine:{never}\ngo movetime 50\nlegal\n");
    let env = [("BAO_ENGINE_TIMEOUT_S", "1")];
    let (ok, out, _) = run_with(&["engine", "--player", "ab"], input.as_bytes(), &env);
    assert!(ok, "{out}");
    assert!(out.contains("gave no answer"), "{out}");
    assert!(out.lines().last().unwrap().starts_with("legal "), "{out}");
}

#[cfg(target_os = "linux")]
#[test]
fn an_engine_program_dies_with_the_bao_that_started_it() {
    let tmp = tempfile::tempdir().unwrap();
    let pid_file = tmp.path().join("pid");
    let never = script(
        tmp.path(),
        "never.sh",
        &format!(
            "echo $$ > {}\necho bao-zero engine ready\nexec sleep 1000",
            pid_file.display()
        ),
    );
    let mut child = bao()
        .args(["engine", "--player", "ab"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "player engine:{never}\ngo").unwrap();
    let start = Instant::now();
    while !pid_file.exists()
        || std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .is_empty()
    {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the engine never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_string();
    child.kill().unwrap();
    child.wait().unwrap();
    let proc = Path::new("/proc").join(&pid);
    let start = Instant::now();
    while proc.exists()
        && !std::fs::read_to_string(proc.join("stat"))
            .unwrap_or_default()
            .contains(") Z")
    {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the engine program {pid} outlived bao"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The players `stop` and the end of input are checked with: alpha-beta and an MCTS player.
const STOPPABLE: [&str; 2] = ["ab", "player:checkpoints/shipped/kiswahili.bao"];

#[test]
fn engine_stop_ends_a_long_search_with_its_best_move_and_limits_out_of_range_are_refused() {
    for player in STOPPABLE {
        let mut child = bao()
            .args(["engine", "--player", player])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        writeln!(
            stdin,
            "go depth 1000\ngo movetime 99999999999999999\ngo nodes 99999999999999"
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(500));
        writeln!(stdin, "stop\nlegal\nquit").unwrap();
        let out = wait_at_most(child, Duration::from_secs(30));
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1], "error `depth` takes 1 to 64, not 1000",
            "{player}: {text}"
        );
        assert!(
            lines[2].starts_with("error `movetime` takes at most"),
            "{player}: {text}"
        );
        assert!(lines[3].starts_with("bestmove "), "{player}: {text}");
        assert!(lines[4].starts_with("legal "), "{player}: {text}");
    }
}

#[test]
fn engine_ends_a_search_at_the_end_of_input() {
    for player in STOPPABLE {
        let (ok, out, _) = run_with(
            &["engine", "--player", player],
            b"go nodes 99999999999999\n",
            &[],
        );
        assert!(ok, "{player}");
        assert!(
            out.lines().nth(1).unwrap().starts_with("bestmove "),
            "{player}: {out}"
        );
    }
}

#[test]
fn engine_errors_echo_a_short_excerpt_of_a_huge_input() {
    let huge = format!("{}\n", "x".repeat(120_000));
    let (ok, out, _) = run_with(&["engine", "--player", "ab"], huge.as_bytes(), &[]);
    assert!(ok);
    let line = out.lines().nth(1).unwrap();
    assert!(line.starts_with("error unknown command"), "{line}");
    assert!(line.len() < 600, "{} bytes", line.len());
}

#[test]
fn eval_checks_the_records_path_before_the_match() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let start = Instant::now();
    let (ok, out, err) = run(&[
        "eval",
        "--a",
        "random",
        "--b",
        "random",
        "-n",
        "2",
        "--records",
        dir,
        "-q",
    ]);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert_one_line_error(&err, "a folder");
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn play_refuses_a_record_path_that_is_a_folder_before_the_game() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let (ok, out, err) = run_with(
        &["play", "--against", "ab:depth=1", "--record", dir],
        b"A6<\n",
        &[],
    );
    assert!(!ok);
    assert!(!out.contains("your move"), "{out}");
    assert_one_line_error(&err, "a folder");
}

#[test]
fn play_answers_a_line_that_is_not_utf8_and_saves_the_record_at_the_end() {
    let tmp = tempfile::tempdir().unwrap();
    let record = tmp.path().join("game.txt");
    let path = record.to_str().unwrap();
    let (ok, out, err) = run_with(
        &["play", "--against", "ab:depth=1", "--record", path],
        b"\xff\nA6<\n",
        &[],
    );
    assert!(ok, "{err}");
    assert!(out.contains("line 1 is not UTF-8 text"), "{out}");
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("A6<"), "{text}");
}

#[cfg(unix)]
#[test]
fn play_saves_the_record_of_the_game_so_far_on_ctrl_c() {
    let tmp = tempfile::tempdir().unwrap();
    let record = tmp.path().join("game.txt");
    let mut child = bao()
        .args(["play", "--against", "ab:depth=1", "--record"])
        .arg(&record)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "A6<").unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: a signal to the child this test started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let out = wait_at_most(child, Duration::from_secs(30));
    drop(stdin);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(interrupted)"), "{text}");
    assert!(text.contains("game saved to"), "{text}");
    let saved = std::fs::read_to_string(&record).unwrap();
    assert!(saved.contains("A6<"), "{saved}");
}

#[test]
fn engine_option_takes_a_word_as_its_value_and_a_repeated_option_replaces_it() {
    let input = b"option takasia none\noption takasia kiswahili\n";
    let (ok, out, _) = run_with(&["engine", "--player", "ab"], input, &[]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1..], ["ok", "ok"], "{out}");
}

#[test]
fn position_errors_say_a_number_is_out_of_range_rather_than_not_a_number() {
    let board = "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0";
    let input = format!("position text {board} S 22,22 Hh - - 65536\n");
    let (_, out, _) = run_with(&["engine", "--player", "ab"], input.as_bytes(), &[]);
    assert!(out.contains("from 0 to 65535"), "{out}");
    let input = format!("position text 256{} S 22,22 Hh - - 0\n", &board[1..]);
    let (_, out, _) = run_with(&["engine", "--player", "ab"], input.as_bytes(), &[]);
    assert!(out.contains("seed count (0 to 255)"), "{out}");
}

#[test]
fn moves_names_the_line_that_is_not_utf8() {
    let (ok, out, err) = run_with(&["moves"], b"A6<\n\xff\n", &[]);
    assert!(!ok);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert_one_line_error(&err, "line 2 of the input is not UTF-8 text");
}

/// `bao engine ARGS` given `input` with its stdin kept open (no end of input to stop a search):
/// its first `n` replies after the greeting, all within `limit`, or the test fails.
fn engine_replies(args: &[&str], input: &str, n: usize, limit: Duration) -> Vec<String> {
    use std::io::BufRead;
    let mut child = bao()
        .arg("engine")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok).skip(1) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let start = Instant::now();
    let mut replies = Vec::new();
    while replies.len() < n {
        let left = limit.saturating_sub(start.elapsed());
        match rx.recv_timeout(left) {
            Ok(line) => replies.push(line),
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "{args:?}: {} replies in {limit:?}: {replies:?}",
                    replies.len()
                );
            }
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    replies
}

#[test]
fn engine_a_pipelined_stop_ends_the_search_of_the_go_before_it() {
    // The second `stop` follows the second `go`: it must end that search, not the first one's.
    let input = "go movetime 600000\nstop\ngo movetime 600000\nstop\nlegal\n";
    let replies = engine_replies(
        &["--player", "ab:depth=60"],
        input,
        3,
        Duration::from_secs(20),
    );
    assert!(replies[0].starts_with("bestmove "), "{replies:?}");
    assert!(replies[1].starts_with("bestmove "), "{replies:?}");
    assert!(replies[2].starts_with("legal "), "{replies:?}");
    // A command between `go` and `stop` answers after the search, which the stop still ends.
    let input = "go movetime 600000\nlegal\nstop\nshow\n";
    let replies = engine_replies(&["--player", "ab"], input, 3, Duration::from_secs(20));
    assert!(replies[0].starts_with("bestmove "), "{replies:?}");
    assert!(replies[1].starts_with("legal "), "{replies:?}");
    assert!(
        !replies.iter().any(|r| r.starts_with("error")),
        "{replies:?}"
    );
}

#[test]
fn engine_answers_go_as_the_last_input_line_for_players_that_cannot_stop() {
    for player in ["greedy", "random", "solver:time=1s,else=greedy"] {
        for _ in 0..3 {
            let (ok, out, err) = run_with(
                &["engine", "--player", player],
                b"position startpos\ngo\n",
                &[],
            );
            assert!(ok, "{player}: {err}");
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines[1], "ok", "{player}: {out}");
            assert!(lines[2].starts_with("bestmove "), "{player}: {out}");
        }
    }
}

#[test]
fn engine_quit_after_a_search_lets_it_finish_and_reply() {
    let (ok, out, _) = run_with(
        &["engine", "--player", "ab:depth=60"],
        b"go depth 5\nquit\nlegal\n",
        &[],
    );
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[1].starts_with("bestmove "), "{out}");
    assert!(lines[1].contains(" depth 5 "), "{out}");
}

/// `depth` solvers, each the `else=` player of the one before, then greedy.
fn nested_solvers(depth: usize) -> String {
    "solver:memory=1,else=".repeat(depth) + "greedy"
}

#[test]
fn player_specs_nested_past_the_bound_are_refused_in_one_line_by_every_front_end() {
    use bao_zero::players::PlayerRegistry;
    use bao_zero::players::spec::MAX_NESTING;
    let players = PlayerRegistry::classical();
    let rules = bao_zero::rules::Game::from(bao_zero::rules::Variant::Kiswahili);
    let (_, inner) = players
        .resolve(&nested_solvers(MAX_NESTING), &rules, 0)
        .unwrap();
    assert_eq!(inner.name(), nested_solvers(MAX_NESTING));
    for depth in [MAX_NESTING + 1, 10_000] {
        let err = players
            .resolve(&nested_solvers(depth), &rules, 0)
            .err()
            .unwrap();
        let err = format!("{err:#}");
        assert!(err.contains("inside players more than 4 deep"), "{err}");
        assert!(err.len() < 1000 && !err.contains('\n'), "{err}");
    }
    let engines = "engine:bao,player=".repeat(MAX_NESTING + 1) + "greedy";
    assert!(engines.parse::<bao_zero::players::PlayerSpec>().is_err());
    // The engine answers `error` and goes on; the command line refuses in one line.
    let deep = nested_solvers(10_000);
    let input = format!("player {deep}\nlegal\nquit\n");
    let (ok, out, _) = run_with(&["engine", "--player", "random"], input.as_bytes(), &[]);
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].starts_with("error bad player spec"), "{out}");
    assert!(lines[1].contains("more than 4 deep"), "{out}");
    assert!(lines[2].starts_with("legal "), "{out}");
    // (One argument holds at most 128 KiB, so the command line gets a spec 1,000 deep.)
    let deep = nested_solvers(1000);
    let (ok, _, err) = run(&["eval", "--a", &deep, "--b", "random", "-n", "2", "-q"]);
    assert!(!ok);
    assert_one_line_error(&err, "more than 4 deep");
}

/// `bao ARGS` with `input`, its address space bounded to 16 GiB: a table of 64 GiB can then never
/// be had, whatever the machine (with overcommit, a large one might be).
#[cfg(unix)]
fn run_in_16_gib(args: &[&str], input: &[u8]) -> (bool, String, String) {
    let bao = env!("CARGO_BIN_EXE_bao");
    let shell = [
        &["-c", "ulimit -v 16777216 && exec \"$0\" \"$@\"", bao][..],
        args,
    ]
    .concat();
    let mut command = Command::new("sh");
    command.args(shell);
    run_command(command, input)
}

#[cfg(unix)]
#[test]
fn a_solver_table_the_machine_cannot_give_is_a_one_line_answer_not_an_abort() {
    let (ok, out, err) = run_in_16_gib(
        &["engine", "--player", "random"],
        b"player solver:memory=65536,time=1s\nlegal\nplayer solver:memory=8,time=1s\nquit\n",
    );
    assert!(ok, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].starts_with("error cannot allocate the solver's table of 65536 MiB"),
        "{out}"
    );
    assert!(lines[2].starts_with("legal "), "{out}");
    // The engine names the player by its spec as written back: the options in their order.
    assert!(lines[3].starts_with("ok solver:time=1s,memory=8"), "{out}");
    for args in [
        &[
            "solve",
            "-v",
            "kujifunza",
            "--memory",
            "65536",
            "--time-limit",
            "2",
            "--no-cache",
        ][..],
        &[
            "eval",
            "--a",
            "solver:memory=65536",
            "--b",
            "random",
            "-n",
            "2",
            "-q",
        ],
    ] {
        let (ok, _, err) = run_in_16_gib(args, b"");
        assert!(!ok, "{args:?}");
        assert_one_line_error(&err, "cannot allocate the solver's table of 65536 MiB");
    }
}
