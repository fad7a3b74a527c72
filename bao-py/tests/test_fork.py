"""Objects that own threads work in a child of ``os.fork()`` (``multiprocessing``'s default
start method on Linux before Python 3.14), though the child has none of the parent's threads:
each is used once in the parent, then called in a child that must answer within seconds."""

from __future__ import annotations

import os
import signal
import time
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import bao_zero
from bao_zero.gym_vector import BaoVectorEnv

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this system")


def in_a_child(call: Callable[[], None], timeout: float = 20.0) -> None:
    """Runs ``call`` in a forked child; fails if it raises, or hangs past ``timeout``."""
    with warnings.catch_warnings():
        # Python 3.12+ warns that forking a process with threads may deadlock: the point here.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:
        code = 1
        try:
            call()
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0, "the child failed (its error is above)"
            return
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail(f"the child hung for {timeout} s")


def test_players_with_thread_pools_answer_after_a_fork(shipped_player_path: Path) -> None:
    env = bao_zero.Env("kujifunza", seed=0)
    players = [
        bao_zero.Player.from_spec("mcts:sims=32"),
        bao_zero.Player.load(shipped_player_path),
        bao_zero.Player.alphabeta(depth=2),
    ]
    two = bao_zero.Player.from_spec("mcts:sims=32")
    assert two.set_threads(2)
    players.append(two)

    def ask_each() -> None:
        for player in players:
            game = env if player.variant is None else bao_zero.Env(player.variant, seed=0)
            limits = {"depth": 2} if player.name.startswith("ab") else {"sims": 16}
            assert player.choose(game, **limits).move in game.legal_moves()

    ask_each()

    def child() -> None:
        ask_each()
        # A player built in the child works too.
        assert bao_zero.Player.from_spec("mcts:sims=8").choose(env).move in env.legal_moves()

    in_a_child(child)


def test_vector_envs_step_after_a_fork() -> None:
    venv = bao_zero.VecEnv(8, "hus", threads=2)
    venv.step(venv.action_masks().argmax(axis=1))
    gym_venv = BaoVectorEnv(4, variant="hus", threads=2)
    _, infos = gym_venv.reset(seed=0)
    gym_venv.step(infos["action_mask"].argmax(axis=1))

    def child() -> None:
        for _ in range(3):
            venv.step(venv.action_masks().argmax(axis=1))
        _, _, _, _, infos = gym_venv.step(gym_venv.action_masks().argmax(axis=1))
        assert infos["action_mask"].shape == (4, 64)
        fresh = bao_zero.VecEnv(4, "hus", threads=2)
        fresh.step(fresh.action_masks().argmax(axis=1))

    in_a_child(child)


def test_evaluate_runs_after_a_fork() -> None:
    def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[0])

    bao_zero.evaluate(first_legal, "random", variant="kujifunza", games=2)

    def child() -> None:
        result = bao_zero.evaluate(first_legal, "random", variant="kujifunza", games=2)
        assert result["games"] == 2

    in_a_child(child)


def test_a_self_play_worker_plays_after_a_fork(smoke_config: Callable[[str], Path]) -> None:
    learner = bao_zero.Learner(smoke_config("fork"), quiet=True)
    worker = bao_zero.SelfPlayWorker(learner.config_toml, threads=2)
    weights = learner.weights()
    played = worker.play(weights, 0, 1, 0, 2)

    def games_of(part: bytes) -> bytes:
        # A part is its magic, its header's length (u64), the header (JSON, with the part's
        # wall-clock time, whose digits vary), then the samples: the games are what follows.
        header = int.from_bytes(part[8:16], "little")
        return part[16 + header :]

    def child() -> None:
        again = worker.play(weights, 0, 1, 0, 2)
        assert again[:8] == played[:8] and games_of(again) == games_of(played)

    in_a_child(child)
