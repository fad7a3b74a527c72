"""Bao as a ``gymnasium.vector.VectorEnv`` over the Rust batch environment.

>>> import gymnasium, bao_zero
>>> envs = gymnasium.make_vec("bao_zero/Bao-v0", num_envs=64, variant="kujifunza",
...                           vectorization_mode="vector_entry_point")
>>> observations, infos = envs.reset(seed=0)
>>> masks = envs.action_masks()            # int8 (64, 64), 1 for the legal actions

:class:`BaoVectorEnv` steps ``num_envs`` games at once in Rust (:class:`bao_zero.VecEnv`, the
GIL released). With ``opponent="random"`` (the default) each game is the single-agent game of
``bao_zero/Bao-v0``, step for step: the agent's action, then the opponent's replies (uniformly
random legal moves, drawn for all games at once) for as long as it is the opponent's turn (twice
in a row in Malawi Bao advanced's opening), and the reward is the agent's (+1 won, -1 lost, 0
otherwise). The agent keeps its side for a whole game, and plays both in turn: a game that ends
on the agent's move starts again with the opponent opening, one that ends on the opponent's
move with the agent opening. ``opponent`` may be any player spec of the ``bao`` command
(``"greedy"``, ``"ab:depth=2"``, ``"player:FILE.bao"``, ``"mcts:..."``) or the path of a ``.bao``
player file, as for ``bao_zero/Bao-v0``: its replies are chosen in Rust, one player per game
started on each episode with that episode's seed (as ``Bao-v0`` starts its opponent with its
game's seed), for all games at once with the GIL released, and each game is ``Bao-v0``'s game
against that opponent. With ``opponent="self"`` the agent plays both sides: each action is the
mover's, and the reward is the mover's.

Gymnasium 1.x conventions: ``single_observation_space`` float32 ``(27, 4, 8)``,
``single_action_space`` ``Discrete(64)``; same-step autoreset (``metadata["autoreset_mode"]``
is ``AutoresetMode.SAME_STEP``): a game that ends is reset inside the step, the returned
observation is the next game's, ``infos["final_obs"]`` / ``infos["_final_obs"]`` hold the
ended game's last observation and ``infos["final_info"]`` / ``infos["_final_info"]`` its last
info, in Gymnasium's vector layout (``end``, ``winner``, ``player``, ``action_mask``, each with
its ``_key`` mask). Masks are int8 (as everywhere in bao_zero's wrappers) in
``infos["action_mask"]`` at every reset and step, which Gymnasium's vector wrappers pass on, and
from :meth:`BaoVectorEnv.action_masks`; behind a wrapper (``RecordEpisodeStatistics``, say)
that method is ``envs.unwrapped.action_masks()``. An illegal action is a ``ValueError`` naming
it, and then nothing is stepped.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from bao_zero._core import ACTIONS, OBS_HIGH, OBS_SHAPE
from bao_zero.vector import VecEnv

__all__ = ["BaoVectorEnv"]

#: An ended game: its last observation, how it ended, the winner (0 South, 1 North, ``None``).
_Final = tuple[npt.NDArray[np.float32], str, int | None]


class BaoVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` Bao games stepped together in Rust (see the module's text)."""

    metadata = {
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 16,
        variant: str = "kiswahili",
        opponent: str | os.PathLike[str] = "random",
        max_plies: int = 1000,
        opening_random_plies: int = 0,
        threads: int | None = None,
        rules: dict[str, Any] | str | os.PathLike[str] | None = None,
        render_mode: str | None = None,
        **unused: Any,
    ) -> None:
        if not isinstance(opponent, (str, os.PathLike)):
            raise TypeError(
                "opponent must be 'random', 'self', a player spec or a .bao path in the vector "
                f"env (it builds one player a game), not {type(opponent).__name__}"
            )
        opponent = os.fspath(opponent)
        if opponent.endswith(".bao") and not opponent.startswith("player:"):
            opponent = f"player:{opponent}"
        if render_mode is not None:
            raise ValueError("the vector env does not render: use bao_zero/Bao-v0 for pictures")
        if unused:
            names = ", ".join(sorted(unused))
            raise TypeError(f"BaoVectorEnv does not take {names}")
        spec = None if opponent in ("random", "self") else opponent
        self._venv = VecEnv(
            num_envs, variant, 0, threads, max_plies, opening_random_plies, rules, spec
        )
        self.num_envs = len(self._venv)
        self.opponent = opponent
        self.render_mode = None
        self.single_observation_space = spaces.Box(
            low=0.0, high=OBS_HIGH, shape=OBS_SHAPE, dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._rng = np.random.default_rng()
        # The agent's side in each game (0 South, 1 North): it opens every first game.
        self._agent = self._venv.players.copy()

    # -- the results ---------------------------------------------------------------------------

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions of every game now, int8 ``(num_envs, 64)`` (a view, rewritten by
        the next step: copy it to keep it)."""
        return self._venv.action_masks()

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "player": self._venv.players.copy()}

    def _add_finals(
        self,
        finals: dict[int, _Final],
        ended: npt.NDArray[np.bool_],
        sides: npt.NDArray[np.uint8],
        infos: dict[str, Any],
    ) -> None:
        """Gymnasium's same-step autoreset keys: ``infos["final_obs"]``, each ended game's last
        observation, and ``infos["final_info"]``, its last info in the vector layout (a dict of
        arrays, each key ``k`` with its mask ``_k``): ``action_mask`` (all zeros: the game is
        over), ``player`` (the agent's side), ``end`` and ``winner`` (0 South, 1 North, -1
        none)."""
        n = self.num_envs
        final_obs = np.full(n, None, dtype=object)
        end = np.full(n, None, dtype=object)
        winner = np.full(n, -1, dtype=np.int64)
        for index, (observation, how, won) in finals.items():
            final_obs[index] = observation
            end[index] = how
            winner[index] = -1 if won is None else won
        infos["final_obs"] = final_obs
        infos["_final_obs"] = ended.copy()
        infos["final_info"] = {
            "action_mask": np.zeros((n, ACTIONS), dtype=np.int8),
            "_action_mask": ended.copy(),
            "player": np.where(ended, sides, 0).astype(np.int64),
            "_player": ended.copy(),
            "end": end,
            "_end": ended.copy(),
            "winner": winner,
            "_winner": ended.copy(),
        }
        infos["_final_info"] = ended.copy()

    # -- Gymnasium's calls ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Starts every game again (``seed``: the base seed of the games' episode seeds)."""
        if isinstance(seed, (list, tuple)):
            seed = seed[0] if seed else None
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            base = int(seed)
        else:
            base = int(self._rng.integers(2**63))
        self._venv.reset(base)
        self._agent = self._venv.players.copy()
        return self._venv.observations.copy(), self._infos()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """The agent's actions (then, but against ``"self"``, the opponent's replies)."""
        venv = self._venv
        rows = np.arange(self.num_envs)
        # The agent is to move in every game: who moves now.
        sides = venv.players.copy()
        venv.step(np.asarray(actions))
        rewards = venv.rewards[rows, sides].astype(np.float32)
        terminated = venv.terminated.copy()
        truncated = venv.truncated.copy()
        ended = terminated | truncated
        finals = self._finals(ended, sides)
        if self.opponent != "self":
            self._reply(sides, rewards, terminated, truncated, finals)
            ended = terminated | truncated
        infos = self._infos()
        if finals:
            self._add_finals(finals, ended, sides, infos)
        return venv.observations.copy(), rewards, terminated, truncated, infos

    def _reply(
        self,
        sides: npt.NDArray[np.uint8],
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
        finals: dict[int, _Final],
    ) -> None:
        """Plays the opponent in every game where it is to move, until the agent is to move in
        all of them, adding to the step's results (in place) what its moves did to the games
        the agent's actions were played in."""
        venv = self._venv
        rows = np.arange(self.num_envs)
        going = ~(terminated | truncated)
        # A game that ended on the agent's move starts again with the opponent opening.
        self._agent = np.where(going, sides, 1 - venv.players).astype(np.uint8)
        while True:
            moving = venv.players != self._agent
            if not moving.any():
                return
            venv.step(self._opponent_actions(moving), moving)
            ends = moving & (venv.terminated | venv.truncated)
            counted = moving & going
            rewards[counted] = venv.rewards[rows, sides][counted]
            terminated |= counted & venv.terminated
            truncated |= counted & venv.truncated
            finals.update(self._finals(counted & ends, sides))
            going &= ~ends
            # A game that ended on the opponent's move starts again with the agent opening.
            self._agent = np.where(ends, venv.players, self._agent).astype(np.uint8)

    def _finals(
        self, ended: npt.NDArray[np.bool_], sides: npt.NDArray[np.uint8]
    ) -> dict[int, _Final]:
        """The games the last Rust step ended: their last observations, as ``sides`` see them,
        how they ended and who won."""
        core = self._venv._core
        ends = {index: (end, winner) for index, end, winner, _ in core.finals()}
        return {
            int(i): (core.final_observation(int(i), int(sides[i])), *ends[int(i)])
            for i in np.flatnonzero(ended)
        }

    def _opponent_actions(self, moving: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The opponent's actions where it is to move (``moving``): uniformly random ones drawn
        here, or those its players choose in Rust."""
        if self.opponent == "random":
            return self._random_actions()
        return self._venv.opponent_actions(moving)

    def _random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action in every game."""
        scores = self._rng.random((self.num_envs, ACTIONS))
        scores[self._venv.action_masks() == 0] = -1.0
        actions: npt.NDArray[np.int64] = scores.argmax(axis=1)
        return actions

    def close_extras(self, **kwargs: Any) -> None:
        pass
