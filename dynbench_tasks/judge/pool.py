"""Compile and run Java programs, fast and contained (the Java side is in ``java/dynbench``).

A warm compiler JVM per worker compiles a whole batch of translations in memory with one
``javax.tools`` call; it never runs them. Every compiled program then runs in a fresh JVM of its own
(``dynbench.Runner``), so nothing one program leaves behind (threads, static state, output) can reach
another's result. Both kinds of JVM run behind the sandbox boundary of :mod:`mutators.execution`
(bubblewrap where it works: no network, no view of other processes or of any home or data folder),
in a mount whitelist that holds the JDK, the shared libraries it loads and the judge's classes and
nothing else, none of it writable: a judged program can start no program but ``java`` itself, and
write none. Process limits and a heap cap hold in either mode. A program that ends its JVM ends its
test, by whatever route: its exit status is the process's, its output what the runner's flight
recorder (a file mapped into memory) holds, and its remaining tests run in a fresh JVM; the source rewrite of
every ``System.exit`` a source spells (:func:`java_source.judge_rewrites`) only saves that JVM. The
runner keeps its own state in module ``dynbench``, which no judged program can open by reflection,
and replies on a pipe of its own in frames authenticated by a secret each JVM is sent before any program
code runs (``java/dynbench/Replies.java``): whatever a program writes there fails its test. A program's
JVM has no ``/proc`` and nothing writable a program can name (:class:`_Channel`), so it can neither read
the key from its JVM's memory nor load native code that would.
Every verdict is computed by the caller from what each test printed and recorded; expected outputs
and reference code never enter a JVM.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import hmac
import io
import json
import os
import resource
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path

from dynbench_tasks.errors import DynbenchError
from dynbench_tasks.judge.java_source import judge_rewrites
from dynbench_tasks.judge.jdk import JAR, find_jdk, judge_classes, sandbox_mounts
from dynbench_tasks.judge.runtime_image import runtime_image
from dynbench_tasks.judge.startup_archive import startup_archive
from dynbench_tasks.judge.wire import (
    COMPILER_WORKING_ON,
    READY,
    SECRET_BYTES,
    TAG_BYTES,
    pack_string,
    reply_tag,
    runner_greeting,
    runner_job,
)
from mutators.execution import CLEAN_ENVIRONMENT, UNPRIVILEGED_ID, SandboxUnavailable, WorkerPool
from mutators.execution.isolation import (
    BUBBLEWRAP,
    bubblewrap_launch,
    inside,
    isolation,
    reachable_temp_folder,
    sandbox_paths,
    unprivileged,
)

COMPILED, COMPILE_ERROR = 0, 1
RETURNED, THREW, EXITED, TIMED_OUT = 0, 1, 2, 3
# A test whose reply failed its check (java/dynbench/Replies.java): its program wrote into the judge's
# reply pipe, which fails the test, whatever it wrote.
FORGED_REPLY = 4
_FRAME_BYTES = (1 << 31) - 1  # a frame is one Java array; read a piece at a time, as it comes
# Nothing in the sandbox is writable: no perf data file, and /tmp is an empty read-only folder there. No security
# manager: one a program installs would judge the runner's own calls (red team 9: an exit's status made 0, a
# test's end kept from the runner); Java 17 warns that it goes, and no honest translation installs one.
_JVM_FLAGS = ["-Xss8m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xshare:auto",
              "-Djava.io.tmpdir=/tmp", "-Djava.security.manager=disallow"]
_LIMITS = {"nproc": 512, "fsize": 64 << 20, "nofile": 1024, "core": 0}  # per JVM
_PRLIMIT_OPTIONS = [f"--{name}={value}" for name, value in _LIMITS.items()]
# A JVM's start waits on bubblewrap (its namespaces, the child-pid handshake) as well as computing:
# one JVM more than cores keeps the cores busy (TransCoder: 14.2 -> 15.7 judgements/s on 2 cores).
SPARE_JVMS = 1
# A program still running its tests this long after its JVM started leaves the rest to be spread over the
# judge's JVMs once every program has had its turn (one slow program must not hold the run's end alone).
SHARE_AFTER_SECONDS = 2.0
_STARTUP_SECONDS = 20.0  # slack for a JVM to start on a loaded machine
# How long javac may spend on one job's source before it is that job's compile error: what a batch of one job
# was given (slack for a cold compiler on a loaded machine, and 10 s). An honest translation takes well under
# a second; a few hundred bytes can keep javac busy for minutes (generic calls nested in conditionals, whose
# overload resolution doubles with each level).
COMPILE_SECONDS_PER_JOB = _STARTUP_SECONDS + 10.0
COMPILER_TOO_SLOW = f"the compiler spent over {COMPILE_SECONDS_PER_JOB:g} s on this source"
COMPILER_DIED = "the compiler did not survive this source"
RUNNER, COMPILER = "dynbench.Runner", "dynbench.CompileServer"
# Where a runner JVM in bubblewrap finds its reply pipe, flight recorder and descriptor's pipe (_Channel) until it
# holds all three.
_CHANNEL_INSIDE = "/run/dynbench-channel"
_REPLIES, _RECORDER, _DESCRIPTOR_PIPE = "replies", "recorder", "descriptor"
# The flight recorder's header (Runner.Recorder): the test's stdout length, how the test ended (0 while it runs,
# else 1 + its outcome), its exit status and whether the test closed its stdout, as big-endian ints; its stdout
# follows.
_RECORDER_HEADER = 16
_BUILDING = threading.Lock()
# Runs the program its test names (its stdin): how programs run together (JudgeWorker.run_together).
_DISPATCH = "dispatch"
_DISPATCH_JOB_SOURCE = """package dynbench.together;

public class Dispatch {
    public static void main(String[] args) throws Throwable {
        String program = new String(System.in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        java.lang.reflect.Method main = Class.forName(program).getMethod("main", String[].class);
        main.setAccessible(true);
        try {
            main.invoke(null, (Object) args);
        } catch (java.lang.reflect.InvocationTargetException thrown) {
            throw thrown.getCause();
        }
    }
}
"""


@dataclass(frozen=True)
class _Launch:
    """How one kind of judge JVM starts, in real paths: its ``java``, the judge's folder it reads, the
    judge's jar where ``java`` is not the runtime linked with it, and the startup archive, if any."""

    main: str
    java: str
    judge: str
    jar: str | None
    archive: str | None = None
    reads_shutdown_hooks: bool = True  # the runner only: java.lang opened to it

    def argv(self, flags: Sequence[str], seen: Callable[[str], str] = str) -> list[str]:
        """The command line, each path as the JVM sees it (``seen``): the runner in module ``dynbench``,
        whose package a judged program (in an unnamed module) cannot open by reflection; the compiler
        from the class path, where javac finds what programs call."""
        archive = [f"-XX:SharedArchiveFile={seen(self.archive)}"] if self.archive else []
        if self.main != RUNNER:
            return [seen(self.java), *flags, *archive, "-cp", seen(self.jar), self.main]
        if self.jar is None and not self.reads_shutdown_hooks:
            # The runtime linked for the runner resolves module dynbench without being asked, and a JVM
            # given no module option keeps the startup archive's optimized module handling (TransCoder:
            # ~25 ms less CPU per JVM). The class path holds nothing, and nobody can put a class there
            # (java's default would be the working folder).
            return [seen(self.java), *flags, *archive, "-cp", os.devnull, self.main]
        # java.lang opened to the runner's module alone, which reads the registered shutdown hooks
        return [seen(self.java), *flags, *archive, *(["-p", seen(self.jar)] if self.jar else []),
                "--add-opens", "java.base/java.lang=dynbench", "-m", f"dynbench/{self.main}"]


@dataclass
class JavaJob:
    package: str  # every job compiles in its own package, so batches never clash
    main_class: str  # fully qualified
    sources: dict[str, str]  # path (package folders included) -> text
    tests: list[bytes]
    time_limit_ms: int = 10_000
    output_cap: int = 1 << 20
    # A stdin program's shutdown hooks run as it ends, and may change its exit status and output: the
    # runner ends the JVM of a test whose program registered one for real. TransCoder's harness, judged by
    # the values it recorded, keeps its JVM.
    runs_shutdown_hooks: bool = False


_DISPATCH_JOB = JavaJob("dynbench.together", "dynbench.together.Dispatch",
                        {"dynbench/together/Dispatch.java": _DISPATCH_JOB_SOURCE}, [])


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
    # Where the tests after ``runs`` were left for other JVMs (SHARE_AFTER_SECONDS): the compiled classes.
    left: dict[str, bytes] | None = field(default=None, repr=False)


def undecided_tests(result: JobResult, tests: int) -> list[int]:
    """The tests of a job of ``tests`` that a time limit or a failing machine decided rather than the program:
    all of them where its compiler ran out of time or died, else those that timed out and those left unrun
    after one (the judge runs no test of a program after its first timeout)."""
    if result.status == COMPILE_ERROR:
        return list(range(tests)) if result.diagnostics in (COMPILER_TOO_SLOW, COMPILER_DIED) else []
    return [index for index in range(tests) if index >= len(result.runs) or result.runs[index].outcome == TIMED_OUT]


class _Reader:
    def __init__(self, stream) -> None:
        self.stream = stream

    def exactly(self, size: int, most: int = 1 << 28) -> bytes:
        if size < 0 or size > most:
            raise EOFError("bad length")
        chunks = []
        while size > 0:  # a piece at a time: memory grows with what was sent, not with a length read
            chunk = self.stream.read(min(size, 1 << 20))
            if not chunk:
                raise EOFError("JVM ended")
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def int(self) -> int:
        return struct.unpack(">i", self.exactly(4))[0]

    def bytes(self) -> bytes:
        return self.exactly(self.int())

    def string(self) -> str:
        return self.bytes().decode("utf-8", "replace")


class JudgeBroken(DynbenchError, RuntimeError):
    """The judge cannot judge anything on this machine; the message says why."""


class _ForgedReply(Exception):
    """A runner's reply that is cut short, too long or fails its authentication."""


def _reply(reader: _Reader, secret: bytes, number: int) -> _Reader | None:
    """The ``number``-th frame (from 0) a runner sent, to read its fields from; None where its JVM ended
    before sending it. Nothing is read from a frame before it is authenticated."""
    start = reader.stream.read(4)
    if not start:
        return None
    try:
        size = struct.unpack(">i", start)[0] if len(start) == 4 else -1
        frame, tag = reader.exactly(size, _FRAME_BYTES), reader.exactly(TAG_BYTES)
    except EOFError as error:
        raise _ForgedReply from error
    if not hmac.compare_digest(tag, reply_tag(secret, number, frame)):
        raise _ForgedReply
    return _Reader(io.BytesIO(frame))


class _Jvm:
    """How judge JVMs start here: inside bubblewrap's mount whitelist, or with process limits as ``nobody``."""

    def __init__(self, heap_mb: int, hidden: Sequence[str]) -> None:
        java, javac = find_jdk()
        java = os.path.realpath(java)
        self.hidden = list(hidden)
        self.heap_mb = heap_mb
        with _BUILDING:  # a pool starts its workers together: one of them builds, the others wait for it
            judge = judge_classes()
            jar = str(judge / JAR)
            on_the_jdk = _Launch(RUNNER, java, str(judge), jar)
            linked = runtime_image(java, judge, on_the_jdk.argv([])[1:])
            runner = _Launch(RUNNER, str(linked), str(judge), None) if linked else on_the_jdk
            hookless = dataclasses.replace(runner, reads_shutdown_hooks=False)
            archive = startup_archive(runner.java, javac, judge, self._flags(),
                                      [runner.argv([])[1:], hookless.argv([])[1:]])
        self.launches = {COMPILER: _Launch(COMPILER, java, str(judge), jar),
                         RUNNER: dataclasses.replace(runner, archive=archive and str(archive))}
        self.hookless_runner = dataclasses.replace(hookless, archive=archive and str(archive))
        self.isolated = isolation().kind == BUBBLEWRAP
        self.limited = shutil.which("prlimit") is not None
        if self.isolated:
            why = _fails_in_whitelist((*self.launches.values(), self.hookless_runner), self.limited)
            if why:
                raise SandboxUnavailable(f"a JVM cannot start in the Java sandbox ({why}); DYNBENCH_ISOLATION=rlimits "
                                         "runs Java without bubblewrap and its whitelist")

    def start(self, main: str, channel: str | None = None, reads_shutdown_hooks: bool = True
              ) -> tuple[subprocess.Popen, str | None]:
        """A JVM running ``main``, with a pipe to its stdin (and its stdout: :func:`_stdout`), that sees
        the folder ``channel`` (:class:`_Channel`) where :meth:`channel_seen` says; and a folder to remove
        once it ends (its scratch folder, or the staging folder of its sandbox), if any. A JVM whose limits
        could not be set is returned ended. A runner for programs whose shutdown hooks never run starts
        faster where it can (:attr:`_Launch.reads_shutdown_hooks`)."""
        flags = self._flags()
        launch = self.launches[main] if reads_shutdown_hooks or main != RUNNER else self.hookless_runner
        if self.isolated:
            process, staging, _ = _start_whitelisted(launch, flags, self.hidden, self.limited, channel=channel,
                                                     stdout=_stdout(main))
            return process, staging
        workdir = tempfile.mkdtemp(prefix="dynbench-java-", dir=reachable_temp_folder())
        privileges = {}
        if os.getuid() == 0:
            os.chown(workdir, UNPRIVILEGED_ID, UNPRIVILEGED_ID)
            privileges = {"user": UNPRIVILEGED_ID, "group": UNPRIVILEGED_ID, "extra_groups": []}
        flags[-1] = f"-Djava.io.tmpdir={workdir}"
        limits = ["prlimit", *_PRLIMIT_OPTIONS, "--"] if self.limited else []
        process = subprocess.Popen([*limits, *launch.argv(flags)],
                                   stdin=subprocess.PIPE, stdout=_stdout(main), stderr=subprocess.DEVNULL,
                                   cwd=workdir, env={**CLEAN_ENVIRONMENT, "HOME": workdir}, start_new_session=True,
                                   **privileges)
        return process, workdir

    def channel_seen(self, folder: str) -> str:
        """Where a JVM :meth:`start` was given the folder ``folder`` sees it."""
        return _CHANNEL_INSIDE if self.isolated else folder

    def _flags(self) -> list[str]:
        return [f"-Xmx{self.heap_mb}m", *_JVM_FLAGS]

    def identity(self) -> str | None:
        """What a program's behaviour in these JVMs depends on: the runner's command line (its ``java``,
        flags and judge build) and the release of the JDK it comes from. None where judged programs run
        as this process's own user (no bubblewrap, not root), who could then write what is kept under it."""
        if not self.isolated and os.getuid() != 0:
            return None
        runner = self.launches[RUNNER]
        release = Path(os.path.realpath(self.launches[COMPILER].java)).parent.parent / "release"
        try:
            released = release.read_text(encoding="utf-8", errors="replace")
        except OSError:
            released = ""
        argv = runner.argv(self._flags())
        return hashlib.sha256(json.dumps([argv, released]).encode()).hexdigest()[:16]


class _Channel:
    """A runner JVM's reply pipe, flight recorder and descriptor's pipe: a FIFO, a file of ``_RECORDER_HEADER +
    output_cap`` bytes and a FIFO (what a program reaches as ``FileDescriptor.out``, ``Runner.DescriptorPipe``)
    in a folder of their own, which the runner opens by name before any program code runs. As soon as it holds
    all three (its first frame, :data:`wire.READY`) :meth:`unlink` removes their names and the folder, so no judged
    program can open one again (a runner's sandbox has no ``/proc``) or put a file in its place: the
    program's JVM then holds nothing writable it can name. Until then the runner alone runs there, and
    opens the reply pipe write-only: reading it would take a frame from the judge. As root the JVM runs as
    nobody, who may write all three (group ``nobody``) but may neither read the reply pipe nor change a mode."""

    def __init__(self, output_cap: int) -> None:
        self.replies = self.recorder = self.descriptor_pipe = None
        self.folder = tempfile.mkdtemp(prefix="dynbench-channel-", dir=_channel_root())
        try:
            os.chmod(self.folder, 0o755)
            os.mkfifo(self.path(_REPLIES), 0o600)
            # Opened before the runner opens its end (which then does not wait for a reader); a read sees the
            # end of the pipe only once a writer has come and gone (:func:`_wait_for_writer`).
            self.replies = os.open(self.path(_REPLIES), os.O_RDONLY | os.O_NONBLOCK)
            self.recorder = os.open(self.path(_RECORDER), os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            os.ftruncate(self.recorder, _RECORDER_HEADER + output_cap)
            os.mkfifo(self.path(_DESCRIPTOR_PIPE), 0o600)
            # Held open, so that no open of the runner's waits, and read once a program ended its JVM.
            self.descriptor_pipe = os.open(self.path(_DESCRIPTOR_PIPE), os.O_RDONLY | os.O_NONBLOCK)
            # Room for a test's whole output, so the runner need not take it in while it is written; where the
            # machine's limits on pipes refuse it, the runner takes it in when it fills.
            with contextlib.suppress(OSError):
                fcntl.fcntl(self.descriptor_pipe, fcntl.F_SETPIPE_SZ, max(output_cap, 1 << 16))
            if os.getuid() == 0:
                for name, mode in ((_REPLIES, 0o020), (_RECORDER, 0o060), (_DESCRIPTOR_PIPE, 0o060)):
                    os.chown(self.path(name), -1, UNPRIVILEGED_ID)
                    os.chmod(self.path(name), mode)
            else:
                os.chmod(self.path(_REPLIES), 0o200)
        except OSError:
            self.close()
            raise

    def path(self, name: str, folder: str | None = None) -> str:
        return os.path.join(folder or self.folder, name)

    def unlink(self) -> None:
        """No name leads to the pipes or the recorder any more, and the folder is gone (where
        a sandbox binds it, that bind goes with it)."""
        shutil.rmtree(self.folder, ignore_errors=True)

    def close(self) -> None:
        for descriptor in (self.replies, self.recorder, self.descriptor_pipe):
            if descriptor is not None:
                os.close(descriptor)
        self.replies = self.recorder = self.descriptor_pipe = None
        self.unlink()


def _channel_root() -> str:
    """Where channels are made: in memory where the machine has a shared-memory folder (the recorder is
    written at every print), else the temporary folder."""
    shared = "/dev/shm"
    return shared if os.path.isdir(shared) and os.access(shared, os.W_OK | os.X_OK) else reachable_temp_folder()


def _wait_for_writer(replies: int, process: subprocess.Popen, expired: threading.Event) -> None:
    """Until the runner has opened its end of the reply pipe ``replies`` (there is something to read, or
    its end was closed again), its JVM has ended or its time is up; then ``replies`` blocks as it is read."""
    waiting = select.poll()  # not select.select: a descriptor past 1023 is fine
    waiting.register(replies, select.POLLIN)
    while not waiting.poll(250):
        if process.poll() is not None or expired.is_set():
            break
    os.set_blocking(replies, True)


def _stdout(main: str) -> int:
    """A JVM's standard output: the compiler answers there; a runner replies on a pipe of its own, and what
    a judged program writes to the JVM's standard output by any route goes nowhere."""
    return subprocess.PIPE if main == COMPILER else subprocess.DEVNULL


def _start_whitelisted(launch: _Launch, flags: list[str], hidden: Sequence[str] = (), limited: bool = True,
                       stderr=subprocess.DEVNULL, channel: str | None = None, stdout=subprocess.DEVNULL
                       ) -> tuple[subprocess.Popen, str | None, str]:
    """The JVM ``launch`` starts, in the sandbox that holds only what its ``java`` needs
    (:func:`jdk.sandbox_mounts`) and the judge's folder, and the folder ``channel`` at
    :data:`_CHANNEL_INSIDE`: (the process, its staging folder, and why it was stopped, "" if it was not).
    A runner's sandbox has no ``/proc``: a judged program can neither read its JVM's memory
    (``/proc/self/mem``) nor reopen a descriptor of its JVM; the loader, which would find the JDK's
    libraries through ``/proc/self/exe``, is told where they are. Its process limits are set from here
    once bubblewrap has made the sandbox's namespaces (prlimit is not in the sandbox; set before, the
    limit on processes would count every process of that user on this machine, not the sandbox's)."""
    readable, libraries = sandbox_mounts(launch.java)
    paths = sandbox_paths([*readable, launch.judge], system=False)
    runner = launch.main == RUNNER
    libraries_seen = inside(str(Path(launch.java).resolve().parent.parent / "lib"), paths)
    environment = {**CLEAN_ENVIRONMENT, "LD_LIBRARY_PATH": libraries_seen} if runner else None
    info, info_for_bubblewrap = os.pipe()
    sandbox = bubblewrap_launch(launch.argv(flags, lambda path: inside(path, paths)), paths, hidden,
                                whitelist=libraries, info_fd=info_for_bubblewrap, proc=not runner,
                                environment=environment,
                                writable={channel: _CHANNEL_INSIDE} if channel else None)
    try:
        process = subprocess.Popen(sandbox.argv, stdin=subprocess.PIPE, stdout=stdout, stderr=stderr,
                                   env=CLEAN_ENVIRONMENT, start_new_session=True, pass_fds=(info_for_bubblewrap,))
    except OSError:
        os.close(info)
        sandbox.cleanup()
        raise
    finally:
        os.close(info_for_bubblewrap)
    try:
        pid = json.loads(_read_all(info, _STARTUP_SECONDS))["child-pid"]
        if limited:
            _set_limits(pid)
    except (ValueError, KeyError, TypeError, OSError, subprocess.SubprocessError) as error:
        _stop(process, None)
        return process, sandbox.staging, f"its limits could not be set ({type(error).__name__})"
    return process, sandbox.staging, ""


def _set_limits(pid: int) -> None:
    """:data:`_LIMITS` on a sandboxed JVM: directly where this process may (it runs as the same user, or
    may raise limits), else through prlimit as the sandbox's user (root without CAP_SYS_RESOURCE)."""
    try:
        for name, value in _LIMITS.items():
            resource.prlimit(pid, getattr(resource, f"RLIMIT_{name.upper()}"), (value, value))
    except PermissionError:
        subprocess.run(unprivileged(["prlimit", f"--pid={pid}", *_PRLIMIT_OPTIONS]), capture_output=True, check=True,
                       timeout=_STARTUP_SECONDS)


def _unread(pipe: int, most: int) -> bytes:
    """Up to ``most`` bytes of what the non-blocking ``pipe`` holds now."""
    data = b""
    while len(data) < most:
        try:
            chunk = os.read(pipe, min(1 << 16, most - len(data)))
        except BlockingIOError:
            break
        if not chunk:
            break
        data += chunk
    return data


def _read_all(descriptor: int, seconds: float) -> bytes:
    """Everything written to ``descriptor`` until its writer closes it (at most ``seconds``); closes it."""
    data, deadline = b"", time.monotonic() + seconds
    try:
        while select.select([descriptor], [], [], max(0.0, deadline - time.monotonic()))[0]:
            chunk = os.read(descriptor, 1 << 16)
            if not chunk:
                return data
            data += chunk
        raise TimeoutError("bubblewrap did not say where the sandbox runs")
    finally:
        os.close(descriptor)


@lru_cache(maxsize=4)
def _fails_in_whitelist(launches: tuple[_Launch, ...], limited: bool) -> str:
    """"" when a compiler and a runner JVM start in the whitelist, take their limits and end as asked,
    else what went wrong: a library missing from the whitelist shows here, once, and not as a compile
    or runtime error of every answer."""
    for launch in launches:
        try:
            process, staging, why = _start_whitelisted(launch, _JVM_FLAGS, limited=limited, stderr=subprocess.PIPE)
        except OSError as error:  # also when ldd cannot list the libraries
            return f"{type(error).__name__}: {error}"
        try:
            _, errors = process.communicate(timeout=_STARTUP_SECONDS)  # no request: it ends at once
        except subprocess.TimeoutExpired:
            errors = b"it did not end"
        _stop(process, staging)
        reason = (errors.decode("utf-8", "replace").strip().splitlines() or [f"exit status {process.returncode}"])
        if why or process.returncode != 0:
            return why or reason[-1][:300]
    return ""


class _Watchdog:
    """Calls ``expire`` (once) when its deadline passes, unless cancelled first; the deadline can be reset."""

    def __init__(self, seconds: float, expire: Callable[[], None]) -> None:
        self._deadline = time.monotonic() + seconds
        self._expire = expire
        self._changed = threading.Condition()
        self._state = "waiting"
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        with self._changed:
            while self._state == "waiting" and time.monotonic() < self._deadline:
                self._changed.wait(self._deadline - time.monotonic())
            if self._state != "waiting":
                return
            self._state = "expired"
        self._expire()

    def reset(self, seconds: float) -> None:
        """The deadline is now ``seconds`` from now (earlier or later than it was)."""
        with self._changed:
            self._deadline = time.monotonic() + seconds
            self._changed.notify()

    def cancel(self) -> None:
        with self._changed:
            if self._state == "waiting":
                self._state = "cancelled"
            self._changed.notify()

    def expired(self) -> bool:
        with self._changed:
            return self._state == "expired"


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

    def __init__(self, hidden: Sequence[str], heap_mb: int = 768) -> None:
        self.jvm = _Jvm(heap_mb, hidden)
        self.compiler: subprocess.Popen | None = None
        self.compiler_workdir: str | None = None

    def close(self) -> None:
        _stop(self.compiler, self.compiler_workdir)
        self.compiler = self.compiler_workdir = None

    # ------------------------------------------------------------------ compiling
    def _compile(self, jobs: Sequence[tuple[str, JavaJob]]
                 ) -> tuple[dict[str, tuple[int, str, dict[str, bytes]]] | None, str | None]:
        """(status, diagnostics, classes) by job key, or None if the compiler ended before answering; and
        then the key of the job whose source javac spent over :data:`COMPILE_SECONDS_PER_JOB` on, if one
        did (the compiler is ended then)."""
        if self.compiler is None or self.compiler.poll() is not None:
            self.close()
            self.compiler, self.compiler_workdir = self.jvm.start(COMPILER)
        request = io.BytesIO()
        request.write(struct.pack(">i", len(jobs)))
        for key, job in jobs:
            request.write(pack_string(key) + pack_string(job.package) + struct.pack(">i", len(job.sources)))
            for path, text in job.sources.items():
                request.write(pack_string(path) + pack_string(judge_rewrites(text)))
        working_on, keys = None, {key for key, _ in jobs}
        watchdog = _Watchdog(_STARTUP_SECONDS + COMPILE_SECONDS_PER_JOB, self.close)
        answers = {}
        try:
            self.compiler.stdin.write(request.getvalue())
            self.compiler.stdin.flush()
            reader = _Reader(self.compiler.stdout)
            while len(answers) < len(jobs):
                size = reader.int()
                if size == COMPILER_WORKING_ON:
                    working_on = reader.string()
                    if working_on not in keys:
                        raise ValueError("the compiler names no job of its batch")
                    watchdog.reset(COMPILE_SECONDS_PER_JOB)
                    continue
                key = reader.exactly(size).decode("utf-8", "replace")
                status, diagnostics = reader.int(), reader.string()
                classes = {reader.string(): reader.bytes() for _ in range(reader.int())}
                answers[key] = (status, diagnostics, classes)
        except (EOFError, OSError, ValueError, AttributeError):
            self.close()
            return None, working_on if watchdog.expired() else None
        finally:
            watchdog.cancel()
        return answers, None

    def compile(self, jobs: Sequence[tuple[str, JavaJob]]) -> dict[str, tuple[int, str, dict[str, bytes]]]:
        answers, too_slow = self._compile(jobs)
        if answers is not None:
            return answers
        if too_slow is not None:  # that job alone fails; the others compile again without it
            rest = [(key, job) for key, job in jobs if key != too_slow]
            return {too_slow: (COMPILE_ERROR, COMPILER_TOO_SLOW, {}), **(self.compile(rest) if rest else {})}
        if len(jobs) == 1:  # it takes the compiler down on its own: it cannot be compiled, if others can
            if self._compile([(_DISPATCH, _DISPATCH_JOB)])[0] is None:
                raise JudgeBroken("the Java compiler ends even on the judge's own source, so no answer can be "
                                  "judged here; see the warnings above (is the JDK readable by the sandbox user?)")
            return {jobs[0][0]: (COMPILE_ERROR, COMPILER_DIED, {})}
        middle = len(jobs) // 2
        return {**self.compile(jobs[:middle]), **self.compile(jobs[middle:])}

    # ------------------------------------------------------------------ running
    def execute(self, job: JavaJob, classes: dict[str, bytes], share_after: float | None = None
                ) -> tuple[list[TestRun], bool]:
        """Every test of one program, in a JVM of its own that ends with it (a fresh one for the tests
        after a test that ended its JVM with status 0 or left threads running); and whether tests were
        left: with ``share_after`` (seconds), the first test to end past it is the last run here.
        The first test of a program to time out runs once more in a fresh JVM before it counts: its time
        limit is wall time, which a machine busy with other work can use up (one retry a program bounds
        what a program that loops for ever costs)."""
        cut_at = None if share_after is None else time.monotonic() + share_after
        runs: list[TestRun] = []
        retried = False
        while len(runs) < len(job.tests):
            more, go_on = self._execute_in_one_jvm(job, classes, job.tests[len(runs):], cut_at)
            if more and more[-1].outcome == TIMED_OUT and not retried:
                retried = True
                runs += more[:-1]
                continue
            runs += more
            if not go_on:
                break
            if cut_at is not None and time.monotonic() > cut_at and len(runs) < len(job.tests):
                return runs, True
        return runs, False

    def _execute_in_one_jvm(self, job: JavaJob, classes: dict[str, bytes], tests: list[bytes],
                            cut_at: float | None = None) -> tuple[list[TestRun], bool]:
        """The runs of ``tests`` (from the first) one JVM gave, and whether the rest need another
        (the JVM is stopped at the first test to end past the monotonic time ``cut_at``). It replies on a
        pipe of its own (:class:`_Channel`), in frames keyed by a secret of its own."""
        channel = _Channel(job.output_cap)
        try:
            process, workdir = self.jvm.start(RUNNER, channel.folder, job.runs_shutdown_hooks)
            with open(channel.replies, "rb", closefd=False) as stream:
                return self._talk(process, workdir, job, classes, tests, channel, stream, cut_at)
        finally:
            channel.close()

    def _talk(self, process: subprocess.Popen, workdir: str | None, job: JavaJob, classes: dict[str, bytes],
              tests: list[bytes], channel: _Channel, replies: io.BufferedReader, cut_at: float | None
              ) -> tuple[list[TestRun], bool]:
        """The runs a runner JVM replies (on ``replies``, the read end of ``channel``'s pipe), as in
        :meth:`_execute_in_one_jvm`. Its first frame says it holds its channel; the program goes to it only
        once the channel's names are gone."""
        deadline = _STARTUP_SECONDS + job.time_limit_ms * max(1, len(tests)) / 1000
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            _stop(process, None)

        timer = threading.Timer(deadline, expire)
        timer.start()
        secret = os.urandom(SECRET_BYTES)
        seen = self.jvm.channel_seen(channel.folder)
        runs: list[TestRun] = []
        stops = False
        reader = _Reader(replies)
        try:
            try:
                greeting = runner_greeting(secret, channel.path(_REPLIES, seen), channel.path(_RECORDER, seen),
                                           channel.path(_DESCRIPTOR_PIPE, seen))
                process.stdin.write(greeting)
                process.stdin.flush()
            except OSError:
                pass  # it ended before it read its request: its reply pipe says so
            _wait_for_writer(channel.replies, process, expired)
            ready = _reply(reader, secret, 0)
            channel.unlink()
            if ready is not None and ready.stream.read() != READY:
                raise _ForgedReply
            try:
                process.stdin.write(runner_job(job.main_class, classes, job.runs_shutdown_hooks, job.time_limit_ms,
                                               job.output_cap, tests))
                process.stdin.close()
            except OSError:
                pass  # it ended (or never got ready): its reply pipe says so
            started = time.monotonic()
            while len(runs) < len(tests) and not stops:
                frame = _reply(reader, secret, len(runs) + 1)
                if frame is None:  # it ended during this test: by the program's exit, or the timer
                    process.wait()
                    late = time.monotonic() - started > job.time_limit_ms / 1000
                    ended = (TestRun(TIMED_OUT, 0, "", b"", job.time_limit_ms) if expired.is_set()
                             else self._ended_jvm(process.returncode, channel, job.output_cap, late))
                    return [*runs, ended], ended.outcome == EXITED and ended.exit_status == 0
                outcome, exit_status, exception, stdout, millis = (frame.int(), frame.int(), frame.string(),
                                                                   frame.bytes(), frame.int())
                records = [frame.string() for _ in range(min(frame.int(), 100_000))]
                runs.append(TestRun(outcome, exit_status, exception, stdout, millis, records))
                stops = frame.exactly(1) != b"\0"
                started = time.monotonic()
                if cut_at is not None and time.monotonic() > cut_at and not stops and len(runs) < len(tests):
                    return runs, True  # the rest in another JVM; this one is stopped below
        except (_ForgedReply, EOFError, ValueError):
            # Only a judged program writes into the reply pipe besides the runner: its test fails (or timed out
            # first), and no text it wrote is kept.
            failed = (TestRun(TIMED_OUT, 0, "", b"", job.time_limit_ms) if expired.is_set()
                      else TestRun(FORGED_REPLY, 0, "forged reply", b"", 0))
            return [*runs, failed], False
        finally:
            timer.cancel()
            _stop(process, workdir)
        return runs, stops and runs[-1].outcome != TIMED_OUT

    @staticmethod
    def _ended_jvm(returncode: int, channel: _Channel, cap: int, late: bool) -> TestRun:
        """The run of a test whose program ended its JVM: its exit status, and what it had printed (the flight
        recorder's, then what the descriptor's pipe still held: written after all of it, and nothing where the test
        had closed its stdout, as java's fd 1 takes nothing after its close). Where the test had ended before (a thread
        of the program ended the JVM while the runner was kept from replying), that end stands; where the JVM ended
        past the test's time limit (``late``), it timed out."""
        size, ended, status, closed = struct.unpack(">iiii", os.pread(channel.recorder, _RECORDER_HEADER, 0))
        stdout = os.pread(channel.recorder, min(max(0, size), cap), _RECORDER_HEADER)
        if ended in (1 + RETURNED, 1 + THREW, 1 + EXITED, 1 + TIMED_OUT):
            outcome = ended - 1
            return TestRun(outcome, status if outcome == EXITED else 0, "ended before its JVM" if outcome == THREW
                           else "", stdout, 0)
        if late:
            return TestRun(TIMED_OUT, 0, "", b"", 0)
        if returncode < 0:  # a signal: no exit the program asked for
            return TestRun(THREW, 0, "jvm ended", b"", 0)
        if not closed and len(stdout) < cap:
            stdout += _unread(channel.descriptor_pipe, cap - len(stdout))
        return TestRun(EXITED, returncode, "", stdout, 0)

    def run_together(self, jobs: list[tuple[str, JavaJob]]) -> list[JobResult]:
        """Trusted programs with one test and no input each, as the tests of one program (see
        :meth:`JavaJudge.run_together`): after a test that ended or stopped its JVM, the rest go on
        in a fresh one."""
        compiled = self.compile([*jobs, (_DISPATCH, _DISPATCH_JOB)])
        _, _, classes = compiled.pop(_DISPATCH)
        ready = [(key, job) for key, job in jobs if compiled[key][0] == COMPILED]
        for key, _ in ready:
            classes.update(compiled[key][2])
        together = JavaJob(_DISPATCH_JOB.package, _DISPATCH_JOB.main_class, {},
                           [job.main_class.encode() for _, job in ready],
                           max((job.time_limit_ms for _, job in ready), default=0),
                           max((job.output_cap for _, job in ready), default=0))
        runs: list[TestRun] = []
        while len(runs) < len(together.tests):
            runs += self._execute_in_one_jvm(together, classes, together.tests[len(runs):])[0]
        ran = dict(zip((key for key, _ in ready), runs, strict=True))
        return [JobResult(COMPILED, "", [ran[key]]) if key in ran else JobResult(*compiled[key][:2])
                for key, _ in jobs]

    def judge(self, jobs: list[tuple[str, JavaJob]], share_after: float | None = None) -> list[JobResult]:
        compiled = self.compile(jobs)
        results = []
        for key, job in jobs:
            status, diagnostics, classes = compiled[key]
            runs, left = self.execute(job, classes, share_after) if status == COMPILED else ([], False)
            results.append(JobResult(status, diagnostics, runs, classes if left else None))
        return results


class JavaJudge(WorkerPool):
    """``with JavaJudge(hidden=data_locations()) as judge: results = judge.run(jobs)`` — results in job
    order. ``hidden``: folders no judged program may see (the benchmark data and its caches), even where
    they lie inside a folder the JVM reads."""

    def __init__(self, workers: int | None = None, batch_size: int = 48, *, hidden: Sequence[str],
                 share_after: float = SHARE_AFTER_SECONDS) -> None:
        super().__init__(partial(JudgeWorker, hidden), batch_size,
                         max(1, workers or (os.cpu_count() or 1) + SPARE_JVMS))
        self.share_after = share_after

    def identity(self) -> str | None:
        """:meth:`_Jvm.identity` of this judge's JVMs: the key of values its trusted runs computed."""
        return self.workers[0].jvm.identity()

    def run(self, jobs: Sequence[JavaJob], progress: Callable[[int], None] | None = None) -> list[JobResult]:
        keyed = [(str(i), job) for i, job in enumerate(jobs)]
        results = self.map(lambda worker, batch: worker.judge(batch, self.share_after), keyed, progress)
        return self._run_what_was_left(jobs, results)

    def _run_what_was_left(self, jobs: Sequence[JavaJob], results: list[JobResult]) -> list[JobResult]:
        """The tests slow programs left, in pieces, one piece to a fresh JVM on whichever worker is free
        (each test runs in a class loader of its own, so a fresh JVM changes nothing a test sees). A
        program's runs stay in test order: after a piece that stopped short (a test that timed out or
        ended its JVM for good, so failed) the later pieces' runs are dropped, as one JVM would not have
        run them; the first failing test decides the verdict."""
        pieces = []
        for index, (job, result) in enumerate(zip(jobs, results, strict=True)):
            if result.left is not None:
                rest = job.tests[len(result.runs):]
                size = -(-len(rest) // len(self.workers))
                pieces += [(index, dataclasses.replace(job, tests=rest[start : start + size]), result.left)
                           for start in range(0, len(rest), size)]
        done = self.map(lambda worker, batch: [worker.execute(job, classes)[0] for _, job, classes in batch],
                        pieces, largest_batch=1) if pieces else []
        finished = [result.left is None for result in results]
        for (index, piece, _), runs in zip(pieces, done, strict=True):
            if not finished[index]:
                results[index].runs += runs
                finished[index] = len(runs) < len(piece.tests)
        return [dataclasses.replace(result, left=None) for result in results]

    def run_together(self, jobs: Sequence[JavaJob]) -> list[JobResult]:
        """:meth:`run` for trusted programs only (a benchmark's own code, never an answer), each with one
        test and no input: a batch of them shares a JVM, each in a class loader of its own, as the tests
        of one program do, so that it costs one JVM start and not one each."""
        if any(job.tests != [b""] for job in jobs):
            raise ValueError("only programs with one test and no input run together")
        keyed = [(str(i), job) for i, job in enumerate(jobs)]
        return self.map(lambda worker, batch: worker.run_together(batch), keyed)
