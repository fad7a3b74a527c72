//! One place validates a config: every number of a training config and of a player file's header
//! has a range, checked at load, and a value outside it is refused with one line naming the key,
//! never a panic, an abort on allocation or a hang later.

use crate::common;

use bao_zero::player_file::Bundle;
use bao_zero::train::TrainConfig;
use std::path::{Path, PathBuf};

const SMOKE: &str = common::SMOKE;

/// The smoke config with the keys `sets` (dotted paths, TOML values) replaced.
fn smoke_with(sets: &[(&str, &str)]) -> String {
    let mut table: toml::Table = SMOKE.parse().unwrap();
    for (path, value) in sets {
        let value: toml::Value =
            format!("v = {value}").parse::<toml::Table>().unwrap()["v"].clone();
        let mut keys: Vec<&str> = path.split('.').collect();
        let last = keys.pop().unwrap();
        let mut at = &mut table;
        for key in keys {
            at = at
                .entry(key)
                .or_insert_with(|| toml::Value::Table(toml::Table::new()))
                .as_table_mut()
                .unwrap();
        }
        at.insert(last.to_string(), value);
    }
    table.to_string()
}

/// The one-line error of loading the smoke config with `sets`.
fn refusal(sets: &[(&str, &str)]) -> String {
    let text = smoke_with(sets);
    let err = match TrainConfig::from_toml(&text) {
        Ok(_) => panic!("{sets:?} was accepted"),
        Err(e) => format!("{e:#}"),
    };
    assert!(!err.contains('\n'), "{sets:?}: not one line: {err}");
    err
}

#[test]
fn degenerate_or_huge_network_shapes_in_a_training_config_are_refused_at_load() {
    let resnet = ("net.kind", "\"resnet\"");
    for (sets, key) in [
        (vec![("net.hidden", "[0]")], "net.hidden[0]"),
        (vec![("net.hidden", "[64, 0]")], "net.hidden[1]"),
        (vec![("net.hidden", "[100000000]")], "net.hidden[0]"),
        (vec![("net.hidden", "[]")], "net.hidden"),
        (vec![resnet, ("net.blocks", "0")], "net.blocks"),
        (vec![resnet, ("net.channels", "0")], "net.channels"),
        (vec![resnet, ("net.channels", "100000000")], "net.channels"),
        (vec![resnet, ("net.blocks", "4294967296")], "net.blocks"),
    ] {
        let err = refusal(&sets);
        assert!(err.contains(key), "{sets:?}: {err}");
    }
    // The other kind's fields are not read: a resnet's `hidden` does not matter.
    TrainConfig::from_toml(&smoke_with(&[resnet, ("net.hidden", "[0]")])).unwrap();
}

#[test]
fn huge_counts_in_a_training_config_are_refused_at_load_with_the_key_and_its_range() {
    for (key, value) in [
        ("selfplay.games_per_iteration", "4294967296"),
        ("selfplay.concurrent_games", "4294967296"),
        ("selfplay.threads", "4294967296"),
        ("selfplay.max_plies", "4294967295"),
        ("selfplay.mcts.sims", "4294967295"),
        ("selfplay.mcts.fast_sims", "4294967295"),
        ("selfplay.alphabeta.nodes", "9223372036854775807"),
        ("optim.batch_size", "4294967296"),
        ("optim.batch_size", "9223372036854775807"),
        ("optim.replay_window", "4294967296"),
        ("optim.steps_per_iteration", "4294967296"),
        ("eval.games", "4294967296"),
        ("eval.games", "9223372036854775807"),
        ("eval.sims", "4294967295"),
        ("eval.opening_plies", "100000"),
        ("iterations", "4294967295"),
    ] {
        let err = refusal(&[(key, value)]);
        assert!(err.contains(key) && err.contains("must be in"), "{err}");
        assert!(err.contains(value), "the value is named: {err}");
    }
}

#[test]
fn an_integer_beyond_the_toml_range_is_refused_in_one_line() {
    // TOML integers are 64-bit signed: 18446744073709551615 does not even parse.
    let text = SMOKE.replace("batch_size = 64", "batch_size = 18446744073709551615");
    let err = format!("{:#}", TrainConfig::from_toml(&text).unwrap_err());
    assert!(!err.contains('\n') && !err.contains("capacity"), "{err}");
    let text = SMOKE.replace("games = 4", "games = 18446744073709551615");
    let err = format!("{:#}", TrainConfig::from_toml(&text).unwrap_err());
    assert!(!err.contains('\n'), "{err}");
    assert!(!err.contains("at least one game"), "not misleading: {err}");
}

#[test]
fn nan_infinite_and_negative_search_and_optimiser_values_are_refused_at_load() {
    for (key, value) in [
        ("selfplay.mcts.dirichlet_alpha", "nan"),
        ("selfplay.mcts.dirichlet_alpha", "inf"),
        ("selfplay.mcts.dirichlet_alpha", "-0.3"),
        ("selfplay.mcts.dirichlet_epsilon", "nan"),
        ("selfplay.mcts.dirichlet_epsilon", "1.5"),
        ("selfplay.mcts.c_puct", "-1.0"),
        ("selfplay.mcts.c_puct", "0.0"),
        ("selfplay.mcts.c_puct", "nan"),
        ("selfplay.mcts.c_puct", "inf"),
        ("selfplay.mcts.fpu_reduction", "-0.5"),
        ("selfplay.mcts.fpu_reduction", "nan"),
        ("selfplay.mcts.minimax_weight", "-inf"),
        ("selfplay.mcts.temperature", "nan"),
        ("selfplay.mcts.temperature", "-1.0"),
        ("selfplay.mcts.forced_playouts", "-2.0"),
        ("selfplay.mcts.full_search_prob", "0.0"),
        ("selfplay.mcts.full_search_prob", "-0.25"),
        ("selfplay.mcts.full_search_prob", "nan"),
        ("selfplay.random_opening_share", "nan"),
        ("selfplay.alphabeta.share", "inf"),
        ("optim.learning_rate", "-1.0"),
        ("optim.learning_rate", "0.0"),
        ("optim.learning_rate", "nan"),
        ("optim.learning_rate", "inf"),
        ("optim.final_lr_fraction", "-0.1"),
        ("optim.weight_decay", "nan"),
        ("optim.value_q_weight", "nan"),
    ] {
        let err = refusal(&[(key, value)]);
        // The search's table names its key and itself (`dirichlet_alpha ... in selfplay.mcts`).
        let (table, name) = key.rsplit_once('.').unwrap();
        assert!(
            err.contains(key) || (err.contains(name) && err.contains(table)),
            "{key} = {value}: {err}"
        );
    }
}

#[test]
fn zero_counts_that_no_run_can_use_are_refused_at_load() {
    for key in [
        "iterations",
        "selfplay.games_per_iteration",
        "selfplay.concurrent_games",
        "selfplay.threads",
        "selfplay.max_plies",
        "selfplay.mcts.sims",
        "selfplay.mcts.fast_sims",
        "selfplay.alphabeta.nodes",
        "optim.batch_size",
        "optim.replay_window",
        "eval.sims",
    ] {
        let err = refusal(&[(key, "0")]);
        assert!(err.contains(key), "{key}: {err}");
    }
}

#[test]
fn eval_games_of_zero_is_refused_instead_of_silently_playing_two() {
    let err = refusal(&[("eval.games", "0")]);
    assert!(err.contains("eval.games must be in 1..="), "{err}");
}

#[test]
fn a_min_replay_the_replay_window_can_never_hold_is_refused() {
    let err = refusal(&[
        ("optim.replay_window", "1000"),
        ("optim.min_replay", "1001"),
    ]);
    assert!(
        err.contains("optim.min_replay") && err.contains("1000"),
        "{err}"
    );
    TrainConfig::from_toml(&smoke_with(&[
        ("optim.replay_window", "1000"),
        ("optim.min_replay", "1000"),
    ]))
    .unwrap();
}

#[test]
fn evaluation_opponents_that_do_not_exist_are_refused_at_load() {
    for (opponents, named) in [
        (r#"["random", "nonsense:x"]"#, "nonsense"),
        (r#"["ab:depth=2", "nonsense"]"#, "nonsense"),
        (r#"["ab:depth=99"]"#, "depth"),
        (r#"["ab:tt=30"]"#, "tt"),
        (r#"["random:x"]"#, "random"),
        (r#"["player:"]"#, "player"),
        (r#"["*"]"#, "*"),
    ] {
        let err = refusal(&[("eval.opponents", opponents)]);
        assert!(
            err.contains("eval.opponents") && err.contains(named),
            "{opponents}: {err}"
        );
    }
    // Every kind a run can build is accepted, network players included.
    let all = r#"["random", "greedy", "ab:depth=2,tt=16", "mcts:sims=8", "player:x.bao",
                  "engine:bao"]"#;
    TrainConfig::from_toml(&smoke_with(&[("eval.opponents", all)])).unwrap();
}

/// The shipped configs and their experiments, all of which must still load.
fn shipped_configs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    for dir in ["configs", "configs/experiments", "tests/fixtures/configs"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            if entry.path().extension().is_some_and(|e| e == "toml") {
                paths.push(entry.path());
            }
        }
    }
    assert!(paths.len() >= 15, "{paths:?}");
    paths
}

#[test]
fn every_shipped_config_is_within_the_ranges() {
    for path in shipped_configs() {
        TrainConfig::load(&path).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
    }
}

#[test]
fn a_toml_syntax_error_in_a_config_file_is_one_line_on_every_path() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "seed = 1\n[net\nkind = \"mlp\"\n").unwrap();
    let err = format!("{:#}", TrainConfig::load(&bad).unwrap_err());
    assert!(!err.contains('\n') && err.contains("bad.toml"), "{err}");
    // The same through an `extends` chain, and from text.
    let child = dir.path().join("child.toml");
    std::fs::write(&child, "extends = \"bad.toml\"\nseed = 2\n").unwrap();
    let err = format!("{:#}", TrainConfig::load(&child).unwrap_err());
    assert!(!err.contains('\n') && err.contains("bad.toml"), "{err}");
    let err = format!(
        "{:#}",
        TrainConfig::from_toml("seed = 1\n[net\n").unwrap_err()
    );
    assert!(!err.contains('\n'), "{err}");
    // And as `bao train --config` prints it.
    let out = common::bao_with_input(&["train", "--config", bad.to_str().unwrap()], "", None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
}

#[test]
fn bao_train_refuses_a_config_with_huge_threads_in_one_line_before_starting() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let config = dir.path().join("threads.toml");
    let text = smoke_with(&[
        ("selfplay.threads", "4294967296"),
        ("run_dir", &format!("{:?}", run.to_str().unwrap())),
    ]);
    std::fs::write(&config, text).unwrap();
    let out = common::bao_with_input(&["train", "--config", config.to_str().unwrap()], "", None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("selfplay.threads must be in 1..=1024"),
        "{stderr}"
    );
    assert!(!run.exists(), "nothing was started");
}

/// A shipped player with its header changed by `edit` (the JSON header), written back with a
/// correct checksum.
fn edited_player(edit: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bundle = Bundle::read(&root.join("checkpoints/shipped/kiswahili.bao")).unwrap();
    let bytes = bundle.to_bytes().unwrap();
    let magic = b"BAOZERO-PLAYER\n".len();
    let hlen_at = magic + 4;
    let hlen = u64::from_le_bytes(bytes[hlen_at..hlen_at + 8].try_into().unwrap()) as usize;
    let header_at = hlen_at + 8;
    let mut header: serde_json::Value =
        serde_json::from_slice(&bytes[header_at..header_at + hlen]).unwrap();
    edit(&mut header);
    let header = serde_json::to_vec(&header).unwrap();
    let mut out = bytes[..hlen_at].to_vec();
    out.extend_from_slice(&(header.len() as u64).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(&bytes[header_at + hlen..bytes.len() - 8]);
    let sum = bao_zero::util::hash::fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The header edits a player file must be refused for, and a word of the refusal.
fn bad_headers() -> Vec<(&'static str, serde_json::Value, &'static str)> {
    use serde_json::json;
    vec![
        ("/net/hidden", json!([0]), "net.hidden[0]"),
        ("/net/hidden", json!([100000000]), "net.hidden[0]"),
        ("/net/kind", json!("resnet"), ""),
        ("/variant", json!("nonsense"), "nonsense"),
        ("/sims", json!(0), "sims"),
        ("/sims", json!(4294967295u32), "sims"),
        ("/search/c_puct", json!(-1.0), "search.c_puct"),
        ("/search/fpu_reduction", json!(-3.0), "search.fpu_reduction"),
    ]
}

/// Sets `pointer` of `header` to `value`; a resnet gets 0 blocks.
fn set(header: &mut serde_json::Value, pointer: &str, value: &serde_json::Value) {
    *header.pointer_mut(pointer).unwrap() = value.clone();
    if value == "resnet" {
        header["net"]["blocks"] = 0.into();
    }
}

#[test]
fn a_player_file_whose_header_is_degenerate_is_refused_when_read_with_one_line() {
    // The edit itself keeps a file readable: an unchanged header reads back.
    Bundle::from_bytes(&edited_player(|_| {})).unwrap();
    for (pointer, value, named) in bad_headers() {
        let bytes = edited_player(|h| set(h, pointer, &value));
        let err = format!("{:#}", Bundle::from_bytes(&bytes).unwrap_err());
        let named = if named.is_empty() {
            "net.blocks"
        } else {
            named
        };
        assert!(err.contains(named), "{pointer} = {value}: {err}");
        assert!(!err.contains('\n'), "{err}");
    }
}

#[test]
fn the_engine_and_export_refuse_a_degenerate_player_file_instead_of_panicking() {
    let dir = tempfile::tempdir().unwrap();
    for (k, (pointer, value, _)) in bad_headers().into_iter().enumerate() {
        let path = dir.path().join(format!("bad{k}.bao"));
        std::fs::write(&path, edited_player(|h| set(h, pointer, &value))).unwrap();
        let spec = format!("player:{}", path.display());
        let input = format!("player {spec}\nplayer random\ngo\nquit\n");
        let out = common::bao_with_input(&["engine"], &input, None);
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert!(out.status.success(), "{pointer}: {text}");
        assert!(
            lines.len() == 4 && lines[1].starts_with("error ") && lines[3].starts_with("bestmove"),
            "{pointer} = {value}: the engine answers and goes on: {text}"
        );
        let never = dir.path().join("never.bao");
        let args = ["export", "--player", path.to_str().unwrap(), "--out"];
        let out =
            common::bao_with_input(&[&args[..], &[never.to_str().unwrap()]].concat(), "", None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!never.exists());
    }
}

#[test]
fn a_configs_variant_may_be_a_games_text_and_its_rules_override_that_game() {
    let config = TrainConfig::from_toml(&smoke_with(&[(
        "variant",
        "\"kujifunza+takasia=valid-house-only\"",
    )]))
    .unwrap();
    let game = config.game().unwrap();
    assert_eq!(game.to_string(), "kujifunza+takasia=valid-house-only");
    let config = TrainConfig::from_toml(&smoke_with(&[
        ("variant", "\"kujifunza+takasia=valid-house-only\""),
        ("rules.max_sown", "5000"),
    ]))
    .unwrap();
    let game = config.game().unwrap();
    assert_eq!(
        game.to_string(),
        "kujifunza+max_sown=5000+takasia=valid-house-only"
    );
    // An unknown preset in the text is refused as before, naming the presets.
    let err = refusal(&[("variant", "\"chess+takasia=none\"")]);
    assert!(err.contains("unknown variant `chess`"), "{err}");
}
