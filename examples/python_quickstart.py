#!/usr/bin/env python3
"""bao_zero from Python: random play, a PettingZoo loop with masks, and the shipped player
against a random agent. Runs from any folder after `pip install ./bao-py`."""

from __future__ import annotations

import numpy as np

import bao_zero

rng = np.random.default_rng(0)

# 1. Random play with bao_zero.Env.
env = bao_zero.Env("kiswahili", seed=0)
obs, info = env.reset(seed=0)
while not env.done:
    action = int(rng.choice(np.flatnonzero(env.action_masks())))
    obs, reward, terminated, truncated, info = env.step(action)
print(f"random game: {env.plies} plies, {env.end}")

# 2. PettingZoo: the AEC loop with action masks.
from bao_zero.pettingzoo import env as bao_env  # noqa: E402

game = bao_env(variant="kiswahili")
game.reset(seed=0)
for agent in game.agent_iter():
    observation, reward, termination, truncation, info = game.last()
    if termination or truncation:
        action = None
    else:
        action = game.action_space(agent).sample(observation["action_mask"])
    game.step(action)
print("pettingzoo game over")

# 3. The shipped player (South) against a random agent (North).
player = bao_zero.Player.shipped("kiswahili")  # found from any folder
env = bao_zero.Env("kiswahili", seed=1)
while not env.done:
    if env.current_player == 0:
        choice = player.choose(env.position, sims=64)
        env.step(env.move_to_action(choice.move))
    else:
        env.step(int(rng.choice(env.legal_actions())))
print(f"shipped player vs random: {env.end} after {env.plies} plies")
