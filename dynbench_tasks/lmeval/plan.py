"""Announcing the dynbench tasks that a ``TaskManager.load`` is about to make. lm-eval builds each
task's documents as it makes it, before it makes the next; told in advance, the first task of a
benchmark and seed builds the documents of all of them, every chain's mutants checked together."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

from dynbench_tasks.lmeval.environment import task_directory

logger = logging.getLogger("lm_eval.dynbench")


def _task_metadata(manager, names, root: Path, seen: set) -> Iterator[dict]:
    """The YAML metadata of every dynbench task among ``names``, groups expanded."""
    for name in names:
        entry = manager.task_index.get(name) if isinstance(name, str) else None
        if entry is None or name in seen or entry.yaml_path is None:
            continue
        seen.add(name)
        config = entry.cfg or {}
        if isinstance(config.get("group"), str) and isinstance(config.get("task"), list):
            yield from _task_metadata(manager, config["task"], root, seen)
        elif Path(entry.yaml_path).resolve().is_relative_to(root) and (config.get("metadata") or {}).get("benchmark"):
            yield config["metadata"]


def expect_loaded(manager, names: list) -> None:
    """Tell the documents builder which mutated tasks this load will make. Only an optimisation: a
    task it misses is built on its own, and a task whose settings are wrong fails when it is made."""
    from dynbench_tasks.lmeval.documents import expect
    from dynbench_tasks.lmeval.settings import settings_from_metadata
    from dynbench_tasks.lmeval.sources import load_raw

    runtime = dict(getattr(manager, "metadata", None) or {})
    for metadata in _task_metadata(manager, names, Path(task_directory()), set()):
        try:
            settings = settings_from_metadata({**metadata, **runtime})
            if settings.chain is not None:
                expect(settings, load_raw(settings.benchmark, settings.data_dir, settings.data_source).sha256)
        except Exception as error:  # noqa: BLE001 - making the task will say what is wrong
            logger.debug("%s: not built with the others (%s)", metadata.get("variant"), error)
