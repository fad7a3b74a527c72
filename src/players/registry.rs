//! The player registry: the kinds a program can build, each a builder of its players from their
//! specs ([`PlayerSpec`]), for a game.

use super::player::Player;
use super::spec::PlayerSpec;
use crate::rules::Game;
use std::fmt;
use std::sync::Arc;

/// Builds a player of one kind from its spec, for `game` (a player bound to a game
/// of its own builds for that one), with a seed; it gets the whole registry, so that a player
/// built around another (the solver's `else=`) can build that one too.
pub type BuildFn = dyn Fn(&PlayerRegistry, &PlayerSpec, &Game, u64) -> anyhow::Result<Box<dyn Player>>
    + Send
    + Sync;

/// The player kinds a program can build, by the kind named before `:` in a spec. The classical
/// kinds (`random`, `greedy`, `ab`) are always there; a layer that provides more (network players
/// in `players`, say) registers them, and the command line hands the registry to whatever turns
/// specs into players (matches, gauntlets, the engine, training evaluation). A new kind is one
/// [`PlayerRegistry::register`] call.
#[derive(Clone)]
pub struct PlayerRegistry {
    kinds: Vec<(String, Arc<BuildFn>)>,
}

impl std::fmt::Debug for PlayerRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.kinds()).finish()
    }
}

impl PlayerRegistry {
    /// A registry of no kinds, for a layer to register its kinds in
    /// (`PlayerRegistry::classical` in `search` holds the classical ones).
    pub fn empty() -> PlayerRegistry {
        PlayerRegistry { kinds: Vec::new() }
    }

    /// Adds (or replaces) the builder of the players of `kind`.
    pub fn register(
        &mut self,
        kind: &str,
        build: impl Fn(&PlayerRegistry, &PlayerSpec, &Game, u64) -> anyhow::Result<Box<dyn Player>>
        + Send
        + Sync
        + 'static,
    ) {
        let kind = kind.to_ascii_lowercase();
        self.kinds.retain(|(k, _)| *k != kind);
        self.kinds.push((kind, Arc::new(build)));
    }

    /// The kinds known, in registration order.
    pub fn kinds(&self) -> Vec<&str> {
        self.kinds.iter().map(|(k, _)| k.as_str()).collect()
    }

    /// Whether a builder of `spec`'s kind is registered.
    pub fn knows(&self, spec: &PlayerSpec) -> bool {
        let kind = spec.kind();
        self.kinds.iter().any(|(k, _)| k == kind)
    }

    /// A fresh player from `spec` for `game`, seeded (the seed drives any randomness
    /// it has). A player bound to a game of its own (a trained network) plays that one: where
    /// the game is fixed, `players::check_players` refuses it, once, before any move.
    pub fn build(
        &self,
        spec: &PlayerSpec,
        game: &Game,
        seed: u64,
    ) -> anyhow::Result<Box<dyn Player>> {
        let kind = spec.kind();
        match self.kinds.iter().find(|(k, _)| k == kind) {
            Some((_, build)) => build(self, spec, game, seed),
            None => {
                let hint = if matches!(spec, PlayerSpec::Mcts(_) | PlayerSpec::File(_)) {
                    " (network players need the ml feature)"
                } else {
                    ""
                };
                anyhow::bail!(
                    "unknown player kind `{kind}` in `{spec}`{hint}; known kinds: {}",
                    self.kinds().join(", ")
                )
            }
        }
    }

    /// Reads a spec and builds its player for `game` (as [`PlayerRegistry::build`]):
    /// the one parse-then-resolve of the program.
    pub fn resolve(
        &self,
        text: &str,
        game: &Game,
        seed: u64,
    ) -> anyhow::Result<(PlayerSpec, Box<dyn Player>)> {
        let spec: PlayerSpec = text.parse()?;
        let player = self.build(&spec, game, seed)?;
        Ok((spec, player))
    }
}
