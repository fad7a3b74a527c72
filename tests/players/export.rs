//! Exported players: the bundle round trip, damaged files, the library API, `player:` specs,
//! and the `bao engine` / `bao play` command lines driven through stdin.
#![cfg(feature = "ml")]

use crate::common;

use bao_zero::eval::{MatchConfig, play_game, run_match};
use bao_zero::player_file::Bundle;
use bao_zero::players::{Limits, Player, PlayerSpec, RandomPlayer};
use bao_zero::rules::{Game, Position, Variant};
use bao_zero::train::{self, RunOptions};
use bao_zero::trained::{LoadedPlayer, all_players};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub(crate) fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("bao-export-{}-{name}", std::process::id()))
}

/// A player file from the smoke run, made once for all tests of this file.
pub(crate) fn player_file() -> &'static Path {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let run = tmp("run");
        std::fs::remove_dir_all(&run).ok();
        let mut cfg = common::smoke(&run);
        cfg.eval.every = 0;
        let opts = RunOptions {
            quiet: true,
            ..RunOptions::default()
        };
        train::train_run(&train::RunSource::given(cfg), &opts).unwrap();
        let file = tmp("smoke.bao");
        bao_zero::export::from_run(&run, None, Some(24))
            .unwrap()
            .write(&file)
            .unwrap();
        file
    })
}

#[test]
fn a_bundle_round_trips_bit_exactly() {
    let bytes = std::fs::read(player_file()).unwrap();
    let bundle = Bundle::from_bytes(&bytes).unwrap();
    assert_eq!(bundle.to_bytes().unwrap(), bytes);
    assert_eq!(bundle.header.variant, "kiswahili");
    assert_eq!(bundle.header.sims, 24);
    assert_eq!(bundle.header.training.iteration, 2);
}

#[test]
fn an_earlier_iteration_carries_the_counts_it_had_then() {
    player_file(); // trains the smoke run
    let run = tmp("run");
    let first = bao_zero::export::from_run(&run, Some(1), None)
        .unwrap()
        .header
        .training;
    let last = bao_zero::export::from_run(&run, None, None)
        .unwrap()
        .header
        .training;
    assert_eq!((first.iteration, last.iteration), (1, 2));
    assert!(
        first.games > 0 && first.games < last.games,
        "{first:?} {last:?}"
    );
    assert!(first.positions < last.positions, "{first:?} {last:?}");
}

#[test]
fn a_run_exports_the_average_of_its_last_iterations_or_says_which_are_missing() {
    player_file(); // trains the smoke run: 2 iterations, both kept
    let run = tmp("run");
    let one = bao_zero::export::from_run(&run, None, None).unwrap();
    let both = bao_zero::export::from_run_averaged(&run, None, None, 2).unwrap();
    assert!(
        both.header.source.ends_with("iterations 1-2 averaged"),
        "{}",
        both.header.source
    );
    assert_eq!(both.header.training, one.header.training);
    assert_ne!(both.weights, one.weights);
    let err = format!(
        "{:#}",
        bao_zero::export::from_run_averaged(&run, None, None, 3).unwrap_err()
    );
    assert!(
        err.contains("cannot average 3 iterations up to iteration 2"),
        "{err}"
    );
    let err = format!(
        "{:#}",
        bao_zero::export::from_run_averaged(&run, None, None, 0).unwrap_err()
    );
    assert!(err.contains("cannot average 0"), "{err}");
}

#[test]
fn players_of_one_shape_average_into_one_and_other_shapes_are_refused() {
    player_file(); // trains the smoke run
    let run = tmp("run");
    let first = bao_zero::export::from_run(&run, Some(1), None).unwrap();
    let last = bao_zero::export::from_run(&run, None, None).unwrap();
    let mean = Bundle::average(&[first.clone(), last.clone()]).unwrap();
    assert!(
        mean.header.source.starts_with("the mean of"),
        "{}",
        mean.header.source
    );
    assert_eq!(mean.header.rules, first.header.rules);
    assert_ne!(mean.weights, first.weights);
    assert_ne!(mean.weights, last.weights);
    // The same as averaging the run's two iterations.
    let run_mean = bao_zero::export::from_run_averaged(&run, None, None, 2).unwrap();
    assert_eq!(mean.weights, run_mean.weights);
    // One player is its own mean, bytes and header unchanged.
    assert_eq!(Bundle::average(std::slice::from_ref(&last)).unwrap(), last);
    let mut other = last.clone();
    other.header.net.hidden.push(8);
    let err = format!("{:#}", Bundle::average(&[first, other]).unwrap_err());
    assert!(err.contains("player 2 has another network shape"), "{err}");
}

#[test]
fn damaged_truncated_and_foreign_files_are_errors_that_say_so() {
    let bytes = std::fs::read(player_file()).unwrap();
    let err = |b: &[u8]| format!("{:#}", Bundle::from_bytes(b).unwrap_err());
    let mut flipped = bytes.clone();
    let mid = bytes.len() / 2;
    flipped[mid] ^= 0x40;
    assert!(err(&flipped).contains("damaged"), "{}", err(&flipped));
    for cut in [16, 20, bytes.len() / 3, bytes.len() - 1] {
        assert!(
            err(&bytes[..cut]).contains("truncated"),
            "{cut}: {}",
            err(&bytes[..cut])
        );
    }
    assert!(err(b"PK\x03\x04 a zip file").contains("not a bao-zero player"));
    let mut other_version = bytes.clone();
    other_version[15] = 99;
    assert!(
        err(&other_version).contains("version 99"),
        "{}",
        err(&other_version)
    );
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(err(&longer).contains("unexpected bytes"));
    // A missing file names the path.
    let missing = LoadedPlayer::load(Path::new("/nonexistent/x.bao"))
        .err()
        .unwrap();
    assert!(format!("{missing:#}").contains("/nonexistent/x.bao"));
}

#[test]
fn half_precision_weights_halve_the_file_and_keep_the_players_choices() {
    let full = Bundle::read(player_file()).unwrap();
    let half = full
        .clone()
        .with_precision(bao_zero::nn::Precision::F16)
        .unwrap();
    let (full_len, half_len) = (
        full.to_bytes().unwrap().len(),
        half.to_bytes().unwrap().len(),
    );
    assert!(
        half_len * 10 < full_len * 6,
        "f16 {half_len} bytes, f32 {full_len}"
    );
    let load = |b: &Bundle| {
        let eval = std::sync::Arc::new(b.inference().unwrap());
        LoadedPlayer::new(b.header.clone(), eval, "p".into()).unwrap()
    };
    let (mut a, mut b) = (load(&full), load(&half));
    let rules = a.rules().clone();
    let mut pos = Position::start(&rules);
    let mut list = bao_zero::rules::MoveList::new();
    let (mut same, mut asked) = (0, 0);
    for i in 0..12 {
        pos.legal_moves(&rules, &mut list);
        if list.is_empty() {
            break;
        }
        let limits = Limits::nodes(64);
        let (ca, cb) = (
            a.choose(&pos, &limits).unwrap(),
            b.choose(&pos, &limits).unwrap(),
        );
        asked += 1;
        same += usize::from(ca.mv == cb.mv);
        pos = list.children()[(i * 7) % list.len()];
    }
    // Priors move by about 1e-3: only a near tie between two moves can turn.
    assert!(
        asked >= 6 && same + 1 >= asked,
        "{same} of {asked} choices agree"
    );
}

#[test]
fn version_1_player_files_still_load() {
    let mut bytes = std::fs::read(player_file()).unwrap();
    assert_eq!(bytes[15], 3, "the format version this build writes");
    bytes[15] = 1;
    let body = bytes.len() - 8;
    let sum = bao_zero::util::hash::fnv1a(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    let bundle = Bundle::from_bytes(&bytes).unwrap();
    assert!(bundle.inference().is_ok());
}

/// Player files written while the presets bounded moves at 10^8 seeds sown play the preset's game
/// as the rules now define it (N = 100,000); any other bound is another game, kept as written.
#[test]
fn player_files_of_the_former_safety_bound_load_as_the_presets_game() {
    let bundle = Bundle::from_bytes(&std::fs::read(player_file()).unwrap()).unwrap();
    let preset = bundle.header.rules.clone();
    assert_eq!(preset.max_sown, 100_000);
    let with_bound = |max_sown: u32| {
        let mut old = bundle.clone();
        old.header.rules.max_sown = max_sown;
        Bundle::from_bytes(&old.to_bytes().unwrap()).unwrap()
    };
    assert_eq!(with_bound(100_000_000).header.rules, preset);
    let other = with_bound(5_000).header.rules;
    assert_eq!(other.max_sown, 5_000);
    assert_ne!(other, preset);
}

#[test]
fn a_loaded_player_plays_legal_moves_to_the_end_and_refuses_other_rules() {
    let mut player = LoadedPlayer::load(player_file()).unwrap();
    let rules = player.game().clone();
    let start = Position::start(&rules);
    // The library API: a move with its value and line.
    let choice = player.choose(&start, &Limits::nodes(16)).unwrap();
    assert_eq!(choice.nodes, 16);
    assert_eq!(choice.pv.first(), Some(&choice.mv));
    assert!(choice.eval.is_some_and(|v| (-1.0..=1.0).contains(&v)));
    // A whole game against random: every move is checked legal by the arena.
    let mut random = RandomPlayer::new(&rules, 3);
    let game = play_game(
        &rules,
        &start,
        &mut player,
        &mut random,
        &Limits::NONE,
        400,
        |_, _, _| {},
    )
    .unwrap();
    assert!(!game.moves.is_empty());
    // Another variant: refused once, where its game is set up, before any move.
    let hus = Game::from(Variant::Hus);
    let err = bao_zero::players::check_players(&hus, &[&player]).unwrap_err();
    assert!(err.to_string().contains(", not hus"), "{err}");
}

#[test]
fn the_fpu_option_reaches_the_search_a_larger_reduction_tries_fewer_moves() {
    let players = all_players();
    let rules = Game::from(Variant::Kiswahili);
    // The moves a 64-simulation search from the start tries at least once.
    let tried = |fpu: &str| {
        let spec: PlayerSpec = format!(
            "mcts:checkpoint={},sims=64,fpu={fpu}",
            player_file().display()
        )
        .parse()
        .unwrap();
        let mut p = players.build(&spec, &rules, 1).unwrap();
        p.choose(&Position::start(&rules), &Limits::NONE).unwrap();
        p.candidates().iter().filter(|c| c.visits > 0).count()
    };
    // An unvisited move valued 2 below its parent is below every visited one (values lie in
    // [-1, 1]), so only its prior's exploration term can get it tried.
    let (wide, narrow) = (tried("0"), tried("2"));
    assert!(narrow < wide, "fpu=2 tried {narrow} moves, fpu=0 {wide}");
}

#[test]
fn player_specs_name_files_and_runs_everywhere() {
    let players = all_players();
    let spec = format!("player:{}", player_file().display());
    let cfg = MatchConfig {
        games: 2,
        progress: false,
        players: players.clone(),
        ..MatchConfig::new(
            spec.parse().unwrap(),
            "random".parse().unwrap(),
            Variant::Kiswahili,
        )
    };
    assert_eq!(run_match(&cfg).unwrap().games, 2);
    let mcts: PlayerSpec = format!("mcts:checkpoint={},sims=8", player_file().display())
        .parse()
        .unwrap();
    let rules = Game::from(Variant::Kiswahili);
    let mut p = players.build(&mcts, &rules, 1).unwrap();
    let c = p.choose(&Position::start(&rules), &Limits::NONE).unwrap();
    assert_eq!(c.nodes, 8);
    // Options that change how the search runs, not how many simulations it makes.
    for options in ["batch=1", "minimax=0.3", "fpu=0"] {
        let spec: PlayerSpec = format!(
            "mcts:checkpoint={},sims=8,{options}",
            player_file().display()
        )
        .parse()
        .unwrap();
        let c = players
            .build(&spec, &rules, 1)
            .unwrap()
            .choose(&Position::start(&rules), &Limits::NONE)
            .unwrap();
        assert_eq!(c.nodes, 8, "{options}");
    }
    for bad in [
        "mcts:minimax=1.5",
        "mcts:minimax=-0.1",
        "mcts:fpu=-0.2",
        "mcts:fpu=3",
        "mcts:sims=0",
        "mcts:colour=red",
        "mcts:batch=0",
        "mcts:batch=257",
        "player:/nonexistent.bao",
    ] {
        let built = bad
            .parse::<PlayerSpec>()
            .map(|s| players.build(&s, &rules, 0));
        assert!(!matches!(built, Ok(Ok(_))), "{bad} should fail");
    }
}

#[test]
fn an_exported_player_searches_with_the_play_time_exploration_constant_unless_told_otherwise() {
    let bundle = Bundle::read(player_file()).unwrap();
    assert_eq!(bundle.header.search.c_puct, bao_zero::mcts::PLAY_C_PUCT);
    let out = tmp("cpuct.bao");
    let path = player_file().to_str().unwrap();
    let args = ["export", "--player", path, "--cpuct", "0.8", "--out"];
    let (ok, text) = bao(&[&args[..], &[out.to_str().unwrap()]].concat(), "");
    assert!(ok, "{text}");
    assert!(text.contains("c_puct 0.8"), "{text}");
    let exported = Bundle::read(&out).unwrap();
    assert_eq!(exported.header.search.c_puct, 0.8);
    assert_eq!(exported.header.sims, bundle.header.sims);
    for bad in ["0", "-1", "x", "inf"] {
        let args = ["export", "--player", path, "--cpuct", bad, "--out"];
        let (ok, text) = bao(&[&args[..], &[out.to_str().unwrap()]].concat(), "");
        assert!(
            !ok && text.contains("must be a positive number"),
            "{bad}: {text}"
        );
    }
    std::fs::remove_file(out).ok();
}

/// Runs the `bao` binary with `args`, feeding `input` on stdin; returns (success, output).
fn bao(args: &[&str], input: &str) -> (bool, String) {
    let out = common::bao_with_input(args, input, None);
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn the_engine_protocol_script_passes() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/engine_test.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_bao"))
        .arg(player_file())
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("engine protocol: all checks passed"),
        "{text}"
    );
}

#[test]
fn the_terminal_game_survives_bad_input_and_saves_the_record() {
    let record = tmp("game.txt");
    let player = player_file().display().to_string();
    let input = "garbage\nA9<\nA1>\nmoves\nhelp\neval\nA6<\nundo\nundo\nA6<\n";
    let (ok, out) = bao(
        &[
            "play",
            "--player",
            &player,
            "--nodes",
            "8",
            "--record",
            record.to_str().unwrap(),
        ],
        input,
    );
    assert!(ok, "{out}");
    // Unparsable text and an illegal move are explained, with the legal moves.
    assert!(out.contains("garbage"), "{out}");
    assert!(out.contains("A9<"), "{out}");
    assert!(out.contains("legal: A6< A6> A7< A7>"), "{out}");
    assert!(out.contains("undone"), "{out}");
    assert!(
        out.contains("nothing to undo") || out.matches("undone").count() == 2,
        "{out}"
    );
    assert!(out.contains("(end of input)"), "{out}");
    let saved = std::fs::read_to_string(&record).unwrap();
    assert!(saved.contains("A6<"), "{saved}");
    assert!(saved.contains("human"), "{saved}");
    // Choosing a side that does not exist is an error, not a panic.
    let (ok, out) = bao(&["play", "--player", &player, "--side", "east"], "");
    assert!(!ok && out.contains("--side"), "{out}");
    // A damaged player file is an error that names it.
    let bad = tmp("bad.bao");
    std::fs::write(&bad, b"BAOZERO-PLAYER\n\x01\x00").unwrap();
    let (ok, out) = bao(&["play", "--player", bad.to_str().unwrap()], "");
    assert!(!ok && out.contains("truncated"), "{out}");
}

#[test]
fn onnx_export_works_for_an_mlp_and_a_resnet() {
    use bao_zero::nn::{NetConfig, NetKind, Trainer};
    let base = Bundle::read(player_file()).unwrap();
    for (i, kind) in [NetKind::Mlp, NetKind::Resnet].into_iter().enumerate() {
        let net = NetConfig {
            kind,
            hidden: vec![32],
            blocks: 1,
            channels: 8,
        };
        let dir = tmp(&format!("onnx-net-{i}"));
        Trainer::new(&net, bao_zero::nn::Compute::Cpu, 0.0, 5)
            .unwrap()
            .save(&dir)
            .unwrap();
        let mut bundle = base.clone();
        bundle.header.net = net;
        bundle.weights = std::fs::read(dir.join("model.bpk")).unwrap();
        let bytes = bao_zero::export::onnx::onnx_bytes(&bundle).unwrap();
        // An ONNX ModelProto starts with its ir_version field (tag 0x08) and names the dynamic
        // batch axis; the numbers themselves are checked by onnxruntime in scripts/onnx_check.sh.
        assert_eq!(bytes[0], 0x08);
        assert!(bytes.windows(5).any(|w| w == b"batch"));
        let s = bao_zero::export::onnx::samples(&bundle, 5, 1).unwrap();
        assert_eq!(s.obs.len(), 5 * 27 * 32);
        assert_eq!(s.policy_logits.len(), 5 * 64);
        assert_eq!(s.value.len(), 5);
        assert!(s.value.iter().all(|v| (-1.0..=1.0).contains(v)));
    }
}

/// A player file's bytes from its parts: format `version`, header text and weights.
pub(crate) fn framed(version: u32, header: &[u8], weights: &[u8]) -> Vec<u8> {
    let mut out = b"BAOZERO-PLAYER\n".to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(header.len() as u64).to_le_bytes());
    out.extend_from_slice(header);
    out.extend_from_slice(&(weights.len() as u64).to_le_bytes());
    out.extend_from_slice(weights);
    let sum = bao_zero::util::hash::fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

fn shipped(name: &str) -> Bundle {
    Bundle::read(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("checkpoints/shipped/{name}.bao")),
    )
    .unwrap()
}

#[test]
fn a_version_3_player_file_round_trips_with_only_the_play_settings() {
    let bundle = shipped("kiswahili");
    let bytes = bundle.to_bytes().unwrap();
    assert_eq!(bytes[15], 3, "this build writes format version 3");
    assert_eq!(Bundle::from_bytes(&bytes).unwrap(), bundle);
    let text = String::from_utf8_lossy(&bytes);
    for selfplay_only in [
        "dirichlet",
        "temperature",
        "gumbel",
        "guard",
        "forced_playouts",
    ] {
        assert!(!text.contains(selfplay_only), "{selfplay_only} is written");
    }
}

#[test]
fn version_1_and_2_player_files_keep_the_search_settings_they_played_with() {
    use bao_zero::mcts::PlaySettings;
    // hus.bao is a version 1 file searching with c_puct 1.5, kiswahili.bao version 2 with 1.0.
    let cases = [("hus", 1, 1.5), ("kiswahili", 2, 1.0)];
    for (name, version, c_puct) in cases {
        let path = format!(
            "{}/checkpoints/shipped/{name}.bao",
            env!("CARGO_MANIFEST_DIR")
        );
        assert_eq!(std::fs::read(&path).unwrap()[15], version, "{name}");
        let expected = PlaySettings {
            c_puct,
            fpu_reduction: 0.2,
            solver: false,
            minimax_weight: 0.0,
        };
        assert_eq!(shipped(name).header.search, expected, "{name}");
    }
}

#[test]
fn a_player_file_of_a_newer_version_is_refused_with_one_line_naming_it() {
    let bundle = shipped("kiswahili");
    let header = serde_json::to_vec(&bundle.header).unwrap();
    let err = format!(
        "{:#}",
        Bundle::from_bytes(&framed(4, &header, &bundle.weights)).unwrap_err()
    );
    assert!(err.contains("version 4") && err.contains("1 to 3"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_header_with_an_unknown_field_is_refused_with_one_line_naming_it() {
    let bundle = shipped("kiswahili");
    let mut header = serde_json::to_value(&bundle.header).unwrap();
    header["search"]["noise"] = serde_json::json!(0.25);
    let header = serde_json::to_vec(&header).unwrap();
    for version in [2, 3] {
        let err = format!(
            "{:#}",
            Bundle::from_bytes(&framed(version, &header, &bundle.weights)).unwrap_err()
        );
        assert!(err.contains("unknown field `noise`"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // A field that only self-play read is dropped from an old header, never from a new one.
    let mut header = serde_json::to_value(&bundle.header).unwrap();
    header["search"]["gumbel"] = serde_json::json!(false);
    let header = serde_json::to_vec(&header).unwrap();
    assert!(Bundle::from_bytes(&framed(2, &header, &bundle.weights)).is_ok());
    let err = format!(
        "{:#}",
        Bundle::from_bytes(&framed(3, &header, &bundle.weights)).unwrap_err()
    );
    assert!(err.contains("unknown field `gumbel`"), "{err}");
}

#[test]
fn export_refuses_settings_no_loader_reads_before_writing_anything() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.bao");
    let out_s = out.to_str().unwrap();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("checkpoints/shipped/kujifunza.bao");
    let shipped = shipped.to_str().unwrap();
    for (flag, value) in [
        ("--sims", "0"),
        ("--sims", "1000001"),
        ("--cpuct", "1e30"),
        ("--cpuct", "0"),
        ("--cpuct", "100.5"),
    ] {
        let args = ["export", "--player", shipped, flag, value, "--out", out_s];
        let o = common::bao_with_input(&args, "", None);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{flag} {value}");
        assert!(
            err.contains(&flag[2..]) && err.contains(value),
            "{flag} {value}: {err}"
        );
        assert!(!out.exists(), "{flag} {value} wrote a file");
    }
    // The bounds themselves are accepted, and the file loads.
    let args = [
        "export", "--player", shipped, "--sims", "1000000", "--cpuct", "100",
    ];
    let o = common::bao_with_input(&[&args[..], &["--out", out_s]].concat(), "", None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(Bundle::read(&out).unwrap().header.sims, 1_000_000);
    // The library refuses to make such a file too, with the loader's own words.
    let mut bundle = Bundle::read(&out).unwrap();
    bundle.header.sims = 0;
    let err = format!("{:#}", bundle.to_bytes().unwrap_err());
    assert!(err.contains("sims must be in 1..=1000000, not 0"), "{err}");
}
