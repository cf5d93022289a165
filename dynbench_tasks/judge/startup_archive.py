"""The judge's class-data sharing archive: every judged program's fresh JVM maps the classes a
typical program and the runner load, already parsed and verified, instead of loading them one by one
(TransCoder's references: see ``scripts/bench_judge.py``).

It is made once per judge build (JDK and judge sources), beside the judge's jar, by trusted runs
outside the sandbox: the runner runs the training program ``java/training/Training.java`` and lists
every class it loads, then ``java -Xshare:dump`` stores them. A judged program can read the archive
(it maps it) but not write it; it holds JDK and runner classes only. A JVM that cannot map it starts
without it (``-Xshare:auto``), and a machine where it cannot be made judges without it, only slower.
"""

from __future__ import annotations

import hashlib
import logging
import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from dynbench_tasks.judge.jdk import JAR, TOOL_JVM_OPTIONS, run_tool
from dynbench_tasks.judge.wire import SECRET_BYTES, runner_request

_TRAINING = Path(__file__).resolve().parent / "java" / "training" / "Training.java"
_SECONDS = 120
_TRAINING_PACKAGES = ("training/",)
_OWN_PACKAGES = ("dynbench/", *_TRAINING_PACKAGES)
_log = logging.getLogger(__name__)


def startup_archive(java: str, javac: str, folder: Path, flags: Sequence[str],
                    entries: Sequence[Sequence[str]]) -> Path | None:
    """The archive in the judge's ``folder`` for runner JVMs started as ``java *flags *entry``, for each
    of ``entries`` (one per ``java``, flags and entries: a JVM ignores an archive made by another), made
    now if it is missing; None where it cannot be made."""
    made_from = " ".join([java, *flags, *(word for entry in entries for word in entry)])
    archive = folder / f"dynbench-{hashlib.sha256(made_from.encode()).hexdigest()[:12]}.jsa"
    if archive.is_file():
        return archive
    with tempfile.TemporaryDirectory(prefix="dynbench-archive-", dir=folder) as scratch:
        try:
            _make(java, javac, folder / JAR, Path(scratch), list(flags), entries, archive)
        except (OSError, subprocess.SubprocessError, ValueError) as error:
            _log.warning("judge JVMs start without a class-data sharing archive (%s: %s), only slower",
                         type(error).__name__, str(error)[-300:])
            return None
    return archive


def _make(java: str, javac: str, jar: Path, scratch: Path, flags: list[str], entries: Sequence[Sequence[str]],
          archive: Path) -> None:
    compiled = scratch / "classes"
    run_tool([javac, *TOOL_JVM_OPTIONS, "-cp", str(jar), "-d", str(compiled), str(_TRAINING)], seconds=_SECONDS)
    classes = {str(path.relative_to(compiled).with_suffix("")).replace(os.sep, "."): path.read_bytes()
               for path in compiled.rglob("*.class")}
    descriptor_pipe = scratch / "descriptor"  # as a judge's runner has one (its classes go into the archive too)
    os.mkfifo(descriptor_pipe, 0o600)
    request = runner_request(os.urandom(SECRET_BYTES), "", "", str(descriptor_pipe), "training.Training", classes,
                             False, _SECONDS * 1000, 1 << 20, [b"5 12\n"])
    # The training program's classes never; the runner's only where a runtime linked for it holds them: an
    # archive that holds a jar's classes is valid only where that jar lies at the same path, and the
    # sandbox shows the judge's folder elsewhere.
    skipped = _OWN_PACKAGES if any("-p" in entry for entry in entries) else _TRAINING_PACKAGES
    lines: dict[str, None] = {}
    reader = os.open(descriptor_pipe, os.O_RDONLY | os.O_NONBLOCK)  # held, as the judge holds it: no open waits
    try:
        for index, entry in enumerate(entries):
            loaded = scratch / f"loaded-{index}.lst"
            run_tool([java, *flags, f"-XX:DumpLoadedClassList={loaded}", *entry], request, _SECONDS)
            lines.update(dict.fromkeys(line for line in loaded.read_text().splitlines(keepends=True)
                                       if not line.startswith(skipped)))
    finally:
        os.close(reader)
    class_list = scratch / "classes.lst"
    class_list.write_text("".join(lines))
    staged = scratch / archive.name
    run_tool([java, *flags, "-Xshare:dump", f"-XX:SharedClassListFile={class_list}", f"-XX:SharedArchiveFile={staged}"],
             seconds=_SECONDS)
    staged.chmod(0o644)
    os.replace(staged, archive)

