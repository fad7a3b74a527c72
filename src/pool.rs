//! [`OwnPool`]: a rayon pool owned by one object (a player, a batch of environments, a
//! self-play worker), built again in a process made by `fork`.
//!
//! A child of `fork` has only the thread that called it: the threads of a pool built before the
//! fork do not exist there, and work handed to that pool would wait for ever. Python's
//! `multiprocessing` forks by default on Linux (before Python 3.14), so a pool notes the process
//! it was built in, and a call from any other process builds it anew.

use anyhow::Context;
use std::sync::{Arc, Mutex};

/// A pool and the process whose threads it has.
struct Built {
    pid: u32,
    pool: Arc<rayon::ThreadPool>,
}

impl Built {
    /// Lets go of a pool built in another process: its threads are not in this one, and the
    /// locks they held at the fork stay held, so it is left as it is, never dropped.
    fn abandon(self) {
        std::mem::forget(self.pool);
    }
}

/// A rayon pool of `threads` threads (0: one per core), built on first use and again in a child
/// of `fork`; see the module's documentation.
pub struct OwnPool {
    threads: usize,
    name: &'static str,
    built: Mutex<Option<Built>>,
}

impl OwnPool {
    /// A pool of `threads` threads (0: one per core) named `name-0`, `name-1`, ..., started by
    /// its first use.
    pub fn new(threads: usize, name: &'static str) -> OwnPool {
        OwnPool {
            threads,
            name,
            built: Mutex::new(None),
        }
    }

    /// The threads asked for (0: one per core).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The pool of this process, started if it has none yet.
    pub fn pool(&self) -> anyhow::Result<Arc<rayon::ThreadPool>> {
        let pid = std::process::id();
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        match built.take() {
            Some(b) if b.pid == pid => {
                let pool = b.pool.clone();
                *built = Some(b);
                return Ok(pool);
            }
            Some(stale) => stale.abandon(),
            None => {}
        }
        let name = self.name;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .thread_name(move |i| format!("{name}-{i}"))
            .build()
            .with_context(|| format!("cannot start the {name} threads"))?;
        let pool = Arc::new(pool);
        *built = Some(Built {
            pid,
            pool: pool.clone(),
        });
        Ok(pool)
    }

    /// Runs `work` on the pool (started if this process has none yet).
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> anyhow::Result<R> {
        Ok(self.pool()?.install(work))
    }
}

impl Drop for OwnPool {
    fn drop(&mut self) {
        let built = self.built.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = built.take()
            && b.pid != std::process::id()
        {
            b.abandon();
        }
    }
}

/// Whether the caller runs on a rayon pool's thread. Batch work (a `VecEnv`'s step, a batch's
/// opponents) spreads over the pool it is called from, and outside any pool runs on the caller's
/// thread alone, rather than hand a small batch to the global pool's threads and wait for them
/// to wake.
pub fn in_pool() -> bool {
    rayon::current_thread_index().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_is_started_once_per_process_with_its_threads() {
        let own = OwnPool::new(2, "test-pool");
        let names = own
            .install(|| rayon::broadcast(|_| std::thread::current().name().map(str::to_string)))
            .unwrap();
        assert_eq!(names.len(), 2);
        assert!(
            names
                .iter()
                .all(|n| n.as_deref().unwrap().starts_with("test-pool-"))
        );
        let (a, b) = (own.pool().unwrap(), own.pool().unwrap());
        assert!(Arc::ptr_eq(&a, &b));
    }

    #[test]
    fn a_pool_noted_in_another_process_is_started_again() {
        let own = OwnPool::new(1, "test-pool");
        let first = own.pool().unwrap();
        // As a child of `fork` sees the parent's pool: built by another process.
        own.built.lock().unwrap().as_mut().unwrap().pid = std::process::id().wrapping_add(1);
        let again = own.pool().unwrap();
        assert!(!Arc::ptr_eq(&first, &again));
        assert_eq!(own.install(rayon::current_num_threads).unwrap(), 1);
    }
}
