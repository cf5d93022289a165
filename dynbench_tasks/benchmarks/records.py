"""Where a benchmark's records come from, in this order: a data folder given explicitly
(``--data-dir``, ``--metadata data_dir``), the folder ``$DYNBENCH_DATA_DIR`` names, and else the copy
bundled in the package (gzip-compressed, each file checked against the sha256 in its manifest).

A data folder has the layout of the bundled copy, uncompressed: ``cruxeval.jsonl``,
``avatar_py2java.jsonl``, ``codenet_py2java.jsonl``, ``transcoder_py2java.jsonl``. Every record is
checked for the fields its benchmark needs.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from dynbench_tasks.errors import DataError
from dynbench_tasks.locations import BUNDLED, DATA_DIR_VARIABLE

MANIFEST = "MANIFEST.json"


@dataclass(frozen=True)
class DataFile:
    """One benchmark file as found: its text, where it came from, and the sha256 of its bytes."""

    text: str
    origin: str  # "bundled" or the folder's path
    path: Path
    sha256: str


def data_folder(explicit: str | None = None) -> Path | None:
    """The data folder to read (``explicit``, else ``$DYNBENCH_DATA_DIR``), or None for the bundled copy."""
    chosen = explicit or os.environ.get(DATA_DIR_VARIABLE)
    if not chosen:
        return None
    path = Path(chosen).expanduser()
    if not path.is_dir():
        source, way_back = ("given", "leave it out") if explicit else (
            f"${DATA_DIR_VARIABLE}", f"unset {DATA_DIR_VARIABLE}")
        raise DataError(f"benchmark data folder {str(path)!r} ({source}) does not exist; "
                        f"{way_back} to use the copy bundled with dynbench")
    return path


@cache
def _manifest() -> dict:
    try:
        return json.loads((BUNDLED / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise DataError(f"the bundled benchmark data is missing or damaged ({BUNDLED / MANIFEST}): "
                        "reinstall dynbench, or point DYNBENCH_DATA_DIR at a data folder") from None


@cache
def _bundled(filename: str) -> DataFile:
    entry = _manifest().get(filename)
    path = BUNDLED / f"{filename}.gz"
    try:
        data = gzip.decompress(path.read_bytes())
    except (OSError, EOFError, gzip.BadGzipFile):
        data = None
    digest = hashlib.sha256(data).hexdigest() if data is not None else ""
    if entry is None or digest != entry["sha256"]:
        raise DataError(f"the bundled {filename} is missing or does not match its recorded sha256 ({path}): "
                        "reinstall dynbench, or point DYNBENCH_DATA_DIR at a data folder")
    return DataFile(data.decode("utf-8"), "bundled", path, digest)


def read_data_file(filename: str, data_dir: str | None = None) -> DataFile:
    """``filename`` from the data folder in use, else from the bundled copy."""
    folder = data_folder(data_dir)
    if folder is None:
        return _bundled(filename)
    path = folder / filename
    if not path.is_file():
        raise DataError(f"{path} not found: the data folder (from --data-dir, --metadata data_dir or "
                        f"${DATA_DIR_VARIABLE}) must hold {filename}; without a folder the bundled copy is used")
    data = path.read_bytes()
    return DataFile(data.decode("utf-8"), str(folder), path, hashlib.sha256(data).hexdigest())


def parse_records(text: str, where: str, required: tuple[str, ...] = ()) -> list[dict]:
    """The JSON Lines in ``text``, each a JSON object holding the ``required`` fields."""
    records = []
    for number, line in enumerate(text.split("\n"), 1):  # JSON Lines end at \n only (not U+2028)
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise DataError(f"{where}:{number}: not valid JSON ({error.msg})") from None
        if not isinstance(record, dict):
            raise DataError(f"{where}:{number}: expected a JSON object, got {type(record).__name__}")
        missing = [name for name in required if name not in record]
        if missing:
            raise DataError(f"{where}:{number}: record lacks field(s) {', '.join(missing)}")
        records.append(record)
    return records


def read_jsonl(path: Path, required: tuple[str, ...] = ()) -> list[dict]:
    if not path.is_file():
        raise DataError(f"{path}: file not found")
    return parse_records(path.read_text(encoding="utf-8"), str(path), required)
