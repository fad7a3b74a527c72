"""Training with self-play spread over a Ray cluster: ``python -m bao_zero.ray_train``.

The learner (:class:`bao_zero._core.Learner`) runs in this driver process and owns the run
directory exactly as ``bao train`` does: the same files, the same resume after a crash (run the same
command again). Self-play runs in Ray actors (one :class:`bao_zero._core.SelfPlayWorker` each) that
are handed chunks of games from a work queue; the evaluation runs in an evaluator actor.

Synchronous mode (the default) plays every game of iteration ``j`` with the network of iteration
``j - 1`` and trains once they are all in, so the run is byte for byte the run of ``bao train``
whatever the number of workers and whoever played which game. Asynchronous mode keeps the workers
busy while the learner trains: a game of iteration ``j`` may be played by a network up to
``max_staleness`` versions older than ``j - 1``, and the learner still trains iteration ``j`` on
iteration ``j``'s games only.

Faults: a worker that dies (its process killed, its node lost) is restarted by Ray and its chunk is
played again (by whichever worker is free); a worker that raises stops the run with one line naming
it. Only a few retries per chunk are made.

Run it on a cluster with ``--address auto`` on a node of the cluster (every node needs bao_zero
installed, or ship the wheel with a ``runtime_env``, see the README).
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import logging
import math
import os
import queue
import sys
import threading
import time
from typing import Any, Callable, Optional

__all__ = ["RayTrainError", "WorkerInfo", "main", "train"]

#: How often a chunk of games is handed out again after the workers playing it died.
MAX_CHUNK_TRIES = 4
#: How often Ray restarts a dead worker (and the evaluator).
MAX_RESTARTS = 4
#: Seconds the workers get to start (be placed and build their SelfPlayWorker).
START_TIMEOUT = 120.0
#: Seconds a restarting worker gets to come back before it counts as gone.
RESTART_TIMEOUT = 120.0
#: Object store of a local Ray instance: weights and parts are small.
LOCAL_OBJECT_STORE = 256 * 2**20


class RayTrainError(RuntimeError):
    """A run that cannot go on; the message is one line."""


@dataclasses.dataclass
class WorkerInfo:
    """A self-play worker as the hooks see it: ``actor`` is the Ray actor handle (``pid()`` and
    ``node()`` methods besides ``play``), ``pid`` its process id (as of its last start) and
    ``node_id`` the Ray node it runs on."""

    index: int
    actor: Any
    pid: int = 0
    node_id: str = ""
    alive: bool = True


@dataclasses.dataclass(frozen=True)
class _Chunk:
    iteration: int
    first: int
    count: int

    def games(self) -> str:
        return f"games {self.first}..{self.first + self.count} of iteration {self.iteration}"


# The actors. Each wraps one Rust object; nothing else is cached (the Rust side keeps the decoded
# network of the last version it was given).


class _SelfPlayActor:
    def __init__(self, config_toml: str, threads: int) -> None:
        from bao_zero._core import SelfPlayWorker

        self._worker = SelfPlayWorker(config_toml, threads)

    def info(self) -> tuple[int, str]:
        import ray

        return os.getpid(), ray.get_runtime_context().get_node_id()

    def pid(self) -> int:
        return os.getpid()

    def node(self) -> str:
        import ray

        return ray.get_runtime_context().get_node_id()

    def play(self, weights: bytes, version: int, iteration: int, first: int, count: int) -> bytes:
        return self._worker.play(weights, version, iteration, first, count)


class _EvaluatorActor:
    def __init__(self, config_toml: str, threads: int) -> None:
        from bao_zero._core import Evaluator

        self._evaluator = Evaluator(config_toml, threads)

    def evaluate(self, weights: bytes, iteration: int) -> bytes:
        return self._evaluator.evaluate(weights, iteration)


def _hook(hooks: Any, name: str) -> Optional[Callable[..., Any]]:
    if hooks is None:
        return None
    if isinstance(hooks, dict):
        return hooks.get(name)
    return getattr(hooks, name, None)


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _cause(error: BaseException) -> str:
    """The original exception of a Ray error as ``Type: message``, one line."""
    import ray

    if isinstance(error, ray.exceptions.RayTaskError) and error.cause is not None:
        return _one_line(f"{type(error.cause).__name__}: {error.cause}")
    if isinstance(error, ray.exceptions.ActorDiedError) and getattr(
        error, "actor_init_failed", False
    ):
        # The creation task's traceback ends with "ValueError: ...".
        lines = [ln.strip() for ln in str(error).splitlines() if ln.strip()]
        return _one_line(f"it could not start: {lines[-1]}" if lines else "it could not start")
    return type(error).__name__


def _quiet_worker_deaths() -> None:
    """Drops the raylet's many-line notices of a dead worker that Ray prints on the driver (the
    dispatcher prints its own line). Best effort: it wraps a private function of Ray's."""
    try:
        import ray._private.worker as ray_worker

        original = ray_worker.print_to_stdstream
        if getattr(original, "bao_filtered", False):
            return

        def filtered(data: Any, *args: Any, **kwargs: Any) -> Any:
            lines = data.get("lines", []) if isinstance(data, dict) else []
            if data.get("pid") == "raylet" and any(
                "A worker died or was killed" in ln for ln in lines
            ):
                return None
            return original(data, *args, **kwargs)

        filtered.bao_filtered = True  # type: ignore[attr-defined]
        ray_worker.print_to_stdstream = filtered
    except Exception:  # noqa: BLE001 - another Ray version: its notices stay
        pass


def _ray():
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        raise RayTrainError("bao_zero.ray_train needs Ray: pip install ray") from None
    return ray


class _Dispatcher(threading.Thread):
    """Hands chunks of games to idle workers (a work queue) and collects their parts.

    The main thread publishes the weights of each new version together with the last iteration
    whose games may be handed out; parts, the start of each iteration's self-play and a fatal error
    come back through ``events``."""

    def __init__(
        self,
        workers: list[WorkerInfo],
        games: int,
        chunk: int,
        start: int,
        end: int,
        hooks: Any,
        events: "queue.Queue[tuple]",
        log: Callable[[str], None],
    ) -> None:
        super().__init__(name="bao-ray-dispatch", daemon=True)
        self.ray = _ray()
        self.workers = workers
        self.games, self.chunk, self.end = games, chunk, end
        self.hooks, self.events, self.log = hooks, events, log
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.allowed = start  # the last iteration whose games may be handed out
        self.weights: Optional[tuple[int, Any]] = None  # (version, ObjectRef)
        self.next_iteration = start + 1  # the first iteration not yet in the queue
        self.pending: collections.deque[_Chunk] = collections.deque()
        self.idle: collections.deque[WorkerInfo] = collections.deque(workers)
        self.in_flight: dict[Any, tuple[WorkerInfo, _Chunk, int]] = {}
        self.pings: dict[Any, tuple[WorkerInfo, float]] = {}
        self.tries: dict[_Chunk, int] = {}
        self.begun: set[int] = set()  # the iterations whose first chunk was handed out
        self.replayed = 0

    def publish(self, version: int, weights_ref: Any, allowed: int) -> None:
        with self.lock:
            self.weights = (version, weights_ref)
            self.allowed = max(self.allowed, min(allowed, self.end))
        self.wake.set()

    def stop(self) -> None:
        self.stopping.set()
        self.wake.set()

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                self._hand_out()
                refs = list(self.in_flight) + list(self.pings)
                if not refs:
                    self.wake.wait(0.2)
                    self.wake.clear()
                    continue
                done, _ = self.ray.wait(refs, num_returns=1, timeout=0.05)
                for ref in done:
                    if ref in self.in_flight:
                        self._chunk_done(ref)
                    else:
                        self._ping_done(ref)
        except RayTrainError as e:
            self.events.put(("error", str(e)))
        except BaseException as e:  # noqa: BLE001 - reported to the main thread, one line
            self.events.put(("error", _one_line(f"the dispatcher failed: {type(e).__name__}: {e}")))

    def _hand_out(self) -> None:
        with self.lock:
            allowed, weights = self.allowed, self.weights
        while self.next_iteration <= allowed:
            j = self.next_iteration
            for first in range(0, self.games, self.chunk):
                self.pending.append(_Chunk(j, first, min(self.chunk, self.games - first)))
            self.next_iteration += 1
        started = []
        while self.idle and self.pending and weights is not None:
            chunk = self.pending.popleft()
            worker = self.idle.popleft()
            version, ref = weights
            if chunk.iteration not in self.begun:
                self.begun.add(chunk.iteration)
                started.append(chunk.iteration)
                self.events.put(("start", chunk.iteration, time.monotonic()))
            self.in_flight[
                worker.actor.play.remote(ref, version, chunk.iteration, chunk.first, chunk.count)
            ] = (
                worker,
                chunk,
                version,
            )
        hook = _hook(self.hooks, "after_dispatch")
        for j in started:
            if hook is not None:
                hook(j, list(self.workers))

    def _chunk_done(self, ref: Any) -> None:
        ray = self.ray
        worker, chunk, version = self.in_flight.pop(ref)
        try:
            part = ray.get(ref)
        except ray.exceptions.RayTaskError as e:
            raise RayTrainError(
                f"worker {worker.index} failed on {chunk.games()}: {_cause(e)}"
            ) from None
        except ray.exceptions.RayActorError as e:
            tries = self.tries[chunk] = self.tries.get(chunk, 0) + 1
            if tries >= MAX_CHUNK_TRIES:
                raise RayTrainError(
                    f"{chunk.games()} were lost {tries} times, the last time with worker "
                    f"{worker.index} ({_cause(e)}); giving up"
                ) from None
            self.log(f"worker {worker.index} died ({_cause(e)}); {chunk.games()} are played again")
            self.replayed += 1
            self.pending.appendleft(chunk)
            self._ping(worker)
            return
        self.idle.append(worker)
        self.events.put(("part", chunk, version, part, time.monotonic()))

    def _ping(self, worker: WorkerInfo) -> None:
        self.pings[worker.actor.info.remote()] = (worker, time.monotonic() + RESTART_TIMEOUT)

    def _ping_done(self, ref: Any) -> None:
        ray = self.ray
        worker, deadline = self.pings.pop(ref)
        try:
            worker.pid, worker.node_id = ray.get(ref)
        except ray.exceptions.ActorUnavailableError:  # still restarting
            if time.monotonic() < deadline:
                self.pings[worker.actor.info.remote()] = (worker, deadline)
                return
            self._gone(worker, "it did not come back")
        except ray.exceptions.RayActorError as e:
            self._gone(worker, _cause(e))
        else:
            self.idle.append(worker)

    def _gone(self, worker: WorkerInfo, why: str) -> None:
        worker.alive = False
        if not any(w.alive for w in self.workers):
            raise RayTrainError(f"every worker is gone, the last one worker {worker.index}: {why}")
        self.log(f"worker {worker.index} is gone ({why}); the others play on")


class _Run:
    """One invocation: the learner, the Ray actors, the loop over iterations."""

    def __init__(self, learner: Any, args: dict[str, Any], hooks: Any) -> None:
        self.learner = learner
        self.a = args
        self.hooks = hooks
        self.ray = _ray()
        self.workers: list[WorkerInfo] = []
        self.evaluator: Any = None
        self.started_ray = False

    def log(self, line: str) -> None:
        print(f"ray_train: {line}", file=sys.stderr, flush=True)

    def start(self) -> None:
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
        _quiet_worker_deaths()
        cls = ray.remote(
            num_cpus=a["threads_per_worker"], max_restarts=MAX_RESTARTS, max_task_retries=0
        )(_SelfPlayActor)
        config = self.learner.config_toml
        self.workers = [
            WorkerInfo(
                i, cls.options(scheduling_strategy="SPREAD").remote(config, a["threads_per_worker"])
            )
            for i in range(a["workers"])
        ]
        refs = {w.actor.info.remote(): w for w in self.workers}
        ready, waiting = ray.wait(list(refs), num_returns=len(refs), timeout=START_TIMEOUT)
        for ref in ready:
            try:
                refs[ref].pid, refs[ref].node_id = ray.get(ref)
            except ray.exceptions.RayError as e:
                raise RayTrainError(
                    f"worker {refs[ref].index} could not start: {_cause(e)}"
                ) from None
        if waiting:
            free = ray.available_resources().get("CPU", 0)
            raise RayTrainError(
                f"{len(waiting)} of {len(refs)} workers ({a['threads_per_worker']} CPUs each) were not "
                f"placed within {START_TIMEOUT:.0f} s; the cluster has {free:g} CPUs free"
            )

    def evaluate(self, iteration: int, weights_ref: Any) -> bytes:
        ray = self.ray
        if self.evaluator is None:
            cls = ray.remote(num_cpus=0, max_restarts=MAX_RESTARTS, max_task_retries=0)(
                _EvaluatorActor
            )
            self.evaluator = cls.remote(self.learner.config_toml, self.a["threads_per_worker"])
        for tries in range(1, MAX_CHUNK_TRIES + 1):
            try:
                return ray.get(self.evaluator.evaluate.remote(weights_ref, iteration))
            except ray.exceptions.RayTaskError as e:
                raise RayTrainError(
                    f"the evaluation of iteration {iteration} failed: {_cause(e)}"
                ) from None
            except ray.exceptions.RayActorError as e:
                if tries == MAX_CHUNK_TRIES or (
                    isinstance(e, ray.exceptions.ActorDiedError)
                    and not isinstance(e, ray.exceptions.ActorUnavailableError)
                    and getattr(e, "actor_init_failed", False)
                ):
                    raise RayTrainError(
                        f"the evaluation of iteration {iteration} failed: {_cause(e)}"
                    ) from None
                self.log(
                    f"the evaluator died ({_cause(e)}); the evaluation of iteration {iteration} runs again"
                )
        raise AssertionError("unreachable")

    def publish(self, dispatcher: _Dispatcher, version: int, weights: bytes, allowed: int) -> Any:
        """Shares the weights of `version` (once) and opens the iterations up to `allowed`; returns
        the reference of the true weights (for the evaluator)."""
        ref = self.ray.put(weights)
        hook = _hook(self.hooks, "weights")
        shipped = self.ray.put(hook(version, weights)) if hook is not None else ref
        dispatcher.publish(version, shipped, allowed)
        return ref

    def run(self) -> dict[str, Any]:
        from bao_zero._core import Progress

        learner, a = self.learner, self.a
        asynchronous = a["mode"] == "async"
        lag = a["max_staleness"] if asynchronous else 0
        start = learner.iteration
        end = (
            learner.iterations
            if a["iterations"] is None
            else min(learner.iterations, start + a["iterations"])
        )
        games = learner.games_per_iteration
        chunk = a["chunk"] or max(1, math.ceil(games / (4 * a["workers"])))
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
        summary["worker_nodes"] = [w.node_id for w in self.workers]
        events: queue.Queue[tuple] = queue.Queue()
        dispatcher = _Dispatcher(
            self.workers, games, chunk, start, end, self.hooks, events, self.log
        )
        weights_ref = self.publish(dispatcher, start, learner.weights(), start + 1 + lag)
        dispatcher.start()
        parts: dict[int, list[bytes]] = collections.defaultdict(list)
        done: dict[int, int] = collections.defaultdict(int)
        began: dict[int, float] = {}
        last: dict[int, float] = {}
        stale_games = stale_sum = 0
        try:
            for j in range(start + 1, end + 1):
                bar = Progress(games, f"iteration {j}", a["quiet"])
                bar.set(done[j])
                while done[j] < games:
                    try:
                        event = events.get(timeout=1.0)
                    except queue.Empty:
                        if not dispatcher.is_alive():
                            raise RayTrainError("the dispatcher stopped") from None
                        continue
                    if event[0] == "error":
                        raise RayTrainError(event[1])
                    if event[0] == "start":
                        began[event[1]] = event[2]
                        continue
                    _, c, version, part, at = event
                    parts[c.iteration].append(part)
                    done[c.iteration] += c.count
                    last[c.iteration] = at
                    staleness = c.iteration - 1 - version
                    stale_games += c.count
                    stale_sum += staleness * c.count
                    summary["max_staleness"] = max(summary["max_staleness"], staleness)
                    if c.iteration == j:
                        bar.set(done[j])
                bar.finish()
                seconds = last[j] - began.get(j, last[j])
                learner.train(j, parts.pop(j), seconds)
                weights = learner.weights()
                if asynchronous:  # the workers play on with the new weights while this evaluates
                    weights_ref = self.publish(dispatcher, j, weights, j + 1 + lag)
                    evaluation = self.evaluate(j, weights_ref) if learner.eval_due(j) else None
                else:
                    ref = self.ray.put(weights)
                    evaluation = self.evaluate(j, ref) if learner.eval_due(j) else None
                metrics = learner.commit(j, evaluation)
                if not asynchronous:
                    weights_ref = self.publish(dispatcher, j, weights, j + 1)
                summary.update(
                    last_iteration=j,
                    iterations=j - start,
                    games=(j - start) * games,
                    metrics=metrics,
                )
                hook = _hook(self.hooks, "on_iteration")
                if hook is not None:
                    hook(metrics)
        finally:
            dispatcher.stop()
            dispatcher.join(timeout=10)
            summary["replayed_chunks"] = dispatcher.replayed
        summary["mean_staleness"] = stale_sum / stale_games if stale_games else 0.0
        summary["seconds"] = time.monotonic() - t0
        summary["worker_nodes"] = [w.node_id for w in self.workers]
        if not a["quiet"]:
            nodes = len(set(summary["worker_nodes"]))
            print(
                f"ray_train: iterations {start + 1}..{summary['last_iteration']} of {learner.iterations} "
                f"in {summary['seconds']:.1f} s ({summary['games']} games on {a['workers']} workers, "
                f"{nodes} node{'s' if nodes != 1 else ''}, {a['mode']}); mean staleness "
                f"{summary['mean_staleness']:.2f}; {summary['replayed_chunks']} chunk(s) played again; "
                f"run in {learner.run_dir}"
            )
        return summary

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
        "--chunk", type=int, help="games per task (default: about 4 tasks per worker per iteration)"
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
    except (RayTrainError, ValueError, OSError) as e:
        print(f"error: {_one_line(str(e), 1000)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
