"""Checks that stop a run with a clear error before it costs anything.

* :func:`check_command_line`, when lm-eval's command line has read its arguments and before lm-eval
  indexes its tasks or loads anything heavy: the lm-eval version, the task names, the confirmation
  that answers may run (``--confirm_run_unsafe_code``, which lm-eval itself asks for only after every
  document is built), every ``--metadata`` setting of every selected dynbench task, and the JDK the
  translation tasks need. Seconds, not minutes.
* :func:`check_selected`, when lm-eval selects tasks and before any model is loaded (also for
  Python callers that skip the command line): the settings again, and whether the benchmark data can
  be read (a local folder, else the Hub).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dynbench_tasks.errors import SettingsError
from dynbench_tasks.lmeval.environment import ALL_BENCHMARKS_GROUP, check_lm_eval_version, task_directory
from dynbench_tasks.lmeval.settings import TaskSettings, check_keys, settings_from_metadata
from dynbench_tasks.variants import STATIC


def _benchmark_of(yaml_path: Path, root: Path) -> str | None:
    try:
        relative = yaml_path.resolve().relative_to(root)
    except ValueError:
        return None
    return relative.parts[0] if len(relative.parts) > 1 else None


def _settings(benchmark: str, variant: str | None, metadata: dict[str, Any]) -> TaskSettings:
    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.judge.jdk import find_jdk

    settings = settings_from_metadata({"benchmark": benchmark, "variant": variant or STATIC, **metadata})
    if BENCHMARKS[benchmark].needs_jdk:
        find_jdk()
    return settings


def check(benchmark: str, variant: str | None, metadata: dict[str, Any]) -> None:
    """Raise a clear error (a DynbenchError) now rather than after the model has loaded."""
    from dynbench_tasks.lmeval.settings import check_ids
    from dynbench_tasks.lmeval.sources import load_raw

    settings = _settings(benchmark, variant, metadata)
    records = load_raw(benchmark, settings.data_dir, settings.data_source).dataset
    if settings.ids:
        check_ids(benchmark, settings.ids, records["id"])


def check_unsafe_code_confirmed(tasks: list, confirmed: bool) -> None:
    """Stop if ``tasks`` select a dynbench task (all of which run the model's answers) unconfirmed."""
    from dynbench_tasks.lmeval.task_names import selected_tasks

    selected = selected_tasks([task for task in tasks if isinstance(task, str)])
    if selected and not confirmed:
        raise SettingsError(f"{selected[0].name} runs the model's answers (in a sandbox) to score them: add "
                            "--confirm_run_unsafe_code (confirm_run_unsafe_code=True in Python) to allow it")


def check_command_line(tasks: list[str], metadata: dict[str, Any], include_paths: list[str],
                       confirmed_unsafe_code: bool) -> None:
    """The checks that need nothing but the command line: each task name is a task (or left to
    lm-eval when it is not dynbench-like), and, if dynbench tasks are selected, the lm-eval version
    is supported, running answers is confirmed, and each task's settings parse, with every
    ``--metadata`` key a setting, and its tools there."""
    from dynbench_tasks.lmeval.task_names import selected_tasks, unknown_task_message

    for name in tasks:
        problem = unknown_task_message(name, include_paths)
        if problem:
            raise SettingsError(problem)
    selected = selected_tasks(tasks)
    if selected:
        check_lm_eval_version()
        check_unsafe_code_confirmed(tasks, confirmed_unsafe_code)
        check_keys(metadata)  # here --metadata is still apart from --model_args
    for entry in selected:
        _settings(entry.benchmark, entry.variant, metadata)


def check_selected(manager, names: list[str]) -> None:
    """Check every dynbench task or group among ``names`` selected through ``manager``."""
    from dynbench_tasks.benchmarks import BENCHMARKS

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
