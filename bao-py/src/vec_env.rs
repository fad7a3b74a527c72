//! `bao_zero._core.VecEnvCore`: the Rust `VecEnv` behind `bao_zero.VecEnv`, stepped with the GIL
//! released on the caller's thread (one thread) or on its own rayon pool (started again in a
//! child of `fork`), its result buffers shown to numpy without copies.

use crate::args::{MAX_ENVS, MAX_THREADS, int_arg, opt_int_arg, plies_args};
use crate::env::Env;
use crate::errors::{runtime_error, value_error, vec_env_error};
use crate::pyjson::json_to_py;
use crate::rules_arg::rules_of;
use crate::vec_opponent::Opponents;
use bao_zero::env::{ACTIONS, EnvConfig, OBS_CHANNELS, VecEnv};
use bao_zero::pool::OwnPool;
use bao_zero::rules::Position;
use numpy::ndarray::{ArrayView, Dimension, IntoDimension};
use numpy::{Element, PyArray, PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

/// `n` games stepped together (the Rust `bao_zero::env::VecEnv`), with automatic reset.
///
/// The results live in buffers owned here and are shown to Python as read-only numpy arrays
/// over the same memory (the `*_view` methods; `bao_zero.VecEnv` keeps them): each `step`
/// overwrites them in place, so a caller keeps a result past the next step by copying it.
#[pyclass(name = "VecEnvCore", module = "bao_zero._core")]
pub struct VecEnvCore {
    venv: VecEnv,
    /// Where `step` runs.
    pool: Workers,
    /// The preset's name.
    variant: &'static str,
    /// Legal masks as booleans, `[n, 64]`, rewritten after every step.
    masks: Vec<bool>,
    /// Who moved at the last step (0 South, 1 North), `[n]`.
    movers: Vec<u8>,
    /// Who is to move now, `[n]`.
    players: Vec<u8>,
    /// The actions of the step under way (reused).
    actions: Vec<usize>,
    /// Which environments the step under way plays in, when it names them (reused).
    active: Vec<bool>,
    /// The opponent played inside the batch, when one was given.
    opponents: Option<Opponents>,
}

impl VecEnvCore {
    /// Copies what the Rust `VecEnv` keeps in other forms into the buffers Python sees.
    fn publish(&mut self) {
        for (m, &bits) in self
            .masks
            .chunks_exact_mut(ACTIONS)
            .zip(self.venv.mask_bits())
        {
            for (a, x) in m.iter_mut().enumerate() {
                *x = bits >> a & 1 == 1;
            }
        }
        for (m, s) in self.movers.iter_mut().zip(self.venv.movers()) {
            *m = s.index() as u8;
        }
        for (p, e) in self.players.iter_mut().zip(self.venv.envs()) {
            *p = e.current_player().index() as u8;
        }
    }
}

/// A read-only numpy array of shape `shape` over `len` elements at `data`, kept alive by (and
/// keeping alive) `owner`.
///
/// # Safety
/// `data` must point to `shape`'s number of elements inside a buffer owned by `owner` that is
/// never reallocated while `owner` lives.
unsafe fn view<'py, T: Element, D: Dimension>(
    owner: &Bound<'py, VecEnvCore>,
    data: *const T,
    shape: impl IntoDimension<Dim = D>,
) -> PyResult<Bound<'py, PyArray<T, D>>> {
    // SAFETY: as the caller promises.
    let array = unsafe { ArrayView::from_shape_ptr(shape.into_dimension(), data) };
    // SAFETY: `owner` holds the buffer and becomes the array's base object.
    let a = unsafe { PyArray::borrow_from_array(&array, owner.clone().into_any()) };
    a.getattr("flags")?.setattr("writeable", false)?;
    Ok(a)
}

#[pymethods]
impl VecEnvCore {
    /// `VecEnvCore(n, variant, seed, threads, max_plies, opening_random_plies, rules,
    /// opponent)`; see `bao_zero.VecEnv`. Every number is checked first (`n` from 1 to 2^20,
    /// `threads` from 1 to 256): `ValueError` names the one out of range. `opponent`, a player
    /// spec, builds one player a game for [`VecEnvCore::opponent_actions`] (`ValueError` in one
    /// line for a spec that does not build, or a player of another game).
    #[new]
    #[pyo3(
        signature = (n, variant = "kiswahili", seed = None, threads = None, max_plies = None, opening_random_plies = None, rules = None, opponent = None),
        text_signature = "(n, variant='kiswahili', seed=0, threads=None, max_plies=1000, opening_random_plies=0, rules=None, opponent=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        n: &Bound<'_, PyAny>,
        variant: &str,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        max_plies: Option<&Bound<'_, PyAny>>,
        opening_random_plies: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        opponent: Option<&str>,
    ) -> PyResult<VecEnvCore> {
        let n = int_arg(n, "n (the number of environments)", 1, MAX_ENVS)? as usize;
        let seed = opt_int_arg(seed, "seed", 0, u64::MAX, 0)?;
        let threads = opt_int_arg(threads, "threads", 1, MAX_THREADS, 0)? as usize;
        let (max_plies, opening_random_plies) = plies_args(max_plies, opening_random_plies)?;
        let (v, rules) = rules_of(variant, rules)?;
        let opponents = opponent
            .map(|spec| Opponents::build(spec, &rules, n))
            .transpose()
            .map_err(|e| value_error(format!("{e:#}")))?;
        let pool = Workers::new(threads);
        let config = EnvConfig {
            max_plies,
            opening_random_plies,
        };
        let venv = pool
            .run(|| VecEnv::new(rules, config, n, seed))
            .map_err(|e| value_error(format!("{e:#}")))?
            .map_err(vec_env_error)?;
        let mut core = VecEnvCore {
            venv,
            pool,
            variant: v.name(),
            masks: vec![false; n * ACTIONS],
            movers: vec![0; n],
            players: vec![0; n],
            actions: vec![0; n],
            active: vec![true; n],
            opponents,
        };
        core.publish();
        Ok(core)
    }

    /// Restarts every environment with the base seed `seed` (episode counters back to 0).
    fn reset(&mut self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = int_arg(seed, "seed", 0, u64::MAX)?;
        let (venv, pool) = (&mut self.venv, &self.pool);
        py.detach(|| pool.run(|| venv.reset(seed)))
            .map_err(|e| runtime_error(format!("{e:#}")))?;
        if let Some(opponents) = &mut self.opponents {
            opponents.restart();
        }
        self.publish();
        Ok(())
    }

    /// Plays `actions[i]` in environment `i` (a 1-d integer array of `n`), all in parallel with
    /// the GIL released; with `active` (a bool array of `n`), only in the environments it marks,
    /// the others left as they are (no reward, no end) and their actions not read. Every action
    /// played is checked first: if one is out of range or illegal, `ValueError` names it and
    /// nothing is stepped.
    #[pyo3(signature = (actions, active = None))]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        active: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        read_actions(py, actions, &mut self.actions)?;
        let active = match active {
            Some(flags) => {
                read_active(py, flags, &mut self.active)?;
                Some(self.active.as_slice())
            }
            None => None,
        };
        let (venv, pool, acts) = (&mut self.venv, &self.pool, &self.actions);
        py.detach(|| pool.run(|| venv.step_where(acts, active)))
            .map_err(|e| runtime_error(format!("{e:#}")))?
            .map_err(vec_env_error)?;
        self.publish();
        Ok(())
    }

    /// The opponent's action in each environment `moving` marks (a bool array of `n`), int64
    /// `[n]` (0 in the others), chosen in parallel on the pool with the GIL released: each
    /// environment's player, started on each episode with that episode's seed.
    /// `ValueError` without an opponent, `RuntimeError` naming the game where a player failed.
    fn opponent_actions<'py>(
        &mut self,
        py: Python<'py>,
        moving: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        read_active(py, moving, &mut self.active)?;
        let Some(opponents) = self.opponents.as_mut() else {
            return Err(value_error(
                "this VecEnvCore has no opponent: build it with opponent=SPEC",
            ));
        };
        let mut out = vec![0i64; self.venv.len()];
        let (venv, pool, moving) = (&self.venv, &self.pool, &self.active);
        py.detach(|| pool.run(|| opponents.choose(venv, moving, &mut out)))
            .map_err(|e| runtime_error(format!("{e:#}")))?
            .map_err(|e| runtime_error(format!("{e:#}")))?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// The opponent's spec, if one was given.
    #[getter]
    fn opponent(&self) -> Option<&str> {
        self.opponents.as_ref().map(Opponents::spec)
    }

    /// Observations `[n, 27, 4, 8]` (float32, for the player to move; of the next episode's
    /// first position where an episode just ended).
    fn observations_view<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.borrow();
        let n = me.venv.len();
        // SAFETY: the `VecEnv`'s buffers have a fixed size and are never reallocated.
        Ok(unsafe { view(slf, me.venv.obs().as_ptr(), (n, OBS_CHANNELS, 4, 8)) }?.into_any())
    }

    /// Legal masks `[n, 64]` (bool).
    fn action_masks_view<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.borrow();
        // SAFETY: as above; `masks` is never resized.
        Ok(unsafe { view(slf, me.masks.as_ptr(), (me.venv.len(), ACTIONS)) }?.into_any())
    }

    /// Rewards of the last step `[n, 2]` (float32) by side: column 0 South, 1 North.
    fn rewards_view<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.borrow();
        let data = me.venv.rewards().as_ptr().cast::<f32>();
        // SAFETY: `[[f32; 2]]` is laid out as `2 n` floats; the buffer is never resized.
        Ok(unsafe { view(slf, data, (me.venv.len(), 2)) }?.into_any())
    }

    /// Whether the last step ended each game by the rules `[n]` (bool).
    fn terminated_view<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.borrow();
        // SAFETY: as above.
        Ok(unsafe { view(slf, me.venv.terminated().as_ptr(), me.venv.len()) }?.into_any())
    }

    /// Whether the last step truncated each game at `max_plies` `[n]` (bool).
    fn truncated_view<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.borrow();
        // SAFETY: as above.
        Ok(unsafe { view(slf, me.venv.truncated().as_ptr(), me.venv.len()) }?.into_any())
    }

    /// Who moved at the last step `[n]` (uint8: 0 South, 1 North).
    fn movers_view<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.borrow();
        // SAFETY: as above; `movers` is never resized.
        Ok(unsafe { view(slf, me.movers.as_ptr(), me.venv.len()) }?.into_any())
    }

    /// Who is to move now `[n]` (uint8: 0 South, 1 North).
    fn players_view<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.borrow();
        // SAFETY: as above; `players` is never resized.
        Ok(unsafe { view(slf, me.players.as_ptr(), me.venv.len()) }?.into_any())
    }

    /// Each environment's episode index `[n]` (uint64, 0 for the first).
    fn episodes_view<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.borrow();
        // SAFETY: as above.
        Ok(unsafe { view(slf, me.venv.episodes().as_ptr(), me.venv.len()) }?.into_any())
    }

    /// For each environment whose episode ended at the last step: `(index, end, winner,
    /// final position text)`, `winner` 0 South, 1 North or `None`.
    fn finals(&self) -> Vec<(usize, String, Option<usize>, String)> {
        self.venv
            .finals()
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                f.map(|f| {
                    let winner = match f.end {
                        bao_zero::env::EpisodeEnd::Terminated(o) => o.winner.map(|s| s.index()),
                        bao_zero::env::EpisodeEnd::Truncated { .. } => None,
                    };
                    (i, f.end.to_string(), winner, f.position.to_string())
                })
            })
            .collect()
    }

    /// The last observation of the episode environment `index` ended at the last step, as
    /// `player` (0 South, 1 North) sees it (`ValueError` if none ended there).
    fn final_observation<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
        player: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, numpy::PyArray3<f32>>> {
        let last = self.venv.len() as u64 - 1;
        let i = int_arg(index, "index", 0, last)? as usize;
        let player = int_arg(player, "player (0 South, 1 North)", 0, 1)? as usize;
        let fin = self.venv.finals()[i].ok_or_else(|| {
            value_error(format!(
                "no episode of environment {i} ended at the last step"
            ))
        })?;
        let rules = self
            .venv
            .env(i)
            .map(|e| e.rules())
            .ok_or_else(|| value_error("no such environment"))?;
        Ok(crate::observation::observation_as(
            py,
            rules,
            &fin.position,
            player,
        ))
    }

    /// A copy of environment `index` as an `Env` (stepping the copy leaves this one alone).
    fn env(&self, index: &Bound<'_, PyAny>) -> PyResult<Env> {
        let last = self.venv.len() as u64 - 1;
        let index = int_arg(index, "index", 0, last).map_err(|e| {
            if e.is_instance_of::<pyo3::exceptions::PyValueError>(index.py()) {
                value_error(format!(
                    "environment {} does not exist: there are {}",
                    crate::args::short_repr(index),
                    self.venv.len()
                ))
            } else {
                e
            }
        })? as usize;
        let env = self.venv.env(index).ok_or_else(|| {
            value_error(format!(
                "environment {index} does not exist: there are {}",
                self.venv.len()
            ))
        })?;
        Ok(Env::wrap(env.clone(), self.variant))
    }

    /// Number of environments.
    fn __len__(&self) -> usize {
        self.venv.len()
    }

    /// Threads `step` runs on (1: the caller's own).
    #[getter]
    fn threads(&self) -> PyResult<usize> {
        self.pool
            .threads()
            .map_err(|e| runtime_error(format!("{e:#}")))
    }

    /// The base seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.venv.base_seed()
    }

    /// The preset's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant
    }

    /// The game as text, as `Env.game` gives it.
    #[getter]
    fn game(&self) -> String {
        self.venv.game().to_string()
    }

    /// Pickles as the games (variant, rules, ply cap, opening plies, base seed, threads, the
    /// opponent's spec) and each one's state of play (position, ply count, episode index), so
    /// the copy's next steps and auto-resets are the original's; the last step's results are
    /// not kept. The copy builds its opponents again from the spec, each starting its current
    /// episode afresh (with that episode's seed).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>, Bound<'py, PyList>)> {
        let py = slf.py();
        let me = slf.borrow();
        let first = me
            .venv
            .env(0)
            .expect("a VecEnv has at least one environment");
        let rules = serde_json::to_value(first.rules()).map_err(runtime_error)?;
        let config = first.config();
        let args = (
            me.venv.len(),
            me.variant,
            me.venv.base_seed(),
            me.threads()?,
            config.max_plies,
            config.opening_random_plies,
            json_to_py(py, &rules)?,
            me.opponent(),
        )
            .into_pyobject(py)?;
        let states = me
            .venv
            .envs()
            .zip(me.venv.episodes())
            .map(|(e, &episode)| (e.state().to_string(), e.plies(), episode));
        let states = PyList::new(py, states)?;
        Ok((slf.get_type().into_any(), args, states))
    }

    /// Restores the states of play that `__reduce__` saved (`ValueError` naming the first
    /// that does not fit).
    fn __setstate__(&mut self, states: Vec<(String, u32, u64)>) -> PyResult<()> {
        let states = states
            .iter()
            .enumerate()
            .map(|(i, (text, plies, episode))| {
                let setup: bao_zero::rules::Setup = text
                    .parse()
                    .map_err(|e| value_error(format!("environment {i}: {e}")))?;
                Ok((Position::from_setup_unchecked(setup), *plies, *episode))
            })
            .collect::<PyResult<Vec<_>>>()?;
        self.venv.restore(&states).map_err(vec_env_error)?;
        self.publish();
        Ok(())
    }
}

/// Copies `actions` (a 1-d integer array, or anything `numpy.asarray` reads as one) into `out`,
/// which holds one action per environment; `ValueError` for a wrong shape, type or value.
fn read_actions(py: Python<'_>, actions: &Bound<'_, PyAny>, out: &mut [usize]) -> PyResult<()> {
    macro_rules! try_dtype {
        ($($t:ty),*) => {$(
            if let Ok(a) = actions.cast::<PyArray1<$t>>() {
                return copy_actions(&a.readonly(), out);
            }
        )*};
    }
    try_dtype!(i64, i32, u8, u16, u32, u64, i8, i16, usize);
    let np = py.import("numpy")?;
    let converted = np
        .call_method1("asarray", (actions,))
        .map_err(|e| value_error(format!("actions must be an integer array: {e}")))?;
    let kind: String = converted.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(value_error(format!(
            "actions must be integers, got an array of dtype kind `{kind}`"
        )));
    }
    let converted = converted.call_method1("astype", ("int64",))?;
    let a = converted.cast::<PyArray1<i64>>().map_err(|_| {
        value_error(format!(
            "actions must be a 1-d array of {} integers",
            out.len()
        ))
    })?;
    copy_actions(&a.readonly(), out)
}

/// Copies `active` (a 1-d bool array of one flag per environment) into `out`; `ValueError` for
/// another shape or type.
fn read_active(py: Python<'_>, active: &Bound<'_, PyAny>, out: &mut [bool]) -> PyResult<()> {
    let wrong = || {
        value_error(format!(
            "active must be a 1-d bool array of {} flags, one per environment",
            out.len()
        ))
    };
    let converted = py.import("numpy")?.call_method1("asarray", (active,))?;
    let flags = converted.cast::<PyArray1<bool>>().map_err(|_| wrong())?;
    let flags = flags.readonly();
    if flags.len() != out.len() {
        return Err(wrong());
    }
    for (o, &f) in out.iter_mut().zip(flags.as_array().iter()) {
        *o = f;
    }
    Ok(())
}

/// Copies a read-only integer array into `out`, checking its length and range.
fn copy_actions<T: Element + Copy + TryInto<i64>>(
    a: &numpy::PyReadonlyArray1<'_, T>,
    out: &mut [usize],
) -> PyResult<()> {
    if a.len() != out.len() {
        return Err(value_error(format!(
            "got {} actions for {} environments",
            a.len(),
            out.len()
        )));
    }
    let view = a.as_array();
    for (i, (o, &x)) in out.iter_mut().zip(view.iter()).enumerate() {
        let v: i64 = x.try_into().unwrap_or(i64::MAX);
        *o = crate::args::checked_action_id(v)
            .map_err(|e| value_error(format!("environment {i}: {e}")))?;
    }
    Ok(())
}

/// Where a batch's work runs. A one-thread batch runs on the caller's thread: handing each call
/// to a worker thread and waiting for it cost more than the step of 16 games on an idle machine,
/// where the worker's core sleeps between calls (docs/PYTHON.md, "Speed"). The `VecEnv` then
/// steps its games one after another, as it does outside any pool.
enum Workers {
    /// On the thread that calls.
    Caller,
    /// On this pool (more than one thread, or one per core).
    Pool(OwnPool),
}

impl Workers {
    fn new(threads: usize) -> Workers {
        match threads {
            1 => Workers::Caller,
            n => Workers::Pool(OwnPool::new(n, "bao-vecenv")),
        }
    }

    /// Runs `work` where this batch's work runs.
    fn run<R: Send>(&self, work: impl FnOnce() -> R + Send) -> anyhow::Result<R> {
        match self {
            Workers::Caller => Ok(work()),
            Workers::Pool(pool) => pool.install(work),
        }
    }

    /// The threads the work runs on.
    fn threads(&self) -> anyhow::Result<usize> {
        match self {
            Workers::Caller => Ok(1),
            Workers::Pool(pool) => Ok(pool.pool()?.current_num_threads()),
        }
    }
}
