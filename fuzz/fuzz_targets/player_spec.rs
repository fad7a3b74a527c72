//! Arbitrary text into the player-spec readers: the spec parser (a spec that parses prints as
//! text that parses back to it), the solver's options, counts and durations, and the registry's
//! resolve, nested specs (`else=`, `player=`) included: nothing panics or overflows the stack,
//! and every error of a one-line spec is one line.
#![no_main]

use bao_zero::players::{PlayerRegistry, PlayerSpec, RandomPlayer, SolverSpec};
use libfuzzer_sys::fuzz_target;

/// The classical kinds, with builders that allocate nothing and start no program: `ab` and
/// `solver` read their options as the real ones do (the solver resolves its `else=` player
/// through the registry, as the real one does), then play at random.
fn registry() -> PlayerRegistry {
    let mut players = PlayerRegistry::classical();
    players.register("engine", |_, _, _| {
        anyhow::bail!("no engine: players while fuzzing")
    });
    players.register("ab", |_, spec, seed| match spec {
        PlayerSpec::AlphaBeta(_) => Ok(Box::new(RandomPlayer::new(seed))),
        other => anyhow::bail!("`{other}` is not an alpha-beta spec"),
    });
    players.register("solver", |registry, spec, seed| {
        if let PlayerSpec::Solver(SolverSpec {
            fallback: Some(inner),
            ..
        }) = spec
        {
            registry.build(inner, seed)?;
        }
        Ok(Box::new(RandomPlayer::new(seed)))
    });
    players
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let one_line = !text.contains(['\n', '\r']);
    match text.parse::<PlayerSpec>() {
        Ok(spec) => {
            let again: PlayerSpec = spec.to_string().parse().expect("a printed spec parses");
            assert_eq!(again, spec);
        }
        Err(e) => assert!(!one_line || !e.to_string().contains('\n'), "{e}"),
    }
    let _ = SolverSpec::parse(text);
    let _ = bao_zero::players::spec::parse_count(text);
    let _ = bao_zero::players::spec::parse_duration(text);
    if let Err(e) = registry().resolve(text, 0) {
        let shown = format!("{e:#}");
        assert!(!one_line || !shown.contains('\n'), "{shown}");
    }
});
