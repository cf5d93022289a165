"""Let ``lm_eval --tasks cruxeval_fuv`` find dynbench's tasks without ``--include_path``, and let
dynbench correct a few things in lm-eval as it loads.

lm-eval 0.4.13 finds tasks only in its own folder and in ``--include_path``. Packages declare their
task folders in the ``lm_eval.tasks`` entry-point group (upstream's proposed mechanism). The file
``dynbench-lm-eval-tasks.pth``, installed at the top of site-packages, puts a finder of a few lines
first in ``sys.meta_path`` at interpreter start-up, which imports nothing: a Python program that
never imports lm-eval pays nothing else. When ``lm_eval`` is first imported, that finder calls
:func:`install`, which registers this module's import hook; right after one of the lm-eval modules
in ``PATCHES`` has run, its patch is applied. ``lm_eval.tasks.manager``'s is here: ``TaskManager``
is wrapped so that

* every folder declared in the group is added to its include paths (unless the caller turned
  lm-eval's own tasks off with ``include_defaults=False``, or already passed the folder), and
* ``match_tasks`` — which lm-eval's CLI calls before it loads the model — checks that the data (and
  for translation tasks a JDK) of every selected dynbench task is there, so a missing dataset fails
  in seconds rather than after the model has loaded, and
* ``load`` first announces the dynbench tasks it will make (:mod:`dynbench_tasks.lmeval.plan`), so
  that those sharing a benchmark and a seed are built together.

The others live in :mod:`dynbench_tasks.lmeval.patches` (lm-eval's command line and output) and
:mod:`dynbench_tasks.lmeval.cost` (the cost of generating on a CPU). Task discovery stands down when
lm-eval reads entry points itself, and any failure inside a patch leaves lm-eval as it was. The
patches are written against lm-eval's internals, so they are applied only to the lm-eval versions in
``SUPPORTED_LM_EVAL`` (setup.cfg requires the same); with any other, lm-eval stays as it is and a run
of a dynbench task stops with one line that names them (:mod:`dynbench_tasks.lmeval.environment`).
At module level only the standard library is imported.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import logging
import sys
from pathlib import Path

# task_directory: the entry point setup.cfg declares in the lm_eval.tasks group
from dynbench_tasks.lmeval.environment import lm_eval_version_problem, task_directory  # noqa: F401

ENTRY_POINT_GROUP = "lm_eval.tasks"
CLI_MODULE = "lm_eval._cli.run"  # patched whatever the version: it says in one line when it is unsupported
logger = logging.getLogger("lm_eval.dynbench")
_nearest_tasks: dict[str, list[str]] = {}


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


def nearest_tasks(name: str) -> list[str]:
    """The registered names closest to ``name``, if lm-eval found no task by that name."""
    return _nearest_tasks.get(name, [])


def _as_list(include_path) -> list:
    if include_path is None:
        return []
    return list(include_path) if isinstance(include_path, (list, tuple)) else [include_path]


def _wrap_init(original):
    import inspect

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
            if not matched:  # lm-eval will say "Tasks not found"; dynbench eval adds the nearest names
                for name in task_list:
                    if isinstance(name, str):
                        import difflib

                        _nearest_tasks[name] = difflib.get_close_matches(name, self.all_tasks, n=3)
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


def patch_task_manager(module) -> None:
    import inspect

    if "entry_points" in inspect.getsource(module):
        return  # lm-eval discovers plugins itself
    manager = module.TaskManager
    manager.__init__ = _wrap_init(manager.__init__)
    manager.match_tasks = _wrap_match_tasks(manager.match_tasks)
    if hasattr(manager, "load"):
        manager.load = _wrap_load(manager.load)


# lm-eval module -> the patch applied right after it first runs ("module:function", imported then).
PATCHES = {
    "lm_eval.tasks.manager": "dynbench_tasks.lmeval.discovery:patch_task_manager",
    "lm_eval._cli.utils": "dynbench_tasks.lmeval.patches:one_line_json_errors",
    "lm_eval._cli.run": "dynbench_tasks.lmeval.patches:checked_command_line",
    "lm_eval.config.evaluate_config": "dynbench_tasks.lmeval.patches:noted_command_line_model_arguments",
    "lm_eval.evaluator": "dynbench_tasks.lmeval.patches:patch_evaluator",
    "lm_eval.loggers.utils": "dynbench_tasks.lmeval.patches:quiet_git",
    "lm_eval.loggers.evaluation_tracker": "dynbench_tasks.lmeval.patches:readable_demo_model_name",
    "lm_eval.models.huggingface": "dynbench_tasks.lmeval.cost:watch_generation",
}


def _patch_safely(module) -> None:
    if getattr(module, "_dynbench_patched", False):
        return
    if module.__name__ != CLI_MODULE and lm_eval_version_problem():
        logger.debug("dynbench patch of %s skipped: %s", module.__name__, lm_eval_version_problem())
        return
    try:
        where, name = PATCHES[module.__name__].split(":")
        getattr(importlib.import_module(where), name)(module)
        module._dynbench_patched = True
    except Exception as error:  # noqa: BLE001 - lm-eval stays as it was
        logger.debug("dynbench patch of %s skipped: %s", module.__name__, error)


class _LmEvalImportHook:
    """Applies a module's patch right after the module is first executed (a meta path finder; the
    abstract base class is left out, as importing it costs more than all of this module)."""

    def __init__(self, pending: set[str]) -> None:
        self.pending = pending

    def find_spec(self, fullname, path, target=None):
        if fullname not in self.pending:
            return None
        self.pending.discard(fullname)  # so that the search below, and any later one, passes us by
        if not self.pending:
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
    """Arrange for lm-eval's modules to be patched as they load; safe to call more than once."""
    if any(isinstance(finder, _LmEvalImportHook) for finder in sys.meta_path):
        return
    pending = set()
    for name in PATCHES:
        if name in sys.modules:
            _patch_safely(sys.modules[name])
        else:
            pending.add(name)
    if pending:
        sys.meta_path.insert(0, _LmEvalImportHook(pending))
