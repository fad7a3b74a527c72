//! The replay buffer: a bounded window of recent samples, sampled uniformly for training, saved
//! as a small binary file (checked on load).

use super::sample::{MAX_TARGETS, Sample};
use crate::rules::Position;
use anyhow::{Context, bail};
use rand::RngExt;
use std::collections::VecDeque;
use std::path::Path;

const MAGIC: &[u8; 8] = b"BAOREPL2";
/// Bytes per sample on disk: the position's fields packed (bytes 0-41), the outcome, the number
/// of targets, the search value, one reserved byte (45: written 0, ignored when read; files of
/// runs that trained a margin head hold the game's seed margin there), the legal-action mask,
/// then the policy targets.
const RECORD: usize = 54 + MAX_TARGETS * 3;

/// Recent self-play samples, at most `capacity` of them (the oldest leave first).
#[derive(Clone, Debug, Default)]
pub struct ReplayBuffer {
    capacity: usize,
    samples: VecDeque<Sample>,
    /// Samples ever added (for logs).
    pub total_added: u64,
}

impl ReplayBuffer {
    /// An empty buffer keeping at most `capacity` samples.
    pub fn new(capacity: usize) -> ReplayBuffer {
        ReplayBuffer {
            capacity: capacity.max(1),
            samples: VecDeque::new(),
            total_added: 0,
        }
    }

    /// Number of samples held.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether the buffer is empty.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Adds samples, dropping the oldest beyond the capacity.
    pub fn extend(&mut self, new: impl IntoIterator<Item = Sample>) {
        for s in new {
            if self.samples.len() == self.capacity {
                self.samples.pop_front();
            }
            self.samples.push_back(s);
            self.total_added += 1;
        }
    }

    /// `n` samples drawn uniformly with replacement.
    pub fn sample(&self, n: usize, rng: &mut impl rand::Rng) -> Vec<Sample> {
        if self.samples.is_empty() {
            return Vec::new();
        }
        (0..n)
            .map(|_| self.samples[rng.random_range(0..self.samples.len())])
            .collect()
    }

    /// Iterates over the samples, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Sample> {
        self.samples.iter()
    }

    /// Writes the buffer to `path` atomically.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        crate::util::write_atomic(path, &self.to_bytes())
    }

    /// The buffer in the replay file format: a header (magic, capacity, samples ever added,
    /// samples held), one record per sample, a checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(32 + self.samples.len() * RECORD);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(self.capacity as u64).to_le_bytes());
        bytes.extend_from_slice(&self.total_added.to_le_bytes());
        bytes.extend_from_slice(&(self.samples.len() as u64).to_le_bytes());
        for s in &self.samples {
            pack(s, &mut bytes);
        }
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Reads a buffer written by [`ReplayBuffer::save`]; a truncated or damaged file is an error.
    pub fn load(path: &Path) -> anyhow::Result<ReplayBuffer> {
        let bytes =
            crate::util::read_regular_bounded(path, crate::util::limits::REPLAY, "replay buffer")?;
        ReplayBuffer::from_bytes(&bytes)
            .with_context(|| format!("replay buffer {} is damaged", path.display()))
    }

    /// Reads bytes made by [`ReplayBuffer::to_bytes`]; truncated or damaged bytes are an error.
    pub fn from_bytes(bytes: &[u8]) -> anyhow::Result<ReplayBuffer> {
        let bad = |why: &str| anyhow::anyhow!("{why}");
        if bytes.len() >= 8 && &bytes[..7] == b"BAOREPL" && &bytes[..8] != MAGIC {
            return Err(bad(
                "it was written by an older bao-zero (replay format 1); start a new run",
            ));
        }
        if bytes.len() < 40 || &bytes[..8] != MAGIC {
            return Err(bad("not a bao-zero replay file (wrong header)"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if checksum(body).to_le_bytes() != sum {
            return Err(bad("checksum mismatch (truncated or corrupted)"));
        }
        let word = |i: usize| u64::from_le_bytes(body[i..i + 8].try_into().expect("8 bytes"));
        let (capacity, total_added, n) = (word(8) as usize, word(16), word(24) as usize);
        if body.len() != 32 + n * RECORD {
            bail!(bad(&format!(
                "expected {n} samples, found {} bytes",
                body.len() - 32
            )));
        }
        let mut buf = ReplayBuffer::new(capacity);
        buf.samples = body[32..]
            .chunks_exact(RECORD)
            .map(unpack)
            .collect::<anyhow::Result<_>>()?;
        buf.total_added = total_added;
        Ok(buf)
    }
}

use crate::util::fnv1a as checksum;

fn pack(s: &Sample, out: &mut Vec<u8>) {
    let p = &s.pos;
    for side in crate::rules::Side::BOTH {
        out.extend_from_slice(p.pits(side));
    }
    out.extend_from_slice(&[
        p.store(crate::rules::Side::South),
        p.store(crate::rules::Side::North),
    ]);
    let flags = p.house_owned(crate::rules::Side::South) as u8
        | (p.house_owned(crate::rules::Side::North) as u8) << 1
        | (p.side_to_move() as u8) << 2
        | (p.mtaji_captured() as u8) << 3;
    out.extend_from_slice(&[flags, 0]);
    let pit = |x: Option<crate::rules::Pit>| x.map_or(255, |p| p.index() as u8);
    out.extend_from_slice(&[
        pit(p.blocked()),
        pit(p.target()),
        p.hand(),
        p.opening_phase(),
    ]);
    out.extend_from_slice(&p.ply().to_le_bytes());
    out.extend_from_slice(&[s.outcome as u8, s.len, s.q as u8, 0]);
    out.extend_from_slice(&s.legal.to_le_bytes());
    out.extend_from_slice(&s.actions);
    for w in s.weights {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

fn unpack(b: &[u8]) -> anyhow::Result<Sample> {
    let mut pits = [[0u8; 16]; 2];
    pits[0].copy_from_slice(&b[0..16]);
    pits[1].copy_from_slice(&b[16..32]);
    let flags = b[34];
    let pit = |x: u8| {
        if x == 255 {
            Ok(None)
        } else {
            crate::rules::Pit::new(x)
                .map(Some)
                .ok_or_else(|| anyhow::anyhow!("bad pit {x} in replay sample"))
        }
    };
    let pos = Position::from_parts(
        pits,
        [b[32], b[33]],
        [flags & 1 != 0, flags & 2 != 0],
        if flags & 4 != 0 {
            crate::rules::Side::North
        } else {
            crate::rules::Side::South
        },
        u16::from_le_bytes([b[40], b[41]]),
        pit(b[36])?,
        pit(b[37])?,
        b[38],
        b[39],
        flags & 8 != 0,
    );
    let mut s = Sample {
        pos,
        outcome: b[42] as i8,
        len: b[43],
        q: b[44] as i8,
        actions: [0; MAX_TARGETS],
        weights: [0; MAX_TARGETS],
        legal: u64::from_le_bytes(b[46..54].try_into().expect("8 bytes")),
    };
    s.actions.copy_from_slice(&b[54..54 + MAX_TARGETS]);
    for (k, w) in s.weights.iter_mut().enumerate() {
        let i = 54 + MAX_TARGETS + 2 * k;
        *w = u16::from_le_bytes([b[i], b[i + 1]]);
    }
    if !s.is_valid() {
        bail!("bad sample in replay file");
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{MoveList, Variant};
    use rand::SeedableRng;

    fn some_samples(n: usize) -> Vec<Sample> {
        let rules = Variant::Kiswahili.rules();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut pos = Position::start(&rules);
        let mut list = MoveList::new();
        let mut out = Vec::new();
        while out.len() < n {
            pos.legal_moves(&rules, &mut list);
            if list.is_empty() {
                pos = Position::start(&rules);
                continue;
            }
            let visits: Vec<u32> = (0..list.len()).map(|i| (i * 7 % 5) as u32).collect();
            let mut s = Sample::new(pos, &list, &visits, 0.25);
            s.outcome = [1, 0, -1][out.len() % 3];
            out.push(s);
            pos = list.children()[rng.random_range(0..list.len())];
        }
        out
    }

    #[test]
    fn the_window_keeps_the_newest() {
        let mut b = ReplayBuffer::new(10);
        let s = some_samples(25);
        b.extend(s.iter().copied());
        assert_eq!(b.len(), 10);
        assert_eq!(b.iter().next(), Some(&s[15]));
        assert_eq!(b.total_added, 25);
    }

    #[test]
    fn save_and_load_round_trip_and_damage_is_detected() {
        let dir = std::env::temp_dir().join(format!("bao-replay-{}", std::process::id()));
        let path = dir.join("replay.bin");
        let mut b = ReplayBuffer::new(100);
        b.extend(some_samples(60));
        b.save(&path).unwrap();
        let back = ReplayBuffer::load(&path).unwrap();
        assert_eq!(
            back.iter().collect::<Vec<_>>(),
            b.iter().collect::<Vec<_>>()
        );
        assert_eq!(back.total_added, 60);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
        assert!(
            ReplayBuffer::load(&path)
                .unwrap_err()
                .to_string()
                .contains("damaged")
        );
        std::fs::write(&path, b"garbage").unwrap();
        assert!(ReplayBuffer::load(&path).is_err());
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn the_reserved_byte_is_written_zero_and_ignored_when_read() {
        let mut b = ReplayBuffer::new(10);
        b.extend(some_samples(3));
        let mut bytes = b.to_bytes();
        let reserved = |k: usize| 32 + k * RECORD + 45;
        assert!((0..3).all(|k| bytes[reserved(k)] == 0));
        // A file of a run that trained a margin head holds the seed margin there.
        for (k, margin) in [90u8, 0, 129].into_iter().enumerate() {
            bytes[reserved(k)] = margin;
        }
        let body = bytes.len() - 8;
        let sum = checksum(&bytes[..body]).to_le_bytes();
        bytes[body..].copy_from_slice(&sum);
        let back = ReplayBuffer::from_bytes(&bytes).unwrap();
        assert_eq!(
            back.iter().collect::<Vec<_>>(),
            b.iter().collect::<Vec<_>>()
        );
    }
}
