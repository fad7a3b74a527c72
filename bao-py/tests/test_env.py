"""bao_zero.Env: stepping, masks, moves as text, positions, errors, and parity with Rust."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

import bao_zero

RUST_GAMES = json.loads((Path(__file__).parent / "reference" / "random_games.json").read_text())


def test_variants_list_every_preset() -> None:
    names = bao_zero.variants()
    assert names[0] == "kiswahili"
    for game in [
        "kujifunza",
        "malawi-basic",
        "malawi-intermediate",
        "malawi-advanced",
        "kimasai",
        "hus",
        "katra-fandatsaka",
    ]:
        assert game in names
    assert any(n.startswith("ladder-") for n in names)
    assert len(names) == len(set(names)) == 22


def test_reset_and_step_shapes_and_types() -> None:
    env = bao_zero.Env("kiswahili", seed=1)
    obs, info = env.reset(seed=3)
    assert obs.shape == (27, 4, 8) and obs.dtype == np.float32
    assert info["player"] == 0
    mask = env.action_masks()
    assert mask.shape == (64,) and mask.dtype == np.int8
    assert list(np.flatnonzero(mask)) == env.legal_actions()
    action = env.move_to_action("A6<")
    obs, reward, terminated, truncated, info = env.step(action)
    assert obs.shape == (27, 4, 8) and obs.dtype == np.float32
    assert reward == 0.0 and not terminated and not truncated
    assert info["move"] == "A6<" and info["player"] == 0 and info["ply"] == 1
    assert env.current_player == 1 and env.last_move == "A6<"


def test_moves_and_actions_are_inverse() -> None:
    for variant in bao_zero.variants():
        env = bao_zero.Env(variant, seed=0)
        rng = np.random.default_rng(0)
        for _ in range(30):
            if env.done:
                break
            moves = env.legal_moves()
            actions = env.legal_actions()
            assert len(moves) == len(actions) > 0
            for text, action in zip(moves, actions, strict=False):
                assert env.move_to_action(text) == action
                assert env.action_to_move(action) == text
            env.step(int(rng.choice(actions)))


def test_illegal_action_is_a_value_error_and_changes_nothing() -> None:
    env = bao_zero.Env(seed=0)
    before = env.position
    obs = env.observation
    illegal = next(a for a in range(64) if not env.action_masks()[a])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        env.step(64)
    with pytest.raises(ValueError, match="out of range"):
        env.step(-1)
    with pytest.raises(ValueError):
        env.move_to_action("Z9<")
    with pytest.raises(ValueError):
        env.action_to_move(99)
    assert env.position == before
    assert np.array_equal(env.observation, obs)
    assert env.plies == 0


def play_out(env: bao_zero.Env, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    while not env.done:
        env.step(int(rng.choice(env.legal_actions())))


def test_stepping_after_the_end_is_a_runtime_error() -> None:
    env = bao_zero.Env("hus", seed=0)
    play_out(env)
    assert env.done and env.end is not None
    assert env.legal_actions() == [] and not env.action_masks().any()
    position = env.position
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)
    assert env.position == position
    env.reset()
    assert not env.done and env.plies == 0


def test_truncation_at_max_plies() -> None:
    env = bao_zero.Env("kiswahili", seed=0, max_plies=5)
    rng = np.random.default_rng(1)
    truncated = False
    for _ in range(5):
        _, _, terminated, truncated, info = env.step(int(rng.choice(env.legal_actions())))
        if terminated:
            break
    assert truncated and env.truncated and env.done and info["end"].startswith("truncated")


def test_positions_go_through_the_setup_gate() -> None:
    env = bao_zero.Env(seed=0)
    env.step(env.legal_actions()[0])
    text = env.position
    again = bao_zero.Env.from_position(text)
    assert again.position == text
    assert np.array_equal(again.observation, env.observation)
    assert again.legal_moves() == env.legal_moves()
    for bad in ["", "not a position", text.replace("S", "Q", 1) + " x"]:
        with pytest.raises(ValueError):
            bao_zero.Env.from_position(bad)
    with pytest.raises(ValueError):
        bao_zero.Env.from_position(text, variant="hus")  # other seed totals
    before = again.position
    with pytest.raises(ValueError):
        again.set_position("garbage")
    assert again.position == before
    with pytest.raises(ValueError, match="unknown variant"):
        bao_zero.Env("chess")


def test_clone_is_independent() -> None:
    env = bao_zero.Env(seed=0)
    twin = env.clone()
    env.step(env.legal_actions()[0])
    assert twin.plies == 0 and env.plies == 1
    for other in (copy.copy(env), copy.deepcopy(env)):
        assert other.position == env.position
        other.step(other.legal_actions()[0])
        assert env.plies == 1


def test_last_move_trace_and_render() -> None:
    env = bao_zero.Env(seed=0)
    assert env.last_move_trace() == []
    env.step(env.move_to_action("A6<"))
    trace = env.last_move_trace()
    assert trace and all("event" in e and "text" in e for e in trace)
    assert any(e["event"] == "sow" for e in trace)
    assert trace[-1]["event"] in ("stop", "block")
    board = env.render()
    assert "position" in board and env.position in board


def test_observation_for_either_player() -> None:
    env = bao_zero.Env(seed=0)
    mover = env.current_player
    assert np.array_equal(env.observation_for(mover), env.observation)
    other = env.observation_for(1 - mover)
    assert other.shape == (27, 4, 8) and other.dtype == np.float32
    # The seeds plane (channel 8) holds the same board: the two views hold the same seeds.
    assert other[8].sum() == env.observation[8].sum()
    with pytest.raises(ValueError):
        env.observation_for(2)


@pytest.mark.parametrize("key", sorted(RUST_GAMES))
def test_same_seed_same_game_as_the_rust_env(key: str) -> None:
    """A game of the Rust Env with the Rust random agent (tests/reference/random_games.json,
    written by Rust alone: tests/play/python_reference.rs), replayed step by step from Python."""
    variant, seed_text = key.split("/")
    seed = int(seed_text)
    game = RUST_GAMES[key]
    start, steps, end = game["start"], game["steps"], game["end"]
    env = bao_zero.Env(variant, seed=99, max_plies=300, opening_random_plies=4)
    env.reset(seed=seed)
    assert env.position == start
    for action, move, position, rewards, terminated, truncated in steps:
        assert env.action_to_move(action) == move
        _, _, term, trunc, info = env.step(action)
        assert info["move"] == move
        assert env.position == position
        assert info["rewards"] == tuple(rewards)
        assert (term, trunc) == (terminated, truncated)
    assert env.done and env.end == end


def test_seeded_resets_repeat_and_differ() -> None:
    a = bao_zero.Env("kiswahili", seed=5, opening_random_plies=6)
    b = bao_zero.Env("kiswahili", seed=5, opening_random_plies=6)
    assert a.position == b.position
    positions = set()
    for _ in range(5):
        a.reset()
        b.reset()
        assert a.position == b.position
        positions.add(a.position)
    assert len(positions) > 1


def test_the_fast_loop_play_and_observe_into_is_step_without_the_allocations() -> None:
    import random

    fast, slow = bao_zero.Env("kiswahili", seed=0), bao_zero.Env("kiswahili", seed=0)
    obs = np.zeros(bao_zero.OBS_SHAPE, np.float32)
    flat = np.zeros(bao_zero.OBS_LEN, np.float32)
    rng = random.Random(0)
    while True:
        fast.observe_into(obs)
        fast.observe_into(flat)
        assert np.array_equal(obs, slow.observation) and np.array_equal(flat, obs.ravel())
        action = rng.choice(fast.legal_actions())
        over = fast.play(action)
        _, _, terminated, truncated, _ = slow.step(action)
        assert over == (terminated or truncated) and fast.position == slow.position
        assert fast.last_move == slow.last_move
        if over:
            break
    assert fast.winner == slow.winner and fast.plies == slow.plies
    with pytest.raises(RuntimeError):
        fast.play(0)


def test_observe_into_refuses_buffers_it_cannot_fill() -> None:
    env = bao_zero.Env("hus", seed=0)
    for bad in (np.zeros(10, np.float32), np.zeros((27, 4, 16), np.float32)[:, :, ::2]):
        with pytest.raises(ValueError):
            env.observe_into(bad)
    read_only = np.zeros(bao_zero.OBS_SHAPE, np.float32)
    read_only.flags.writeable = False
    with pytest.raises(ValueError):
        env.observe_into(read_only)
    with pytest.raises(TypeError):
        env.observe_into(np.zeros(bao_zero.OBS_SHAPE, np.float64))


def test_every_mask_is_int8_and_the_former_bool_masks_say_what_replaced_them() -> None:
    import gymnasium

    from bao_zero.gym_vector import BaoVectorEnv
    from bao_zero.pettingzoo import env as pettingzoo_env

    env = bao_zero.Env("kiswahili", seed=1)
    venv = bao_zero.VecEnv(2, seed=0, threads=1)
    gym_env = gymnasium.make("bao_zero/Bao-v0")
    _, info = gym_env.reset(seed=0)
    aec = pettingzoo_env()
    aec.reset(seed=0)
    vector = BaoVectorEnv(num_envs=2)
    _, infos = vector.reset(seed=0)
    masks = [
        env.action_masks(),
        venv.action_masks(),
        info["action_mask"],
        gym_env.unwrapped.action_masks(),
        aec.observe(aec.agent_selection)["action_mask"],
        infos["action_mask"],
        vector.action_masks(),
    ]
    assert all(m.dtype == np.int8 and m.shape[-1] == 64 for m in masks)
    assert all(m.max() == 1 and m.min() == 0 for m in masks)
    # Gymnasium's masked sampling takes them as they are.
    assert env.action_masks()[gym_env.action_space.sample(info["action_mask"])] == 1
    # The bool getter still answers, with a warning naming its replacement.
    with pytest.warns(DeprecationWarning, match=r"Env\.action_masks\(\)"):
        old = env.action_mask
    assert old.dtype == np.bool_ and np.array_equal(old, env.action_masks() == 1)
    # VecEnv.action_masks became a method: using it as the bool array fails naming the change
    # (an int8 mask under ~ or as an index would be silently wrong).
    for former_use in (lambda m: m[0], lambda m: ~m, lambda m: m.shape, np.asarray):
        with pytest.raises((TypeError, AttributeError), match=r"call venv\.action_masks\(\)"):
            former_use(venv.action_masks)
