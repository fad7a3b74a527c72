"""bao_zero.rllib: the PettingZoo and Gymnasium envs in the layout of RLlib's action-masking
RLModule.

The wrappers need PettingZoo and Gymnasium only; the whole-game test through RLlib's
``PettingZooEnv`` runs where Ray RLlib is installed (``pip install "ray[rllib]"``) and is skipped
elsewhere; ``scripts/rl_rllib.py`` trains PPO on both envs.
"""

from __future__ import annotations

import numpy as np
import pytest

from bao_zero import ACTIONS, OBS_LEN
from bao_zero.pettingzoo import env
from bao_zero.rllib import OBSERVATION_SPACE, RLlibObservations, single_agent_env


def test_observations_are_the_board_flattened_and_the_mask_as_floats() -> None:
    plain, wrapped = env(variant="kujifunza"), RLlibObservations(env(variant="kujifunza"))
    plain.reset(seed=3)
    wrapped.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(10):
        agent = wrapped.agent_selection
        seen, expected = wrapped.observe(agent), plain.observe(agent)
        assert set(seen) == {"observations", "action_mask"}
        assert seen["observations"].dtype == np.float32
        assert seen["observations"].shape == (OBS_LEN,)
        np.testing.assert_array_equal(seen["observations"], expected["observation"].ravel())
        assert seen["action_mask"].dtype == np.float32
        np.testing.assert_array_equal(seen["action_mask"], expected["action_mask"])
        assert wrapped.observation_space(agent).contains(seen)
        action = int(rng.choice(np.flatnonzero(expected["action_mask"])))
        plain.step(action)
        wrapped.step(action)
    other = "player_1" if wrapped.agent_selection == "player_0" else "player_0"
    assert not wrapped.observe(other)["action_mask"].any()  # only the mover has moves
    assert wrapped.observation_space("player_0")["action_mask"].shape == (ACTIONS,)


def test_a_whole_game_through_rllib_pettingzoo_env() -> None:
    pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed")
    from bao_zero.rllib import multi_agent_env

    game = multi_agent_env(variant="kujifunza")
    observations, _ = game.reset(seed=0)
    assert list(observations) == ["player_0"]  # South moves first
    rng = np.random.default_rng(1)
    totals = {"player_0": 0.0, "player_1": 0.0}
    for _ in range(1000):
        ((agent, seen),) = observations.items()  # only the mover is asked for an action
        assert game.observation_space[agent].contains(seen)
        action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
        observations, rewards, terminated, truncated, _ = game.step({agent: action})
        for name, reward in rewards.items():
            totals[name] += reward
        if terminated["__all__"] or truncated["__all__"]:
            break
    else:
        pytest.fail("a random Bao la Kujifunza game lasted over 1000 plies")
    assert terminated["__all__"] and sorted(totals.values()) == [-1.0, 1.0]
    assert set(observations) == {"player_0", "player_1"}  # both see the last position


def test_the_gymnasium_env_against_its_opponent_in_the_same_layout() -> None:
    game = single_agent_env(variant="kujifunza", agent_side="north")
    seen, info = game.reset(seed=5)
    assert game.observation_space == OBSERVATION_SPACE
    rng = np.random.default_rng(2)
    for _ in range(1000):
        assert OBSERVATION_SPACE.contains(seen)
        np.testing.assert_array_equal(seen["action_mask"], info["action_mask"])
        action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
        seen, reward, terminated, truncated, info = game.step(action)
        if terminated or truncated:
            break
    else:
        pytest.fail("a random Bao la Kujifunza game lasted over 1000 plies")
    assert reward in (-1.0, 1.0)
    assert not seen["action_mask"].any()  # the game is over: nothing to play
