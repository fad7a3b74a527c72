//! A player driven by a front end. [`Bot`] owns the player, the thread it searches on and the
//! flag that stops it, so that the questions every front end meets are answered here once:
//!
//! - **stop**: [`Bot::stop`] ends the search under way (the player answers with its best move so
//!   far); each search has a flag of its own, so a stop meant for one search never reaches the
//!   next.
//! - **the end of input**: [`Bot::finish`] stops a player that can be stopped and waits for the
//!   answer of one that cannot, so a search is always answered.
//! - **two callers at once**: a second search, or a change of player, while one runs is refused
//!   with [`BUSY`] instead of waiting or sharing the player.
//!
//! The engine (`bao engine`), `bao play` and `bao serve` drive a bot.

use super::{Choice, Limits, Player};
use crate::rules::{Position, Rules};
use anyhow::Context;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// The answer to a second caller while a search runs.
pub const BUSY: &str = "a search is running: stop it or wait for its move first";

/// What a search thread hands back: the player and its answer.
type Outcome = (Box<dyn Player>, anyhow::Result<Choice>);

/// A search under way.
struct Search {
    /// This search's own stop flag.
    stop: Arc<AtomicBool>,
    /// Whether the player heeds the flag.
    stoppable: bool,
    thread: JoinHandle<Outcome>,
}

/// A player with its own search thread; see the module's documentation.
pub struct Bot {
    /// The player while no search runs (the search thread holds it meanwhile).
    player: Option<Box<dyn Player>>,
    search: Option<Search>,
}

impl Bot {
    /// A bot searching with `player`.
    pub fn new(player: Box<dyn Player>) -> Bot {
        Bot {
            player: Some(player),
            search: None,
        }
    }

    /// The player, while no search runs.
    pub fn player(&self) -> anyhow::Result<&dyn Player> {
        self.player.as_deref().context(BUSY)
    }

    /// The player, to change its settings, while no search runs.
    pub fn player_mut(&mut self) -> anyhow::Result<&mut (dyn Player + 'static)> {
        self.player.as_deref_mut().context(BUSY)
    }

    /// Searches with `player` from now on (refused while a search runs).
    pub fn set_player(&mut self, player: Box<dyn Player>) -> anyhow::Result<()> {
        anyhow::ensure!(self.search.is_none(), BUSY);
        self.player = Some(player);
        Ok(())
    }

    /// Whether a search has started and its answer has not been taken yet.
    pub fn is_searching(&self) -> bool {
        self.search.is_some()
    }

    /// Whether the search under way has its answer ready (false when none runs).
    pub fn is_finished(&self) -> bool {
        self.search.as_ref().is_some_and(|s| s.thread.is_finished())
    }

    /// Starts a search for `pos` within `limits` on the bot's thread; `done` is called on that
    /// thread once the answer is ready (to wake a front end's loop). Refused while a search runs.
    pub fn start(
        &mut self,
        rules: &Rules,
        pos: &Position,
        limits: Limits,
        done: impl FnOnce() + Send + 'static,
    ) -> anyhow::Result<()> {
        anyhow::ensure!(self.search.is_none(), BUSY);
        let mut player = self.player.take().context(BUSY)?;
        let stop = Arc::new(AtomicBool::new(false));
        let stoppable = player.set_stop(stop.clone());
        let (rules, pos) = (rules.clone(), *pos);
        let spawned = std::thread::Builder::new()
            .name("bot-search".into())
            .spawn(move || {
                // A player that panics answers with an error; the bot keeps it.
                let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    player.choose(&rules, &pos, &limits)
                }))
                .unwrap_or_else(|panic| Err(anyhow::anyhow!("the player failed: {}", why(&panic))));
                done();
                (player, answer)
            });
        match spawned {
            Ok(thread) => {
                self.search = Some(Search {
                    stop,
                    stoppable,
                    thread,
                });
                Ok(())
            }
            Err(e) => Err(anyhow::anyhow!("cannot start the search thread: {e}")),
        }
    }

    /// Asks the search under way to end with its best move so far; whether it heeds the request
    /// (false when no search runs, or the player cannot stop early).
    pub fn stop(&self) -> bool {
        match &self.search {
            Some(s) => {
                s.stop.store(true, Ordering::Relaxed);
                s.stoppable
            }
            None => false,
        }
    }

    /// The answer of the search under way, waiting for it; `None` when no search was started.
    pub fn wait(&mut self) -> Option<anyhow::Result<Choice>> {
        let search = self.search.take()?;
        Some(match search.thread.join() {
            Ok((player, answer)) => {
                self.player = Some(player);
                answer
            }
            // The thread catches the player's panics; this is a panic of the thread itself.
            Err(_) => Err(anyhow::anyhow!("the search thread failed")),
        })
    }

    /// The end of input: the search under way ends (at once where the player can stop, else
    /// within its limits), and its answer is still given.
    pub fn finish(&mut self) -> Option<anyhow::Result<Choice>> {
        self.stop();
        self.wait()
    }

    /// The player's move in `pos` within `limits`, searched on the bot's thread; the search is
    /// stopped early once `interrupted` says so (polled every few milliseconds).
    pub fn choose_until(
        &mut self,
        rules: &Rules,
        pos: &Position,
        limits: Limits,
        interrupted: impl Fn() -> bool,
    ) -> anyhow::Result<Choice> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.start(rules, pos, limits, move || {
            let _ = tx.send(());
        })?;
        let mut stopped = false;
        while rx.recv_timeout(Duration::from_millis(20)).is_err() && !self.is_finished() {
            if !stopped && interrupted() {
                self.stop();
                stopped = true;
            }
        }
        self.wait().unwrap_or_else(|| Err(anyhow::anyhow!(BUSY)))
    }

    /// The player's move in `pos` within `limits`.
    pub fn choose(
        &mut self,
        rules: &Rules,
        pos: &Position,
        limits: Limits,
    ) -> anyhow::Result<Choice> {
        self.choose_until(rules, pos, limits, || false)
    }
}

impl Drop for Bot {
    /// A bot dropped mid-search stops it rather than leaving it to run for its whole time.
    fn drop(&mut self) {
        self.stop();
    }
}

/// The message of a panic.
fn why(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use crate::search::{AlphaBeta, GreedyPlayer};

    fn game() -> (Rules, Position) {
        let rules = Variant::Kiswahili.rules();
        let pos = Position::start(&rules);
        (rules, pos)
    }

    fn deep() -> Box<dyn Player> {
        Box::new(AlphaBeta::new(Default::default()))
    }

    #[test]
    fn a_stop_ends_only_the_search_it_was_given_to() {
        let (rules, pos) = game();
        let mut bot = Bot::new(deep());
        bot.start(&rules, &pos, Limits::depth(60), || {}).unwrap();
        assert!(bot.stop());
        assert!(bot.wait().unwrap().is_ok());
        // The next search has a fresh flag: it runs to its own limit.
        let c = bot.choose(&rules, &pos, Limits::depth(2)).unwrap();
        assert_eq!(c.depth, 2);
    }

    #[test]
    fn a_second_caller_is_refused_while_a_search_runs() {
        let (rules, pos) = game();
        let mut bot = Bot::new(deep());
        bot.start(&rules, &pos, Limits::depth(60), || {}).unwrap();
        let again = bot.start(&rules, &pos, Limits::depth(1), || {});
        assert_eq!(again.unwrap_err().to_string(), BUSY);
        assert!(bot.player().is_err());
        assert!(bot.set_player(deep()).is_err());
        assert!(bot.finish().unwrap().is_ok());
        assert!(bot.player().is_ok() && !bot.is_searching());
        assert!(bot.wait().is_none());
    }

    #[test]
    fn the_end_of_input_answers_a_player_that_cannot_stop() {
        let (rules, pos) = game();
        let mut bot = Bot::new(Box::new(GreedyPlayer::new(1)));
        bot.start(&rules, &pos, Limits::NONE, || {}).unwrap();
        assert!(!bot.stop());
        let c = bot.finish().unwrap().unwrap();
        let mut legal = crate::rules::MoveList::new();
        pos.legal_moves(&rules, &mut legal);
        assert!(legal.find(c.mv).is_some());
    }

    #[test]
    fn an_interrupted_search_answers_with_its_best_move_so_far() {
        let (rules, pos) = game();
        let mut bot = Bot::new(deep());
        let c = bot
            .choose_until(&rules, &pos, Limits::depth(60), || true)
            .unwrap();
        assert!(c.depth < 60);
    }
}
