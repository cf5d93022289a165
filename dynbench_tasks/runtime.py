"""Process-wide resources of an evaluation, each started on first use and closed at exit: the
Python sandbox pool and the Java judge pool. Where a launcher runs several evaluation processes on
one machine (``accelerate launch``, ``torchrun``, ``mpirun``), they share its cores out between them."""

from __future__ import annotations

import atexit
import logging
import os
import threading
from collections.abc import Callable

# How many evaluation processes a launcher started on this machine: torchrun (and accelerate, which
# uses it), then Open MPI and MPICH.
LOCAL_PROCESSES_VARIABLES = ("LOCAL_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS")
logger = logging.getLogger("lm_eval.dynbench")
_started: dict[str, object] = {}
_lock = threading.Lock()


def local_processes() -> int:
    for name in LOCAL_PROCESSES_VARIABLES:
        value = os.environ.get(name, "")
        if value.isdigit() and int(value) > 0:
            return int(value)
    return 1


def default_workers() -> int:
    """This process's share of the cores it may run on."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, cores // local_processes())


def _shared(name: str, workers_variable: str, start: Callable[[int], object], spare: int = 0):
    with _lock:
        if name not in _started:
            workers = int(os.environ.get(workers_variable, "0") or 0) or default_workers() + spare
            logger.info("%s: %d workers (%s=%s; %d evaluation processes on this machine)", name, workers,
                        workers_variable, os.environ.get(workers_variable, "unset"), local_processes())
            resource = start(workers)
            atexit.register(resource.close)
            _started[name] = resource
        return _started[name]


def shared_sandbox(hash_seed: int | None = None):
    """The sandbox for equivalence checks and scoring (``DYNBENCH_SANDBOX_WORKERS`` workers, default
    this process's share of the cores); with ``hash_seed``, a build's: one whose processes all use that
    PYTHONHASHSEED, and which runs a task a wall-clock deadline stopped once more (``Sandbox.rerun_stalled``)."""
    from dynbench_tasks.locations import data_locations
    from mutators.execution import Sandbox

    name = "sandbox" if hash_seed is None else f"sandbox (PYTHONHASHSEED={hash_seed})"
    return _shared(name, "DYNBENCH_SANDBOX_WORKERS",
                   lambda workers: Sandbox(workers=workers, hidden=data_locations(), hash_seed=hash_seed,
                                           rerun_stalled=hash_seed is not None))


def shared_java_judge():
    """The Java judge for translation scoring (``DYNBENCH_JAVA_WORKERS`` JVMs, default this process's
    share of the cores plus :data:`~dynbench_tasks.judge.pool.SPARE_JVMS`)."""
    from dynbench_tasks.judge.pool import SPARE_JVMS, JavaJudge
    from dynbench_tasks.locations import data_locations

    return _shared("java", "DYNBENCH_JAVA_WORKERS",
                   lambda workers: JavaJudge(workers=workers, hidden=data_locations()), SPARE_JVMS)
