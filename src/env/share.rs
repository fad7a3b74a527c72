//! Sharing one batch step of a [`VecEnv`](super::VecEnv) between threads.
//!
//! Each thread steps its own contiguous block of environments from the front, so from one step to
//! the next an environment stays in the cache of the core that stepped it last; a thread that
//! finishes early takes the remaining environments from the back of the other blocks, so one slow
//! block does not hold the batch back. Blocks meet in the middle: only the few environments near
//! the meeting point change threads between steps.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

/// The unclaimed indices `front..back` of one block, packed in one atomic word (front in the low
/// half) so that the owner's and the thieves' claims are a single compare-and-swap. Alone on its
/// cache line: the owner's claims never contend with another block's.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Block(AtomicU64);

impl Block {
    fn set(&self, front: usize, back: usize) {
        self.0
            .store(front as u64 | (back as u64) << 32, Ordering::Relaxed);
    }

    /// Claims the first unclaimed index (`from_front`) or the last one.
    #[inline]
    fn take(&self, from_front: bool) -> Option<usize> {
        let mut word = self.0.load(Ordering::Relaxed);
        loop {
            let (front, back) = (word & 0xFFFF_FFFF, word >> 32);
            if front >= back {
                return None;
            }
            let (claimed, next) = if from_front {
                (front, word + 1)
            } else {
                (back - 1, word - (1 << 32))
            };
            match self
                .0
                .compare_exchange_weak(word, next, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => return Some(claimed as usize),
                Err(now) => word = now,
            }
        }
    }
}

/// Hands out every index of `0..n` exactly once per round to `parts` workers: worker `k` first
/// takes its own block (the `k`-th of `parts` near-equal contiguous blocks) from the front, then
/// the leftovers of the others from their backs.
#[derive(Debug, Default)]
pub(super) struct Claims {
    blocks: Vec<Block>,
}

/// A clone is a fresh scratch space: the claims of a round never outlive the round.
impl Clone for Claims {
    fn clone(&self) -> Claims {
        Claims::default()
    }
}

impl Claims {
    /// Starts a round over `0..n` split into `parts` blocks (at least one, at most `n`). Reuses
    /// its storage while `parts` does not grow.
    pub(super) fn start(&mut self, n: usize, parts: usize) {
        let parts = parts.clamp(1, n.max(1));
        self.blocks.resize_with(parts, Block::default);
        for (k, block) in self.blocks.iter().enumerate() {
            block.set(k * n / parts, (k + 1) * n / parts);
        }
    }

    /// The number of blocks (workers) of this round.
    pub(super) fn parts(&self) -> usize {
        self.blocks.len()
    }

    /// Runs `f` on every index worker `k` claims. Once every worker `0..parts` has returned, each
    /// index has been passed to exactly one call of `f`.
    pub(super) fn run(&self, k: usize, mut f: impl FnMut(usize)) {
        let parts = self.blocks.len();
        if k >= parts {
            return;
        }
        while let Some(i) = self.blocks[k].take(true) {
            f(i);
        }
        for other in (1..parts).map(|d| (k + d) % parts) {
            while let Some(i) = self.blocks[other].take(false) {
                f(i);
            }
        }
    }
}

/// Mutable access to the elements of a slice from several threads at once, by index, for
/// indices handed out by [`Claims`]: as each index goes to one thread only, no element is ever
/// reached through two references.
pub(super) struct ByIndex<'a, T> {
    ptr: *mut T,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: a `ByIndex` only gives out `&mut T` (see `get`), which may move to another thread
// when `T: Send`.
unsafe impl<T: Send> Sync for ByIndex<'_, T> {}
unsafe impl<T: Send> Send for ByIndex<'_, T> {}

impl<'a, T> ByIndex<'a, T> {
    /// Borrows `slice` mutably for `'a`.
    pub(super) fn new(slice: &'a mut [T]) -> ByIndex<'a, T> {
        ByIndex {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            _borrow: PhantomData,
        }
    }

    /// Element `i`.
    ///
    /// # Safety
    /// No other reference to element `i` may be alive while the result is: call it at most once
    /// per index claimed from one round of [`Claims`].
    ///
    /// # Panics
    /// If `i` is out of bounds.
    #[allow(clippy::mut_from_ref)]
    pub(super) unsafe fn get(&self, i: usize) -> &'a mut T {
        assert!(i < self.len, "index {i} out of {}", self.len);
        // SAFETY: in bounds (checked above) of a slice borrowed mutably for 'a; the caller
        // guarantees that this is the only live reference to element `i`.
        unsafe { &mut *self.ptr.add(i) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn a_lone_worker_takes_its_block_then_the_others_from_the_back() {
        let mut claims = Claims::default();
        claims.start(7, 3);
        assert_eq!(claims.parts(), 3);
        let mut order = Vec::new();
        claims.run(1, |i| order.push(i));
        // Block 1 is 2..4 from the front, then block 2 (4..7) and block 0 (0..2) from the back.
        assert_eq!(order, [2, 3, 6, 5, 4, 1, 0]);
        claims.run(0, |_| panic!("everything was claimed"));
    }

    #[test]
    fn more_parts_than_indices_and_empty_rounds() {
        let mut claims = Claims::default();
        claims.start(2, 8);
        assert_eq!(claims.parts(), 2);
        let mut seen = Vec::new();
        claims.run(0, |i| seen.push(i));
        assert_eq!(seen, [0, 1]);
        claims.run(5, |_| panic!("no such worker"));
        claims.start(0, 4);
        claims.run(0, |_| panic!("nothing to claim"));
    }

    #[test]
    fn every_index_once_across_threads_and_rounds() {
        let mut claims = Claims::default();
        for (n, parts) in [(1000, 2), (999, 3), (64, 4), (5, 2)] {
            for _ in 0..20 {
                claims.start(n, parts);
                let counts: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
                std::thread::scope(|s| {
                    for k in 0..claims.parts() {
                        let (claims, counts) = (&claims, &counts);
                        s.spawn(move || {
                            claims.run(k, |i| {
                                counts[i].fetch_add(1, Ordering::Relaxed);
                            })
                        });
                    }
                });
                assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 1));
            }
        }
    }

    #[test]
    fn by_index_reaches_each_claimed_element() {
        let mut values: Vec<u32> = (0..100).collect();
        let mut claims = Claims::default();
        claims.start(values.len(), 2);
        {
            let shared = ByIndex::new(&mut values);
            std::thread::scope(|s| {
                for k in 0..2 {
                    let (claims, shared) = (&claims, &shared);
                    // SAFETY: each index is claimed once.
                    s.spawn(move || claims.run(k, |i| *unsafe { shared.get(i) } *= 2));
                }
            });
        }
        assert!(values.iter().enumerate().all(|(i, &v)| v == 2 * i as u32));
    }
}
