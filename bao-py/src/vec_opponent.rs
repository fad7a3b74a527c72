//! The opponent of `bao_zero.gym_vector.BaoVectorEnv`, played inside the Rust batch: one player
//! per game, built from a player spec by the registry every front end uses, and its moves chosen
//! for every game where it is to move at once, on the env's pool with the GIL released.
//!
//! Each game's player starts every episode with `new_game(episode_seed(seed, i, e))`, the seed
//! that episode's `Env.reset` takes, as `bao_zero/Bao-v0` starts its opponent with its game's
//! seed: the games do not depend on the threads, and the same seed gives the same games.

use bao_zero::env::{VecEnv, episode_seed, move_to_action};
use bao_zero::players::{Limits, Player, PlayerSpec};
use bao_zero::rules::Game;
use rayon::prelude::*;
use std::sync::Mutex;

/// One game's opponent, with the episode it was last started on.
struct Seat {
    player: Box<dyn Player>,
    episode: Option<u64>,
}

/// The opponents of every game of a `VecEnv`, built from one spec.
pub(crate) struct Opponents {
    /// The spec as given (pickles carry it, and the copy builds its players again).
    spec: String,
    /// One seat per game. A player need not be `Sync`; the `Mutex` makes the seats so (a Python
    /// object must be), and every use holds them exclusively anyway (`get_mut`).
    seats: Mutex<Vec<Seat>>,
}

impl Opponents {
    /// `n` players of `spec` for `game`; one line says why not (a bad spec, one that does not
    /// load, or a player bound to another game).
    pub(crate) fn build(spec: &str, game: &Game, n: usize) -> anyhow::Result<Opponents> {
        let parsed: PlayerSpec = spec.parse()?;
        let registry = crate::players();
        let seats = (0..n)
            .map(|i| {
                let player = registry.build(&parsed, game, i as u64)?;
                if i == 0 {
                    bao_zero::players::check_players(game, &[player.as_ref()])
                        .map_err(|e| anyhow::anyhow!("opponent `{spec}`: {e}"))?;
                }
                Ok(Seat {
                    player,
                    episode: None,
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Opponents {
            spec: spec.to_string(),
            seats: Mutex::new(seats),
        })
    }

    /// The seats, exclusively ours through `&mut self` (a panic in a player leaves them whole:
    /// a seat is a player and a number).
    fn seats_mut(&mut self) -> &mut Vec<Seat> {
        self.seats.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    /// The spec the players were built from.
    pub(crate) fn spec(&self) -> &str {
        &self.spec
    }

    /// Every game starts again from its first episode: each player is started afresh at its
    /// next move.
    pub(crate) fn restart(&mut self) {
        for seat in self.seats_mut() {
            seat.episode = None;
        }
    }

    /// Writes into `out[i]` the opponent's action in each game `i` that `moving` marks (the
    /// others' entries are left alone), in parallel on the caller's pool (outside any pool, one
    /// after another). An error names the game and the player that failed.
    pub(crate) fn choose(
        &mut self,
        venv: &VecEnv,
        moving: &[bool],
        out: &mut [i64],
    ) -> anyhow::Result<()> {
        let base = venv.base_seed();
        let episodes = venv.episodes();
        let choose = |(i, (seat, action)): (usize, (&mut Seat, &mut i64))| {
            let env = venv.env(i).expect("one seat per environment");
            let episode = episodes[i];
            if seat.episode != Some(episode) {
                seat.player.new_game(episode_seed(base, i, episode));
                seat.episode = Some(episode);
            }
            let pos = env.state();
            let choice = seat.player.choose(pos, &Limits::NONE).map_err(|e| {
                anyhow::anyhow!("the opponent {} in game {i}: {e:#}", seat.player.name())
            })?;
            *action = move_to_action(pos, choice.mv) as i64;
            Ok(())
        };
        let seats = self.seats_mut();
        // Outside any pool (a one-thread batch), on the caller's thread, as the `VecEnv` steps.
        if !bao_zero::pool::in_pool() {
            return (seats.iter_mut().zip(out.iter_mut()).enumerate())
                .filter(|(i, _)| moving[*i])
                .try_for_each(choose);
        }
        (seats.par_iter_mut().zip(out.par_iter_mut()).enumerate())
            .filter(|(i, _)| moving[*i])
            .try_for_each(choose)
    }
}
