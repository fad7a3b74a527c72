"""Training with self-play spread over a Ray cluster: ``python -m bao_zero.ray_train``.

The learner (:class:`bao_zero._core.Learner`) runs in this driver process and owns the run
directory exactly as ``bao train`` does: the same files, the same resume after a crash (run the same
command again). Self-play runs in Ray actors (one :class:`bao_zero._core.SelfPlayWorker` each) that
are handed chunks of games from a work queue; the evaluation runs in an evaluator actor.

Synchronous mode (the default) plays every game of iteration ``j`` with the network of iteration
``j - 1`` and trains once they are all in, so the run is bit for bit the run of ``bao train``
(with ``selfplay.threads = 1``) whatever the number of workers and whoever played which game. Asynchronous mode keeps the workers
busy while the learner trains: a game of iteration ``j`` may be played by a network up to
``max_staleness`` versions older than ``j - 1``, and the learner still trains iteration ``j`` on
iteration ``j``'s games only.

Faults: a worker that dies (its process killed, its node lost) is restarted by Ray and its chunk is
played again (by whichever worker is free); a worker that raises stops the run with one line naming
it. Only a few retries per chunk are made.

Run it on a cluster with ``--address auto`` on a node of the cluster (every node needs bao_zero
installed: docs/RAY.md).
"""

from __future__ import annotations

import argparse
import collections
import logging
import math
import queue
import sys
import time
from typing import Any, Optional

from bao_zero.ray_dispatch import (
    Dispatcher,
    EvaluatorActor,
    RayTrainError,
    SelfPlayActor,
    WorkerInfo,
    cause,
    hook_of,
    import_ray,
    one_line,
    quiet_worker_deaths,
)

__all__ = ["RayTrainError", "WorkerInfo", "main", "train"]

#: How often Ray restarts a dead worker (and the evaluator).
MAX_RESTARTS = 4
#: How often an evaluation is started again after the evaluator died.
MAX_EVAL_TRIES = 4
#: Seconds the workers get to start (be placed and build their SelfPlayWorker).
START_TIMEOUT = 120.0
#: Object store of a local Ray instance: weights and parts are small.
LOCAL_OBJECT_STORE = 256 * 2**20


class _Collected:
    """The parts that have come in, by iteration, and the staleness of their games."""

    def __init__(self) -> None:
        self.parts: dict[int, list[bytes]] = collections.defaultdict(list)
        self.games: dict[int, int] = collections.defaultdict(int)
        self.began: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.stale_games = self.stale_sum = self.max_staleness = 0

    def add(self, event: tuple) -> None:
        _, chunk, version, part, at = event
        j = chunk.iteration
        self.parts[j].append(part)
        self.games[j] += chunk.count
        self.last[j] = at
        staleness = j - 1 - version
        self.stale_games += chunk.count
        self.stale_sum += staleness * chunk.count
        self.max_staleness = max(self.max_staleness, staleness)

    def seconds(self, j: int) -> float:
        """Self-play's wall-clock time for iteration `j`: first chunk out to last part in."""
        return self.last[j] - self.began.get(j, self.last[j])

    def mean_staleness(self) -> float:
        return self.stale_sum / self.stale_games if self.stale_games else 0.0


class _Run:
    """One invocation: the learner, the Ray actors, the loop over iterations."""

    def __init__(self, learner: Any, args: dict[str, Any], hooks: Any) -> None:
        self.learner = learner
        self.a = args
        self.hooks = hooks
        self.ray = import_ray()
        self.workers: list[WorkerInfo] = []
        self.evaluator: Any = None
        self.started_ray = False
        self.asynchronous = args["mode"] == "async"

    def log(self, line: str) -> None:
        print(f"ray_train: {line}", file=sys.stderr, flush=True)

    def start(self) -> None:
        """Joins or starts Ray and starts the workers (one line if they cannot start)."""
        ray, a = self.ray, self.a
        if not ray.is_initialized():
            logging.getLogger("ray").setLevel(logging.ERROR)  # after `import ray`, which sets it
            options: dict[str, Any] = {"log_to_driver": False, "configure_logging": False}
            if a["address"]:
                ray.init(address=a["address"], **options)
            else:
                ray.init(
                    address="local",
                    num_cpus=a["workers"] * a["threads_per_worker"],
                    include_dashboard=False,
                    object_store_memory=LOCAL_OBJECT_STORE,
                    **options,
                )
            self.started_ray = True
        quiet_worker_deaths()
        cls = ray.remote(
            num_cpus=a["threads_per_worker"], max_restarts=MAX_RESTARTS, max_task_retries=0
        )(SelfPlayActor)
        config = self.learner.config_toml
        self.workers = [
            WorkerInfo(
                i, cls.options(scheduling_strategy="SPREAD").remote(config, a["threads_per_worker"])
            )
            for i in range(a["workers"])
        ]
        self.wait_for_workers()

    def wait_for_workers(self) -> None:
        ray, a = self.ray, self.a
        refs = {w.actor.info.remote(): w for w in self.workers}
        ready, waiting = ray.wait(list(refs), num_returns=len(refs), timeout=START_TIMEOUT)
        for ref in ready:
            try:
                refs[ref].pid, refs[ref].node_id = ray.get(ref)
            except ray.exceptions.RayError as e:
                raise RayTrainError(f"worker {refs[ref].index} could not start: {cause(e)}") from None
        if waiting:
            free = ray.available_resources().get("CPU", 0)
            raise RayTrainError(
                f"{len(waiting)} of {len(refs)} workers ({a['threads_per_worker']} CPUs each) "
                f"were not placed within {START_TIMEOUT:.0f} s; the cluster has {free:g} CPUs free"
            )

    def evaluate(self, iteration: int, weights_ref: Any) -> bytes:
        """The evaluation of `iteration` on the evaluator actor, started again if it dies."""
        ray = self.ray
        if self.evaluator is None:
            cls = ray.remote(num_cpus=0, max_restarts=MAX_RESTARTS, max_task_retries=0)(
                EvaluatorActor
            )
            self.evaluator = cls.remote(self.learner.config_toml, self.a["threads_per_worker"])
        for tries in range(1, MAX_EVAL_TRIES + 1):
            try:
                return ray.get(self.evaluator.evaluate.remote(weights_ref, iteration))
            except ray.exceptions.RayTaskError as e:
                raise RayTrainError(
                    f"the evaluation of iteration {iteration} failed: {cause(e)}"
                ) from None
            except ray.exceptions.RayActorError as e:
                if tries == MAX_EVAL_TRIES or getattr(e, "actor_init_failed", False):
                    raise RayTrainError(
                        f"the evaluation of iteration {iteration} failed: {cause(e)}"
                    ) from None
                self.log(
                    f"the evaluator died ({cause(e)}); "
                    f"the evaluation of iteration {iteration} runs again"
                )
        raise AssertionError("unreachable")

    def publish(self, dispatcher: Dispatcher, version: int, weights: bytes, allowed: int) -> Any:
        """Shares the weights of `version` (once) and opens the iterations up to `allowed`; returns
        the reference of the true weights (for the evaluator)."""
        ref = self.ray.put(weights)
        hook = hook_of(self.hooks, "weights")
        shipped = self.ray.put(hook(version, weights)) if hook is not None else ref
        dispatcher.publish(version, shipped, allowed)
        return ref

    def collect(self, j: int, games: int, events: queue.Queue, collected: _Collected,
                dispatcher: Dispatcher) -> None:  # fmt: skip
        """Waits for the parts of iteration `j` (keeping those of later ones), with a progress bar."""
        from bao_zero._core import Progress

        bar = Progress(games, f"iteration {j}", self.a["quiet"])
        bar.set(collected.games[j])
        while collected.games[j] < games:
            try:
                event = events.get(timeout=1.0)
            except queue.Empty:
                if not dispatcher.is_alive():
                    raise RayTrainError("the dispatcher stopped") from None
                continue
            if event[0] == "error":
                raise RayTrainError(event[1])
            if event[0] == "start":
                collected.began[event[1]] = event[2]
                continue
            collected.add(event)
            bar.set(collected.games[j])
        bar.finish()

    def finish(self, j: int, collected: _Collected, dispatcher: Dispatcher, lag: int) -> dict:
        """Trains iteration `j` on its games, evaluates it if due, commits it; shares the new
        weights (before the evaluation in asynchronous mode, so that the workers play on)."""
        learner = self.learner
        learner.train(j, collected.parts.pop(j), collected.seconds(j))
        weights = learner.weights()
        if self.asynchronous:
            ref = self.publish(dispatcher, j, weights, j + 1 + lag)
        else:
            ref = self.ray.put(weights)
        evaluation = self.evaluate(j, ref) if learner.eval_due(j) else None
        metrics = learner.commit(j, evaluation)
        if not self.asynchronous:
            self.publish(dispatcher, j, weights, j + 1)
        hook = hook_of(self.hooks, "on_iteration")
        if hook is not None:
            hook(metrics)
        return metrics

    def run(self) -> dict[str, Any]:
        learner, a = self.learner, self.a
        lag = a["max_staleness"] if self.asynchronous else 0
        start = learner.iteration
        end = learner.iterations
        if a["iterations"] is not None:
            end = min(end, start + a["iterations"])
        games = learner.games_per_iteration
        chunk = a["chunk"] or max(1, math.ceil(games / (2 * a["workers"])))
        summary: dict[str, Any] = {
            "run_dir": str(learner.run_dir),
            "mode": a["mode"],
            "first_iteration": start + 1,
            "last_iteration": start,
            "iterations": 0,
            "games": 0,
            "mean_staleness": 0.0,
            "max_staleness": 0,
            "replayed_chunks": 0,
            "workers": a["workers"],
            "worker_nodes": [],
            "metrics": None,
        }
        if start >= end:
            if not a["quiet"]:
                print(f"the run in {learner.run_dir} is complete to iteration {start}")
            return summary
        t0 = time.monotonic()
        self.start()
        events: queue.Queue[tuple] = queue.Queue()
        dispatcher = Dispatcher(self.workers, games, chunk, start, end, self.hooks, events, self.log)
        self.publish(dispatcher, start, learner.weights(), start + 1 + lag)
        dispatcher.start()
        collected = _Collected()
        try:
            for j in range(start + 1, end + 1):
                self.collect(j, games, events, collected, dispatcher)
                summary.update(
                    last_iteration=j,
                    iterations=j - start,
                    games=(j - start) * games,
                    metrics=self.finish(j, collected, dispatcher, lag),
                )
        finally:
            dispatcher.stop()
            dispatcher.join(timeout=10)
            summary["replayed_chunks"] = dispatcher.replayed
        summary["mean_staleness"] = collected.mean_staleness()
        summary["max_staleness"] = collected.max_staleness
        summary["seconds"] = time.monotonic() - t0
        summary["worker_nodes"] = [w.node_id for w in self.workers]
        if not a["quiet"]:
            self.print_summary(summary)
        return summary

    def print_summary(self, s: dict[str, Any]) -> None:
        nodes = len(set(s["worker_nodes"]))
        print(
            f"ray_train: iterations {s['first_iteration']}..{s['last_iteration']} of "
            f"{self.learner.iterations} in {s['seconds']:.1f} s ({s['games']} games on "
            f"{s['workers']} workers, {nodes} node{'s' if nodes != 1 else ''}, {s['mode']}); "
            f"mean staleness {s['mean_staleness']:.2f}; {s['replayed_chunks']} chunk(s) played "
            f"again; run in {s['run_dir']}"
        )

    def close(self) -> None:
        ray = self.ray
        for actor in [w.actor for w in self.workers] + ([self.evaluator] if self.evaluator else []):
            try:
                ray.kill(actor, no_restart=True)
            except Exception:  # noqa: BLE001 - already gone
                pass
        if self.started_ray:
            ray.shutdown()


def train(
    config: Optional[str] = None,
    *,
    resume: Optional[str] = None,
    run_dir: Optional[str] = None,
    seed: Optional[int] = None,
    workers: int = 2,
    threads_per_worker: int = 1,
    address: Optional[str] = None,
    mode: str = "sync",
    max_staleness: int = 1,
    chunk: Optional[int] = None,
    iterations: Optional[int] = None,
    quiet: bool = False,
    hooks: Any = None,
) -> dict[str, Any]:
    """Trains (or resumes) a run with self-play on Ray actors; returns a summary.

    The arguments are the command line's (see ``python -m bao_zero.ray_train --help``). A Ray
    instance already initialised in this process is used as it is; otherwise one is started
    (``address=None``: a new local one with ``workers * threads_per_worker`` CPUs; ``"auto"`` or an
    address: join that cluster) and shut down at the end.

    ``hooks`` (an object or a dict of callables, all optional, called in the driver):
    ``after_dispatch(iteration, workers)`` once the first chunks of an iteration are in flight
    (``workers``: a list of :class:`WorkerInfo`; called from the dispatching thread);
    ``on_iteration(metrics)`` after each commit; ``weights(version, data) -> data`` transforms the
    weights shipped to the workers (tests corrupt them with it).

    The summary: ``run_dir``, ``mode``, ``first_iteration``, ``last_iteration``, ``iterations``
    (trained by this call), ``games``, ``seconds``, ``mean_staleness`` and ``max_staleness`` (in
    versions, per game), ``replayed_chunks``, ``workers``, ``worker_nodes`` (Ray node ids) and
    ``metrics`` (the last metrics line). Raises :class:`RayTrainError` (one line) when the run
    cannot go on, ``ValueError`` for a bad config or run directory.
    """
    if mode not in ("sync", "async"):
        raise ValueError(f"mode must be 'sync' or 'async', not {mode!r}")
    for name, value, least in (
        ("workers", workers, 1),
        ("threads_per_worker", threads_per_worker, 1),
        ("max_staleness", max_staleness, 0),
        ("chunk", 1 if chunk is None else chunk, 1),
        ("iterations", 1 if iterations is None else iterations, 1),
    ):
        if value < least:
            raise ValueError(f"{name} must be at least {least}, not {value}")
    if seed is not None and not 0 <= seed < 2**64:
        raise ValueError(f"seed must be 0 to 2**64 - 1, not {seed}")
    from bao_zero._core import Learner

    learner = Learner(config, resume=resume, run_dir=run_dir, seed=seed, quiet=quiet)
    args = dict(
        workers=workers,
        threads_per_worker=threads_per_worker,
        address=address,
        mode=mode,
        max_staleness=max_staleness,
        chunk=chunk,
        iterations=iterations,
        quiet=quiet,
    )
    run = _Run(learner, args, hooks)
    try:
        return run.run()
    finally:
        run.close()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bao_zero.ray_train",
        description="Train a bao-zero run like `bao train`, with self-play on Ray workers.",
    )
    p.add_argument("--config", "-c", help="run config (TOML); default: the built-in default config")
    p.add_argument("--resume", metavar="RUN_DIR", help="resume the run in this directory")
    p.add_argument("--run-dir", help="override the config's run directory")
    p.add_argument("--seed", type=int, help="override the config's seed")
    p.add_argument("--workers", type=int, default=2, help="self-play actors (default 2)")
    p.add_argument(
        "--threads-per-worker", type=int, default=1, help="threads (and CPUs) per actor (default 1)"
    )
    p.add_argument(
        "--address",
        help="Ray cluster to join ('auto': the running one); default: start a local Ray instance",
    )
    p.add_argument("--mode", choices=("sync", "async"), default="sync", help="default sync")
    p.add_argument(
        "--max-staleness",
        type=int,
        default=1,
        help="async: how many versions older than the previous iteration's a game's network may be (default 1)",
    )
    p.add_argument(
        "--chunk", type=int, help="games per task (default: two tasks per worker per iteration)"
    )
    p.add_argument(
        "--iterations", type=int, help="stop after this many iterations (the run can be resumed)"
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars, no per-iteration lines")
    return p


def main(argv: Optional[list[str]] = None) -> int:
    a = _parser().parse_args(argv)
    if a.resume and (a.config or a.run_dir or a.seed is not None):
        print(
            "error: --resume continues a run with its own config; --config, --run-dir and --seed do not apply",
            file=sys.stderr,
        )
        return 2
    try:
        train(
            a.config,
            resume=a.resume,
            run_dir=a.run_dir,
            seed=a.seed,
            workers=a.workers,
            threads_per_worker=a.threads_per_worker,
            address=a.address,
            mode=a.mode,
            max_staleness=a.max_staleness,
            chunk=a.chunk,
            iterations=a.iterations,
            quiet=a.quiet,
        )
    except (RayTrainError, ValueError, OverflowError, OSError) as e:
        print(f"error: {one_line(str(e), 1000)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
