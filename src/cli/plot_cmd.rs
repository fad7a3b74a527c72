//! `bao plot`: charts of a training run, PNG and SVG, in `RUN_DIR/plots/`.

use std::path::PathBuf;

/// `bao plot`: charts of a training run.
#[derive(clap::Args, Debug)]
pub struct PlotArgs {
    /// The training run directory (with its metrics.jsonl).
    pub run_dir: PathBuf,
}

/// Runs `bao plot`: writes the charts and prints their paths.
pub fn run_plot(args: PlotArgs) -> anyhow::Result<()> {
    for f in crate::plot::write_charts(&args.run_dir)? {
        println!("{}", f.display());
    }
    Ok(())
}
