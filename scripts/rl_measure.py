"""How the docs/PYTHON.md recipe scripts (``rl_maskable_ppo.py``, ``rl_tianshou.py``,
``rl_rllib.py``) measure a policy, so that their figures compare: ``bao_zero.evaluate``
against ``random`` in pairs of games (each side once from the same opening), from the start
position and from 4 random opening plies, and games won as South and as North in the Gymnasium
env against its random opponent from the start position.

A policy is what ``evaluate`` plays: a callable ``(observation float32 (27, 4, 8), mask int8
(64,)) -> action``.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import gymnasium
import numpy as np

import bao_zero

Policy = Callable[[np.ndarray, np.ndarray], int]


def report(label: str, result: dict[str, Any]) -> None:
    """One line: the games counted, won, drawn and lost, the score with its 95% interval, Elo."""
    print(
        f"{label}: against random, {result['games']} games, {result['distinct_games']} distinct "
        f"(+{result['wins']} ={result['draws']} -{result['losses']}), "
        f"score {100 * result['score']:.1f}% [{100 * result['score_low']:.1f}%, "
        f"{100 * result['score_high']:.1f}%], Elo {result['elo_text']}",
        flush=True,
    )


def play_in_gym(policy: Policy, variant: str, side: str, games: int, seed: int) -> int:
    """Games won by ``policy`` as ``side`` in ``bao_zero/Bao-v0`` against its random opponent."""
    env = gymnasium.make("bao_zero/Bao-v0", variant=variant, agent_side=side)
    wins = 0
    for game in range(games):
        observation, info = env.reset(seed=seed + game)
        done, reward = False, 0.0
        while not done:
            action = policy(observation, info["action_mask"])
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        wins += reward > 0
    return wins


def measure(label: str, policy: Policy, variant: str, games: int, seed: int,
            sides: bool = True) -> None:
    """Prints ``evaluate`` against ``random`` from the start position and from 4 random opening
    plies, then (with ``sides``) the games won as South and as North in the Gymnasium env."""
    for plies, start in ((0, "the start position"), (4, "4 random opening plies")):
        report(f"{label}, from {start}",
               bao_zero.evaluate(policy, "random", variant=variant, games=games,
                                 seed=seed + 1, opening_plies=plies))
    if not sides:
        return
    for side in ("south", "north"):
        wins = play_in_gym(policy, variant, side, games, seed + 2)
        print(f"{label}, in the Gymnasium env as {side} against random: won {wins} of {games} "
              f"({100 * wins / games:.1f}%)", flush=True)


def curve_point(policy: Policy, variant: str, games: int, seed: int, steps: int) -> None:
    """One point of the learning curve: ``evaluate`` against ``random`` from the start position."""
    result = bao_zero.evaluate(policy, "random", variant=variant, games=games, seed=seed + 1,
                               opening_plies=0)
    print(f"at {steps} steps: {100 * result['score']:.1f}% against random from the start "
          f"position ({result['games']} games)", flush=True)


class Clock:
    """Training time without the learning curve's evaluations, and the steps per second."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.paused = 0.0

    def curve_point(self, policy: Policy, variant: str, games: int, seed: int,
                    steps: int) -> None:
        """:func:`curve_point`, its time left out of the training time."""
        start = time.perf_counter()
        curve_point(policy, variant, games, seed, steps)
        self.paused += time.perf_counter() - start

    def report(self, steps: int) -> None:
        seconds = time.perf_counter() - self.start - self.paused
        print(f"trained {steps} steps in {seconds:.0f} s: {steps / seconds:.0f} steps/s",
              flush=True)
