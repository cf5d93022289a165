"""Submitted files past ``dynbench_tasks.analysis.submitted``'s bounds (size, nesting): every reader
(here ``dynbench verify`` and ``dynbench leaderboard``) answers one line per bad file, never a
traceback, and reads no further than the bound; a control run beside each attack reads as usual."""

import subprocess
import sys
from pathlib import Path

import pytest
from test_report import write_run

from dynbench_tasks.analysis.submitted import MAX_DEPTH, MAX_RESULTS_BYTES, MAX_SAMPLE_BYTES

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out


def dynbench(*arguments: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", *arguments], capture_output=True, text=True)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done


def a_run(folder: Path) -> Path:
    write_run(folder, "m", {"cruxeval_orig": [1, 0], "cruxeval_newinput": [1, 1]})
    return folder


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_every_unreadable_file_is_named_on_its_own_line(tmp_path):
    control = a_run(tmp_path / "control")
    bad = []
    for name in ("one", "two"):
        results = next(a_run(tmp_path / name).glob("results_*.json"))
        results.write_text(results.read_text()[:-1] + f', "deep": {deep(200_000)}}}')
        bad.append(results)
    for command in (["verify"], ["leaderboard", "--out", str(tmp_path / "site")]):
        done = dynbench(command[0], str(control), str(tmp_path / "one"), str(tmp_path / "two"), *command[1:])
        assert done.returncode == 2, done.stdout
        assert done.stderr.splitlines() == [f"dynbench {command[0]}: error: 2 submitted files cannot be read:",
                                            *(f"{path}: not an lm-eval results file (nested deeper than {MAX_DEPTH} "
                                              "levels)" for path in bad)]


def test_nesting_within_the_bound_reads(tmp_path):
    results = next(a_run(tmp_path / "run").glob("results_*.json"))
    results.write_text(results.read_text()[:-1] + f', "nested": {deep(MAX_DEPTH - 1)}}}')  # the file's object is 1
    done = dynbench("verify", str(tmp_path / "run"))
    assert done.returncode == 1 and len(done.stdout.splitlines()) == 2, done.stderr[-2000:]  # synthetic: unverifiable


@pytest.mark.parametrize("where", ["results", "sample line"])
def test_a_file_past_its_size_bound_is_one_line(tmp_path, where):
    run = a_run(tmp_path / "run")
    if where == "results":
        path = next(run.glob("results_*.json"))
        path.write_text(path.read_text()[:-1] + ', "padding": "' + "x" * MAX_RESULTS_BYTES + '"}')
        message = f"{path}: larger than {MAX_RESULTS_BYTES // 1024 ** 2} MiB, not an lm-eval results file"
    else:
        path = next(run.glob("samples_cruxeval_orig_*.jsonl"))
        path.write_text(path.read_text() + '"' + "x" * MAX_SAMPLE_BYTES + '"\n')
        message = f"{path}: line 3 is longer than {MAX_SAMPLE_BYTES // 1024 ** 2} MiB, not a sample lm-eval logs"
    done = dynbench("verify", str(run))
    assert done.returncode == 2 and done.stderr.splitlines() == [f"dynbench verify: error: {message}"], done.stderr


@pytest.mark.parametrize("command", ["verify", "leaderboard", "report", "view"])
@pytest.mark.parametrize("which", ["results", "samples"])
@pytest.mark.parametrize("kind", ["a link to /dev/zero", "a FIFO"])
def test_a_submitted_file_that_is_not_a_regular_file_is_one_line(tmp_path, command, which, kind):
    """``stat`` says 0 bytes for both, yet a FIFO blocks a reader for ever and /dev/zero never ends."""
    import os

    write_run(tmp_path / "run", "m", {"cruxeval_orig": [1, 1, 0], "cruxeval_fuv": [0, 1, 0]})
    hostile = next((tmp_path / "run").rglob(f"{which}_*fuv*" if which == "samples" else "results_*.json"))
    hostile.unlink()
    if kind == "a FIFO":
        os.mkfifo(hostile)
    else:
        hostile.symlink_to("/dev/zero")
    options = {"verify": [], "view": ["--variant", "fuv", "--out", str(tmp_path / "page.html")]}
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", command, str(tmp_path / "run"),
                           *options.get(command, ["--out", str(tmp_path / "out")])],
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr and done.returncode != 0, done.stderr[-2000:]
    assert f"{hostile}: not " in done.stderr and "(not a regular file)" in done.stderr, done.stderr
