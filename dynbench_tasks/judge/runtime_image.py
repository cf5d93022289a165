"""A Java runtime linked for the runner (``jlink``): the modules a runner JVM of the JDK resolves, the
judge's own among them, so that every judged program's fresh JVM starts from a module graph resolved
when the image was linked instead of resolving it at each start (TransCoder's references: see
``scripts/bench_judge.py``).

It is linked once per judge build (JDK and judge sources), in the judge's folder, and holds exactly
the modules the runner gets on the JDK itself (``--show-module-resolution``), so a program sees the
same Java either way, debug attributes (line numbers) included: stripping them (``--strip-debug``)
took jlink 3.8 s of CPU instead of 2.4 on a fresh machine's first judging, to save 20 MB of its 145.
A JDK without ``jlink`` or its ``jmods`` runs the runner from the JDK itself, only slower.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from dynbench_tasks.judge.jdk import TOOL_JVM_OPTIONS, run_tool

IMAGE = "runtime"
_log = logging.getLogger(__name__)


def runtime_image(java: str, folder: Path, entry: Sequence[str]) -> Path | None:
    """The ``java`` of the image in the judge's ``folder`` for the runner started from the JDK's
    ``java`` as ``java *entry`` (its module path naming the judge's jar), linked now if it is
    missing; None where it cannot be linked."""
    image = folder / IMAGE
    if (image / "bin" / "java").is_file():
        return image / "bin" / "java"
    home = Path(java).resolve().parent.parent
    jlink, jmods = home / "bin" / "jlink", home / "jmods"
    if not jlink.is_file() or not jmods.is_dir():
        _log.info("judge JVMs start from the JDK itself: it has no jlink or jmods to link a runtime for them")
        return None
    staging = Path(tempfile.mkdtemp(prefix="dynbench-runtime-", dir=folder))
    try:
        modules = _resolved_modules(java, entry)
        jar = entry[entry.index("-p") + 1]
        run_tool([str(jlink), *TOOL_JVM_OPTIONS, "--module-path", f"{jmods}{os.pathsep}{jar}",
                  "--add-modules", ",".join(modules), "--output", str(staging / IMAGE), "--no-header-files",
                  "--no-man-pages"])
        for tool in (staging / IMAGE / "bin").iterdir():  # java alone: the others would only start a JVM too
            if tool.name != "java":
                tool.unlink()
        run_tool([str(staging / IMAGE / "bin" / "java"), "-Xshare:dump"])  # the image's default archive
        for path in [staging, *staging.rglob("*")]:
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
        os.replace(staging / IMAGE, image)
    except (OSError, subprocess.SubprocessError, ValueError) as error:
        if (image / "bin" / "java").is_file():  # another process linked it first
            return image / "bin" / "java"
        _log.warning("judge JVMs start from the JDK itself, only slower: no runtime could be linked for them "
                     "(%s: %s)", type(error).__name__, str(error)[-300:])
        return None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return image / "bin" / "java"


def _resolved_modules(java: str, entry: Sequence[str]) -> list[str]:
    """The modules a runner JVM started as ``java *entry`` resolves (it ends at once: no request)."""
    done = run_tool([java, "--show-module-resolution", *entry])
    modules = set()
    for line in done.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "root":
            modules.add(words[1])
        elif len(words) >= 3 and words[1] in ("requires", "binds"):
            modules.update((words[0], words[2]))
    if "dynbench" not in modules or "java.base" not in modules:
        raise ValueError("the runner's modules could not be read from --show-module-resolution")
    return sorted(modules)

