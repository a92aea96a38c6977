"""Model runs side by side: independent detector runs (a whole table's places, its sides) run
at once, one a worker, each on its share of the cores; so do a small photo's reads again at the
usual squeezes undone and smoothed (`CardReader.read`), each whole read on a worker.

Measured on 2 cores, the table detector on 12 places it searched in whole-table photos: 281 ms
two at a time on one thread each, against 454 ms one after the other on two threads (568 ms on
one). Its confidences differ from a two-thread run's in the seventh digit at most. A 640 px
frame read seven ways (`benchmarks/bench_reader.py`): 413 ms one read after the other, 354 ms
two at a time, every card and confidence the same."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def usable_cores() -> int:
    """The cores this process may run on (a container's share, where the system says)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


WORKERS = min(2, usable_cores())
"""Model runs at once: a table has two to six places or sides to search at a time."""

THREADS_PER_RUN = max(1, usable_cores() // WORKERS)
"""ONNX Runtime's threads for each run, so that the workers together use every core once."""

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
_in_worker = threading.local()


def _worker_pool() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(
                max_workers=WORKERS, thread_name_prefix="blackcat-model", initializer=_mark_worker
            )
        return _pool


def _mark_worker() -> None:
    _in_worker.active = True


def in_worker() -> bool:
    """Whether this thread is one of the workers (which then runs what it is given itself)."""
    return getattr(_in_worker, "active", False)


def parallel_map(work: Callable[[Item], Result], items: Iterable[Item]) -> list[Result]:
    """`work` done on each item, results in the items' order: on the workers where there are
    several items and several workers, else here, one after the other. Called from a worker,
    it works here too (a worker waiting for the others could wait forever). An exception in
    any item's work is raised here."""
    items = list(items)
    if len(items) < 2 or WORKERS < 2 or in_worker():
        return [work(item) for item in items]
    return list(_worker_pool().map(work, items))
