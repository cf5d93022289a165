"""A run's documents built in a process of their own while lm-eval loads the model: real lm_eval
runs on a fresh datasets cache, with the build in the background and without it. The documents are
the same; the run that built in the background made none of them itself (the hash-seeded sandboxes
that only NewInput's choice starts never start in it); a fresh seed is the run's own; a warm cache
starts no build; a failed build leaves the tasks to build their documents; a build whose run ended
ends too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out

HERE = Path(__file__).resolve().parent
TASK = "cruxeval_fuvi"
STARTED = "in the background while the model loads"
BUILT_HERE = "sandbox (PYTHONHASHSEED=1)"  # started only to choose new inputs, that is to build


def lm_eval_run(out: Path, cache: Path, metadata: dict, background: bool = True) -> tuple[dict, str]:
    environment = dict(os.environ, HF_DATASETS_CACHE=str(cache), DYNBENCH_BACKGROUND_BUILD="1" if background else "0")
    done = subprocess.run([sys.executable, str(HERE / "scripted_cli.py"), "--model", "doc-field", "--tasks", TASK,
                           "--confirm_run_unsafe_code", "--output_path", str(out), "--metadata", json.dumps(metadata)],
                          check=True, capture_output=True, text=True, env=environment)
    results = json.loads(max(out.rglob("results_*.json")).read_text())
    return results, done.stderr


def digest(results: dict) -> str:
    return results["configs"][TASK]["metadata"]["dynbench"]["documents_sha256"]


def seed(results: dict) -> int:
    return results["configs"][TASK]["metadata"]["dynbench"]["seed"]


def test_documents_built_in_the_background_are_the_ones_the_run_would_build(tmp_path, small_data):
    metadata = {"data_dir": small_data, "seed": 31}
    behind, behind_log = lm_eval_run(tmp_path / "behind", tmp_path / "cache-behind", metadata)
    here, here_log = lm_eval_run(tmp_path / "here", tmp_path / "cache-here", metadata, background=False)
    assert STARTED in behind_log and STARTED not in here_log
    assert BUILT_HERE not in behind_log and BUILT_HERE in here_log
    assert digest(behind) == digest(here)
    assert behind["results"][TASK]["pass@1,sandbox"] == here["results"][TASK]["pass@1,sandbox"] == 1.0

    again, again_log = lm_eval_run(tmp_path / "again", tmp_path / "cache-behind", metadata)
    assert STARTED not in again_log and BUILT_HERE not in again_log  # warm: nothing to build anywhere
    assert digest(again) == digest(here)


def test_a_fresh_seed_is_drawn_once_for_the_run_and_its_background_build(tmp_path, small_data):
    results, log = lm_eval_run(tmp_path / "out", tmp_path / "cache", {"data_dir": small_data, "seed": "fresh"})
    assert STARTED in log and BUILT_HERE not in log
    drawn = seed(results)
    repeated, _ = lm_eval_run(tmp_path / "repeat", tmp_path / "cache-repeat", {"data_dir": small_data, "seed": drawn},
                              background=False)
    assert digest(repeated) == digest(results)


def test_a_failed_background_build_leaves_the_tasks_to_build(monkeypatch, tmp_path, small_data, caplog):
    from dynbench_tasks.lmeval import background_build

    failed = subprocess.Popen([sys.executable, "-c", "import sys; sys.exit(3)"], stdin=subprocess.PIPE)
    log = tmp_path / "build.log"
    log.write_text("dynbench: it broke\n")
    monkeypatch.setattr(background_build, "_build", background_build._Build(failed, log, 1))
    with caplog.at_level("INFO", logger="lm_eval.dynbench"):
        background_build.wait()
    assert "ended with status 3" in caplog.text and str(log) in caplog.text
    assert background_build._build is None


def test_a_build_whose_run_has_ended_stops(tmp_path, small_data):
    parent = subprocess.run([sys.executable, "-c", f"""
import os
from dynbench_tasks.lmeval import background_build
background_build.start(["cruxeval_fuvio"], {{"data_dir": {small_data!r}, "seed": 77}})
print(background_build._build.process.pid, flush=True)
os._exit(0)  # no atexit: only the end of this process tells the build
"""], capture_output=True, text=True, check=True, env=dict(os.environ, HF_DATASETS_CACHE=str(tmp_path)))
    child = int(parent.stdout.split()[0])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and running(child):
        time.sleep(0.2)
    assert not running(child)


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended and not yet reaped by whoever adopted it, does not)."""
    try:
        return "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
    except FileNotFoundError:
        return False


def test_nothing_starts_where_it_cannot_help(monkeypatch, small_data):
    from dynbench_tasks.lmeval import background_build

    metadata = {"data_dir": small_data, "seed": 12}
    monkeypatch.setenv("DYNBENCH_BACKGROUND_BUILD", "0")
    background_build.start([TASK], metadata)
    assert background_build._build is None
    monkeypatch.delenv("DYNBENCH_BACKGROUND_BUILD")
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "2")  # each evaluation process builds its own
    background_build.start([TASK], metadata)
    assert background_build._build is None
    monkeypatch.delenv("LOCAL_WORLD_SIZE")
    background_build.start(["cruxeval_orig", "mmlu"], metadata)  # nothing mutated to build
    assert background_build._build is None
