"""Checks run when lm-eval selects dynbench tasks, before any model is loaded: the settings parse,
the benchmark data can be read (a local folder, else the Hub), and the tools scoring needs exist."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.judge.jdk import find_jdk
from dynbench_tasks.lmeval.discovery import ALL_BENCHMARKS_GROUP, task_directory
from dynbench_tasks.lmeval.settings import TaskSettings, check_ids
from dynbench_tasks.lmeval.sources import load_raw
from dynbench_tasks.variants import STATIC


def _benchmark_of(yaml_path: Path, root: Path) -> str | None:
    try:
        relative = yaml_path.resolve().relative_to(root)
    except ValueError:
        return None
    return relative.parts[0] if len(relative.parts) > 1 else None


def check(benchmark: str, variant: str | None, metadata: dict[str, Any]) -> None:
    """Raise a clear error (a DynbenchError) now rather than after the model has loaded."""
    merged = {"benchmark": benchmark, "variant": variant or STATIC, **metadata}
    settings = TaskSettings.from_metadata(merged)
    if BENCHMARKS[benchmark].needs_jdk:
        find_jdk()
    records = load_raw(benchmark, settings.data_dir, settings.data_source).dataset
    if settings.ids:
        check_ids(benchmark, settings.ids, records["id"])


def check_selected(manager, names: list[str]) -> None:
    """Check every dynbench task or group among ``names`` selected through ``manager``."""
    root = Path(task_directory())
    metadata = dict(getattr(manager, "metadata", None) or {})
    for name in names:
        entry = manager.task_index.get(name) if isinstance(name, str) else None
        if entry is None or entry.yaml_path is None:
            continue
        if name == ALL_BENCHMARKS_GROUP and Path(entry.yaml_path).resolve().parent == root:
            for benchmark in BENCHMARKS:
                check(benchmark, None, metadata)
            continue
        benchmark = _benchmark_of(Path(entry.yaml_path), root)
        if benchmark is None:
            continue
        variant = ((entry.cfg or {}).get("metadata") or {}).get("variant")
        check(benchmark, variant, metadata)
