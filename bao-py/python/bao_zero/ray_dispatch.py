"""Self-play on the workers of :mod:`bao_zero.ray_train`: chunks of games handed to the workers,
their parts taken back, in the driver's own thread (``ray.wait`` over the tasks in flight).

What is this project's own is the staleness gate (:meth:`SelfPlay.open`): which iterations' games
may be played, and with which network version. The rest is Ray's: its actors play the chunks,
its restarts bring dead workers back. A dead worker's chunk is handed to the next free worker (see
:func:`bao_zero.ray_actors.start_workers` for why Ray does not retry it), and a worker whose
restarts are spent, or that does not come back in time, is left out while the others play on."""

from __future__ import annotations

import collections
import dataclasses
import time
from collections.abc import Callable
from typing import Any

from bao_zero.ray_actors import RayTrainError, WorkerInfo, cause

#: Seconds a restarting worker gets to come back before it counts as gone.
RESTART_TIMEOUT = 120.0


@dataclasses.dataclass(frozen=True)
class Chunk:
    iteration: int
    first: int
    count: int

    def games(self) -> str:
        return f"games {self.first}..{self.first + self.count} of iteration {self.iteration}"


class Parts:
    """The parts that have come in, by iteration, and the staleness of their games."""

    def __init__(self) -> None:
        self.parts: dict[int, list[bytes]] = collections.defaultdict(list)
        self.games: dict[int, int] = collections.defaultdict(int)
        self.began: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.stale_games = self.stale_sum = self.max_staleness = 0

    def add(self, chunk: Chunk, version: int, part: bytes) -> None:
        j = chunk.iteration
        self.parts[j].append(part)
        self.games[j] += chunk.count
        self.last[j] = time.monotonic()
        staleness = j - 1 - version
        self.stale_games += chunk.count
        self.stale_sum += staleness * chunk.count
        self.max_staleness = max(self.max_staleness, staleness)

    def seconds(self, j: int) -> float:
        """Self-play's wall-clock time for iteration `j`: first chunk out to last part in."""
        return self.last[j] - self.began.get(j, self.last[j])

    def mean_staleness(self) -> float:
        return self.stale_sum / self.stale_games if self.stale_games else 0.0


class SelfPlay:
    """Hands the chunks of the open iterations to the workers and collects their parts.

    Each worker has at most `depth` chunks at a time (Ray queues them on the actor): one
    balances the load best; two keep a worker busy while the driver trains, in asynchronous mode.
    ``after_dispatch(iteration, workers)`` is called once the first chunks of an iteration are
    in flight; `log` takes the lines that say a worker died."""

    def __init__(
        self,
        ray: Any,
        workers: list[WorkerInfo],
        games: int,
        chunk: int,
        end: int,
        depth: int,
        after_dispatch: Callable[[int, list[WorkerInfo]], Any] | None,
        log: Callable[[str], None],
    ) -> None:
        self.ray, self.workers, self.depth = ray, workers, depth
        # Games per iteration, games per chunk, the last iteration of this invocation.
        self.games, self.chunk, self.end = games, chunk, end
        self.after_dispatch, self.log = after_dispatch, log
        self.weights: tuple[int, Any] | None = None  # (version, ObjectRef)
        self.opened: int | None = None  # the last iteration whose chunks are queued
        self.pending: collections.deque[Chunk] = collections.deque()
        self.load = [0] * len(workers)  # chunks in flight, by worker
        self.in_flight: dict[Any, tuple[WorkerInfo, Chunk, int]] = {}
        self.restarting: dict[Any, tuple[WorkerInfo, float]] = {}  # probe -> (worker, deadline)
        self.parts = Parts()
        self.replayed = 0

    def open(self, version: int, weights_ref: Any, through: int) -> None:
        """The staleness gate: from now on chunks are played with the weights of `version`, and
        those of the iterations up to `through` (at most the last) may be handed out."""
        self.weights = (version, weights_ref)
        first = version + 1 if self.opened is None else self.opened + 1
        for j in range(first, min(through, self.end) + 1):
            for g in range(0, self.games, self.chunk):
                self.pending.append(Chunk(j, g, min(self.chunk, self.games - g)))
            self.opened = j

    def collect(self, j: int, progress: Callable[[int], None]) -> list[bytes]:
        """Plays on until every game of iteration `j` is in; its parts (any order: the learner
        puts their games in order). `progress` is told the games in so far."""
        progress(self.parts.games[j])
        while self.parts.games[j] < self.games:
            self._serve(None)
            progress(self.parts.games[j])
        return self.parts.parts.pop(j)

    def wait(self, ref: Any) -> None:
        """Plays on until `ref` (an evaluation) is ready."""
        while not self._serve(ref):
            pass

    def _serve(self, ref: Any) -> bool:
        """Hands out what it can and handles the first task to finish; whether it was `ref`."""
        self._hand_out()
        waiting = [*self.in_flight, *self.restarting, *([ref] if ref is not None else [])]
        if not waiting:
            raise RayTrainError("self-play has nothing in flight and nothing to hand out")
        deadline = min((d for _, d in self.restarting.values()), default=None)
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        done, _ = self.ray.wait(waiting, num_returns=1, timeout=timeout)
        if not done:  # a restart took too long
            self._overdue()
        elif done[0] in self.in_flight:
            self._chunk_done(done[0])
        elif done[0] in self.restarting:
            self._probe_done(done[0])
        else:
            return True
        return False

    def _hand_out(self) -> None:
        if self.weights is None:
            return
        version, ref = self.weights
        begun = []
        busy = self._restarting()
        ready = [w for w in self.workers if w.alive and w.index not in busy]
        while self.pending and ready:
            worker = min(ready, key=lambda w: self.load[w.index])
            if self.load[worker.index] >= self.depth:
                break
            chunk = self.pending.popleft()
            if chunk.iteration not in self.parts.began:
                self.parts.began[chunk.iteration] = time.monotonic()
                begun.append(chunk.iteration)
            task = worker.actor.play.remote(ref, version, chunk.iteration, chunk.first, chunk.count)
            self.in_flight[task] = (worker, chunk, version)
            self.load[worker.index] += 1
        for j in begun:
            if self.after_dispatch is not None:
                self.after_dispatch(j, list(self.workers))

    def _restarting(self) -> set[int]:
        return {w.index for w, _ in self.restarting.values()}

    def _chunk_done(self, task: Any) -> None:
        ray = self.ray
        worker, chunk, version = self.in_flight.pop(task)
        self.load[worker.index] -= 1
        try:
            part = ray.get(task)
        except ray.exceptions.RayTaskError as e:
            raise RayTrainError(
                f"worker {worker.index} failed on {chunk.games()}: {cause(e)}"
            ) from None
        except ray.exceptions.RayActorError as e:
            self.log(f"worker {worker.index} died ({cause(e)}); {chunk.games()} are played again")
            self.replayed += 1
            self.pending.appendleft(chunk)
            if worker.alive and worker.index not in self._restarting():
                self._probe(worker, time.monotonic() + RESTART_TIMEOUT)
            return
        self.parts.add(chunk, version, part)

    def _probe(self, worker: WorkerInfo, deadline: float) -> None:
        """Asks a dead worker where it restarted: Ray answers once it is back."""
        self.restarting[worker.actor.info.remote()] = (worker, deadline)

    def _probe_done(self, probe: Any) -> None:
        ray = self.ray
        worker, deadline = self.restarting.pop(probe)
        try:
            worker.pid, worker.node_id = ray.get(probe)
        except ray.exceptions.ActorUnavailableError:  # the probe met the restart: ask again
            self._probe(worker, deadline)
        except ray.exceptions.RayActorError as e:
            self._gone(worker, cause(e))

    def _overdue(self) -> None:
        now = time.monotonic()
        for probe, (worker, deadline) in list(self.restarting.items()):
            if deadline <= now:
                del self.restarting[probe]
                self._gone(worker, "it did not come back")

    def _gone(self, worker: WorkerInfo, why: str) -> None:
        worker.alive = False
        if not any(w.alive for w in self.workers):
            raise RayTrainError(f"every worker is gone, the last one worker {worker.index}: {why}")
        self.log(f"worker {worker.index} is gone ({why}); the others play on")
