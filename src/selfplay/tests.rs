//! Self-play's unit tests: reproducibility, openings, and the opponents (alpha-beta, a victim).
use super::*;
use crate::mcts::UniformInference;
use crate::rules::{Game, Variant};

/// Eight games of 8 simulations a move on one worker, four at a time.
fn eight_small_games() -> SelfPlayConfig {
    SelfPlayConfig {
        games_per_iteration: 8,
        concurrent_games: 4,
        threads: 1,
        max_plies: 300,
        mcts: SelfPlaySearch {
            sims: 8,
            ..SelfPlaySearch::default()
        },
        ..SelfPlayConfig::default()
    }
}

#[test]
fn self_play_with_a_uniform_inference_is_reproducible_and_scores_every_sample() {
    let rules = Game::from(Variant::Kujifunza);
    let cfg = SelfPlayConfig {
        games_per_iteration: 6,
        concurrent_games: 3,
        threads: 2,
        max_plies: 300,
        mcts: SelfPlaySearch {
            sims: 16,
            ..SelfPlaySearch::default()
        },
        ..SelfPlayConfig::default()
    };
    let seeds: Vec<u64> = (0..6).collect();
    let a = play(&rules, &UniformInference, &cfg, &seeds, &|_| {});
    let b = play(&rules, &UniformInference, &cfg, &seeds, &|_| {});
    assert_eq!(a.games, 6);
    assert_eq!(a.south_wins + a.north_wins + a.draws, 6);
    assert_eq!(a.samples, b.samples);
    assert_eq!(a.samples.len() as u64, a.plies);
    // Outcomes alternate in sign with the mover within a decided game.
    assert!(
        a.samples
            .iter()
            .all(|s| s.len > 0 && (-1..=1).contains(&s.outcome))
    );
}

#[test]
fn random_openings_start_the_asked_share_of_games_off_the_start_position_reproducibly() {
    let rules = Game::from(Variant::Kujifunza);
    let start = Position::start(&rules);
    let base = eight_small_games();
    let seeds: Vec<u64> = (0..8).collect();
    // Every searched position makes a sample (full searches only).
    let samples = |cfg: &SelfPlayConfig| {
        let r = play(&rules, &UniformInference, cfg, &seeds, &|_| {});
        assert_eq!(r.games, 8);
        r.samples
    };
    let plain = samples(&base);
    let starts = plain.iter().filter(|s| s.pos == start).count();
    assert_eq!(starts, 8, "every game searches the start position");
    let random = SelfPlayConfig {
        random_opening_share: 1.0,
        random_opening_plies: 4,
        ..base.clone()
    };
    let (a, b) = (samples(&random), samples(&random));
    assert_eq!(a, b, "same seeds, same games");
    assert_eq!(a.iter().filter(|s| s.pos == start).count(), 0);
    // A share of zero draws nothing from the games' generators: the same games as before.
    let off = SelfPlayConfig {
        random_opening_share: 0.0,
        random_opening_plies: 4,
        ..base.clone()
    };
    assert_eq!(samples(&off), plain);
}

#[test]
fn games_against_alpha_beta_record_only_the_networks_moves_and_count_its_score() {
    let rules = Game::from(Variant::Kujifunza);
    let base = eight_small_games();
    let seeds: Vec<u64> = (0..8).collect();
    let run = |cfg: &SelfPlayConfig| play(&rules, &UniformInference, cfg, &seeds, &|_| {});
    let plain = run(&base);
    assert_eq!(plain.alphabeta_games, 0);
    assert_eq!(plain.alphabeta_score(), None);
    let against = SelfPlayConfig {
        alphabeta: AlphaBetaOpponent {
            share: 1.0,
            nodes: 3_000,
        },
        ..base.clone()
    };
    let (a, b) = (run(&against), run(&against));
    assert_eq!(a.samples, b.samples, "same seeds, same games");
    assert_eq!(a.games, 8);
    assert_eq!(a.alphabeta_games, 8);
    // Alpha-beta's moves are not searched, so about half the plies make a sample.
    assert!(
        a.samples.len() as u64 * 10 < a.plies * 7,
        "{} samples for {} plies",
        a.samples.len(),
        a.plies
    );
    // A search of 8 simulations over uniform priors is no match for 3,000 nodes of alpha-beta.
    let score = a.alphabeta_score().expect("games against alpha-beta");
    assert!(score < 0.25, "the network scored {score}");
    assert_eq!(
        a.south_wins + a.north_wins + a.draws,
        8,
        "every game counted once"
    );
    // A share of zero draws nothing: the games of a config without the table.
    let off = SelfPlayConfig {
        alphabeta: AlphaBetaOpponent {
            share: 0.0,
            nodes: 3_000,
        },
        ..base.clone()
    };
    assert_eq!(run(&off).samples, plain.samples);
}

#[test]
fn a_victim_plays_one_side_of_every_game_the_seat_by_seed_and_makes_no_samples() {
    let rules = Game::from(Variant::Kujifunza);
    let cfg = eight_small_games();
    let greedy: &PlayerFactory =
        &|rules, seed| Ok(Box::new(crate::players::GreedyPlayer::new(rules, seed)));
    let victim = Victim {
        model: false,
        build: greedy,
    };
    let run = |seeds: &[u64]| {
        play_against(
            &rules,
            &UniformInference,
            &cfg,
            Some(&victim),
            seeds,
            &|_| {},
        )
        .expect("greedy builds")
    };
    // Even seeds: the network is South, so every sample is a position with South to move.
    let even: Vec<u64> = (0..8).map(|g| 2 * g).collect();
    let (a, b) = (run(&even), run(&even));
    assert_eq!(a.samples, b.samples, "same seeds, same games");
    assert_eq!((a.games, a.victim_games, a.alphabeta_games), (8, 8, 0));
    assert!(!a.samples.is_empty());
    assert!(
        a.samples
            .iter()
            .all(|s| s.pos.side_to_move() == Side::South)
    );
    let odd: Vec<u64> = even.iter().map(|s| s + 1).collect();
    let c = run(&odd);
    assert_eq!(c.victim_games, 8);
    assert!(
        c.samples
            .iter()
            .all(|s| s.pos.side_to_move() == Side::North)
    );
    assert!(c.victim_score().is_some());
    // A victim that does not build fails the call with its own line.
    let broken: &PlayerFactory = &|_, _| anyhow::bail!("victim spec does not load");
    let err = play_against(
        &rules,
        &UniformInference,
        &cfg,
        Some(&Victim {
            model: false,
            build: broken,
        }),
        &even,
        &|_| {},
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "victim spec does not load");
}

/// A victim that cannot move.
struct Failing(Game);

impl Player for Failing {
    fn name(&self) -> String {
        "failing".into()
    }
    fn game(&self) -> &Game {
        &self.0
    }
    fn choose(&mut self, _: &Position, _: &Limits) -> anyhow::Result<crate::players::Choice> {
        anyhow::bail!("out of time")
    }
}

#[test]
fn a_victim_that_fails_a_move_stops_self_play_with_one_line() {
    let rules = Game::from(Variant::Kujifunza);
    let failing: &PlayerFactory = &|rules, _| Ok(Box::new(Failing(rules.clone())));
    let victim = Victim {
        model: false,
        build: failing,
    };
    let seeds: Vec<u64> = (0..4).collect();
    let err = play_against(
        &rules,
        &UniformInference,
        &eight_small_games(),
        Some(&victim),
        &seeds,
        &|_| {},
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "the victim failing failed: out of time");
}
