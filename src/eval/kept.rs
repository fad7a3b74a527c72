//! Players kept between the games of a match or a gauntlet. A game takes a player of its spec
//! from here (one a finished game left, started afresh by [`Player::new_game`], or else a new
//! one) and gives it back when it ends well, so that a player costly to start, an `engine:`
//! program above all, starts once for each game played at the same time rather than once a game.

use crate::players::{Candidate, Choice, Limits, Player, PlayerRegistry, PlayerSpec};
use crate::rules::{Game, Position};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

/// An idle player, with the spec and the game it was built for.
struct Idle {
    spec: PlayerSpec,
    game: Game,
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

    /// A player of `spec` for `game` seeded `seed`: a kept one, started on a new game
    /// with that seed, or else one `registry` builds (and starts the same way, so that both are
    /// the same player to the game).
    pub fn take(
        &self,
        registry: &PlayerRegistry,
        spec: &PlayerSpec,
        game: &Game,
        seed: u64,
    ) -> anyhow::Result<Box<dyn Player>> {
        let kept = {
            let mut idle = self.lock();
            let at = idle.iter().position(|k| k.spec == *spec && k.game == *game);
            at.map(|i| idle.swap_remove(i).player)
        };
        let mut player = match kept {
            Some(player) => player,
            None => registry.build(spec, game, seed)?,
        };
        player.new_game(seed);
        Ok(player)
    }

    /// Keeps `player`, built from `spec` for `game`, for a later game. Only a player
    /// whose game ended well comes back: one that failed is dropped (an engine that failed is
    /// ended with it).
    pub fn keep(&self, spec: &PlayerSpec, game: &Game, player: Box<dyn Player>) {
        self.lock().push(Idle {
            spec: spec.clone(),
            game: game.clone(),
            player,
        });
    }

    /// A player as [`KeptPlayers::take`] gives it, which comes back here when it is dropped:
    /// for callers that build a player a game and drop it at the game's end on every path
    /// (self-play's victim), so that it need not hand it back itself.
    pub fn lend(
        &self,
        registry: &PlayerRegistry,
        spec: &PlayerSpec,
        game: &Game,
        seed: u64,
    ) -> anyhow::Result<Box<dyn Player>> {
        let player = self.take(registry, spec, game, seed)?;
        Ok(Box::new(Lent {
            player: Some(player),
            spec: spec.clone(),
            game: game.clone(),
            home: self.clone(),
        }))
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

/// A player lent by [`KeptPlayers::lend`]: the player itself to its game, kept again when
/// dropped (but in a panic, which may have left it half way through a move).
struct Lent {
    player: Option<Box<dyn Player>>,
    spec: PlayerSpec,
    game: Game,
    home: KeptPlayers,
}

impl Lent {
    fn player(&self) -> &dyn Player {
        self.player.as_deref().expect("lent until dropped")
    }

    fn player_mut(&mut self) -> &mut dyn Player {
        self.player.as_deref_mut().expect("lent until dropped")
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        if let Some(player) = self.player.take()
            && !std::thread::panicking()
        {
            self.home.keep(&self.spec, &self.game, player);
        }
    }
}

impl Player for Lent {
    fn name(&self) -> String {
        self.player().name()
    }

    fn game(&self) -> &Game {
        self.player().game()
    }

    fn is_bound(&self) -> bool {
        self.player().is_bound()
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        self.player_mut().choose(pos, limits)
    }

    fn set_threads(&mut self, threads: usize) -> bool {
        self.player_mut().set_threads(threads)
    }

    fn set_stop(&mut self, stop: Arc<AtomicBool>) -> bool {
        self.player_mut().set_stop(stop)
    }

    fn new_game(&mut self, seed: u64) {
        self.player_mut().new_game(seed);
    }

    fn candidates(&self) -> Vec<Candidate> {
        self.player().candidates()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::RandomPlayer;
    use crate::rules::Variant;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A registry whose `counted` kind counts the players it builds.
    fn counting() -> (PlayerRegistry, Arc<AtomicUsize>) {
        let built = Arc::new(AtomicUsize::new(0));
        let mut registry = PlayerRegistry::classical();
        let count = built.clone();
        registry.register("counted", move |_, _, game, seed| {
            count.fetch_add(1, Ordering::Relaxed);
            Ok(Box::new(RandomPlayer::new(game, seed)))
        });
        (registry, built)
    }

    #[test]
    fn a_lent_player_comes_back_when_dropped_and_plays_as_a_new_one() {
        let (registry, built) = counting();
        let spec: PlayerSpec = "counted".parse().unwrap();
        let game = Game::from(Variant::Kiswahili);
        let start = Position::start(&game);
        let kept = KeptPlayers::new();
        let moves = |seed| {
            let mut player = kept.lend(&registry, &spec, &game, seed).unwrap();
            (0..3)
                .map(|_| player.choose(&start, &Limits::NONE).unwrap().mv)
                .collect::<Vec<_>>()
        };
        let first = moves(7);
        assert_eq!((built.load(Ordering::Relaxed), kept.len()), (1, 1));
        // Lent again, started afresh: the same seed plays the same moves.
        assert_eq!(moves(7), first);
        assert_eq!((built.load(Ordering::Relaxed), kept.len()), (1, 1));
        // Two at once are two players; another game, another one.
        let a = kept.lend(&registry, &spec, &game, 1).unwrap();
        let b = kept.lend(&registry, &spec, &game, 2).unwrap();
        let hus = Game::from(Variant::Hus);
        let c = kept.lend(&registry, &spec, &hus, 3).unwrap();
        assert_eq!(c.game(), &hus);
        drop((a, b, c));
        assert_eq!((built.load(Ordering::Relaxed), kept.len()), (3, 3));
    }
}
