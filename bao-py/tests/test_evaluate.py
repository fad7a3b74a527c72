"""bao_zero.evaluate: a Python policy against the project's players, in the pairs of games
`bao eval` plays, with the score's interval and Elo."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import bao_zero


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    assert observation.shape == (27, 4, 8) and observation.dtype == np.float32
    assert mask.shape == (64,) and mask.dtype == np.int8
    return int(np.flatnonzero(mask)[0])


def test_a_policy_against_random_in_pairs_with_an_interval() -> None:
    calls = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append(1)
        return first_legal(observation, mask)

    result = bao_zero.evaluate(policy, "random", variant="kujifunza", games=20, seed=3)
    assert result["games"] == 20 and calls
    assert result["wins"] + result["draws"] + result["losses"] == 20
    assert result["model"] == "pentanomial" and sum(result["pentanomial"]) == 10
    assert 0.0 <= result["score_low"] <= result["score"] <= result["score_high"] <= 1.0
    assert result["elo_low"] <= result["elo"] <= result["elo_high"]
    assert result["summary"].startswith("policy vs random on kujifunza: 20 games")
    again = bao_zero.evaluate(first_legal, "random", variant="kujifunza", games=20, seed=3)
    assert (again["wins"], again["draws"], again["losses"]) == (
        result["wins"],
        result["draws"],
        result["losses"],
    )


def test_a_weak_policy_loses_to_alpha_beta_and_the_interval_says_so() -> None:
    result = bao_zero.evaluate(first_legal, "ab:depth=2", variant="kujifunza", games=16)
    assert result["score_high"] < 0.5 and result["elo_high"] < 0


def test_policy_errors_and_bad_arguments() -> None:
    def broken(observation: np.ndarray, mask: np.ndarray) -> int:
        raise KeyError("no such weights")

    with pytest.raises(KeyError, match="no such weights"):
        bao_zero.evaluate(broken, "random", games=2)

    def illegal(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(ValueError, match="illegal"):
        bao_zero.evaluate(illegal, "random", games=2)
    with pytest.raises(ValueError, match="action"):
        bao_zero.evaluate(lambda o, m: 10**30, "random", games=2)
    with pytest.raises(TypeError):
        bao_zero.evaluate(lambda o, m: "A6<", "random", games=2)
    with pytest.raises(TypeError, match="callable"):
        bao_zero.evaluate(3, "random")
    for kwargs in (
        {"games": 0},
        {"games": 10**30},
        {"opening_plies": 10**6},
        {"max_plies": -1},
        {"seed": -1},
    ):
        with pytest.raises(ValueError):
            bao_zero.evaluate(first_legal, "random", **kwargs)
    with pytest.raises(ValueError, match="unknown player kind"):
        bao_zero.evaluate(first_legal, "nobody:x=1", games=2)


def test_the_policy_is_never_called_from_two_threads_at_once() -> None:
    inside = threading.Lock()
    overlaps = []

    def slow_policy(observation: np.ndarray, mask: np.ndarray) -> int:
        if not inside.acquire(blocking=False):
            overlaps.append(1)
            return first_legal(observation, mask)
        try:
            time.sleep(0.001)  # lets another game's thread in, were there one
            return first_legal(observation, mask)
        finally:
            inside.release()

    bao_zero.evaluate(slow_policy, "random", variant="kujifunza", games=8)
    assert not overlaps


def test_the_first_policy_error_ends_the_evaluation() -> None:
    calls = []

    def fails_on_its_third_call(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append(1)
        if len(calls) == 3:
            raise KeyError("the third call")
        return first_legal(observation, mask)

    with pytest.raises(KeyError, match="the third call"):
        bao_zero.evaluate(fails_on_its_third_call, "random", variant="kujifunza", games=200)
    assert len(calls) == 3


def test_ctrl_c_in_the_policy_stops_the_evaluation_at_once() -> None:
    calls = []

    def interrupted_on_its_third_call(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append(1)
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # Ctrl-C ends this at once, as it would any Python code
        return first_legal(observation, mask)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            bao_zero.evaluate(
                interrupted_on_its_third_call, "random", variant="kujifunza", games=200
            )
        assert time.monotonic() - start < 3
        assert len(calls) == 3
    finally:
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_while_the_opponent_thinks_stops_the_evaluation() -> None:
    calls = []

    def first_call_sends_ctrl_c(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append(1)
        if len(calls) == 1:
            # Delivered while the opponent searches its reply (half a second's thought).
            threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
        return first_legal(observation, mask)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            bao_zero.evaluate(
                first_call_sends_ctrl_c,
                "ab:time=500ms",
                variant="kiswahili",
                games=2,
                opening_plies=0,
                max_plies=8,
            )
        assert time.monotonic() - start < 2.5
        assert len(calls) == 1
    finally:
        signal.signal(signal.SIGINT, previous)


def test_evaluate_takes_the_opponents_budget_as_bao_eval_does() -> None:
    def first(_obs: object, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[0])

    shallow = bao_zero.evaluate(first, "ab", "kujifunza", games=8, depth=1)
    deep = bao_zero.evaluate(first, "ab", "kujifunza", games=8, depth=4)
    assert (shallow["score"], shallow["mean_plies"]) != (deep["score"], deep["mean_plies"])
    with pytest.raises(ValueError, match="depth"):
        bao_zero.evaluate(first, "ab", games=2, depth=0)


#: The keys of a match as ``bao eval --json`` prints it and ``evaluate`` returns it
#: (tests/play/repeats.rs holds the same list; each game's keys follow ``game_list``).
MATCH_KEYS = {
    "a", "b", "variant", "seed", "opening_plies", "budget_a", "budget_b", "limits", "games",
    "distinct_games", "warning", "wins", "draws", "losses", "pentanomial", "model", "samples",
    "score", "score_low", "score_high", "elo", "elo_low", "elo_high", "elo_text", "estimate",
    "sprt", "stopped_early", "by_colour", "mean_plies", "summary", "game_list",
}  # fmt: skip
GAME_KEYS = {
    "game", "pair", "south", "north", "a_is_south", "winner", "end", "plies", "score_a", "id",
}  # fmt: skip


def test_repeated_games_are_one_sample_each_and_the_result_says_so() -> None:
    # A deterministic policy against alpha-beta at a fixed depth from the start position: the
    # same two games (one a side) again and again.
    result = bao_zero.evaluate(
        first_legal, "ab:depth=2", variant="kujifunza", games=40, opening_plies=0
    )
    assert (result["games"], result["distinct_games"]) == (40, 2)
    assert result["model"] == "distinct-trinomial" and result["samples"] == 2
    assert "2 of the 40 games are distinct" in result["warning"]
    assert result["warning"] in result["summary"]
    # Two games' interval: at least as wide as one win and one loss would give (9%, 91%), far
    # wider than forty independent games' would be.
    assert result["score_high"] - result["score_low"] > 0.6
    assert (result["budget_a"], result["budget_b"], result["limits"]) == ("none", "depth 2", "none")
    assert "budget a move: policy none, ab:depth=2 depth 2" in result["summary"]
    spread = bao_zero.evaluate(first_legal, "ab:depth=2", variant="kujifunza", games=40)
    assert spread["distinct_games"] == 40 and spread["warning"] is None
    assert spread["model"] == "pentanomial"


def test_evaluate_returns_the_layout_of_bao_eval_json() -> None:
    result = bao_zero.evaluate(first_legal, "random", variant="kujifunza", games=4, depth=3)
    assert set(result) == MATCH_KEYS and set(result["game_list"][0]) == GAME_KEYS
    assert result["limits"] == "depth 3"
    assert result["estimate"]["score"] == result["score"]
    bao = os.environ.get("BAO_BIN")
    if not bao:
        if os.environ.get("CI"):
            pytest.fail("BAO_BIN (the bao binary) must be set under CI")
        pytest.skip("BAO_BIN is not set")
    args = ["eval", "--a", "random", "--b", "greedy", "-v", "kujifunza", "-n", "4", "--json", "-q"]
    printed = json.loads(subprocess.run([bao, *args], check=True, capture_output=True).stdout)
    assert set(printed) == set(result) and set(printed["game_list"][0]) == GAME_KEYS
