"""The Ray side of :mod:`bao_zero.ray_train`: the actors (a self-play worker, the evaluator),
the dispatcher that hands chunks of games to idle workers and plays again the chunk of a worker
that died, and the one-line errors a run stops with."""

from __future__ import annotations

import collections
import dataclasses
import os
import queue
import threading
import time
from typing import Any, Callable, Optional

#: How often a chunk of games is handed out again after the workers playing it died.
MAX_CHUNK_TRIES = 4
#: Seconds a restarting worker gets to come back before it counts as gone.
RESTART_TIMEOUT = 120.0


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
class Chunk:
    iteration: int
    first: int
    count: int

    def games(self) -> str:
        return f"games {self.first}..{self.first + self.count} of iteration {self.iteration}"


# The actors. Each wraps one Rust object; nothing else is cached (the Rust side keeps the decoded
# network of the last version it was given).


class SelfPlayActor:
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


class EvaluatorActor:
    def __init__(self, config_toml: str, threads: int) -> None:
        from bao_zero._core import Evaluator

        self._evaluator = Evaluator(config_toml, threads)

    def evaluate(self, weights: bytes, iteration: int) -> bytes:
        return self._evaluator.evaluate(weights, iteration)


def hook_of(hooks: Any, name: str) -> Optional[Callable[..., Any]]:
    """The hook `name` of `hooks` (a dict or an object of callables), if there is one."""
    if hooks is None:
        return None
    if isinstance(hooks, dict):
        return hooks.get(name)
    return getattr(hooks, name, None)


def one_line(text: str, limit: int = 300) -> str:
    """`text` on one line, cut to `limit` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def cause(error: BaseException) -> str:
    """The original exception of a Ray error as ``Type: message``, one line."""
    import ray

    if isinstance(error, ray.exceptions.RayTaskError) and error.cause is not None:
        return one_line(f"{type(error.cause).__name__}: {error.cause}")
    if isinstance(error, ray.exceptions.ActorDiedError) and getattr(
        error, "actor_init_failed", False
    ):
        # The creation task's traceback ends with "ValueError: ...".
        lines = [ln.strip() for ln in str(error).splitlines() if ln.strip()]
        return one_line(f"it could not start: {lines[-1]}" if lines else "it could not start")
    return type(error).__name__


def quiet_worker_deaths() -> None:
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


def import_ray():
    """The `ray` module, without its usage statistics; a one-line error when it is missing."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        raise RayTrainError("bao_zero.ray_train needs Ray: pip install ray") from None
    return ray


class Dispatcher(threading.Thread):
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
        self.ray = import_ray()
        self.workers = workers
        self.games, self.chunk, self.end = games, chunk, end
        self.hooks, self.events, self.log = hooks, events, log
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.allowed = start  # the last iteration whose games may be handed out
        self.weights: Optional[tuple[int, Any]] = None  # (version, ObjectRef)
        self.next_iteration = start + 1  # the first iteration not yet in the queue
        self.pending: collections.deque[Chunk] = collections.deque()
        self.idle: collections.deque[WorkerInfo] = collections.deque(workers)
        self.in_flight: dict[Any, tuple[WorkerInfo, Chunk, int]] = {}
        self.pings: dict[Any, tuple[WorkerInfo, float]] = {}
        self.tries: dict[Chunk, int] = {}
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
            self.events.put(("error", one_line(f"the dispatcher failed: {type(e).__name__}: {e}")))

    def _hand_out(self) -> None:
        with self.lock:
            allowed, weights = self.allowed, self.weights
        while self.next_iteration <= allowed:
            j = self.next_iteration
            for first in range(0, self.games, self.chunk):
                self.pending.append(Chunk(j, first, min(self.chunk, self.games - first)))
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
        hook = hook_of(self.hooks, "after_dispatch")
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
                f"worker {worker.index} failed on {chunk.games()}: {cause(e)}"
            ) from None
        except ray.exceptions.RayActorError as e:
            tries = self.tries[chunk] = self.tries.get(chunk, 0) + 1
            if tries >= MAX_CHUNK_TRIES:
                raise RayTrainError(
                    f"{chunk.games()} were lost {tries} times, the last time with worker "
                    f"{worker.index} ({cause(e)}); giving up"
                ) from None
            self.log(f"worker {worker.index} died ({cause(e)}); {chunk.games()} are played again")
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
            self._gone(worker, cause(e))
        else:
            self.idle.append(worker)

    def _gone(self, worker: WorkerInfo, why: str) -> None:
        worker.alive = False
        if not any(w.alive for w in self.workers):
            raise RayTrainError(f"every worker is gone, the last one worker {worker.index}: {why}")
        self.log(f"worker {worker.index} is gone ({why}); the others play on")
