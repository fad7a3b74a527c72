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
    /// Measure speed: `rules` (default), `mcts`/`net` (self-play against raw network throughput).
    Bench(BenchArgs),
    /// Train a player by self-play (default: the built-in configs/default.toml).
    #[cfg(feature = "ml")]
    Train(bao_zero::cli::train_cmd::TrainArgs),
    /// Write a training run's player to one file.
    #[cfg(feature = "ml")]
    Export(bao_zero::cli::play_cmd::ExportArgs),
    /// Play against a trained player in the terminal.
    #[cfg(feature = "ml")]
    Play(bao_zero::cli::play_cmd::HumanArgs),
    /// A line protocol on stdin/stdout for GUIs and scripts.
    #[cfg(feature = "ml")]
    Engine(bao_zero::cli::play_cmd::EngineArgs),
}

#[derive(clap::Args)]
struct BenchArgs {
    /// What to measure.
    #[arg(default_value = "rules")]
    what: String,
    /// Seconds per run.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Runs (the median is reported).
    #[arg(long, default_value_t = 5)]
    runs: usize,
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
            let r = bao_zero::bench::bench_mcts(args.seconds, args.runs);
            println!(
                "self-play (default config, {} concurrent games per worker, 2 workers): {:.0} simulations/s; raw forward of the same net at batch {}: {:.0} positions/s; ratio {:.2}",
                r.batch, r.sims_per_sec, r.batch, r.forward_per_sec, r.ratio
            );
            Ok(())
        }
        other => anyhow::bail!("unknown benchmark `{other}`; known: rules, mcts, net"),
    }
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Moves(a) => rules_cmds::run_moves(a),
        Command::Perft(a) => rules_cmds::run_perft(a),
        Command::Show(a) => rules_cmds::run_show(a),
        Command::Random(a) => rules_cmds::run_random(a),
        Command::Bench(a) => bench(a),
        #[cfg(feature = "ml")]
        Command::Train(a) => bao_zero::cli::train_cmd::run_train(a),
        #[cfg(feature = "ml")]
        Command::Export(a) => bao_zero::cli::play_cmd::run_export(a),
        #[cfg(feature = "ml")]
        Command::Play(a) => bao_zero::cli::play_cmd::run_human(a),
        #[cfg(feature = "ml")]
        Command::Engine(a) => bao_zero::cli::play_cmd::run_engine(a),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
