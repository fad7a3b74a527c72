//! A training run offered by `bao serve --run DIR`: its network (to watch it play itself or its
//! evaluation opponents) and the evaluation games it recorded (`games/eval-NNNN.kiba`).

use crate::notation::{Record, split_records};
use crate::players::{MctsSpec, PlayerSpec};
use crate::train::RunDir;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A run's players and where its games are.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// The network at the run's last iteration (read again at each game), at its evaluation
    /// simulations (a spec).
    pub net: String,
    /// The opponents of its evaluations (specs).
    pub opponents: Vec<String>,
    /// Its variant.
    pub variant: String,
    /// The folder of its recorded games.
    pub games: PathBuf,
    /// The run's folder.
    pub dir: PathBuf,
}

/// One recorded game, as listed for the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameEntry {
    /// The file (`eval-0010.kiba`).
    pub file: String,
    /// The game's number in the file (0-based).
    pub game: usize,
    /// The iteration evaluated.
    pub iteration: u32,
    /// The players and the result, as the record's tags say.
    pub south: String,
    /// North's player.
    pub north: String,
    /// The result tag.
    pub result: String,
}

impl RunInfo {
    /// Reads the run in `dir` (its `meta.json` and `config.toml`).
    pub fn read(dir: &Path) -> anyhow::Result<RunInfo> {
        let run = RunDir::new(dir);
        let meta = run.read_meta()?;
        let config = run.read_config()?;
        Ok(RunInfo {
            net: PlayerSpec::Mcts(MctsSpec::of_run(dir, config.eval.sims)).to_string(),
            opponents: config.eval.opponents.clone(),
            variant: meta.variant,
            games: run.games(),
            dir: dir.to_path_buf(),
        })
    }

    /// The run's last iteration now (it trains on while the server runs; `net` plays this one);
    /// `None` while its `meta.json` cannot be read.
    pub fn iteration(&self) -> Option<u32> {
        RunDir::new(&self.dir).read_meta().ok().map(|m| m.iteration)
    }

    /// The recorded games, newest iteration first (none if the run has not evaluated yet).
    pub fn list(&self) -> Vec<GameEntry> {
        let mut files: Vec<(u32, String)> = std::fs::read_dir(&self.games)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let it = name
                    .strip_prefix("eval-")?
                    .strip_suffix(".kiba")?
                    .parse()
                    .ok()?;
                Some((it, name))
            })
            .collect();
        files.sort_unstable();
        files.reverse();
        let mut out = Vec::new();
        for (iteration, file) in files {
            let Ok(text) = crate::util::fs::read_regular_text_bounded(
                &self.games.join(&file),
                crate::util::fs::limits::TEXT,
                "records",
            ) else {
                continue;
            };
            for (game, rec) in split_records(&text).iter().enumerate() {
                let Ok(rec) = rec.parse::<Record>() else {
                    continue;
                };
                let tag = |k: &str| rec.tag(k).unwrap_or("?").to_string();
                out.push(GameEntry {
                    file: file.clone(),
                    game,
                    iteration,
                    south: tag("South"),
                    north: tag("North"),
                    result: tag("Result"),
                });
            }
        }
        out
    }

    /// The text of game `game` of `file` (a name from [`RunInfo::list`]); `None` if there is
    /// no such game. Only `eval-N.kiba` names are read, so a request cannot name other files.
    pub fn record(&self, file: &str, game: usize) -> Option<String> {
        let ok = file
            .strip_prefix("eval-")
            .and_then(|f| f.strip_suffix(".kiba"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !ok {
            return None;
        }
        let text = crate::util::fs::read_regular_text_bounded(
            &self.games.join(file),
            crate::util::fs::limits::TEXT,
            "records",
        )
        .ok()?;
        split_records(&text).into_iter().nth(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_evaluation_files_are_read() {
        let info = RunInfo {
            net: String::new(),
            opponents: Vec::new(),
            variant: "hus".into(),
            games: std::env::temp_dir(),
            dir: std::env::temp_dir(),
        };
        assert_eq!(info.record("../meta.json", 0), None);
        assert_eq!(info.record("eval-.kiba", 0), None);
        assert_eq!(info.record("eval-1/../../x.kiba", 0), None);
    }
}
