#!/usr/bin/env python3
"""The docs/PYTHON.md recipe for sb3-contrib's MaskablePPO, run end to end (not a CI test: it
needs torch).

Trains ``MaskablePPO("MlpPolicy", gymnasium.make("bao_zero/Bao-v0", ...))`` with no wrapper
(the env's ``action_masks()`` is what MaskablePPO asks for) against the random opponent, or with
``--envs N`` on the Rust batch env through :class:`bao_zero.sb3.Sb3VecEnv`; then measures the
policy with :func:`bao_zero.evaluate` against ``random`` (pairs of games from the same
openings, each side once) before and after training, as ``rl_measure.py`` does for every recipe,
and prints the training steps per second.

Set up once, in a virtual environment of its own (CPU-only torch is enough)::

    python -m venv /tmp/rl && /tmp/rl/bin/pip install ./bao-py sb3-contrib gymnasium
    /tmp/rl/bin/python scripts/rl_maskable_ppo.py --envs 16 --n-steps 256   # the recipe

It prints the untrained and trained policies' scores against ``random`` (``evaluate``, from the
start position and from 4 random opening plies) and the trained policy's wins as South and as
North in the Gymnasium env; docs/PYTHON.md has the results.
"""

from __future__ import annotations

import argparse
from typing import Any

import gymnasium
import numpy as np

from rl_measure import Clock, Policy, measure


def policy_of(model: Any) -> Policy:
    """The trained model as the (observation, mask) -> action callable evaluate() plays."""

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    return policy


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
    measure("untrained", policy_of(model), args.variant, args.games, args.seed, sides=False)
    clock = Clock()
    model.learn(total_timesteps=args.steps)
    clock.report(args.steps)
    measure(f"after {args.steps} steps", policy_of(model), args.variant, args.games, args.seed)


if __name__ == "__main__":
    main()
