"""Stable-Baselines3's ``VecEnv`` interface over :class:`bao_zero.gym_vector.BaoVectorEnv`, so
that SB3's (and sb3-contrib's ``MaskablePPO``) vectorized training steps the Rust batch env.

>>> from sb3_contrib import MaskablePPO
>>> from bao_zero.sb3 import Sb3VecEnv
>>> env = Sb3VecEnv(64, variant="kujifunza")           # 64 games against a random opponent
>>> model = MaskablePPO("MlpPolicy", env).learn(200_000)

SB3 is not a dependency of bao_zero: importing this module needs ``stable-baselines3``. Masks
reach ``MaskablePPO`` through ``env_method("action_masks")``; ended games' last observations are
in each info's ``"terminal_observation"``, as SB3 expects.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _SB3VecEnv

from bao_zero.gym_vector import BaoVectorEnv

__all__ = ["Sb3VecEnv"]


class Sb3VecEnv(_SB3VecEnv):
    """``num_envs`` Bao games in Rust as an SB3 ``VecEnv``; the keywords are
    :class:`~bao_zero.gym_vector.BaoVectorEnv`'s (``variant``, ``opponent``, ``rules``, ...)."""

    def __init__(self, num_envs: int = 16, **kwargs: Any) -> None:
        self.venv = BaoVectorEnv(num_envs, **kwargs)
        super().__init__(
            self.venv.num_envs, self.venv.single_observation_space, self.venv.single_action_space
        )
        self._actions: npt.NDArray[np.int64] | None = None
        self._seed: int | None = None

    def reset(self) -> npt.NDArray[np.float32]:
        observations, _ = self.venv.reset(seed=self._seed)
        self._seed = None
        return observations

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(
        self,
    ) -> tuple[Any, npt.NDArray[np.float32], npt.NDArray[np.bool_], list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        observations, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if "final_obs" in infos:
            for i in np.flatnonzero(dones):
                out[i]["terminal_observation"] = infos["final_obs"][i]
                out[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return observations, rewards, dones, out

    def close(self) -> None:
        self.venv.close()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        self._seed = seed
        return [seed] * self.num_envs

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions of every game, int8 ``(num_envs, 64)``."""
        masks: npt.NDArray[np.int8] = self.venv.action_masks().copy()
        return masks

    def _indices(self, indices: int | Iterable[int] | None) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "action_masks":
            return [self.action_masks] * len(self._indices(indices))
        value = getattr(self.venv, attr_name)
        return [value] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"Sb3VecEnv cannot set {attr_name}: the games are Rust's")

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        raise AttributeError(f"Sb3VecEnv has no per-game method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs
