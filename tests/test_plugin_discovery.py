"""After a plain (non-editable) install from a built wheel, ``lm_eval --tasks cruxeval_orig`` finds
dynbench's tasks with no --include_path; a broken hook or entry point never breaks Python or lm-eval;
and the command-line preflight stops a run with missing data before any model is loaded."""

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import REPO
from dynbench_tasks.lmeval.environment import task_directory

pytestmark = pytest.mark.slow


def run(*command, env=None, check=True) -> subprocess.CompletedProcess:
    # From a neutral folder: in the checkout, `python -c` would import the source tree instead.
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, env=env, cwd="/")
    if check and done.returncode != 0:
        raise AssertionError(f"{command} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory) -> Path:
    """A fresh virtualenv with dynbench installed from its wheel; its dependencies (lm-eval, torch,
    …) are borrowed read-only from the test environment so nothing is downloaded."""
    root = tmp_path_factory.mktemp("wheel")
    # Built from a copy: building in the checkout would leave build/ and a dynbench.egg-info there, whose
    # version any process with the checkout on sys.path would then report as dynbench's.
    source = root / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__",
                                                                 ".pytest_cache", ".ruff_cache"))
    run(sys.executable, "-m", "pip", "wheel", source, "--no-deps", "--no-build-isolation", "-q", "-w", root / "dist")
    wheel = next((root / "dist").glob("dynbench-*.whl"))
    venv = root / "venv"
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel)
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    (site / "zz_borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


def test_wheel_ships_the_hook_and_the_tasks(wheel_venv):
    python = wheel_venv / "bin" / "python"
    where = run(python, "-c", "import dynbench_tasks.lmeval.discovery as d, task_configs; print(d.task_directory())").stdout
    assert where.strip().startswith(str(wheel_venv))
    assert (Path(where.strip()) / "cruxeval" / "cruxeval_fuv.yaml").is_file()
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    assert (site / "dynbench-lm-eval-tasks.pth").is_file()
    assert run(wheel_venv / "bin" / "dynbench", "tasks-path").stdout.strip() == where.strip()


def test_plain_lm_eval_finds_and_runs_the_tasks(wheel_venv, tiny_model, small_data):
    """From "/", outside any git checkout; model arguments (merged into the metadata by lm-eval) are
    not taken for unknown settings; the cost of the answers is said once the first batch is generated."""
    done = run(
        wheel_venv / "bin" / "python", "-m", "lm_eval", "--model", "hf", "--model_args",
        f"pretrained={tiny_model},dtype=float32", "--device", "cpu", "--tasks", "cruxeval_orig", "--limit", "1",
        "--confirm_run_unsafe_code", "--gen_kwargs", "max_gen_toks=2", "--metadata", json.dumps({"data_dir": small_data}),
    )
    assert "|cruxeval_orig|" in done.stdout.replace(" ", "")
    assert "fatal: not a git repository" not in done.stderr
    estimate = next(line for line in done.stderr.splitlines() if "generating 5 answers" in line)
    # Said from the run's own first batch: nothing is generated for the estimate alone.
    assert ("generating 5 answers (1 problem, 5 samples each) of up to 2 tokens on the CPU takes up to about"
            in estimate and "(measured on this run's first batch: " in estimate)


def test_python_start_up_imports_nothing_of_dynbench_until_lm_eval_is(wheel_venv):
    """The start-up hook costs a Python program that never imports lm-eval next to nothing: none of
    dynbench's modules load; importing lm-eval brings in the hook that patches it."""
    python = wheel_venv / "bin" / "python"
    ours = re.compile(r"\|\s*(dynbench|mutators|task_configs)")
    idle = run(python, "-X", "importtime", "-c", "pass").stderr
    assert "import time:" in idle and not [line for line in idle.splitlines() if ours.search(line)]
    with_lm_eval = run(python, "-X", "importtime", "-c", "import lm_eval").stderr
    assert "dynbench_tasks.lmeval.discovery" in with_lm_eval
    finders = run(python, "-c", "import sys, lm_eval; print([type(f).__name__ for f in sys.meta_path])").stdout
    assert "_LmEvalImportHook" in finders and "DynbenchStartup" not in finders


def test_a_broken_hook_or_entry_point_never_breaks_python_or_lm_eval(wheel_venv, tmp_path):
    python = wheel_venv / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    entry_points = next(site.glob("dynbench-*.dist-info")) / "entry_points.txt"
    original = entry_points.read_text()
    discovery = site / "dynbench_tasks" / "lmeval" / "discovery.py"
    saved = discovery.read_text()
    try:
        entry_points.write_text(original.replace("dynbench_tasks.lmeval.discovery:task_directory", "dynbench_tasks.nowhere:x"))
        listed = run(python, "-c", "from lm_eval.tasks import TaskManager; tm = TaskManager(); "
                                   "print('cruxeval_output' in tm.all_tasks, 'cruxeval_fuv' in tm.all_tasks)")
        assert listed.stdout.split() == ["True", "False"]
        discovery.write_text("raise RuntimeError('broken install')\n")
        assert run(python, "-c", "print('alive')").stdout.strip() == "alive"
        listed = run(python, "-c", "from lm_eval.tasks import TaskManager; print(len(TaskManager().all_tasks) > 1000)")
        assert listed.stdout.strip() == "True"
    finally:
        entry_points.write_text(original)
        discovery.write_text(saved)


def test_missing_data_stops_before_the_model_loads(tiny_model, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DYNBENCH_DATA_DIR"}
    done = run(
        sys.executable, "-m", "dynbench_tasks.cli", "eval", "--model", "hf", "--model_args",
        f"pretrained={tiny_model}", "--device", "cpu", "--tasks", "cruxeval_fuv", "--confirm_run_unsafe_code",
        "--metadata", json.dumps({"data_dir": str(tmp_path / "nowhere")}), env=env, check=False,
    )
    assert done.returncode == 2
    error_lines = [line for line in done.stderr.splitlines() if line.startswith("dynbench eval: error:")]
    assert len(error_lines) == 1 and "nowhere' (given) does not exist; leave it out to use the copy bundled" in error_lines[0]
    assert "Initializing hf model" not in done.stderr


def test_tasks_path_is_the_task_folder():
    assert Path(task_directory()) == REPO / "task_configs"
