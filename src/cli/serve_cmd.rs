//! `bao serve`: the web page to play, watch and analyse ([`crate::serve`]).

use crate::players::options::AbSpec;
use crate::players::{PlayerRegistry, PlayerSpec};
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
    /// How long a client may take to send a request's body (`10s`, `500ms`; 100ms to 10min);
    /// a slower one is answered 408 and its connection closed.
    #[arg(long, default_value = "10s", value_parser = body_timeout)]
    pub body_timeout: std::time::Duration,
    /// The most connections open at once; more wait to be accepted until one closes (lowered
    /// where the process may open fewer files, `ulimit -n`).
    #[arg(long, default_value_t = crate::serve::MAX_CONNECTIONS as u16,
          value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub max_connections: u16,
}

/// `--body-timeout`: a duration as written, from 100 ms to 10 minutes.
fn body_timeout(text: &str) -> Result<std::time::Duration, String> {
    use std::time::Duration;
    crate::players::options::parse_duration(text)
        .filter(|d| (Duration::from_millis(100)..=Duration::from_secs(600)).contains(d))
        .ok_or_else(|| {
            format!("expected a duration from 100ms to 10min (such as 10s), not `{text}`")
        })
}

/// Runs `bao serve` until interrupted.
pub fn run_serve(args: ServeArgs, players: &PlayerRegistry) -> anyhow::Result<()> {
    let player = match args.player {
        Some(text) => text.parse::<PlayerSpec>()?,
        // The Bao la Kiswahili player, or alpha-beta where none is shipped.
        None => match crate::player_file::shipped_player("kiswahili") {
            Some(file) => PlayerSpec::File(file),
            None => PlayerSpec::AlphaBeta(AbSpec::default()),
        },
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
            body_timeout: args.body_timeout,
            max_connections: usize::from(args.max_connections),
        },
        players.clone(),
    )
}
