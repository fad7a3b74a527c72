//! TensorBoard scalars through tensorboard-rs. Only `add_scalar` is used: the crate's
//! `add_text`, `add_hparams` and `add_histogram` panic (`unimplemented!`).

use std::path::Path;
use tensorboard_rs::summary_writer::SummaryWriter;

/// Writes scalars to an event file in a folder; dropping it flushes.
pub struct TbLogger {
    writer: SummaryWriter,
}

impl TbLogger {
    /// A logger writing into `dir` (created if needed), in an event file of its own.
    pub fn new(dir: &Path) -> anyhow::Result<TbLogger> {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        // The crate names the file `events.out.tfevents.<unix seconds>.<host>.<pid>.0` and
        // truncates one of that name: a second logger of the same process in the same second
        // (a run resumed at once) would erase the first one's events. Wait for a fresh second.
        while name_taken(dir, unix_seconds()) {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Ok(TbLogger {
            writer: SummaryWriter::new(dir),
        })
    }

    /// One scalar point.
    pub fn scalar(&mut self, tag: &str, value: f32, step: i64) {
        self.writer.add_scalar(tag, value, step as usize);
    }

    /// Asks the writer to flush (it does not wait; dropping does).
    pub fn flush(&mut self) {
        self.writer.flush();
    }
}

fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Whether this process already has an event file of second `secs` in `dir`.
fn name_taken(dir: &Path, secs: u64) -> bool {
    let prefix = format!("events.out.tfevents.{secs:010}.");
    let suffix = format!(".{}.0", std::process::id());
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with(&prefix) && name.ends_with(&suffix)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_loggers_in_one_second_write_two_files() {
        let dir = tempfile::tempdir().unwrap();
        for value in [1.0, 2.0] {
            let mut tb = TbLogger::new(dir.path()).unwrap();
            tb.scalar("x", value, 1);
        }
        let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(files.len(), 2, "{files:?}");
        for f in files {
            assert!(f.metadata().unwrap().len() > 0, "{:?} is empty", f.path());
        }
    }
}
