//! `bao bench`: speed of the rules engine (other stages add their own benchmarks).

use crate::rules::{MoveList, Position, Rules, Variant};
use crate::util::stats::median;
use rand::{RngExt, SeedableRng};
use std::time::Instant;

/// Plies and games per second of random play with the full legal-move list at every ply.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RulesBench {
    /// Median plies per second over the runs.
    pub plies_per_sec: f64,
    /// Median games per second over the runs.
    pub games_per_sec: f64,
    /// Each run's plies per second.
    pub runs: Vec<f64>,
}

/// Random games of `rules` for about `seconds` each run, on the calling thread.
pub fn bench_rules(rules: &Rules, seconds: f64, runs: usize, seed: u64) -> RulesBench {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut list = MoveList::new();
    let start = Position::start(rules);
    let mut ply_rates = Vec::new();
    let mut game_rates = Vec::new();
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let (mut plies, mut games) = (0u64, 0u64);
        while t.elapsed().as_secs_f64() < seconds {
            let mut pos = start;
            loop {
                pos.legal_moves(rules, &mut list);
                if list.is_empty() {
                    break;
                }
                pos = list.children()[rng.random_range(0..list.len())];
                plies += 1;
            }
            games += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        ply_rates.push(plies as f64 / secs);
        game_rates.push(games as f64 / secs);
    }
    RulesBench {
        plies_per_sec: median(&ply_rates),
        games_per_sec: median(&game_rates),
        runs: ply_rates,
    }
}

/// Benchmarks the default game.
pub fn bench_default(seconds: f64, runs: usize) -> RulesBench {
    bench_rules(&Variant::Kiswahili.rules(), seconds, runs, 1)
}

/// Self-play simulations per second beside the raw forward throughput of the same network at the
/// same batch size, both on `threads` threads.
#[cfg(feature = "ml")]
#[derive(Clone, Debug, serde::Serialize)]
pub struct MctsBench {
    /// Median self-play simulations per second.
    pub sims_per_sec: f64,
    /// Median raw forward passes (positions) per second at the same batch size.
    pub forward_per_sec: f64,
    /// `sims_per_sec / forward_per_sec`.
    pub ratio: f64,
    /// The batch size (concurrent games per worker).
    pub batch: usize,
}

/// Raw batched forward throughput of `net` on `threads` threads at `batch`, for `seconds`.
#[cfg(feature = "ml")]
pub fn bench_forward(
    net: &crate::nn::NetConfig,
    device: crate::nn::Compute,
    batch: usize,
    threads: usize,
    seconds: f64,
) -> f64 {
    use crate::env::{ACTIONS, OBS_LEN};
    let trainer = crate::nn::Trainer::new(net, device, 0.0, 1).expect("a network");
    let eval = crate::nn::NetInference::new(trainer.snapshot());
    let t = Instant::now();
    let total: usize = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let obs = vec![0.25f32; batch * OBS_LEN];
                    let masks = vec![1.0f32; batch * ACTIONS];
                    let mut n = 0;
                    while t.elapsed().as_secs_f64() < seconds {
                        eval.forward(&obs, &masks, batch);
                        n += batch;
                    }
                    n
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("bench thread"))
            .sum()
    });
    total as f64 / t.elapsed().as_secs_f64()
}

/// Self-play with a training config's network and search (the command line passes the built-in
/// default), against raw forward throughput.
#[cfg(feature = "ml")]
pub fn bench_mcts(cfg: &crate::train::TrainConfig, seconds: f64, runs: usize) -> MctsBench {
    let rules = cfg.game().expect("the built-in rules");
    let trainer =
        crate::nn::Trainer::new(&cfg.net.shape, cfg.net.device, 0.0, 1).expect("a network");
    let eval = crate::nn::NetInference::new(trainer.snapshot());
    let sp = &cfg.selfplay;
    let (mut sims, mut fwd) = (Vec::new(), Vec::new());
    for run in 0..runs.max(1) {
        let t = Instant::now();
        let mut total = 0u64;
        let mut seed = run as u64 * 1_000_000;
        while t.elapsed().as_secs_f64() < seconds {
            let games = sp.concurrent_games * sp.threads.max(1);
            let seeds: Vec<u64> = (seed..seed + games as u64).collect();
            seed += games as u64;
            total += crate::selfplay::play(&rules, &eval, sp, &seeds, &|_| {}).simulations;
        }
        sims.push(total as f64 / t.elapsed().as_secs_f64());
        fwd.push(bench_forward(
            &cfg.net.shape,
            cfg.net.device,
            sp.concurrent_games,
            sp.threads,
            seconds.min(3.0),
        ));
    }
    let (s, f) = (median(&sims), median(&fwd));
    MctsBench {
        sims_per_sec: s,
        forward_per_sec: f,
        ratio: s / f,
        batch: sp.concurrent_games,
    }
}

/// Simulations per second of one game's search at play time beside self-play's, with the same
/// network and search settings, both on one thread.
#[cfg(feature = "ml")]
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlayBench {
    /// Median simulations per second of `MctsPlayer` under a time limit, one game, one thread.
    pub play_sims_per_sec: f64,
    /// Median simulations per second of self-play (32 games batched together) on one thread.
    pub selfplay_sims_per_sec: f64,
    /// `play / selfplay`.
    pub ratio: f64,
}

/// Play-time search against self-play on one thread: each run plays one game move by move at
/// `seconds / 10` a move (counting simulations), then self-play for as long.
#[cfg(feature = "ml")]
pub fn bench_play(seconds: f64, runs: usize) -> PlayBench {
    use crate::players::{Limits, Player};
    let cfg: crate::train::TrainConfig =
        toml::from_str(crate::train::config::DEFAULT_CONFIG).expect("the built-in config parses");
    let rules = cfg.game().expect("the built-in rules");
    let trainer =
        crate::nn::Trainer::new(&cfg.net.shape, cfg.net.device, 0.0, 1).expect("a network");
    let eval = std::sync::Arc::new(crate::nn::NetInference::new(trainer.snapshot()));
    let sp = crate::selfplay::SelfPlayConfig {
        threads: 1,
        ..cfg.selfplay.clone()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread");
    let (mut play, mut selfplay) = (Vec::new(), Vec::new());
    let move_time = std::time::Duration::from_secs_f64((seconds / 10.0).max(0.01));
    let mut list = MoveList::new();
    for run in 0..runs.max(1) {
        let mut player = crate::mcts::MctsPlayer::new(
            "bench",
            &rules,
            eval.clone(),
            &cfg.selfplay.mcts.play,
            cfg.selfplay.mcts.sims,
        );
        player.new_game(run as u64);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(run as u64);
        let mut pos = Position::start(&rules);
        let (mut sims, t) = (0u64, Instant::now());
        while t.elapsed().as_secs_f64() < seconds {
            pos.legal_moves(&rules, &mut list);
            if list.is_empty() {
                pos = Position::start(&rules);
                player.new_game(rng.random());
                continue;
            }
            let c = player
                .choose(&pos, &Limits::time(move_time))
                .expect("a move");
            sims += c.nodes;
            // Varied games: now and then a random move instead of the searched one.
            pos = if rng.random_range(0..4) == 0 {
                list.children()[rng.random_range(0..list.len())]
            } else {
                *list.find(c.mv).expect("a legal move")
            };
        }
        play.push(sims as f64 / t.elapsed().as_secs_f64());
        let (mut total, t, mut seed) = (0u64, Instant::now(), run as u64 * 1_000_000);
        pool.install(|| {
            while t.elapsed().as_secs_f64() < seconds {
                let seeds: Vec<u64> = (seed..seed + sp.concurrent_games as u64).collect();
                seed += sp.concurrent_games as u64;
                total +=
                    crate::selfplay::play(&rules, eval.as_ref(), &sp, &seeds, &|_| {}).simulations;
            }
        });
        selfplay.push(total as f64 / t.elapsed().as_secs_f64());
    }
    let (p, s) = (median(&play), median(&selfplay));
    PlayBench {
        play_sims_per_sec: p,
        selfplay_sims_per_sec: s,
        ratio: p / s,
    }
}

/// One network on one device: what `bao bench device` measures.
#[cfg(feature = "ml")]
#[derive(Clone, Debug)]
pub struct DeviceRow {
    /// The network, as `mlp 256x256` or `resnet 10x128`.
    pub net: String,
    /// The device.
    pub device: crate::nn::Compute,
    /// Training steps per second at each batch size: (batch, steps/s).
    pub train: Vec<(usize, f64)>,
    /// Forward positions per second at each batch size: (batch, positions/s); on the CPU as
    /// play runs it (an MLP through its fast path), on a GPU through burn.
    pub forward: Vec<(usize, f64)>,
    /// The loss of one step from fixed weights on a fixed batch (to compare devices).
    pub first_loss: f64,
}

/// A batch of `n` real positions (one line of play from the start) with made-up targets: what
/// benchmarks and tests of training steps feed the network.
#[cfg(feature = "ml")]
pub fn synthetic_batch(n: usize) -> crate::nn::Batch {
    use crate::rules::{MoveList, Position, Variant};
    let rules = Variant::Kiswahili.rules();
    let mut pos = Position::start(&rules);
    let mut list = MoveList::new();
    let mut samples = Vec::with_capacity(n);
    let mut i = 0usize;
    while samples.len() < n {
        pos.legal_moves(&rules, &mut list);
        if list.is_empty() {
            pos = Position::start(&rules);
            continue;
        }
        let visits: Vec<u32> = (0..list.len())
            .map(|k| 1 + (k == i % list.len()) as u32 * 9)
            .collect();
        let mut s = crate::nn::Sample::new(pos, &list, &visits, 0.0);
        s.outcome = if i.is_multiple_of(3) { 1 } else { -1 };
        samples.push(s);
        pos = list.children()[i % list.len()];
        i += 1;
    }
    crate::nn::Batch::from_samples(&rules, &samples, 0.0)
}

/// Training steps and forward passes per second of `net` on `device` at each batch size (the
/// median of `runs` runs of about `seconds` each), from the same seeded weights on every device.
#[cfg(feature = "ml")]
pub fn bench_device(
    net: &crate::nn::NetConfig,
    device: crate::nn::Compute,
    batches: &[usize],
    seconds: f64,
    runs: usize,
) -> anyhow::Result<DeviceRow> {
    use crate::nn::{Compute, NetWeights, Trainer};
    let start = Trainer::new(net, Compute::Cpu, 1e-4, 1)?
        .weights(0)?
        .to_bytes()?;
    let rate = |work: &mut dyn FnMut() -> anyhow::Result<usize>| -> anyhow::Result<f64> {
        let mut rates = Vec::new();
        for _ in 0..runs.max(1) {
            work()?; // warm-up: shaders compile, buffers settle
            let (t, mut done) = (Instant::now(), 0);
            while t.elapsed().as_secs_f64() < seconds {
                done += work()?;
            }
            rates.push(done as f64 / t.elapsed().as_secs_f64());
        }
        Ok(median(&rates))
    };
    let (mut train, mut forward) = (Vec::new(), Vec::new());
    let mut first_loss = f64::NAN;
    for &b in batches {
        let data = synthetic_batch(b);
        let mut trainer = Trainer::from_weights(net, device, 1e-4, &start)?;
        if first_loss.is_nan() {
            first_loss = Trainer::from_weights(net, device, 1e-4, &start)?
                .step(&data, 1e-3)?
                .total;
        }
        train.push((b, rate(&mut || trainer.step(&data, 1e-3).map(|_| 1))?));
        let network = NetWeights::from_bytes(net, device, &start, 0)?;
        let eval = network.inference();
        forward.push((
            b,
            rate(&mut || {
                // The CPU as play uses it (an MLP's fast path); a GPU through burn.
                match device {
                    Compute::Cpu => eval.forward(&data.obs, &data.masks, b),
                    Compute::Gpu => eval.forward_on_device(&data.obs, &data.masks, b),
                };
                Ok(b)
            })?,
        ));
    }
    Ok(DeviceRow {
        net: net.to_string(),
        device,
        train,
        forward,
        first_loss,
    })
}
