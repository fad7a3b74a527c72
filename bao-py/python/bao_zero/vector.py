"""``bao_zero.VecEnv``: many games stepped together by the Rust ``VecEnv``."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import numpy.typing as npt

from bao_zero._core import Env, VecEnvCore


class _MaskMethod:
    """``VecEnv.action_masks``: called, the int8 masks; any use as the bool array it once was
    raises a ``TypeError`` that names the change instead of a silently wrong answer (``~`` of
    an int8 mask is -1 and -2, not a mask)."""

    __slots__ = ("_masks",)

    def __init__(self, masks: npt.NDArray[np.int8]) -> None:
        self._masks = masks

    def __call__(self) -> npt.NDArray[np.int8]:
        return self._masks

    def _moved(self, *_: object, **__: object) -> None:
        raise TypeError(_MOVED)

    __getitem__ = __array__ = __iter__ = __len__ = __invert__ = __bool__ = _moved
    __eq__ = __ne__ = __and__ = __or__ = __mul__ = _moved  # type: ignore[assignment]
    __hash__ = None  # type: ignore[assignment]

    def __getattr__(self, name: str) -> None:
        raise AttributeError(_MOVED)  # AttributeError, so that hasattr() still answers


_MOVED = (
    "VecEnv.action_masks is a method: call venv.action_masks(), int8 [n, 64] with 1 for a "
    "legal action (.astype(bool) for a bool array)"
)


class VecEnv:
    """``n`` games of one preset stepped together in Rust, with automatic reset.

    The results are numpy arrays over Rust's own buffers, created once and overwritten in
    place by every :meth:`step` (no per-step Python objects); they are read-only, and a caller
    who wants to keep a result past the next step copies it:

    - ``observations``: float32 ``[n, 27, 4, 8]``, for the player to move;
    - ``rewards``: float32 ``[n, 2]`` of the last step by side (column 0 South, 1 North);
    - ``terminated`` / ``truncated``: bool ``[n]``;
    - ``movers``: uint8 ``[n]``, who moved at the last step; ``players``: who moves now;
    - ``episodes``: uint64 ``[n]``, each environment's episode index;
    - :meth:`action_masks`: int8 ``[n, 64]``, 1 for a legal action (the mask type of every
      bao_zero env).

    When a step ends an episode, that environment is reset at once (Gymnasium's same-step
    auto-reset): its observation and mask are then those of the next episode's first position,
    while ``rewards``, ``terminated`` and ``truncated`` describe the step that ended the old one
    (:meth:`finals` gives the ended episodes' last positions). Episode ``e`` of environment
    ``i`` starts from ``Env.reset(seed=episode_seed(seed, i, e))``.

    ``step`` runs with the GIL released on a rayon pool of ``threads`` threads (default: one per
    core, at most 256), or with ``threads=1`` on the caller's own thread: for a few dozen games
    of cheap players the fastest, since no step waits for another thread to wake. ``n`` is from
    1 to 2**20; ``rules`` overrides the preset's options (a dict or the path of a TOML file, as
    ``bao --rules FILE``). A number out of range is a ``ValueError`` naming it.

    ``opponent``, a player spec of the ``bao`` command (``"greedy"``, ``"ab:depth=2"``,
    ``"player:FILE.bao"``, ``"mcts:..."``), builds one player per game, whose moves
    :meth:`opponent_actions` chooses in Rust; each game's player starts every episode with that
    episode's seed, so the same seed gives the same games. A spec that does not build, or a
    player of another game, is a one-line ``ValueError``.
    """

    def __init__(
        self,
        n: int,
        variant: str = "kiswahili",
        seed: int = 0,
        threads: int | None = None,
        max_plies: int = 1000,
        opening_random_plies: int = 0,
        rules: dict[str, Any] | str | os.PathLike[str] | None = None,
        opponent: str | None = None,
    ) -> None:
        self._attach(
            VecEnvCore(n, variant, seed, threads, max_plies, opening_random_plies, rules, opponent)
        )

    def _attach(self, core: VecEnvCore) -> None:
        """Shows the buffers of ``core`` as this object's result arrays."""
        self._core = core
        self.observations: npt.NDArray[np.float32] = self._core.observations_view()
        # The Rust masks are bools, whose bytes are 0 and 1: viewed as int8 without a copy.
        self.action_masks = _MaskMethod(self._core.action_masks_view().view(np.int8))
        self.rewards: npt.NDArray[np.float32] = self._core.rewards_view()
        self.terminated: npt.NDArray[np.bool_] = self._core.terminated_view()
        self.truncated: npt.NDArray[np.bool_] = self._core.truncated_view()
        self.movers: npt.NDArray[np.uint8] = self._core.movers_view()
        self.players: npt.NDArray[np.uint8] = self._core.players_view()
        self.episodes: npt.NDArray[np.uint64] = self._core.episodes_view()

    def __getstate__(self) -> dict[str, Any]:
        """The games and their states of play (the result arrays are views, rebuilt on load)."""
        return {"core": self._core}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._attach(state["core"])

    def reset(self, seed: int | None = None) -> npt.NDArray[np.float32]:
        """Restarts every game (with base seed ``seed``, or the current one); the observations."""
        self._core.reset(self._core.seed if seed is None else seed)
        return self.observations

    def step(
        self, actions: npt.ArrayLike, active: npt.ArrayLike | None = None
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """Plays ``actions[i]`` in game ``i`` (an integer array of ``n``); with ``active`` (a
        bool array of ``n``), only in the games it marks: the others stay as they are, with no
        reward and no end at this step, and their actions are not read (for an opponent that
        moves only where it is its turn).

        Returns ``(observations, rewards, terminated, truncated)``, the arrays above. Raises
        ``ValueError`` naming the first illegal or out-of-range action played; then nothing is
        stepped.
        """
        self._core.step(actions, active)
        return self.observations, self.rewards, self.terminated, self.truncated

    def opponent_actions(self, moving: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """The opponent's action in each game ``moving`` (a bool array of ``n``) marks, int64
        ``[n]`` (0 in the others), chosen by each game's player in parallel with the GIL
        released; ``ValueError`` without an ``opponent``."""
        return self._core.opponent_actions(moving)

    @property
    def opponent(self) -> str | None:
        """The opponent's spec, if one was given."""
        return self._core.opponent

    def finals(self) -> list[tuple[int, str, int | None, str]]:
        """The episodes the last step ended: ``(index, end, winner, final position text)``."""
        return self._core.finals()

    def env(self, index: int) -> Env:
        """A copy of game ``index`` as an :class:`~bao_zero.Env` (to inspect or step alone)."""
        return self._core.env(index)

    @property
    def num_envs(self) -> int:
        """Number of games."""
        return len(self._core)

    @property
    def threads(self) -> int:
        """Threads ``step`` runs on."""
        return self._core.threads

    @property
    def variant(self) -> str:
        """The preset's name."""
        return self._core.variant

    @property
    def game(self) -> str:
        """The game as text, as ``Env.game`` gives it (``kujifunza+takasia=none``)."""
        return self._core.game

    @property
    def seed(self) -> int:
        """The base seed."""
        return self._core.seed

    def __len__(self) -> int:
        return len(self._core)

    def __repr__(self) -> str:
        return f"VecEnv({len(self)}, variant={self.variant!r}, threads={self.threads})"
