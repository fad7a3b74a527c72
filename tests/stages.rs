//! The stages' doors: self-play, training and evaluation take weights as bytes and plain
//! settings, so that an iteration's work can be split over callers and give the same results.
#![cfg(feature = "ml")]

use bao_zero::nn::{NetWeights, Trainer};
use bao_zero::rules::Rules;
use bao_zero::search::PlayerRegistry;
use bao_zero::selfplay::{GameRange, ReplayBuffer, Sample, SelfPlayOutput, play_games};
use bao_zero::train::{EvalSettings, TrainConfig, TrainSteps, evaluate, selfplay_games};

fn smoke() -> TrainConfig {
    toml::from_str(include_str!("../configs/smoke.toml")).unwrap()
}

/// The seeded initial weights of the smoke config's network, as bytes.
fn weights(config: &TrainConfig) -> NetWeights {
    Trainer::new(&config.net, 0.0, 11)
        .unwrap()
        .weights(0)
        .unwrap()
}

fn play(config: &TrainConfig, rules: &Rules, range: GameRange) -> SelfPlayOutput {
    play_games(rules, &weights(config), &config.selfplay, range, &|_| {}).unwrap()
}

/// The samples in a fixed order (by their debug text).
fn sorted(samples: &[Sample]) -> Vec<String> {
    let mut keys: Vec<String> = samples.iter().map(|s| format!("{s:?}")).collect();
    keys.sort();
    keys
}

#[test]
fn an_iterations_games_split_over_callers_are_the_games_of_one_call() {
    let mut config = smoke();
    let rules = config.rules().unwrap();
    config.selfplay.games_per_iteration = 6;
    // One game at a time on one worker: samples come in game order, so the parts concatenate
    // to the whole, byte for byte.
    config.selfplay.threads = 1;
    config.selfplay.concurrent_games = 1;
    let whole = play(&config, &rules, selfplay_games(&config, 3, 0, 6));
    assert_eq!(whole.games.games, 6);
    let mut parts = Vec::new();
    for (first, count) in [(0, 2), (2, 1), (3, 3)] {
        parts.extend(
            play(&config, &rules, selfplay_games(&config, 3, first, count))
                .games
                .samples,
        );
    }
    assert_eq!(parts, whole.games.samples);
    // Games in flight together finish in an order the split changes: the same games, and so
    // the same samples, in another order.
    config.selfplay.threads = 2;
    config.selfplay.concurrent_games = 3;
    let whole = play(&config, &rules, selfplay_games(&config, 3, 0, 6));
    let mut parts = Vec::new();
    for (first, count) in [(0, 4), (4, 2)] {
        parts.extend(
            play(&config, &rules, selfplay_games(&config, 3, first, count))
                .games
                .samples,
        );
    }
    assert_eq!(sorted(&parts), sorted(&whole.games.samples));
    // The output is the replay format.
    let back = ReplayBuffer::from_bytes(&whole.replay_bytes()).unwrap();
    assert!(back.iter().eq(whole.games.samples.iter()));
    // Another iteration plays other games.
    let other = play(&config, &rules, selfplay_games(&config, 4, 0, 6));
    assert_ne!(sorted(&other.games.samples), sorted(&whole.games.samples));
}

#[test]
fn training_from_the_same_weights_window_and_plan_gives_the_same_weights() {
    let config = smoke();
    let rules = config.rules().unwrap();
    let sp = play(&config, &rules, selfplay_games(&config, 1, 0, 4));
    let window = ReplayBuffer::from_bytes(&sp.replay_bytes()).unwrap();
    let plan = TrainSteps {
        steps: 3,
        batch_size: 32,
        ..TrainSteps::of_iteration(&config, 1)
    };
    let start = weights(&config);
    let train = |plan: &TrainSteps| {
        let mut t = Trainer::from_weights(&start.net, 0.0, &start.bytes).unwrap();
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
    assert_eq!(wa.version, 1);
    assert_eq!(
        wa.evaluator().unwrap().net().mlp_weights(),
        wb.evaluator().unwrap().net().mlp_weights()
    );
    let (c, _) = train(&TrainSteps {
        seed: plan.seed + 1,
        ..plan.clone()
    });
    assert_ne!(a.losses, c.losses, "another seed draws other batches");
}

#[test]
fn evaluation_takes_the_weights_as_bytes_and_reports_each_opponent() {
    let mut config = smoke();
    config.eval.games = 2;
    let rules = config.rules().unwrap();
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
    // Weights that do not fit the shape are a one-line error.
    let mut bad = weights(&config);
    bad.bytes.truncate(100);
    let err = format!(
        "{:#}",
        evaluate::evaluate(&rules, &bad, &settings, &opponents, 7, 99, &|_| {}).unwrap_err()
    );
    assert!(!err.contains('\n'), "{err}");
}
