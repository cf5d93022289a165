"""Mutating programs nobody vouches for (``dynbench mutate --input``), so that no program stops the
rest: a size limit before anything is parsed, then each program mutated in a worker process that is
killed at a deadline, or may die, without taking its caller along; the next program gets a new one.

A process, because nothing in-process can interrupt libcst. Its parser is native code (a signal
handler runs only once it returns), it is quadratic in the length of a chain of binary operators
(1,000 / 2,000 / 4,000 terms of ``x + x + …`` parse in 0.3 / 1.2 / 6.1 s; 5,000 terms, 10-25 KB,
take 13-29 s, past 60 s on a loaded machine) and it overflows its stack on deep nesting, which kills
the process (``[`` nested a few thousand deep; LibCST issue #619). So before libcst sees a program,
the worker has CPython compile it: CPython refuses in milliseconds what is too deep for it
(RecursionError, MemoryError, "too many nested parentheses"), and a program CPython cannot compile
ends ``unparseable`` in the engine anyway.

``python -m mutators.guarded`` is the worker: it answers jobs on stdin with results on stdout.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING

from mutators.errors import DynbenchError
from mutators.programs import CRASHED, TIMEOUT, TOO_LARGE, UNPARSEABLE

if TYPE_CHECKING:  # the engine (and libcst) load when the first program comes: the command line imports this
    from mutators.chain import Chain
    from mutators.engine import MutationResult

DEFAULT_MAX_BYTES = 200_000  # per program, in UTF-8
DEFAULT_SECONDS = 10.0  # per program: its whole chain, from the job sent to the result back
STARTUP_SECONDS = 120.0  # for a worker to import libcst on a loaded machine
_READY = "ready"


class WorkerError(DynbenchError):
    """The worker process could not start at all (no program is to blame)."""


class GuardedMutator:
    """:func:`mutators.engine.mutate` with a size limit and a deadline per program; call it as
    ``mutate`` is called (e.g. as ``mutate_one`` of ``dynbench_tasks.mutation.mutate_programs``).
    Close it, or use it in a ``with`` block, to end its worker."""

    def __init__(self, *, max_bytes: int = DEFAULT_MAX_BYTES, seconds: float = DEFAULT_SECONDS) -> None:
        self.max_bytes, self.seconds = max_bytes, seconds
        self._worker: _Worker | None = _Worker()  # starts now: it imports libcst while the caller gets ready

    def __call__(self, code: str, chain: str | Chain, seed: int, **where) -> MutationResult:
        from mutators.chain import parse_chain

        chain = parse_chain(chain) if isinstance(chain, str) else chain
        try:
            size = len(code.encode("utf-8"))
        except UnicodeEncodeError as error:  # a lone surrogate: the file's bytes at this point were not UTF-8
            return _ended(code, chain, seed, UNPARSEABLE, f"not UTF-8 text (character {error.start})")
        if size > self.max_bytes:
            return _ended(code, chain, seed, TOO_LARGE, f"{size:,} bytes, over the limit of {self.max_bytes:,}")
        if self._worker is None:
            self._worker = _Worker()
        try:
            return self._worker.mutate((code, chain, seed, where), self.seconds)
        except _Stopped as stopped:
            self._worker.close()
            self._worker = None
            return _ended(code, chain, seed, stopped.status, stopped.reason)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    def __enter__(self) -> GuardedMutator:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class _Stopped(Exception):
    """The worker did not answer: it overran the deadline (and was killed) or it died."""

    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


def _ended(code: str, chain: Chain, seed: int, status: str, reason: str) -> MutationResult:
    from mutators.engine import MutationResult

    return MutationResult(code=code, status=status, reason=reason, chain=chain.spec, seed=seed)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def _named(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


class _Worker:
    """One worker process, spoken to through two pipes."""

    def __init__(self) -> None:
        # The worker's stderr, kept until close(): its last line says why the worker died.
        self._log = tempfile.TemporaryFile()  # noqa: SIM115
        jobs_out, jobs_in = os.pipe()
        results_out, results_in = os.pipe()
        package_root = str(Path(__file__).resolve().parent.parent)  # the worker imports this copy of mutators
        path = os.pathsep.join(filter(None, (package_root, os.environ.get("PYTHONPATH"))))
        try:
            self._process = subprocess.Popen([sys.executable, "-m", __name__], stdin=jobs_out, stdout=results_in,
                                             stderr=self._log, env=dict(os.environ, PYTHONPATH=path))
        except OSError as error:
            for end in (jobs_in, results_out):
                os.close(end)
            self._log.close()
            raise WorkerError(f"the mutation worker ({sys.executable} -m {__name__}) did not start: {error}") from None
        finally:
            os.close(jobs_out)
            os.close(results_in)
        self._jobs = Connection(jobs_in, readable=False)
        self._results = Connection(results_out, writable=False)
        self._ready = False

    def mutate(self, job: tuple, seconds: float) -> MutationResult:
        if not self._ready:
            self._await_ready()
        try:
            self._jobs.send((*job, seconds))
            if not self._results.poll(seconds):
                raise _Stopped(TIMEOUT, f"mutation took longer than {seconds:g} s; its process was killed")
            return self._results.recv()
        except (EOFError, OSError):
            raise _Stopped(*self._death()) from None

    def _await_ready(self) -> None:
        try:
            if self._results.poll(STARTUP_SECONDS) and self._results.recv() == _READY:
                self._ready = True
                return
        except (EOFError, OSError):
            pass
        try:
            returncode = self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            returncode = None
        why = self._last_words() or (f"exit status {returncode}" if returncode is not None else
                                     f"not ready after {STARTUP_SECONDS:g} s")
        self.close()
        raise WorkerError(f"the mutation worker ({sys.executable} -m {__name__}) did not start: {why}")

    def _death(self) -> tuple[str, str]:
        returncode = self._process.wait()
        if returncode == -signal.SIGXCPU:  # the worker's own CPU limit, set beside the deadline
            return TIMEOUT, "mutation used more CPU time than its deadline allows; its process was killed"
        how = f"signal {_signal_name(-returncode)}" if returncode < 0 else f"exit status {returncode}"
        last_words = self._last_words()
        return CRASHED, f"its process died ({how})" + (f": {last_words}" if last_words else "")

    def _last_words(self) -> str:
        self._log.seek(0)
        lines = self._log.read().decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else ""

    def close(self) -> None:
        self._jobs.close()
        self._results.close()
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        self._log.close()


def _serve() -> None:
    """The worker: a result for each job, until its caller closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the caller, which then closes this worker
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a worker killed for CPU time leaves no core file
    jobs = Connection(os.dup(0), writable=False)
    results = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)  # a stray print lands in the log, never among the results
    import mutators.engine  # noqa: F401 - ready means ready to mutate: libcst loaded

    results.send(_READY)
    while True:
        try:
            code, chain, seed, where, seconds = jobs.recv()
        except EOFError:
            return
        _limit_cpu(seconds)
        results.send(_mutate_vetted(code, chain, seed, where))


def _limit_cpu(seconds: float) -> None:
    """The kernel's deadline beside the caller's: a worker whose caller is gone stops all the same."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(usage.ru_utime + usage.ru_stime + seconds) + 2
    resource.setrlimit(resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))


def _mutate_vetted(code: str, chain: Chain, seed: int, where: dict) -> MutationResult:
    from mutators.engine import compile_error, forget_parsed_programs, mutate

    error = compile_error(code, "<program>")
    if error is not None:
        return _ended(code, chain, seed, UNPARSEABLE, _named(error))
    try:
        return mutate(code, chain, seed, **where)
    except BaseException as error:  # noqa: BLE001 - whatever libcst raises (a Rust panic too) ends this program only
        return _ended(code, chain, seed, CRASHED, _named(error))
    finally:
        forget_parsed_programs()


if __name__ == "__main__":
    _serve()
