"""Self-play throughput on Ray against `bao train`, on the same cores (a benchmark, not a test).

Plays the first two iterations of a config (the default one unless --config) with their games
only (no training, no evaluation), several times each way, and prints the median self-play games
per second of the second iteration (the first pays for starting up: Ray's own processes are
still settling) of:

- `bao train` with `selfplay.threads` = 1 and = 2 (`--quiet`, read from metrics.jsonl);
- `python -m bao_zero.ray_train` with 1 and 2 workers of one thread each.

Every run plays the same games (the iteration's seeds), so the figures compare like with like.
The ratios printed are 2 workers / 1 worker, and Ray / `bao train` at equal cores. Also prints
what a distributed run moves: the bytes of the weights per version and of the samples per game,
and the learner's training steps per second on the config's network.

Run from the repository root with the test venv (scripts/python_test.sh makes it):

    target/python-venv/bin/python scripts/ray_bench.py [--games 64] [--runs 3] [--config FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bao-py" / "tests"))
from toml_writer import to_toml as toml_text  # noqa: E402


def bench_config(base: dict, games: int, threads: int, run_dir: Path) -> dict:
    """`base` reduced to two iterations of `games` self-play games: nothing trained or evaluated."""
    data = json.loads(json.dumps(base))
    data.pop("extends", None)
    data["iterations"] = 2
    data["run_dir"] = str(run_dir)
    data["selfplay"]["games_per_iteration"] = games
    data["selfplay"]["threads"] = threads
    data.setdefault("optim", {})["min_replay"] = 10**9
    data.setdefault("eval", {})["every"] = 0
    return data


def games_per_sec(run_dir: Path) -> float:
    line = json.loads((run_dir / "metrics.jsonl").read_text().splitlines()[-1])
    return float(line["selfplay_games_per_sec"])


def bao_train(bao: str, config: dict, tmp: Path, threads: int, games: int, k: int) -> float:
    run = tmp / f"bao-{threads}-{k}"
    path = tmp / f"bao-{threads}-{k}.toml"
    path.write_text(toml_text(bench_config(config, games, threads, run)))
    subprocess.run([bao, "train", "--config", str(path), "--quiet"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    return games_per_sec(run)


def ray_run(config: dict, tmp: Path, workers: int, games: int, chunk: int | None, k: int) -> float:
    from bao_zero import ray_train

    run = tmp / f"ray-{workers}-{k}"
    path = tmp / f"ray-{workers}-{k}.toml"
    path.write_text(toml_text(bench_config(config, games, 1, run)))
    ray_train.train(str(path), workers=workers, chunk=chunk, quiet=True)
    return games_per_sec(run)


def transfer_sizes(config_path: str | None, tmp: Path) -> tuple[int, float, float]:
    """Bytes of the weights, bytes of the samples per game, and training steps per second."""
    import bao_zero

    data = tomllib.loads(Path(config_path).read_text()) if config_path else None
    base = data or tomllib.loads((ROOT / "configs" / "default.toml").read_text())
    base = json.loads(json.dumps(base))
    base["run_dir"] = str(tmp / "sizes")
    base["selfplay"]["games_per_iteration"] = 8
    base["selfplay"]["threads"] = 1
    base["optim"]["min_replay"] = 1
    base["optim"]["steps_per_iteration"] = 50
    base["eval"]["every"] = 0
    path = tmp / "sizes.toml"
    path.write_text(toml_text(base))
    learner = bao_zero.Learner(path, quiet=True)
    weights = learner.weights()
    worker = bao_zero.SelfPlayWorker(learner.config_toml)
    part = worker.play(weights, 0, 1, 0, 8)
    figures = learner.train(1, [part], 1.0)
    return len(weights), len(part) / 8, figures["steps"] / figures["train_seconds"]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", help="run config (default: configs/default.toml)")
    p.add_argument("--games", type=int, default=64, help="games per measured run (default 64)")
    p.add_argument("--runs", type=int, default=3, help="runs of each kind (default 3)")
    p.add_argument("--chunk", type=int, help="games per Ray task (default: the driver's)")
    p.add_argument("--bao", default=str(ROOT / "target" / "release" / "bao"))
    a = p.parse_args()
    config = tomllib.loads(Path(a.config or ROOT / "configs" / "default.toml").read_text())
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    results: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        for k in range(a.runs):
            # Interleaved, so that a change in the machine's load hits every kind alike.
            for name, run in [
                ("bao train, 1 thread", lambda: bao_train(a.bao, config, tmp, 1, a.games, k)),
                ("bao train, 2 threads", lambda: bao_train(a.bao, config, tmp, 2, a.games, k)),
                ("ray, 1 worker", lambda: ray_run(config, tmp, 1, a.games, a.chunk, k)),
                ("ray, 2 workers", lambda: ray_run(config, tmp, 2, a.games, a.chunk, k)),
            ]:
                t0 = time.monotonic()
                results.setdefault(name, []).append(run())
                print(f"run {k + 1}/{a.runs}: {name}: {results[name][-1]:.2f} games/s "
                      f"({time.monotonic() - t0:.0f} s in all)", file=sys.stderr)  # fmt: skip
        weights, per_game, steps = transfer_sizes(a.config, tmp)
    print(f"self-play games per second, median of {a.runs} runs of {a.games} games:")
    for name, v in results.items():
        runs = ", ".join(f"{x:.2f}" for x in v)
        print(f"  {name:<22} {statistics.median(v):7.2f}   (runs: {runs})")
    # Ratios within each round (its runs were back to back), then their median.
    for label, top, bottom in [
        ("ray 2 workers / ray 1 worker", "ray, 2 workers", "ray, 1 worker"),
        ("bao train 2 threads / 1 thread", "bao train, 2 threads", "bao train, 1 thread"),
        ("ray 1 worker / bao train 1 thread", "ray, 1 worker", "bao train, 1 thread"),
        ("ray 2 workers / bao train 2 threads", "ray, 2 workers", "bao train, 2 threads"),
    ]:
        ratios = [x / y for x, y in zip(results[top], results[bottom])]
        spread = f"{min(ratios):.2f} to {max(ratios):.2f}"
        print(f"{label:<36} {statistics.median(ratios):.3f}   (rounds: {spread})")
    print(f"weights per version: {weights} bytes; samples per game: {per_game:.0f} bytes; "
          f"training: {steps:.1f} steps/s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
