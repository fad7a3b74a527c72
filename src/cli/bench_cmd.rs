//! `bao bench`: one subcommand per benchmark, each with only the options it reads; the
//! measurements live in the rooms they measure (`bench.rs`, `env/bench.rs`,
//! `search/bench.rs`), this file only reads options and prints.

use crate::util::check::check_range;
use anyhow::ensure;

/// `bao bench [WHAT]`: speed figures, medians over runs (`rules` when no benchmark is named).
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: Option<Bench>,
    /// `rules`' options, when no benchmark is named.
    #[command(flatten)]
    rules: Timing,
}

/// The benchmarks.
#[derive(clap::Subcommand, Debug)]
enum Bench {
    /// The rules engine: random Kiswahili play, the full legal-move list every ply, 1 thread.
    Rules(Timing),
    /// One `Env` step and a `VecEnv`'s steps, with random legal actions.
    Env(EnvBench),
    /// Alpha-beta: nodes per second to a fixed depth over middle-game positions, then the
    /// depth completed in a given time.
    Ab(AbBench),
    /// Self-play with the default config beside the raw batched forward of its network.
    #[cfg(feature = "ml")]
    #[command(alias = "net")]
    Mcts(Timing),
    /// One game at play (the player's search) beside self-play of the same network.
    #[cfg(feature = "ml")]
    Play(Timing),
    /// Training steps and forward passes of the default MLP and a ResNet on each device.
    #[cfg(feature = "ml")]
    Device(Timing),
}

/// How long each run lasts and how many runs give the median.
#[derive(clap::Args, Clone, Copy, Debug)]
struct Timing {
    /// Seconds per run.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Runs (the median is reported).
    #[arg(long, default_value_t = 5)]
    runs: usize,
}

/// The most runs of one benchmark.
const MAX_RUNS: usize = 1000;
/// The most environments and threads of `bao bench env`.
const MAX_ENVS: usize = 1 << 16;
const MAX_THREADS: usize = 1024;

impl Timing {
    /// The seconds and runs, checked.
    fn checked(self) -> anyhow::Result<(f64, usize)> {
        check_range("--seconds", self.seconds, 0.001..=3600.0)?;
        check_range("--runs", self.runs, 1..=MAX_RUNS)?;
        Ok((self.seconds, self.runs))
    }
}

/// `bao bench env`'s options.
#[derive(clap::Args, Debug)]
struct EnvBench {
    #[command(flatten)]
    timing: Timing,
    /// Environments in the VecEnv.
    #[arg(long, default_value_t = 64)]
    envs: usize,
    /// Threads of the VecEnv (and independent Envs of the ceiling figure).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The variant played.
    #[arg(long, short = 'v', default_value = "kiswahili")]
    variant: String,
}

/// `bao bench ab`'s options.
#[derive(clap::Args, Debug)]
struct AbBench {
    /// Middle-game positions in the set.
    #[arg(long, default_value_t = 20)]
    positions: usize,
    /// Search depth of the node-rate runs.
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Runs over the set (the median is reported).
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Seconds per position of the depth test.
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Positions in the depth test.
    #[arg(long, default_value_t = 5)]
    depth_positions: usize,
    /// Seed of the random play that makes the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `bao bench`.
pub fn run_bench(args: BenchArgs) -> anyhow::Result<()> {
    match args.what.unwrap_or(Bench::Rules(args.rules)) {
        Bench::Rules(t) => bench_rules(t),
        Bench::Env(e) => bench_env(e),
        Bench::Ab(a) => bench_ab(a),
        #[cfg(feature = "ml")]
        Bench::Mcts(t) => bench_mcts(t),
        #[cfg(feature = "ml")]
        Bench::Play(t) => bench_play(t),
        #[cfg(feature = "ml")]
        Bench::Device(t) => bench_devices(t),
    }
}

fn bench_rules(t: Timing) -> anyhow::Result<()> {
    let (seconds, runs) = t.checked()?;
    let r = crate::bench::bench_default(seconds, runs);
    let each: Vec<String> = r.runs.iter().map(|x| format!("{x:.0}")).collect();
    println!(
        "rules (kiswahili, random play, legal moves every ply, 1 thread): {:.0} plies/s, {:.0} \
         games/s (median of {} runs: {each:?})",
        r.plies_per_sec,
        r.games_per_sec,
        r.runs.len(),
    );
    Ok(())
}

fn bench_env(e: EnvBench) -> anyhow::Result<()> {
    let (seconds, runs) = e.timing.checked()?;
    check_range("--envs", e.envs, 1..=MAX_ENVS)?;
    check_range("--threads", e.threads, 1..=MAX_THREADS)?;
    let variant: crate::rules::Variant = e.variant.parse()?;
    let report = crate::env::bench_env(&crate::env::EnvBenchConfig {
        game: variant.into(),
        envs: e.envs,
        threads: e.threads,
        seconds_per_run: seconds,
        runs,
    });
    println!("{report}");
    Ok(())
}

fn bench_ab(a: AbBench) -> anyhow::Result<()> {
    ensure!(
        a.seconds > 0.0 && a.seconds.is_finite(),
        "--seconds must be a positive number, not {}",
        a.seconds
    );
    check_range("--runs", a.runs, 1..=MAX_RUNS)?;
    let r = crate::search::bench::bench_ab(
        a.positions,
        a.depth.clamp(1, crate::players::options::MAX_DEPTH),
        a.runs,
        a.seconds,
        a.depth_positions,
        a.seed,
    )?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(());
    }
    let each: Vec<String> = r.runs.iter().map(|x| format!("{x:.0}")).collect();
    println!(
        "alpha-beta (kiswahili, {} middle-game positions, depth {}, 1 thread): {} nodes in \
         {:.3}s, {:.0} nodes/s (median of {} runs: {})",
        r.positions,
        r.depth,
        r.nodes,
        r.seconds_per_run,
        r.nodes_per_sec,
        r.runs.len(),
        each.join(", ")
    );
    println!(
        "depth completed in {}s: median {} (per position: {:?})",
        r.seconds, r.depth_in_time, r.depths
    );
    Ok(())
}

#[cfg(feature = "ml")]
fn bench_mcts(t: Timing) -> anyhow::Result<()> {
    let (seconds, runs) = t.checked()?;
    let cfg: crate::train::TrainConfig = toml::from_str(crate::train::config::DEFAULT_CONFIG)?;
    let r = crate::bench::bench_mcts(&cfg, seconds, runs);
    println!(
        "self-play (default config, {} concurrent games per worker, 2 workers): {:.0} \
         simulations/s; raw forward of the same net at batch {}: {:.0} positions/s; ratio {:.2}",
        r.batch, r.sims_per_sec, r.batch, r.forward_per_sec, r.ratio
    );
    Ok(())
}

#[cfg(feature = "ml")]
fn bench_play(t: Timing) -> anyhow::Result<()> {
    let (seconds, runs) = t.checked()?;
    let r = crate::bench::bench_play(seconds, runs);
    println!(
        "one game at play (the player's search, time per move, 1 thread): {:.0} simulations/s; \
         self-play of the same net (32 games batched, 1 thread): {:.0} simulations/s; ratio {:.2}",
        r.play_sims_per_sec, r.selfplay_sims_per_sec, r.ratio
    );
    Ok(())
}

/// `bao bench device`: training steps and forward passes per second of the default MLP and of a
/// ResNet of 10 blocks of 128 channels on the CPU and, in a build with the `gpu` feature and a
/// GPU, on the GPU; then self-play of the ResNet with its batches on each. A markdown table.
#[cfg(feature = "ml")]
fn bench_devices(t: Timing) -> anyhow::Result<()> {
    use crate::nn::{Compute, NetConfig, NetKind};
    let (seconds, runs) = t.checked()?;
    let mut devices = vec![Compute::Cpu];
    match Compute::Gpu.device() {
        Ok(_) => devices.push(Compute::Gpu),
        Err(e) => println!("(no GPU figures: {e})"),
    }
    let mlp = NetConfig {
        hidden: vec![256, 256],
        ..NetConfig::default()
    };
    let resnet = NetConfig {
        kind: NetKind::Resnet,
        blocks: 10,
        channels: 128,
        ..NetConfig::default()
    };
    println!(
        "| net | device | train steps/s at 256, 1024 | forward positions/s at 32, 256, 1024 | \
         first loss |"
    );
    println!("| --- | --- | --- | --- | --- |");
    for net in [&mlp, &resnet] {
        for &device in &devices {
            device_row(net, device, seconds, runs)?;
        }
    }
    for &device in &devices {
        device_selfplay(&resnet, device, seconds, runs)?;
    }
    Ok(())
}

/// One row of `bao bench device`'s table.
#[cfg(feature = "ml")]
fn device_row(
    net: &crate::nn::NetConfig,
    device: crate::nn::Compute,
    seconds: f64,
    runs: usize,
) -> anyhow::Result<()> {
    let train = crate::bench::bench_device(net, device, &[256, 1024], seconds, runs)?;
    let fwd = crate::bench::bench_device(net, device, &[32], seconds, runs)?;
    let f = |v: &[(usize, f64)]| {
        v.iter()
            .map(|(_, r)| format!("{r:.1}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let forward: Vec<(usize, f64)> = fwd.forward.into_iter().chain(train.forward).collect();
    println!(
        "| {} | {device} | {} | {} | {:.6} |",
        train.net,
        f(&train.train),
        f(&forward),
        train.first_loss
    );
    Ok(())
}

/// Self-play of `net` on `device`: a GPU wants large batches from one thread; the CPU its
/// cores, each with its own.
#[cfg(feature = "ml")]
fn device_selfplay(
    net: &crate::nn::NetConfig,
    device: crate::nn::Compute,
    seconds: f64,
    runs: usize,
) -> anyhow::Result<()> {
    use crate::nn::{Compute, NetTable};
    let mut cfg: crate::train::TrainConfig = toml::from_str(crate::train::config::DEFAULT_CONFIG)?;
    cfg.net = NetTable {
        shape: net.clone(),
        device,
    };
    (cfg.selfplay.concurrent_games, cfg.selfplay.threads) = match device {
        Compute::Gpu => (512, 1),
        Compute::Cpu => (
            32,
            std::thread::available_parallelism().map_or(1, |n| n.get()),
        ),
    };
    let r = crate::bench::bench_mcts(&cfg, seconds, runs);
    println!(
        "self-play, {} on {device} ({} games a batch, {} threads): {:.0} simulations/s",
        net, cfg.selfplay.concurrent_games, cfg.selfplay.threads, r.sims_per_sec
    );
    Ok(())
}
