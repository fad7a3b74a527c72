//! [`LoadedPlayer`]: a player file (or a training run's network) as a [`Player`].

use crate::mcts::{Inference, MctsPlayer, OpponentModel};
use crate::player_file::{Bundle, Header};
use crate::players::{Candidate, Choice, Limits, Player, PlayerSpec};
use crate::rules::{Game, Position};
use anyhow::Context;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A loaded player: ask it for moves on any position of its variant. It is a [`Player`] too, so
/// arenas and `bao play` use it like any other.
pub struct LoadedPlayer {
    /// The file's header.
    pub header: Header,
    player: MctsPlayer,
}

impl LoadedPlayer {
    /// Loads a player file.
    pub fn load(path: &Path) -> anyhow::Result<LoadedPlayer> {
        let bundle = Bundle::read(path)?;
        let eval: Arc<dyn Inference> = Arc::new(
            bundle
                .inference()
                .with_context(|| format!("bad player file {}", path.display()))?,
        );
        LoadedPlayer::new(
            bundle.header,
            eval,
            PlayerSpec::File(path.to_path_buf()).to_string(),
        )
    }

    /// A player from a header and its network (shared, e.g. between the games of an arena),
    /// searching with the header's play settings; an error if the header's rules make no game.
    pub fn new(
        header: Header,
        eval: Arc<dyn Inference>,
        name: String,
    ) -> anyhow::Result<LoadedPlayer> {
        let game = header.game()?;
        let player = MctsPlayer::new(name, &game, eval, &header.search, header.sims).bound();
        Ok(LoadedPlayer { header, player })
    }

    /// Searches assuming its opponent plays as `model` does (`MctsPlayer::with_model`).
    pub fn with_model(mut self, model: OpponentModel) -> Self {
        self.player = self.player.with_model(model);
        self
    }

    /// Leaves per batched evaluation (0: chosen from the budget; `MctsPlayer::with_batch`).
    pub fn with_batch(mut self, batch: usize) -> Self {
        self.player = self.player.with_batch(batch);
        self
    }
}

impl Player for LoadedPlayer {
    fn name(&self) -> String {
        self.player.name()
    }

    fn game(&self) -> &Game {
        self.player.game()
    }

    fn is_bound(&self) -> bool {
        true
    }

    /// The file's simulations a move.
    fn default_budget(&self) -> String {
        self.player.default_budget()
    }

    /// Node limits count simulations; with none, the file's simulations per move. An error if
    /// the game is over or the position does not fit the player's rules.
    fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        self.player.choose(pos, limits)
    }

    fn new_game(&mut self, seed: u64) {
        self.player.new_game(seed);
    }

    fn set_threads(&mut self, threads: usize) -> bool {
        self.player.set_threads(threads)
    }

    fn set_stop(&mut self, stop: Arc<AtomicBool>) -> bool {
        self.player.set_stop(stop)
    }

    fn candidates(&self) -> Vec<Candidate> {
        self.player.candidates()
    }
}
