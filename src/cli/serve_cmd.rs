//! `bao serve`: the web page to play, watch and analyse ([`crate::serve`]).

use crate::search::PlayerRegistry;
use crate::serve::ServeConfig;
use std::path::PathBuf;

/// `bao serve`: the web page.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The port (0: any free one; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on (loopback unless told otherwise).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The opponent and analysis player (a spec; default: the shipped player).
    #[arg(long)]
    pub player: Option<String>,
    /// A training run: its network and evaluation opponents are offered, to watch its
    /// evaluation games and self-play.
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// Seed of the players' randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The most analyses that run at once (default: the number of cores); more are refused.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub max_analyses: Option<u16>,
}

/// Runs `bao serve` until interrupted.
pub fn run_serve(args: ServeArgs, players: &PlayerRegistry) -> anyhow::Result<()> {
    let player = match args.player {
        Some(p) => p,
        None => {
            // The Bao la Kiswahili player, or alpha-beta where none is shipped.
            match crate::player_file::shipped_player("kiswahili") {
                Some(file) => format!("player:{}", file.display()),
                None => "ab".to_string(),
            }
        }
    };
    crate::serve::serve(
        ServeConfig {
            host: args.host,
            port: args.port,
            player,
            run: args.run,
            seed: args.seed,
            max_analyses: match args.max_analyses {
                Some(n) => n as usize,
                None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            },
        },
        players.clone(),
    )
}
