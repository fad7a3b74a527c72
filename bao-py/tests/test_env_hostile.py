"""Env's and VecEnv's public doors given hostile arguments: every one raises an ordinary
exception (ValueError for a number out of range, TypeError for a wrong type), never a Rust panic
or an abort, and leaves the object usable."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import bao_zero

#: Integers no size, seed, ply count or action may take.
HUGE_OR_NEGATIVE = [-1, -(2**63), 2**32, 2**62, 2**64, 10**10, 10**30, -(10**30)]
#: Values of the wrong type for an integer argument.
WRONG_TYPES: list[Any] = ["3", 2.5, float("nan"), float("inf"), [1], {}, object(), b"1"]


def raises_ordinary(call: Callable[[], Any]) -> BaseException:
    """Runs ``call``, which must raise an ordinary exception (a subclass of Exception that
    is not a PanicException); returns it."""
    with pytest.raises(Exception) as info:
        call()
    error = info.value
    assert type(error).__name__ != "PanicException", f"a Rust panic reached Python: {error}"
    assert isinstance(error, (ValueError, TypeError)), f"{type(error).__name__}: {error}"
    assert "\n" not in str(error), f"not one line: {error!r}"
    return error


@pytest.mark.parametrize("value", HUGE_OR_NEGATIVE)
def test_env_numbers_out_of_range_are_value_errors(value: int) -> None:
    names = ["max_plies", "opening_random_plies"]
    if not 0 <= value < 2**64:
        names.append("seed")
    for name in names:
        error = raises_ordinary(lambda: bao_zero.Env("hus", **{name: value}))
        assert isinstance(error, ValueError) and name in str(error)
    error = raises_ordinary(lambda: bao_zero.Env.from_position("x", "hus", max_plies=value))
    assert isinstance(error, ValueError) and "max_plies" in str(error)
    env = bao_zero.Env("hus", seed=0)
    if not 0 <= value < 2**64:
        assert isinstance(raises_ordinary(lambda: env.reset(seed=value)), ValueError)
    for door in (env.step, env.action_to_move, env.observation_for):
        assert isinstance(raises_ordinary(lambda: door(value)), ValueError)
    assert env.plies == 0 and not env.done


@pytest.mark.parametrize("value", WRONG_TYPES)
def test_env_wrong_types_are_type_errors(value: Any) -> None:
    for kwargs in ({"seed": value}, {"max_plies": value}, {"opening_random_plies": value}):
        raises_ordinary(lambda: bao_zero.Env("hus", **kwargs))
    env = bao_zero.Env("hus", seed=0)
    doors = [env.reset, env.step, env.action_to_move, env.observation_for, env.set_position]
    if not isinstance(value, str):  # a str may name a move
        doors.append(env.move_to_action)
    for door in doors:
        raises_ordinary(lambda: door(value))
    raises_ordinary(lambda: bao_zero.Env(value))
    assert env.plies == 0


def test_env_illegal_actions_and_finished_games() -> None:
    env = bao_zero.Env("kujifunza", seed=0)
    illegal = [a for a in range(64) if not env.action_masks()[a]]
    for action in [*illegal[:5], np.int64(illegal[0]), np.uint8(illegal[0])]:
        error = raises_ordinary(lambda: env.step(action))
        assert "illegal" in str(error)
    raises_ordinary(lambda: env.move_to_action("A6<" * 10_000))
    raises_ordinary(lambda: env.set_position("x" * 100_000))
    raises_ordinary(lambda: env.observation_for(2))
    rng = np.random.default_rng(0)
    while not env.done:
        env.step(int(rng.choice(env.legal_actions())))
    with pytest.raises(RuntimeError):
        env.step(0)
    env.reset(seed=1)
    assert not env.done


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"n": 10**10, "threads": 1}, "n"),
        ({"n": 2**62}, "n"),
        ({"n": 2**64}, "n"),
        ({"n": 0}, "n"),
        ({"n": -5}, "n"),
        ({"n": 2**20 + 1}, "n"),
        ({"n": 2, "threads": 0}, "threads"),
        ({"n": 2, "threads": 10**6}, "threads"),
        ({"n": 2, "threads": -1}, "threads"),
        ({"n": 2, "seed": -1}, "seed"),
        ({"n": 2, "seed": 2**64}, "seed"),
        ({"n": 2, "max_plies": 0}, "max_plies"),
        ({"n": 2, "max_plies": 2**32}, "max_plies"),
        ({"n": 2, "opening_random_plies": -3}, "opening_random_plies"),
        ({"n": 2, "opening_random_plies": 2000}, "opening_random_plies"),
        ({"n": 2, "variant": "chess"}, "chess"),
    ],
)
def test_vec_env_sizes_out_of_range_are_value_errors(kwargs: dict, name: str) -> None:
    error = raises_ordinary(lambda: bao_zero.VecEnv(**kwargs))
    assert isinstance(error, ValueError) and name in str(error)


@pytest.mark.parametrize("value", WRONG_TYPES)
def test_vec_env_wrong_types_are_ordinary_errors(value: Any) -> None:
    for name in ("n", "seed", "threads", "max_plies", "opening_random_plies"):
        kwargs = {"n": 2, name: value}
        raises_ordinary(lambda: bao_zero.VecEnv(**kwargs))
    venv = bao_zero.VecEnv(2, "hus", threads=1)
    raises_ordinary(lambda: venv.step(value))
    raises_ordinary(lambda: venv.reset(seed=value))
    raises_ordinary(lambda: venv.env(value))


def test_vec_env_hostile_steps_and_indices() -> None:
    venv = bao_zero.VecEnv(3, "hus", seed=0, threads=1)
    before = venv.observations.copy()
    legal = venv.action_masks().argmax(axis=1)
    illegal = (venv.action_masks() == 0).argmax(axis=1)
    for actions in (
        illegal,
        np.array([64, 0, 0]),
        np.array([-1, 0, 0]),
        np.array([2**62, 0, 0], dtype=np.int64),
        np.array([2**64 - 1, 0, 0], dtype=np.uint64),
        np.zeros(2, dtype=np.int64),
        np.zeros((3, 1), dtype=np.int64),
        np.zeros(10**6, dtype=np.int64),
        legal.astype(np.float64),
        ["a", "b", "c"],
        [10**30, 0, 0],
    ):
        raises_ordinary(lambda: venv.step(actions))
    assert np.array_equal(venv.observations, before)
    for index in (3, -1, 2**64, 10**30):
        assert isinstance(raises_ordinary(lambda: venv.env(index)), ValueError)
    for seed in (-1, 2**64):
        assert isinstance(raises_ordinary(lambda: venv.reset(seed=seed)), ValueError)
    venv.step(legal)
    assert venv.episodes.sum() == 0


@pytest.mark.parametrize(
    "rules",
    [
        {"no_such_option": 1},
        {"takasia": "sideways"},
        {"takasia": 10**30},
        {"house": {"nyumba": {"tax": [1] * 3}}},
        {1: "x"},
        {"takasia": object()},
        "no/such/rules.toml",
        os.devnull,
        42,
    ],
)
def test_bad_rules_are_ordinary_errors(rules: Any) -> None:
    for make in (
        lambda: bao_zero.Env("kiswahili", rules=rules),
        lambda: bao_zero.VecEnv(2, "kiswahili", rules=rules),
    ):
        raises_ordinary(make)


def test_deeply_nested_rules_are_refused() -> None:
    deep: dict = {}
    inner = deep
    for _ in range(10_000):
        inner["x"] = {}
        inner = inner["x"]
    error = raises_ordinary(lambda: bao_zero.Env(rules=deep))
    assert "deeper" in str(error)
