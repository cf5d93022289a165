"""Compile and run Java programs, fast and contained (the Java side is in ``java/dynbench``).

A warm compiler JVM per worker compiles a whole batch of translations in memory with one
``javax.tools`` call; it never runs them. Every compiled program then runs in a fresh JVM of its own
(``dynbench.Runner``), so nothing one program leaves behind (threads, static state, output) can reach
another's result. Both kinds of JVM run behind the sandbox boundary of :mod:`mutators.execution`
(bubblewrap where it works: no network, no view of other processes or of any home or data folder)
with a heap cap and process, file-size and open-file limits. Every verdict is computed by the caller
from what each test printed and recorded; expected outputs and reference code never enter a JVM.
"""

from __future__ import annotations

import glob
import io
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dynbench_tasks.judge.jdk import find_jdk, judge_classes
from mutators.execution import CLEAN_ENVIRONMENT, UNPRIVILEGED_ID, WorkerPool
from mutators.execution.isolation import BUBBLEWRAP, bubblewrap_launch, inside, isolation, sandbox_paths

COMPILED, COMPILE_ERROR = 0, 1
RETURNED, THREW, EXITED, TIMED_OUT = 0, 1, 2, 3
_JVM_FLAGS = ["-Xss8m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xshare:auto",
              "-Djava.io.tmpdir=/tmp"]
_LIMITS = ["prlimit", "--nproc=512", "--fsize=67108864", "--nofile=1024", "--core=0", "--"]
_STARTUP_SECONDS = 20.0  # slack for a JVM to start on a loaded machine


@dataclass
class JavaJob:
    package: str  # every job compiles in its own package, so batches never clash
    main_class: str  # fully qualified
    sources: dict[str, str]  # path (package folders included) -> text
    tests: list[bytes]
    time_limit_ms: int = 10_000
    output_cap: int = 1 << 20


@dataclass
class TestRun:
    outcome: int
    exit_status: int
    exception: str
    stdout: bytes
    millis: int
    records: list[str] = field(default_factory=list)  # values the program reported (dynbench.Record)


@dataclass
class JobResult:
    status: int
    diagnostics: str = ""
    runs: list[TestRun] = field(default_factory=list)


def _pack(data: bytes) -> bytes:
    return struct.pack(">i", len(data)) + data


def _pack_string(text: str) -> bytes:
    return _pack(text.encode("utf-8"))


class _Reader:
    def __init__(self, stream) -> None:
        self.stream = stream

    def exactly(self, size: int) -> bytes:
        if size < 0 or size > 1 << 28:
            raise EOFError("bad length")
        data = self.stream.read(size)
        if len(data) != size:
            raise EOFError("JVM ended")
        return data

    def int(self) -> int:
        return struct.unpack(">i", self.exactly(4))[0]

    def bytes(self) -> bytes:
        return self.exactly(self.int())

    def string(self) -> str:
        return self.bytes().decode("utf-8", "replace")


class _Jvm:
    """How judge JVMs start here: inside bubblewrap, or with process limits as ``nobody``."""

    def __init__(self, heap_mb: int) -> None:
        self.java, _ = find_jdk()
        self.classes = str(judge_classes())
        self.heap_mb = heap_mb
        self.isolated = isolation().kind == BUBBLEWRAP
        java_home = os.path.dirname(os.path.dirname(os.path.realpath(self.java)))
        # Debian's JDK links its configuration into /etc.
        self.paths = sandbox_paths([java_home, self.classes, *glob.glob("/etc/java*")]) if self.isolated else {}
        if shutil.which("prlimit") is None:
            self.limits: list[str] = []
        else:
            self.limits = _LIMITS

    def start(self, main: str) -> tuple[subprocess.Popen, str | None]:
        """A JVM running ``main``, with pipes to its stdin and stdout; and its scratch folder, if any."""
        java = os.path.realpath(self.java)
        flags = [f"-Xmx{self.heap_mb}m", *_JVM_FLAGS]
        if self.isolated:
            from dynbench_tasks.benchmarks.records import data_locations

            command = [*self.limits, java, *flags, "-cp", inside(self.classes, self.paths), main]
            launch = bubblewrap_launch(command, self.paths, data_locations())
            process = subprocess.Popen(launch.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL, env=CLEAN_ENVIRONMENT, start_new_session=True)
            return process, None
        workdir = tempfile.mkdtemp(prefix="dynbench-java-")
        privileges = {}
        if os.getuid() == 0:
            os.chown(workdir, UNPRIVILEGED_ID, UNPRIVILEGED_ID)
            privileges = {"user": UNPRIVILEGED_ID, "group": UNPRIVILEGED_ID, "extra_groups": []}
        flags[-1] = f"-Djava.io.tmpdir={workdir}"
        process = subprocess.Popen([*self.limits, java, *flags, "-cp", self.classes, main], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=workdir,
                                   env={**CLEAN_ENVIRONMENT, "HOME": workdir}, start_new_session=True, **privileges)
        return process, workdir


def _stop(process: subprocess.Popen | None, workdir: str | None) -> None:
    if process is not None and process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            process.kill()
    if process is not None:
        process.wait()
    if workdir is not None:
        shutil.rmtree(workdir, ignore_errors=True)


class JudgeWorker:
    """A warm compiler JVM (replaced whenever it ends), and fresh JVMs for the programs it compiled."""

    def __init__(self, heap_mb: int = 768) -> None:
        self.jvm = _Jvm(heap_mb)
        self.compiler: subprocess.Popen | None = None
        self.compiler_workdir: str | None = None

    def close(self) -> None:
        _stop(self.compiler, self.compiler_workdir)
        self.compiler = self.compiler_workdir = None

    # ------------------------------------------------------------------ compiling
    def _compile(self, jobs: Sequence[tuple[str, JavaJob]]) -> dict[str, tuple[int, str, dict[str, bytes]]] | None:
        """(status, diagnostics, classes) by job key; None if the compiler ended before answering."""
        if self.compiler is None or self.compiler.poll() is not None:
            self.close()
            self.compiler, self.compiler_workdir = self.jvm.start("dynbench.CompileServer")
        request = io.BytesIO()
        request.write(struct.pack(">i", len(jobs)))
        for key, job in jobs:
            request.write(_pack_string(key) + _pack_string(job.package) + struct.pack(">i", len(job.sources)))
            for path, text in job.sources.items():
                request.write(_pack_string(path) + _pack_string(text))
        timer = threading.Timer(_STARTUP_SECONDS + 10.0 * len(jobs), self.close)
        timer.start()
        answers = {}
        try:
            self.compiler.stdin.write(request.getvalue())
            self.compiler.stdin.flush()
            reader = _Reader(self.compiler.stdout)
            for _ in jobs:
                key, status, diagnostics = reader.string(), reader.int(), reader.string()
                classes = {reader.string(): reader.bytes() for _ in range(reader.int())}
                answers[key] = (status, diagnostics, classes)
        except (EOFError, OSError, ValueError, AttributeError):
            self.close()
            return None
        finally:
            timer.cancel()
        return answers

    def compile(self, jobs: Sequence[tuple[str, JavaJob]]) -> dict[str, tuple[int, str, dict[str, bytes]]]:
        answers = self._compile(jobs)
        if answers is not None:
            return answers
        if len(jobs) == 1:  # it takes the compiler down on its own: it cannot be compiled
            return {jobs[0][0]: (COMPILE_ERROR, "the compiler did not survive this source", {})}
        middle = len(jobs) // 2
        return {**self.compile(jobs[:middle]), **self.compile(jobs[middle:])}

    # ------------------------------------------------------------------ running
    def execute(self, job: JavaJob, classes: dict[str, bytes]) -> list[TestRun]:
        """Every test of one program, in a JVM of its own that ends with it."""
        process, workdir = self.jvm.start("dynbench.Runner")
        deadline = _STARTUP_SECONDS + job.time_limit_ms * max(1, len(job.tests)) / 1000
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            _stop(process, None)

        timer = threading.Timer(deadline, expire)
        timer.start()
        runs: list[TestRun] = []
        try:
            request = io.BytesIO()
            request.write(_pack_string(job.main_class) + struct.pack(">i", len(classes)))
            for name, data in classes.items():
                request.write(_pack_string(name) + _pack(data))
            request.write(struct.pack(">iii", job.time_limit_ms, job.output_cap, len(job.tests)))
            for data in job.tests:
                request.write(_pack(data))
            process.stdin.write(request.getvalue())
            process.stdin.close()
            reader = _Reader(process.stdout)
            while len(runs) < len(job.tests):
                outcome, exit_status, exception, stdout, millis = (reader.int(), reader.int(), reader.string(),
                                                                   reader.bytes(), reader.int())
                records = [reader.string() for _ in range(min(reader.int(), 100_000))]
                runs.append(TestRun(outcome, exit_status, exception, stdout, millis, records))
                if outcome == TIMED_OUT:
                    break
        except (EOFError, OSError, ValueError):
            if len(runs) < len(job.tests):  # killed at the deadline, or the JVM itself failed
                runs.append(TestRun(TIMED_OUT, 0, "", b"", job.time_limit_ms) if expired.is_set()
                            else TestRun(THREW, 0, "jvm ended", b"", 0))
        finally:
            timer.cancel()
            _stop(process, workdir)
        return runs

    def judge(self, jobs: list[tuple[str, JavaJob]]) -> list[JobResult]:
        compiled = self.compile(jobs)
        results = []
        for key, job in jobs:
            status, diagnostics, classes = compiled[key]
            runs = self.execute(job, classes) if status == COMPILED else []
            results.append(JobResult(status, diagnostics, runs))
        return results


class JavaJudge(WorkerPool):
    """``with JavaJudge() as judge: results = judge.run(jobs)`` — results in job order."""

    def __init__(self, workers: int | None = None, batch_size: int = 48) -> None:
        super().__init__(JudgeWorker, batch_size, max(1, workers or os.cpu_count() or 1))

    def run(self, jobs: Sequence[JavaJob], progress: Callable[[int], None] | None = None) -> list[JobResult]:
        keyed = [(str(i), job) for i, job in enumerate(jobs)]
        return self.map(lambda worker, batch: worker.judge(batch), keyed, progress)
