//! TensorBoard scalars through tensorboard-rs. Only `add_scalar` is used: the crate's
//! `add_text`, `add_hparams` and `add_histogram` panic (`unimplemented!`).

use std::path::Path;
use tensorboard_rs::summary_writer::SummaryWriter;

/// Writes scalars to an event file in a folder; dropping it flushes.
pub struct TbLogger {
    writer: SummaryWriter,
}

impl TbLogger {
    /// A logger writing into `dir` (created if needed).
    pub fn new(dir: &Path) -> anyhow::Result<TbLogger> {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
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
