"""The benchmark registry: one module per benchmark, each defining one :class:`Benchmark` object.

Adding a benchmark is one module here (a ``Benchmark`` subclass and its instance), one line in
``BENCHMARKS`` below, the regenerated task YAML (``python scripts/generate_task_configs.py``) and its
tests; nothing else switches on benchmark names.
"""

from __future__ import annotations

from dynbench_tasks.benchmarks.avatar import AVATAR
from dynbench_tasks.benchmarks.base import Benchmark, Program
from dynbench_tasks.benchmarks.codenet import CODENET
from dynbench_tasks.benchmarks.cruxeval import CRUXEVAL
from dynbench_tasks.benchmarks.cruxeval_input import CRUXEVAL_INPUT
from dynbench_tasks.benchmarks.records import parse_records, read_data_file, read_jsonl
from dynbench_tasks.benchmarks.transcoder import TRANSCODER

BENCHMARKS: dict[str, Benchmark] = {b.name: b for b in (CRUXEVAL, CRUXEVAL_INPUT, AVATAR, CODENET, TRANSCODER)}
# One benchmark per data file: the others (input prediction) ask about the same programs.
WITH_OWN_PROGRAMS = list({b.filename: name for name, b in reversed(BENCHMARKS.items())}.values())[::-1]


def load_benchmark(name: str, data_dir: str | None = None) -> list[dict]:
    """Every record of benchmark ``name`` (from ``data_dir``, ``$DYNBENCH_DATA_DIR`` or the bundled
    copy), checked for the fields it needs."""
    benchmark = BENCHMARKS[name]
    found = read_data_file(benchmark.filename, data_dir)
    return parse_records(found.text, str(found.path), benchmark.required)


__all__ = ["BENCHMARKS", "WITH_OWN_PROGRAMS", "Benchmark", "Program", "load_benchmark", "read_jsonl"]
