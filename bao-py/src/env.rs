//! `bao_zero.Env`: one game, stepped by action id, with numpy observations and masks.

use crate::args::{checked_action, int_arg, plies_args, seed_arg};
use crate::errors::{env_error, runtime_error, value_error};
use crate::pyjson::json_to_py;
use crate::rules_arg::rules_of;
use bao_zero::env::{
    ACTIONS, EnvConfig, EpisodeEnd, OBS_CHANNELS, Transition, action_to_move, move_to_action,
};
use bao_zero::notation::Diagram;
use bao_zero::rules::{Move, Position, Side};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// A Bao game as a reinforcement-learning environment (the Rust `bao_zero::env::Env`).
///
/// Actions are ids in `0..64` seen from the player to move (`docs/ENV.md`); the observation is
/// a float32 array of shape `(27, 4, 8)` for the player to move; `action_masks()` is an int8
/// array of 64. `step` raises `ValueError` for an illegal action and `RuntimeError` once the game is
/// over; a failed call changes nothing.
/// What `Env.step` returns: `(observation, reward, terminated, truncated, info)`.
type StepResult<'py> = (
    Bound<'py, PyArray3<f32>>,
    f32,
    bool,
    bool,
    Bound<'py, PyDict>,
);

#[pyclass(name = "Env", module = "bao_zero._core")]
#[derive(Clone)]
pub struct Env {
    pub(crate) env: bao_zero::env::Env,
    /// The preset's name.
    variant: &'static str,
    /// The seed of the last `reset` (the next seedless reset draws from it).
    seed: u64,
    /// Seedless resets since the last seeded one.
    resets: u64,
    /// The position before the last move and the move, for its trace.
    last: Option<(Position, Move)>,
}

impl Env {
    /// Wraps a Rust environment of the preset named `variant` (its next seedless reset draws
    /// from seed 0).
    pub(crate) fn wrap(env: bao_zero::env::Env, variant: &'static str) -> Env {
        Env {
            env,
            variant,
            seed: 0,
            resets: 0,
            last: None,
        }
    }

    /// A new environment at the start of an episode reset with `seed`.
    pub(crate) fn build(
        variant: &str,
        rules: Option<&Bound<'_, PyAny>>,
        seed: Option<u64>,
        max_plies: u32,
        opening_random_plies: u32,
    ) -> PyResult<Env> {
        let (v, rules) = rules_of(variant, rules)?;
        let config = EnvConfig {
            max_plies,
            opening_random_plies,
        };
        let env = bao_zero::env::Env::new(rules, config).map_err(env_error)?;
        let mut env = Env {
            env,
            variant: v.name(),
            seed: 0,
            resets: 0,
            last: None,
        };
        env.reset_to(seed.unwrap_or_else(entropy_seed));
        Ok(env)
    }

    /// Starts an episode with exactly this seed (as the Rust `Env::reset`).
    fn reset_to(&mut self, seed: u64) {
        self.seed = seed;
        self.resets = 0;
        self.env.restart(seed);
        self.last = None;
    }

    /// Plays `action`, remembering the move for its trace. Nothing changes on an error.
    pub(crate) fn play(&mut self, action: usize) -> PyResult<Transition> {
        let before = *self.env.state();
        let t = self.env.advance(action).map_err(env_error)?;
        self.last = Some((before, t.info.mv.mv));
        Ok(t)
    }

    /// The info dict of a step.
    fn info<'py>(&self, py: Python<'py>, t: &Transition) -> PyResult<Bound<'py, PyDict>> {
        let info = PyDict::new(py);
        info.set_item("move", t.info.mv.to_string())?;
        info.set_item("player", t.info.mv.side.index())?;
        info.set_item("ply", t.info.ply)?;
        info.set_item("rewards", (t.rewards[0], t.rewards[1]))?;
        if let Some(end) = self.env.episode_end() {
            info.set_item("end", end.to_string())?;
            info.set_item("winner", winner(end))?;
        }
        Ok(info)
    }

    /// The observation as a new `(27, 4, 8)` float32 array.
    pub(crate) fn observation_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<f32>> {
        let obs = PyArray3::<f32>::zeros(py, [OBS_CHANNELS, 4, 8], false);
        // SAFETY: the array was just created here and nothing else refers to it yet.
        let out = unsafe { obs.as_slice_mut() }.expect("a new array is contiguous");
        self.env
            .observe_into(out)
            .expect("the array holds OBS_LEN floats");
        obs
    }
}

/// The winner's index (0 South, 1 North), or `None` for a void or truncated game.
fn winner(end: EpisodeEnd) -> Option<usize> {
    match end {
        EpisodeEnd::Terminated(o) => o.winner.map(Side::index),
        EpisodeEnd::Truncated { .. } => None,
    }
}

/// A seed for a caller who gave none: the clock's nanoseconds, mixed.
fn entropy_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    bao_zero::env::episode_seed(nanos, std::process::id() as usize, 0)
}

#[pymethods]
impl Env {
    /// `Env(variant="kiswahili", seed=None, max_plies=1000, opening_random_plies=0,
    /// rules=None)`: a game of the preset `variant` (see `bao_zero.variants()`), reset with
    /// `seed` (none: from the clock). `opening_random_plies` random legal plies drawn from the
    /// reset seed start each episode; a game reaching `max_plies` plies is truncated. `rules`
    /// overrides the preset's options: a dict (`{"takasia": "none"}`) or the path of a TOML
    /// file, as `bao --rules FILE`.
    #[new]
    #[pyo3(
        signature = (variant = "kiswahili", seed = None, max_plies = None, opening_random_plies = None, rules = None),
        text_signature = "(variant='kiswahili', seed=None, max_plies=1000, opening_random_plies=0, rules=None)"
    )]
    fn new(
        variant: &str,
        seed: Option<&Bound<'_, PyAny>>,
        max_plies: Option<&Bound<'_, PyAny>>,
        opening_random_plies: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Env> {
        let seed = seed_arg(seed)?;
        let (max_plies, opening) = plies_args(max_plies, opening_random_plies)?;
        Env::build(variant, rules, seed, max_plies, opening)
    }

    /// An environment starting from the position `position` (the one-line text format of
    /// `docs/RULES.md`), checked by the rules' setup gate: `ValueError` if it does not read or
    /// does not fit the rules.
    #[staticmethod]
    #[pyo3(
        signature = (position, variant = "kiswahili", max_plies = None, rules = None),
        text_signature = "(position, variant='kiswahili', max_plies=1000, rules=None)"
    )]
    fn from_position(
        position: &str,
        variant: &str,
        max_plies: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Env> {
        let (max_plies, _) = plies_args(max_plies, None)?;
        let mut env = Env::build(variant, rules, Some(0), max_plies, 0)?;
        env.set_position(position)?;
        Ok(env)
    }

    /// Starts a new episode and returns `(observation, info)`. With `seed`, the episode is the
    /// Rust `Env::reset(seed)`; without, the next seed is drawn from the last one given.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyArray3<f32>>, Bound<'py, PyDict>)> {
        match seed_arg(seed)? {
            Some(s) => self.reset_to(s),
            None => {
                let resets = self.resets + 1;
                let base = self.seed;
                self.env
                    .restart(bao_zero::env::episode_seed(base, 0, resets));
                self.resets = resets;
                self.last = None;
            }
        }
        let info = PyDict::new(py);
        info.set_item("player", self.env.current_player().index())?;
        info.set_item("ply", self.env.plies())?;
        Ok((self.observation_array(py), info))
    }

    /// Plays `action` and returns `(observation, reward, terminated, truncated, info)`:
    /// the observation for the player now to move, the reward of the player who moved (+1 won,
    /// -1 lost, 0 otherwise), and `info` with `move` (KIBA text), `player` (who moved: 0 South,
    /// 1 North), `ply`, `rewards` (South, North) and, at the end, `end` and `winner`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<StepResult<'py>> {
        let action = checked_action(action)?;
        let t = self.play(action)?;
        let reward = t.rewards[t.info.mv.side.index()];
        let info = self.info(py, &t)?;
        Ok((
            self.observation_array(py),
            reward,
            t.terminated,
            t.truncated,
            info,
        ))
    }

    /// Plays `action` and returns whether the episode is over: the fast step, which builds no
    /// observation and no info (read what is needed: `observe_into`, `legal_actions`,
    /// `winner`, ...). Errors as `step`.
    #[pyo3(name = "play")]
    fn play_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let action = checked_action(action)?;
        self.play(action)?;
        Ok(self.env.is_done())
    }

    /// Writes the observation for the player to move into `out`, a C-contiguous, writeable
    /// float32 array of 864 elements (shape `(27, 4, 8)` or `(864,)`), with no new array.
    fn observe_into(&self, out: &Bound<'_, numpy::PyArrayDyn<f32>>) -> PyResult<()> {
        use numpy::PyUntypedArrayMethods;
        use numpy::npyffi::{_PyArray_GET_ITEM_DATA, NPY_ARRAY_WRITEABLE};
        // SAFETY: `out` is a live numpy array (the type was checked on extraction); its flags
        // are read through numpy's own accessor.
        let flags = unsafe { (*_PyArray_GET_ITEM_DATA(out.as_array_ptr())).flags };
        if flags & NPY_ARRAY_WRITEABLE == 0 {
            return Err(value_error("out must be a writeable float32 array"));
        }
        if !out.is_c_contiguous() {
            return Err(value_error(
                "out must be a C-contiguous float32 array of 864 elements",
            ));
        }
        // SAFETY: checked writeable and contiguous above, and the GIL is held for the whole
        // write. No Rust borrow of a Python array outlives a call in this module (the arrays it
        // hands out over its own buffers are read-only, so they fail the check above), so
        // nothing else reads or writes these floats meanwhile. This skips rust-numpy's dynamic
        // borrow table, which took about a third of this call's time.
        let slice = unsafe { out.as_slice_mut() }
            .map_err(|_| value_error("out must be a C-contiguous float32 array of 864 elements"))?;
        self.env.observe_into(slice).map_err(|_| {
            value_error(format!(
                "out must hold {} floats (shape (27, 4, 8)), not {}",
                bao_zero::env::OBS_LEN,
                slice.len()
            ))
        })
    }

    /// The observation of the current position for the player to move, float32 `(27, 4, 8)`.
    #[getter]
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<f32>> {
        self.observation_array(py)
    }

    /// The observation of the current position as `player` (0 South, 1 North) sees it: the
    /// observation for the mover, or for the other player the same board encoded as if it
    /// were to move (the mover's takasia marks, which bind only the mover, left out).
    fn observation_for<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let player = int_arg(player, "player (0 South, 1 North)", 0, 1)? as usize;
        if player == self.env.current_player().index() {
            return Ok(self.observation_array(py));
        }
        Ok(crate::observation::observation_as(
            py,
            self.env.rules(),
            self.env.state(),
            player,
        ))
    }

    /// The legal actions as a new int8 array of 64, 1 for a legal action (all 0 once the
    /// episode is over): the mask of every bao_zero env, as PettingZoo's classic games give it
    /// and as Gymnasium's `Discrete.sample(mask)` and sb3-contrib's `MaskablePPO` take it.
    fn action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let bits = self.env.legal_mask_bits();
        PyArray1::from_iter(py, (0..ACTIONS).map(|a| (bits >> a & 1) as i8))
    }

    /// The legal actions as a bool array of 64. Deprecated: `action_masks()` gives them as
    /// int8, the one mask type of every bao_zero env (this getter warns once per call site).
    #[getter]
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        PyErr::warn(
            py,
            &py.get_type::<pyo3::exceptions::PyDeprecationWarning>(),
            c"Env.action_mask (bool) is deprecated: use Env.action_masks(), int8 with 1 for a legal action (.astype(bool) for a bool array)",
            1,
        )?;
        Ok(PyArray1::from_slice(py, &self.env.legal_mask()))
    }

    /// The legal action ids, ascending (empty once the episode is over).
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        // Straight from the mask's bits into a list of its final size: no vector between.
        PyList::new(py, bao_zero::env::mask_actions(self.env.legal_mask_bits()))
    }

    /// The legal moves in KIBA notation, in the order of `legal_actions()`.
    fn legal_moves(&self) -> Vec<String> {
        self.env
            .legal_actions()
            .into_iter()
            .filter_map(|a| self.env.action_text(a).ok())
            .collect()
    }

    /// The action id of the legal move written `text` (`A6<`, `b3>+`, ...); `ValueError` if it
    /// is not a legal move.
    fn move_to_action(&self, text: &str) -> PyResult<usize> {
        if self.env.is_done() {
            return Err(value_error(format!(
                "`{text}` is not a legal move: the game is over"
            )));
        }
        self.env.parse_action(text).map_err(env_error)
    }

    /// The move action `action` names in the current position, in KIBA notation (legal or
    /// not); `ValueError` if the id names no move.
    fn action_to_move(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let action = checked_action(action)?;
        self.env.action_text(action).map_err(env_error)
    }

    /// The current position in the one-line text format.
    #[getter]
    fn position(&self) -> String {
        self.env.state().to_string()
    }

    /// Puts the game in the position `text` (checked by the setup gate) as a fresh episode;
    /// `ValueError` if it does not read or fit the rules, and then nothing changes.
    fn set_position(&mut self, text: &str) -> PyResult<()> {
        let pos = Position::from_text(text, self.env.rules()).map_err(value_error)?;
        self.env.set_state(pos).map_err(env_error)?;
        self.last = None;
        Ok(())
    }

    /// An independent copy (same position, same random state).
    fn clone(&self) -> Env {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Env {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Env {
        Clone::clone(self)
    }

    /// Pickles as the game (variant, rules, ply cap, opening plies) and the state of play
    /// (position, ply count, reset seed and seedless resets since), so the copy's next steps
    /// and resets are the original's.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.borrow();
        let config = me.env.config();
        let args = (
            me.variant,
            me.seed,
            config.max_plies,
            config.opening_random_plies,
            me.rules(py)?,
        )
            .into_pyobject(py)?;
        // The last move, as the position before it and its action, for `last_move` and its trace.
        let last = me
            .last
            .map(|(before, mv)| (before.to_string(), move_to_action(&before, mv)));
        let state = (me.position(), me.env.plies(), me.seed, me.resets, last).into_pyobject(py)?;
        Ok((slf.get_type().into_any(), args, state))
    }

    /// Restores the state of play that `__reduce__` saved (a state of four items, without the
    /// last move, reads too).
    fn __setstate__(&mut self, state: &Bound<'_, PyTuple>) -> PyResult<()> {
        let (position, plies, seed, resets): (String, u32, u64, u64) =
            state.get_slice(0, 4).extract()?;
        let last: Option<(String, usize)> = match state.len() {
            4 => None,
            _ => state.get_item(4)?.extract()?,
        };
        let last = last.map(|(before, action)| -> PyResult<_> {
            let pos = unchecked_position(&before)?;
            Ok((pos, action_to_move(&pos, action).map_err(value_error)?))
        });
        let (last, pos) = (last.transpose()?, unchecked_position(&position)?);
        self.env.set_state(pos).map_err(env_error)?;
        self.last = last;
        self.env.set_plies(plies);
        (self.seed, self.resets) = (seed, resets);
        Ok(())
    }

    /// The player to move: 0 South, 1 North.
    #[getter]
    fn current_player(&self) -> usize {
        self.env.current_player().index()
    }

    /// Plies played in this game (random opening plies included).
    #[getter]
    fn plies(&self) -> u32 {
        self.env.plies()
    }

    /// Whether the episode is over (terminated or truncated).
    #[getter]
    fn done(&self) -> bool {
        self.env.is_done()
    }

    /// Whether the game ended by the rules.
    #[getter]
    fn terminated(&self) -> bool {
        matches!(self.env.episode_end(), Some(EpisodeEnd::Terminated(_)))
    }

    /// Whether the game reached `max_plies` without ending.
    #[getter]
    fn truncated(&self) -> bool {
        matches!(self.env.episode_end(), Some(EpisodeEnd::Truncated { .. }))
    }

    /// The winner (0 South, 1 North) of a finished game, or `None` (void, truncated, going on).
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.env.episode_end().and_then(winner)
    }

    /// How the episode ended (`"South won: front row empty"`, ...), or `None`.
    #[getter]
    fn end(&self) -> Option<String> {
        self.env.episode_end().map(|e| e.to_string())
    }

    /// The preset's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant
    }

    /// The game as text: the preset's name, then each option that differs from it
    /// (`kujifunza+takasia=valid-house-only`); `Env(env.game)` plays the same game.
    #[getter]
    fn game(&self) -> String {
        self.env.game().to_string()
    }

    /// The rule options in force (the preset's, with those of `rules=` applied), as a dict
    /// in the layout of a `--rules` TOML file.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = serde_json::to_value(self.env.rules()).map_err(runtime_error)?;
        json_to_py(py, &value)
    }

    /// Plies after which a game is truncated.
    #[getter]
    fn max_plies(&self) -> u32 {
        self.env.config().max_plies
    }

    /// The stage of the position: `opening`, `namua` or `mtaji`.
    #[getter]
    fn stage(&self) -> &'static str {
        self.env.stage_name()
    }

    /// The last move played in KIBA notation, or `None` right after a reset.
    #[getter]
    fn last_move(&self) -> Option<String> {
        self.last.map(|(pos, mv)| {
            bao_zero::rules::MoveText {
                mv,
                side: pos.side_to_move(),
            }
            .to_string()
        })
    }

    /// What the last move did, step by step (sowings, captures, the house, ...): a list of
    /// dicts with the event's fields (`event`, `side`, `pit`, `seeds`, ...) and `text`, its
    /// description. Empty right after a reset.
    fn last_move_trace<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        let Some((pos, mv)) = self.last else {
            return Ok(list);
        };
        let (_, events) = pos
            .play_traced(self.env.rules(), mv)
            .map_err(runtime_error)?;
        for e in &events {
            let mut v = serde_json::to_value(e).map_err(runtime_error)?;
            if let serde_json::Value::Object(map) = &mut v {
                map.insert("text".into(), e.to_string().into());
            }
            list.append(json_to_py(py, &v)?)?;
        }
        Ok(list)
    }

    /// The board as text (South at the bottom), with the position line.
    fn render(&self) -> String {
        let pos = self.env.state();
        format!(
            "{}\nposition: {pos}",
            Diagram {
                pos,
                rules: self.env.rules()
            }
        )
    }

    /// The board as a picture, the one `bao show --svg` draws: a uint8 array of shape
    /// `(height, width, 3)` (RGB), for `render_mode="rgb_array"`.
    fn render_rgb<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        use bao_zero::board_raster::{RASTER_SIZE, board_rgb};
        let (pos, rules) = (self.env.state(), self.env.rules());
        let rgb = py.detach(|| board_rgb(pos, rules)).map_err(runtime_error)?;
        let (w, h) = RASTER_SIZE;
        PyArray1::from_vec(py, rgb).reshape([h as usize, w as usize, 3])
    }

    fn __repr__(&self) -> String {
        format!(
            "Env(variant={:?}, ply={}, position={:?})",
            self.variant,
            self.env.plies(),
            self.env.state().to_string()
        )
    }
}

/// A position that play made, read back from its text: a finished game's too, which the setup
/// gate refuses (`set_state`'s own check takes positions that play made).
fn unchecked_position(text: &str) -> PyResult<Position> {
    let setup: bao_zero::rules::Setup = text.parse().map_err(value_error)?;
    Ok(Position::from_setup_unchecked(setup))
}
