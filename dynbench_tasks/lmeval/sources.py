"""Raw benchmark data as a ``datasets.Dataset`` for the tasks.

By default the records come from a data folder (``--metadata data_dir=…``, else ``$DYNBENCH_DATA_DIR``)
or, without one, from the copy bundled in the package (see :mod:`dynbench_tasks.benchmarks.records`).
``--metadata '{"data_source": "hub"}'`` loads a benchmark from its Hugging Face Hub copy instead; only
CRUXEval has one (``cruxeval-org/cruxeval``, the one lm-eval's own ``cruxeval_*`` tasks use), since the
translation benchmarks need their tests, which only dynbench's files carry.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import datasets

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.benchmarks.records import DATA_DIR_VARIABLE, parse_records, read_data_file
from dynbench_tasks.errors import DataError
from dynbench_tasks.lmeval.settings import HUB, LOCAL

logger = logging.getLogger("lm_eval.dynbench")


@dataclass(frozen=True)
class RawData:
    dataset: datasets.Dataset
    origin: str  # "bundled", a data folder, or "hub:<dataset>"
    sha256: str  # of the raw file's bytes; for a Hub copy, its datasets fingerprint


_loaded: dict[tuple[str, str | None, str], RawData] = {}


def _local(benchmark: str, data_dir: str | None) -> RawData:
    spec = BENCHMARKS[benchmark]
    found = read_data_file(spec.filename, data_dir)
    parse_records(found.text, str(found.path), spec.required)  # every record's schema, with a clear message
    dataset = datasets.load_dataset("json", data_files=str(found.path), split="train")
    return RawData(dataset, found.origin, found.sha256)


def _hub(benchmark: str) -> RawData:
    spec = BENCHMARKS[benchmark]
    how_to = (f"leave data_source at {LOCAL!r} to use the bundled copy, or set {DATA_DIR_VARIABLE}=DIR "
              f"where DIR holds {spec.filename}")
    if spec.hub is None:
        raise DataError(f"{spec.name} has no Hub copy with tests: {how_to}")
    path, split = spec.hub
    try:
        dataset = datasets.load_dataset(path, split=split)
    except Exception as error:  # noqa: BLE001 - any Hub failure means the same thing to the user
        raise DataError(
            f"{spec.name}: the Hugging Face Hub dataset {path} could not be loaded "
            f"({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}); {how_to}"
        ) from None
    return RawData(dataset, f"hub:{path}", dataset._fingerprint)


def load_raw(benchmark: str, data_dir: str | None, source: str = LOCAL) -> RawData:
    """The benchmark's records, loaded once per process."""
    key = (benchmark, data_dir, source)
    if key not in _loaded:
        _loaded[key] = _hub(benchmark) if source == HUB else _local(benchmark, data_dir)
        raw = _loaded[key]
        logger.info("%s: %d records from %s (sha256 %s)", benchmark, len(raw.dataset), raw.origin, raw.sha256[:12])
    return _loaded[key]
