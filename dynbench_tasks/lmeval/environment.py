"""What dynbench knows of the lm-eval it runs in: the versions it supports, its own task folder, and
the model arguments of the run in progress. The import hook (:mod:`dynbench_tasks.lmeval.discovery`)
and the tasks both read it; at module level only the standard library is imported."""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Mapping
from pathlib import Path

# The lm-eval versions whose internals the patches are written for (a pip specifier; setup.cfg's too).
SUPPORTED_LM_EVAL = ">=0.4.13,<0.4.14"
ALL_BENCHMARKS_GROUP = "dynbench"  # the group over every benchmark, task_configs/dynbench.yaml
_model_arguments: list[frozenset[str]] = [frozenset()]


def task_directory() -> str:
    """dynbench's task folder (what ``dynbench tasks-path`` prints): the ``task_configs`` package."""
    spec = importlib.util.find_spec("task_configs")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("dynbench's task_configs folder is not installed")
    return str(Path(next(iter(spec.submodule_search_locations))).resolve())


def note_model_arguments(model_args: Mapping) -> None:
    """Remember the names of this run's model arguments: lm-eval merges ``--model_args`` into every
    task's metadata, and a strict settings check must not take them for misspelt settings."""
    _model_arguments[0] = frozenset(map(str, model_args))


def model_argument_names() -> frozenset[str]:
    """The model arguments of the run in progress (none before one starts)."""
    return _model_arguments[0]


@functools.cache
def lm_eval_version_problem() -> str | None:
    """Why the installed lm-eval cannot run dynbench's tasks, if it cannot (its version is not supported)."""
    from importlib.metadata import PackageNotFoundError, version

    from packaging.specifiers import SpecifierSet

    try:
        installed = version("lm_eval")
    except PackageNotFoundError:
        return None  # lm-eval run from a source folder: its version cannot be told, so it is trusted
    if SpecifierSet(SUPPORTED_LM_EVAL).contains(installed, prereleases=True):
        return None
    return (f"dynbench supports lm-eval {SUPPORTED_LM_EVAL} (it patches lm-eval's internals), but lm-eval "
            f"{installed} is installed: pip install 'lm-eval{SUPPORTED_LM_EVAL}'")


def check_lm_eval_version() -> None:
    """Stop (with a DynbenchError) if the installed lm-eval is one dynbench does not support."""
    problem = lm_eval_version_problem()
    if problem:
        from mutators.errors import DynbenchError

        raise DynbenchError(problem)
