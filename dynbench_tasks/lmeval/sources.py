"""Raw benchmark data as a ``datasets.Dataset``: a local folder when one is given, else the Hub.

The local folder comes from ``--metadata data_dir=…`` or ``$DYNBENCH_DATA_DIR`` and has the layout of
the shared data folder (``cruxeval.jsonl``, …). Only CRUXEval has a Hub copy (``cruxeval-org/cruxeval``,
the one lm-eval's own ``cruxeval_*`` tasks use); the translation benchmarks need their tests, which
only the local files carry.
"""

from __future__ import annotations

import logging
from pathlib import Path

import datasets

from dynbench_tasks.benchmarks import BENCHMARKS, read_jsonl
from dynbench_tasks.benchmarks.data import DATA_DIR_VARIABLE
from dynbench_tasks.errors import DataError

logger = logging.getLogger("lm_eval.dynbench")
_loaded: dict[tuple[str, str | None], datasets.Dataset] = {}


def _local(benchmark: str, data_dir: str) -> datasets.Dataset:
    spec = BENCHMARKS[benchmark]
    path = Path(data_dir).expanduser() / spec.filename
    if not path.is_file():
        raise DataError(
            f"{spec.name}: {path} not found; the data folder (from --metadata data_dir or ${DATA_DIR_VARIABLE}) "
            f"must hold {spec.filename}"
        )
    read_jsonl(path, spec.required)  # validates every record's schema with a clear message
    return datasets.load_dataset("json", data_files=str(path), split="train")


def _hub(benchmark: str) -> datasets.Dataset:
    spec = BENCHMARKS[benchmark]
    how_to = (
        f"set {DATA_DIR_VARIABLE}=DIR or pass --metadata '{{\"data_dir\": \"DIR\"}}' where DIR holds {spec.filename}"
    )
    if spec.hub is None:
        raise DataError(f"{spec.name} has no Hub copy with tests: {how_to}")
    path, split = spec.hub
    try:
        return datasets.load_dataset(path, split=split)
    except Exception as error:  # noqa: BLE001 - any Hub failure means the same thing to the user
        raise DataError(
            f"{spec.name}: the Hugging Face Hub dataset {path} could not be loaded "
            f"({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}); "
            f"to use a local copy instead, {how_to}"
        ) from None


def load_raw(benchmark: str, data_dir: str | None) -> datasets.Dataset:
    """The benchmark's records, loaded once per process."""
    key = (benchmark, data_dir)
    if key not in _loaded:
        _loaded[key] = _local(benchmark, data_dir) if data_dir else _hub(benchmark)
        origin = data_dir or BENCHMARKS[benchmark].hub[0]
        logger.info("%s: %d records from %s", benchmark, len(_loaded[key]), origin)
    return _loaded[key]
