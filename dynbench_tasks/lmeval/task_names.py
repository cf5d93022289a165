"""Task names, known before lm-eval indexes its ~14,000 task files (a minute on a small machine):
dynbench's own, read from its task folder, and, for a name that looks like one of them but is not,
whether any task file of lm-eval (or of ``--include_path``) mentions it. So a misspelt task is an
error with the nearest names in seconds, and a name of lm-eval's own (``cruxeval_output``) passes."""

from __future__ import annotations

import difflib
import fnmatch
import functools
import importlib.util
import os
import re
from dataclasses import dataclass
from pathlib import Path

from dynbench_tasks.lmeval.environment import task_directory
from dynbench_tasks.variants import VARIANTS


@dataclass(frozen=True)
class Entry:
    """A dynbench task (with its benchmark and variant) or group (with its members)."""

    name: str
    benchmark: str | None = None
    variant: str | None = None
    members: tuple[str, ...] = ()


@functools.cache
def dynbench_entries() -> dict[str, Entry]:
    """Every dynbench task and group by name, from the YAML files lm-eval reads (templates aside)."""
    import yaml

    entries = {}
    for path in sorted(Path(task_directory()).rglob("*.yaml")):
        config = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if isinstance(config.get("group"), str):
            members = tuple(m for m in config.get("task") or [] if isinstance(m, str))
            entries[config["group"]] = Entry(config["group"], members=members)
        elif isinstance(config.get("task"), str):
            metadata = config.get("metadata") or {}
            entries[config["task"]] = Entry(config["task"], metadata.get("benchmark"), metadata.get("variant"))
    return entries


def selected_tasks(names: list[str]) -> list[Entry]:
    """The dynbench tasks ``names`` select, groups expanded and glob patterns matched, each once;
    names that are not dynbench's are left out."""
    entries = dynbench_entries()
    found: dict[str, Entry] = {}

    def add(name: str) -> None:
        entry = entries[name]
        if entry.members:
            for member in entry.members:
                if member in entries:
                    add(member)
        else:
            found.setdefault(name, entry)

    for name in names:
        for match in fnmatch.filter(entries, name) if _is_pattern(name) else [name] if name in entries else []:
            add(match)
    return list(found.values())


def _is_pattern(name: str) -> bool:
    return any(character in name for character in "*?[")


def nearest(name: str, names: list[str]) -> list[str]:
    """Up to three of ``names`` a user may have meant by ``name``: close spellings, and the tasks
    of a variant named alone (``fuv``: ``cruxeval_fuv``, ``avatar_fuv``, …)."""
    by_variant = [task for task in names if task.endswith(f"_{name}")]
    variants = difflib.get_close_matches(name, list(VARIANTS), n=1)
    if not by_variant and variants:
        by_variant = [task for task in names if task.endswith(f"_{variants[0]}")]
    close = difflib.get_close_matches(name, names, n=3)
    return list(dict.fromkeys(close + by_variant))[:3]


def _looks_like_ours(name: str) -> bool:
    names = list(dynbench_entries())
    prefixes = {entry.benchmark for entry in dynbench_entries().values() if entry.benchmark}
    return (name in VARIANTS or any(name.startswith(f"{prefix}_") for prefix in prefixes)
            or bool(difflib.get_close_matches(name, names, n=1, cutoff=0.75)))


def _lm_eval_task_folder() -> Path | None:
    spec = importlib.util.find_spec("lm_eval")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "tasks"


def mentioned_in_task_files(name: str, folders: list[Path]) -> bool:
    """Whether any YAML file under ``folders`` holds ``name`` as a whole word: every task, group
    and tag lm-eval registers is spelt out in one (its task files or the templates they include)."""
    needle = name.encode()
    word = re.compile(rb"(?<![\w.\-])" + re.escape(needle) + rb"(?![\w.\-])")
    for folder in folders:
        for directory, _, files in os.walk(folder):
            for file in files:
                if file.endswith("yaml"):
                    with open(os.path.join(directory, file), "rb") as handle:
                        text = handle.read()
                    if needle in text and word.search(text):
                        return True
    return False


def unknown_task_message(name: str, include_paths: list[str]) -> str | None:
    """Why ``name`` cannot be a task, if it looks like a dynbench task, is not one, and no other
    task file mentions it; None otherwise (lm-eval then decides)."""
    if name in dynbench_entries() or _is_pattern(name) or name.endswith(".yaml") or Path(name).is_dir():
        return None
    if not _looks_like_ours(name):
        return None
    folders = [folder for folder in [_lm_eval_task_folder(), *map(Path, include_paths)] if folder is not None]
    if mentioned_in_task_files(name, folders):
        return None
    close = nearest(name, sorted(dynbench_entries()))
    hint = (f"did you mean {' or '.join(map(repr, close))}?" if close else
            "dynbench's tasks are <benchmark>_<variant>, such as cruxeval_fuv (the README's task table lists them)")
    return f"no task {name!r}: {hint}"
