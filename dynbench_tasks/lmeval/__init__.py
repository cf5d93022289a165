"""The lm-eval glue: the task class every YAML names (:mod:`.task`), the settings it reads from
``--metadata`` (:mod:`.settings`), the raw data as a ``datasets.Dataset`` (:mod:`.sources`), the
preprocessing hook that mutates the documents (:mod:`.documents`, saying how far a long build is with
:mod:`.build_progress`), task discovery without ``--include_path`` (:mod:`.discovery`), the checks
run before a model loads (:mod:`.preflight`) and the process-wide sandbox and judge pools
(:mod:`.runtime`). This is the only package that imports lm-eval."""

from __future__ import annotations


def task_manager(metadata: dict | None = None):
    """An lm-eval TaskManager that knows dynbench's tasks only (it skips indexing lm-eval's ~14,000
    own task files), with ``metadata`` merged over every task's."""
    from lm_eval.tasks import TaskManager

    from dynbench_tasks.lmeval.environment import task_directory

    return TaskManager(include_path=task_directory(), include_defaults=False, metadata=metadata)
