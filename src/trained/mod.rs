//! Players by name: every kind a player spec can name, assembled into the one registry that the
//! command line, Python and Ray build players from ([`all_players`]), and the players that play
//! with a network.
//!
//! The classical kinds (`random`, `greedy`, `ab`, `engine`, `solver`) live in `search` and need
//! no network. With the `ml` feature this room adds the network kinds: `player:FILE` and
//! `mcts:...` (network.rs), both played by a [`LoadedPlayer`] (loaded.rs), which reads player
//! files through `player_file` and a training run's network through `export::from_run`, shared
//! through a bounded cache that notices files changed on disk (cache.rs).

#[cfg(feature = "ml")]
mod cache;
#[cfg(feature = "ml")]
mod loaded;
#[cfg(feature = "ml")]
mod network;

#[cfg(feature = "ml")]
pub use loaded::LoadedPlayer;
#[cfg(feature = "ml")]
pub use network::{parse_c_puct, parse_sims};

use crate::players::PlayerRegistry;

/// Every player kind this build has: the classical ones, and with the `ml` feature the network
/// ones. The command line hands it to every command; Python and Ray build from it too.
pub fn all_players() -> PlayerRegistry {
    #[cfg(feature = "ml")]
    {
        let mut players = PlayerRegistry::classical();
        network::register_network_players(&mut players);
        players
    }
    #[cfg(not(feature = "ml"))]
    PlayerRegistry::classical()
}
