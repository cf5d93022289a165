"""The JDK the judge runs on, and the judge's own Java classes built with it."""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess
import tempfile
import zipfile
from functools import lru_cache
from pathlib import Path

from dynbench_tasks.errors import JdkMissing
from mutators.execution.isolation import reachable_temp_folder

JDK_PACKAGE = "default-jdk-headless"
_SOURCES = Path(__file__).resolve().parent / "java" / "dynbench"  # module dynbench (see the runner's launch in pool.py)
# The judge's own classes concatenate strings inline, as CompileServer compiles answers: the default
# (an invokedynamic bootstrap) costs every fresh JVM milliseconds.
STARTUP_OPTIONS = ["-XDstringConcat=inline"]
# javac and jlink, as the judge builds itself once per JDK, spend about half the CPU with C1 alone and the serial
# collector (jlink of the runner's runtime: 4.1 s user instead of 8.4 s); their output is the same.
TOOL_JVM_OPTIONS = ["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"]
JAR = "dynbench.jar"


def find_jdk() -> tuple[str, str]:
    """(java, javac) from $JAVA_HOME or PATH, or a JdkMissing error saying what to install."""
    home = os.environ.get("JAVA_HOME")
    candidates = [Path(home) / "bin"] if home else []
    found = []
    for tool in ("java", "javac"):
        path = next((str(d / tool) for d in candidates if (d / tool).is_file()), None) or shutil.which(tool)
        if path is None:
            raise JdkMissing(
                f"Java translation tasks need a JDK ({tool} was not found on PATH or in $JAVA_HOME/bin): "
                f"install one, e.g. `apt-get install {JDK_PACKAGE}` on Debian/Ubuntu"
            )
        found.append(path)
    return found[0], found[1]


def judge_classes() -> Path:
    """The folder of the compiled judge: :data:`JAR`, module ``dynbench`` (usable on the class path
    too), built once per judge source and JDK into a world-readable cache folder (the JVMs may run as
    an unprivileged user); the startup archive (:mod:`judge.startup_archive`) joins it later. A jar,
    not a folder of classes: a class-data sharing archive can only be made from jars."""
    _, javac = find_jdk()
    sources = sorted(_SOURCES.glob("*.java"))
    built_with = " ".join([javac, *STARTUP_OPTIONS, JAR]).encode()
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources) + built_with).hexdigest()[:16]
    folder = Path(reachable_temp_folder()) / f"dynbench-judge-{os.getuid()}-{digest}"
    if (folder / JAR).is_file() and folder.stat().st_uid == os.getuid():
        return folder
    staging = Path(tempfile.mkdtemp(prefix="dynbench-judge-build-", dir=folder.parent))
    done = subprocess.run([javac, *TOOL_JVM_OPTIONS, *STARTUP_OPTIONS, "-d", str(staging / "classes"),
                           *map(str, sources)], capture_output=True, text=True)
    if done.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise JdkMissing(f"could not compile the Java judge with {javac}:\n{done.stderr[-2000:]}")
    with zipfile.ZipFile(staging / JAR, "w") as jar:
        for path in sorted((staging / "classes").rglob("*.class")):
            jar.write(path, path.relative_to(staging / "classes").as_posix())
    shutil.rmtree(staging / "classes")
    staging.chmod(0o755)
    (staging / JAR).chmod(0o644)
    try:
        staging.rename(folder)
    except OSError:  # another process built it first
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def run_tool(argv: list[str], stdin: bytes = b"", seconds: float = 300) -> str:
    """What a JDK tool run by the judge's own builds printed (stdout, then stderr); a ValueError
    naming the tool when it fails."""
    done = subprocess.run(argv, input=stdin, capture_output=True, timeout=seconds)
    if done.returncode != 0:
        raise ValueError(f"{Path(argv[0]).name} exited with {done.returncode}: "
                         f"{done.stderr.decode('utf-8', 'replace').strip()[-300:]}")
    return done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")


@lru_cache(maxsize=4)
def sandbox_mounts(java: str) -> tuple[list[str], dict[str, str]]:
    """What a judge JVM started from ``java`` may read, nothing else: (the JDK's ``lib``, ``conf`` and
    ``release``, its ``bin/java`` and no other tool, the ``/etc/java*`` configuration Debian's JDKs
    link to, the locale data of the clean environment's ``C.UTF-8``; and, as ``{path inside: file
    here}``, exactly the shared libraries ``bin/java`` and the JDK's own libraries load, with the
    dynamic loader). The other JDK tools are left out because nothing needs them: each would only
    start another JVM, as ``bin/java`` can."""
    from mutators.execution.isolation import shared_libraries

    executable = os.path.realpath(java)
    home = os.path.dirname(os.path.dirname(executable))
    readable = [executable, *(os.path.join(home, part) for part in ("lib", "conf", "release")),
                *glob.glob("/etc/java*"), "/usr/lib/locale"]
    elf = [executable, *sorted(glob.glob(os.path.join(home, "lib", "**", "*.so"), recursive=True))]
    libraries = {inside: here for inside, here in shared_libraries(elf).items() if not here.startswith(home + "/")}
    return [path for path in readable if os.path.exists(path)], libraries
