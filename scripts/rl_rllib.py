#!/usr/bin/env python3
"""The docs/PYTHON.md recipe for RLlib's PPO with its action-masking RLModule, run end to end
(not a CI test: it needs Ray RLlib and torch).

PPO on RLlib's new API stack trains an ``ActionMaskingTorchRLModule``
(``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) on bao_zero's envs in the layout
that module reads (:mod:`bao_zero.rllib`: the board flattened, the keys ``"observations"`` and
``"action_mask"``): with ``--env pettingzoo`` (the default) one module plays both agents of the
PettingZoo env (self-play, :func:`bao_zero.rllib.multi_agent_env`); with ``--env gym`` it plays
the Gymnasium env against its random opponent, its side drawn at each game
(:func:`bao_zero.rllib.single_agent_env`). Sampling and learning both run in the driver process
(no EnvRunner or Learner actors). The module's greedy action (the masked logits' argmax) is then
measured with ``bao_zero.evaluate`` against ``random`` before and after training, as
``rl_measure.py`` does for every recipe, and the training steps per second are printed (a step
is a ply of either agent with ``pettingzoo``, a move of the agent with ``gym``).

Set up once, in a virtual environment of its own (CPU-only torch is enough)::

    python -m venv /tmp/rl && /tmp/rl/bin/pip install "./bao-py[pettingzoo]" "ray[rllib]" torch
    /tmp/rl/bin/python scripts/rl_rllib.py --steps 400000               # self-play
    /tmp/rl/bin/python scripts/rl_rllib.py --env gym --steps 200000     # against random

docs/PYTHON.md has the results.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from rl_measure import Clock, Policy, measure


def policy_of(module: Any) -> Policy:
    """The RLModule's greedy choice among the legal actions, as evaluate() plays it."""
    import torch
    from ray.rllib.core.columns import Columns

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        batch = {Columns.OBS: {
            "observations": torch.from_numpy(observation.reshape(1, -1)),
            "action_mask": torch.from_numpy(mask.astype(np.float32)[None]),
        }}
        with torch.no_grad():
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return int(logits.argmax(-1)[0])

    return policy


def ppo_config(args: Any) -> tuple[Any, str]:
    """PPO with the action-masking RLModule on the env ``args.env`` names, and the id of the
    module that learns."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    from bao_zero.rllib import multi_agent_env, single_agent_env

    # Two tanh layers of 64, separate for the policy and the value: MlpPolicy's in SB3.
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"fcnet_hiddens": [64, 64], "vf_share_layers": False})
    env_config = {"variant": args.variant, "opening_random_plies": args.opening_plies}
    config = (
        PPOConfig()
        .env_runners(num_env_runners=0, num_envs_per_env_runner=args.envs)
        .training(train_batch_size_per_learner=args.batch, minibatch_size=64, num_epochs=10,
                  lr=3e-4)
        .debugging(seed=args.seed)
    )
    if args.env == "gym":
        register_env("bao-gym", lambda config: single_agent_env(**config))
        config = config.environment("bao-gym", env_config={**env_config, "agent_side": "random"})
        return config.rl_module(rl_module_spec=module), "default_policy"
    register_env("bao", lambda config: multi_agent_env(**config))
    config = (
        # RLlib's env check steps unmasked random actions: illegal-move warnings.
        config.environment("bao", env_config=env_config, disable_env_checking=True)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent, episode, **kw: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
    )
    return config, "shared"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="kujifunza")
    parser.add_argument("--env", default="pettingzoo", choices=["pettingzoo", "gym"],
                        help="self-play on the PettingZoo env, or the Gymnasium env against "
                             "its random opponent (the agent's side drawn at each game)")
    parser.add_argument("--steps", type=int, default=400_000,
                        help="env steps sampled: plies (pettingzoo), the agent's moves (gym)")
    parser.add_argument("--envs", type=int, default=8, help="games sampled together")
    parser.add_argument("--batch", type=int, default=2000, help="env steps per PPO update")
    parser.add_argument("--games", type=int, default=400, help="evaluation games")
    parser.add_argument("--curve", type=int, default=0,
                        help="steps between points of the learning curve (0: none)")
    parser.add_argument("--curve-games", type=int, default=100)
    parser.add_argument("--opening-plies", type=int, default=0,
                        help="random plies that start each training game (evaluate() plays 4)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import ray
    import torch

    torch.set_num_threads(1)
    ray.init(include_dashboard=False)
    config, learner = ppo_config(args)
    algo = config.build_algo()
    measure("untrained", policy_of(algo.get_module(learner)), args.variant, args.games,
            args.seed, sides=False)
    clock, sampled, next_point = Clock(), 0, args.curve
    while sampled < args.steps:
        sampled = int(algo.train()["env_runners"]["num_env_steps_sampled_lifetime"])
        if args.curve and sampled >= next_point:
            clock.curve_point(policy_of(algo.get_module(learner)), args.variant,
                              args.curve_games, args.seed, sampled)
            next_point += args.curve
    clock.report(sampled)
    measure(f"after {sampled} steps", policy_of(algo.get_module(learner)), args.variant,
            args.games, args.seed)
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
