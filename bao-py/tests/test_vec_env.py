"""bao_zero.VecEnv: numpy buffers, automatic reset, episode seeds, errors."""

from __future__ import annotations

import numpy as np
import pytest

import bao_zero


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``masks``."""
    scores = rng.random(masks.shape) * masks
    return scores.argmax(axis=1).astype(np.int64)


def test_shapes_types_and_read_only_views() -> None:
    venv = bao_zero.VecEnv(8, variant="kiswahili", seed=1, threads=2)
    assert len(venv) == venv.num_envs == 8 and venv.threads == 2
    assert venv.observations.shape == (8, 27, 4, 8) and venv.observations.dtype == np.float32
    assert venv.action_masks().shape == (8, 64) and venv.action_masks().dtype == np.int8
    assert venv.rewards.shape == (8, 2) and venv.rewards.dtype == np.float32
    assert venv.terminated.dtype == np.bool_ and venv.truncated.shape == (8,)
    with pytest.raises(ValueError):
        venv.observations[0, 0, 0, 0] = 1.0
    obs, rewards, terminated, truncated = venv.step(
        random_actions(venv.action_masks(), np.random.default_rng(0))
    )
    assert obs is venv.observations and rewards is venv.rewards
    assert terminated is venv.terminated and truncated is venv.truncated


def test_matches_single_envs_with_episode_seeds_and_auto_reset() -> None:
    n, seed = 6, 42
    venv = bao_zero.VecEnv(n, variant="hus", seed=seed, threads=2, opening_random_plies=3)
    envs = [bao_zero.Env("hus", opening_random_plies=3) for _ in range(n)]
    episodes = [0] * n
    for i, env in enumerate(envs):
        env.reset(seed=bao_zero.episode_seed(seed, i, 0))
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        for i, env in enumerate(envs):
            assert np.array_equal(venv.observations[i], env.observation)
            assert np.array_equal(venv.action_masks()[i], env.action_masks())
            assert venv.players[i] == env.current_player
        actions = random_actions(venv.action_masks(), rng)
        venv.step(actions)
        finals = {f[0]: f for f in venv.finals()}
        for i, env in enumerate(envs):
            _, _, term, trunc, info = env.step(int(actions[i]))
            assert tuple(venv.rewards[i]) == info["rewards"]
            assert (venv.terminated[i], venv.truncated[i]) == (term, trunc)
            assert venv.movers[i] == info["player"]
            if term or trunc:
                ended += 1
                assert finals[i][3] == env.position and finals[i][2] == env.winner
                episodes[i] += 1
                env.reset(seed=bao_zero.episode_seed(seed, i, episodes[i]))
            else:
                assert i not in finals
        assert list(venv.episodes) == episodes
    assert ended > 0


def test_illegal_actions_step_nothing() -> None:
    venv = bao_zero.VecEnv(4, seed=0, threads=1)
    before = venv.observations.copy()
    actions = random_actions(venv.action_masks(), np.random.default_rng(0))
    bad = actions.copy()
    bad[2] = next(a for a in range(64) if not venv.action_masks()[2, a])
    with pytest.raises(ValueError, match="environment 2"):
        venv.step(bad)
    with pytest.raises(ValueError, match="3 actions for 4"):
        venv.step(actions[:3])
    with pytest.raises(ValueError):
        venv.step(np.array([0.5, 1, 2, 3]))
    with pytest.raises(ValueError, match="out of range"):
        venv.step(np.array([-1, 0, 0, 0]))
    assert np.array_equal(venv.observations, before)
    assert venv.env(0).plies == 0
    venv.step(actions.astype(np.int32))
    venv.step(list(random_actions(venv.action_masks(), np.random.default_rng(1))))
    assert venv.env(0).plies == 2


def test_results_do_not_depend_on_threads() -> None:
    a = bao_zero.VecEnv(16, seed=3, threads=1)
    b = bao_zero.VecEnv(16, seed=3, threads=2)
    rng = np.random.default_rng(5)
    for _ in range(200):
        actions = random_actions(a.action_masks(), rng)
        a.step(actions)
        b.step(actions)
        assert np.array_equal(a.observations, b.observations)
        assert np.array_equal(a.rewards, b.rewards)
    a.reset(9)
    b.reset(9)
    assert np.array_equal(a.observations, b.observations)
    assert not a.terminated.any() and not a.rewards.any()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        bao_zero.VecEnv(0)
    with pytest.raises(ValueError):
        bao_zero.VecEnv(2, threads=0)
    with pytest.raises(ValueError, match="unknown variant"):
        bao_zero.VecEnv(2, variant="draughts")
    with pytest.raises(ValueError):
        bao_zero.VecEnv(2).env(5)
