//! An opponent model: the player a search assumes it faces. Where the modelled side is to move,
//! the tree holds only the move that player makes there, so the search looks for lines that beat
//! that player in particular rather than moves good against every reply (the adversarial MCTS
//! of Wang et al., "Adversarial Policies Beat Superhuman Go AIs", 2023). An exploiter searches
//! with its victim as the model; against any other opponent the model would mislead it.

use crate::players::{Limits, Player};
use crate::rules::{MoveList, Position};
use std::fmt;
use std::sync::Mutex;

/// A player asked, during a search, what it would play in the tree's positions.
pub struct OpponentModel {
    player: Mutex<Box<dyn Player>>,
    limits: Limits,
    /// The first failure (an error, or a move that is not legal), kept for the searcher to report.
    failure: Mutex<Option<String>>,
}

impl OpponentModel {
    /// `player` as the model, asked with `limits` a move.
    pub fn new(player: Box<dyn Player>, limits: Limits) -> OpponentModel {
        OpponentModel {
            player: Mutex::new(player),
            limits,
            failure: Mutex::new(None),
        }
    }

    /// The model's name (its player's).
    pub fn name(&self) -> String {
        self.lock_player().name()
    }

    /// Starts a new game: the model's player is reseeded as a player is at each game.
    pub fn new_game(&self, seed: u64) {
        self.lock_player().new_game(seed);
    }

    /// The index in `moves` (the legal moves of `pos`) of the model's move; `None`, with the
    /// failure kept, when it fails or names a move that is not legal (the search then tries
    /// every move there).
    pub(crate) fn reply(&self, pos: &Position, moves: &MoveList) -> Option<usize> {
        let choice = self.lock_player().choose(pos, &self.limits);
        let found = match choice {
            Ok(c) => moves
                .iter()
                .position(|(mv, _)| mv == c.mv)
                .ok_or_else(|| "the opponent model played an illegal move".to_string()),
            Err(e) => Err(format!("the opponent model failed: {e}")),
        };
        found
            .map_err(|why| {
                self.failure
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get_or_insert(why);
            })
            .ok()
    }

    /// The first failure since the last call, if any.
    pub fn take_failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    fn lock_player(&self) -> std::sync::MutexGuard<'_, Box<dyn Player>> {
        // A panic while choosing leaves the player as it was: its state is still usable.
        self.player.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl fmt::Debug for OpponentModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpponentModel")
            .field("player", &self.name())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::{MctsPlayer, PlaySettings, SelfPlaySearch, Tree, UniformInference};
    use crate::players::Choice;
    use crate::rules::{Game, Side, Variant};
    use rand::SeedableRng;
    use std::sync::Arc;

    /// Plays the last legal move, or fails when `fails`.
    struct LastMove {
        game: Game,
        fails: bool,
    }

    impl Player for LastMove {
        fn name(&self) -> String {
            "last".into()
        }
        fn game(&self) -> &Game {
            &self.game
        }
        fn choose(&mut self, pos: &Position, _: &Limits) -> anyhow::Result<Choice> {
            anyhow::ensure!(!self.fails, "out of order");
            let mut list = MoveList::new();
            pos.legal_moves(self.game.rules(), &mut list);
            let mv = *list.moves().last().expect("a legal move");
            Ok(Choice {
                mv,
                eval: None,
                pv: vec![mv],
                nodes: 1,
                depth: 0,
            })
        }
    }

    fn last_move(game: &Game, fails: bool) -> OpponentModel {
        let player = LastMove {
            game: game.clone(),
            fails,
        };
        OpponentModel::new(Box::new(player), Limits::NONE)
    }

    #[test]
    fn where_the_modelled_side_is_to_move_only_the_models_move_is_searched() {
        let game = Game::from(Variant::Kujifunza);
        let start = Position::start(&game);
        let mut tree = Tree::new(start);
        tree.set_model(Some((Arc::new(last_move(&game, false)), Side::North)));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let cfg = SelfPlaySearch::default();
        crate::mcts::search(&mut tree, &game, &UniformInference, &cfg, 400, &mut rng);
        let nodes = tree.expanded_nodes();
        let (mut modelled, mut free) = (0, 0);
        for (pos, children) in &nodes {
            let mut list = MoveList::new();
            pos.legal_moves(&game, &mut list);
            if pos.side_to_move() == Side::North {
                assert_eq!(children, &[*list.moves().last().unwrap()]);
                modelled += 1;
            } else {
                assert_eq!(children.len(), list.len(), "South searches every move");
                free += 1;
            }
        }
        assert!(
            modelled > 10 && free > 10,
            "{modelled} modelled, {free} free nodes"
        );
    }

    #[test]
    fn a_model_that_fails_fails_the_players_move_in_one_line() {
        let game = Game::from(Variant::Kujifunza);
        let mut player = MctsPlayer::new(
            "exploiter",
            &game,
            Arc::new(UniformInference),
            &PlaySettings::default(),
            50,
        )
        .with_model(last_move(&game, true));
        let err = player
            .choose(&Position::start(&game), &Limits::NONE)
            .unwrap_err()
            .to_string();
        assert_eq!(err, "the opponent model failed: out of order");
    }
}
