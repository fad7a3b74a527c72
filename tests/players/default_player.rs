//! The perfect player behind another (`solver:...,else=SPEC`), the default player of a solved
//! game (the solver first, the shipped player where it proves nothing in time), and the solver
//! cache's memory of the positions it gave up on.

use crate::small_solver;
use bao_zero::eval::perfect::prove;
use bao_zero::players::{Limits, PlayerRegistry};
use bao_zero::rules::{Game, Position, Variant};
use bao_zero::search::solver::cache;
use small_solver::solver;
use std::time::Duration;

#[test]
fn the_solver_hands_a_position_it_cannot_prove_to_its_else_player() {
    let registry = PlayerRegistry::classical();
    let rules = Game::from(Variant::Kiswahili);
    let start = Position::start(&rules);
    // Bao la Kiswahili's start is far beyond 10 ms of proof search: alpha-beta answers.
    let (_, mut behind) = registry
        .resolve("solver:time=10ms,else=ab:depth=2", &rules, 0)
        .unwrap();
    let (_, mut alone) = registry.resolve("ab:depth=2", &rules, 0).unwrap();
    let a = behind.choose(&start, &Limits::NONE).unwrap();
    let b = alone.choose(&start, &Limits::NONE).unwrap();
    assert_eq!((a.mv, a.eval, a.depth), (b.mv, b.eval, b.depth));
    assert_eq!(behind.candidates().len(), alone.candidates().len());
    // A spec may hold commas, so `else=` takes the rest of the options.
    let (_, mut nested) = registry
        .resolve(
            "solver:time=10ms,else=solver:time=10ms,else=ab:depth=2,nodes=1m",
            &rules,
            0,
        )
        .unwrap();
    assert_eq!(nested.choose(&start, &Limits::NONE).unwrap().mv, b.mv);
    for (spec, says) in [
        ("solver:else=", "needs a player spec"),
        ("solver:time=1s,else= ", "needs a player spec"),
        ("solver:else=nonsense:x", "unknown player kind `nonsense`"),
        ("solver:else=ab:depth=x", "depth"),
    ] {
        let err = format!("{:#}", registry.resolve(spec, &rules, 0).err().unwrap());
        assert!(err.contains(says) && !err.contains('\n'), "{spec}: {err}");
    }
}

/// Won positions of self-play games in which some move gives the win away, each proven in
/// milliseconds (so well within the default player's second on a loaded machine), by game.
const CRITICAL_WINS: [(Variant, &[&str]); 2] = [
    (
        Variant::Kujifunza,
        &[
            "0,1,2,1,5,1,0,0/1,3,1,4,11,2,1,1/0,4,0,1,2,0,0,4/4,2,2,0,1,4,6,0 S 0,0 - - - 22 mtaji-captured=1",
            "3,0,3,3,0,3,1,0/0,1,0,10,3,7,1,1/0,1,0,0,1,0,6,4/3,3,0,3,3,0,0,4 S 0,0 - - - 8 mtaji-captured=1",
            "2,1,0,1,4,1,0,2/0,12,3,12,1,7,3,1/1,1,0,1,0,0,1,0/0,2,2,2,2,2,0,0 N 0,0 - - - 17 mtaji-captured=1",
        ],
    ),
    (
        Variant::MalawiBasic,
        &[
            "1,3,0,3,3,0,3,1/5,4,0,0,0,2,10,0/1,0,2,4,4,2,2,1/1,1,0,4,1,1,5,0 N 0,0 - - - 17 mtaji-captured=1",
            "2,0,3,0,0,1,2,0/0,0,0,0,1,0,1,1/0,1,1,8,5,5,4,0/12,0,3,2,3,2,6,1 S 0,0 - - - 76 mtaji-captured=1",
            "3,3,0,3,3,0,1,2/1,1,4,2,6,7,1,1/6,0,2,1,0,1,0,0/2,2,2,2,2,2,2,2 S 0,0 - - - 4 mtaji-captured=1",
            "0,1,0,0,2,2,2,2/3,0,4,2,2,1,1,0/1,1,1,0,12,8,0,1/2,2,3,3,3,3,1,1 S 0,0 - - - 16 mtaji-captured=1",
            "0,1,3,3,0,3,3,0/7,1,12,4,3,0,0,1/0,0,1,1,1,3,0,3/1,4,1,4,0,1,0,3 N 0,0 - - - 13 mtaji-captured=1",
        ],
    ),
];

fn read(game: Variant, text: &str) -> Position {
    Position::from_text(text, &game.rules()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn a_position_the_solver_gave_up_on_is_not_tried_again_with_no_more_time() {
    let dir = tempfile::tempdir().unwrap();
    let (game, text) = (CRITICAL_WINS[0].0, CRITICAL_WINS[0].1[0]);
    let (rules, pos) = (game.rules(), read(game, text));
    let mut s = solver();
    cache::store_gave_up(dir.path(), &rules, &pos, 5.0).unwrap();
    assert_eq!(cache::gave_up(dir.path(), &rules, &pos), Some(5.0));
    // A record of failing with more time stands for the proof: no try.
    let second = Duration::from_secs(1);
    assert!(
        prove(&rules, &pos, &mut s, second, Some(dir.path()))
            .unwrap()
            .is_none()
    );
    // A smaller one does not overwrite it.
    cache::store_gave_up(dir.path(), &rules, &pos, 2.0).unwrap();
    assert_eq!(cache::gave_up(dir.path(), &rules, &pos), Some(5.0));
    // Given more time than that, the solver tries, proves it, and caches the proof.
    let more = Duration::from_secs(6);
    assert!(
        prove(&rules, &pos, &mut s, more, Some(dir.path()))
            .unwrap()
            .is_some()
    );
    assert!(cache::load(dir.path(), &rules, &pos).unwrap().is_some());
    // A give-up is recorded with its time; a damaged record counts as none.
    let start = Position::start(&rules);
    let tiny = Duration::from_micros(1);
    assert!(
        prove(&rules, &start, &mut s, tiny, Some(dir.path()))
            .unwrap()
            .is_none()
    );
    assert_eq!(cache::gave_up(dir.path(), &rules, &start), Some(1e-6));
    std::fs::write(cache::gave_up_path(dir.path(), &rules, &start), "junk").unwrap();
    assert_eq!(cache::gave_up(dir.path(), &rules, &start), None);
}

#[cfg(feature = "ml")]
#[test]
fn the_default_player_of_a_solved_game_plays_the_shortest_win_and_the_shipped_move_elsewhere() {
    use bao_zero::player_file::{default_player_spec, shipped_player};
    use bao_zero::search::solver::Value;
    let registry = bao_zero::trained::all_players();
    for (game, wins) in CRITICAL_WINS {
        let spec = default_player_spec(game, true).to_string();
        let shipped = format!("player:{}", shipped_player(game.name()).unwrap().display());
        assert_eq!(spec, format!("solver:time=1s,else={shipped}"));
        let rules = Game::from(game);
        let (_, mut player) = registry
            .resolve(&spec, &Variant::Kiswahili.into(), 0)
            .unwrap();
        assert!(player.is_bound() && *player.game() == rules);
        for text in wins {
            let pos = read(game, text);
            let p = prove(&rules, &pos, &mut solver(), Duration::from_secs(20), None)
                .unwrap()
                .unwrap();
            assert!(p.value == Value::Win && p.is_critical(), "{text}");
            let shortest = p
                .moves
                .iter()
                .filter(|m| m.value == Value::Win)
                .map(|m| m.length);
            let choice = player.choose(&pos, &Limits::nodes(50)).unwrap();
            assert_eq!(p.value_of(choice.mv), Some(Value::Win), "{text}");
            assert_eq!(Some(choice.depth), shortest.min(), "{text}");
            assert_eq!(choice.eval, Some(1.0), "{text}");
        }
        // No second proves the start: the shipped player moves, within the caller's limits.
        let start = Position::start(&rules);
        let (_, mut alone) = registry.resolve(&shipped, &rules, 0).unwrap();
        let limits = Limits::nodes(50);
        let own = alone.choose(&start, &limits).unwrap();
        let fallback = player.choose(&start, &limits).unwrap();
        assert_eq!((fallback.mv, fallback.eval), (own.mv, own.eval), "{game:?}");
    }
    // Bao la Kiswahili is not solved: its default player is the shipped one alone.
    let spec = default_player_spec(Variant::Kiswahili, true).to_string();
    assert!(
        spec.starts_with("player:") && spec.ends_with("kiswahili.bao"),
        "{spec}"
    );
    assert_eq!(
        default_player_spec(Variant::Hus, false).to_string(),
        "solver:time=1s,else=ab"
    );
}

/// Match headers print each player's own budget a move: a player file's simulations, and the
/// solver's time before its else-player's.
#[cfg(feature = "ml")]
#[test]
fn the_shipped_players_and_their_solver_say_their_budget_a_move() {
    use bao_zero::player_file::{default_player_spec, shipped_player};
    let registry = bao_zero::trained::all_players();
    let game = Variant::Kujifunza;
    let shipped = format!("player:{}", shipped_player(game.name()).unwrap().display());
    let (_, player) = registry.resolve(&shipped, &game.into(), 0).unwrap();
    assert_eq!(player.default_budget(), "200 simulations");
    let (_, mcts) = registry.resolve("mcts:sims=64", &game.into(), 0).unwrap();
    assert_eq!(mcts.default_budget(), "64 simulations");
    for (solved, _) in CRITICAL_WINS {
        let solver = registry
            .build(&default_player_spec(solved, true), &solved.into(), 0)
            .unwrap();
        assert_eq!(
            solver.default_budget(),
            "solve 1000ms, else 200 simulations"
        );
    }
}
