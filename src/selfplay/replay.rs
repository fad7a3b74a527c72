//! The replay buffer: a bounded window of recent samples, sampled uniformly for training, saved
//! as a small binary file (checked on load).
//!
//! Two layouts of the same records: the plain one ([`ReplayBuffer::to_bytes`], format 2: one
//! record after another), which self-play parts carry between processes and which replay files
//! written before format 3 hold; and the file one ([`ReplayBuffer::to_file_bytes`], format 3:
//! the records column by column, byte 0 of every record, then byte 1, and so on, gzip-compressed),
//! which [`ReplayBuffer::save`] writes. Columns hold like values side by side (pit counts, flags,
//! action ids), so the file is about a sixth of the plain layout's size and compresses fast.

use crate::nn::{MAX_TARGETS, Sample, SampleWindow};
use crate::rules::Position;
use anyhow::{Context, bail};
use rand::RngExt;
use std::collections::VecDeque;
use std::path::Path;

const MAGIC: &[u8; 8] = b"BAOREPL2";
/// The magic of a replay file's content, once uncompressed (format 3: records column by column).
const FILE_MAGIC: &[u8; 8] = b"BAOREPL3";
/// The first bytes of a gzip stream: a replay file of format 3 (format 2 begins with `MAGIC`).
const GZIP: [u8; 2] = [0x1f, 0x8b];
/// The gzip level of replay files: the fastest. On the column layout it already makes a full
/// default window (150,000 samples, 17 MB plain) 3.2 MB in about 0.07 s of CPU, where level 3
/// makes 2.5 MB in 0.25 s and level 6 2.4 MB in 0.7 s: a file is written every iteration.
const LEVEL: u32 = 1;
/// Bytes of the header: magic, capacity, samples ever added, samples held.
const HEADER: usize = 32;
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

    /// Iterates over the samples, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Sample> {
        self.samples.iter()
    }

    /// Writes the buffer to `path` atomically, in the replay file format
    /// ([`ReplayBuffer::to_file_bytes`]).
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        crate::util::fs::write_atomic(path, &self.to_file_bytes())
    }

    /// The header (`magic`, capacity, samples ever added, samples held) and the records packed
    /// one after another.
    fn header_and_records(&self, magic: &[u8; 8]) -> (Vec<u8>, Vec<u8>) {
        let mut header = Vec::with_capacity(HEADER);
        header.extend_from_slice(magic);
        header.extend_from_slice(&(self.capacity as u64).to_le_bytes());
        header.extend_from_slice(&self.total_added.to_le_bytes());
        header.extend_from_slice(&(self.samples.len() as u64).to_le_bytes());
        let mut records = Vec::with_capacity(self.samples.len() * RECORD);
        for s in &self.samples {
            pack(s, &mut records);
        }
        (header, records)
    }

    /// The buffer in the plain replay format (format 2): a header (magic, capacity, samples ever
    /// added, samples held), one record per sample, a checksum. Self-play parts carry samples so.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (mut bytes, records) = self.header_and_records(MAGIC);
        bytes.extend_from_slice(&records);
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// The buffer as a replay file holds it (format 3): gzip of a header (as in
    /// [`ReplayBuffer::to_bytes`], its own magic), the records column by column, a checksum.
    /// The same buffer always gives the same bytes.
    fn to_file_bytes(&self) -> Vec<u8> {
        use std::io::Write;
        let (mut plain, records) = self.header_and_records(FILE_MAGIC);
        let n = self.samples.len();
        plain.resize(HEADER + records.len(), 0);
        let columns = &mut plain[HEADER..];
        for (i, record) in records.chunks_exact(RECORD).enumerate() {
            for (k, &byte) in record.iter().enumerate() {
                columns[k * n + i] = byte;
            }
        }
        let sum = checksum(&plain);
        plain.extend_from_slice(&sum.to_le_bytes());
        let mut gz = flate2::write::GzEncoder::new(
            Vec::with_capacity(plain.len() / 4),
            flate2::Compression::new(LEVEL),
        );
        gz.write_all(&plain)
            .and_then(|()| gz.finish())
            .expect("compressing into memory cannot fail")
    }

    /// Reads a buffer written by [`ReplayBuffer::save`], or a replay file of format 2 (written
    /// before files were compressed); a truncated or damaged file is an error.
    pub fn load(path: &Path) -> anyhow::Result<ReplayBuffer> {
        let bytes = crate::util::fs::read_regular_bounded(
            path,
            crate::util::fs::limits::REPLAY,
            "replay buffer",
        )?;
        ReplayBuffer::from_file_bytes(&bytes)
            .with_context(|| format!("replay buffer {} is damaged", path.display()))
    }

    /// Reads the bytes of a replay file: format 3 ([`ReplayBuffer::to_file_bytes`]) or format 2
    /// ([`ReplayBuffer::to_bytes`]); truncated or damaged bytes are an error.
    pub fn from_file_bytes(bytes: &[u8]) -> anyhow::Result<ReplayBuffer> {
        if !bytes.starts_with(&GZIP) {
            return ReplayBuffer::from_bytes(bytes);
        }
        let plain = gunzip(bytes)?;
        let (header, body) = checked_body(&plain, FILE_MAGIC)?;
        let n = body.len() / RECORD;
        let mut records = vec![0u8; body.len()];
        for (k, column) in body.chunks_exact(n.max(1)).enumerate() {
            for (i, &byte) in column.iter().enumerate() {
                records[i * RECORD + k] = byte;
            }
        }
        ReplayBuffer::of_records(header, &records)
    }

    /// Reads bytes made by [`ReplayBuffer::to_bytes`]; truncated or damaged bytes are an error.
    pub fn from_bytes(bytes: &[u8]) -> anyhow::Result<ReplayBuffer> {
        if bytes.len() >= 8 && &bytes[..7] == b"BAOREPL" && &bytes[..8] != MAGIC {
            bail!("it was written by an older bao-zero (replay format 1); start a new run");
        }
        let (header, body) = checked_body(bytes, MAGIC)?;
        ReplayBuffer::of_records(header, body)
    }

    /// The buffer of a checked header and its records, one after another.
    fn of_records(header: Header, records: &[u8]) -> anyhow::Result<ReplayBuffer> {
        let mut buf = ReplayBuffer::new(header.capacity);
        buf.samples = records
            .chunks_exact(RECORD)
            .map(unpack)
            .collect::<anyhow::Result<_>>()?;
        buf.total_added = header.total_added;
        Ok(buf)
    }
}

/// What a replay header says besides its magic.
struct Header {
    capacity: usize,
    total_added: u64,
}

/// The header and the records' bytes of `bytes` (a header beginning with `magic`, `n` records, a
/// checksum), checked: magic, checksum, and a length that fits `n`.
fn checked_body<'a>(bytes: &'a [u8], magic: &[u8; 8]) -> anyhow::Result<(Header, &'a [u8])> {
    if bytes.len() < HEADER + 8 || &bytes[..8] != magic {
        bail!("not a bao-zero replay file (wrong header)");
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if checksum(body).to_le_bytes() != sum {
        bail!("checksum mismatch (truncated or corrupted)");
    }
    let word = |i: usize| u64::from_le_bytes(body[i..i + 8].try_into().expect("8 bytes"));
    let n = word(24);
    let records = &body[HEADER..];
    if n.checked_mul(RECORD as u64) != Some(records.len() as u64) {
        bail!("expected {n} samples, found {} bytes", records.len());
    }
    let header = Header {
        capacity: word(8) as usize,
        total_added: word(16),
    };
    Ok((header, records))
}

/// The content of a gzip-compressed replay file, read no further than its header's sample count
/// allows (within the bound of replay files), so that damaged bytes never inflate without end.
fn gunzip(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    let broken = |e: std::io::Error| anyhow::anyhow!("truncated or corrupted ({e})");
    let mut gz = flate2::read::GzDecoder::new(bytes);
    let mut plain = vec![0u8; HEADER];
    gz.read_exact(&mut plain).map_err(broken)?;
    if &plain[..8] != FILE_MAGIC {
        bail!("not a bao-zero replay file (wrong header)");
    }
    let n = u64::from_le_bytes(plain[24..32].try_into().expect("8 bytes"));
    let rest = n
        .checked_mul(RECORD as u64)
        .and_then(|b| b.checked_add(8))
        .filter(|&b| b <= crate::util::fs::limits::REPLAY)
        .with_context(|| format!("a header of {n} samples, more than a replay file holds"))?;
    // One byte past the end: bytes beyond the checksum show as a length that does not fit.
    gz.take(rest + 1).read_to_end(&mut plain).map_err(broken)?;
    Ok(plain)
}

use crate::util::hash::fnv1a as checksum;

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

impl SampleWindow for ReplayBuffer {
    fn draw(&self, n: usize, rng: &mut rand_chacha::ChaCha8Rng) -> Vec<Sample> {
        if self.samples.is_empty() {
            return Vec::new();
        }
        (0..n)
            .map(|_| self.samples[rng.random_range(0..self.samples.len())])
            .collect()
    }
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

    #[test]
    fn a_replay_file_is_compressed_the_same_every_time_and_reads_back() {
        let mut b = ReplayBuffer::new(5000);
        b.extend(some_samples(3000));
        let file = b.to_file_bytes();
        assert_eq!(file[..2], GZIP);
        assert_eq!(file, b.to_file_bytes(), "the same buffer, the same bytes");
        let plain = b.to_bytes().len();
        assert!(
            file.len() * 3 < plain,
            "{} bytes compressed, {plain} plain",
            file.len()
        );
        let back = ReplayBuffer::from_file_bytes(&file).unwrap();
        assert_eq!(
            back.iter().collect::<Vec<_>>(),
            b.iter().collect::<Vec<_>>()
        );
        assert_eq!((back.capacity, back.total_added), (5000, 3000));
        let empty = ReplayBuffer::from_file_bytes(&ReplayBuffer::new(7).to_file_bytes()).unwrap();
        assert!(empty.is_empty() && empty.capacity == 7);
    }

    #[test]
    fn a_replay_file_of_format_2_written_uncompressed_still_loads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("replay-0003.bin");
        let mut b = ReplayBuffer::new(100);
        b.extend(some_samples(40));
        std::fs::write(&path, b.to_bytes()).unwrap();
        let back = ReplayBuffer::load(&path).unwrap();
        assert_eq!(
            back.iter().collect::<Vec<_>>(),
            b.iter().collect::<Vec<_>>()
        );
        assert_eq!(back.total_added, 40);
    }

    #[test]
    fn damage_inside_a_compressed_replay_file_is_an_error_not_a_panic() {
        let mut b = ReplayBuffer::new(500);
        b.extend(some_samples(300));
        let good = b.to_file_bytes();
        for at in [12, good.len() / 2, good.len() - 6] {
            let mut bad = good.clone();
            bad[at] ^= 0x55;
            assert!(ReplayBuffer::from_file_bytes(&bad).is_err(), "byte {at}");
        }
        for len in [3, 30, good.len() - 1] {
            let err = ReplayBuffer::from_file_bytes(&good[..len]).unwrap_err();
            assert!(err.to_string().contains("truncated"), "{len}: {err}");
        }
        // A header that claims more samples than any replay file holds is refused before reading.
        let gzip = |plain: &[u8]| {
            use std::io::Write;
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(plain).unwrap();
            gz.finish().unwrap()
        };
        let mut huge = FILE_MAGIC.to_vec();
        for word in [10u64, 10, u64::MAX / 200] {
            huge.extend_from_slice(&word.to_le_bytes());
        }
        let err = ReplayBuffer::from_file_bytes(&gzip(&huge)).unwrap_err();
        assert!(
            err.to_string().contains("more than a replay file holds"),
            "{err}"
        );
        // The plain layout compressed is not a replay file of format 3.
        let err = ReplayBuffer::from_file_bytes(&gzip(&b.to_bytes())).unwrap_err();
        assert!(err.to_string().contains("wrong header"), "{err}");
    }
}
