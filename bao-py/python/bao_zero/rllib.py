"""Bao for RLlib's new API stack: the PettingZoo and Gymnasium environments in the observation
layout of RLlib's action-masking RLModule.

>>> from ray.tune.registry import register_env
>>> from bao_zero.rllib import multi_agent_env, single_agent_env
>>> register_env("bao", lambda config: multi_agent_env(**config))         # both sides, PettingZoo
>>> register_env("bao-gym", lambda config: single_agent_env(**config))    # against an opponent

RLlib's ``ActionMaskingTorchRLModule``
(``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) reads a dict observation with
the keys ``"observations"`` and ``"action_mask"`` and builds its default encoder, an MLP, for a
flat ``"observations"`` box (a 3-D box would ask for a CNN with filters set by hand).
bao_zero's environments give the board as float32 ``(27, 4, 8)`` and the mask as int8
(PettingZoo's ``"observation"`` / ``"action_mask"``, Gymnasium's observation and
``action_masks()``), so the wrappers here flatten the board and give the mask as float32 (the
module takes its logarithm):

- :func:`multi_agent_env`: RLlib's ``PettingZooEnv`` over :func:`bao_zero.pettingzoo.env`
  wrapped in :class:`RLlibObservations`, a ``MultiAgentEnv`` with the agents ``player_0`` (South)
  and ``player_1`` (North), the mover's observation at each step, +1/-1 to the winner/loser;
- :func:`single_agent_env`: ``bao_zero/Bao-v0`` (the agent against a built-in opponent) wrapped
  in :class:`RLlibObservation`.

Only :func:`multi_agent_env` imports RLlib.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

from bao_zero._core import ACTIONS, OBS_HIGH, OBS_LEN
from bao_zero.gym_env import ENV_ID, BaoEnv
from bao_zero.pettingzoo import env

__all__ = [
    "OBSERVATION_SPACE",
    "RLlibObservation",
    "RLlibObservations",
    "multi_agent_env",
    "single_agent_env",
]

#: The observation the action-masking RLModule reads: the board flattened, 1.0 for legal actions.
OBSERVATION_SPACE = spaces.Dict(
    {
        "observations": spaces.Box(0.0, OBS_HIGH, shape=(OBS_LEN,), dtype=np.float32),
        "action_mask": spaces.Box(0.0, 1.0, shape=(ACTIONS,), dtype=np.float32),
    }
)


def _masked(board: npt.NDArray[np.float32], mask: npt.NDArray[Any]) -> dict[str, Any]:
    """A board and its mask in the layout of :data:`OBSERVATION_SPACE`."""
    return {"observations": board.reshape(OBS_LEN), "action_mask": mask.astype(np.float32)}


class RLlibObservations(BaseWrapper):
    """A PettingZoo AEC env of bao_zero whose observations are :data:`OBSERVATION_SPACE`'s."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return OBSERVATION_SPACE

    def observe(self, agent: str) -> dict[str, npt.NDArray[np.float32]]:
        seen = self.env.observe(agent)
        return _masked(seen["observation"], seen["action_mask"])


class RLlibObservation(gymnasium.ObservationWrapper):
    """``bao_zero/Bao-v0`` with :data:`OBSERVATION_SPACE`'s observations (the mask of the
    position the agent is to move in; all zeros once the game is over)."""

    def __init__(self, game: gymnasium.Env) -> None:
        super().__init__(game)
        self.observation_space = OBSERVATION_SPACE

    def observation(self, observation: npt.NDArray[np.float32]) -> dict[str, Any]:
        game: BaoEnv = self.env.unwrapped  # type: ignore[assignment]
        return _masked(observation, game.action_masks())


def multi_agent_env(**kwargs: Any) -> Any:
    """RLlib's ``PettingZooEnv`` over :func:`bao_zero.pettingzoo.env` (same keywords:
    ``variant``, ``max_plies``, ``opening_random_plies``, ``rules``) in the action-masking
    layout; the ``env_config`` dict of ``PPOConfig().environment`` passes them."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    return PettingZooEnv(RLlibObservations(env(**kwargs)))  # type: ignore[no-untyped-call]


def single_agent_env(**kwargs: Any) -> RLlibObservation:
    """``gymnasium.make("bao_zero/Bao-v0", **kwargs)`` (``variant``, ``opponent``,
    ``agent_side``, ...) in the action-masking layout."""
    return RLlibObservation(gymnasium.make(ENV_ID, **kwargs))
