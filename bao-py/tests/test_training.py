"""The training stages from Python (without Ray): workers, learner and evaluator make the run
that a single process makes, and refuse what does not fit with a one-line ValueError."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import tomllib

import bao_zero
from bao_zero import _core


def drive(learner: bao_zero.Learner, workers: list[bao_zero.SelfPlayWorker], chunk: int) -> None:
    """Runs the learner's run to its end, its games played by `workers` in turns, `chunk` games
    a part, parts handed in newest first."""
    evaluator = bao_zero.EvaluationWorker(learner.config_toml)
    while learner.iteration < learner.iterations:
        iteration = learner.iteration + 1
        weights = learner.weights()
        parts = []
        for k, first in enumerate(range(0, learner.games_per_iteration, chunk)):
            count = min(chunk, learner.games_per_iteration - first)
            worker = workers[k % len(workers)]
            parts.append(worker.play(weights, iteration - 1, iteration, first, count))
        figures = learner.train(iteration, parts[::-1], 0.5)
        assert figures["iteration"] == iteration and figures["positions"] > 0
        evaluation = None
        if learner.eval_due(iteration):
            evaluation = evaluator.evaluate(learner.weights(), iteration)
        line = learner.commit(iteration, evaluation)
        assert line["iteration"] == iteration


def test_workers_in_any_split_make_the_same_run(smoke_config: Callable[[str], Path]) -> None:
    runs = []
    for name, workers, chunk in [("one", 1, 8), ("two", 2, 3)]:
        learner = bao_zero.Learner(smoke_config(name), quiet=True)
        config = learner.config_toml
        drive(learner, [bao_zero.SelfPlayWorker(config) for _ in range(workers)], chunk)
        runs.append(Path(learner.run_dir))
    one, two = runs
    assert (one / "replay-0002.bin").read_bytes() == (two / "replay-0002.bin").read_bytes()
    for i in (1, 2):
        a = bao_zero.network_tensors(one / f"iter-{i:04}")
        b = bao_zero.network_tensors(two / f"iter-{i:04}" / "model.bpk")
        assert a.keys() == b.keys() and len(a) > 0
        assert all(np.array_equal(a[k], b[k]) for k in a)
    meta = [json.loads((r / "meta.json").read_text()) for r in runs]
    assert meta[0] == meta[1] and meta[0]["iteration"] == 2
    assert len((two / "metrics.jsonl").read_text().splitlines()) == 2


def test_the_same_config_resumes_and_another_is_refused(
    tmp_path: Path, smoke_config: Callable[[str], Path]
) -> None:
    path = smoke_config("run")
    learner = bao_zero.Learner(path, quiet=True)
    worker = bao_zero.SelfPlayWorker(learner.config_toml)
    part = worker.play(learner.weights(), 0, 1, 0, learner.games_per_iteration)
    learner.train(1, [part], 0.1)
    learner.commit(1)
    del learner
    again = bao_zero.Learner(path, quiet=True)
    assert again.iteration == 1
    del again
    config = tomllib.loads(path.read_text())
    other = tmp_path / "other.toml"
    other.write_text(path.read_text().replace(f"seed = {config['seed']}", "seed = 99"))
    with pytest.raises(ValueError, match="already holds a run of another config"):
        bao_zero.Learner(other)
    resumed = bao_zero.Learner(resume=tmp_path / "run", quiet=True)
    assert resumed.iteration == 1


def test_bad_parts_and_calls_are_one_line_value_errors(smoke_config: Callable[[str], Path]) -> None:
    learner = bao_zero.Learner(smoke_config("run"), quiet=True)
    worker = bao_zero.SelfPlayWorker(learner.config_toml, threads=2)
    weights = learner.weights()
    games = learner.games_per_iteration
    half = worker.play(weights, 0, 1, 0, games // 2)
    rest = worker.play(weights, 0, 1, games // 2, games - games // 2)
    cases = [
        (
            lambda: learner.train(1, [half], 1.0),
            f"games {games // 2}..{games} are in no self-play part",
        ),
        (lambda: learner.train(1, [half, half, rest], 1.0), "game 0 is in two self-play parts"),
        (lambda: learner.train(1, [b"garbage"], 1.0), "not a self-play part"),
        (lambda: learner.train(1, [half[:-5], rest], 1.0), "samples are damaged"),
        (lambda: learner.train(2, [half, rest], 1.0), "the run's next iteration is 1, not 2"),
        (lambda: learner.commit(1), "no iteration is trained to commit"),
        (lambda: worker.play(b"not a network", 0, 1, 0, 1), "the network is damaged"),
        (lambda: worker.play(weights, 0, 0, 0, 1), "iterations count from 1"),
        (lambda: bao_zero.SelfPlayWorker("seed = 'x'"), "config"),
        (lambda: learner.commit(1, b"{}"), "no iteration is trained to commit"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message) as err:
            call()
        assert "\n" not in str(err.value)
    learner.train(1, [rest, half], 1.0)
    with pytest.raises(ValueError, match="the evaluation is damaged"):
        learner.commit(1, b"{not json")
    assert learner.commit(1)["iteration"] == 1


def test_network_tensors_of_bytes_and_files(
    tmp_path: Path, smoke_config: Callable[[str], Path]
) -> None:
    learner = bao_zero.Learner(smoke_config("run"), quiet=True)
    tensors = bao_zero.network_tensors(learner.weights())
    assert all(t.dtype == np.float32 for t in tensors.values())
    assert sum(t.size for t in tensors.values()) > 1000
    with pytest.raises(FileNotFoundError):
        bao_zero.network_tensors(tmp_path / "missing.bpk")
    with pytest.raises(ValueError, match="not a network"):
        bao_zero.network_tensors(b"garbage")
    assert _core.Progress(3, "test", quiet=True) is not None


def test_sizes_out_of_range_are_value_errors_not_aborts(
    smoke_config: Callable[[str], Path],
) -> None:
    learner = bao_zero.Learner(smoke_config("run"), quiet=True)
    worker = bao_zero.SelfPlayWorker(learner.config_toml)
    weights = learner.weights()
    games = learner.games_per_iteration
    for first, count in [(0, 10**10), (0, 2**63), (0, games + 1), (games, 1), (2**64 - 1, 1)]:
        with pytest.raises(ValueError, match="are not games of an iteration") as err:
            worker.play(weights, 0, 1, first, count)
        assert "\n" not in str(err.value)
    for threads in (0, 10**6):
        with pytest.raises(ValueError, match="threads must be 1 to 1024"):
            bao_zero.SelfPlayWorker(learner.config_toml, threads=threads)
        with pytest.raises(ValueError, match="threads must be 1 to 1024"):
            bao_zero.EvaluationWorker(learner.config_toml, threads=threads)


def test_train_refuses_bad_seconds_and_a_newer_network(smoke_config: Callable[[str], Path]) -> None:
    learner = bao_zero.Learner(smoke_config("run"), quiet=True)
    worker = bao_zero.SelfPlayWorker(learner.config_toml)
    weights = learner.weights()
    games = learner.games_per_iteration
    part = worker.play(weights, 0, 1, 0, games)
    for seconds in (-1.0, float("nan"), float("inf"), -float("inf"), 1e300):
        with pytest.raises(ValueError, match="seconds must be the self-play's wall-clock time"):
            learner.train(1, [part], seconds)
    newer = worker.play(weights, 5, 1, 0, games)
    with pytest.raises(
        ValueError, match="played with network version 5, but iteration 1 is played with version 0"
    ) as err:
        learner.train(1, [newer], 1.0)
    assert "\n" not in str(err.value)
    assert not (Path(learner.run_dir) / "iter-0001").exists(), "a refused call trains nothing"
    assert learner.train(1, [part], 2.0)["iteration"] == 1
    line = learner.commit(1)
    assert line["selfplay_games_per_sec"] == pytest.approx(games / 2.0)


def test_evaluator_is_a_deprecated_alias_of_the_evaluation_worker() -> None:
    with pytest.warns(DeprecationWarning, match="bao_zero.EvaluationWorker"):
        alias = bao_zero.Evaluator
    assert alias is bao_zero.EvaluationWorker
    assert "Evaluator" not in bao_zero.__all__
    with pytest.raises(AttributeError, match="no_such_name"):
        bao_zero.no_such_name  # noqa: B018
