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
//! The search thread is started by the first search and kept for the next ones: a thread per
//! search would cost more than a quick player's whole move (tens of microseconds). A child of
//! `fork` has none of its parent's threads, so a bot there starts its search thread again.
//!
//! The engine (`bao engine`), `bao play`, `bao serve` and Python's `Player` drive a bot.

use super::{Choice, Limits, Player};
use crate::rules::Position;
use anyhow::Context;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

/// The answer to a second caller while a search runs.
pub const BUSY: &str = "a search is running: stop it or wait for its move first";

/// The error of a search whose player panicked (a bug of that player); the bot keeps the
/// player, and a front end may tell this failure from the player's ordinary errors.
#[derive(Debug, thiserror::Error)]
#[error("the player failed: {0}")]
pub struct PlayerPanicked(pub String);

/// What a search hands back: the player and its answer.
type Outcome = (Box<dyn Player>, anyhow::Result<Choice>);

/// A search under way.
struct Search {
    /// This search's own stop flag.
    stop: Arc<AtomicBool>,
    /// Whether the player heeds the flag.
    stoppable: bool,
    /// Set once the answer is sent.
    finished: Arc<AtomicBool>,
    answer: Receiver<Outcome>,
}

/// One search, handed to the search thread.
struct Job {
    player: Box<dyn Player>,
    pos: Position,
    limits: Limits,
    finished: Arc<AtomicBool>,
    answer: Sender<Outcome>,
    /// Called once the answer is sent (to wake a front end's loop).
    done: Box<dyn FnOnce() + Send>,
}

impl Job {
    fn run(self) {
        let Job {
            mut player,
            pos,
            limits,
            finished,
            answer,
            done,
        } = self;
        // A player that panics answers with an error; the bot keeps it.
        let choice = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            player.choose(&pos, &limits)
        }))
        .unwrap_or_else(|panic| Err(PlayerPanicked(why(&panic)).into()));
        // A bot dropped meanwhile takes no answer; the player goes with the job.
        let _ = answer.send((player, choice));
        finished.store(true, Ordering::Release);
        // A `done` that panics (a front end's bug) must not end the thread: the searches sent
        // after it would be lost with it.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(done));
    }
}

/// A search started by [`Bot::start_here`], for the caller to run on its own thread (a turn
/// dropped unrun ends the search with an error, and the player with it).
pub struct Turn(Job);

impl Turn {
    /// Runs the search; its answer is the bot's [`Bot::wait`].
    pub fn run(self) {
        self.0.run();
    }
}

/// A player with its own search thread; see the module's documentation.
pub struct Bot {
    /// The player while no search runs (the search thread holds it meanwhile).
    player: Option<Box<dyn Player>>,
    search: Option<Search>,
    /// The way to the search thread, once started, with the process it was started in.
    jobs: Option<(u32, Sender<Job>)>,
}

impl Bot {
    /// A bot searching with `player`.
    pub fn new(player: Box<dyn Player>) -> Bot {
        Bot {
            player: Some(player),
            search: None,
            jobs: None,
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

    /// Searches with `player` from now on, and hands back the one it replaces (refused while a
    /// search runs).
    pub fn swap_player(&mut self, player: Box<dyn Player>) -> anyhow::Result<Box<dyn Player>> {
        anyhow::ensure!(self.search.is_none(), BUSY);
        self.player.replace(player).context(BUSY)
    }

    /// Whether a search has started and its answer has not been taken yet.
    pub fn is_searching(&self) -> bool {
        self.search.is_some()
    }

    /// Whether the search under way has its answer ready (false when none runs).
    pub fn is_finished(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| s.finished.load(Ordering::Acquire))
    }

    /// Starts a search for `pos` within `limits` on the bot's thread; `done` is called on that
    /// thread once the answer is ready (to wake a front end's loop). Refused while a search runs.
    pub fn start(
        &mut self,
        pos: &Position,
        limits: Limits,
        done: impl FnOnce() + Send + 'static,
    ) -> anyhow::Result<()> {
        let job = self.begin(pos, limits, Box::new(done))?;
        if let Err((player, e)) = self.send(job) {
            self.search = None;
            self.player = Some(player);
            return Err(e);
        }
        Ok(())
    }

    /// Starts a search for `pos` within `limits` that the caller runs on its own thread with
    /// [`Turn::run`], then answers with [`Bot::wait`]: for a front end that waits for the answer
    /// anyway (Python's `Player`, its thread waiting with the GIL released), which saves the
    /// handoff to the bot's thread and back, about as long as a quick player's whole move.
    /// Refused, stopped and kept from panics as [`Bot::start`]'s search.
    pub fn start_here(&mut self, pos: &Position, limits: Limits) -> anyhow::Result<Turn> {
        self.begin(pos, limits, Box::new(|| {})).map(Turn)
    }

    /// The search of `pos` within `limits` as a job, the bot searching meanwhile (refused while
    /// a search runs).
    fn begin(
        &mut self,
        pos: &Position,
        limits: Limits,
        done: Box<dyn FnOnce() + Send>,
    ) -> anyhow::Result<Job> {
        anyhow::ensure!(self.search.is_none(), BUSY);
        let mut player = self.player.take().context(BUSY)?;
        let stop = Arc::new(AtomicBool::new(false));
        let stoppable = player.set_stop(stop.clone());
        let finished = Arc::new(AtomicBool::new(false));
        let (answer, answered) = channel();
        self.search = Some(Search {
            stop,
            stoppable,
            finished: finished.clone(),
            answer: answered,
        });
        Ok(Job {
            player,
            pos: *pos,
            limits,
            finished,
            answer,
            done,
        })
    }

    /// Hands `job` to the search thread, started by the first search; on failure its player
    /// comes back with why.
    fn send(&mut self, job: Job) -> Result<(), (Box<dyn Player>, anyhow::Error)> {
        let pid = std::process::id();
        self.forget_other_process_thread();
        let jobs = match &self.jobs {
            Some((_, jobs)) => jobs,
            None => {
                let (jobs, inbox) = channel::<Job>();
                let spawned = std::thread::Builder::new()
                    .name("bot-search".into())
                    .spawn(move || inbox.into_iter().for_each(Job::run));
                if let Err(e) = spawned {
                    let why = anyhow::anyhow!("cannot start the search thread: {e}");
                    return Err((job.player, why));
                }
                &self.jobs.insert((pid, jobs)).1
            }
        };
        jobs.send(job)
            .map_err(|unsent| (unsent.0.player, anyhow::anyhow!("the search thread failed")))
    }

    /// Lets go of a search thread started by another process (the parent of a `fork`): it
    /// does not exist in this one. Its channel is left as it is, never dropped, since the
    /// thread may have held the channel's locks at the fork.
    fn forget_other_process_thread(&mut self) {
        if let Some((pid, _)) = &self.jobs
            && *pid != std::process::id()
            && let Some((_, stale)) = self.jobs.take()
        {
            std::mem::forget(stale);
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
        Some(match search.answer.recv() {
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
        pos: &Position,
        limits: Limits,
        interrupted: impl Fn() -> bool,
    ) -> anyhow::Result<Choice> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.start(pos, limits, move || {
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
    pub fn choose(&mut self, pos: &Position, limits: Limits) -> anyhow::Result<Choice> {
        self.choose_until(pos, limits, || false)
    }
}

impl Drop for Bot {
    /// A bot dropped mid-search stops it rather than leaving it to run for its whole time; its
    /// thread ends once that search has.
    fn drop(&mut self) {
        self.stop();
        self.forget_other_process_thread();
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
    use crate::players::GreedyPlayer;
    use crate::rules::{Rules, Variant};

    fn game() -> (Rules, Position) {
        let rules = Variant::Kiswahili.rules();
        let pos = Position::start(&rules);
        (rules, pos)
    }

    /// A player that deepens one ply per 100 ms up to its depth limit, and answers at once
    /// when its stop flag is set, as a search does.
    struct Deepening(Rules, Arc<AtomicBool>);

    impl Player for Deepening {
        fn name(&self) -> String {
            "deepening".into()
        }

        fn rules(&self) -> &Rules {
            &self.0
        }

        fn set_stop(&mut self, stop: Arc<AtomicBool>) -> bool {
            self.1 = stop;
            true
        }

        fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
            let mut depth = 0;
            while depth < limits.depth.unwrap_or(u32::MAX) && !self.1.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                depth += 1;
            }
            let mut choice = GreedyPlayer::new(&self.0, 1).choose(pos, &Limits::NONE)?;
            choice.depth = depth;
            Ok(choice)
        }
    }

    fn deep() -> Box<dyn Player> {
        Box::new(Deepening(game().0, Arc::default()))
    }

    #[test]
    fn a_stop_ends_only_the_search_it_was_given_to() {
        let (_, pos) = game();
        let mut bot = Bot::new(deep());
        bot.start(&pos, Limits::depth(60), || {}).unwrap();
        assert!(bot.stop());
        assert!(bot.wait().unwrap().is_ok());
        // The next search has a fresh flag: it runs to its own limit.
        let c = bot.choose(&pos, Limits::depth(2)).unwrap();
        assert_eq!(c.depth, 2);
    }

    #[test]
    fn a_second_caller_is_refused_while_a_search_runs() {
        let (_, pos) = game();
        let mut bot = Bot::new(deep());
        bot.start(&pos, Limits::depth(60), || {}).unwrap();
        let again = bot.start(&pos, Limits::depth(1), || {});
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
        let mut bot = Bot::new(Box::new(GreedyPlayer::new(&rules, 1)));
        bot.start(&pos, Limits::NONE, || {}).unwrap();
        assert!(!bot.stop());
        let c = bot.finish().unwrap().unwrap();
        let mut legal = crate::rules::MoveList::new();
        pos.legal_moves(&rules, &mut legal);
        assert!(legal.find(c.mv).is_some());
    }

    /// A player with a bug: it panics on its first move.
    struct Faulty(bool, Rules);

    impl Player for Faulty {
        fn name(&self) -> String {
            "faulty".into()
        }

        fn rules(&self) -> &Rules {
            &self.1
        }

        fn choose(&mut self, pos: &Position, _: &Limits) -> anyhow::Result<Choice> {
            assert!(std::mem::replace(&mut self.0, true), "a bug");
            GreedyPlayer::new(&self.1, 1).choose(pos, &Limits::NONE)
        }
    }

    #[test]
    fn a_player_that_panics_answers_with_its_own_error_and_plays_on() {
        let (rules, pos) = game();
        let mut bot = Bot::new(Box::new(Faulty(false, rules.clone())));
        let err = bot.choose(&pos, Limits::NONE).unwrap_err();
        let panicked = err
            .downcast_ref::<PlayerPanicked>()
            .expect("a PlayerPanicked");
        assert_eq!(panicked.0, "a bug");
        assert_eq!(err.to_string(), "the player failed: a bug");
        assert!(bot.choose(&pos, Limits::NONE).is_ok());
    }

    /// A player that notes the thread each of its searches runs on.
    struct Noted(Arc<std::sync::Mutex<Vec<std::thread::ThreadId>>>, Rules);

    impl Player for Noted {
        fn name(&self) -> String {
            "noted".into()
        }

        fn rules(&self) -> &Rules {
            &self.1
        }

        fn choose(&mut self, pos: &Position, _: &Limits) -> anyhow::Result<Choice> {
            self.0.lock().unwrap().push(std::thread::current().id());
            GreedyPlayer::new(&self.1, 1).choose(pos, &Limits::NONE)
        }
    }

    #[test]
    fn searches_share_one_thread_which_a_panicking_wake_up_call_does_not_end() {
        let (rules, pos) = game();
        let threads = Arc::default();
        let mut bot = Bot::new(Box::new(Noted(Arc::clone(&threads), rules.clone())));
        bot.choose(&pos, Limits::NONE).unwrap();
        bot.start(&pos, Limits::NONE, || panic!("a front end's bug"))
            .unwrap();
        assert!(bot.wait().unwrap().is_ok());
        for _ in 0..2 {
            bot.choose(&pos, Limits::NONE).unwrap();
        }
        let threads = threads.lock().unwrap();
        assert_eq!(threads.len(), 4);
        assert!(threads.iter().all(|t| *t == threads[0]), "{threads:?}");
        assert_ne!(threads[0], std::thread::current().id());
    }

    #[test]
    fn a_bot_in_a_child_of_fork_starts_its_search_thread_again() {
        let (rules, pos) = game();
        let threads = Arc::default();
        let mut bot = Bot::new(Box::new(Noted(Arc::clone(&threads), rules.clone())));
        bot.choose(&pos, Limits::NONE).unwrap();
        // As a child of `fork` sees it: the search thread was started by another process.
        bot.jobs.as_mut().unwrap().0 = std::process::id().wrapping_add(1);
        bot.choose(&pos, Limits::NONE).unwrap();
        bot.choose(&pos, Limits::NONE).unwrap();
        let threads = threads.lock().unwrap();
        assert_ne!(threads[0], threads[1]);
        assert_eq!(threads[1], threads[2]);
    }

    #[test]
    fn a_search_run_by_the_caller_is_refused_stopped_and_answered_as_the_bots_own() {
        let (rules, pos) = game();
        let threads = Arc::default();
        let mut bot = Bot::new(Box::new(Noted(Arc::clone(&threads), rules.clone())));
        let turn = bot.start_here(&pos, Limits::NONE).unwrap();
        assert_eq!(
            bot.start(&pos, Limits::NONE, || {})
                .unwrap_err()
                .to_string(),
            BUSY
        );
        assert!(bot.player().is_err() && !bot.is_finished());
        turn.run();
        assert!(bot.is_finished());
        assert!(bot.wait().unwrap().is_ok());
        assert_eq!(*threads.lock().unwrap(), [std::thread::current().id()]);
        // A deep search run here ends at the bot's stop, from another thread.
        let mut deep = Bot::new(deep());
        let turn = deep.start_here(&pos, Limits::depth(60)).unwrap();
        let shared = std::sync::Mutex::new(deep);
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(50));
                assert!(shared.lock().unwrap().stop());
            });
            turn.run();
        });
        let c = shared.into_inner().unwrap().wait().unwrap().unwrap();
        assert!(c.depth < 60);
    }

    #[test]
    fn an_interrupted_search_answers_with_its_best_move_so_far() {
        let (_, pos) = game();
        let mut bot = Bot::new(deep());
        let c = bot.choose_until(&pos, Limits::depth(60), || true).unwrap();
        assert!(c.depth < 60);
    }
}
