//! Arbitrary lines into `bao engine` (one command per line) and arbitrary player specs: every
//! reply is one line or a clean error, and nothing panics.
#![no_main]

use bao_zero::cli::engine::{Engine, go_limits};
use bao_zero::players::{PlayerRegistry, PlayerSpec};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Player specs: a spec that parses prints as text that parses back to it.
    if let Ok(spec) = text.parse::<PlayerSpec>() {
        let again: PlayerSpec = spec.to_string().parse().expect("a printed spec parses");
        assert_eq!(again, spec);
    }
    let _ = bao_zero::players::spec::parse_count(text);
    // The engine, with the classical players but no `engine:` kind: a fuzzer must not start
    // programs.
    let mut players = PlayerRegistry::classical();
    players.register("engine", |_, _, _| {
        anyhow::bail!("no engine: players while fuzzing")
    });
    // A player with nothing to allocate: most inputs never search.
    let Ok(mut engine) = Engine::new("random", &players) else {
        return;
    };
    for line in text.lines().take(32) {
        let words: Vec<&str> = line.split_whitespace().collect();
        // `go` searches (a fuzzed `player` could search without limits): its grammar only.
        if words.first() == Some(&"go") {
            let _ = go_limits(&words[1..]);
            continue;
        }
        match engine.command(line) {
            Ok(None) => break,
            Ok(Some(reply)) => {
                if words.first() != Some(&"show") {
                    assert!(!reply.contains('\n'), "a reply of several lines: {reply:?}");
                }
            }
            Err(e) => {
                let _ = format!("{e:#}");
            }
        }
    }
});
