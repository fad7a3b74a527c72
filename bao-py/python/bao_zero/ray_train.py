"""Training with self-play spread over a Ray cluster: ``python -m bao_zero.ray_train``.

The learner (:class:`bao_zero._core.Learner`) runs in this driver process and owns the run
directory exactly as ``bao train`` does: the same files, the same resume after a crash (run the
same command again). Self-play runs in Ray actors (one :class:`bao_zero._core.SelfPlayWorker`
each) that are handed chunks of games; the evaluation runs in an evaluator actor. This module is
the run (its options, the loop over iterations, the summary); :mod:`bao_zero.ray_actors` holds
the actors, :mod:`bao_zero.ray_dispatch` hands out the games.

Synchronous mode (the default) plays every game of iteration ``j`` with the network of iteration
``j - 1`` and trains once they are all in, so the run is bit for bit the run of ``bao train``
(with ``selfplay.threads = 1``) whatever the number of workers and whoever played which game.
Asynchronous mode keeps the workers busy while the learner trains: a game of iteration ``j`` may
be played by a network up to ``max_staleness`` versions older than ``j - 1``, and the learner
still trains iteration ``j`` on iteration ``j``'s games only.

Faults: a worker that dies (its process killed, its node lost) is restarted by Ray and its chunk is
played again (by whichever worker is free); a worker that raises stops the run with one line naming
it; a dead evaluator is restarted by Ray, which runs the evaluation again.

Run it on a cluster with ``--address auto`` on a node of the cluster (every node needs bao_zero
installed: docs/RAY.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import math
import sys
import time
from typing import Any

from bao_zero.ray_actors import (
    RayTrainError,
    WorkerInfo,
    cause,
    import_ray,
    one_line,
    start_evaluator,
    start_workers,
)
from bao_zero.ray_dispatch import SelfPlay

__all__ = ["RayOptions", "RayTrainError", "WorkerInfo", "main", "train"]

#: Object store of a local Ray instance: weights and parts are small.
LOCAL_OBJECT_STORE = 256 * 2**20


def _option(
    default: Any, text: str, *, least: int | None = None, choices: tuple[str, ...] = ()
) -> Any:
    """A field of :class:`RayOptions`: its default, its command-line help, its least value (for
    a number) or its choices (for a word)."""
    return dataclasses.field(
        default=default, metadata={"help": text, "least": least, "choices": choices}
    )


@dataclasses.dataclass(frozen=True)
class RayOptions:
    """How a run is spread over Ray: :func:`train`'s keywords past the run's own, and the command
    line's options (``--threads-per-worker`` for ``threads_per_worker``). Checked when made: a
    ``ValueError`` names the option out of range."""

    workers: int = _option(2, "self-play actors (default 2)", least=1)
    threads_per_worker: int = _option(1, "threads (and CPUs) per actor (default 1)", least=1)
    address: str | None = _option(
        None, "Ray cluster to join ('auto': the running one); default: start a local Ray instance"
    )
    mode: str = _option("sync", "default sync", choices=("sync", "async"))
    max_staleness: int = _option(
        1,
        "async: how many versions older than the previous iteration's a game's network may be "
        "(default 1)",
        least=0,
    )
    chunk: int | None = _option(
        None, "games per task (default: two tasks per worker per iteration)", least=1
    )
    iterations: int | None = _option(
        None, "stop after this many iterations (the run can be resumed)", least=1
    )
    quiet: bool = _option(False, "no progress bars, no per-iteration lines")

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value, least = getattr(self, field.name), field.metadata["least"]
            choices = field.metadata["choices"]
            if choices and value not in choices:
                words = " or ".join(repr(c) for c in choices)
                raise ValueError(f"{field.name} must be {words}, not {value!r}")
            if least is not None and value is not None and value < least:
                raise ValueError(f"{field.name} must be at least {least}, not {value}")

    @staticmethod
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        """Adds an option to ``parser`` for each field."""
        for field in dataclasses.fields(RayOptions):
            flag, text = "--" + field.name.replace("_", "-"), field.metadata["help"]
            if field.default is False:
                parser.add_argument(flag, action="store_true", help=text)
                continue
            kind = int if str(field.type).startswith("int") else str
            choices = field.metadata["choices"] or None
            parser.add_argument(flag, type=kind, default=field.default, choices=choices, help=text)

    @staticmethod
    def of(parsed: argparse.Namespace) -> RayOptions:
        """The options of a parsed command line."""
        return RayOptions(
            **{f.name: getattr(parsed, f.name) for f in dataclasses.fields(RayOptions)}
        )


def hook_of(hooks: Any, name: str) -> Any | None:
    """The hook `name` of `hooks` (a dict or an object of callables), if there is one."""
    if hooks is None:
        return None
    if isinstance(hooks, dict):
        return hooks.get(name)
    return getattr(hooks, name, None)


class _Run:
    """One invocation: the learner, the Ray actors, the loop over iterations."""

    def __init__(self, learner: Any, options: RayOptions, hooks: Any) -> None:
        self.learner = learner
        self.a = options
        self.hooks = hooks
        self.ray = import_ray()
        self.workers: list[WorkerInfo] = []
        self.evaluator: Any = None
        self.started_ray = False
        self.asynchronous = options.mode == "async"

    def log(self, line: str) -> None:
        print(f"ray_train: {line}", file=sys.stderr, flush=True)

    def start_ray(self) -> None:
        """Joins the cluster asked for, or starts a local Ray, unless Ray is running here."""
        ray, a = self.ray, self.a
        if ray.is_initialized():
            return
        logging.getLogger("ray").setLevel(logging.ERROR)  # after `import ray`, which sets it
        # The workers' output stays in their log files; the driver prints its own lines.
        options: dict[str, Any] = {"log_to_driver": False, "configure_logging": False}
        if a.address:
            ray.init(address=a.address, **options)
        else:
            ray.init(
                address="local",
                num_cpus=a.workers * a.threads_per_worker,
                include_dashboard=False,
                object_store_memory=LOCAL_OBJECT_STORE,
                **options,
            )
        self.started_ray = True

    def open(
        self, selfplay: SelfPlay, version: int, weights: bytes, ref: Any, through: int
    ) -> None:
        """Ships the weights of `version` (`ref`, once in the object store) to self-play and opens
        the iterations up to `through`."""
        hook = hook_of(self.hooks, "weights")
        shipped = self.ray.put(hook(version, weights)) if hook is not None else ref
        selfplay.open(version, shipped, through)

    def evaluate(self, selfplay: SelfPlay, iteration: int, weights_ref: Any) -> bytes:
        """The evaluation of `iteration` on the evaluator actor; self-play goes on meanwhile."""
        ray = self.ray
        if self.evaluator is None:
            config, threads = self.learner.config_toml, self.a.threads_per_worker
            self.evaluator = start_evaluator(ray, config, threads)
        task = self.evaluator.evaluate.remote(weights_ref, iteration)
        selfplay.wait(task)
        try:
            evaluation: bytes = ray.get(task)
            return evaluation
        except ray.exceptions.RayError as e:
            raise RayTrainError(
                f"the evaluation of iteration {iteration} failed: {cause(e)}"
            ) from None

    def finish(self, j: int, parts: list[bytes], selfplay: SelfPlay, lag: int) -> dict[str, Any]:
        """Trains iteration `j` on its games, evaluates it if due, commits it; opens the next
        iterations to self-play (before the evaluation in asynchronous mode, so that the workers
        play on)."""
        learner = self.learner
        learner.train(j, parts, selfplay.parts.seconds(j))
        weights = learner.weights()
        ref = self.ray.put(weights)
        if self.asynchronous:
            self.open(selfplay, j, weights, ref, j + 1 + lag)
        evaluation = self.evaluate(selfplay, j, ref) if learner.eval_due(j) else None
        metrics: dict[str, Any] = learner.commit(j, evaluation)
        if not self.asynchronous:
            self.open(selfplay, j, weights, ref, j + 1)
        hook = hook_of(self.hooks, "on_iteration")
        if hook is not None:
            hook(metrics)
        return metrics

    def summary(self, start: int) -> dict[str, Any]:
        """The summary of an invocation that trained nothing yet."""
        a = self.a
        return {
            "run_dir": str(self.learner.run_dir),
            "mode": a.mode,
            "first_iteration": start + 1,
            "last_iteration": start,
            "iterations": 0,
            "games": 0,
            "mean_staleness": 0.0,
            "max_staleness": 0,
            "replayed_chunks": 0,
            "workers": a.workers,
            "worker_nodes": [],
            "metrics": None,
        }

    def run(self) -> dict[str, Any]:
        from bao_zero._core import Progress

        learner, a = self.learner, self.a
        lag = a.max_staleness if self.asynchronous else 0
        start, end = learner.iteration, learner.iterations
        if a.iterations is not None:
            end = min(end, start + a.iterations)
        summary = self.summary(start)
        if start >= end:
            if not a.quiet:
                print(f"the run in {learner.run_dir} is complete to iteration {start}")
            return summary
        t0 = time.monotonic()
        self.start_ray()
        self.workers = start_workers(self.ray, learner.config_toml, a.workers, a.threads_per_worker)
        games = learner.games_per_iteration
        chunk = a.chunk or max(1, math.ceil(games / (2 * a.workers)))
        # A second chunk queued on each worker keeps it playing while the driver trains
        # (asynchronous mode); synchronous mode has nothing to play meanwhile.
        depth = 2 if self.asynchronous else 1
        after_dispatch = hook_of(self.hooks, "after_dispatch")
        selfplay = SelfPlay(
            self.ray, self.workers, games, chunk, end, depth, after_dispatch, self.log
        )
        weights = learner.weights()
        self.open(selfplay, start, weights, self.ray.put(weights), start + 1 + lag)
        for j in range(start + 1, end + 1):
            bar = Progress(games, f"iteration {j}", a.quiet)
            parts = selfplay.collect(j, bar.set)
            bar.finish()
            summary.update(
                last_iteration=j,
                iterations=j - start,
                games=(j - start) * games,
                metrics=self.finish(j, parts, selfplay, lag),
            )
        summary.update(
            replayed_chunks=selfplay.replayed,
            mean_staleness=selfplay.parts.mean_staleness(),
            max_staleness=selfplay.parts.max_staleness,
            seconds=time.monotonic() - t0,
            worker_nodes=[w.node_id for w in self.workers],
        )
        if not a.quiet:
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
            except Exception:
                pass
        if self.started_ray:
            ray.shutdown()


def train(
    config: str | None = None,
    *,
    resume: str | None = None,
    run_dir: str | None = None,
    seed: int | None = None,
    hooks: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """Trains (or resumes) a run with self-play on Ray actors; returns a summary.

    The arguments are the command line's (see ``python -m bao_zero.ray_train --help``):
    ``options`` are :class:`RayOptions`' fields (``workers=2``, ``threads_per_worker=1``,
    ``address=None``, ``mode="sync"``, ``max_staleness=1``, ``chunk=None``, ``iterations=None``,
    ``quiet=False``); another keyword is a ``TypeError``. A Ray
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
    settings = RayOptions(**options)
    if seed is not None and not 0 <= seed < 2**64:
        raise ValueError(f"seed must be 0 to 2**64 - 1, not {seed}")
    from bao_zero._core import Learner

    learner = Learner(config, resume=resume, run_dir=run_dir, seed=seed, quiet=settings.quiet)
    run = _Run(learner, settings, hooks)
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
    RayOptions.add_arguments(p)
    return p


def main(argv: list[str] | None = None) -> int:
    a = _parser().parse_args(argv)
    try:
        options = dataclasses.asdict(RayOptions.of(a))
        train(a.config, resume=a.resume, run_dir=a.run_dir, seed=a.seed, **options)
    except (RayTrainError, ValueError, OverflowError, OSError) as e:
        print(f"error: {one_line(str(e), 1000)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
