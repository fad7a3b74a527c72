"""bao_zero.gym_env: the Gymnasium environment passes Gymnasium's checker."""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bao_zero
from bao_zero.gym_env import BaoEnv


@pytest.mark.parametrize("opponent", ["random", "greedy", "ab:depth=2"])
@pytest.mark.parametrize("side", ["south", "north"])
def test_check_env(opponent: str, side: str) -> None:
    check_env(BaoEnv(opponent=opponent, agent_side=side), skip_render_check=True)


def test_check_env_with_the_shipped_player(shipped_player_path: Path) -> None:
    opponent = bao_zero.Player.from_spec(f"player:{shipped_player_path}")
    opponent_sims = BaoEnv(opponent=opponent, agent_side="random")
    check_env(opponent_sims, skip_render_check=True)


def test_registered_and_made_with_keyword_arguments() -> None:
    env = gymnasium.make("bao_zero/Bao-v0", variant="hus", opponent="ab:depth=1",
                         render_mode="ansi")
    obs, info = env.reset(seed=0)
    assert obs.shape == (27, 4, 8) and info["action_mask"].dtype == np.int8
    rng = np.random.default_rng(0)
    done = False
    total = 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    assert total in (-1.0, 0.0, 1.0)
    assert "position" in env.render()
    env.close()


def test_illegal_actions_lose_or_raise() -> None:
    env = BaoEnv()
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -1.0 and terminated and info["illegal_action"]
    with pytest.raises(RuntimeError):
        env.step(0)
    strict = BaoEnv(illegal_action="raise")
    _, info = strict.reset(seed=1)
    with pytest.raises(ValueError, match="illegal action"):
        strict.step(illegal)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    strict.step(legal)  # the failed call changed nothing


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        BaoEnv(agent_side="east")
    with pytest.raises(ValueError):
        BaoEnv(opponent="ab:depth=zero")
    with pytest.raises(FileNotFoundError):
        BaoEnv(opponent="no/such/player.bao")
