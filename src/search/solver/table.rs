//! The solver's transposition table: a fixed number of four-entry buckets (one cache line
//! each), keyed by the full 64-bit Zobrist hash. An entry holds the proven bounds of the
//! position's value, the length of the line that proved a win or a loss, the index of the best
//! move in the generator's (deterministic) move order, and the work spent on it: when a bucket is
//! full the entry with the least work is replaced, so the proofs that were expensive to find stay.
//!
//! Only results that do not depend on the path that reached the position are stored (see
//! `search.rs`), so every entry is the position's true game-theoretic value or a true bound on it.

/// One bucket holds this many entries.
const WAYS: usize = 4;
/// Bytes per entry: the key and the packed data.
const ENTRY_BYTES: usize = 16;

/// What the table knows about a position, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The value is at least this (-1 loss, 0 draw, 1 win).
    pub lower: i8,
    /// The value is at most this.
    pub upper: i8,
    /// Plies to the end along the line that proved a win or a loss (0 otherwise).
    pub len: u16,
    /// The index of the best move found in the position's legal move list.
    pub best: Option<u8>,
    /// The depth (plies searched below the position) for which draw bounds hold: a search that
    /// reached no horizon stores [`EXACT`] (its bounds are true at any depth); a proven win or
    /// loss is true at any depth whatever this says.
    pub depth: u16,
}

/// The depth of bounds that hold at any depth.
pub(crate) const EXACT: u16 = u16::MAX;

/// The table itself.
pub struct Table {
    slots: Vec<[u64; 2]>,
    buckets: usize,
    used: usize,
}

const VALID: u64 = 1 << 63;

/// `n` zeroed slots, allocated fallibly. Zeroed memory comes from the system untouched, so its
/// pages are only taken as entries are written (a 1 GiB table costs nothing until it fills);
/// `vec![0; n]` does the same but aborts the process when the allocation fails.
fn zeroed_slots(n: usize) -> anyhow::Result<Vec<[u64; 2]>> {
    let refuse = || {
        anyhow::anyhow!(
            "cannot allocate the solver's table of {} MiB: not enough memory (ask for less)",
            (n.saturating_mul(ENTRY_BYTES)) >> 20
        )
    };
    let layout = std::alloc::Layout::array::<[u64; 2]>(n).map_err(|_| refuse())?;
    // SAFETY: the layout has a non-zero size (n >= WAYS); a null pointer is checked; the memory
    // is allocated by the global allocator with the layout of a `Vec<[u64; 2]>` of capacity and
    // length `n`, so the vector frees it with the same layout; all-zero bytes are valid `u64`s.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<[u64; 2]>();
        if ptr.is_null() {
            return Err(refuse());
        }
        Ok(Vec::from_raw_parts(ptr, n, n))
    }
}

fn pack(e: &Entry, work: u8) -> u64 {
    VALID
        | (e.lower + 1) as u64
        | (((e.upper + 1) as u64) << 2)
        | ((e.len as u64) << 4)
        | ((e.best.map_or(0, |b| b as u64 + 1) & 0x7f) << 20)
        | ((work as u64) << 32)
        | ((e.depth as u64) << 40)
}

fn unpack(w: u64) -> Entry {
    let best = (w >> 20) & 0x7f;
    Entry {
        lower: (w & 3) as i8 - 1,
        upper: ((w >> 2) & 3) as i8 - 1,
        len: ((w >> 4) & 0xffff) as u16,
        best: (best != 0).then(|| (best - 1) as u8),
        depth: ((w >> 40) & 0xffff) as u16,
    }
}

fn work_of(w: u64) -> u8 {
    ((w >> 32) & 0xff) as u8
}

impl Table {
    /// A table of at most `bytes` bytes (rounded down to a power of two buckets, at least one),
    /// or a one-line error when the memory cannot be had: the size is the user's, so a size the
    /// machine refuses is an answer, never an abort.
    pub(crate) fn with_bytes(bytes: usize) -> anyhow::Result<Table> {
        let want = (bytes / (ENTRY_BYTES * WAYS)).max(1);
        let buckets = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        Ok(Table {
            slots: zeroed_slots(buckets * WAYS)?,
            buckets,
            used: 0,
        })
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * ENTRY_BYTES
    }

    /// The share of entries in use, in [0, 1].
    pub fn fill(&self) -> f64 {
        self.used as f64 / self.slots.len() as f64
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // The high bits pick the bucket; the full key is compared, so a clash is only a miss.
        ((key >> 20) as usize & (self.buckets - 1)) * WAYS
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.slots[b..b + WAYS]
            .iter()
            .find(|s| s[0] == key && s[1] & VALID != 0)
            .map(|s| unpack(s[1]))
    }

    /// Stores `entry` for `key`; `work` is log2 of the nodes its search took (the replacement
    /// key: a bucket's cheapest entry makes way).
    #[inline]
    pub fn store(&mut self, key: u64, entry: Entry, work: u8) {
        let b = self.bucket(key);
        let bucket = &mut self.slots[b..b + WAYS];
        let i = match bucket.iter().position(|s| s[0] == key && s[1] & VALID != 0) {
            Some(i) => i,
            None => match bucket.iter().position(|s| s[1] & VALID == 0) {
                Some(i) => {
                    self.used += 1;
                    i
                }
                None => (0..WAYS)
                    .min_by_key(|&i| work_of(bucket[i][1]))
                    .unwrap_or(0),
            },
        };
        bucket[i] = [key, pack(&entry, work)];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_the_cheapest_makes_way() {
        let mut t = Table::with_bytes(ENTRY_BYTES * WAYS).unwrap();
        let e = |lower, upper, len, best| Entry {
            lower,
            upper,
            len,
            best,
            depth: len ^ 0xffff,
        };
        for (k, w) in [(1u64, 5u8), (2, 1), (3, 7), (4, 9)] {
            t.store(k, e(-1, 1, k as u16, Some(k as u8)), w);
        }
        assert_eq!(t.probe(3), Some(e(-1, 1, 3, Some(3))));
        t.store(5, e(1, 1, 63, None), 4);
        assert_eq!(t.probe(2), None, "the entry with the least work goes");
        assert_eq!(t.probe(5), Some(e(1, 1, 63, None)));
        t.store(5, e(-1, -1, 65535, Some(63)), 4);
        assert_eq!(t.probe(5), Some(e(-1, -1, 65535, Some(63))));
        assert!((t.fill() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_table_too_large_to_allocate_is_a_one_line_error() {
        for bytes in [usize::MAX, usize::MAX / 2, 1 << 62] {
            let err = Table::with_bytes(bytes)
                .err()
                .expect("no such memory")
                .to_string();
            assert!(
                err.starts_with("cannot allocate the solver's table"),
                "{err}"
            );
        }
    }
}
