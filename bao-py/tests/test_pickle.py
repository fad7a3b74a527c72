"""Python objects as Python users expect: pickling mid-game, and `rules` going back in."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import bao_zero
from bao_zero.gym_env import BaoEnv
from bao_zero.gym_vector import BaoVectorEnv
from bao_zero.pettingzoo import raw_env


def _walk(env: bao_zero.Env, steps: int) -> list[tuple[str, int, bool]]:
    """The next `steps` plies (first legal action each), resetting without a seed at the end."""
    seen = []
    for _ in range(steps):
        if env.done:
            env.reset()
        action = env.legal_actions()[len(env.legal_actions()) // 2]
        _, _, terminated, truncated, _ = env.step(action)
        seen.append((env.position, env.plies, terminated or truncated))
    return seen


@pytest.mark.parametrize("variant", bao_zero.variants())
def test_every_rules_goes_back_in_unchanged(variant: str) -> None:
    rules = bao_zero.Env(variant, seed=0).rules
    again = bao_zero.Env(variant, seed=0, rules=rules).rules
    assert again == rules
    # An option the dict leaves unset stays unset, even against a preset that sets it.
    assert bao_zero.Env("kiswahili", seed=0, rules={"lap_limit": None}).rules["lap_limit"] is None


def test_an_option_that_cannot_be_unset_says_which() -> None:
    with pytest.raises(ValueError, match=r"rules\.takasia is None"):
        bao_zero.Env("kiswahili", rules={"takasia": None})


@pytest.mark.parametrize("variant", ["kiswahili", "hus", "malawi-advanced"])
def test_env_pickles_mid_game_to_the_same_game(variant: str) -> None:
    env = bao_zero.Env(variant, seed=7, max_plies=40, opening_random_plies=3)
    env.reset()  # a seedless reset: the copy must draw the same next opening
    _walk(env, 11)
    for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert twin.variant == env.variant and twin.rules == env.rules
        assert (twin.position, twin.plies, twin.max_plies) == (
            env.position,
            env.plies,
            env.max_plies,
        )
        np.testing.assert_array_equal(twin.observation, env.observation)
        assert _walk(twin, 60) == _walk(copy.deepcopy(env), 60)


def test_env_pickles_its_last_move_and_reads_a_state_without_it() -> None:
    env = bao_zero.Env("kiswahili", seed=3)
    _walk(env, 5)
    twin = pickle.loads(pickle.dumps(env))
    assert twin.last_move == env.last_move is not None
    assert twin.last_move_trace() == env.last_move_trace() != []
    # A state of four items (position, plies, seed, resets) restores with no last move.
    cls, args, state = env.__reduce__()
    old = cls(*args)
    old.__setstate__(state[:4])
    assert (old.position, old.plies, old.last_move) == (env.position, env.plies, None)
    assert old.last_move_trace() == []


def test_a_player_refuses_pickling_and_says_how_to_rebuild_it() -> None:
    player = bao_zero.Player.from_spec("greedy", 0)
    with pytest.raises(TypeError, match=r'cannot pickle Player\("greedy"\).*Player\.from_spec'):
        pickle.dumps(player)


def _gym_walk(env: BaoEnv, steps: int) -> list[tuple[int, float, bool]]:
    seen = []
    for _ in range(steps):
        legal = np.flatnonzero(env.action_masks())
        if len(legal) == 0:
            env.reset()
            continue
        _, reward, terminated, truncated, _ = env.step(int(legal[-1]))
        seen.append((env.unwrapped.game.plies, float(reward), terminated or truncated))
    return seen


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_the_gymnasium_env_pickles_mid_game(opponent: str) -> None:
    env = BaoEnv(opponent=opponent, agent_side="random", max_plies=30)
    env.reset(seed=5)
    _gym_walk(env, 7)
    twin = pickle.loads(pickle.dumps(env))
    assert twin.game.position == env.game.position
    assert (twin.opponent is None) == (opponent == "random")
    assert _gym_walk(twin, 40) == _gym_walk(env, 40)


def test_the_gymnasium_env_with_a_player_object_says_why_it_cannot_pickle() -> None:
    env = BaoEnv(opponent=bao_zero.Player.from_spec("greedy", 0))
    with pytest.raises(TypeError, match="cannot pickle Player"):
        pickle.dumps(env)


def test_the_pettingzoo_env_pickles_mid_game() -> None:
    env = raw_env(max_plies=30)
    env.reset(seed=2)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    twin = pickle.loads(pickle.dumps(env))
    assert twin.game.position == env.game.position
    assert twin.agent_selection == env.agent_selection
    for e in (env, twin):
        for _ in range(5):
            e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1]))
    assert twin.game.position == env.game.position
    assert twin.rewards == env.rewards


def _vec_walk(venv: bao_zero.VecEnv, steps: int) -> list[bytes]:
    """The next `steps` steps (the last legal action of each game), as bytes to compare."""
    seen = []
    for _ in range(steps):
        masks = venv.action_masks()
        actions = 63 - np.argmax(masks[:, ::-1], axis=1)
        obs, rewards, terminated, truncated = venv.step(actions)
        seen.append(obs.tobytes() + rewards.tobytes() + terminated.tobytes() + truncated.tobytes())
    return seen


def test_the_vector_env_pickles_mid_game_to_the_same_games() -> None:
    venv = bao_zero.VecEnv(6, "kiswahili", seed=3, threads=2, max_plies=25, opening_random_plies=2)
    _vec_walk(venv, 37)  # past several auto-resets
    for twin in (pickle.loads(pickle.dumps(venv)), copy.deepcopy(venv)):
        assert (twin.num_envs, twin.seed, twin.threads) == (6, 3, 2)
        np.testing.assert_array_equal(twin.observations, venv.observations)
        np.testing.assert_array_equal(twin.action_masks(), venv.action_masks())
        np.testing.assert_array_equal(twin.episodes, venv.episodes)
        assert [twin.env(i).plies for i in range(6)] == [venv.env(i).plies for i in range(6)]
        assert _vec_walk(twin, 40) == _vec_walk(copy.deepcopy(venv), 40)


def test_the_gymnasium_vector_env_pickles_mid_game() -> None:
    envs = BaoVectorEnv(num_envs=4, max_plies=25, threads=1)
    envs.reset(seed=1)
    for _ in range(9):
        envs.step(63 - np.argmax(envs.action_masks()[:, ::-1], axis=1))
    twin = pickle.loads(pickle.dumps(envs))
    runs = []
    for e in (envs, twin):
        run = []
        for _ in range(30):
            obs, rewards, terminated, _, _ = e.step(
                63 - np.argmax(e.action_masks()[:, ::-1], axis=1)
            )
            run.append(obs.tobytes() + rewards.tobytes() + terminated.tobytes())
        runs.append(run)
    assert runs[0] == runs[1]
