"""The checked-in task YAML is exactly what the generator writes, and never clashes with lm-eval."""

import subprocess
import sys
from pathlib import Path

import lm_eval
from lm_eval.tasks import TaskManager

from conftest import REPO
from dynbench_tasks.lmeval.environment import task_directory


def test_yaml_files_have_not_drifted_from_the_template():
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "generate_task_configs.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_task_names_never_clash_with_lm_evals_own():
    ours = set(TaskManager(include_path=task_directory(), include_defaults=False).all_tasks)
    builtin_folder = Path(lm_eval.__file__).parent / "tasks" / "cruxeval"
    builtin = set(TaskManager(include_path=str(builtin_folder), include_defaults=False).all_tasks)
    assert {"cruxeval_output", "cruxeval_input"} <= builtin
    assert not ours & builtin
    assert {"cruxeval_orig", "cruxeval_fuv", "cruxeval_custom", "cruxeval_dynamic"} <= ours
