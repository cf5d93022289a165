"""The boundary around sandboxed processes: bubblewrap where it works, else process limits alone.

Under bubblewrap a sandboxed process gets its own user, PID, network, IPC, UTS and cgroup namespaces
(no network at all, no view of other processes, no new user namespaces), an empty root filesystem
into which only what it needs is bound read-only (``/usr`` and the Python or Java installation it
runs, never a home or a data folder), a private size-capped ``/tmp`` and ``/dev/shm``, an empty
environment, and it dies with its parent. Started as root it runs as ``nobody``; a folder ``nobody``
cannot reach (a Python under a 0700 home) is first bound, in a private mount namespace of the
launcher, to a place it can, so the sandbox can bind it back at its own path.

Where bubblewrap is missing or cannot start (``DYNBENCH_ISOLATION=rlimits`` also turns it off),
dynbench says so once, loudly, and relies on the process limits of :mod:`.limits`; results record
which of the two was used.
"""

from __future__ import annotations

import logging
import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from mutators.execution.limits import CLEAN_ENVIRONMENT, UNPRIVILEGED_ID

BUBBLEWRAP, RLIMITS = "bubblewrap", "rlimits"
ISOLATION_VARIABLE = "DYNBENCH_ISOLATION"
SCRATCH_BYTES = 64 * 1024 * 1024  # each of /tmp and /dev/shm
_SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
logger = logging.getLogger("lm_eval.dynbench")


@dataclass(frozen=True)
class Isolation:
    kind: str  # BUBBLEWRAP or RLIMITS
    detail: str  # for RLIMITS: why bubblewrap is not used

    def describe(self) -> str:
        return self.kind if self.kind == BUBBLEWRAP else f"{self.kind} ({self.detail})"


def _reachable_by_others(path: str) -> bool:
    """Whether a user other than the owner may read ``path`` (and pass through every folder above it)."""
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


def sandbox_paths(readable: Sequence[str]) -> dict[str, str]:
    """Where each folder or file in ``readable`` appears inside the sandbox: at its own path, except
    what lies in /tmp or /dev/shm (private there), which appears under /run/dynbench."""
    sources = sorted({os.path.realpath(path) for path in readable if os.path.exists(path)})
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


def bubblewrap_launch(argv: Sequence[str], paths: dict[str, str], hidden: Sequence[str] = (),
                      chdir: str = "/tmp", environment: dict[str, str] | None = None) -> Launch:
    """``argv`` inside a fresh bubblewrap sandbox that can read ``/usr`` and the sources of ``paths``
    only (each where ``paths`` puts it), with every folder in ``hidden`` that lies in them masked by an
    empty one, and ``environment`` (by default the clean one) as its whole environment."""
    command = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--as-pid-1",
               "--new-session", "--clearenv"]
    for key, value in (environment or CLEAN_ENVIRONMENT).items():
        command += ["--setenv", key, value]
    for folder in _SYSTEM_FOLDERS:
        if os.path.islink(folder):
            command += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            command += ["--ro-bind", folder, folder]
    command += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache", "--proc", "/proc", "--dev", "/dev"]
    for folder in _SCRATCH:
        command += ["--size", str(SCRATCH_BYTES), "--tmpfs", folder]
    command += ["--remount-ro", "/dev"]  # its device nodes stay usable; /dev/shm, mounted on it, stays writable
    as_root = os.getuid() == 0
    staged: list[tuple[str, str]] = []
    staging = tempfile.mkdtemp(prefix="dynbench-staging-") if as_root else None
    for index, (source, destination) in enumerate(paths.items()):
        bound = source
        if as_root and not _reachable_by_others(source):
            bound = os.path.join(staging, str(index))
            staged.append((source, bound))
        command += ["--ro-bind", bound, destination]
    for path in sorted({os.path.realpath(p) for p in hidden if p}):
        if os.path.isdir(path) and _within(path, [*paths, *_SYSTEM_FOLDERS]):
            command += ["--tmpfs", inside(path, paths)]
    command += ["--remount-ro", "/", "--chdir", chdir, "--", *argv]
    if not as_root:
        return Launch(command)
    os.chmod(staging, 0o755)
    drop = ["setpriv", f"--reuid={UNPRIVILEGED_ID}", f"--regid={UNPRIVILEGED_ID}", "--clear-groups", "--"]
    if not staged:
        shutil.rmtree(staging, ignore_errors=True)
        return Launch(drop + command)
    # Bind what nobody cannot reach into the staging folder, in a mount namespace of our own (so the
    # host sees an empty folder), then drop to nobody; bubblewrap binds it back where it belongs.
    steps = [f"mkdir {shlex.quote(bound)} && mount --bind {shlex.quote(source)} {shlex.quote(bound)}"
             for source, bound in staged]
    script = " && ".join(steps) + " && exec " + shlex.join(drop + command)
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


def _probe() -> str | None:
    """None when a Python can start inside bubblewrap here, else why not."""
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed; on Debian/Ubuntu: apt-get install bubblewrap"
    if os.getuid() == 0 and (shutil.which("setpriv") is None or shutil.which("unshare") is None):
        return "running as root needs setpriv and unshare (util-linux) beside bubblewrap"
    launch = bubblewrap_launch([os.path.realpath(sys.executable), "-I", "-S", "-c", "import os; print(os.getpid())"],
                               sandbox_paths(python_readable()))
    try:
        done = subprocess.run(launch.argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap could not start ({type(error).__name__})"
    finally:
        launch.cleanup()
    if done.returncode != 0 or done.stdout.strip() != "1":
        reason = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return f"bubblewrap cannot start here: {reason[:200]}"
    return None


@lru_cache(maxsize=1)
def isolation() -> Isolation:
    """The boundary this machine offers, found once per process (and announced once if weak)."""
    if os.environ.get(ISOLATION_VARIABLE, "").strip().lower() == RLIMITS:
        found = Isolation(RLIMITS, f"{ISOLATION_VARIABLE}={RLIMITS}")
    else:
        reason = _probe()
        found = Isolation(BUBBLEWRAP, "") if reason is None else Isolation(RLIMITS, reason)
    if found.kind != BUBBLEWRAP:
        logger.warning("sandboxed code runs WITHOUT bubblewrap (%s): process limits only, no private filesystem, "
                       "network or process namespace; results record this", found.detail)
    return found
