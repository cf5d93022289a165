"""Benchmark records from a data folder (the layout of the shared data folder: ``cruxeval.jsonl``,
``avatar_py2java.jsonl``, …), each record checked for the fields its benchmark needs."""

from __future__ import annotations

import json
import os
from pathlib import Path

from dynbench_tasks.errors import DataError

DATA_DIR_VARIABLE = "DYNBENCH_DATA_DIR"


def resolve_data_dir(explicit: str | None = None) -> Path:
    """``explicit`` if given, else ``$DYNBENCH_DATA_DIR``; a clear error when neither is usable."""
    chosen = explicit or os.environ.get(DATA_DIR_VARIABLE)
    if not chosen:
        raise DataError(f"no benchmark data folder: pass --data-dir DIR or set {DATA_DIR_VARIABLE}")
    path = Path(chosen).expanduser()
    if not path.is_dir():
        source = "--data-dir" if explicit else DATA_DIR_VARIABLE
        raise DataError(f"benchmark data folder {str(path)!r} (from {source}) does not exist")
    return path


def read_jsonl(path: Path, required: tuple[str, ...] = ()) -> list[dict]:
    if not path.is_file():
        raise DataError(f"{path}: file not found")
    records = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise DataError(f"{path}:{number}: not valid JSON ({error.msg})") from None
            if not isinstance(record, dict):
                raise DataError(f"{path}:{number}: expected a JSON object, got {type(record).__name__}")
            missing = [name for name in required if name not in record]
            if missing:
                raise DataError(f"{path}:{number}: record lacks field(s) {', '.join(missing)}")
            records.append(record)
    return records
