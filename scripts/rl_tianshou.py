#!/usr/bin/env python3
"""The docs/PYTHON.md recipe for tianshou 2.x, run end to end (not a CI test: it needs tianshou
and torch).

tianshou's own PettingZoo path, as in its tic-tac-toe example, with no glue:
``tianshou.env.PettingZooEnv`` over :func:`bao_zero.pettingzoo.env` (it reads each observation's
``"action_mask"`` into ``obs.mask``), and ``MultiAgentOffPolicyAlgorithm`` with one algorithm per
agent: the learner, DQN (tianshou's algorithms that take a mask are the DQN family), on one side
and tianshou's masked random agent on the other. ``--seat both`` trains the one DQN on both
sides, in turns of ``--chunk`` plies (a ``MultiAgentOffPolicyAlgorithm``, collector and buffer
per side), since tianshou ties each algorithm to an agent. The DQN's greedy action is then
measured with ``bao_zero.evaluate`` against ``random`` before and after training, as
``rl_measure.py`` does for every recipe, and the training steps per second are printed; a step is
a ply, the random agent's included (the learner makes half of them).

Two settings matter for Bao:

- ``--n-step`` is even: tianshou's buffer holds the two agents' plies in turn, so an n-step
  return over an even number of plies ends on the learner's own turn (an odd one would bootstrap
  from the opponent's position with the learner's values);
- each collection step gathers ``--collect`` plies: tianshou 2.0's trainer checks the whole
  replay buffer for NaNs after each collection step, so small steps (its examples' 10) spend
  most of the time there once the buffer fills.

Set up once, in a virtual environment of its own (CPU-only torch is enough)::

    python -m venv /tmp/rl && /tmp/rl/bin/pip install "./bao-py[pettingzoo]" tianshou torch
    /tmp/rl/bin/python scripts/rl_tianshou.py --seat both --steps 400000

docs/PYTHON.md has the results.
"""

from __future__ import annotations

import argparse
import logging
from typing import Any, Callable

import numpy as np

from bao_zero import OBS_SHAPE
from rl_measure import Clock, Policy, measure

SIDES = ("south", "north")


def policy_of(dqn: Any) -> Policy:
    """The DQN's greedy choice among the legal actions, as evaluate() plays it."""
    import torch
    from tianshou.data import Batch

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        batch = Batch(obs=Batch(obs=observation[None], mask=mask[None] == 1), info=Batch())
        with torch.no_grad():
            return int(dqn.policy(batch).act[0])

    return policy


def seat_runs(dqn: Any, make_env: Callable[[], Any], seats: list[str], args: Any) -> list[Any]:
    """Per side the DQN learns: its MultiAgentOffPolicyAlgorithm (the DQN against tianshou's
    random agent) and a collector over ``args.envs`` games with a replay buffer of its own."""
    from tianshou.algorithm import (
        MARLRandomDiscreteMaskedOffPolicyAlgorithm,
        MultiAgentOffPolicyAlgorithm,
    )
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv

    env = make_env()
    runs = []
    for seat in seats:
        players = [dqn, dqn]
        players[1 - SIDES.index(seat)] = \
            MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
        algorithm = MultiAgentOffPolicyAlgorithm(algorithms=players, env=env)
        envs = DummyVectorEnv([make_env for _ in range(args.envs)])
        envs.seed(args.seed + SIDES.index(seat))
        collector = Collector[CollectStats](algorithm, envs,
                                            VectorReplayBuffer(args.buffer, args.envs),
                                            exploration_noise=True)
        collector.reset()
        runs.append((algorithm, collector))
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="kujifunza")
    parser.add_argument("--steps", type=int, default=400_000,
                        help="plies collected, the random agent's included")
    parser.add_argument("--seat", default="both", choices=["south", "north", "both"],
                        help="the learner's side")
    parser.add_argument("--envs", type=int, default=10, help="games collected together")
    parser.add_argument("--chunk", type=int, default=10_000,
                        help="plies trained on one side before the other's turn")
    parser.add_argument("--collect", type=int, default=1000, help="plies per collection step")
    parser.add_argument("--updates", type=float, default=0.1, help="gradient steps per ply")
    parser.add_argument("--n-step", type=int, default=2, help="plies of an n-step return (even)")
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--buffer", type=int, default=50_000, help="replay buffer, plies")
    parser.add_argument("--games", type=int, default=400, help="evaluation games")
    parser.add_argument("--curve", type=int, default=0,
                        help="steps between points of the learning curve (0: none)")
    parser.add_argument("--curve-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.n_step % 2:
        parser.error("--n-step must be even (see the script's text)")

    import torch
    from tianshou.algorithm import DQN
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.env import PettingZooEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    from bao_zero.pettingzoo import env as bao_env

    torch.set_num_threads(1)
    # A two-agent game's returns are 2-D: tianshou's stats warn so at every collection step.
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    np.random.seed(args.seed)  # tianshou's exploration and random agent draw from numpy's
    torch.manual_seed(args.seed)

    def make_env() -> PettingZooEnv:
        return PettingZooEnv(bao_env(variant=args.variant))

    space = make_env().action_space
    # The network, exploration and target updates of tianshou's tic-tac-toe example.
    net = Net(state_shape=OBS_SHAPE, action_shape=space.n, hidden_sizes=[128, 128, 128, 128])
    dqn = DQN(policy=DiscreteQLearningPolicy(model=net, action_space=space, eps_training=0.1),
              optim=AdamOptimizerFactory(lr=args.lr), gamma=0.9,
              n_step_return_horizon=args.n_step, target_update_freq=320)
    runs = seat_runs(dqn, make_env, list(SIDES) if args.seat == "both" else [args.seat], args)
    measure("untrained", policy_of(dqn), args.variant, args.games, args.seed, sides=False)
    clock, steps, next_point = Clock(), 0, args.curve
    while steps < args.steps:
        for algorithm, collector in runs:
            chunk = min(args.chunk, args.steps - steps)
            if chunk <= 0:
                break
            algorithm.create_trainer(OffPolicyTrainerParams(
                training_collector=collector, max_epochs=1, epoch_num_steps=chunk,
                collection_step_num_env_steps=min(args.collect, chunk), batch_size=64,
                update_step_num_gradient_steps_per_sample=args.updates,
                verbose=False, show_progress=False)).run(reset_collectors=False)
            steps += chunk
        if args.curve and steps >= next_point:
            clock.curve_point(policy_of(dqn), args.variant, args.curve_games, args.seed, steps)
            next_point += args.curve
    clock.report(steps)
    measure(f"after {steps} steps", policy_of(dqn), args.variant, args.games, args.seed)


if __name__ == "__main__":
    main()
