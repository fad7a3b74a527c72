//! The exact solver: against plain exhaustive minimax on small positions, named endgames,
//! repeated positions (a game that never ends is a draw), the on-disk cache, the perfect player,
//! players measured against it (`bao judge`'s measures), and `bao solve`'s errors.

use crate::common;

use crate::small_solver;
use bao_zero::eval::perfect::{Proven, converting, keeping, prove};
use bao_zero::players::{Limits, Player, PlayerRegistry, RandomPlayer};
use bao_zero::rules::variant::StartSeeds;
use bao_zero::rules::{MoveList, Position, Rules, Side, Variant};
use bao_zero::search::solver::{Value, cache};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use small_solver::solver;
use std::time::Duration;

/// A rule set with `per_side` seeds a side (front pits 1.. from the left), for small positions
/// that the setup gate accepts.
fn small(variant: Variant, per_side: u8) -> Rules {
    let mut front = [0u8; 8];
    for i in 0..per_side as usize {
        front[i % 8] += 1;
    }
    Rules {
        setup: StartSeeds {
            front,
            back: [0; 8],
            store: 0,
        },
        ..variant.rules()
    }
}

/// A position through the text gate.
fn read(rules: &Rules, text: &str) -> Position {
    Position::from_text(text, rules).unwrap_or_else(|e| panic!("test position: {e}"))
}

/// Plain minimax to `depth` plies, no table, no pruning, a position already on the line scored a
/// draw: `Some(value)` when it is decided within the depth (or every line ended or repeated),
/// `None` when lines reaching the depth leave it open.
fn minimax(rules: &Rules, pos: &Position, depth: u32, path: &mut Vec<Position>) -> Option<i8> {
    let me = pos.side_to_move();
    if let Some(o) = pos.result() {
        return Some(match o.winner {
            Some(w) if w == me => 1,
            Some(_) => -1,
            None => 0,
        });
    }
    if path.iter().any(|p| same_game_state(p, pos)) {
        return Some(0);
    }
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    if list.is_empty() {
        return Some(-1);
    }
    if depth == 0 {
        return None;
    }
    path.push(*pos);
    let (mut best, mut open) = (-1i8, false);
    for child in list.children() {
        let v = minimax(rules, child, depth - 1, path)
            .map(|v| if child.side_to_move() == me { v } else { -v });
        match v {
            Some(v) => best = best.max(v),
            None => open = true,
        }
        if best == 1 {
            break;
        }
    }
    path.pop();
    if best == 1 {
        Some(1)
    } else if open {
        None
    } else {
        Some(best)
    }
}

/// Positions equal but for the ply count (which decides nothing in these rules).
fn same_game_state(a: &Position, b: &Position) -> bool {
    let strip = |p: &Position| {
        let t = p.to_string();
        let mut f: Vec<&str> = t.split(' ').collect();
        f[6] = "";
        f.join(" ")
    };
    strip(a) == strip(b)
}

/// A random position of `rules` (all its seeds dealt over the board, each front row non-empty),
/// through the text gate.
fn random_position(rules: &Rules, rng: &mut ChaCha8Rng) -> Position {
    let per_side = (rules.total_seeds() / 2) as usize;
    loop {
        let mut board = [[0u8; 16]; 2];
        for side in &mut board {
            for _ in 0..per_side {
                side[rng.random_range(0..16usize)] += 1;
            }
        }
        if board.iter().any(|s| s[..8].iter().all(|&n| n == 0)) {
            continue;
        }
        let row = |v: Vec<u8>| v.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        // Rows top to bottom: b8..b1, a8..a1, A1..A8, B1..B8 (ring: front 0..8, back 15..8).
        let north_back = row((8..16).map(|i| board[1][i]).collect());
        let north_front = row((0..8).rev().map(|i| board[1][i]).collect());
        let south_front = row((0..8).map(|i| board[0][i]).collect());
        let south_back = row((8..16).rev().map(|i| board[0][i]).collect());
        let side = if rng.random_bool(0.5) { "S" } else { "N" };
        let text =
            format!("{north_back}/{north_front}/{south_front}/{south_back} {side} 0,0 - - - 5");
        return read(rules, &text);
    }
}

fn value_i8(v: Value) -> i8 {
    match v {
        Value::Win => 1,
        Value::Draw => 0,
        Value::Loss => -1,
    }
}

#[test]
fn solver_agrees_with_exhaustive_minimax_on_small_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut decided, mut draws) = (0, 0);
    // Hus without captures can only end by a side left without a move: many of its positions
    // repeat for ever (draws), and with three seeds a side every line is a single path.
    let no_captures = Rules {
        captures: false,
        ..small(Variant::Hus, 3)
    };
    for (rules, depth) in [
        (small(Variant::Kujifunza, 4), 7),
        (small(Variant::Kujifunza, 6), 7),
        (small(Variant::MalawiBasic, 5), 7),
        (small(Variant::Hus, 5), 7),
        (small(Variant::LadderKimbi, 5), 7),
        (no_captures, 80),
    ] {
        let mut solver = solver();
        for _ in 0..16 {
            let pos = random_position(&rules, &mut rng);
            let exact = minimax(&rules, &pos, depth, &mut Vec::new());
            let solved = solver.solve(&rules, &pos).expect("small positions solve");
            if let Some(v) = exact {
                decided += 1;
                draws += usize::from(v == 0);
                assert_eq!(value_i8(solved.value), v, "{pos}");
            }
            // The best move keeps the value.
            if let Some(best) = solved.best {
                let child = pos.play(&rules, best).unwrap();
                let after = solver.solve(&rules, &child).unwrap().value;
                let after = if child.side_to_move() == pos.side_to_move() {
                    after
                } else {
                    after.flip()
                };
                assert_eq!(after, solved.value, "{pos}: best move");
            }
        }
    }
    assert!(
        decided >= 40,
        "only {decided} positions decided by minimax ({draws} draws)"
    );
}

/// Six seeds: North has one front seed, a6, facing South's A3; South's A1> ends in A3 and
/// takes it. North's only seeds besides it are two in b4, which sow into the back row.
const CAPTURE_ENDGAME: &str = "0,0,0,0,2,0,0,0/0,0,1,0,0,0,0,0/2,0,1,0,0,0,0,0/0,0,0,0,0,0,0,0";

#[test]
fn a_capture_that_empties_the_front_row_is_a_win_in_one() {
    let rules = small(Variant::Kujifunza, 3);
    let pos = read(&rules, &format!("{CAPTURE_ENDGAME} S 0,0 - - - 9"));
    let s = solver().solve(&rules, &pos).unwrap();
    assert_eq!((s.value, s.length), (Value::Win, 1));
    let best = s.best.expect("a best move");
    assert_eq!(bao_zero::notation::move_text(best, Side::South), "A1>");
    let after = pos.play(&rules, best).unwrap();
    assert_eq!(after.result().unwrap().winner, Some(Side::South));
}

#[test]
fn a_position_whose_every_move_allows_that_capture_is_a_loss_in_two() {
    let rules = small(Variant::Kujifunza, 3);
    let pos = read(&rules, &format!("{CAPTURE_ENDGAME} N 0,0 - - - 9"));
    let s = solver().solve(&rules, &pos).unwrap();
    assert_eq!((s.value, s.length), (Value::Loss, 2));
    assert_eq!(minimax(&rules, &pos, 4, &mut Vec::new()), Some(-1));
    assert_eq!(s.pv.len(), 2, "North's move, then South's capture");
}

#[test]
fn a_player_without_a_move_has_lost() {
    // North's only seed is a single one in a6: nothing to lift.
    let rules = small(Variant::Kujifunza, 3);
    let pos = read(
        &rules,
        "0,0,0,0,0,0,0,0/0,0,1,0,0,0,0,0/2,0,1,0,0,0,0,0/2,0,0,0,0,0,0,0 N 0,0 - - - 9",
    );
    let s = solver().solve(&rules, &pos).unwrap();
    assert_eq!((s.value, s.length, s.best), (Value::Loss, 0, None));
}

/// Hus without captures, three seeds a side as a 2 and a 1 just ahead of it (anticlockwise: A2
/// then A1, B1, ...): each side's only move sows the 2 over the 1, which makes the same shape one
/// pit further on, round and round for ever.
fn cycling() -> (Rules, Position) {
    let rules = Rules {
        captures: false,
        ..small(Variant::Hus, 3)
    };
    let pos = read(
        &rules,
        "0,0,0,0,0,0,0,0/0,0,0,0,0,0,2,1/1,2,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S 0,0 - - - 3",
    );
    (rules, pos)
}

#[test]
fn a_game_that_can_only_repeat_is_a_draw() {
    let (rules, pos) = cycling();
    let s = solver().solve(&rules, &pos).unwrap();
    assert_eq!((s.value, s.length), (Value::Draw, 0));
    assert_eq!(minimax(&rules, &pos, 80, &mut Vec::new()), Some(0));
}

#[test]
fn results_that_leaned_on_a_repetition_do_not_leak_through_the_table() {
    // One solver (one table) along the whole cycle agrees with a fresh solver at every step.
    let (rules, mut pos) = cycling();
    let mut shared = solver();
    let mut list = MoveList::new();
    for _ in 0..40 {
        let a = shared.solve(&rules, &pos).unwrap().value;
        let b = solver().solve(&rules, &pos).unwrap().value;
        assert_eq!((a, b), (Value::Draw, Value::Draw), "{pos}");
        pos.legal_moves(&rules, &mut list);
        assert_eq!(list.len(), 1);
        pos = list.children()[0];
    }
}

#[test]
fn the_cache_round_trips_and_refuses_corrupt_or_foreign_files_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let rules = small(Variant::Kujifunza, 3);
    let pos = read(&rules, &format!("{CAPTURE_ENDGAME} S 0,0 - - - 9"));
    assert!(cache::load(dir.path(), &rules, &pos).unwrap().is_none());
    let s = solver().solve(&rules, &pos).unwrap();
    let path = cache::store(dir.path(), &rules, &pos, &s, None).unwrap();
    let back = cache::load(dir.path(), &rules, &pos).unwrap().unwrap();
    assert_eq!(back.solution, s);
    // The same board under other rules is another file, and this file is not its cache.
    let other = small(Variant::MalawiBasic, 3);
    let foreign = cache::path_for(dir.path(), &other, &pos);
    std::fs::copy(&path, &foreign).unwrap();
    let err = cache::load(dir.path(), &other, &pos)
        .unwrap_err()
        .to_string();
    assert!(err.contains("another game") && !err.contains('\n'), "{err}");
    for bad in [
        "garbage",
        "bao-solve-cache 2\n{\"rules\": 3",
        "bao-solve-cache 9\n{}",
        "bao-solve-cache 1\n{}",
    ] {
        std::fs::write(&path, bad).unwrap();
        let err = format!("{:#}", cache::load(dir.path(), &rules, &pos).unwrap_err());
        assert!(!err.contains('\n'), "{err}");
        assert!(
            err.contains("corrupt") || err.contains("does not start") || err.contains("older bao"),
            "{err}"
        );
    }
}

#[test]
fn the_perfect_player_never_loses_a_won_position() {
    let rules = small(Variant::Kujifunza, 6);
    let registry = PlayerRegistry::classical();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut check = solver();
    let mut games = 0;
    while games < 8 {
        let start = random_position(&rules, &mut rng);
        if check.solve(&rules, &start).unwrap().value != Value::Win {
            continue;
        }
        games += 1;
        let perfect_side = start.side_to_move();
        let (_, mut perfect) = registry
            .resolve("solver:time=5s,memory=16", &rules, 1)
            .unwrap();
        let mut random = RandomPlayer::new(&rules, games);
        let mut pos = start;
        for _ in 0..400 {
            if pos.outcome(&rules).is_some() {
                break;
            }
            let player: &mut dyn Player = if pos.side_to_move() == perfect_side {
                perfect.as_mut()
            } else {
                &mut random
            };
            let choice = player.choose(&pos, &Limits::NONE).unwrap();
            pos = pos.play(&rules, choice.mv).unwrap();
            if pos.side_to_move() != perfect_side && pos.outcome(&rules).is_none() {
                // After the perfect player's move its side still wins.
                let v = check.solve(&rules, &pos).unwrap().value;
                assert_eq!(v, Value::Loss, "{start}: the won game slipped at {pos}");
            }
        }
        let outcome = pos.outcome(&rules).expect("the won game ended");
        assert_eq!(outcome.winner, Some(perfect_side), "{start}");
    }
}

#[test]
fn the_solver_spec_builds_and_refuses_bad_options_in_one_line() {
    let registry = PlayerRegistry::classical();
    let kiswahili = Variant::Kiswahili.rules();
    for good in ["solver", "solver:time=1s", "solver:time=500ms,memory=8"] {
        let (_, p) = registry.resolve(good, &kiswahili, 0).unwrap();
        assert_eq!(p.name(), good);
    }
    for bad in [
        "solver:depth=3",
        "solver:time=soon",
        "solver:memory=0",
        "solver:fast",
    ] {
        let err = registry
            .resolve(bad, &kiswahili, 0)
            .err()
            .expect(bad)
            .to_string();
        assert!(!err.contains('\n') && err.contains("solver"), "{err}");
    }
}

/// A 64-seed Bao la Kujifunza position (the preset's own seed total) where South's A1> (and
/// B1<, which sows round through A1 and A2) ends in A3 and takes North's last front seed.
const KUJIFUNZA_WIN_IN_ONE: &str =
    "5,5,5,5,5,5,5,5/0,0,1,0,0,0,0,0/2,0,1,0,0,0,0,0/3,3,3,3,2,2,2,2 S 0,0 - - - 30";

#[test]
fn bao_solve_prints_the_value_and_answers_from_its_cache_the_second_time() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("solved");
    let args = [
        "solve",
        "--variant",
        "kujifunza",
        "--position",
        KUJIFUNZA_WIN_IN_ONE,
        "--json",
        "--all-moves",
        "--cache",
        cache.to_str().unwrap(),
    ];
    let first = common::bao_with_input(&args, "", None);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    assert_eq!(json["value"], "win");
    assert_eq!(json["winner"], "south");
    assert!(json["best"] == "A1>" || json["best"] == "B1<", "{json}");
    assert_eq!(json["winning_moves"], serde_json::json!(["A1>", "B1<"]));
    assert_eq!(json["length"], 1);
    assert_eq!(json["cached"], false);
    let second = common::bao_with_input(&args, "", None);
    let json: serde_json::Value = serde_json::from_slice(&second.stdout).unwrap();
    assert_eq!(
        (json["value"].as_str(), json["cached"].as_bool()),
        (Some("win"), Some(true))
    );
    // A corrupt cache file: one warning line, then the position is solved again.
    for f in std::fs::read_dir(&cache).unwrap() {
        std::fs::write(f.unwrap().path(), "not a cache").unwrap();
    }
    let third = common::bao_with_input(&args, "", None);
    let err = String::from_utf8_lossy(&third.stderr);
    assert!(third.status.success() && err.lines().count() == 1, "{err}");
    assert!(
        err.contains("warning") && err.contains("solver cache file"),
        "{err}"
    );
}

#[test]
fn bao_solve_refuses_bad_input_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().to_str().unwrap();
    for (args, expect) in [
        (vec!["--variant", "chess"], "unknown variant"),
        (
            vec!["--variant", "kujifunza", "--position", "2,2 S"],
            "--position",
        ),
        (vec!["--variant", "kujifunza", "--moves", "Z9<"], "move 1"),
        (
            vec!["--variant", "kujifunza", "--moves", "A1< a1<"],
            "move 1",
        ),
        (
            vec!["--variant", "kujifunza", "--time-limit", "0"],
            "--time-limit",
        ),
        (vec!["--variant", "kujifunza", "--memory", "0"], "--memory"),
        (
            vec![
                "--variant",
                "kiswahili",
                "--time-limit",
                "0.3",
                "--no-cache",
            ],
            "not solved within 0.30 s after",
        ),
    ] {
        let mut all = vec!["solve", "--cache", cache];
        all.extend(args.iter().copied());
        let out = common::bao_with_input(&all, "", None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}

#[test]
fn the_perfect_player_takes_the_quickest_win_and_else_the_longest_loss() {
    use bao_zero::rules::{Dir, Move, Pit};
    use bao_zero::search::solver::MoveValue;
    use bao_zero::search::solver::player::pick;
    let rules = small(Variant::Kujifunza, 3);
    let pos = read(&rules, &format!("{CAPTURE_ENDGAME} S 0,0 - - - 9"));
    let (_, mut perfect) = PlayerRegistry::classical()
        .resolve("solver", &rules, 0)
        .unwrap();
    let choice = perfect.choose(&pos, &Limits::NONE).unwrap();
    assert_eq!(bao_zero::notation::move_text(choice.mv, Side::South), "A1>");
    assert_eq!((choice.depth, choice.eval), (1, Some(1.0)));
    let mv = |n: u8| Move::sow(Pit::new(n).unwrap(), Dir::Left);
    let v = |n, value, length| MoveValue {
        mv: mv(n),
        value,
        length,
    };
    let wins = [
        v(0, Value::Loss, 9),
        v(1, Value::Win, 7),
        v(2, Value::Win, 3),
    ];
    assert_eq!(pick(&wins).unwrap().mv, mv(2));
    let draws = [
        v(0, Value::Loss, 9),
        v(1, Value::Draw, 0),
        v(2, Value::Loss, 3),
    ];
    assert_eq!(pick(&draws).unwrap().mv, mv(1));
    let losses = [
        v(0, Value::Loss, 4),
        v(1, Value::Loss, 9),
        v(2, Value::Loss, 9),
    ];
    assert_eq!(
        pick(&losses).unwrap().mv,
        mv(1),
        "the longest, first of equals"
    );
}

/// Positions of random games of a small Bao la Kujifunza (12 seeds a side), proven with every
/// move.
fn proven_positions(rules: &Rules) -> Vec<Proven> {
    let mut check = solver();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..12 {
        let mut pos = Position::start(rules);
        for _ in 0..30 {
            pos.legal_moves(rules, &mut list);
            if pos.outcome_given(&list).is_some() {
                break;
            }
            // A position whose value is not proven in 2 s (a long draw) is left out.
            out.extend(prove(rules, &pos, &mut check, Duration::from_secs(2), None).unwrap());
            pos = *list.iter().nth(rng.random_range(0..list.len())).unwrap().1;
        }
    }
    out
}

#[test]
fn the_perfect_player_keeps_and_converts_every_proven_win_and_random_does_not() {
    let rules = small(Variant::Kujifunza, 12);
    let proven = proven_positions(&rules);
    let critical: Vec<&Proven> = proven.iter().filter(|p| p.is_critical()).collect();
    assert!(
        critical.len() >= 10,
        "only {} critical positions",
        critical.len()
    );
    // A critical position has a move that keeps its value and one that does not.
    for p in &critical {
        assert!(p.moves.iter().any(|m| m.value == p.value));
        assert!(p.moves.iter().any(|m| m.value != p.value));
    }
    let registry = PlayerRegistry::classical();
    let (_, mut perfect) = registry
        .resolve("solver:time=10s,memory=16", &rules, 1)
        .unwrap();
    let kept = keeping(&proven, perfect.as_mut(), &Limits::NONE, || {}).unwrap();
    assert!(kept.won.of > 0);
    assert_eq!(
        (kept.won.count, kept.drawn.count),
        (kept.won.of, kept.drawn.of)
    );
    let mut random = RandomPlayer::new(&rules, 3);
    let random_kept = keeping(&proven, &mut random, &Limits::NONE, || {}).unwrap();
    assert_eq!(random_kept.won.of, kept.won.of);
    assert!(
        random_kept.won.count < random_kept.won.of,
        "{random_kept:?}"
    );

    let won: Vec<Position> = (proven.iter())
        .filter(|p| p.value == Value::Win)
        .map(|p| p.pos)
        .take(6)
        .collect();
    let (_, mut defender) = registry
        .resolve("solver:time=10s,memory=16", &rules, 2)
        .unwrap();
    let converted = converting(
        &rules,
        &won,
        perfect.as_mut(),
        defender.as_mut(),
        &Limits::NONE,
        400,
        || {},
    )
    .unwrap();
    assert_eq!((converted.count, converted.of), (won.len() as u64, 6));
}
