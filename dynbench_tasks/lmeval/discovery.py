"""Let ``lm_eval --tasks cruxeval_fuv`` find dynbench's tasks without ``--include_path``.

lm-eval 0.4.13 finds tasks only in its own folder and in ``--include_path``. Packages declare their
task folders in the ``lm_eval.tasks`` entry-point group (upstream's proposed mechanism). The file
``dynbench-lm-eval-tasks.pth``, installed at the top of site-packages, calls :func:`install` at
interpreter start-up; that only registers an import hook, so nothing else is imported until
``lm_eval.tasks.manager`` itself is. Then ``TaskManager`` is wrapped so that:

* every folder declared in the group is added to its include paths (unless the caller turned
  lm-eval's own tasks off with ``include_defaults=False``, or already passed the folder), and
* ``match_tasks`` — which lm-eval's CLI calls before it loads the model — checks that the data (and
  for translation tasks a JDK) of every selected dynbench task is there, so a missing dataset fails
  in seconds rather than after the model has loaded, and
* ``load`` first announces the dynbench tasks it will make (:mod:`dynbench_tasks.lmeval.plan`), so
  that those sharing a benchmark and a seed are built together.

It stands down when lm-eval reads entry points itself, and any failure inside it leaves lm-eval as
it was. Only the standard library is imported here, so start-up stays fast.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.util
import inspect
import logging
import sys
from pathlib import Path

ENTRY_POINT_GROUP = "lm_eval.tasks"
ALL_BENCHMARKS_GROUP = "dynbench"  # the group over every benchmark, task_configs/dynbench.yaml
_TARGET = "lm_eval.tasks.manager"
logger = logging.getLogger("lm_eval.dynbench")


def task_directory() -> str:
    """dynbench's task folder (what ``dynbench tasks-path`` prints): the ``task_configs`` package."""
    spec = importlib.util.find_spec("task_configs")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("dynbench's task_configs folder is not installed")
    return str(Path(next(iter(spec.submodule_search_locations))).resolve())


def plugin_task_paths() -> list[str]:
    """Task folders declared by installed packages in the ``lm_eval.tasks`` entry-point group."""
    from importlib.metadata import entry_points

    paths = []
    for entry_point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            provided = entry_point.load()
            provided = provided() if callable(provided) else provided
            for path in [provided] if isinstance(provided, (str, Path)) else provided:
                resolved = str(Path(path).resolve())
                if resolved not in paths:
                    paths.append(resolved)
        except Exception as error:  # noqa: BLE001 - a broken plugin must not break lm-eval
            logger.warning("skipping lm_eval.tasks entry point %s: %s", entry_point.name, error)
    return paths


def _as_list(include_path) -> list:
    if include_path is None:
        return []
    return list(include_path) if isinstance(include_path, (list, tuple)) else [include_path]


def _wrap_init(original):
    signature = inspect.signature(original)

    @functools.wraps(original)
    def __init__(self, *args, **kwargs):
        try:
            bound = signature.bind(self, *args, **kwargs)
            bound.apply_defaults()
            if bound.arguments.get("include_defaults", True):
                given = _as_list(bound.arguments.get("include_path"))
                known = {str(Path(p).resolve()) for p in given}
                extra = [p for p in plugin_task_paths() if p not in known]
                if extra:
                    bound.arguments["include_path"] = given + extra
                    args, kwargs = bound.args[1:], bound.kwargs
        except Exception as error:  # noqa: BLE001 - fall back to lm-eval's own behaviour
            logger.debug("dynbench task discovery skipped: %s", error)
        original(self, *args, **kwargs)

    return __init__


def _wrap_match_tasks(original):
    @functools.wraps(original)
    def match_tasks(self, task_list):
        matched = original(self, task_list)
        from dynbench_tasks.lmeval.preflight import check_selected
        from mutators.errors import DynbenchError

        try:
            check_selected(self, matched)
        except DynbenchError:
            raise
        except Exception as error:  # noqa: BLE001 - a bug in the check must not stop the run
            logger.debug("dynbench preflight skipped: %s", error)
        return matched

    return match_tasks


def _wrap_load(original):
    @functools.wraps(original)
    def load(self, task_list, *args, **kwargs):
        try:
            from dynbench_tasks.lmeval.plan import expect_loaded

            expect_loaded(self, task_list if isinstance(task_list, list) else [task_list])
        except Exception as error:  # noqa: BLE001 - only an optimisation
            logger.debug("dynbench build planning skipped: %s", error)
        return original(self, task_list, *args, **kwargs)

    return load


def _patch(module) -> None:
    manager = module.TaskManager
    if getattr(manager, "_dynbench_discovery", False):
        return
    if "entry_points" in inspect.getsource(module):
        return  # lm-eval discovers plugins itself
    manager.__init__ = _wrap_init(manager.__init__)
    manager.match_tasks = _wrap_match_tasks(manager.match_tasks)
    if hasattr(manager, "load"):
        manager.load = _wrap_load(manager.load)
    manager._dynbench_discovery = True


def _patch_safely(module) -> None:
    try:
        _patch(module)
    except Exception as error:  # noqa: BLE001
        logger.debug("dynbench task discovery disabled: %s", error)


class _ManagerImportHook(importlib.abc.MetaPathFinder):
    """Patches ``lm_eval.tasks.manager`` right after it is first executed."""

    def find_spec(self, fullname, path, target=None):
        if fullname != _TARGET:
            return None
        sys.meta_path[:] = [finder for finder in sys.meta_path if finder is not self]
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            _patch_safely(module)

        spec.loader.exec_module = exec_module
        return spec


def install() -> None:
    """Arrange for lm-eval's TaskManager to see plugin task folders; safe to call more than once."""
    if _TARGET in sys.modules:
        _patch_safely(sys.modules[_TARGET])
    elif not any(isinstance(finder, _ManagerImportHook) for finder in sys.meta_path):
        sys.meta_path.insert(0, _ManagerImportHook())
