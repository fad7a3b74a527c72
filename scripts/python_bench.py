#!/usr/bin/env python3
"""Steps per second of the Python package against the Rust environment (not a timed test).

Measures, on Bao la Kiswahili with random legal actions:

- ``VecEnv`` with 64 environments on 2 threads stepped from Python: the time inside ``step``
  alone, and the whole loop with the actions drawn in numpy from the masks;
- one ``Env`` stepped from Python (``env.step`` with a random legal action each ply);

and, if the ``bao`` binary is built (``target/release/bao``), runs ``bao bench env`` with the
same environments and threads and prints the ratio. Run it with the interpreter the package is
installed in, e.g. ``target/python-venv/bin/python scripts/python_bench.py``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import time
from pathlib import Path

import numpy as np

import bao_zero

ROOT = Path(__file__).resolve().parents[1]


def bench_vec_env(envs: int, threads: int, seconds: float) -> tuple[float, float]:
    """(steps/s counting only ``step``, steps/s of the whole loop with numpy action draws)."""
    venv = bao_zero.VecEnv(envs, seed=0, threads=threads)
    rng = np.random.default_rng(0)
    # Noise tables drawn up front, so the loop's action draw is one multiply and one argmax.
    noise = rng.random((16, envs, bao_zero.ACTIONS), dtype=np.float32) + 0.01
    masks = venv.action_masks()
    in_step = 0.0
    steps = 0
    start = time.perf_counter()
    k = 0
    while time.perf_counter() - start < seconds:
        actions = (noise[k & 15] * masks).argmax(axis=1)
        t = time.perf_counter()
        venv.step(actions)
        in_step += time.perf_counter() - t
        steps += envs
        k += 1
    total = time.perf_counter() - start
    return steps / in_step, steps / total


def bench_env(seconds: float) -> float:
    """Steps/s of one ``Env`` stepped from Python with random legal actions."""
    env = bao_zero.Env(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(1000):
            if env.done:
                env.reset()
            legal = env.legal_actions()
            env.step(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps / (time.perf_counter() - start)


def rust_vec_env(envs: int, threads: int) -> float | None:
    """The Rust VecEnv's steps/s from ``bao bench env``, or None without the binary."""
    bao = ROOT / "target" / "release" / "bao"
    if not bao.exists():
        return None
    out = subprocess.run(
        [str(bao), "bench", "env", "--envs", str(envs), "--threads", str(threads),
         "--seconds", "2", "--runs", "3"],
        capture_output=True, text=True, check=True,
    ).stdout
    print(out)
    m = re.search(rf"VecEnv, {envs} envs, {threads} threads\s+(\d+) steps/s", out)
    return float(m.group(1)) if m else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rust = rust_vec_env(args.envs, args.threads)
    step_only, loop = bench_vec_env(args.envs, args.threads, args.seconds)
    single = bench_env(args.seconds)
    print(f"Python VecEnv, {args.envs} envs, {args.threads} threads:")
    print(f"  step() alone                    {step_only:>12.0f} steps/s")
    print(f"  loop with numpy action draws    {loop:>12.0f} steps/s")
    print(f"Python Env.step, random legal     {single:>12.0f} steps/s")
    if rust:
        print(f"Rust VecEnv (bao bench env)       {rust:>12.0f} steps/s")
        print(f"  Python/Rust: step() alone {step_only / rust:.0%}, whole loop {loop / rust:.0%}")


if __name__ == "__main__":
    main()
