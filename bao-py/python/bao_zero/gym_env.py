"""Bao as a single-agent Gymnasium environment against a built-in opponent.

>>> import gymnasium, bao_zero
>>> env = gymnasium.make("bao_zero/Bao-v0", variant="kiswahili", opponent="ab:depth=2")
>>> observation, info = env.reset(seed=0)
>>> mask = info["action_mask"]          # int8 (64,), 1 for the legal actions
>>> mask = env.unwrapped.action_masks()  # the same, as sb3-contrib's MaskablePPO asks for it

The agent plays one side (``agent_side``: ``"south"``, ``"north"`` or ``"random"``, drawn at
each reset); the opponent's replies are played inside :meth:`BaoEnv.step`. The opponent is
``"random"`` (uniform, from the environment's seeded generator), any player spec of the ``bao``
command (``"greedy"``, ``"ab:depth=3"``, ``"ab:time=100ms"``, ``"player:FILE.bao"``), a path to
an exported ``.bao`` player file, or a :class:`bao_zero.Player`.

Reward: +1 when the agent wins, -1 when it loses, 0 otherwise. The action space is the full
``Discrete(64)``; ``info["action_mask"]`` tells the legal actions. An illegal action loses the
game (reward -1, ``terminated``, ``info["illegal_action"] = True``) with
``illegal_action="lose"`` (the default, so that unmasked agents and checkers can run), or raises
``ValueError`` with ``illegal_action="raise"``.

Masks are int8 (1 legal, 0 not), as in PettingZoo's classic games and as Gymnasium's
``Discrete.sample(mask)`` takes them. :meth:`BaoEnv.action_masks` gives the current one, so
sb3-contrib's ``MaskablePPO("MlpPolicy", gymnasium.make("bao_zero/Bao-v0"))`` trains with no
wrapper. ``rules`` overrides the preset's options (a dict or the path of a TOML file, as
``bao --rules FILE``). Render modes: ``"ansi"`` (the text board), ``"rgb_array"`` (the board's
picture, uint8 ``(height, width, 3)``) and ``"human"`` (the text board printed at each reset and
step).
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from bao_zero._core import ACTIONS, OBS_HIGH, OBS_SHAPE, Env, Player
from bao_zero._render import RENDER_MODES, check_render_mode, render

__all__ = ["ENV_ID", "BaoEnv", "register_envs"]

#: The id under which :func:`register_envs` registers :class:`BaoEnv`.
ENV_ID = "bao_zero/Bao-v0"

_SIDES = {"south": 0, "north": 1}


def _opponent_player(opponent: str | Player | os.PathLike[str]) -> Player | None:
    """The player behind an opponent description (``None`` for ``"random"``)."""
    if isinstance(opponent, Player):
        return opponent
    text = os.fspath(opponent)
    if text == "random":
        return None
    if text.endswith(".bao") and not text.startswith("player:"):
        return Player.load(text)
    return Player.from_spec(text)


class BaoEnv(gymnasium.Env):
    """One side of a Bao game; the other is played by a built-in opponent."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(
        self,
        variant: str = "kiswahili",
        opponent: str | Player | os.PathLike[str] = "random",
        agent_side: str = "south",
        max_plies: int = 1000,
        opening_random_plies: int = 0,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        rules: dict[str, Any] | str | os.PathLike[str] | None = None,
    ) -> None:
        if agent_side not in ("south", "north", "random"):
            raise ValueError(f"agent_side must be 'south', 'north' or 'random', not {agent_side!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        check_render_mode(render_mode)
        self.game = Env(variant, 0, max_plies, opening_random_plies, rules)
        self.opponent = _opponent_player(opponent)
        # A pickle rebuilds the opponent from this description (a Player does not pickle).
        self._opponent_text = None if isinstance(opponent, Player) else os.fspath(opponent)
        if self.opponent is not None and self.opponent.variant not in (None, variant):
            raise ValueError(
                f"the opponent plays {self.opponent.variant}, not {variant}: "
                f"pass variant={self.opponent.variant!r}"
            )
        self.agent_side = agent_side
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            low=0.0, high=OBS_HIGH, shape=OBS_SHAPE, dtype=np.float32
        )
        self.action_space = spaces.Discrete(ACTIONS)
        self.player = 0
        self._over = True

    def __getstate__(self) -> dict[str, Any]:
        """The environment's state, its opponent as the description it was built from (a
        :class:`bao_zero.Player` passed as the opponent refuses pickling and says why)."""
        state = self.__dict__.copy()
        if self._opponent_text is not None:
            state["opponent"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self._opponent_text is not None:
            self.opponent = _opponent_player(self._opponent_text)

    def _mask(self) -> npt.NDArray[np.int8]:
        return self.game.action_masks()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions now, int8 ``(64,)`` (1 legal): what sb3-contrib's ``MaskablePPO``
        calls (all zeros once the episode is over)."""
        if self._over:
            return np.zeros(ACTIONS, dtype=np.int8)
        return self._mask()

    def _info(self, **extra: Any) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self._mask(),
            "player": self.player,
            "ply": self.game.plies,
        }
        info.update(extra)
        return info

    def _opponent_moves(self) -> list[str]:
        """Plays the opponent until the agent is to move or the game is over."""
        moves = []
        while not self.game.done and self.game.current_player != self.player:
            if self.opponent is None:
                legal = self.game.legal_actions()
                action = legal[int(self.np_random.integers(len(legal)))]
            else:
                action = self.opponent.choose(self.game).action
            self.game.play(action)
            last = self.game.last_move
            if last is not None:  # always, after a move
                moves.append(last)
        return moves

    def _agent_reward(self) -> float:
        winner = self.game.winner
        if winner is None:
            return 0.0
        return 1.0 if winner == self.player else -1.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """A new game; the opponent's first moves are played if the agent is North."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63))
        self.game.reset(game_seed)
        if self.agent_side == "random":
            self.player = int(self.np_random.integers(2))
        else:
            self.player = _SIDES[self.agent_side]
        if self.opponent is not None:
            self.opponent.new_game(game_seed)
        self._over = False
        replies = self._opponent_moves()
        self._over = self.game.done
        if self.render_mode == "human":
            self.render()
        return self.game.observation_for(self.player), self._info(opponent_moves=replies)

    def step(
        self, action: Any
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Plays the agent's ``action``, then the opponent's replies."""
        if self._over:
            raise RuntimeError("the episode is over; call reset()")
        action = int(action)
        if not (0 <= action < ACTIONS) or not self.game.action_masks()[action]:
            if self.illegal_action == "raise":
                legal = ", ".join(self.game.legal_moves())
                raise ValueError(f"illegal action {action}; legal moves: {legal}")
            self._over = True
            return (
                self.game.observation_for(self.player),
                -1.0,
                True,
                False,
                self._info(illegal_action=True),
            )
        self.game.play(action)
        move = self.game.last_move
        replies = self._opponent_moves()
        self._over = self.game.done
        if self.render_mode == "human":
            self.render()
        return (
            self.game.observation_for(self.player),
            self._agent_reward(),
            self.game.terminated,
            self.game.truncated,
            self._info(move=move, opponent_moves=replies),
        )

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The board in the render mode: text (``"ansi"``), a picture (``"rgb_array"``), or
        printed (``"human"``, returns ``None``)."""
        return render(self.game, self.render_mode)

    def close(self) -> None:
        pass


def register_envs() -> None:
    """Registers :class:`BaoEnv` as ``bao_zero/Bao-v0`` (once), with
    :class:`bao_zero.gym_vector.BaoVectorEnv` as its vector entry point
    (``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point="bao_zero.gym_env:BaoEnv",
            vector_entry_point="bao_zero.gym_vector:BaoVectorEnv",
        )
