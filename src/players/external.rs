//! A player in another process: any program that speaks the `bao engine` line protocol (for
//! example a `bao` binary built from an older commit, so that a frozen baseline can be played).
//!
//! Each move sends `position text POSITION` and `go` with the limits, and reads `bestmove`.
//! Every line the engine writes is read by the command it answers: a `stop` is sent only while
//! a `go` is under way, and one that may have arrived after the `bestmove` (which an older
//! `bao engine` answers with an `error` line of its own) is settled with `isready` before the
//! next command.

use super::player::{Choice, Limits, Player};
use crate::notation::MoveSpec;
use crate::rules::{Game, MoveList, Position, Rules, Variant};
use anyhow::{Context, bail};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// How long an engine may take to answer a command, and a move beyond its time limit (a move
/// without one may take [`MOVE_WITHOUT_TIME`]). `BAO_ENGINE_TIMEOUT_S` sets it, and then also
/// the wait for a move without a time limit.
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a move without a time limit may take.
const MOVE_WITHOUT_TIME: Duration = Duration::from_secs(3600);

/// The longest a reply line may be: an engine that sends more without a newline is broken.
const MAX_LINE: u64 = 1 << 20;

/// A line the engine wrote, or how its output ended.
enum Output {
    Line(String),
    End(Option<std::io::Error>),
}

/// A `bao engine` process playing as a [`Player`]. Every wait for it is bounded; an engine that
/// does not answer in time is killed, and one that exits is reported with its status. The
/// process dies with this value (and, on Linux, with this program).
pub struct ExternalEngine {
    name: String,
    program: PathBuf,
    child: Child,
    /// Lines to the engine's stdin, written by a thread of their own (see [`writer`]).
    to_engine: Option<Sender<String>>,
    from_engine: Receiver<Output>,
    /// Why the engine can no longer be used, once it cannot.
    dead: Option<String>,
    /// The game, one of the presets.
    game: Game,
    variant: Variant,
    /// Whether the engine was told the variant (at the first move).
    told_variant: bool,
    /// Set by whoever wants the current move now: the engine is told `stop`.
    stop: Option<Arc<AtomicBool>>,
    /// Whether a `stop` was sent since the engine last showed that it has answered everything:
    /// it may still owe a line for it, read by [`ExternalEngine::settle`] before the next command.
    stop_unsettled: bool,
    reply_timeout: Duration,
    move_without_time: Duration,
}

/// The words of an `engine:` program text: split at whitespace, where a word may hold spaces
/// inside single or double quotes (`'my dir/bao'`, `"a b"`; no escapes). An unclosed quote or
/// no word at all is an error.
pub fn command_words(text: &str) -> anyhow::Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_default().push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_default();
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_default().push(c),
        }
    }
    if let Some(q) = quote {
        bail!(
            "the engine program `{}` leaves a {q} open",
            super::excerpt(text, 80)
        );
    }
    words.extend(word);
    anyhow::ensure!(
        !words.is_empty(),
        "`engine:` needs a program: engine:PROGRAM[,player=SPEC]"
    );
    Ok(words)
}

/// Starts `PROGRAM [ARGS...] engine` (the words of `command`) with piped stdin and stdout, in a
/// process group of its own (so that [`end_process`] ends what a wrapper script starts too).
/// Called on the thread that reads its output: on Linux the child is killed when the thread that
/// started it ends, and that thread lives as long as the child's output.
fn spawn(command: &[String]) -> std::io::Result<Child> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| std::io::Error::other("no program"))?;
    let mut cmd = Command::new(program);
    cmd.args(args)
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl is async-signal-safe and touches nothing of the parent's.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    cmd.spawn()
}

/// Kills the engine's process group (the engine and whatever it started that did not leave the
/// group), then reaps the engine.
fn end_process(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill touches no memory. The group is the engine's own (see `spawn`); while the
        // engine is unreaped, or any process of its group lives, its id names no other group.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Writes the lines it receives to the engine's stdin until one fails. SIGPIPE is blocked on
/// this thread, so that writing to an engine that exited is an error here rather than the end
/// of the whole program (which restores SIGPIPE's default action for its own output).
fn writer(mut stdin: ChildStdin, lines: Receiver<String>) {
    #[cfg(unix)]
    // SAFETY: the set is initialized by sigemptyset before use; the mask is this thread's own.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
    for line in lines {
        if writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Starts the engine on a reader thread, which then sends its output lines to `out`.
fn start_reader(command: Vec<String>, out: Sender<Output>) -> anyhow::Result<Child> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("engine-reader".into())
        .spawn(move || {
            let mut child = match spawn(&command) {
                Ok(c) => c,
                Err(e) => return drop(tx.send(Err(e))),
            };
            let Some(stdout) = child.stdout.take() else {
                return;
            };
            if tx.send(Ok(child)).is_err() {
                return;
            }
            let mut stdout = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                let end =
                    match std::io::Read::take(&mut stdout, MAX_LINE).read_until(b'\n', &mut line) {
                        Ok(0) => Some(None),
                        Ok(_) if !line.ends_with(b"\n") && line.len() as u64 >= MAX_LINE => {
                            Some(Some(std::io::Error::other("a line longer than 1 MiB")))
                        }
                        Ok(_) => None,
                        Err(e) => Some(Some(e)),
                    };
                let msg = match end {
                    Some(e) => Output::End(e),
                    None => Output::Line(String::from_utf8_lossy(&line).trim_end().to_string()),
                };
                let last = matches!(msg, Output::End(_));
                if out.send(msg).is_err() || last {
                    return;
                }
            }
        })
        .context("cannot start a thread")?;
    Ok(rx.recv().context("the engine's reader thread ended")??)
}

/// The wait for a reply, from `BAO_ENGINE_TIMEOUT_S` or the default.
fn reply_timeouts() -> (Duration, Duration) {
    match std::env::var("BAO_ENGINE_TIMEOUT_S")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
    {
        Some(t) => (t, t),
        None => (REPLY_TIMEOUT, MOVE_WITHOUT_TIME),
    }
}

impl ExternalEngine {
    /// Starts `program engine` to play `game` (a preset: the protocol names a game by
    /// its variant), then `player SPEC` if a player spec is given.
    pub fn start(
        program: &Path,
        player: Option<&str>,
        name: String,
        game: &Game,
    ) -> anyhow::Result<Self> {
        let command = vec![program.to_string_lossy().into_owned()];
        Self::start_command(&command, player, name, game)
    }

    /// Starts `PROGRAM [ARGS...] engine`, the words of `command` (see [`command_words`]), as
    /// [`ExternalEngine::start`] does.
    pub fn start_command(
        command: &[String],
        player: Option<&str>,
        name: String,
        game: &Game,
    ) -> anyhow::Result<Self> {
        let variant = game
            .variant()
            .context("an external engine plays the preset rule sets only")?;
        let program = PathBuf::from(command.join(" "));
        let (out_tx, from_engine) = std::sync::mpsc::channel();
        let mut child = start_reader(command.to_vec(), out_tx)
            .with_context(|| format!("cannot start the engine {}", program.display()))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let (to_engine, lines) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("engine-writer".into())
            .spawn(move || writer(stdin, lines))
            .context("cannot start a thread")?;
        let (reply_timeout, move_without_time) = reply_timeouts();
        let mut engine = ExternalEngine {
            name,
            program,
            child,
            to_engine: Some(to_engine),
            from_engine,
            dead: None,
            game: game.clone(),
            variant,
            told_variant: false,
            stop: None,
            stop_unsettled: false,
            reply_timeout,
            move_without_time,
        };
        let hello = engine.read_line("its greeting", reply_timeout, false)?;
        if !hello.contains("engine ready") {
            let said = super::excerpt(&hello, 80);
            bail!(
                "{} is not a bao engine: it said `{said}`",
                engine.program.display()
            );
        }
        if let Some(spec) = player {
            engine.ask(&format!("player {spec}"))?;
        }
        Ok(engine)
    }

    /// The next line the engine writes, waiting at most `timeout` for it; `doing` names what
    /// was asked, for the messages. With `searching` (the wait for a `go`), the engine is told
    /// `stop` once the stop flag is set.
    fn read_line(
        &mut self,
        doing: &str,
        timeout: Duration,
        searching: bool,
    ) -> anyhow::Result<String> {
        if let Some(why) = &self.dead {
            bail!("{why}");
        }
        let deadline = Instant::now() + timeout;
        let mut stop_sent = !searching;
        loop {
            if !stop_sent
                && self
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                stop_sent = true;
                self.stop_unsettled = true;
                self.send("stop");
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(self.kill(format!(
                    "gave no answer to {doing} in {:.1} s: stopped it",
                    timeout.as_secs_f64()
                )));
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            match self.from_engine.recv_timeout(slice) {
                Ok(Output::Line(line)) => return Ok(line),
                Ok(Output::End(error)) => return Err(self.ended(doing, error)),
                Err(RecvTimeoutError::Disconnected) => return Err(self.ended(doing, None)),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Reads whatever a `stop` sent during a `go` may have left (the engine may have answered
    /// the `go` before it read the `stop`, and an older `bao engine` answers such a `stop` with
    /// an `error` line): sends `isready` and reads every line up to its answer, `readyok`, or
    /// the `error` of an engine that does not know `isready`.
    fn settle(&mut self) -> anyhow::Result<()> {
        if !self.stop_unsettled {
            return Ok(());
        }
        // On an error the engine is gone: nothing is owed any more.
        self.stop_unsettled = false;
        self.send("isready");
        let deadline = Instant::now() + self.reply_timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.read_line("`isready`", left, false)?;
            if line == "readyok" || line.starts_with("error unknown command `isready`") {
                return Ok(());
            }
        }
    }

    /// Hands a line to the writer thread (a failed write shows as the end of the output).
    fn send(&mut self, line: &str) {
        if let Some(tx) = &self.to_engine {
            let _ = tx.send(line.to_string());
        }
    }

    /// The error for an engine whose output ended: it exited (with its status) or closed it.
    fn ended(&mut self, doing: &str, error: Option<std::io::Error>) -> anyhow::Error {
        let deadline = Instant::now() + Duration::from_secs(1);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => break None,
            }
        };
        let why = match (status, error) {
            (Some(s), _) => format!("exited ({s}) before answering {doing}"),
            (None, Some(e)) => format!("could not be read ({e}) before answering {doing}"),
            (None, None) => format!("closed its output before answering {doing}"),
        };
        self.kill(why)
    }

    /// Kills the engine and remembers why it is gone; the error says so.
    fn kill(&mut self, why: String) -> anyhow::Error {
        end_process(&mut self.child);
        self.to_engine = None;
        let text = format!("the engine {} {why}", self.program.display());
        self.dead = Some(text.clone());
        anyhow::anyhow!(text)
    }

    /// Sends one command and returns its one-line reply; an `error` reply is an error.
    fn ask(&mut self, command: &str) -> anyhow::Result<String> {
        let timeout = self.reply_timeout;
        self.ask_within(command, timeout, false)
    }

    /// Sends one command, once every line owed to the ones before is read, and returns its
    /// reply, waiting at most `timeout`; `searching` for a `go` (see [`Self::read_line`]).
    fn ask_within(
        &mut self,
        command: &str,
        timeout: Duration,
        searching: bool,
    ) -> anyhow::Result<String> {
        if let Some(why) = &self.dead {
            bail!("{why}");
        }
        self.settle()?;
        self.send(command);
        let what = super::excerpt(command, 80);
        let reply = self.read_line(&format!("`{what}`"), timeout, searching)?;
        if let Some(why) = reply.strip_prefix("error") {
            bail!("the engine refused `{what}`:{why}");
        }
        Ok(reply)
    }
}

impl Player for ExternalEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn game(&self) -> &Game {
        &self.game
    }

    /// With no limits it is sent a bare `go`: the engine's own default decides.
    fn default_budget(&self) -> String {
        "the engine's own (a bare `go`)".into()
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        if !self.told_variant {
            self.ask(&format!("variant {}", self.variant.name()))?;
            self.told_variant = true;
        }
        self.ask(&format!("position text {pos}"))?;
        let mut go = String::from("go");
        if let Some(n) = limits.nodes {
            go += &format!(" nodes {n}");
        }
        if let Some(d) = limits.depth {
            go += &format!(" depth {d}");
        }
        if let Some(t) = limits.time {
            go += &format!(" movetime {}", t.as_millis().max(1));
        }
        let timeout = match limits.time {
            Some(t) => t.saturating_add(self.reply_timeout),
            None => self.move_without_time,
        };
        let reply = self.ask_within(&go, timeout, true)?;
        parse_bestmove(&self.game, pos, &reply)
            .with_context(|| format!("the engine answered `{}`", super::excerpt(&reply, 80)))
    }

    fn set_stop(&mut self, stop: Arc<AtomicBool>) -> bool {
        self.stop = Some(stop);
        true
    }

    /// The engine's next `variant` starts its new game (the protocol has no seed to pass on).
    fn new_game(&mut self, _seed: u64) {
        self.told_variant = false;
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        // A dead engine was ended with its group when it died (its id may name another now).
        if self.dead.is_some() {
            return;
        }
        self.send("quit");
        // Give it a moment to quit by itself, then make sure it is gone, with its group: a
        // wrapper that quit may leave what it started.
        let deadline = Instant::now() + Duration::from_millis(100);
        while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.to_engine = None;
        end_process(&mut self.child);
    }
}

/// Reads `bestmove M value V nodes N depth D pv M...` in `pos`.
fn parse_bestmove(rules: &Rules, pos: &Position, reply: &str) -> anyhow::Result<Choice> {
    let words: Vec<&str> = reply.split_whitespace().collect();
    let field = |name: &str| {
        words
            .iter()
            .position(|w| *w == name)
            .and_then(|i| words.get(i + 1))
            .copied()
    };
    let text = match words.as_slice() {
        ["bestmove", mv, ..] => *mv,
        _ => bail!("no bestmove"),
    };
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    let mv = MoveSpec::parse(text, pos.side_to_move())
        .and_then(|spec| spec.resolve(text, pos, &list))?;
    // The principal variation, as far as it is legal here.
    let mut pv = vec![mv];
    if let Some(i) = words.iter().position(|w| *w == "pv") {
        let mut p = *list.find(mv).expect("resolved from the list");
        for text in words.iter().skip(i + 2) {
            let Ok((m, next)) = crate::notation::parse_and_play(rules, &p, text) else {
                break;
            };
            pv.push(m);
            p = next;
        }
    }
    Ok(Choice {
        mv,
        eval: field("value").and_then(|v| v.parse().ok()),
        nodes: field("nodes").and_then(|v| v.parse().ok()).unwrap_or(0),
        depth: field("depth").and_then(|v| v.parse().ok()).unwrap_or(0),
        pv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_bestmove_line_with_its_principal_variation() {
        let rules = Variant::Kiswahili.rules();
        let pos = Position::start(&rules);
        let c = parse_bestmove(
            &rules,
            &pos,
            "bestmove A6< value +0.125 nodes 1234 depth 7 pv A6< a5> zz9",
        )
        .unwrap();
        assert_eq!(crate::notation::move_text(c.mv, pos.side_to_move()), "A6<");
        assert_eq!(c.eval, Some(0.125));
        assert_eq!((c.nodes, c.depth), (1234, 7));
        assert_eq!(
            c.pv.len(),
            2,
            "the line stops at the first move that is not legal"
        );
        assert!(parse_bestmove(&rules, &pos, "bestmove b9<").is_err());
        assert!(parse_bestmove(&rules, &pos, "ok").is_err());
    }
}
