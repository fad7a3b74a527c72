//! Players kept between the games of a match or a gauntlet. A game takes a player of its spec
//! from here (one a finished game left, started afresh by [`Player::new_game`], or else a new
//! one) and gives it back when it ends well, so that a player costly to start, an `engine:`
//! program above all, starts once for each game played at the same time rather than once a game.

use crate::rules::Rules;
use crate::search::{Player, PlayerRegistry, PlayerSpec};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

/// An idle player, with the spec and the game it was built for.
struct Idle {
    spec: PlayerSpec,
    rules: Rules,
    player: Box<dyn Player>,
}

/// The idle players of a match (or of every match of a gauntlet): clones share them.
#[derive(Clone, Default)]
pub struct KeptPlayers {
    idle: Arc<Mutex<Vec<Idle>>>,
}

impl fmt::Debug for KeptPlayers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeptPlayers({} idle)", self.lock().len())
    }
}

impl KeptPlayers {
    /// No player kept yet.
    pub fn new() -> KeptPlayers {
        KeptPlayers::default()
    }

    /// The idle players; a panic in another game while it held them leaves them usable (each
    /// entry is whole: a player is pushed or taken in one step).
    fn lock(&self) -> MutexGuard<'_, Vec<Idle>> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A player of `spec` for a game of `rules` seeded `seed`: a kept one, started on a new game
    /// with that seed, or else one `registry` builds (and starts the same way, so that both are
    /// the same player to the game).
    pub fn take(
        &self,
        registry: &PlayerRegistry,
        spec: &PlayerSpec,
        rules: &Rules,
        seed: u64,
    ) -> anyhow::Result<Box<dyn Player>> {
        let kept = {
            let mut idle = self.lock();
            let at = idle
                .iter()
                .position(|k| k.spec == *spec && k.rules == *rules);
            at.map(|i| idle.swap_remove(i).player)
        };
        let mut player = match kept {
            Some(player) => player,
            None => registry.build(spec, rules, seed)?,
        };
        player.new_game(seed);
        Ok(player)
    }

    /// Keeps `player`, built from `spec` for a game of `rules`, for a later game. Only a player
    /// whose game ended well comes back: one that failed is dropped (an engine that failed is
    /// ended with it).
    pub fn keep(&self, spec: &PlayerSpec, rules: &Rules, player: Box<dyn Player>) {
        self.lock().push(Idle {
            spec: spec.clone(),
            rules: rules.clone(),
            player,
        });
    }

    /// How many players are kept now.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no player is kept now.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
