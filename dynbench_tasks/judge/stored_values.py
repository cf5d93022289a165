"""Values that trusted runs computed (TransCoder's reference values: what each harness's own
``f_gold`` reports), kept on disk for the next process on this machine, so that it reads them instead
of running the benchmark's code again (``dynbench judge --benchmark transcoder``: ~8 s of a 40 s run).

One file per judge build (:meth:`pool.JavaJudge.identity`: the runner's ``java``, flags and classes,
and the JDK's release) and the code that made the programs, in this user's cache folder, which only
this user may read or write and which every sandbox hides like benchmark data
(:func:`locations.data_locations`): a judged program never sees the values it is compared with. Where
judged programs would run as this user (no bubblewrap, not root), nothing is kept or read. Only values
a run produced are kept, never a failure (a trusted run that timed out on a busy machine runs again
next time). A file that cannot be read is ignored: the values are computed as if it were missing."""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path

from dynbench_tasks.locations import cache_folder

_log = logging.getLogger(__name__)


def _file(kind: str, identity: str) -> Path:
    return cache_folder() / kind / f"{identity}.json"


def stored(kind: str, identity: str) -> dict[str, list[str]]:
    """The values kept for this judge build, by key; {} where there are none (or none readable)."""
    path = _file(kind, identity)
    try:
        if path.stat().st_uid != os.getuid():
            return {}
        values = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(values, dict):
        return {}
    return {key: value for key, value in values.items()
            if isinstance(value, list) and all(isinstance(item, str) for item in value)}


def store(kind: str, identity: str, values: dict[str, list[str]]) -> None:
    """Adds ``values`` to those kept (atomically: a reader sees the old file or the new one)."""
    if not values:
        return
    path = _file(kind, identity)
    try:
        cache_folder().mkdir(parents=True, exist_ok=True, mode=0o700)
        path.parent.mkdir(exist_ok=True, mode=0o700)
        merged = {**stored(kind, identity), **values}
        handle, staged = tempfile.mkstemp(prefix=".staged-", dir=path.parent)
    except OSError as error:
        _log.info("values not kept for the next run (%s: %s)", type(error).__name__, error)
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(merged, out, sort_keys=True)
        os.replace(staged, path)
    except OSError as error:
        Path(staged).unlink(missing_ok=True)
        _log.info("values not kept for the next run (%s: %s)", type(error).__name__, error)
