//! Many environments stepped together on the rayon pool they are called from, with contiguous
//! buffers reused every step and automatic resets.

use super::action::{ACTIONS, write_mask};
use super::env::{Env, EnvConfig, EnvError, EpisodeEnd};
use super::observation::{Features, OBS_LEN};
use super::share::{ByIndex, Claims};
use crate::pool::in_pool;
use crate::rules::{Game, Position, Side};
use rayon::prelude::*;

/// Misuse of a [`VecEnv`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum VecEnvError {
    /// `step` needs one action per environment.
    #[error("got {found} actions for {expected} environments")]
    WrongActionCount {
        /// Number of environments.
        expected: usize,
        /// Actions given.
        found: usize,
    },
    /// `step_where` needs one flag per environment, saying whether it steps.
    #[error("got {found} flags of the environments to step for {expected} environments")]
    WrongActiveCount {
        /// Number of environments.
        expected: usize,
        /// Flags given.
        found: usize,
    },
    /// `restore` needs one saved state per environment.
    #[error("got {found} saved states for {expected} environments")]
    WrongStateCount {
        /// Number of environments.
        expected: usize,
        /// States given.
        found: usize,
    },
    /// An environment rejected its action (nothing was stepped).
    #[error("environment {index}: {source}")]
    Env {
        /// Which environment.
        index: usize,
        /// What it said.
        source: EnvError,
    },
    /// Zero environments asked for.
    #[error("a VecEnv needs at least one environment")]
    Empty,
}

/// The seed of episode `episode` of environment `index` under `base_seed`: a fixed mix of the
/// three, so every episode is reproducible on its own and independent of thread scheduling.
pub fn episode_seed(base_seed: u64, index: usize, episode: u64) -> u64 {
    use crate::util::hash::splitmix64;
    splitmix64(splitmix64(splitmix64(base_seed) ^ index as u64) ^ episode)
}

/// How an environment's episode ended at the last step, with the final position (the one the
/// auto-reset replaced).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinalState {
    /// How the episode ended.
    pub end: EpisodeEnd,
    /// The last position of the episode.
    pub position: Position,
}

/// A lane's results of the last step, copied into the `VecEnv`'s public arrays.
#[derive(Clone, Copy, Debug)]
struct LaneOut {
    mask_bits: u64,
    episode: u64,
    rewards: [f32; 2],
    terminated: bool,
    truncated: bool,
    mover: Side,
}

/// One environment with its last step's results. Aligned to cache lines, so threads stepping
/// neighbouring lanes never write to a shared line.
#[derive(Clone, Debug)]
#[repr(align(64))]
struct Lane {
    out: LaneOut,
    env: Env,
    /// Position in the `VecEnv` (for the episode seeds).
    index: usize,
    /// Set when the last step ended an episode.
    fin: Option<FinalState>,
    /// What the lane's observation buffer shows: each step rewrites only what changed.
    shown: Features,
}

impl Lane {
    /// Starts episode `episode` and writes its first observation and mask.
    fn start(&mut self, base_seed: u64, episode: u64, obs: &mut [f32], mask: &mut [f32]) {
        self.out.episode = episode;
        self.env
            .reset_state(episode_seed(base_seed, self.index, episode));
        self.publish(obs, mask);
    }

    /// Writes the current observation (over the one the buffer shows) and mask.
    #[inline]
    fn publish(&mut self, obs: &mut [f32], mask: &mut [f32]) {
        let now = Features::of(self.env.state());
        now.update(&self.shown, obs);
        self.shown = now;
        self.out.mask_bits = self.env.legal_mask_bits();
        write_mask(self.out.mask_bits, mask);
    }

    /// Leaves the lane as it is for a step: nothing moved, so no reward and no end.
    #[inline]
    fn rest(&mut self) {
        self.out.rewards = [0.0; 2];
        self.out.terminated = false;
        self.out.truncated = false;
        self.fin = None;
    }

    /// Plays a checked-legal action, auto-resetting at the end of the episode.
    #[inline]
    fn step(&mut self, base_seed: u64, action: usize, obs: &mut [f32], mask: &mut [f32]) {
        self.out.mover = self.env.current_player();
        // The action was checked against the mask, so this cannot fail.
        let Ok(t) = self.env.advance(action) else {
            return;
        };
        self.out.rewards = t.rewards;
        self.out.terminated = t.terminated;
        self.out.truncated = t.truncated;
        self.fin = self.env.episode_end().map(|end| FinalState {
            end,
            position: *self.env.state(),
        });
        if self.fin.is_some() {
            self.start(base_seed, self.out.episode + 1, obs, mask);
        } else {
            self.publish(obs, mask);
        }
    }
}

/// `N` environments stepped together: in parallel on the rayon pool a step is called from (in
/// `pool.install`), and on the caller's thread alone outside any pool, since handing a small
/// batch to other threads and waiting for them can cost more than the step itself (see
/// [`in_pool`](crate::pool::in_pool)). After [`VecEnv::step`] the buffers hold, for
/// each environment `i`: the observation (`obs[i * OBS_LEN..]`, for the player to move, of the
/// new episode's first position if the episode just ended), the legal mask (`masks[i * 64..]`,
/// 1.0 legal), the rewards, terminated/truncated flags, and in `finals[i]` the ended episode's
/// end and last position. Results do not depend on the number of rayon threads.
#[derive(Clone, Debug)]
pub struct VecEnv {
    lanes: Vec<Lane>,
    base_seed: u64,
    obs: Vec<f32>,
    masks: Vec<f32>,
    // Per-environment results, written by the parallel tasks at every step.
    mask_bits: Vec<u64>,
    episodes: Vec<u64>,
    rewards: Vec<[f32; 2]>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    movers: Vec<Side>,
    finals: Vec<Option<FinalState>>,
    /// Who steps which lane, reused every step.
    claims: Claims,
}

impl VecEnv {
    /// `n` environments of `game`, each reset with [`episode_seed`]`(base_seed, i, 0)`.
    pub fn new(
        game: Game,
        config: EnvConfig,
        n: usize,
        base_seed: u64,
    ) -> Result<VecEnv, VecEnvError> {
        if n == 0 {
            return Err(VecEnvError::Empty);
        }
        let env = Env::new(game, config).map_err(|source| VecEnvError::Env { index: 0, source })?;
        let lanes = (0..n)
            .map(|index| Lane {
                out: LaneOut {
                    mask_bits: 0,
                    episode: 0,
                    rewards: [0.0; 2],
                    terminated: false,
                    truncated: false,
                    mover: Side::South,
                },
                env: env.clone(),
                index,
                fin: None,
                shown: Features::of(env.state()),
            })
            .collect();
        let mut v = VecEnv {
            lanes,
            base_seed,
            obs: vec![0.0; n * OBS_LEN],
            masks: vec![0.0; n * ACTIONS],
            mask_bits: vec![0; n],
            episodes: vec![0; n],
            rewards: vec![[0.0; 2]; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            movers: vec![Side::South; n],
            finals: vec![None; n],
            claims: Claims::default(),
        };
        v.reset(base_seed);
        Ok(v)
    }

    /// Restarts every environment with a new base seed (episode counters back to 0).
    pub fn reset(&mut self, base_seed: u64) {
        self.base_seed = base_seed;
        let restart = |(lanes, obs, masks): (&mut [Lane], &mut [f32], &mut [f32])| {
            for ((lane, o), m) in lanes
                .iter_mut()
                .zip(obs.chunks_exact_mut(OBS_LEN))
                .zip(masks.chunks_exact_mut(ACTIONS))
            {
                // Nothing is known of what the buffer holds: write it whole first.
                lane.shown.write(o);
                lane.start(base_seed, 0, o, m);
                lane.out.rewards = [0.0; 2];
                lane.out.terminated = false;
                lane.out.truncated = false;
                lane.fin = None;
            }
        };
        if in_pool() {
            // A few tasks per thread, so the work balances.
            let tasks = rayon::current_num_threads().max(1) * 4;
            let chunk = self.lanes.len().div_ceil(tasks).max(1);
            (
                self.lanes.par_chunks_mut(chunk),
                self.obs.par_chunks_mut(chunk * OBS_LEN),
                self.masks.par_chunks_mut(chunk * ACTIONS),
            )
                .into_par_iter()
                .for_each(restart);
        } else {
            restart((&mut self.lanes, &mut self.obs, &mut self.masks));
        }
        self.gather();
    }

    /// Copies the lanes' results into the public arrays (after a reset; `step` does this in
    /// its parallel tasks).
    fn gather(&mut self) {
        for (i, lane) in self.lanes.iter().enumerate() {
            let out = lane.out;
            self.mask_bits[i] = out.mask_bits;
            self.episodes[i] = out.episode;
            self.rewards[i] = out.rewards;
            self.terminated[i] = out.terminated;
            self.truncated[i] = out.truncated;
            self.movers[i] = out.mover;
            // The final state is only read (another cache line) when an episode ended.
            self.finals[i] = if out.terminated || out.truncated {
                lane.fin
            } else {
                None
            };
        }
    }

    /// Plays `actions[i]` in environment `i`, in parallel. All actions are checked first: if
    /// any is out of range or illegal, nothing is stepped and the first culprit is named.
    /// Environments whose episode ends are reset at once with the next episode seed.
    pub fn step(&mut self, actions: &[usize]) -> Result<(), VecEnvError> {
        self.step_where(actions, None)
    }

    /// As [`VecEnv::step`], in the environments `active` marks only (all of them for `None`):
    /// the others are left as they are, with no reward and no end at this step, and their
    /// actions are not read (for an opponent that moves only where it is its turn).
    pub fn step_where(
        &mut self,
        actions: &[usize],
        active: Option<&[bool]>,
    ) -> Result<(), VecEnvError> {
        self.check_step(actions, active)?;
        let stepped = |i: usize| active.is_none_or(|a| a[i]);
        // One task per thread, each stepping its own block of lanes first (see `share`).
        let threads = if in_pool() {
            rayon::current_num_threads()
        } else {
            1
        };
        self.claims.start(self.lanes.len(), threads);
        let base_seed = self.base_seed;
        let claims = &self.claims;
        let lanes = ByIndex::new(&mut self.lanes);
        let obs = ByIndex::new(self.obs.as_chunks_mut::<OBS_LEN>().0);
        let masks = ByIndex::new(self.masks.as_chunks_mut::<ACTIONS>().0);
        let bits = ByIndex::new(&mut self.mask_bits);
        let episodes = ByIndex::new(&mut self.episodes);
        let rewards = ByIndex::new(&mut self.rewards);
        let terminated = ByIndex::new(&mut self.terminated);
        let truncated = ByIndex::new(&mut self.truncated);
        let movers = ByIndex::new(&mut self.movers);
        let finals = ByIndex::new(&mut self.finals);
        let step_block = |k: usize| {
            claims.run(k, |i| {
                // SAFETY: `claims` hands each index to one call only, and nothing else
                // borrows these buffers during the step.
                let (lane, o, m) = unsafe { (lanes.get(i), obs.get(i), masks.get(i)) };
                if stepped(i) {
                    lane.step(base_seed, actions[i], o, m);
                } else {
                    lane.rest();
                }
                // The results go to the public arrays from the thread that stepped the lane,
                // whose cache holds it.
                let out = lane.out;
                unsafe {
                    *bits.get(i) = out.mask_bits;
                    *episodes.get(i) = out.episode;
                    *rewards.get(i) = out.rewards;
                    *terminated.get(i) = out.terminated;
                    *truncated.get(i) = out.truncated;
                    *movers.get(i) = out.mover;
                    *finals.get(i) = lane.fin;
                }
            });
        };
        match claims.parts() {
            1 => step_block(0),
            parts => (0..parts).into_par_iter().for_each(step_block),
        }
        Ok(())
    }

    /// The errors of `step_where`, found before anything is stepped.
    fn check_step(&self, actions: &[usize], active: Option<&[bool]>) -> Result<(), VecEnvError> {
        if actions.len() != self.lanes.len() {
            return Err(VecEnvError::WrongActionCount {
                expected: self.lanes.len(),
                found: actions.len(),
            });
        }
        if let Some(active) = active
            && active.len() != self.lanes.len()
        {
            return Err(VecEnvError::WrongActiveCount {
                expected: self.lanes.len(),
                found: active.len(),
            });
        }
        let stepped = |i: usize| active.is_none_or(|a| a[i]);
        for (index, (&a, &bits)) in actions.iter().zip(&self.mask_bits).enumerate() {
            if stepped(index) && (a >= ACTIONS || bits >> a & 1 == 0) {
                // Let the environment build the precise error.
                let source = match self.lanes[index].env.clone().advance(a) {
                    Err(e) => e,
                    Ok(_) => EnvError::ActionOutOfRange { action: a },
                };
                return Err(VecEnvError::Env { index, source });
            }
        }
        Ok(())
    }

    /// Puts environment `i` in `states[i]`: its position (checked as [`Env::set_state`]
    /// checks it), ply count and episode index, as a copy of another `VecEnv` saved them, so
    /// the next steps and auto-resets are that one's. The last step's results read as a rest.
    /// Nothing changes on an error.
    pub fn restore(&mut self, states: &[(Position, u32, u64)]) -> Result<(), VecEnvError> {
        if states.len() != self.lanes.len() {
            return Err(VecEnvError::WrongStateCount {
                expected: self.lanes.len(),
                found: states.len(),
            });
        }
        let mut lanes = self.lanes.clone();
        for (index, (lane, &(pos, plies, episode))) in lanes.iter_mut().zip(states).enumerate() {
            lane.env
                .set_state(pos)
                .map_err(|source| VecEnvError::Env { index, source })?;
            lane.env.set_plies(plies);
            lane.out.episode = episode;
        }
        self.lanes = lanes;
        let lanes = self.lanes.iter_mut();
        let obs = self.obs.chunks_exact_mut(OBS_LEN);
        for ((lane, o), m) in lanes.zip(obs).zip(self.masks.chunks_exact_mut(ACTIONS)) {
            lane.shown.write(o);
            lane.publish(o, m);
            lane.rest();
        }
        self.gather();
        Ok(())
    }

    /// Number of environments.
    pub fn len(&self) -> usize {
        self.lanes.len()
    }

    /// Always false: a `VecEnv` has at least one environment.
    pub fn is_empty(&self) -> bool {
        self.lanes.is_empty()
    }

    /// The game every environment plays (a `VecEnv` has at least one).
    pub fn game(&self) -> &Game {
        self.lanes[0].env.game()
    }

    /// Environment `i` (read-only: step it through [`VecEnv::step`]).
    pub fn env(&self, i: usize) -> Option<&Env> {
        self.lanes.get(i).map(|l| &l.env)
    }

    /// The environments, in order.
    pub fn envs(&self) -> impl ExactSizeIterator<Item = &Env> {
        self.lanes.iter().map(|l| &l.env)
    }

    /// Observations, `[N, OBS_CHANNELS, 4, 8]` flattened.
    pub fn obs(&self) -> &[f32] {
        &self.obs
    }

    /// Legal masks, `[N, 64]` flattened, 1.0 legal and 0.0 illegal.
    pub fn masks(&self) -> &[f32] {
        &self.masks
    }

    /// Legal masks as bitmasks, one per environment.
    pub fn mask_bits(&self) -> &[u64] {
        &self.mask_bits
    }

    /// The last step's rewards per environment, indexed by `Side::index()`.
    pub fn rewards(&self) -> &[[f32; 2]] {
        &self.rewards
    }

    /// Whether the last step ended each environment's game by the rules.
    pub fn terminated(&self) -> &[bool] {
        &self.terminated
    }

    /// Whether the last step truncated each environment's game at `max_plies`.
    pub fn truncated(&self) -> &[bool] {
        &self.truncated
    }

    /// Who moved in each environment at the last step.
    pub fn movers(&self) -> &[Side] {
        &self.movers
    }

    /// For environments whose episode ended at the last step: how, and the last position.
    pub fn finals(&self) -> &[Option<FinalState>] {
        &self.finals
    }

    /// Index of each environment's current episode (0 for the first).
    pub fn episodes(&self) -> &[u64] {
        &self.episodes
    }

    /// The base seed.
    pub fn base_seed(&self) -> u64 {
        self.base_seed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn episode_seeds_differ_by_each_input() {
        let s = episode_seed(1, 2, 3);
        assert_eq!(s, episode_seed(1, 2, 3));
        assert_ne!(s, episode_seed(0, 2, 3));
        assert_ne!(s, episode_seed(1, 3, 3));
        assert_ne!(s, episode_seed(1, 2, 4));
        assert_ne!(episode_seed(0, 1, 0), episode_seed(0, 0, 1));
    }
}
