"""Policies that test_engine.py runs in `python -m bao_zero.engine` processes (importable there
through PYTHONPATH). A start of the engine with ``Counted`` adds a line to the file named by
BAO_TEST_STARTS."""

from __future__ import annotations

import os

import numpy as np
import numpy.typing as npt


def first_legal(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
    """The first legal action."""
    assert observation.shape == (27, 4, 8) and observation.dtype == np.float32
    assert mask.shape == (64,) and mask.dtype == np.int8
    return int(np.flatnonzero(mask)[0])


def last_legal(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
    """The last legal action."""
    return int(np.flatnonzero(mask)[-1])


class Counted:
    """The first legal action, from a policy object that counts its starts and its games."""

    def __init__(self) -> None:
        self.games = 0
        path = os.environ.get("BAO_TEST_STARTS")
        if path:
            with open(path, "a") as f:
                f.write("start\n")

    def reset(self) -> None:
        self.games += 1

    def __call__(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        print("a policy's print goes to stderr")
        return first_legal(observation, mask)
