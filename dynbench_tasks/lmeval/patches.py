"""What dynbench corrects in lm-eval's command line and output, applied by the import hook
(:mod:`dynbench_tasks.lmeval.discovery`) right after each lm-eval module loads. Each patch keeps
lm-eval's behaviour apart from the point it names, and a patch that fails leaves lm-eval as it was.

* A ``--metadata`` or ``--model_args`` that is not JSON is one line, not a traceback.
* The command line checks the lm-eval version, task names, ``--confirm_run_unsafe_code``, dynbench
  settings and tools before lm-eval indexes its tasks or loads anything heavy
  (:func:`~dynbench_tasks.lmeval.preflight.check_command_line`), and ends on a dynbench error (a
  setting, missing data or tools) with that one line. ``simple_evaluate`` checks the confirmation
  before it builds any document, too.
* lm-eval merges ``--model_args`` into every task's metadata; their names are noted, so the strict
  settings check can tell a model argument from a misspelt setting.
* git's ``fatal: not a git repository`` (lm-eval asks git for a commit hash) stays off the terminal.
* The demo model's results are filed under its name, not its folder's mangled path.
* Before lm-eval aggregates a run's metrics, each dynbench task records its samples by status and
  warns when many replies gave no answer to read (:mod:`dynbench_tasks.lmeval.answer_statuses`):
  once per task, in the process that writes the results, CLI and Python API alike.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from dynbench_tasks.lmeval.environment import note_model_arguments


def program() -> str:
    """The command the user typed, for the start of an error line: ``lm_eval`` (also for
    ``python -m lm_eval``), or ``dynbench eval``, which runs lm-eval's command line in its process."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "lm_eval" if name in ("", "__main__.py", "-c") else name


def one_line_json_errors(module) -> None:
    action = module.MergeDictAction
    original = action.__call__

    @functools.wraps(original)
    def __call__(self, parser, namespace, values, option_string=None):
        try:
            original(self, parser, namespace, values, option_string)
        except ValueError:  # lm-eval's JSON reader: the value has a "{" but is not JSON
            import json

            try:
                json.loads(values[0])
            except json.JSONDecodeError as error:
                parser.exit(2, f"{program()}: error: {option_string or '--' + self.dest} is not JSON ({error.msg} "
                               f"at character {error.pos + 1}): {values[0]}\n")
            raise

    action.__call__ = __call__


def checked_command_line(module) -> None:
    from mutators.errors import DynbenchError

    original = module.Run._execute

    @functools.wraps(original)
    def _execute(args):
        try:
            tasks, metadata, include_path, confirmed = _requested(args)
            if tasks:
                from dynbench_tasks.lmeval.preflight import check_command_line

                check_command_line(tasks, metadata, [include_path] if include_path else [], confirmed)
                _build_in_background(tasks, metadata)
            original(args)
        except DynbenchError as error:
            print(f"{program()}: error: {error}", file=sys.stderr)
            raise SystemExit(2) from None

    module.Run._execute = staticmethod(_execute)


def _build_in_background(tasks: list[str], metadata: dict) -> None:
    from dynbench_tasks.lmeval.background_build import start

    try:
        start(tasks, metadata)
    except Exception as error:  # noqa: BLE001 - only an optimisation: the tasks build their documents
        import logging

        logging.getLogger("lm_eval.dynbench").debug("background build not started: %s", error)


def _requested(args) -> tuple[list[str], dict, str | None, bool]:
    """The tasks, ``--metadata``, include path and ``--confirm_run_unsafe_code`` the command line asks
    for, as lm-eval will read them: a ``--config`` file's, overridden by the command line's."""
    given = {key: getattr(args, key, None)
             for key in ("tasks", "metadata", "include_path", "confirm_run_unsafe_code")}
    if getattr(args, "config", None):
        import yaml

        with open(args.config, encoding="utf-8") as handle:
            config = yaml.safe_load(handle) or {}
        given = {key: value or config.get(key) for key, value in given.items()}
    tasks = given["tasks"] or []
    tasks = tasks.split(",") if isinstance(tasks, str) else [t for task in tasks for t in str(task).split(",")]
    metadata = given["metadata"] if isinstance(given["metadata"], dict) else {}
    return ([task.strip() for task in tasks if task.strip()], metadata, given["include_path"],
            bool(given["confirm_run_unsafe_code"]))


def _as_dict(model_args) -> dict:
    """Model arguments as lm-eval takes them (a dict, or ``"pretrained=x,dtype=float32"``) as a dict."""
    if isinstance(model_args, dict):
        return model_args
    if isinstance(model_args, str):
        return dict(item.split("=", 1) for item in model_args.split(",") if "=" in item)
    return {}


def noted_command_line_model_arguments(module) -> None:
    config = module.EvaluatorConfig
    original = config._process_arguments

    @functools.wraps(original)
    def _process_arguments(self):
        note_model_arguments(_as_dict(self.model_args))  # the command line's and a --config file's, merged
        return original(self)

    config._process_arguments = _process_arguments


def patch_evaluator(module) -> None:
    """``lm_eval.evaluator``'s patches: the answer statuses, then the checks of ``simple_evaluate``."""
    noted_answer_statuses(module)
    checked_simple_evaluate(module)


def noted_answer_statuses(module) -> None:
    original = module._process_results

    @functools.wraps(original)
    def _process_results(eval_results_acc, *args, **kwargs):
        for accumulated in eval_results_acc.values():
            note = getattr(accumulated["task"], "note_answer_statuses", None)
            if note is not None:
                note(accumulated["raw_metrics"])
        return original(eval_results_acc, *args, **kwargs)

    module._process_results = _process_results


def checked_simple_evaluate(module) -> None:
    import inspect

    original = module.simple_evaluate
    signature = inspect.signature(original)

    @functools.wraps(original)
    def simple_evaluate(*args, **kwargs):
        from dynbench_tasks.lmeval.preflight import check_unsafe_code_confirmed

        bound = signature.bind_partial(*args, **kwargs)
        tasks = bound.arguments.get("tasks") or []
        check_unsafe_code_confirmed(tasks if isinstance(tasks, list) else [tasks],
                                    bool(bound.arguments.get("confirm_run_unsafe_code")))
        note_model_arguments(_as_dict(bound.arguments.get("model_args")))
        try:
            return original(*args, **kwargs)
        finally:
            note_model_arguments({})  # the next run has model arguments of its own

    module.simple_evaluate = simple_evaluate


def quiet_git(module) -> None:
    import os
    import subprocess

    def get_git_commit_hash():
        """lm-eval's, with git's complaint outside a checkout kept off the terminal."""
        try:
            found = subprocess.check_output(["git", "describe", "--always"], stderr=subprocess.DEVNULL)
            return found.strip().decode()
        except (subprocess.CalledProcessError, FileNotFoundError):
            return module.get_commit_from_path(os.getcwd())

    module.get_git_commit_hash = get_git_commit_hash


def readable_demo_model_name(module) -> None:
    from dynbench_tasks.lmeval.demo_model import display_name

    tracker = module.GeneralConfigTracker
    original = tracker._get_model_name

    @functools.wraps(original)
    def _get_model_name(model_args):
        name = original(model_args)
        return display_name(name, _as_dict(model_args).get("gguf_file")) if name else name

    tracker._get_model_name = staticmethod(_get_model_name)
