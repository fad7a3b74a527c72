"""Bao as a PettingZoo AEC environment, in the layout of ``pettingzoo.classic``.

>>> from bao_zero.pettingzoo import env
>>> game = env(variant="kiswahili", render_mode="ansi")
>>> game.reset(seed=0)
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = game.action_space(agent).sample(observation["action_mask"])
...     game.step(action)

Agents: ``player_0`` is South (moves first), ``player_1`` North. Each observation is a dict with
``observation`` (float32 ``(27, 4, 8)``, the board from that agent's side, see
``docs/ENV.md``) and ``action_mask`` (int8 ``(64,)``, all zeros for the agent not to move).
The winner gets +1 and the loser -1; a void game or one truncated at ``max_plies`` gives 0.
``env()`` wraps ``raw_env`` as the classic environments do: an illegal action ends the game with
-1 for the agent who played it. ``raw_env.step`` itself raises ``ValueError``.

Masks are int8, as in PettingZoo's classic games and as Gymnasium's ``Discrete.sample(mask)``
takes them. ``rules`` overrides the preset's options (a dict or the path of a TOML file, as
``bao --rules FILE``). Render modes: ``"ansi"`` (the text board), ``"rgb_array"`` (the board's
picture, uint8 ``(height, width, 3)``) and ``"human"`` (the text board printed).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from bao_zero._core import ACTIONS, OBS_HIGH, OBS_SHAPE, Env
from bao_zero._render import RENDER_MODES, check_render_mode, render

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped as ``pettingzoo.classic`` wraps its games."""
    game: AECEnv = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    game = wrappers.OrderEnforcingWrapper(game)
    return game


class raw_env(AECEnv, EzPickle):
    """Two agents taking turns at Bao (any preset of ``bao_zero.variants()``)."""

    metadata = {
        "render_modes": RENDER_MODES,
        "name": "bao_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        variant: str = "kiswahili",
        max_plies: int = 1000,
        opening_random_plies: int = 0,
        render_mode: str | None = None,
        rules: dict[str, Any] | str | os.PathLike[str] | None = None,
    ) -> None:
        super().__init__()
        EzPickle.__init__(self, variant, max_plies, opening_random_plies, render_mode, rules)
        check_render_mode(render_mode)
        self.game = Env(variant, 0, max_plies, opening_random_plies, rules)
        self.render_mode = render_mode
        self.agents = ["player_0", "player_1"]
        self.possible_agents = self.agents[:]
        self.action_spaces = {a: spaces.Discrete(ACTIONS) for a in self.agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=0.0, high=OBS_HIGH, shape=OBS_SHAPE, dtype=np.float32
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.agents
        }
        self._start()

    def __getstate__(self) -> dict[str, Any]:
        """The whole state of play (EzPickle's would rebuild a new game from the arguments)."""
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def _start(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """The board from ``agent``'s side and its legal actions (none unless it is to move)."""
        player = self.possible_agents.index(agent)
        if player == self.game.current_player:
            mask = self.game.action_masks()
        else:
            mask = np.zeros(ACTIONS, dtype=np.int8)
        return {"observation": self.game.observation_for(player), "action_mask": mask}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game (``seed`` drives the random opening plies, if any)."""
        self.game.reset(seed)
        self._start()

    def step(self, action: int | None) -> None:
        """Plays ``action`` for the agent to move (``None`` for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: an action is needed, not None")
        # play() builds no observation or info dict (observe() builds what an agent reads).
        self.game.play(int(action))
        terminated, truncated = self.game.terminated, self.game.truncated
        self._cumulative_rewards[agent] = 0.0
        winner = self.game.winner
        south = 0.0 if winner is None else (1.0 if winner == 0 else -1.0)
        self.rewards = {self.agents[0]: south, self.agents[1]: -south}
        if terminated or truncated:
            self.terminations = dict.fromkeys(self.agents, bool(terminated))
            self.truncations = dict.fromkeys(self.agents, bool(truncated))
        self.infos = {a: {} for a in self.agents}
        self.infos[agent] = {"move": self.game.last_move, "ply": self.game.plies}
        self._accumulate_rewards()
        self.agent_selection = self.agents[self.game.current_player]

    def render(self) -> Any:
        """The board in the render mode: text (``"ansi"``), a picture (``"rgb_array"``), or
        printed (``"human"``, returns ``None``)."""
        return render(self.game, self.render_mode)

    def close(self) -> None:
        pass
