"""Batches of work spread over a fixed set of workers: sandbox fork servers or judge workers."""

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
    closes its workers (anything with a ``close()``) at the end.

    ``workers`` is either the workers themselves or a function that starts one (called ``count``
    times). Started ones are started on the pool's own threads, which live as long as the pool: a
    sandboxed process dies with the thread that started it (bubblewrap's die-with-parent), so it must
    not be started on a thread that ends before it should."""

    def __init__(self, workers: Sequence[W] | Callable[[], W], batch_size: int, count: int = 1) -> None:
        size = count if callable(workers) else len(workers)
        self._threads = ThreadPoolExecutor(max_workers=max(1, size), thread_name_prefix="dynbench-pool")
        self.batch_size = batch_size
        if callable(workers):
            futures = [self._threads.submit(workers) for _ in range(count)]
            started, failure = [], None
            for future in futures:
                try:
                    started.append(future.result())
                except Exception as error:  # noqa: BLE001 - close what did start, then report the failure
                    failure = failure or error
            if failure is not None:
                self.workers = started
                self.close()
                raise failure
            self.workers = started
        else:
            self.workers = list(workers)
        self._free = list(self.workers)
        self._lock = threading.Lock()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for worker in self.workers:
            closer = getattr(worker, "close", None)
            if closer is not None:
                closer()
        self._threads.shutdown(wait=False)

    def _on_free_worker(self, work: Callable[[W, list[T]], list[R]], batch: list[T]) -> list[R]:
        with self._lock:
            worker = self._free.pop()
        try:
            return work(worker, batch)
        finally:
            with self._lock:
                self._free.append(worker)

    def map(self, work: Callable[[W, list[T]], list[R]], items: Sequence[T],
            progress: Callable[[int], None] | None = None, largest_batch: int | None = None) -> list[R]:
        """``work(worker, batch)`` for every batch (of at most ``largest_batch`` items, else the pool's
        batch size); ``progress(n)`` as each batch of ``n`` finishes."""
        # Several batches per worker, so that one slow batch cannot keep the others idle for long.
        size = max(1, min(largest_batch or self.batch_size, math.ceil(len(items) / (4 * len(self.workers)))))
        batches = [list(items[i : i + size]) for i in range(0, len(items), size)]
        futures = [self._threads.submit(self._on_free_worker, work, batch) for batch in batches]
        results: list[R] = []
        for batch, future in zip(batches, futures, strict=True):
            results.extend(future.result())
            if progress is not None:
                progress(len(batch))
        return results
