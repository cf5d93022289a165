"""Batches of work spread over a fixed set of workers: sandbox fork servers or judge JVMs."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Generic, TypeVar

W = TypeVar("W")
T = TypeVar("T")
R = TypeVar("R")


class WorkerPool(Generic[W]):
    """Batches of items go to a fixed set of workers, each busy with one batch at a time, all in
    parallel; ``map`` returns one result per item, in item order. Used as a context manager, it
    closes its workers (anything with a ``close()``) at the end."""

    def __init__(self, workers: Sequence[W], batch_size: int) -> None:
        self.workers = list(workers)
        self.batch_size = batch_size
        self._free = list(self.workers)
        self._lock = threading.Lock()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for worker in self.workers:
            worker.close()

    def _on_free_worker(self, work: Callable[[W, list[T]], list[R]], batch: list[T]) -> list[R]:
        with self._lock:
            worker = self._free.pop()
        try:
            return work(worker, batch)
        finally:
            with self._lock:
                self._free.append(worker)

    def map(self, work: Callable[[W, list[T]], list[R]], items: Sequence[T],
            progress: Callable[[int], None] | None = None) -> list[R]:
        """``work(worker, batch)`` for every batch; ``progress(n)`` as each batch of ``n`` finishes."""
        # Several batches per worker, so that one slow batch cannot keep the others idle for long.
        size = max(1, min(self.batch_size, math.ceil(len(items) / (4 * len(self.workers)))))
        batches = [list(items[i : i + size]) for i in range(0, len(items), size)]
        results: list[R] = []
        with ThreadPoolExecutor(max_workers=len(self.workers)) as pool:
            futures = [pool.submit(self._on_free_worker, work, batch) for batch in batches]
            for batch, future in zip(batches, futures, strict=True):
                results.extend(future.result())
                if progress is not None:
                    progress(len(batch))
        return results
