"""Bao, the East African four-row mancala, for reinforcement learning.

The rules, the action mapping, the observation encoding, the batched environment, the players
and the replay reader are the Rust ones of the bao-zero project (the extension module
``bao_zero._core``); this package adds Python-shaped wrappers:

- :class:`Env`: one game (reset/step, numpy observation and mask, moves as text);
- :class:`VecEnv`: many games stepped together in Rust with the GIL released;
- :mod:`bao_zero.pettingzoo`: a PettingZoo AEC environment (``env``, ``raw_env``);
- :mod:`bao_zero.gym_env`: a Gymnasium environment against a built-in opponent, registered as
  ``bao_zero/Bao-v0`` when gymnasium is installed;
- :class:`Player`: exported player files, alpha-beta and the baselines;
- :func:`load_samples`: a training run's self-play samples as numpy arrays;
- :class:`SelfPlayWorker`, :class:`Learner`, :class:`EvaluationWorker`: the training stages of
  ``bao train``, for distributed drivers (:mod:`bao_zero.ray_train` runs them on Ray);
- :func:`network_tensors`: a network's tensors as numpy arrays;
- :func:`evaluate`: a Python policy ``(observation, mask) -> action`` against any player, in
  the pairs of games ``bao eval`` plays, with the score's 95% interval and Elo;
- :mod:`bao_zero.gym_vector`: the batch env as a ``gymnasium.vector.VectorEnv``, and
  :mod:`bao_zero.sb3` the same for Stable-Baselines3's vectorized training.
"""

from __future__ import annotations

import warnings
from typing import Any

from bao_zero._core import (
    ACTIONS,
    OBS_CHANNELS,
    OBS_HIGH,
    OBS_LEN,
    OBS_SHAPE,
    Choice,
    Env,
    EvaluationWorker,
    Learner,
    Player,
    SelfPlayWorker,
    __version__,
    episode_seed,
    evaluate,
    load_samples,
    network_tensors,
    variants,
)
from bao_zero.vector import VecEnv

__all__ = [
    "ACTIONS",
    "OBS_CHANNELS",
    "OBS_HIGH",
    "OBS_LEN",
    "OBS_SHAPE",
    "Choice",
    "Env",
    "EvaluationWorker",
    "Learner",
    "Player",
    "SelfPlayWorker",
    "VecEnv",
    "__version__",
    "episode_seed",
    "evaluate",
    "load_samples",
    "network_tensors",
    "variants",
]


def __getattr__(name: str) -> Any:
    # The deprecated name of EvaluationWorker, for scripts written with it.
    if name == "Evaluator":
        warnings.warn(
            "bao_zero.Evaluator is deprecated: use bao_zero.EvaluationWorker",
            DeprecationWarning,
            stacklevel=2,
        )
        return EvaluationWorker
    raise AttributeError(f"module 'bao_zero' has no attribute {name!r}")


try:  # Register the Gymnasium environment when gymnasium is there; it is optional.
    import gymnasium as _gymnasium  # noqa: F401
except ImportError:  # pragma: no cover - depends on the installation
    pass
else:
    from bao_zero.gym_env import register_envs as _register_envs

    _register_envs()
