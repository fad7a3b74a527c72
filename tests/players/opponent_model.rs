//! An `mcts:` player's opponent model (`model=SPEC`): built for the game asked, refused in one line
//! when it does not load or plays another game.
#![cfg(feature = "ml")]

use bao_zero::rules::Game;

#[test]
fn an_opponent_model_of_another_game_or_that_does_not_load_is_refused_in_one_line() {
    let players = bao_zero::trained::all_players();
    let game = Game::from(bao_zero::rules::Variant::Kujifunza);
    let root = env!("CARGO_MANIFEST_DIR");
    let build = |text: String| match players.resolve(&text, &game, 0) {
        Ok(_) => panic!("`{text}` was built"),
        Err(e) => format!("{e:#}"),
    };
    let other_game = build(format!(
        "mcts:sims=8,model=player:{root}/checkpoints/shipped/hus.bao"
    ));
    assert!(
        other_game.contains("plays hus, not kujifunza"),
        "{other_game}"
    );
    let missing = build("mcts:sims=8,model=player:/nonexistent/x.bao".into());
    assert!(
        missing.contains("model=player:/nonexistent/x.bao"),
        "{missing}"
    );
    for err in [other_game, missing] {
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // The model the exploiter searches with is built for the game asked, and plays there.
    let (_, mut exploiter) = players
        .resolve("mcts:sims=16,model=ab:depth=1", &game, 0)
        .unwrap();
    let start = bao_zero::rules::Position::start(&game);
    let choice = exploiter.choose(&start, &bao_zero::players::Limits::NONE);
    assert!(choice.is_ok(), "{choice:?}");
}
