"""Every public door of the extension module, tried with hostile arguments: each call returns or
raises an ordinary, one-line Python exception (ValueError, TypeError, OverflowError,
FileNotFoundError), never pyo3's PanicException (not an `Exception`: `except Exception` misses
it) and never a crash of the interpreter.

`Env` and `VecEnv` are walked by their own tests (test_env.py, test_vec_env.py), not here. Player
specs that nest or size tables are the solver's and the spec parser's own tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bao_zero
from bao_zero import _core
from conftest import ROOT

#: What a hostile argument may raise.
ORDINARY = (ValueError, TypeError, OverflowError, FileNotFoundError)

#: Integers no size, count, seed or duration should take without a check.
INTS: list[Any] = [-1, 0, 2**31, 2**32, 2**63, 2**64, 10**10, 10**30]
#: Floats where a number is asked for.
FLOATS: list[Any] = [math.inf, -math.inf, math.nan, -1.0, 1e300]
#: Values of the wrong type.
WRONG: list[Any] = ["x", None, [1], b"\xff", 1.5]
NUMBERS = INTS + FLOATS + WRONG
STRINGS: list[Any] = ["", "x" * 10_000, "\x00", "nope", 7, None, b"kiswahili"]


def walk(
    door: str, call: Callable[..., Any], valid: dict[str, Any], hostile: dict[str, list[Any]]
) -> int:
    """Calls `call` with `valid` arguments, each in turn replaced by each of its hostile values;
    fails on anything but a return or an ordinary one-line exception. Returns the calls made."""
    calls = 0
    for name, values in hostile.items():
        for value in values:
            arguments = {**valid, name: value}
            calls += 1
            try:
                call(**arguments)
            except BaseException as e:
                assert isinstance(e, ORDINARY), (
                    f"{door}({name}={value!r:.60}) raised {type(e).__name__}: {e}"
                )
                assert "\n" not in str(e), f"{door}({name}={value!r:.60}): {e}"
    return calls


def test_module_functions_take_hostile_arguments(tmp_path: Path) -> None:
    replay = tmp_path / "replay.bin"
    replay.write_bytes((Path(__file__).parent / "reference" / "replay.bin").read_bytes())
    walk(
        "episode_seed",
        _core.episode_seed,
        dict(base_seed=1, index=2, episode=3),
        {"base_seed": NUMBERS, "index": NUMBERS, "episode": NUMBERS},
    )
    walk(
        "load_samples",
        _core.load_samples,
        dict(path=replay, q_weight=0.5, variant=None),
        {
            "path": [tmp_path, tmp_path / "missing", "", 7, None, "\x00"],
            "q_weight": NUMBERS,
            "variant": STRINGS,
        },
    )
    walk(
        "network_tensors",
        _core.network_tensors,
        dict(source=b""),
        {"source": [b"", b"\x00" * 100, tmp_path, tmp_path / "missing", 7, None, "\x00"]},
    )
    walk(
        "Progress",
        _core.Progress,
        dict(total=3, what="t", quiet=True),
        {"total": NUMBERS, "what": STRINGS, "quiet": [None, "x", 2]},
    )
    bar = _core.Progress(3, "t", quiet=True)
    walk("Progress.set", bar.set, dict(done=1), {"done": NUMBERS})
    walk("Progress.message", bar.message, dict(text="t"), {"text": STRINGS})
    with pytest.raises(TypeError):
        _core.variants(1)  # type: ignore[call-arg]


def test_player_doors_take_hostile_arguments(shipped_player_path: Path) -> None:
    P = bao_zero.Player
    walk(
        "Player.load",
        P.load,
        dict(path=shipped_player_path),
        {"path": [Path("/"), Path("/missing.bao"), "", "\x00", 7, None, ROOT / "Cargo.toml"]},
    )
    walk("Player.shipped", P.shipped, dict(variant="kiswahili"), {"variant": STRINGS})
    walk("Player.default", P.default, dict(variant="hus"), {"variant": STRINGS})
    walk(
        "Player.alphabeta",
        P.alphabeta,
        dict(depth=1, nodes=None, movetime_ms=None),
        {"depth": NUMBERS, "nodes": NUMBERS, "movetime_ms": NUMBERS},
    )
    walk("Player.random", P.random, dict(seed=0), {"seed": NUMBERS})
    walk("Player.greedy", P.greedy, dict(seed=0), {"seed": NUMBERS})
    specs = [
        "ab:depth=99999999999999999999",
        "ab:time=1e300s",
        "mcts:sims=0",
        "player:",
        "player:/",
        "ab:nodes=-1",
        "random:x",
        ":" * 1000,
        "ab:depth=2,depth=2",
    ]
    walk(
        "Player.from_spec",
        P.from_spec,
        dict(spec="random", seed=0),
        {"spec": STRINGS + specs, "seed": NUMBERS},
    )
    for player in (P.from_spec("ab:depth=2"), P.random(3), P.load(shipped_player_path)):
        start = bao_zero.Env().position
        # A count that is huge but valid searches until the other limit given stops it.
        walk(
            f"{player.name}.choose",
            player.choose,
            dict(position=start, movetime_ms=50, sims=8, depth=None, nodes=None, variant=None),
            {
                "position": [*STRINGS, bao_zero.Env("hus")],
                "movetime_ms": NUMBERS,
                "sims": NUMBERS,
                "depth": NUMBERS,
                "nodes": NUMBERS,
                "variant": STRINGS,
            },
        )
        walk(f"{player.name}.new_game", player.new_game, dict(seed=0), {"seed": NUMBERS})
        walk(
            f"{player.name}.set_threads",
            player.set_threads,
            dict(threads=1),
            {"threads": [*NUMBERS, 257, 20000]},
        )


def test_training_doors_take_hostile_arguments(
    tmp_path: Path, smoke_config: Callable[[str], Path]
) -> None:
    config = smoke_config("run")
    learner = bao_zero.Learner(config, quiet=True)
    toml = learner.config_toml
    weights = learner.weights()
    worker = bao_zero.SelfPlayWorker(toml)
    part = worker.play(weights, 0, 1, 0, learner.games_per_iteration)
    configs = [
        "",
        "x",
        "seed = -1",
        "[selfplay]\ngames_per_iteration = 10000000000000000",
        "[selfplay]\nthreads = 100000",
        "[eval]\nopponents = ['nope:x']",
    ]
    walk(
        "SelfPlayWorker",
        bao_zero.SelfPlayWorker,
        dict(config_toml=toml, threads=1),
        {"config_toml": STRINGS + configs, "threads": NUMBERS},
    )
    walk(
        "SelfPlayWorker.play",
        worker.play,
        dict(weights=weights, version=0, iteration=1, first=0, count=1),
        {
            "weights": [b"", b"\x00" * 64, "x", None, 7],
            "version": NUMBERS,
            "iteration": NUMBERS,
            "first": NUMBERS,
            "count": NUMBERS,
        },
    )
    walk(
        "Learner",
        bao_zero.Learner,
        dict(config=config, quiet=True),
        {
            "config": [tmp_path, tmp_path / "missing.toml", 7, "\x00"],
            "seed": NUMBERS,
            "resume": [tmp_path / "missing", 7],
            "run_dir": [7, [1]],
            "quiet": [None, "x"],
        },
    )
    walk(
        "Learner.train",
        learner.train,
        dict(iteration=1, parts=[part], seconds=1.0),
        {
            "iteration": NUMBERS,
            "seconds": [v for v in NUMBERS if v != 0],
            "parts": [[b""], [b"\x00" * 100], [part[:20]], [part, part], "x", None, [7]],
        },
    )
    walk("Learner.eval_due", learner.eval_due, dict(iteration=1), {"iteration": NUMBERS})
    walk(
        "Learner.commit",
        learner.commit,
        dict(iteration=1, evaluation=None),
        {"iteration": NUMBERS, "evaluation": [b"", b"{", b"[]", "x", 7]},
    )
    assert learner.iteration == 0, "no hostile call may have trained or committed"
    walk(
        "EvaluationWorker",
        bao_zero.EvaluationWorker,
        dict(config_toml=toml, threads=1),
        {"config_toml": STRINGS + configs, "threads": NUMBERS},
    )
    evaluator = bao_zero.EvaluationWorker(toml)
    walk(
        "EvaluationWorker.evaluate",
        evaluator.evaluate,
        dict(weights=b"", iteration=1),
        {"weights": [b"", b"\x00" * 64, "x", None], "iteration": NUMBERS},
    )
