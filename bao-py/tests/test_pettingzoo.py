"""bao_zero.pettingzoo: the AEC environment passes PettingZoo's own tests."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import bao_zero
from bao_zero.pettingzoo import env, raw_env

GAMES = [v for v in bao_zero.variants() if not v.startswith("ladder-")]


@pytest.mark.parametrize("variant", GAMES)
def test_api(variant: str) -> None:
    api_test(env(variant=variant), num_cycles=300)


@pytest.mark.parametrize("variant", GAMES)
def test_seed(variant: str) -> None:
    seed_test(lambda: env(variant=variant, opening_random_plies=4), num_cycles=300)


@pytest.mark.parametrize("variant", GAMES)
def test_render_in_every_mode(variant: str) -> None:
    render_test(lambda render_mode=None: env(variant=variant, render_mode=render_mode))


def test_rgb_array_is_the_board_and_rules_reach_the_game() -> None:
    game = env(variant="kiswahili", render_mode="rgb_array", rules={"takasia": "none"})
    game.reset(seed=0)
    picture = game.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert game.unwrapped.game.rules["takasia"] == "none"
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="video")


def test_a_whole_game_with_masks_and_ansi_render() -> None:
    game = env(variant="kiswahili", render_mode="ansi")
    game.reset(seed=0)
    assert game.possible_agents == ["player_0", "player_1"]
    assert game.agent_selection == "player_0"
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in game.possible_agents}
    steps = 0
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _info = game.last()
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
