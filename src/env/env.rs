//! A Gym-like environment for one game: reset, step with an action id, rewards, masks.

use super::action::{
    ACTIONS, ActionError, action_text, action_to_move, mask_actions, mask_to_bools, move_to_action,
    parse_action, stage_name, write_mask,
};
use super::observation::{OBS_LEN, encode};
use crate::notation::MoveText;
use crate::rules::{EndReason, Game, MoveList, Outcome, Position, Rules, Side};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::fmt;

/// An observation owned by the caller: `OBS_LEN` floats in the layout `[OBS_CHANNELS, 4, 8]`
/// (see `docs/ENV.md`). The allocation-free path is [`Env::step_into`] / [`Env::observe_into`].
pub type Observation = Vec<f32>;

/// Episode settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EnvConfig {
    /// The episode is truncated when the game reaches this many plies (counting the random
    /// opening plies) without ending.
    pub max_plies: u32,
    /// Random legal plies played after each reset, drawn from the reset seed (varied starts).
    pub opening_random_plies: u32,
}

impl Default for EnvConfig {
    fn default() -> Self {
        EnvConfig {
            max_plies: 1000,
            opening_random_plies: 0,
        }
    }
}

/// Misuse of an environment. Nothing here panics; every error names what is wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EnvError {
    /// The configuration does not make sense.
    #[error("invalid environment config: {0}")]
    InvalidConfig(String),
    /// A position that does not fit the rules.
    #[error("invalid position: {0}")]
    InvalidPosition(#[from] crate::rules::SetupError),
    /// The action id is not in `0..64`.
    #[error("action {action} is out of range: actions are 0..{ACTIONS}")]
    ActionOutOfRange {
        /// The id given.
        action: usize,
    },
    /// The action is not legal in the current position.
    #[error(
        "illegal action {action} ({text}) for {side}; legal actions: {legal}",
        legal = if legal.is_empty() { "none".to_string() } else {
            legal.iter().map(|(a, t)| format!("{a} {t}")).collect::<Vec<_>>().join(", ")
        }
    )]
    IllegalAction {
        /// The id given.
        action: usize,
        /// Its move in KIBA notation, or why it names no move in this stage.
        text: String,
        /// The player to move.
        side: Side,
        /// The legal actions with their moves in KIBA notation, by action id.
        legal: Vec<(usize, String)>,
    },
    /// `step` after the episode ended; call `reset`.
    #[error("the episode is over ({end}); call reset")]
    EpisodeOver {
        /// How it ended.
        end: EpisodeEnd,
    },
    /// A caller's observation buffer has the wrong size.
    #[error(transparent)]
    ObservationBuffer(#[from] super::observation::ObsBufferError),
    /// A move text or action id that names no legal move.
    #[error(transparent)]
    Action(#[from] ActionError),
}

/// How an episode ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EpisodeEnd {
    /// The game ended by the rules.
    Terminated(Outcome),
    /// The game reached `max_plies` plies.
    Truncated {
        /// Plies played.
        plies: u32,
    },
}

impl fmt::Display for EpisodeEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpisodeEnd::Terminated(o) => {
                let why = match o.reason {
                    EndReason::FrontRowEmpty => "front row empty",
                    EndReason::NoMoves => "no legal move",
                    EndReason::NeverEndingMove => "never-ending move",
                };
                match o.winner {
                    Some(w) => write!(f, "{w} won: {why}"),
                    None => write!(f, "void: {why}"),
                }
            }
            EpisodeEnd::Truncated { plies } => write!(f, "truncated after {plies} plies"),
        }
    }
}

/// What a step did, besides the observation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// The move played; `Display` prints it in KIBA notation for its mover (`A3>+`).
    pub mv: MoveText,
    /// Plies played in the game after this step (random opening plies included).
    pub ply: u32,
    /// The game's outcome if this step ended it (winner and reason).
    pub outcome: Option<Outcome>,
}

/// One step's results without the observation (see [`Env::step_into`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition {
    /// Rewards indexed by `Side::index()` (South, North): +1 winner, -1 loser, 0 for a draw or
    /// while the game goes on.
    pub rewards: [f32; 2],
    /// The game ended by the rules.
    pub terminated: bool,
    /// The game reached `max_plies` without ending.
    pub truncated: bool,
    /// Details.
    pub info: StepInfo,
}

/// One step's results (Gym's `obs, reward, terminated, truncated, info`).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The observation of the position after the move, for the player now to move.
    pub observation: Observation,
    /// Rewards indexed by `Side::index()` (South, North): +1 winner, -1 loser, 0 otherwise.
    pub rewards: [f32; 2],
    /// The game ended by the rules.
    pub terminated: bool,
    /// The game reached `max_plies` without ending.
    pub truncated: bool,
    /// Details.
    pub info: StepInfo,
}

/// The environment: a game, the current position, its legal moves (generated once per
/// position and reused by `step`), and a seeded random generator for varied starts.
#[derive(Clone, Debug)]
pub struct Env {
    game: Game,
    config: EnvConfig,
    pos: Position,
    /// Legal moves and child positions of `pos`.
    list: MoveList,
    /// Bit `a` set: action `a` is legal.
    mask: u64,
    /// Action -> index in `list`, valid where `mask` is set.
    slot: [u8; ACTIONS],
    rng: ChaCha8Rng,
    plies: u32,
    end: Option<EpisodeEnd>,
}

impl Env {
    /// An environment of `game` at the start position (as after `reset(0)`).
    pub fn new(game: Game, config: EnvConfig) -> Result<Env, EnvError> {
        if config.max_plies == 0 {
            return Err(EnvError::InvalidConfig(
                "max_plies must be at least 1".into(),
            ));
        }
        if config.opening_random_plies >= config.max_plies {
            return Err(EnvError::InvalidConfig(format!(
                "opening_random_plies ({}) must be below max_plies ({})",
                config.opening_random_plies, config.max_plies
            )));
        }
        let pos = Position::start(&game);
        let mut env = Env {
            game,
            config,
            pos,
            list: MoveList::new(),
            mask: 0,
            slot: [0; ACTIONS],
            rng: ChaCha8Rng::seed_from_u64(0),
            plies: 0,
            end: None,
        };
        env.reset_state(0);
        Ok(env)
    }

    /// Starts a new episode: the start position, then `opening_random_plies` random legal plies
    /// drawn from `seed` (never into a finished game: a ply that would end it is avoided, and the
    /// walk stops early if every ply would). Returns the first observation.
    pub fn reset(&mut self, seed: u64) -> Observation {
        self.reset_state(seed);
        self.observation()
    }

    /// As [`Env::reset`], without encoding an observation: for a caller that reads it later,
    /// into its own buffer, or not at all.
    pub fn restart(&mut self, seed: u64) {
        self.reset_state(seed);
    }

    /// As [`Env::reset`], writing the observation into `obs` (`OBS_LEN` floats).
    pub fn reset_into(&mut self, seed: u64, obs: &mut [f32]) -> Result<(), EnvError> {
        check_buffer(obs)?;
        self.reset_state(seed);
        encode(&self.game, &self.pos, obs);
        Ok(())
    }

    pub(super) fn reset_state(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.pos = Position::start(&self.game);
        self.plies = 0;
        self.refresh();
        let mut scratch = MoveList::new();
        let mut order = [0u8; ACTIONS];
        for _ in 0..self.config.opening_random_plies {
            // Try the legal plies in a random order; take the first that leaves a live game.
            let n = self.list.len();
            for (i, o) in order.iter_mut().enumerate().take(n) {
                *o = i as u8;
            }
            let mut next = None;
            for k in 0..n {
                let j = self.rng.random_range(k..n);
                order.swap(k, j);
                let child = self.list.children()[order[k] as usize];
                child.legal_moves(&self.game, &mut scratch);
                if child.outcome_given(&scratch).is_none() {
                    next = Some(child);
                    break;
                }
            }
            let Some(child) = next else { break };
            self.pos = child;
            self.plies += 1;
            std::mem::swap(&mut self.list, &mut scratch);
            self.index_moves();
        }
    }

    /// Puts the environment in `pos` (checked against the rules) as a fresh episode.
    pub fn set_state(&mut self, pos: Position) -> Result<(), EnvError> {
        pos.validate(&self.game)
            .map_err(EnvError::InvalidPosition)?;
        self.pos = pos;
        self.plies = u32::from(pos.ply());
        self.refresh();
        if self.end.is_none() && self.plies >= self.config.max_plies {
            self.end = Some(EpisodeEnd::Truncated { plies: self.plies });
        }
        Ok(())
    }

    /// Sets the ply count of the episode (as a restored copy of one counted it), truncating it
    /// if that reaches the cap.
    pub fn set_plies(&mut self, plies: u32) {
        self.plies = plies;
        if self.end.is_none() && self.plies >= self.config.max_plies {
            self.end = Some(EpisodeEnd::Truncated { plies: self.plies });
        }
    }

    /// Generates the legal moves of `pos` and the mask, and sees whether the game is over.
    #[inline]
    fn refresh(&mut self) {
        self.pos.legal_moves(&self.game, &mut self.list);
        self.index_moves();
    }

    #[inline]
    fn index_moves(&mut self) {
        let mut mask = 0u64;
        for (i, &mv) in self.list.moves().iter().enumerate() {
            let a = move_to_action(&self.pos, mv);
            mask |= 1 << a;
            self.slot[a] = i as u8;
        }
        self.mask = mask;
        self.end = self
            .pos
            .outcome_given(&self.list)
            .map(EpisodeEnd::Terminated);
    }

    /// Plays `action` and returns the new observation, rewards and flags.
    pub fn step(&mut self, action: usize) -> Result<Step, EnvError> {
        let t = self.advance(action)?;
        Ok(Step {
            observation: self.observation(),
            rewards: t.rewards,
            terminated: t.terminated,
            truncated: t.truncated,
            info: t.info,
        })
    }

    /// As [`Env::step`], writing the observation into `obs` (`OBS_LEN` floats) instead of
    /// allocating. Nothing changes if an error is returned.
    pub fn step_into(&mut self, action: usize, obs: &mut [f32]) -> Result<Transition, EnvError> {
        check_buffer(obs)?;
        let t = self.advance(action)?;
        encode(&self.game, &self.pos, obs);
        Ok(t)
    }

    /// Plays `action` without encoding an observation.
    pub fn advance(&mut self, action: usize) -> Result<Transition, EnvError> {
        if let Some(end) = self.end {
            return Err(EnvError::EpisodeOver { end });
        }
        if action >= ACTIONS {
            return Err(EnvError::ActionOutOfRange { action });
        }
        if self.mask >> action & 1 == 0 {
            return Err(self.illegal(action));
        }
        let (mv, child) = self.list.get(self.slot[action] as usize);
        let side = self.pos.side_to_move();
        self.pos = *child;
        self.plies += 1;
        self.refresh();
        let outcome = match self.end {
            Some(EpisodeEnd::Terminated(o)) => Some(o),
            _ => None,
        };
        let mut rewards = [0.0; 2];
        if let Some(w) = outcome.and_then(|o| o.winner) {
            rewards[w.index()] = 1.0;
            rewards[w.opponent().index()] = -1.0;
        }
        let truncated = outcome.is_none() && self.plies >= self.config.max_plies;
        if truncated {
            self.end = Some(EpisodeEnd::Truncated { plies: self.plies });
        }
        Ok(Transition {
            rewards,
            terminated: outcome.is_some(),
            truncated,
            info: StepInfo {
                mv: MoveText { mv, side },
                ply: self.plies,
                outcome,
            },
        })
    }

    fn illegal(&self, action: usize) -> EnvError {
        let text = match action_text(&self.pos, action) {
            Ok(t) => t,
            Err(e) => e.to_string(),
        };
        let legal = mask_actions(self.mask)
            .map(|a| (a, action_text(&self.pos, a).unwrap_or_default()))
            .collect();
        EnvError::IllegalAction {
            action,
            text,
            side: self.pos.side_to_move(),
            legal,
        }
    }

    /// The observation of the current position, for the player to move.
    pub fn observation(&self) -> Observation {
        let mut v = vec![0.0; OBS_LEN];
        encode(&self.game, &self.pos, &mut v);
        v
    }

    /// Writes the current observation into `obs` (`OBS_LEN` floats).
    pub fn observe_into(&self, obs: &mut [f32]) -> Result<(), EnvError> {
        check_buffer(obs)?;
        encode(&self.game, &self.pos, obs);
        Ok(())
    }

    /// Legal actions as 64 booleans (all false once the episode is over).
    pub fn legal_mask(&self) -> [bool; ACTIONS] {
        mask_to_bools(self.legal_mask_bits())
    }

    /// Legal actions as a bitmask: bit `a` set = action `a` legal (0 once the episode is over).
    #[inline]
    pub fn legal_mask_bits(&self) -> u64 {
        if self.end.is_some() { 0 } else { self.mask }
    }

    /// Writes the legal mask as 64 floats (1.0 legal, 0.0 illegal) into `out[..64]`.
    pub fn write_legal_mask(&self, out: &mut [f32]) {
        write_mask(self.legal_mask_bits(), out);
    }

    /// The legal action ids, increasing.
    pub fn legal_actions(&self) -> Vec<usize> {
        mask_actions(self.legal_mask_bits()).collect()
    }

    /// The legal moves of the current position with the positions they lead to (empty in a
    /// finished game; still filled after a truncation, since the position itself goes on).
    #[inline]
    pub fn legal_moves(&self) -> &MoveList {
        &self.list
    }

    /// The player to move.
    #[inline]
    pub fn current_player(&self) -> Side {
        self.pos.side_to_move()
    }

    /// The current position (serde-serializable; `Display` gives the one-line text format).
    #[inline]
    pub fn state(&self) -> &Position {
        &self.pos
    }

    /// The game.
    #[inline]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game's rule set.
    #[inline]
    pub fn rules(&self) -> &Rules {
        self.game.rules()
    }

    /// The episode settings.
    #[inline]
    pub fn config(&self) -> EnvConfig {
        self.config
    }

    /// Plies played in this game (random opening plies included).
    #[inline]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// How the episode ended, or `None` while it goes on.
    #[inline]
    pub fn episode_end(&self) -> Option<EpisodeEnd> {
        self.end
    }

    /// Whether the episode is over (terminated or truncated).
    #[inline]
    pub fn is_done(&self) -> bool {
        self.end.is_some()
    }

    /// The move an action names in the current position (legal or not).
    pub fn action_to_move(&self, action: usize) -> Result<crate::rules::Move, EnvError> {
        Ok(action_to_move(&self.pos, action)?)
    }

    /// The action's move in KIBA notation for the player to move.
    pub fn action_text(&self, action: usize) -> Result<String, EnvError> {
        Ok(action_text(&self.pos, action)?)
    }

    /// The action of the legal move written `text` in KIBA notation.
    pub fn parse_action(&self, text: &str) -> Result<usize, EnvError> {
        Ok(parse_action(&self.game, &self.pos, text)?)
    }

    /// The stage name of the current position (`opening`, `namua`, `mtaji`).
    pub fn stage_name(&self) -> &'static str {
        stage_name(self.pos.stage())
    }
}

#[inline]
fn check_buffer(obs: &[f32]) -> Result<(), EnvError> {
    if obs.len() == OBS_LEN {
        Ok(())
    } else {
        Err(super::observation::ObsBufferError {
            expected: OBS_LEN,
            found: obs.len(),
        }
        .into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn step_reuses_the_cached_moves_and_matches_the_engine() {
        let rules = Game::from(Variant::Kiswahili);
        let mut env = Env::new(rules.clone(), EnvConfig::default()).unwrap();
        let a = env.parse_action("A6<").unwrap();
        let expected = Position::start(&rules)
            .play(&rules, env.action_to_move(a).unwrap())
            .unwrap();
        let step = env.step(a).unwrap();
        assert_eq!(*env.state(), expected);
        assert_eq!(step.info.mv.to_string(), "A6<");
        assert_eq!(step.info.ply, 1);
        assert_eq!(env.current_player(), Side::North);
        assert_eq!(step.rewards, [0.0, 0.0]);
        assert!(!step.terminated && !step.truncated);
    }

    #[test]
    fn restart_starts_the_episode_reset_does() {
        let config = EnvConfig {
            opening_random_plies: 6,
            ..EnvConfig::default()
        };
        let game = Game::from(Variant::Kiswahili);
        let (mut reset, mut restarted) = (
            Env::new(game.clone(), config).unwrap(),
            Env::new(game, config).unwrap(),
        );
        for seed in [0, 7, 123_456] {
            let obs = reset.reset(seed);
            restarted.restart(seed);
            assert_eq!(restarted.state(), reset.state());
            assert_eq!(restarted.plies(), 6);
            assert_eq!(restarted.legal_mask_bits(), reset.legal_mask_bits());
            assert_eq!(restarted.observation(), obs);
        }
    }

    #[test]
    fn bad_configs_are_rejected() {
        let rules = Game::from(Variant::Kiswahili);
        let zero = EnvConfig {
            max_plies: 0,
            ..EnvConfig::default()
        };
        assert!(matches!(
            Env::new(rules.clone(), zero),
            Err(EnvError::InvalidConfig(_))
        ));
        // Rules that make no game never reach an environment: the game refuses them.
        let mut bad = rules.rules().clone();
        bad.min_lift = 0;
        assert!(matches!(
            Game::new(bad),
            Err(crate::rules::GameError::Rules(_))
        ));
    }
}
