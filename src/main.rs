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
    /// Measure speed: `rules` (default), `env`, `ab`, `mcts`/`net`, `play`, `device`.
    Bench(bao_zero::cli::bench_cmd::BenchArgs),
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
    let players = bao_zero::trained::all_players();
    let result = match cli.command {
        Command::Moves(a) => rules_cmds::run_moves(a),
        Command::Perft(a) => rules_cmds::run_perft(a),
        Command::Show(a) => rules_cmds::run_show(a),
        Command::Random(a) => rules_cmds::run_random(a),
        Command::Bench(a) => bao_zero::cli::bench_cmd::run_bench(a),
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
