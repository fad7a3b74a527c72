//! The solver's cache on disk as an attacker or a careless user leaves it: a FIFO at an entry's
//! name, hand-edited entries, two solves of one position at once, entries of an older format.
//! Every such entry is refused in one line (and the position solved again), nothing hangs, and no
//! write loses what is there.

use crate::small_solver;
use bao_zero::eval::perfect::prove;
use bao_zero::rules::{Move, MoveList, Position, Rules, Variant};
use bao_zero::search::solver::{Value, cache};
use small_solver::solver;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A 64-seed Bao la Kujifunza position where South wins at once with A1> or B1<.
const WIN_IN_ONE: &str =
    "5,5,5,5,5,5,5,5/0,0,1,0,0,0,0,0/2,0,1,0,0,0,0,0/3,3,3,3,2,2,2,2 S 0,0 - - - 30";

fn game() -> (Rules, Position) {
    let rules = Variant::Kujifunza.rules();
    let pos = Position::from_text(WIN_IN_ONE, &rules).unwrap();
    (rules, pos)
}

/// Solves the position and its moves into the cache at `dir`; returns the entry's path.
fn store_solved(dir: &Path, rules: &Rules, pos: &Position, with_moves: bool) -> std::path::PathBuf {
    let mut s = solver();
    let solution = s.solve(rules, pos).unwrap();
    let moves = with_moves.then(|| s.move_values(rules, pos).unwrap().0);
    cache::store(dir, rules, pos, &solution, moves.as_deref()).unwrap()
}

/// The entry at `path`, changed by `edit`, written back with this version's header.
fn edit_entry(path: &Path, edit: impl FnOnce(&mut cache::Cached)) {
    let text = std::fs::read_to_string(path).unwrap();
    let (_, body) = text.split_once('\n').unwrap();
    let mut entry: cache::Cached = serde_json::from_str(body).unwrap();
    edit(&mut entry);
    let body = serde_json::to_string(&entry).unwrap();
    std::fs::write(path, format!("{}\n{body}\n", cache::HEADER)).unwrap();
}

/// `bao solve --all-moves --json` of the position with the cache at `dir`, ended if it runs past
/// a minute.
fn bao_solve(dir: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(["solve", "--variant", "kujifunza", "--position", WIN_IN_ONE])
        .args(["--all-moves", "--json", "--cache", dir.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("bao solve hangs: {:?}", child.wait_with_output().unwrap());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The answer of `bao solve` is the true one (A1> and B1< win), whatever the cache held.
fn assert_true_answer(out: &Output) -> serde_json::Value {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["value"], "win", "{json}");
    assert_eq!(json["winning_moves"], serde_json::json!(["A1>", "B1<"]));
    assert!(json["best"] == "A1>" || json["best"] == "B1<", "{json}");
    assert!(!err.contains("panicked"), "{err}");
    json
}

#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_cache_entry_is_refused_at_once_and_the_position_solved() {
    let dir = tempfile::tempdir().unwrap();
    let (rules, pos) = game();
    for path in [
        cache::path_for(dir.path(), &rules, &pos),
        cache::gave_up_path(dir.path(), &rules, &pos),
    ] {
        assert!(
            Command::new("mkfifo")
                .arg(&path)
                .status()
                .unwrap()
                .success()
        );
    }
    // The library's reads, on a thread of their own, so that a hang fails the test.
    let (tx, rx) = std::sync::mpsc::channel();
    let at = dir.path().to_path_buf();
    std::thread::spawn(move || {
        let (rules, pos) = game();
        let loaded = cache::load(&at, &rules, &pos)
            .map(|_| ())
            .map_err(|e| format!("{e:#}"));
        tx.send((loaded, cache::gave_up(&at, &rules, &pos)))
            .unwrap();
    });
    let (loaded, gave_up) = rx.recv_timeout(Duration::from_secs(20)).expect("no hang");
    let err = loaded.unwrap_err();
    assert!(
        err.ends_with("is not a regular file") && !err.contains('\n'),
        "{err}"
    );
    assert_eq!(gave_up, None);
    // `bao solve` answers, with a warning line for the read and one for the write it refuses.
    let out = bao_solve(dir.path());
    assert_true_answer(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.lines().all(|l| l.starts_with("warning: ")), "{err}");
    assert!(err.contains("not a regular file"), "{err}");
}

/// A move of `pos` that is not legal there (a house played where Kujifunza has none).
fn illegal_move(rules: &Rules, pos: &Position) -> Move {
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    let m = list.moves()[0];
    let bad = Move {
        house: !m.house,
        ..m
    };
    assert!(!list.moves().contains(&bad));
    bad
}

#[test]
fn hand_edited_cache_entries_are_refused_in_one_line_and_solved_again() {
    let (rules, pos) = game();
    let illegal = illegal_move(&rules, &pos);
    type Edit = Box<dyn Fn(&mut cache::Cached)>;
    let edits: Vec<(Edit, &str)> = vec![
        (
            Box::new(|e| e.solution.value = Value::Loss),
            "not the best of its moves' values",
        ),
        (
            Box::new(move |e| e.solution.best = Some(illegal)),
            "its best move is not legal",
        ),
        (
            Box::new(move |e| e.solution.pv = vec![illegal]),
            "its line holds an illegal move",
        ),
        (
            Box::new(move |e| e.moves.as_mut().unwrap()[0].mv = illegal),
            "its moves are not the position's legal moves",
        ),
        (
            Box::new(|e| {
                for m in e.moves.as_mut().unwrap() {
                    m.value = Value::Loss;
                    m.length = 2;
                }
            }),
            "not the best of its moves' values",
        ),
    ];
    for (edit, why) in edits {
        let dir = tempfile::tempdir().unwrap();
        let path = store_solved(dir.path(), &rules, &pos, true);
        edit_entry(&path, edit);
        let err = format!("{:#}", cache::load(dir.path(), &rules, &pos).unwrap_err());
        assert!(
            err.contains("is wrong") && err.contains(why),
            "{why}: {err}"
        );
        assert!(!err.contains('\n'), "{err}");
        // `bao judge`'s proving solves it again, and `bao solve` prints the truth and mends it.
        let proven = prove(
            &rules,
            &pos,
            &mut solver(),
            Duration::from_secs(20),
            Some(dir.path()),
        )
        .unwrap()
        .unwrap();
        assert_eq!(proven.value, Value::Win);
        edit_entry(&path, |e| e.solution.value = Value::Loss);
        let out = bao_solve(dir.path());
        let json = assert_true_answer(&out);
        assert_eq!(json["cached"], false);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("warning: ") && err.lines().count() == 1,
            "{err}"
        );
        assert!(cache::load(dir.path(), &rules, &pos).unwrap().is_some());
    }
}

#[test]
fn an_entry_without_moves_must_agree_with_the_entries_of_its_moves() {
    let (rules, pos) = game();
    let dir = tempfile::tempdir().unwrap();
    let path = store_solved(dir.path(), &rules, &pos, false);
    let best = cache::load(dir.path(), &rules, &pos)
        .unwrap()
        .unwrap()
        .solution
        .best
        .unwrap();
    // The position after the winning move, solved into the same cache: a loss for its mover.
    let child = pos.play(&rules, best).unwrap();
    store_solved(dir.path(), &rules, &child, false);
    assert!(cache::load(dir.path(), &rules, &pos).unwrap().is_some());
    // Flipped to a loss (and its proof length kept), the entry now contradicts its move's entry.
    edit_entry(&path, |e| e.solution.value = Value::Loss);
    let err = format!("{:#}", cache::load(dir.path(), &rules, &pos).unwrap_err());
    assert!(err.contains("leads to a position that"), "{err}");
}

#[test]
fn a_solve_without_the_moves_never_loses_the_moves_already_in_the_cache() {
    let (rules, pos) = game();
    let dir = tempfile::tempdir().unwrap();
    store_solved(dir.path(), &rules, &pos, true);
    // The later write of a solve without `--all-moves` keeps the moves.
    store_solved(dir.path(), &rules, &pos, false);
    let entry = cache::load(dir.path(), &rules, &pos).unwrap().unwrap();
    assert_eq!(entry.moves.map(|m| m.len()), Some(2));
    // Two writers at once, each many times: the moves stay, and no write is lost or torn.
    std::thread::scope(|scope| {
        for with_moves in [true, false] {
            let (rules, pos, dir) = (&rules, &pos, dir.path());
            scope.spawn(move || {
                for _ in 0..20 {
                    store_solved(dir, rules, pos, with_moves);
                }
            });
        }
    });
    let entry = cache::load(dir.path(), &rules, &pos).unwrap().unwrap();
    assert_eq!(entry.moves.map(|m| m.len()), Some(2));
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn entries_of_the_format_before_the_never_ending_move_rule_are_not_read() {
    assert_eq!(cache::HEADER, "bao-solve-cache 2");
    let (rules, pos) = game();
    let dir = tempfile::tempdir().unwrap();
    let path = store_solved(dir.path(), &rules, &pos, true);
    let text = std::fs::read_to_string(&path).unwrap();
    let old = text.replacen("bao-solve-cache 2", "bao-solve-cache 1", 1);
    std::fs::write(&path, &old).unwrap();
    let err = format!("{:#}", cache::load(dir.path(), &rules, &pos).unwrap_err());
    assert!(
        err.contains("written by an older bao") && !err.contains('\n'),
        "{err}"
    );
    // `bao solve` solves it again and writes it in the new format.
    let out = bao_solve(dir.path());
    assert_eq!(assert_true_answer(&out)["cached"], false);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .starts_with("bao-solve-cache 2\n")
    );
    assert_eq!(bao_solve(dir.path()).stderr.len(), 0);
    // A file an older bao left for a position it gave up on is no record either.
    cache::store_gave_up(dir.path(), &rules, &pos, 5.0).unwrap();
    assert_eq!(cache::gave_up(dir.path(), &rules, &pos), Some(5.0));
    let gave_up = cache::gave_up_path(dir.path(), &rules, &pos);
    let text = std::fs::read_to_string(&gave_up).unwrap();
    std::fs::write(
        &gave_up,
        text.replacen("bao-solve-cache 2", "bao-solve-cache 1", 1),
    )
    .unwrap();
    assert_eq!(cache::gave_up(dir.path(), &rules, &pos), None);
}
