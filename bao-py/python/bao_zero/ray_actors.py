"""The Ray actors of :mod:`bao_zero.ray_train` (the self-play workers and the evaluator), how
they are started, and how their failures read: one line each.

Ray restarts a dead actor (``max_restarts``). It plays a dead evaluator's evaluation again by
itself (``max_task_retries``); a dead worker's chunk of games it does not (see
:func:`start_workers`): :mod:`bao_zero.ray_dispatch` hands that chunk to a free worker."""

from __future__ import annotations

import dataclasses
import os
from typing import Any

#: How often Ray restarts a dead worker (and the evaluator): a chunk that kills every worker it
#: is given stops the run once they are all spent.
MAX_RESTARTS = 4
#: Seconds the workers get to start (be placed and build their SelfPlayWorker).
START_TIMEOUT = 120.0


class RayTrainError(RuntimeError):
    """A run that cannot go on; the message is one line."""


@dataclasses.dataclass
class WorkerInfo:
    """A self-play worker as the hooks see it: ``actor`` is the Ray actor handle (``info()``
    besides ``play``), ``pid`` its process id (as of its last start) and ``node_id`` the Ray
    node it runs on."""

    index: int
    actor: Any
    pid: int = 0
    node_id: str = ""
    alive: bool = True


def import_ray() -> Any:
    """The `ray` module, without its usage statistics; a one-line error when it is missing."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        raise RayTrainError("bao_zero.ray_train needs Ray: pip install ray") from None
    return ray


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


# Each actor wraps one Rust object; nothing else is cached (the Rust side keeps the decoded
# network of the last version it was given).


class SelfPlayActor:
    def __init__(self, config_toml: str, threads: int) -> None:
        from bao_zero._core import SelfPlayWorker

        self._worker = SelfPlayWorker(config_toml, threads)

    def info(self) -> tuple[int, str]:
        """Its process id and Ray node: where it (re)started."""
        import ray

        return os.getpid(), ray.get_runtime_context().get_node_id()

    def play(self, weights: bytes, version: int, iteration: int, first: int, count: int) -> bytes:
        return self._worker.play(weights, version, iteration, first, count)


class EvaluationActor:
    def __init__(self, config_toml: str, threads: int) -> None:
        from bao_zero._core import EvaluationWorker

        self._evaluator = EvaluationWorker(config_toml, threads)

    def evaluate(self, weights: bytes, iteration: int) -> bytes:
        return self._evaluator.evaluate(weights, iteration)


def start_workers(ray: Any, config_toml: str, count: int, threads: int) -> list[WorkerInfo]:
    """`count` self-play workers of `threads` threads (and Ray CPUs) each, spread over the nodes,
    once they have all started (a one-line error if they cannot start or be placed in time).

    Ray does not play a dead worker's chunk again (``max_task_retries=0``): it would play it on
    the same actor once that is back, so a worker that cannot come back (its node lost and no
    room on the others) would hold its chunks, and the run, for good. The dispatcher hands such
    a chunk to a free worker instead; a chunk's games depend only on its arguments, so whoever
    plays it makes the same bytes."""
    cls = ray.remote(num_cpus=threads, max_restarts=MAX_RESTARTS, max_task_retries=0)(SelfPlayActor)
    spread = cls.options(scheduling_strategy="SPREAD")
    workers = [WorkerInfo(i, spread.remote(config_toml, threads)) for i in range(count)]
    refs = {w.actor.info.remote(): w for w in workers}
    ready, waiting = ray.wait(list(refs), num_returns=len(refs), timeout=START_TIMEOUT)
    for ref in ready:
        try:
            refs[ref].pid, refs[ref].node_id = ray.get(ref)
        except ray.exceptions.RayError as e:
            raise RayTrainError(f"worker {refs[ref].index} could not start: {cause(e)}") from None
    if waiting:
        free = ray.available_resources().get("CPU", 0)
        raise RayTrainError(
            f"{len(waiting)} of {count} workers ({threads} CPUs each) were not placed within "
            f"{START_TIMEOUT:.0f} s; the cluster has {free:g} CPUs free"
        )
    return workers


def start_evaluator(ray: Any, config_toml: str, threads: int) -> Any:
    """The evaluator actor (no CPU reserved, so it fits on any node). Ray restarts it when it
    dies and plays the evaluation under way again on it (the same games: they follow from the
    iteration's seed)."""
    cls = ray.remote(num_cpus=0, max_restarts=MAX_RESTARTS, max_task_retries=MAX_RESTARTS)(
        EvaluationActor
    )
    return cls.remote(config_toml, threads)
