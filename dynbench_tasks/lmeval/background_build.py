"""Building a run's documents while lm-eval loads the model. Loading a model keeps one core busy for
a while (half a minute for the demo model on a small machine) and building a fresh seed's documents
takes both; so, once lm-eval's command line (``lm_eval``, ``dynbench eval``) has said which tasks
it wants, a process of its own builds the documents of every mutated dynbench task among them into the datasets
cache, and the first task to ask for its documents waits for that process and then finds them there,
exactly as a warm run does. Only an optimisation: if that process fails or builds something else
(other settings), the task builds its documents itself, as it always did. Not from
``simple_evaluate``: a Python caller may have changed in its own process what a new process would
not see (a task manager's metadata, a patched benchmark), and the cache must never hold documents
its own build would not make.

Not started where it could not help or could clash: more than one evaluation process on the machine
(each builds its own), the datasets cache turned off, or ``DYNBENCH_BACKGROUND_BUILD=0``."""

from __future__ import annotations

import atexit
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from dynbench_tasks.lmeval.cost import PROGRESS_EVERY_SECONDS, clock
from dynbench_tasks.settings import FRESH

SWITCH_VARIABLE = "DYNBENCH_BACKGROUND_BUILD"
logger = logging.getLogger("lm_eval.dynbench")


class _Build:
    def __init__(self, process: subprocess.Popen, log: Path, tasks: int) -> None:
        self.process, self.log, self.tasks = process, log, tasks
        self.started = time.monotonic()

    def last_line(self) -> str:
        try:
            lines = self.log.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return ""
        return next((line for line in reversed(lines) if line.startswith("dynbench:")), "")


_build: _Build | None = None
_lock = threading.Lock()


def _worth_starting() -> bool:
    from dynbench_tasks.runtime import local_processes

    if os.environ.get(SWITCH_VARIABLE, "1") == "0" or local_processes() > 1:
        return False
    world = os.environ.get("WORLD_SIZE", "1")
    if world.isdigit() and int(world) > 1:
        return False
    import datasets

    return datasets.is_caching_enabled()


def _unbuilt(tasks: list[str], metadata: dict) -> list[str]:
    """The mutated dynbench tasks among ``tasks`` whose documents are not in the datasets cache yet."""
    from dynbench_tasks.lmeval.settings import settings_from_metadata
    from dynbench_tasks.lmeval.sources import load_raw
    from dynbench_tasks.lmeval.task_names import selected_tasks
    from dynbench_tasks.variants import STATIC
    from mutators.errors import DynbenchError

    names = []
    for entry in selected_tasks(tasks):
        if entry.variant in (None, STATIC):
            continue
        try:
            settings = settings_from_metadata({"benchmark": entry.benchmark, "variant": entry.variant, **metadata})
            raw = load_raw(settings.benchmark, settings.data_dir, settings.data_source)
        except DynbenchError:  # the run stops on it before anything is built
            return []
        files = raw.dataset.cache_files
        built = files and (Path(files[0]["filename"]).parent / f"cache-{settings.fingerprint(raw.sha256)}.arrow")
        if not (built and built.exists()):
            names.append(entry.name)
    return names


def start(tasks: list[str], metadata: dict) -> None:
    """Start building the documents of the mutated dynbench tasks among ``tasks`` (names, groups or
    patterns as lm-eval takes them) under ``metadata`` that the datasets cache does not hold yet,
    unless a build is running already."""
    global _build
    from dynbench_tasks.settings import SETTINGS

    with _lock:
        if _build is not None or not _worth_starting():
            return
        metadata = {key: value for key, value in metadata.items() if key in SETTINGS}
        if metadata.get("seed") == FRESH:  # drawn once per process: the build must use this process's draw
            from dynbench_tasks.lmeval.settings import fresh_seed

            metadata["seed"] = fresh_seed()
        unbuilt = _unbuilt(tasks, metadata)
        if not unbuilt:
            return
        handle, log = tempfile.mkstemp(prefix="dynbench-background-build-", suffix=".log")
        package_root = str(Path(__file__).resolve().parents[2])
        request = json.dumps({"tasks": unbuilt, "metadata": metadata, "path": package_root})
        environment = dict(os.environ, TQDM_DISABLE="1", HF_DATASETS_DISABLE_PROGRESS_BARS="1")
        with os.fdopen(handle, "w", encoding="utf-8") as output:
            process = subprocess.Popen([sys.executable, "-c", _CHILD, request], stdin=subprocess.PIPE,
                                       stdout=output, stderr=output, env=environment)
        _build = _Build(process, Path(log), len(unbuilt))
        atexit.register(_stop)
        logger.info("building the documents of %d tasks in the background while the model loads (%s=0 to "
                    "build them as each task is made)", len(unbuilt), SWITCH_VARIABLE)


def wait() -> None:
    """Return once the background build (if any) has ended, saying now and then what it is doing."""
    global _build
    with _lock:
        build, _build = _build, None
    if build is None:
        return
    while True:
        try:
            code = build.process.wait(timeout=PROGRESS_EVERY_SECONDS)
            break
        except subprocess.TimeoutExpired:
            line = build.last_line() or "dynbench: building documents"
            print(f"{line} (in the background, {clock(time.monotonic() - build.started)} so far; "
                  "waiting for it)", file=sys.stderr, flush=True)
    build.process.stdin.close()
    if code == 0:
        build.log.unlink(missing_ok=True)
        logger.info("the background build of %d tasks' documents took %s", build.tasks,
                    clock(time.monotonic() - build.started))
    else:  # the tasks build their documents here, and say what is wrong if it is wrong here too
        logger.info("the background build of the documents ended with status %d (its output: %s); "
                    "building them here", code, build.log)


def _stop() -> None:
    """At exit: end a build nobody waited for (lm-eval stopped before it made its tasks)."""
    build = _build
    if build is not None and build.process.poll() is None:
        build.process.terminate()
        build.process.wait()
        build.log.unlink(missing_ok=True)


def build(tasks: list[str], metadata: dict) -> None:
    """In the background process: build the documents of ``tasks`` into the datasets cache, each
    benchmark and seed's chains together, as the tasks themselves would."""
    from dynbench_tasks.lmeval.documents import expect, prepare_documents
    from dynbench_tasks.lmeval.settings import settings_from_metadata
    from dynbench_tasks.lmeval.sources import load_raw
    from dynbench_tasks.lmeval.task_names import selected_tasks

    wanted = []
    for entry in selected_tasks(tasks):
        settings = settings_from_metadata({"benchmark": entry.benchmark, "variant": entry.variant, **metadata})
        raw = load_raw(settings.benchmark, settings.data_dir, settings.data_source)
        expect(settings, raw.sha256)
        wanted.append((entry.name, settings, raw))
    for name, settings, raw in wanted:
        prepare_documents(raw.dataset, settings, name, raw.sha256)


def _end_with_parent() -> None:
    """Exit when the process that started this one is gone (its end closes our stdin)."""
    sys.stdin.read()
    os._exit(3)


# The background process: the package the parent runs (not whatever the working folder holds).
_CHILD = """
import json, sys, threading
request = json.loads(sys.argv[1])
sys.path.insert(0, request["path"])
from dynbench_tasks.lmeval import background_build
threading.Thread(target=background_build._end_with_parent, daemon=True).start()
background_build.build(request["tasks"], request["metadata"])
"""
