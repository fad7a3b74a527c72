//! The self-play stage's door: games of one network (shared in this process, or read from
//! another's bytes), out as samples and figures. The training loop, the Python package and a distributed driver all call it, so
//! an iteration's games can be played in one call or split over several.

use super::{ReplayBuffer, SelfPlayConfig, SelfPlayResult};
use crate::mcts::Inference;
use crate::nn::NetWeights;
use crate::rules::Game;
use anyhow::{Context, bail, ensure};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Which games to play: game `g` plays from the seed `seed + g` (wrapping), for `g` in
/// `first..first + count`. A training run's iteration has its own `seed` (see
/// `train::selfplay_games`), so its games can be split over callers by `first` and `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRange {
    /// The seed of game 0.
    pub seed: u64,
    /// The first game's index.
    pub first: u64,
    /// How many games.
    pub count: usize,
}

impl GameRange {
    /// The seeds of the games, in order.
    pub fn seeds(&self) -> Vec<u64> {
        (self.first..self.first + self.count as u64)
            .map(|g| self.seed.wrapping_add(g))
            .collect()
    }
}

/// What self-play gives: the samples and figures of the games, and the time they took.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlayOutput {
    /// The samples (`games.samples`, in game order) and the games' figures.
    pub games: SelfPlayResult,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl SelfPlayOutput {
    /// The samples in the replay file format (a buffer holding exactly them).
    pub fn replay_bytes(&self) -> Vec<u8> {
        let mut buffer = ReplayBuffer::new(self.games.samples.len());
        buffer.extend(self.games.samples.iter().copied());
        buffer.to_bytes()
    }

    /// Games per second.
    pub fn games_per_sec(&self) -> f64 {
        self.games.games as f64 / self.seconds
    }

    /// Simulations per second.
    pub fn sims_per_sec(&self) -> f64 {
        self.games.simulations as f64 / self.seconds
    }
}

/// Plays the games `range` of the network `weights` with `settings` (its workers split the games
/// in fixed chunks, so the same call gives the same samples). `progress` is told how many games
/// have finished.
pub fn play_games(
    game: &Game,
    weights: &NetWeights,
    settings: &SelfPlayConfig,
    range: GameRange,
    progress: &(dyn Fn(usize) + Sync),
) -> anyhow::Result<SelfPlayOutput> {
    play_games_against(game, weights, settings, None, range, progress)
}

/// [`play_games`] with `victim` (if any) on one side of every game (see [`super::Victim`]).
pub fn play_games_against(
    game: &Game,
    weights: &NetWeights,
    settings: &SelfPlayConfig,
    victim: Option<&super::Victim>,
    range: GameRange,
    progress: &(dyn Fn(usize) + Sync),
) -> anyhow::Result<SelfPlayOutput> {
    let t0 = Instant::now();
    let seeds = range.seeds();
    let network = weights.inference().as_ref();
    let games = super::play_against(game, network, settings, victim, &seeds, progress)?;
    Ok(SelfPlayOutput {
        games,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// One caller's share of an iteration's self-play, as it travels between processes and machines
/// (a distributed worker's answer): which games, with which network version, and what they gave.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlayPart {
    /// The games played.
    pub range: GameRange,
    /// The version of the network that played them.
    pub version: u64,
    /// Their samples and figures.
    pub output: SelfPlayOutput,
}

/// The first bytes of an encoded [`SelfPlayPart`].
const PART_MAGIC: &[u8; 8] = b"BAOPART1";

/// The header of an encoded part: everything but the samples.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PartHeader {
    range: GameRange,
    version: u64,
    figures: SelfPlayResult,
    seconds: f64,
}

impl SelfPlayPart {
    /// Plays the games `range` with the network `weights`: [`play_games`] as a part.
    pub fn play(
        game: &Game,
        weights: &NetWeights,
        settings: &SelfPlayConfig,
        range: GameRange,
        progress: &(dyn Fn(usize) + Sync),
    ) -> anyhow::Result<SelfPlayPart> {
        Ok(SelfPlayPart::play_with(
            game,
            weights.inference().as_ref(),
            weights.version(),
            settings,
            range,
            progress,
        ))
    }

    /// Plays the games `range` with a network already loaded (`network`, of `version`): for
    /// a worker that keeps the network between calls.
    pub fn play_with(
        game: &Game,
        network: &dyn Inference,
        version: u64,
        settings: &SelfPlayConfig,
        range: GameRange,
        progress: &(dyn Fn(usize) + Sync),
    ) -> SelfPlayPart {
        let t0 = Instant::now();
        let games = super::play(game, network, settings, &range.seeds(), progress);
        SelfPlayPart {
            range,
            version,
            output: SelfPlayOutput {
                games,
                seconds: t0.elapsed().as_secs_f64(),
            },
        }
    }

    /// The part as bytes: a magic, a JSON header of the games and figures, the samples in the
    /// replay file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = PartHeader {
            range: self.range,
            version: self.version,
            figures: self.output.games.clone(),
            seconds: self.output.seconds,
        };
        let header = serde_json::to_vec(&header).expect("a part header serializes");
        let mut bytes = PART_MAGIC.to_vec();
        bytes.extend_from_slice(&(header.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&header);
        bytes.extend_from_slice(&self.output.replay_bytes());
        bytes
    }

    /// Reads bytes made by [`SelfPlayPart::to_bytes`]; damaged bytes are a one-line error.
    pub fn from_bytes(bytes: &[u8]) -> anyhow::Result<SelfPlayPart> {
        ensure!(
            bytes.len() >= 16 && &bytes[..8] == PART_MAGIC,
            "not a self-play part (it does not start with {})",
            String::from_utf8_lossy(PART_MAGIC)
        );
        let len = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
        let end = usize::try_from(len)
            .ok()
            .and_then(|l| l.checked_add(16))
            .filter(|&end| end <= bytes.len())
            .context("a self-play part is truncated (its header runs past the end)")?;
        let header: PartHeader = serde_json::from_slice(&bytes[16..end])
            .context("a self-play part's header is damaged")?;
        let samples = ReplayBuffer::from_bytes(&bytes[end..])
            .context("a self-play part's samples are damaged")?;
        let mut games = header.figures;
        games.samples = samples.iter().copied().collect();
        ensure!(
            games.games == header.range.count,
            "a self-play part of {} games reports {} games",
            header.range.count,
            games.games
        );
        Ok(SelfPlayPart {
            range: header.range,
            version: header.version,
            output: SelfPlayOutput {
                games,
                seconds: header.seconds,
            },
        })
    }
}

/// Puts together the parts of the games `whole` (one iteration's): they must cover each of its
/// games exactly once, from its seed. The samples come in game order, as one call over `whole`
/// gives them; the figures are summed, and `seconds` is the wall-clock time they took.
pub fn merge_parts(
    whole: GameRange,
    mut parts: Vec<SelfPlayPart>,
    seconds: f64,
) -> anyhow::Result<SelfPlayOutput> {
    parts.sort_by_key(|p| p.range.first);
    let mut next = whole.first;
    let mut games = SelfPlayResult::default();
    for part in parts {
        let r = part.range;
        if r.seed != whole.seed {
            bail!(
                "a self-play part of games {}..{} has the seed of another iteration",
                r.first,
                r.first + r.count as u64
            );
        }
        if r.first < next {
            bail!("game {} is in two self-play parts", r.first);
        }
        if r.first > next {
            bail!("games {next}..{} are in no self-play part", r.first);
        }
        next = r.first + r.count as u64;
        games = games.merge(part.output.games);
    }
    let end = whole.first + whole.count as u64;
    if next < end {
        bail!("games {next}..{end} are in no self-play part");
    }
    if next > end {
        bail!("games {end}..{next} of a self-play part are past the iteration's {end} games");
    }
    Ok(SelfPlayOutput { games, seconds })
}
