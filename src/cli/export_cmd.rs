//! `bao export`: a trained player as one file, or its network as ONNX.

use crate::export::onnx;
use crate::player_file::Bundle;
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};

/// `bao export`: a training run's network as a one-file player, or as an ONNX model.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The training run directory (this or `--player` is needed).
    #[arg(long, conflicts_with = "player")]
    pub checkpoint: Option<PathBuf>,
    /// A player file to export instead of a run (e.g. to get its network as ONNX); several
    /// (`--player A.bao B.bao`) export one player with their mean weights.
    #[arg(long, num_args = 1..)]
    pub player: Vec<PathBuf>,
    /// The iteration to export (default: the last complete one).
    #[arg(long, requires = "checkpoint")]
    pub iteration: Option<u32>,
    /// Average the weights of this many iterations, up to the one exported (they must still be
    /// in the run: `keep_iterations`); 1 exports that iteration's network
    /// alone.
    #[arg(long, requires = "checkpoint", default_value_t = 1)]
    pub average: u32,
    /// Simulations per move the player uses by default (1 to 1000000).
    #[arg(long, value_parser = crate::trained::parse_sims)]
    pub sims: Option<u32>,
    /// The exploration constant the player searches with, above 0 and at most 100 (default: 1.0
    /// for a run's network, `mcts::PLAY_C_PUCT`; a player file keeps its own).
    #[arg(long, value_parser = crate::trained::parse_c_puct, allow_negative_numbers = true)]
    pub cpuct: Option<f32>,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
    /// `bundle` (default: a player file for `player:FILE`), or `onnx` (the network alone: input
    /// `obs` [batch, 27, 4, 8], outputs `policy_logits` [batch, 64] unmasked and `value`
    /// [batch, 1]; a `FILE.samples.json` beside it holds sample inputs and burn's outputs for
    /// `scripts/onnx_check.sh`).
    #[arg(long, default_value = "bundle")]
    pub format: String,
    /// The float precision of a player file's weights: `f16` (default, half the size) or `f32`
    /// (the network exactly as trained). ONNX models are always f32.
    #[arg(long, default_value = "f16")]
    pub precision: crate::nn::Precision,
}

/// Runs `bao export`.
pub fn run_export(args: ExportArgs) -> anyhow::Result<()> {
    if !matches!(args.format.as_str(), "bundle" | "onnx") {
        bail!(
            "unknown export format `{}`; the formats are `bundle` and `onnx`",
            args.format
        );
    }
    // Before the work: a path that cannot be written is refused at once.
    crate::util::fs::check_output_path(&args.out)?;
    if args.format == "onnx" {
        crate::util::fs::check_output_path(&args.out.with_extension("samples.json"))?;
    }
    let mut bundle = match (&args.checkpoint, args.player.as_slice()) {
        (Some(run), _) => {
            crate::export::from_run_averaged(run, args.iteration, args.sims, args.average)?
        }
        (None, []) => {
            bail!("give a training run with --checkpoint DIR or a player with --player FILE")
        }
        (None, files) => {
            let players = files
                .iter()
                .map(|f| Bundle::read(f))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let mut bundle = Bundle::average(&players).with_context(|| {
                let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                format!("cannot average the players {}", names.join(", "))
            })?;
            if let Some(sims) = args.sims {
                bundle.header.sims = sims;
            }
            bundle
        }
    };
    if let Some(c) = args.cpuct {
        bundle.header.search.c_puct = c;
    }
    if args.format == "onnx" {
        return write_onnx_files(&bundle, &args.out);
    }
    let bundle = bundle.with_precision(args.precision)?;
    bundle.write(&args.out)?;
    let h = &bundle.header;
    println!(
        "wrote {} ({} bytes, {} weights): {} player from {}, {} training games, {} sims per move, c_puct {}",
        args.out.display(),
        bundle.to_bytes()?.len(),
        args.precision,
        h.variant,
        h.source,
        h.training.games,
        h.sims,
        h.search.c_puct
    );
    for e in &h.training.eval {
        println!(
            "  vs {}: {:.0}% over {} games (Elo {})",
            e.opponent,
            100.0 * e.score,
            e.games,
            e.elo_text()
        );
    }
    Ok(())
}

/// The player's network as an ONNX model at `out`, with sample inputs and burn's outputs beside
/// it (`FILE.samples.json`, for `scripts/onnx_check.sh`).
fn write_onnx_files(bundle: &Bundle, out: &Path) -> anyhow::Result<()> {
    onnx::write_onnx(bundle, out)?;
    let samples = onnx::samples(bundle, 64, 1)?;
    let path = out.with_extension("samples.json");
    crate::util::fs::write_atomic(&path, serde_json::to_string(&samples)?.as_bytes())?;
    println!(
        "wrote {} ({} bytes): {} network from {}; input `{}` [batch, 27, 4, 8], outputs `{}` \
         [batch, 64] (unmasked) and `{}` [batch, 1]; {} sample positions with burn's outputs \
         in {}",
        out.display(),
        std::fs::metadata(out)?.len(),
        bundle.header.variant,
        bundle.header.source,
        onnx::INPUT_NAME,
        onnx::OUTPUT_NAMES[0],
        onnx::OUTPUT_NAMES[1],
        samples.positions.len(),
        path.display()
    );
    Ok(())
}
