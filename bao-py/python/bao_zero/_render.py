"""What the wrappers' ``render()`` returns in each render mode, shared by the Gymnasium and
PettingZoo environments."""

from __future__ import annotations

import gymnasium
import numpy as np
import numpy.typing as npt

from bao_zero._core import Env

#: The render modes both wrappers take.
RENDER_MODES = ["human", "ansi", "rgb_array"]


def check_render_mode(render_mode: str | None) -> None:
    """``ValueError`` unless ``render_mode`` is ``None`` or one of :data:`RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        modes = ", ".join(repr(m) for m in RENDER_MODES)
        raise ValueError(f"render_mode must be None or one of {modes}, not {render_mode!r}")


def render(game: Env, render_mode: str | None) -> str | npt.NDArray[np.uint8] | None:
    """The board of ``game`` in ``render_mode``: ``"ansi"`` the text board (str),
    ``"rgb_array"`` the picture (uint8 ``(height, width, 3)``), ``"human"`` the text board
    printed to standard output (returns ``None``); with no render mode, Gymnasium's warning and
    ``None``."""
    if render_mode is None:
        gymnasium.logger.warn("You are calling render method without specifying any render mode.")
        return None
    if render_mode == "rgb_array":
        return game.render_rgb()
    if render_mode == "human":
        print(game.render(), flush=True)
        return None
    return game.render()
