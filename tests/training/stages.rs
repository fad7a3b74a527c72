//! The stages' doors: self-play, training and evaluation take a network (shared, or from bytes) and plain
//! settings, so that an iteration's work can be split over callers and give the same results.
#![cfg(feature = "ml")]

use crate::common;
use bao_zero::nn::TrainSteps;
use bao_zero::nn::{Compute, NetWeights, Trainer};
use bao_zero::players::PlayerRegistry;
use bao_zero::rules::Game;
use bao_zero::selfplay::{
    GameRange, ReplayBuffer, SelfPlayOutput, SelfPlayPart, merge_parts, play_games,
};
use bao_zero::train::{EvalSettings, TrainConfig, evaluate, selfplay_games};

fn smoke() -> TrainConfig {
    toml::from_str(common::SMOKE).unwrap()
}

/// The seeded initial network of the smoke config.
fn weights(config: &TrainConfig) -> NetWeights {
    Trainer::new(&config.net.shape, Compute::Cpu, 0.0, 11)
        .unwrap()
        .weights(0)
        .unwrap()
}

fn play(config: &TrainConfig, rules: &Game, range: GameRange) -> SelfPlayOutput {
    play_games(rules, &weights(config), &config.selfplay, range, &|_| {}).unwrap()
}

#[test]
fn an_iterations_games_split_over_callers_are_the_games_of_one_call_in_game_order() {
    let mut config = smoke();
    let rules = config.game().unwrap();
    config.selfplay.games_per_iteration = 6;
    config.selfplay.threads = 1;
    config.selfplay.concurrent_games = 1;
    let whole = play(&config, &rules, selfplay_games(&config, 3, 0, 6));
    assert_eq!(whole.games.games, 6);
    // Samples come in game order whatever the threads, the games in flight, or the split:
    // the parts concatenate to the whole, byte for byte.
    for (threads, concurrent, split) in [
        (1, 1, vec![(0, 2), (2, 1), (3, 3)]),
        (2, 3, vec![(0, 4), (4, 2)]),
        (1, 4, vec![(0, 1), (1, 5)]),
    ] {
        config.selfplay.threads = threads;
        config.selfplay.concurrent_games = concurrent;
        let mut parts = Vec::new();
        for (first, count) in split {
            parts.extend(
                play(&config, &rules, selfplay_games(&config, 3, first, count))
                    .games
                    .samples,
            );
        }
        assert_eq!(
            parts, whole.games.samples,
            "{threads} threads, {concurrent} games in flight"
        );
    }
    // The output is the replay format.
    let back = ReplayBuffer::from_bytes(&whole.replay_bytes()).unwrap();
    assert!(back.iter().eq(whole.games.samples.iter()));
    // Another iteration plays other games.
    let other = play(&config, &rules, selfplay_games(&config, 4, 0, 6));
    assert_ne!(other.games.samples, whole.games.samples);
}

#[test]
fn parts_travel_as_bytes_and_merge_only_when_they_cover_each_game_once() {
    let config = smoke();
    let rules = config.game().unwrap();
    let w = weights(&config);
    let part = |first, count| {
        let range = selfplay_games(&config, 2, first, count);
        let p = SelfPlayPart::play(&rules, &w, &config.selfplay, range, &|_| {}).unwrap();
        let back = SelfPlayPart::from_bytes(&p.to_bytes()).unwrap();
        assert_eq!(back, p, "a part survives its bytes");
        back
    };
    let whole = selfplay_games(&config, 2, 0, 5);
    let (a, b, c) = (part(0, 2), part(2, 1), part(3, 2));
    let one_call = play(&config, &rules, whole);
    // In any order, the parts make the games of one call.
    let merged = merge_parts(whole, vec![c.clone(), a.clone(), b.clone()], 1.5).unwrap();
    assert_eq!(merged.games, one_call.games);
    assert_eq!(merged.seconds, 1.5);
    let err = |parts: Vec<SelfPlayPart>| merge_parts(whole, parts, 1.0).unwrap_err().to_string();
    assert_eq!(
        err(vec![a.clone(), c.clone()]),
        "games 2..3 are in no self-play part"
    );
    assert_eq!(
        err(vec![a.clone(), b.clone()]),
        "games 3..5 are in no self-play part"
    );
    assert_eq!(
        err(vec![a.clone(), a.clone(), b.clone(), c.clone()]),
        "game 0 is in two self-play parts"
    );
    let other_iteration = {
        let range = selfplay_games(&config, 3, 2, 1);
        SelfPlayPart::play(&rules, &w, &config.selfplay, range, &|_| {}).unwrap()
    };
    assert_eq!(
        err(vec![a.clone(), other_iteration, c.clone()]),
        "a self-play part of games 2..3 has the seed of another iteration"
    );
    // Damaged bytes are one line naming what is wrong.
    let bytes = a.to_bytes();
    let damaged = |b: &[u8]| format!("{:#}", SelfPlayPart::from_bytes(b).unwrap_err());
    assert!(damaged(&bytes[..4]).starts_with("not a self-play part"));
    assert!(damaged(&bytes[..20]).contains("truncated"));
    assert!(damaged(&bytes[..bytes.len() - 3]).contains("samples are damaged"));
}

#[test]
fn training_from_the_same_weights_window_and_plan_gives_the_same_weights() {
    let config = smoke();
    let rules = config.game().unwrap();
    let sp = play(&config, &rules, selfplay_games(&config, 1, 0, 4));
    let window = ReplayBuffer::from_bytes(&sp.replay_bytes()).unwrap();
    let plan = TrainSteps {
        steps: 3,
        batch_size: 32,
        ..TrainSteps::of_iteration(&config, 1)
    };
    let start = weights(&config);
    let train = |plan: &TrainSteps| {
        let mut t =
            Trainer::from_weights(start.net(), Compute::Cpu, 0.0, &start.to_bytes().unwrap())
                .unwrap();
        let steps = std::sync::atomic::AtomicUsize::new(0);
        let report = t
            .train(&rules, &window, plan, &|| {
                steps.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            })
            .unwrap();
        assert_eq!(steps.into_inner(), plan.steps);
        (report, t.weights(1).unwrap())
    };
    let (a, wa) = train(&plan);
    let (b, wb) = train(&plan);
    assert_eq!((a.steps, a.samples), (3, 96));
    assert!(a.losses.total > 0.0);
    assert_eq!(a.losses, b.losses);
    assert_eq!(wa.version(), 1);
    assert_eq!(
        wa.inference().net().mlp_weights(),
        wb.inference().net().mlp_weights()
    );
    let (c, _) = train(&TrainSteps {
        seed: plan.seed + 1,
        ..plan.clone()
    });
    assert_ne!(a.losses, c.losses, "another seed draws other batches");
}

#[test]
fn evaluation_takes_the_network_and_reports_each_opponent() {
    let mut config = smoke();
    config.eval.games = 2;
    let rules = config.game().unwrap();
    let settings = EvalSettings::of_run(&config, &PlayerRegistry::default());
    let opponents = vec!["random".to_string(), "greedy".to_string()];
    let games = std::sync::atomic::AtomicUsize::new(0);
    let report = evaluate::evaluate(
        &rules,
        &weights(&config),
        &settings,
        &opponents,
        7,
        99,
        &|_| {
            games.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        },
    )
    .unwrap();
    assert_eq!(games.into_inner(), settings.total_games(2));
    assert_eq!(report.entries.len(), 2);
    assert_eq!(report.records.len(), 2);
    for (e, name) in report.entries.iter().zip(&opponents) {
        assert_eq!((e.iteration, &e.opponent, e.games), (7, name, 2));
    }
    let again = evaluate::evaluate(
        &rules,
        &weights(&config),
        &settings,
        &opponents,
        7,
        99,
        &|_| {},
    )
    .unwrap();
    assert_eq!(again.records, report.records);
    // The network from its bytes, as another process gets it, plays the same games.
    let shared = weights(&config);
    let bytes = shared.to_bytes().unwrap();
    let from_bytes =
        NetWeights::from_bytes(&config.net.shape, config.net.device, &bytes, 7).unwrap();
    let evaluate = |w| evaluate::evaluate(&rules, w, &settings, &opponents, 7, 99, &|_| {});
    assert_eq!(evaluate(&from_bytes).unwrap().records, report.records);
    // Bytes that do not fit the shape are a one-line error.
    let err = format!(
        "{:#}",
        NetWeights::from_bytes(&config.net.shape, config.net.device, &bytes[..100], 7).unwrap_err()
    );
    assert!(err.contains("damaged") && !err.contains('\n'), "{err}");
}
