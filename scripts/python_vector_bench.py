#!/usr/bin/env python3
"""The fast vector env against Gymnasium's ``SyncVectorEnv``, in one run (not a timed test).

Both step ``--envs`` games of ``bao_zero/Bao-v0``'s game, the agent choosing a uniformly random
legal action from ``infos["action_mask"]`` in every game, with same-step autoreset:

- ``BaoVectorEnv`` (``bao_zero.gym_vector``): the games and the opponent's replies in Rust, the
  GIL released, ``--threads`` threads;
- ``SyncVectorEnv`` over ``gymnasium.make("bao_zero/Bao-v0")``: one Python env per game, the
  opponent asked move by move (``autoreset_mode=SAME_STEP``).

Against each ``--opponents`` spec (``random``, ``greedy``, ``ab:depth=1``...). Every figure is the
median of ``--runs`` rounds in which each loop runs ``--seconds`` in turn (so the machine's load
touches them alike), in agent steps per second (a vector step of 16 games is 16); the ratio fast
/ sync is printed last. Run with the package and gymnasium installed (the test venv has both):
``target/python-venv/bin/python scripts/python_vector_bench.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any, Callable

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import bao_zero  # noqa: F401 - registers bao_zero/Bao-v0
from bao_zero.gym_vector import BaoVectorEnv


def masked_random(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``masks``."""
    scores = rng.random(masks.shape)
    scores[masks == 0] = -1.0
    return scores.argmax(axis=1)


def loop(envs: gymnasium.vector.VectorEnv) -> Callable[[float], int]:
    """Steps ``envs`` for ``seconds`` with random legal actions; the agent steps taken."""
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=0)
    state = {"infos": infos}

    def run(seconds: float) -> int:
        steps, end = 0, time.perf_counter() + seconds
        infos: dict[str, Any] = state["infos"]
        while time.perf_counter() < end:
            _, _, _, _, infos = envs.step(masked_random(infos["action_mask"], rng))
            steps += envs.num_envs
        state["infos"] = infos
        return steps

    return run


def sync_env(n: int, variant: str, opponent: str) -> SyncVectorEnv:
    def make() -> gymnasium.Env:
        return gymnasium.make("bao_zero/Bao-v0", variant=variant, opponent=opponent)

    return SyncVectorEnv([make] * n, autoreset_mode=AutoresetMode.SAME_STEP)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--variant", default="kiswahili")
    parser.add_argument("--opponents", nargs="+", default=["random", "greedy", "ab:depth=1,tt=12"])
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    loops: dict[str, Callable[[float], int]] = {}
    for opponent in args.opponents:
        fast = BaoVectorEnv(args.envs, args.variant, opponent=opponent, threads=args.threads)
        loops[f"fast {opponent}"] = loop(fast)
        loops[f"sync {opponent}"] = loop(sync_env(args.envs, args.variant, opponent))
    rates: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(args.runs):
        for name, run in loops.items():
            start = time.perf_counter()
            steps = run(args.seconds)
            rates[name].append(steps / (time.perf_counter() - start))
    medians = {name: statistics.median(r) for name, r in rates.items()}
    print(f"{args.envs} envs, {args.variant}, medians of {args.runs} rounds of {args.seconds} s")
    print("| opponent | BaoVectorEnv steps/s | SyncVectorEnv steps/s | ratio |")
    print("| --- | --- | --- | --- |")
    for opponent in args.opponents:
        fast, sync = medians[f"fast {opponent}"], medians[f"sync {opponent}"]
        print(f"| `{opponent}` | {fast:,.0f} | {sync:,.0f} | {fast / sync:.1f} |")


if __name__ == "__main__":
    main()
