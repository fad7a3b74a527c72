//! `bao`: the command line of bao-zero.

use bao_zero::cli::rules_cmds::{self, MovesArgs, PerftArgs, RandomArgs, ShowArgs};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "bao",
    version,
    about = "Bao la Kiswahili and relatives: rules, players, self-play training"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Legal moves along games read from stdin (one game per line), as JSON lines.
    Moves(MovesArgs),
    /// Count move sequences of exactly N plies.
    Perft(PerftArgs),
    /// Show the board after some moves.
    Show(ShowArgs),
    /// Play random games and print statistics.
    Random(RandomArgs),
    /// Measure speed: `rules` (default), `env`, `ab`, `mcts`/`net` (self-play beside raw network throughput).
    Bench(BenchArgs),
    /// Train a player by self-play (default: the built-in configs/default.toml).
    #[cfg(feature = "ml")]
    Train(bao_zero::cli::train_cmd::TrainArgs),
    /// Train a player against one frozen victim and report how far it beats it (docs/EXPLOIT.md).
    #[cfg(feature = "ml")]
    Exploit(bao_zero::cli::exploit_cmd::ExploitArgs),
    /// Write a training run's player to one file, or its network as ONNX.
    #[cfg(feature = "ml")]
    Export(bao_zero::cli::export_cmd::ExportArgs),
    /// Play against a player in the terminal, or watch two players.
    Play(bao_zero::cli::play_cmd::PlayArgs),
    /// A match between two players: score, Elo with intervals, optional SPRT, game records.
    Eval(bao_zero::cli::eval_cmds::EvalArgs),
    /// Pool matches (`bao eval --json` files) pair by pair; compare two players on the same openings.
    Pool(bao_zero::cli::eval_cmds::PoolArgs),
    /// Rate several players on one Elo scale.
    Gauntlet(bao_zero::cli::eval_cmds::GauntletArgs),
    /// The exact value of a position (win, loss or draw) with a best move, by exhaustive search.
    Solve(bao_zero::cli::solve_cmd::SolveArgs),
    /// Players against perfect play: how often their moves keep a proven win, and convert it.
    Judge(bao_zero::cli::judge_cmd::JudgeArgs),
    /// A line protocol on stdin/stdout for GUIs and scripts.
    Engine(bao_zero::cli::engine::EngineArgs),
    /// Charts of a training run (PNG and SVG in RUN_DIR/plots/).
    Plot(bao_zero::cli::plot_cmd::PlotArgs),
    /// A web page to play, watch and analyse (http://127.0.0.1:8080/ by default).
    #[cfg(feature = "ml")]
    Serve(bao_zero::cli::serve_cmd::ServeArgs),
}

#[derive(clap::Args)]
struct BenchArgs {
    /// What to measure: rules, env, ab, mcts (or net), play, device.
    #[arg(default_value = "rules")]
    what: String,
    /// Seconds per run.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Runs (the median is reported).
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// `env`: environments in the VecEnv.
    #[arg(long, default_value_t = 64)]
    envs: usize,
    /// `env`: threads of the VecEnv (and independent Envs of the ceiling figure).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// `env`: the variant played.
    #[arg(long, short = 'v', default_value = "kiswahili")]
    variant: String,
}

fn bench(args: BenchArgs) -> anyhow::Result<()> {
    match args.what.as_str() {
        "rules" => {
            let r = bao_zero::bench::bench_default(args.seconds, args.runs);
            println!(
                "rules (kiswahili, random play, legal moves every ply, 1 thread): {:.0} plies/s, {:.0} games/s (median of {} runs: {:?})",
                r.plies_per_sec,
                r.games_per_sec,
                r.runs.len(),
                r.runs
                    .iter()
                    .map(|x| format!("{:.0}", x))
                    .collect::<Vec<_>>()
            );
            Ok(())
        }
        #[cfg(feature = "ml")]
        "mcts" | "net" => {
            let cfg: bao_zero::train::TrainConfig =
                toml::from_str(bao_zero::train::config::DEFAULT_CONFIG)?;
            let r = bao_zero::bench::bench_mcts(&cfg, args.seconds, args.runs);
            println!(
                "self-play (default config, {} concurrent games per worker, 2 workers): {:.0} simulations/s; raw forward of the same net at batch {}: {:.0} positions/s; ratio {:.2}",
                r.batch, r.sims_per_sec, r.batch, r.forward_per_sec, r.ratio
            );
            Ok(())
        }
        #[cfg(feature = "ml")]
        "play" => {
            let r = bao_zero::bench::bench_play(args.seconds, args.runs);
            println!(
                "one game at play (the player's search, time per move, 1 thread): {:.0} simulations/s; self-play of the same net (32 games batched, 1 thread): {:.0} simulations/s; ratio {:.2}",
                r.play_sims_per_sec, r.selfplay_sims_per_sec, r.ratio
            );
            Ok(())
        }
        #[cfg(feature = "ml")]
        "device" => bench_devices(args.seconds, args.runs),
        "ab" => bao_zero::search::bench::run_bench_ab(bao_zero::search::bench::BenchAbArgs {
            positions: 20,
            depth: 12,
            runs: args.runs,
            seconds: 1.0,
            depth_positions: 5,
            seed: 1,
            json: false,
        }),
        "env" => {
            let variant: bao_zero::rules::Variant = args.variant.parse()?;
            let report = bao_zero::env::bench_env(&bao_zero::env::EnvBenchConfig {
                rules: variant.rules(),
                envs: args.envs,
                threads: args.threads,
                seconds_per_run: args.seconds,
                runs: args.runs,
            });
            println!("{report}");
            Ok(())
        }
        other => {
            anyhow::bail!(
                "unknown benchmark `{other}`; known: rules, env, ab, mcts, net, play, device"
            )
        }
    }
}

/// `bao bench device`: training steps and forward passes per second of the default MLP and of a
/// ResNet of 10 blocks of 128 channels on the CPU and, in a build with the `gpu` feature and a
/// GPU, on the GPU; then self-play of the ResNet with its batches on each. A markdown table.
#[cfg(feature = "ml")]
fn bench_devices(seconds: f64, runs: usize) -> anyhow::Result<()> {
    use bao_zero::nn::{Compute, NetConfig, NetKind};
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
        "| net | device | train steps/s at 256, 1024 | forward positions/s at 32, 256, 1024 | first loss |"
    );
    println!("| --- | --- | --- | --- | --- |");
    for net in [&mlp, &resnet] {
        for &device in &devices {
            let train = bao_zero::bench::bench_device(net, device, &[256, 1024], seconds, runs)?;
            let fwd = bao_zero::bench::bench_device(net, device, &[32], seconds, runs)?;
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
        }
    }
    let base: bao_zero::train::TrainConfig =
        toml::from_str(bao_zero::train::config::DEFAULT_CONFIG)?;
    for &device in &devices {
        let mut cfg = base.clone();
        cfg.net = NetConfig {
            device,
            ..resnet.clone()
        };
        // A GPU wants large batches from one thread; the CPU its cores, each with its own.
        (cfg.selfplay.concurrent_games, cfg.selfplay.threads) = match device {
            Compute::Gpu => (512, 1),
            Compute::Cpu => (
                32,
                std::thread::available_parallelism().map_or(1, |n| n.get()),
            ),
        };
        let r = bao_zero::bench::bench_mcts(&cfg, seconds, runs);
        println!(
            "self-play, resnet 10x128 on {device} ({} games a batch, {} threads): {:.0} simulations/s",
            cfg.selfplay.concurrent_games, cfg.selfplay.threads, r.sims_per_sec
        );
    }
    Ok(())
}

/// Rust's runtime ignores SIGPIPE, so printing into a closed pipe (`bao random | head -n 1`)
/// becomes an error that `println!` turns into a panic. Command-line tools end quietly there
/// instead: restore the default action. (A network server would keep it ignored, so that one
/// lost client cannot end it.)
#[cfg(unix)]
fn end_quietly_on_closed_pipe() {
    // SAFETY: called at the start of `main`, before any thread starts; setting a signal's
    // disposition to its default has no other precondition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    // The web server keeps SIGPIPE ignored: a browser that goes away must not end it.
    #[cfg(feature = "ml")]
    let server = matches!(cli.command, Command::Serve(_));
    #[cfg(not(feature = "ml"))]
    let server = false;
    #[cfg(unix)]
    if !server {
        end_quietly_on_closed_pipe();
    }
    // The player kinds every command can name: classical, and network players with `ml`.
    let players = bao_zero::players::all_players();
    let result = match cli.command {
        Command::Moves(a) => rules_cmds::run_moves(a),
        Command::Perft(a) => rules_cmds::run_perft(a),
        Command::Show(a) => rules_cmds::run_show(a),
        Command::Random(a) => rules_cmds::run_random(a),
        Command::Bench(a) => bench(a),
        #[cfg(feature = "ml")]
        Command::Train(a) => bao_zero::cli::train_cmd::run_train(a, &players),
        #[cfg(feature = "ml")]
        Command::Exploit(a) => bao_zero::cli::exploit_cmd::run_exploit(a, &players),
        #[cfg(feature = "ml")]
        Command::Export(a) => bao_zero::cli::export_cmd::run_export(a),
        Command::Play(a) => bao_zero::cli::play_cmd::run_play(a, &players),
        Command::Eval(a) => bao_zero::cli::eval_cmds::run_eval(a, &players),
        Command::Pool(a) => bao_zero::cli::eval_cmds::run_pool(a),
        Command::Gauntlet(a) => bao_zero::cli::eval_cmds::run_gauntlet_cmd(a, &players),
        Command::Solve(a) => bao_zero::cli::solve_cmd::run_solve(a),
        Command::Judge(a) => bao_zero::cli::judge_cmd::run_judge(a, &players),
        Command::Engine(a) => bao_zero::cli::engine::run_engine(a, &players),
        Command::Plot(a) => bao_zero::cli::plot_cmd::run_plot(a),
        #[cfg(feature = "ml")]
        Command::Serve(a) => bao_zero::cli::serve_cmd::run_serve(a, &players),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
