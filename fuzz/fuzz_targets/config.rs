//! Arbitrary text as a training config (TOML), and the smoke config with any one number replaced
//! by an arbitrary one (zero, huge, negative, NaN, infinite, beyond 64 bits): it is read, checked
//! and its rules built, or refused with a one-line error; nothing panics or aborts.
#![no_main]

use bao_zero::train::TrainConfig;
use libfuzzer_sys::fuzz_target;

/// Every number of a training config, by its dotted key.
const NUMBERS: [&str; 35] = [
    "seed",
    "iterations",
    "keep_iterations",
    "net.hidden.0",
    "net.blocks",
    "net.channels",
    "selfplay.games_per_iteration",
    "selfplay.concurrent_games",
    "selfplay.threads",
    "selfplay.max_plies",
    "selfplay.random_opening_share",
    "selfplay.random_opening_plies",
    "selfplay.alphabeta.share",
    "selfplay.alphabeta.nodes",
    "selfplay.mcts.sims",
    "selfplay.mcts.c_puct",
    "selfplay.mcts.dirichlet_alpha",
    "selfplay.mcts.dirichlet_epsilon",
    "selfplay.mcts.fpu_reduction",
    "selfplay.mcts.temperature_plies",
    "selfplay.mcts.temperature",
    "selfplay.mcts.full_search_prob",
    "selfplay.mcts.fast_sims",
    "selfplay.mcts.minimax_weight",
    "selfplay.mcts.forced_playouts",
    "optim.batch_size",
    "optim.steps_per_iteration",
    "optim.learning_rate",
    "optim.final_lr_fraction",
    "optim.warmup_iterations",
    "optim.weight_decay",
    "optim.replay_window",
    "optim.min_replay",
    "eval.games",
    "eval.sims",
];

/// Marks where the number goes in the printed config.
const MARK: &str = "@@number@@";

fuzz_target!(|data: &[u8]| {
    match data.split_first() {
        // A leading 0xFF: one number of the smoke config replaced.
        Some((0xFF, rest)) if rest.len() >= 10 => check(&with_number(rest)),
        _ => {
            if let Ok(text) = std::str::from_utf8(data) {
                check(text);
            }
        }
    }
});

/// Reads `text` as a config: refused in one line, or accepted as a config that prints and reads
/// back the same and is within every range.
fn check(text: &str) {
    match TrainConfig::from_toml(text) {
        Err(e) => {
            let line = format!("{e:#}");
            assert!(!line.contains('\n'), "a refusal is one line: {line}");
        }
        Ok(config) => {
            config.validate().expect("an accepted config is valid");
            config.game().expect("an accepted config has a game");
            let printed = toml::to_string(&config).expect("a valid config prints");
            let again = TrainConfig::from_toml(&printed).expect("a printed config reads back");
            assert_eq!(again, config);
            let _ = config.learning_rate(config.iterations.saturating_sub(1));
        }
    }
}

/// The smoke config with the number `bytes[0]` picks (of [`NUMBERS`]) written as `bytes[1]`
/// and the eight bytes after it make it.
fn with_number(bytes: &[u8]) -> String {
    let mut table: toml::Table = include_str!("../../configs/smoke.toml").parse().unwrap();
    let key = NUMBERS[bytes[0] as usize % NUMBERS.len()];
    let raw = u64::from_le_bytes(bytes[2..10].try_into().unwrap());
    let number = match bytes[1] % 8 {
        0 => raw.to_string(),
        1 => (raw as i64).to_string(),
        2 => (raw % 1024).to_string(),
        3 => format!("{raw}000"),
        4 => [
            "nan", "inf", "-inf", "-0.0", "0.0", "1e308", "-1e-308", "1.0",
        ][raw as usize % 8]
            .to_string(),
        _ => {
            let x = f64::from_bits(raw);
            if x.is_finite() {
                format!("{x:e}")
            } else {
                "nan".to_string()
            }
        }
    };
    // `net.hidden.0` is the first width of the `hidden` list.
    let mut path: Vec<&str> = key.trim_end_matches(".0").split('.').collect();
    let last = path.pop().unwrap();
    let mut at = &mut table;
    for part in path {
        at = at
            .entry(part)
            .or_insert_with(|| toml::Value::Table(toml::Table::new()))
            .as_table_mut()
            .unwrap();
    }
    if bytes[1] & 0x80 != 0 && key.starts_with("net.") {
        at.insert("kind".into(), toml::Value::String("resnet".into()));
    }
    if key.ends_with(".0") {
        at.insert(last.into(), toml::Value::Array(vec![MARK.into()]));
    } else {
        at.insert(last.into(), toml::Value::String(MARK.into()));
    }
    table.to_string().replace(&format!("\"{MARK}\""), &number)
}
