"""The boundary around sandboxed processes: bubblewrap where it works, else process limits alone.

Under bubblewrap a sandboxed process gets its own user, PID, network, IPC, UTS and cgroup namespaces
(no network at all, no view of other processes, no new user namespaces), an empty root filesystem
into which only what it needs is bound read-only, an empty environment, and it dies with its parent.
What it needs differs by language:

* the Python sandbox binds ``/usr`` (with the ``/lib``, ``/bin`` links) and the Python installation
  it runs, never a home or a data folder, and gets a private size-capped ``/tmp`` and ``/dev/shm``;
  its children cannot exec anything at all (the seccomp filter of :mod:`.worker`);
* a Java sandbox is a whitelist (``whitelist=`` below): the JDK parts, exactly the shared libraries
  they load, the dynamic loader and what the caller names, and nothing writable at all (no ``/tmp``,
  no ``/dev/shm``, a read-only ``/proc``, or none, and ``/dev``; only a folder the caller binds
  ``writable``), so the only programs it holds are the JDK's own and none can be written.

Started as root it runs as ``nobody``; a folder ``nobody`` cannot reach (a Python under a 0700
home) is first bound, in a private mount namespace of the launcher, to a place it can, so the
sandbox can bind it back at its own path.

Where bubblewrap is missing or cannot start (``DYNBENCH_ISOLATION=rlimits`` also turns it off),
dynbench says so once, loudly, and relies on the process limits of :mod:`.limits`: no whitelist then,
so a Java program can start any program of this machine. Results record which boundary was used and
whether the exec filter holds.
"""

from __future__ import annotations

import json
import logging
import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, wraps

from mutators.execution.limits import CLEAN_ENVIRONMENT, UNPRIVILEGED_ID

BUBBLEWRAP, RLIMITS = "bubblewrap", "rlimits"
ISOLATION_VARIABLE = "DYNBENCH_ISOLATION"
SCRATCH_BYTES = 64 * 1024 * 1024  # each of /tmp and /dev/shm
_SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
EXECUTION_FOLDER = os.path.dirname(os.path.abspath(__file__))
WORKER_SCRIPT = os.path.join(EXECUTION_FOLDER, "worker.py")  # the Python sandbox's fork server
logger = logging.getLogger("lm_eval.dynbench")


@dataclass(frozen=True)
class Isolation:
    kind: str  # BUBBLEWRAP or RLIMITS
    detail: str  # for RLIMITS: why bubblewrap is not used
    exec_filter: str  # why sandboxed Python children can exec; "" when the seccomp filter holds (probed)

    @property
    def denies_exec(self) -> bool:
        return self.exec_filter == ""

    def describe(self) -> str:
        """One line for results and logs: the boundary, then what Java and Python can start."""
        base = self.kind if self.kind == BUBBLEWRAP else f"{self.kind} ({self.detail})"
        java = ("Java sees only the JDK, nothing writable" if self.kind == BUBBLEWRAP
                else "Java can start any program on this machine")
        python = "Python cannot exec (seccomp)" if self.denies_exec else f"Python CAN exec ({self.exec_filter})"
        return f"{base}; {java}; {python}"


@lru_cache(maxsize=1024)
def _reachable_by_others(path: str) -> bool:
    """Whether a user other than the owner may read ``path`` (and pass through every folder above it);
    asked once per path and process (a sandbox is launched for every Java program)."""
    current = os.path.realpath(path)
    try:
        mode = os.stat(current).st_mode
        if not mode & stat.S_IROTH or (stat.S_ISDIR(mode) and not mode & stat.S_IXOTH):
            return False
        while current != "/":
            current = os.path.dirname(current)
            if not os.stat(current).st_mode & stat.S_IXOTH:
                return False
    except OSError:
        return False
    return True


@lru_cache(maxsize=1)
def reachable_temp_folder() -> str:
    """The temporary folder for what the sandbox user must reach (staging folders, the judge's cache,
    its scratch folders): ``TMPDIR`` where every folder above it lets others through, else ``/tmp``
    (a ``TMPDIR`` under a 0700 home would leave bubblewrap and the JVMs nothing to bind or read)."""
    own = tempfile.gettempdir()
    for folder in (own, "/tmp", "/var/tmp"):
        if _reachable_by_others(folder) and os.access(folder, os.W_OK | os.X_OK):
            return folder
    return own


@dataclass
class Launch:
    """How to start one sandboxed command: its argv, and a staging folder to remove once it runs."""

    argv: list[str]
    staging: str | None = None

    def cleanup(self) -> None:
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None


def _within(path: str, folders: Sequence[str]) -> bool:
    return any(path == folder or path.startswith(folder.rstrip("/") + "/") for folder in folders)


_SCRATCH = ("/tmp", "/dev/shm")  # private inside the sandbox: what lives there outside is bound elsewhere
_ELSEWHERE = "/run/dynbench"


def sandbox_paths(readable: Sequence[str], system: bool = True) -> dict[str, str]:
    """Where each folder or file in ``readable`` appears inside the sandbox: at its own path, except
    what lies in /tmp or /dev/shm (private there), which appears under /run/dynbench. With ``system``
    the sandbox binds the system folders whole, so what lies in them is left out here."""
    sources = sorted({os.path.realpath(path) for path in readable if os.path.exists(path)})
    if system:
        sources = [s for s in sources if not _within(s, _SYSTEM_FOLDERS)]
    sources = [s for s in sources if not any(s != o and _within(s, [o]) for o in sources)]
    return {s: f"{_ELSEWHERE}/{index}" if _within(s, _SCRATCH) else s for index, s in enumerate(sources)}


def inside(path: str, paths: dict[str, str]) -> str:
    """``path`` as a process in the sandbox sees it (``paths`` from :func:`sandbox_paths`)."""
    real = os.path.realpath(path)
    for source, destination in paths.items():
        if _within(real, [source]):
            return destination + real[len(source):]
    return real


def shared_libraries(binaries: Sequence[str]) -> dict[str, str]:
    """The shared libraries ``binaries`` (ELF executables and libraries) load, all the way down, and
    the dynamic loader, as ``{path inside the sandbox: file on this machine}``: each where the loader
    will look for it (the folder ldd found it in, without symlinks, and the name it was asked for).
    ldd runs with the clean environment the sandbox gets, so it searches as the sandbox will."""
    try:
        done = subprocess.run(["ldd", *binaries], capture_output=True, text=True, timeout=120, env=CLEAN_ENVIRONMENT)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise OSError(f"ldd could not list the shared libraries ({type(error).__name__}: {error})") from None
    found = {}
    for line in done.stdout.splitlines():
        line = line.strip()
        if "=>" in line:  # "libz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)" or "=> not found"
            path = line.split("=>", 1)[1].rsplit("(", 1)[0].strip()
        elif line.startswith("/") and line.endswith(")"):  # the loader: "/lib64/ld-linux-x86-64.so.2 (0x...)"
            path = line.rsplit("(", 1)[0].strip()
        else:
            continue
        if path.startswith("/") and os.path.isfile(path):
            where = os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
            found[where] = os.path.realpath(path)
    if not found:
        raise OSError(f"ldd found no shared libraries ({(done.stderr.strip().splitlines() or ['no reason'])[-1]})")
    return found


def unprivileged(argv: Sequence[str]) -> list[str]:
    """``argv`` as it starts here: as ``nobody`` when this process is root, else as it is."""
    if os.getuid() != 0:
        return list(argv)
    return ["setpriv", f"--reuid={UNPRIVILEGED_ID}", f"--regid={UNPRIVILEGED_ID}", "--clear-groups", "--", *argv]


def bubblewrap_launch(argv: Sequence[str], paths: dict[str, str], hidden: Sequence[str] = (),
                      chdir: str = "/tmp", environment: dict[str, str] | None = None,
                      whitelist: dict[str, str] | None = None, info_fd: int | None = None,
                      writable: dict[str, str] | None = None, proc: bool = True) -> Launch:
    """``argv`` inside a fresh bubblewrap sandbox that can read the sources of ``paths`` (each where
    ``paths`` puts it), with every folder in ``hidden`` that lies in them masked by an empty one, and
    ``environment`` (by default the clean one) as its whole environment. With ``info_fd`` (an open
    descriptor, passed to the launch) bubblewrap writes there, as JSON, the ``child-pid`` the command
    runs as, then closes it.

    Without ``whitelist`` it also reads ``/usr`` and the other system folders and writes a private
    ``/tmp`` and ``/dev/shm``. With one (``{path inside: file here}``, e.g. from
    :func:`shared_libraries`) it sees those files and ``paths`` only, and nothing in it is writable:
    ``/tmp`` is an empty read-only folder, ``/proc`` and ``/dev`` are read-only. ``writable``
    (``{folder here: path inside}``) binds folders writable, whatever else it says (their own modes
    decide who may write there); without ``proc`` there is no ``/proc`` at all."""
    command = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--as-pid-1",
               "--new-session", "--clearenv"]
    if info_fd is not None:
        command += ["--info-fd", str(info_fd)]
    for key, value in (environment or CLEAN_ENVIRONMENT).items():
        command += ["--setenv", key, value]
    for folder in _SYSTEM_FOLDERS:
        if os.path.islink(folder):  # /lib -> usr/lib: the loader's paths go through these
            command += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder) and whitelist is None:
            command += ["--ro-bind", folder, folder]
    command += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache", *(["--proc", "/proc"] if proc else []),
                "--dev", "/dev"]
    if whitelist is None:
        for folder in _SCRATCH:
            command += ["--size", str(SCRATCH_BYTES), "--tmpfs", folder]
    else:
        command += [*(["--remount-ro", "/proc"] if proc else []), "--dir", "/tmp"]  # no writing to /proc/self/mem
    command += ["--remount-ro", "/dev"]  # its device nodes stay usable; a /dev/shm mounted on it stays writable
    as_root = os.getuid() == 0
    binds = [*paths.items(), *((source, destination) for destination, source in (whitelist or {}).items())]
    unreachable = {source for source, _ in binds if as_root and not _reachable_by_others(source)}
    staging = tempfile.mkdtemp(prefix="dynbench-staging-", dir=reachable_temp_folder()) if unreachable else None
    staged: list[tuple[str, str]] = []
    for index, (source, destination) in enumerate(binds):
        bound = source
        if source in unreachable:
            bound = os.path.join(staging, str(index))
            staged.append((source, bound))
        command += ["--ro-bind", bound, destination]
    for source, destination in (writable or {}).items():
        command += ["--bind", source, destination]
    for path in sorted({os.path.realpath(p) for p in hidden if p}):
        if os.path.isdir(path) and _within(path, [*paths, *(_SYSTEM_FOLDERS if whitelist is None else ())]):
            command += ["--tmpfs", inside(path, paths), "--remount-ro", inside(path, paths)]
    command += ["--remount-ro", "/", "--chdir", chdir, "--", *argv]
    if not staged:
        return Launch(unprivileged(command))
    os.chmod(staging, 0o755)
    # Bind what nobody cannot reach into the staging folder, in a mount namespace of our own (so the
    # host sees an empty folder), then drop to nobody; bubblewrap binds it back where it belongs.
    steps = [f"{'mkdir' if os.path.isdir(source) else 'touch'} {shlex.quote(bound)} && "
             f"mount --bind {shlex.quote(source)} {shlex.quote(bound)}" for source, bound in staged]
    script = " && ".join(steps) + " && exec " + shlex.join(unprivileged(command))
    return Launch(["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script], staging)


def python_site_folders() -> list[str]:
    """Folders of installed packages a sandboxed program may import from (numpy, where present): the
    interpreter's site folders and any other site-packages folder on its path."""
    import site
    import sysconfig

    folders = [*site.getsitepackages(), *(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))]
    user_site = site.getusersitepackages()
    if isinstance(user_site, str):
        folders.append(user_site)
    folders += [path for path in sys.path if os.path.basename(path) in ("site-packages", "dist-packages")]
    return list(dict.fromkeys(os.path.realpath(f) for f in folders if os.path.isdir(f)))


def python_readable() -> list[str]:
    """What a sandboxed Python needs to read: its installation and its installed packages."""
    paths = {sys.base_prefix, sys.base_exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    return sorted({p for p in paths if p and os.path.isdir(p)} | set(python_site_folders()))


def _probe_worker(bubblewrap: bool) -> tuple[dict | None, str]:
    """The sandbox worker's own probe (``worker.py --probe``: its PID, and whether a child of it is
    refused exec under the seccomp filter), run inside bubblewrap or without; (answer, "") or (None, why)."""
    argv = [os.path.realpath(sys.executable), "-I", "-S", WORKER_SCRIPT, "--probe"]
    launch = None
    if bubblewrap:
        paths = sandbox_paths([*python_readable(), EXECUTION_FOLDER])
        launch = bubblewrap_launch([inside(argv[0], paths), "-I", "-S", inside(WORKER_SCRIPT, paths), "--probe"],
                                   paths)
        argv = launch.argv
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30, env=CLEAN_ENVIRONMENT)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"could not start ({type(error).__name__})"
    finally:
        if launch is not None:
            launch.cleanup()
    try:
        answer = json.loads(done.stdout)
        if done.returncode == 0 and isinstance(answer.get("exec_filter"), str):
            return answer, ""
    except (ValueError, AttributeError):
        pass
    return None, (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1][:200]


def _bubblewrap_missing() -> str | None:
    """Why bubblewrap cannot be tried here, if it cannot."""
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed; on Debian/Ubuntu: apt-get install bubblewrap"
    if os.getuid() == 0 and (shutil.which("setpriv") is None or shutil.which("unshare") is None):
        return "running as root needs setpriv and unshare (util-linux) beside bubblewrap"
    return None


def _found_once(find: Callable[[], Isolation]) -> Callable[[], Isolation]:
    """``find`` cached, and run by one caller at a time: callers that ask together (the judge's workers
    start together) wait for one answer, and its warnings are said once."""
    cached, finding = lru_cache(maxsize=1)(find), threading.Lock()

    @wraps(find)
    def once() -> Isolation:
        with finding:
            return cached()

    once.cache_clear = cached.cache_clear
    return once


@_found_once
def isolation() -> Isolation:
    """The boundary this machine offers, found once per process (and announced once if weak)."""
    answer = None
    if os.environ.get(ISOLATION_VARIABLE, "").strip().lower() == RLIMITS:
        kind, detail = RLIMITS, f"{ISOLATION_VARIABLE}={RLIMITS}"
    else:
        detail = _bubblewrap_missing()
        if detail is None:
            answer, why = _probe_worker(bubblewrap=True)
            if answer is None or answer.get("pid") != 1:
                answer, detail = None, f"bubblewrap cannot start here: {why or 'not PID 1 inside'}"
        kind = BUBBLEWRAP if detail is None else RLIMITS
    if answer is None:
        answer, why = _probe_worker(bubblewrap=False)
    found = Isolation(kind, detail or "", answer["exec_filter"] if answer else f"the probe failed: {why}")
    if found.kind != BUBBLEWRAP:
        logger.warning("sandboxed code runs WITHOUT bubblewrap (%s): process limits only, no private filesystem, "
                       "network or process namespace, and judged Java programs can start any program on this "
                       "machine (no mount whitelist); results record this", found.detail)
    if not found.denies_exec:
        logger.warning("sandboxed Python code CAN start other programs: the seccomp exec filter does not hold "
                       "here (%s); results record this", found.exec_filter)
    return found
