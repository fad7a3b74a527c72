"""bao_zero.pettingzoo: the AEC environment passes PettingZoo's own tests."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from bao_zero.pettingzoo import env, raw_env


@pytest.mark.parametrize("variant", ["kiswahili", "hus", "malawi-advanced"])
def test_api(variant: str) -> None:
    api_test(env(variant=variant), num_cycles=300)


def test_seed() -> None:
    seed_test(lambda: env(opening_random_plies=4), num_cycles=300)


def test_a_whole_game_with_masks_and_ansi_render() -> None:
    game = env(variant="kiswahili", render_mode="ansi")
    game.reset(seed=0)
    assert game.possible_agents == ["player_0", "player_1"]
    assert game.agent_selection == "player_0"
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in game.possible_agents}
    steps = 0
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        totals[agent] += reward
        assert observation["observation"].shape == (27, 4, 8)
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            assert mask.dtype == np.int8 and mask.any()
            action = int(rng.choice(np.flatnonzero(mask)))
            steps += 1
        game.step(action)
    assert steps > 0
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert "position" in game.render()


def test_raw_env_raises_on_illegal_actions_and_the_wrapper_penalizes() -> None:
    raw = raw_env()
    raw.reset(seed=0)
    illegal = int(np.flatnonzero(raw.observe("player_0")["action_mask"] == 0)[0])
    with pytest.raises(ValueError):
        raw.step(illegal)
    wrapped = env()
    wrapped.reset(seed=0)
    wrapped.step(illegal)
    assert wrapped.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(wrapped.terminations.values())
