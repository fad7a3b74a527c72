#!/usr/bin/env python3
"""The single-game step loop from Python against OpenSpiel's, in one run (not a timed test).

Each loop (optionally reads the observation,) draws a random legal action with
``random.choice`` from the list of legal actions, steps, and starts a new game at the end, as a
user's own loop would:

- OpenSpiel (``pyspiel``, package ``open-spiel``) on ``mancala``: ``apply_action``, and the same
  with ``observation_tensor()`` after each step;
- bao_zero's documented fast loop: ``Env.play`` (returns whether the game is over), and the
  same with ``Env.observe_into(buffer)`` after each step;
- for reference, ``Env.step`` (a new observation and info dict each step), the Gymnasium env
  against a random opponent and the PettingZoo env, where those are installed.

Every figure is the median of ``--runs`` rounds in which each loop runs ``--seconds`` in turn
(so the machine's load touches them alike), in steps (plies) per second of the clock and per
second of the thread's CPU time; the ratios bao / OpenSpiel, by both, are printed last.
OpenSpiel is not a dependency of the project: install it in a separate virtual environment beside bao_zero, e.g.
``python -m venv /tmp/bench && /tmp/bench/bin/pip install ./bao-py open-spiel gymnasium
pettingzoo``, then ``/tmp/bench/bin/python scripts/python_env_bench.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Callable, Optional

import numpy as np

import bao_zero


def timed(
    loops: dict[str, Callable[[float], int]], seconds: float, runs: int
) -> tuple[dict[str, float], dict[str, float]]:
    """Median steps per second of each loop over ``runs`` rounds, of the clock and of the
    thread's CPU time; each round runs every loop once for ``seconds``, in turn, so a change in
    the machine's load touches all loops alike. On a shared machine the CPU figures hold where
    the clock's swing with the other jobs (time waiting for a core is not counted)."""
    rates: dict[str, list[float]] = {name: [] for name in loops}
    cpu_rates: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(runs):
        for name, loop in loops.items():
            start, cpu_start = time.perf_counter(), time.thread_time()
            steps = loop(seconds)
            rates[name].append(steps / (time.perf_counter() - start))
            cpu_rates[name].append(steps / (time.thread_time() - cpu_start))
    median = {name: statistics.median(r) for name, r in rates.items()}
    return median, {name: statistics.median(r) for name, r in cpu_rates.items()}


def openspiel_loop(observe: bool) -> Optional[Callable[[float], int]]:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("mancala")

    def loop(seconds: float) -> int:
        rng = random.Random(0)
        choice = rng.choice
        state = game.new_initial_state()
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(1000):
                if observe:
                    state.observation_tensor()
                state.apply_action(choice(state.legal_actions()))
                if state.is_terminal():
                    state = game.new_initial_state()
            steps += 1000
        return steps

    return loop


def bao_play_loop(variant: str, observe: bool) -> Callable[[float], int]:
    """The README's loop: ``env.play`` with a random legal action, ``observe_into`` a buffer."""

    def loop(seconds: float) -> int:
        rng = random.Random(0)
        choice = rng.choice
        env = bao_zero.Env(variant, seed=0)
        play, legal, observe_into = env.play, env.legal_actions, env.observe_into
        obs = np.zeros(bao_zero.OBS_SHAPE, dtype=np.float32)
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(1000):
                if observe:
                    observe_into(obs)
                if play(choice(legal())):
                    env.reset()
            steps += 1000
        return steps

    return loop


def bao_step_loop(variant: str) -> Callable[[float], int]:
    """``Env.step``: a new observation array and info dict every step."""

    def loop(seconds: float) -> int:
        rng = random.Random(0)
        env = bao_zero.Env(variant, seed=0)
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(1000):
                _, _, terminated, truncated, _ = env.step(rng.choice(env.legal_actions()))
                if terminated or truncated:
                    env.reset()
            steps += 1000
        return steps

    return loop


def gym_loop(variant: str) -> Optional[Callable[[float], int]]:
    try:
        from bao_zero.gym_env import BaoEnv
    except ImportError:
        return None

    def loop(seconds: float) -> int:
        rng = random.Random(0)
        env = BaoEnv(variant=variant)
        env.reset(seed=0)
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(200):
                action = rng.choice(np.flatnonzero(env.action_masks()))
                _, _, terminated, truncated, info = env.step(action)
                steps += 1 + len(info.get("opponent_moves", ()))
                if terminated or truncated:
                    env.reset()
        return steps

    return loop


def pettingzoo_loop(variant: str) -> Optional[Callable[[float], int]]:
    try:
        from bao_zero.pettingzoo import env as make
    except ImportError:
        return None

    def loop(seconds: float) -> int:
        rng = np.random.default_rng(0)
        game = make(variant=variant)
        game.reset(seed=0)
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for agent in game.agent_iter():
                observation, _, termination, truncation, _ = game.last()
                if termination or truncation:
                    game.step(None)
                    continue
                game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                steps += 1
            game.reset()
        return steps

    return loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="kiswahili")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    loops = {
        "openspiel apply_action": openspiel_loop(False),
        "openspiel + observation_tensor": openspiel_loop(True),
        "bao Env.play": bao_play_loop(args.variant, False),
        "bao Env.play + observe_into": bao_play_loop(args.variant, True),
        "bao Env.step": bao_step_loop(args.variant),
        "bao Gymnasium env vs random": gym_loop(args.variant),
        "bao PettingZoo env": pettingzoo_loop(args.variant),
    }
    for name, loop in loops.items():
        if loop is None:
            print(f"{name:34} (not installed)")
    rates, cpu_rates = timed(
        {n: f for n, f in loops.items() if f is not None}, args.seconds, args.runs
    )
    for name, rate in rates.items():
        print(
            f"{name:34} {rate / 1e6:7.3f} M steps/s"
            f"  ({cpu_rates[name] / 1e6:.3f} M per CPU second)",
            flush=True,
        )
    if "openspiel apply_action" in rates:
        for what, r in (("", rates), (" (CPU time)", cpu_rates)):
            plain = r["bao Env.play"] / r["openspiel apply_action"]
            observed = r["bao Env.play + observe_into"] / r["openspiel + observation_tensor"]
            print(f"ratio bao/OpenSpiel{what}, step loop:              {plain:.2f}")
            print(f"ratio bao/OpenSpiel{what}, step loop with observations: {observed:.2f}")


if __name__ == "__main__":
    main()
