//! The networks loaded by player specs, shared: an arena builds a player per game, and all of
//! them share one network. A long-lived process (`bao serve`) builds players for hours, so the
//! cache notices what changed on disk: a player file replaced since it was read, a training
//! run's new last iteration (a run directory without `iteration=` means its last one), and it
//! holds at most [`CAPACITY`] networks, dropping the least recently used first.

use crate::mcts::Inference;
use crate::player_file::{Bundle, Header};
use crate::train::RunDir;
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// A network as loaded: the player file's header and the network.
pub(super) type Loaded = (Header, Arc<dyn Inference>);

/// The most networks the cache holds; players built from one keep it alive after it leaves.
const CAPACITY: usize = 8;

/// A network's source: a player file (no iteration), or a run directory and an iteration.
type Source = (PathBuf, Option<u32>);

/// What a source looked like on disk when it was read: a file or folder replaced since (an
/// atomic write gives it another inode) or rewritten (another time or length) reads again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    inode: u64,
}

/// The stamp of `path` (a file, or an iteration's folder); an empty one where there is nothing
/// to read (the load that follows says why).
fn stamp(path: &Path) -> Stamp {
    let Ok(meta) = std::fs::metadata(path) else {
        return Stamp::default();
    };
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Stamp {
        modified: meta.modified().ok(),
        len: meta.len(),
        inode,
    }
}

/// The networks loaded, most recently used last.
static CACHE: Mutex<Vec<(Source, Stamp, Loaded)>> = Mutex::new(Vec::new());

/// The network of `path` (a player file, or a run directory at `iteration`, by default its
/// last), from the cache unless its source changed since it was read.
pub(super) fn load(path: &Path, iteration: Option<u32>) -> anyhow::Result<Loaded> {
    let (source, stamp) = resolve(path, iteration)?;
    // Loading holds the lock: the players of an arena, built at once, read one network once.
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = cache.iter().position(|(s, _, _)| *s == source) {
        let entry = cache.remove(i);
        if entry.1 == stamp {
            let loaded = entry.2.clone();
            cache.push(entry);
            return Ok(loaded);
        }
    }
    let loaded = read(&source)?;
    if cache.len() >= CAPACITY {
        cache.remove(0);
    }
    cache.push((source, stamp, loaded.clone()));
    Ok(loaded)
}

/// The source `path` and `iteration` name, a run's last iteration made explicit, and its stamp.
fn resolve(path: &Path, iteration: Option<u32>) -> anyhow::Result<(Source, Stamp)> {
    if !path.is_dir() {
        if iteration.is_some() {
            bail!(
                "iteration= applies to a run directory, and {} is a file",
                path.display()
            );
        }
        return Ok(((path.to_path_buf(), None), stamp(path)));
    }
    let run = RunDir::new(path);
    let it = match iteration {
        Some(it) => it,
        None => run.read_meta()?.iteration,
    };
    Ok(((path.to_path_buf(), Some(it)), stamp(&run.iteration(it))))
}

/// Reads the network of `source`.
fn read(source: &Source) -> anyhow::Result<Loaded> {
    let (path, iteration) = source;
    let bundle = match iteration {
        Some(_) => crate::export::from_run(path, *iteration, None)?,
        None => Bundle::read(path)?,
    };
    let eval: Arc<dyn Inference> = Arc::new(
        bundle
            .inference()
            .with_context(|| format!("the network in {} does not load", path.display()))?,
    );
    Ok((bundle.header, eval))
}

/// How many networks the cache holds now, and whether one of them is `path`'s.
#[cfg(test)]
fn held(path: &Path) -> (usize, bool) {
    let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let holds = cache.iter().any(|((p, _), _, _)| p == path);
    (cache.len(), holds)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHIPPED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/checkpoints/shipped");

    /// Puts the shipped player of `variant` at `to`, replacing any file there atomically.
    fn place(variant: &str, to: &Path) {
        let bytes = std::fs::read(format!("{SHIPPED}/{variant}.bao")).unwrap();
        crate::util::fs::write_atomic(to, &bytes).unwrap();
    }

    #[test]
    fn a_replaced_player_file_is_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("net.bao");
        place("kiswahili", &file);
        assert_eq!(load(&file, None).unwrap().0.variant, "kiswahili");
        assert_eq!(load(&file, None).unwrap().0.variant, "kiswahili");
        place("hus", &file);
        assert_eq!(load(&file, None).unwrap().0.variant, "hus");
    }

    #[test]
    fn a_runs_last_iteration_is_the_one_on_disk_now() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::new(dir.path());
        let config = include_str!("../../configs/smoke.toml");
        run.write_config(config).unwrap();
        let net = toml::from_str::<crate::train::TrainConfig>(config)
            .unwrap()
            .net
            .shape;
        let mut meta = crate::train::Meta {
            version: 1,
            variant: "kiswahili".into(),
            ..Default::default()
        };
        for it in 1..=2 {
            let trainer =
                crate::nn::Trainer::new(&net, crate::nn::Compute::Cpu, 0.0, u64::from(it)).unwrap();
            trainer.save(&run.iteration(it)).unwrap();
            meta.iteration = it;
            run.write_meta(&meta).unwrap();
            let (header, _) = load(dir.path(), None).unwrap();
            assert!(
                header.source.ends_with(&format!("iteration {it}")),
                "{}",
                header.source
            );
        }
        let (header, _) = load(dir.path(), Some(1)).unwrap();
        assert!(header.source.ends_with("iteration 1"), "{}", header.source);
    }

    #[test]
    fn the_cache_holds_a_bounded_number_of_networks() {
        let dir = tempfile::tempdir().unwrap();
        let files: Vec<PathBuf> = (0..CAPACITY + 3)
            .map(|i| dir.path().join(format!("net-{i}.bao")))
            .collect();
        for file in &files {
            place("hus", file);
            load(file, None).unwrap();
            let (count, holds) = held(file);
            assert!(count <= CAPACITY && holds, "{count} networks held");
        }
        // The least recently used went first; the one used last is shared, not read again.
        assert!(!held(&files[0]).1, "the first network is still held");
        let last = files.last().unwrap();
        let kept = load(last, None).unwrap();
        assert!(Arc::ptr_eq(&kept.1, &load(last, None).unwrap().1));
    }
}
