//! The run directory's lock: `RUN_DIR/lock` holds the process id of the one process that writes
//! the run (a [`super::Learner`]), so that a second `bao train` (or a Python learner) on the
//! same directory is refused instead of interleaving its writes with the first's.
//!
//! The file is made with `create_new`, so of two processes only one makes it. A lock whose
//! process is gone (a run killed with `kill -9`) is stale and is taken over with a warning.

use anyhow::{Context, bail};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The name of the lock file in a run directory.
pub const LOCK_FILE: &str = "lock";

/// The most bytes a lock file is read to (a process id and a newline need a few).
const LOCK_BYTES: u64 = 64;

/// A held run-directory lock; dropping it removes the lock file.
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
    pid: u32,
}

impl RunLock {
    /// Takes the lock of the run directory `dir` (which must exist): refused with a line naming
    /// the holder's process while it runs; a stale lock is taken over with a warning on stderr.
    pub(crate) fn acquire(dir: &Path) -> anyhow::Result<RunLock> {
        let path = dir.join(LOCK_FILE);
        let pid = std::process::id();
        // A stale lock is moved aside once; a second round that still finds a lock lost a race.
        for _ in 0..3 {
            match make_lock(dir, &path, pid) {
                Ok(()) => return Ok(RunLock { path, pid }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    take_over_if_stale(dir, &path)?;
                }
                Err(e) => {
                    return Err(e)
                        .with_context(|| format!("cannot make the lock {}", path.display()));
                }
            }
        }
        bail!(
            "cannot take the lock {}: other processes keep making it",
            path.display()
        )
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // Only our own lock goes: one taken over by another process (after a wrong staleness
        // judgement) is theirs.
        if read_pid(&self.path) == Some(Ok(self.pid)) {
            std::fs::remove_file(&self.path).ok();
        }
    }
}

/// Makes the lock file holding `pid`, failing with `AlreadyExists` if there is one. The file
/// appears whole (a temporary file linked into place), so no reader finds it empty; where links
/// are not supported it is made with `create_new`, then written.
fn make_lock(dir: &Path, path: &Path, pid: u32) -> std::io::Result<()> {
    let text = format!("{pid}\n");
    let mut tmp = tempfile::Builder::new()
        .prefix(".bao-lock-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    tmp.as_file().sync_all()?;
    match std::fs::hard_link(tmp.path(), path) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)?;
            file.write_all(text.as_bytes())?;
            file.sync_all()
        }
        linked => linked,
    }
}

/// The process id in a lock file: `None` if there is no file, an error text if it holds no id.
fn read_pid(path: &Path) -> Option<Result<u32, String>> {
    let bytes = match crate::util::fs::read_regular_bounded(path, LOCK_BYTES, "lock file") {
        Ok(bytes) => bytes,
        Err(_) if !path.exists() => return None,
        Err(e) => return Some(Err(format!("{e:#}"))),
    };
    let text = String::from_utf8_lossy(&bytes);
    Some(
        text.trim()
            .parse::<u32>()
            .map_err(|_| format!("lock file {} holds no process id", path.display())),
    )
}

/// Refuses a lock held by a running process; moves a stale one (of a process that is gone, or
/// holding no process id) out of the way, so that the caller can make its own.
fn take_over_if_stale(dir: &Path, path: &Path) -> anyhow::Result<()> {
    let holder = match read_pid(path) {
        // Gone between the two calls: try again.
        None => return Ok(()),
        Some(Ok(pid)) if is_running(pid) => bail!(
            "{} is in use by process {pid} (its lock {} names it); wait for that run to end or stop it",
            dir.display(),
            path.display()
        ),
        Some(Ok(pid)) => format!("process {pid}, which is no longer running"),
        Some(Err(why)) => why,
    };
    // Renamed aside (not removed), so that of two processes taking over, the second cannot
    // remove the lock the first has just made: it renames it, sees it is alive, and puts it back.
    let aside = dir.join(format!(".bao-lock-{}.tmp", std::process::id()));
    match std::fs::rename(path, &aside) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("cannot move {}", path.display())),
    }
    if let Some(Ok(pid)) = read_pid(&aside)
        && is_running(pid)
    {
        // Put back what another process made meanwhile (unless a third made one again).
        std::fs::hard_link(&aside, path).ok();
        std::fs::remove_file(&aside).ok();
        bail!(
            "{} is in use by process {pid} (its lock {} names it); wait for that run to end or stop it",
            dir.display(),
            path.display()
        );
    }
    std::fs::remove_file(&aside).ok();
    eprintln!(
        "warning: taking over the stale lock {} ({holder})",
        path.display()
    );
    Ok(())
}

/// Whether process `pid` runs (on this machine).
#[cfg(unix)]
fn is_running(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // Signal 0 checks that the process exists; EPERM means it does, under another user.
    // SAFETY: kill with signal 0 sends nothing; it only looks the process up.
    let found = unsafe { libc::kill(pid, 0) } == 0;
    found || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Whether process `pid` runs: without a way to ask, every holder counts as running (a stale
/// lock is then removed by hand).
#[cfg(not(unix))]
fn is_running(pid: u32) -> bool {
    pid != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_is_refused_while_held_and_removed_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let lock = RunLock::acquire(dir.path()).unwrap();
        let text = std::fs::read_to_string(lock.path()).unwrap();
        assert_eq!(text, format!("{}\n", std::process::id()));
        let err = RunLock::acquire(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains(&format!("in use by process {}", std::process::id())),
            "{err}"
        );
        assert!(!err.contains('\n'), "{err}");
        drop(lock);
        assert!(!dir.path().join(LOCK_FILE).exists());
        drop(RunLock::acquire(dir.path()).unwrap());
    }

    #[cfg(unix)]
    #[test]
    fn a_stale_lock_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOCK_FILE);
        // A process that has ended (and was waited for), so its id names no process.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        for stale in [format!("{gone}\n"), "garbage".to_string(), String::new()] {
            std::fs::write(&path, stale).unwrap();
            let lock = RunLock::acquire(dir.path()).unwrap();
            assert_eq!(
                std::fs::read_to_string(&path).unwrap(),
                format!("{}\n", std::process::id())
            );
            drop(lock);
        }
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert!(names.is_empty(), "{names:?}");
    }
}
