#!/usr/bin/env python3
"""The docs/PYTHON.md recipe for sb3-contrib's MaskablePPO, run end to end (not a CI test: it
needs torch).

Trains ``MaskablePPO("MlpPolicy", gymnasium.make("bao_zero/Bao-v0", ...))`` with no wrapper
(the env's ``action_masks()`` is what MaskablePPO asks for) against the random opponent, or with
``--envs N`` on the Rust batch env through :class:`bao_zero.sb3.Sb3VecEnv`; then measures the
policy with :func:`bao_zero.evaluate` against ``random`` (pairs of games from the same
openings, each side once) before and after training, and prints the training steps per second.

Set up once, in a virtual environment of its own (CPU-only torch is enough)::

    python -m venv /tmp/rl && /tmp/rl/bin/pip install ./bao-py sb3-contrib gymnasium
    /tmp/rl/bin/python scripts/rl_maskable_ppo.py --envs 16 --n-steps 256   # the recipe

It prints the untrained and trained policies' scores against ``random`` (``evaluate``, from 4
random opening plies and from the start position) and the trained policy's wins as South and as
North in the Gymnasium env; docs/PYTHON.md has the results.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

import gymnasium
import numpy as np

import bao_zero


def policy_of(model: Any) -> Callable[[np.ndarray, np.ndarray], int]:
    """The trained model as the (observation, mask) -> action callable evaluate() plays."""

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    return policy


def play_in_gym(model: Any, variant: str, side: str, games: int, seed: int) -> tuple[int, int]:
    """Games won by the model as ``side`` in ``bao_zero/Bao-v0`` against its random opponent."""
    env = gymnasium.make("bao_zero/Bao-v0", variant=variant, agent_side=side)
    wins = 0
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        wins += reward > 0
    return wins, games


def report(label: str, result: dict[str, Any]) -> None:
    print(
        f"{label}: against random, {result['games']} games "
        f"(+{result['wins']} ={result['draws']} -{result['losses']}), "
        f"score {100 * result['score']:.1f}% [{100 * result['score_low']:.1f}%, "
        f"{100 * result['score_high']:.1f}%], Elo {result['elo_text']}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="kujifunza")
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--envs", type=int, default=0,
                        help="games stepped together on the Rust batch env (0: one gymnasium env)")
    parser.add_argument("--games", type=int, default=400, help="evaluation games")
    parser.add_argument("--side", default="random", choices=["south", "north", "random"],
                        help="the agent's side while training (the Gymnasium env)")
    parser.add_argument("--n-steps", type=int, default=2048, help="PPO's rollout per env")
    parser.add_argument("--opening-plies", type=int, default=0,
                        help="random plies that start each training game (evaluate() plays 4)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    if args.envs:
        from bao_zero.sb3 import Sb3VecEnv

        env: Any = Sb3VecEnv(args.envs, variant=args.variant,
                             opening_random_plies=args.opening_plies)
        env.seed(args.seed)
    else:
        env = gymnasium.make("bao_zero/Bao-v0", variant=args.variant, agent_side=args.side,
                             opening_random_plies=args.opening_plies)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=args.n_steps, verbose=0)
    report("untrained", bao_zero.evaluate(policy_of(model), "random", variant=args.variant,
                                          games=args.games, seed=args.seed + 1))
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    seconds = time.perf_counter() - start
    print(f"trained {args.steps} steps in {seconds:.0f} s: {args.steps / seconds:.0f} steps/s",
          flush=True)
    for plies in (4, 0):
        report(f"after {args.steps} steps, {plies} random opening plies",
               bao_zero.evaluate(policy_of(model), "random", variant=args.variant,
                                 games=args.games, seed=args.seed + 1, opening_plies=plies))
    for side in ("south", "north"):
        wins, games = play_in_gym(model, args.variant, side, args.games, args.seed + 2)
        print(f"after {args.steps} steps, in the Gymnasium env as {side} against random: "
              f"won {wins} of {games} ({100 * wins / games:.1f}%)", flush=True)


if __name__ == "__main__":
    main()
