"""Compile and run Java programs fast and contained: a pool of warm judge JVMs (java/dynbench).

Each JVM compiles a whole batch of sources with one in-memory ``javax.tools`` call and runs every
test in-process, one fresh class loader per test; ``System.exit`` in a judged program is redirected
(source rewrite) so it ends that program, not the JVM. The JVMs themselves run sandboxed: their own
session, a throwaway working directory, an empty environment, a heap cap, process/file-size/
open-file limits and, when started as root, an unprivileged user. A test that hangs or exhausts
memory costs its own judgement: its JVM is replaced and the rest of its batch resubmitted.
"""

from __future__ import annotations

import io
import os
import shutil
import struct
import subprocess
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dynbench_tasks.judge.jdk import find_jdk, judge_classes
from mutators.execution import CLEAN_ENVIRONMENT, UNPRIVILEGED_ID, WorkerPool

COMPILED, COMPILE_ERROR, NOT_RUN = 0, 1, 2
RETURNED, THREW, EXITED, TIMED_OUT = 0, 1, 2, 3


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


@dataclass
class JobResult:
    status: int
    diagnostics: str = ""
    runs: list[TestRun] = field(default_factory=list)


def _pack_string(text: str) -> bytes:
    data = text.encode("utf-8")
    return struct.pack(">i", len(data)) + data


def _encode(jobs: Sequence[tuple[str, JavaJob]]) -> bytes:
    out = io.BytesIO()
    out.write(struct.pack(">i", len(jobs)))
    for key, job in jobs:
        out.write(_pack_string(key) + _pack_string(job.package) + _pack_string(job.main_class))
        out.write(struct.pack(">i", len(job.sources)))
        for path, text in job.sources.items():
            out.write(_pack_string(path) + _pack_string(text))
        out.write(struct.pack(">iii", job.time_limit_ms, job.output_cap, len(job.tests)))
        for data in job.tests:
            out.write(struct.pack(">i", len(data)) + data)
    return out.getvalue()


class _Reader:
    def __init__(self, stream) -> None:
        self.stream = stream

    def exactly(self, size: int) -> bytes:
        data = self.stream.read(size)
        if len(data) != size:
            raise EOFError("judge JVM ended")
        return data

    def int(self) -> int:
        return struct.unpack(">i", self.exactly(4))[0]

    def bytes(self) -> bytes:
        return self.exactly(self.int())

    def string(self) -> str:
        return self.bytes().decode("utf-8", "replace")


class JudgeProcess:
    """One judge JVM; replaced whenever it ends."""

    def __init__(self, heap_mb: int = 768) -> None:
        self.java, _ = find_jdk()
        self.classes = judge_classes()
        self.heap_mb = heap_mb
        self.process: subprocess.Popen | None = None
        self.workdir: str | None = None

    def _start(self) -> None:
        self.workdir = tempfile.mkdtemp(prefix="dynbench-java-")
        command = [
            "prlimit", "--nproc=512", "--fsize=67108864", "--nofile=1024", "--core=0", "--",
            self.java, f"-Xmx{self.heap_mb}m", "-Xss8m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-XX:-UsePerfData", "-Xshare:auto", f"-Djava.io.tmpdir={self.workdir}",
            "-cp", str(self.classes), "dynbench.JudgeServer",
        ]
        if shutil.which("prlimit") is None:
            command = command[command.index("--") + 1:]
        privileges = {}
        if os.getuid() == 0:
            os.chown(self.workdir, UNPRIVILEGED_ID, UNPRIVILEGED_ID)
            privileges = {"user": UNPRIVILEGED_ID, "group": UNPRIVILEGED_ID, "extra_groups": []}
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=self.workdir, env={**CLEAN_ENVIRONMENT, "HOME": self.workdir},
            start_new_session=True, **privileges,
        )

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None

    def judge(self, jobs: Sequence[tuple[str, JavaJob]], deadline_s: float) -> dict[str, JobResult]:
        """Results by job key; jobs the JVM could not finish come back as NOT_RUN."""
        if self.process is None or self.process.poll() is not None:
            self.close()
            self._start()
        timer = threading.Timer(deadline_s, self.process.kill)
        timer.start()
        results: dict[str, JobResult] = {}
        try:
            self.process.stdin.write(_encode(jobs))
            self.process.stdin.flush()
            reader = _Reader(self.process.stdout)
            for _ in jobs:
                key, status, diagnostics = reader.string(), reader.int(), reader.string()
                runs = [
                    TestRun(reader.int(), reader.int(), reader.string(), reader.bytes(), reader.int())
                    for _ in range(reader.int())
                ]
                results[key] = JobResult(status, diagnostics, runs)
            if reader.int():
                self.close()  # it ends itself after a timeout or an OutOfMemoryError
        except (EOFError, BrokenPipeError, OSError):
            self.close()
        finally:
            timer.cancel()
        return {key: results.get(key, JobResult(NOT_RUN)) for key, _ in jobs}


class JavaJudge(WorkerPool):
    """``with JavaJudge() as judge: results = judge.run(jobs)`` — results in job order."""

    def __init__(self, workers: int | None = None, batch_size: int = 48) -> None:
        super().__init__([JudgeProcess() for _ in range(max(1, workers or os.cpu_count() or 1))], batch_size)

    @staticmethod
    def _judge_batch(process: JudgeProcess, jobs: list[tuple[str, JavaJob]]) -> list[JobResult]:
        results: dict[str, JobResult] = {}
        unfinished = jobs
        while unfinished:
            results.update(process.judge(unfinished, _deadline(unfinished)))
            still = [(key, job) for key, job in unfinished if results[key].status == NOT_RUN]
            if len(still) == len(unfinished):
                # The JVM died before finishing anything: try the first job alone, and if it kills
                # a fresh JVM too (hangs the compiler, crashes the JVM), it is the culprit.
                key, job = still.pop(0)
                alone = process.judge([(key, job)], _deadline([(key, job)]))[key]
                results[key] = alone if alone.status != NOT_RUN else JobResult(
                    COMPILED, "", [TestRun(TIMED_OUT, 0, "", b"", job.time_limit_ms)])
            unfinished = still
        return [results[key] for key, _ in jobs]

    def run(self, jobs: Sequence[JavaJob], progress: Callable[[int], None] | None = None) -> list[JobResult]:
        keyed = [(str(i), job) for i, job in enumerate(jobs)]
        return self.map(self._judge_batch, keyed, progress)


def _deadline(jobs: Sequence[tuple[str, JavaJob]]) -> float:
    return 60.0 + sum(job.time_limit_ms * max(1, len(job.tests)) for _, job in jobs) / 1000

