"""Rules from Python that no game can use are refused where they are set up, in one line: a
bound on never-ending moves above 1,000,000 seeds (a move could cost seconds), and a rule set
whose game is over before its first move (Kujifunza with ``max_sown`` 1 to 3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import bao_zero
from bao_zero.gym_env import BaoEnv
from bao_zero.gym_vector import BaoVectorEnv


def makers(variant: str, rules: dict[str, Any]) -> list[Callable[[], Any]]:
    """Every Python door that takes rules."""
    return [
        lambda: bao_zero.Env(variant, rules=rules),
        lambda: bao_zero.VecEnv(2, variant, rules=rules),
        lambda: BaoEnv(variant=variant, rules=rules),
        lambda: BaoVectorEnv(2, variant=variant, rules=rules),
    ]


@pytest.mark.parametrize(
    ("rules", "named"),
    [
        ({"max_sown": 2**32 - 1}, "max_sown = 4294967295 is above 1000000"),
        ({"max_sown": 10**7}, "max_sown = 10000000 is above 1000000"),
        ({"lap_limit": 62_501}, "lap_limit = 62501 is above 62500"),
    ],
)
def test_a_bound_beyond_a_million_seeds_is_refused(rules: dict[str, Any], named: str) -> None:
    for make in makers("kiswahili", rules):
        with pytest.raises(ValueError) as info:
            make()
        assert named in str(info.value)
        assert "\n" not in str(info.value)


def test_the_largest_bound_is_a_game() -> None:
    env = bao_zero.Env("kiswahili", rules={"max_sown": 10**6})
    env.reset(0)
    assert not env.done


@pytest.mark.parametrize("max_sown", [1, 2, 3])
def test_a_game_over_before_the_first_move_is_refused(max_sown: int) -> None:
    for make in makers("kujifunza", {"max_sown": max_sown}):
        with pytest.raises(ValueError) as info:
            make()
        assert "the game is over before the first move" in str(info.value)


def test_an_unbounded_elo_end_is_an_infinite_float() -> None:
    """Not a rules bound, but the same file keeps this helper's tests together: the Elo interval
    of ``evaluate`` is its score interval converted, an end at 0% or 100% infinite."""

    def first_legal(observation: Any, mask: Any) -> int:
        return int(mask.nonzero()[0][0])

    result = bao_zero.evaluate(first_legal, games=1, seed=3, variant="kujifunza")
    low, high = result["elo_low"], result["elo_high"]
    assert isinstance(low, float) and isinstance(high, float)
    if result["score"] == 1.0:
        assert high == float("inf") and round(low) == -234
    elif result["score"] == 0.0:
        assert low == float("-inf") and round(high) == 234
    assert low <= result["elo"] <= high
