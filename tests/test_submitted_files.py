"""Submitted files past ``dynbench_tasks.analysis.submitted``'s bounds (size, nesting, links, files that are
no regular file or lie outside their folder): every reader (verify, leaderboard, report, detect, view)
answers one line per bad file, never a traceback and never the content of a file a link names, and reads no
further than the bound; a record of the wrong shape is no crash either; a control run beside each attack
reads as usual."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_report import write_run
from test_verify import IDS, _edit_results, make_run

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
    assert f"{hostile}: not " in done.stderr and "not a regular file" in done.stderr, done.stderr


# ---------------------------------------------------------------------------------- real runs
SECRET = "TOPSECRET-the-maintainer's-own-file"
COMMANDS = {"verify": [], "leaderboard": ["--out", "site"], "report": ["--out", "report"], "detect": [],
            "view": ["--variant", "fuv", "--out", "page.html"]}


@pytest.fixture(scope="module")
def real_run(tmp_path_factory, small_data) -> Path:
    """A real lm_eval run (scripted server) of every document of three tasks (one with new answers, which detect
    judges) on four problems."""
    return make_run(tmp_path_factory.mktemp("real"), small_data, "--tasks", "cruxeval_orig,cruxeval_fuv,cruxeval_newinput",
                    metadata={"ids": IDS})


def run_command(command: str, folder: Path, small_data: str, where: Path) -> subprocess.CompletedProcess:
    options = [str(where / o) if o in ("site", "report", "page.html") else o for o in COMMANDS[command]]
    data = [] if command in ("report", "view") else ["--data-dir", small_data]
    return dynbench(command, str(folder), *options, *data)


LINK_REFUSALS = {"symbolic": "a symbolic link, not a regular file: never followed",
                 "hard": "a file with another name too (a hard link): never read"}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("which", ["samples", "results"])
@pytest.mark.parametrize("kind", LINK_REFUSALS)
def test_a_link_to_any_file_shows_none_of_it(real_run, small_data, tmp_path, command, which, kind):
    """Issue 49: a samples file linked to a file the maintainer can read put its first 40 characters into
    verify's line and the leaderboard's terminal output; a hard link did too once symbolic ones were refused.
    A link is never followed, whatever it names."""
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET + "\n")
    hostile_run = tmp_path / "hostile"
    shutil.copytree(real_run, hostile_run)
    links = sorted(hostile_run.rglob("samples_cruxeval_orig_*.jsonl" if which == "samples" else "results_*.json"))
    for link in links:
        link.unlink()
        link.symlink_to(secret) if kind == "symbolic" else os.link(secret, link)
    done = run_command(command, hostile_run, small_data, tmp_path)
    assert SECRET[:12] not in done.stdout + done.stderr, done.stdout[-2000:] + done.stderr[-2000:]
    what = "lm-eval's samples" if which == "samples" else "an lm-eval results file"
    assert done.returncode == 2 and done.stderr.splitlines() == [
        f"dynbench {command}: error: {link}: not {what} ({LINK_REFUSALS[kind]})" for link in links], done.stderr
    # the control: the same run, its files where they were, reads as usual
    done = run_command(command, real_run, small_data, tmp_path)
    assert done.returncode == 0 and SECRET[:12] not in done.stdout + done.stderr, done.stderr[-2000:]


def test_a_file_in_a_folder_that_resolves_outside_the_submission_is_never_read(real_run, tmp_path):
    from dynbench_tasks.analysis.submitted import read_json_file
    from dynbench_tasks.errors import DataError

    results = next(real_run.rglob("results_*.json"))
    assert isinstance(read_json_file(results, "an lm-eval results file", within=real_run), dict)  # the control
    with pytest.raises(DataError, match="outside the submission folder, never read"):
        read_json_file(results, "an lm-eval results file", within=tmp_path)


GARBAGE = {
    "a list": lambda record: [1],
    "text": lambda record: "dynbench",
    "fields of the wrong shape": lambda record: {**record, "counts": [1], "seed": [1], "ids": {"a": 1}, "data": [1],
                                                  "judging_rules": "x", "options": [1], "chain": {"x": 1}, "scope": [2],
                                                  "timeout": "x", "engine_version": [1]},
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("garbage", GARBAGE)
def test_a_record_of_the_wrong_shape_ends_no_command_in_a_traceback(real_run, small_data, tmp_path, command, garbage):
    """Issue 49: ``metadata.dynbench = [1]`` ended ``dynbench report`` in a traceback; every command reads such a
    record as none (verify: a run it cannot verify), and says so on a line of its own."""
    hostile_run = tmp_path / "garbage"
    shutil.copytree(real_run, hostile_run)
    _edit_results(hostile_run, lambda results: [config["metadata"].update(dynbench=GARBAGE[garbage](
        config["metadata"]["dynbench"])) for config in results["configs"].values()])
    done = run_command(command, hostile_run, small_data, tmp_path)  # dynbench() asserts there is no traceback
    assert done.returncode in (0, 1, 2), done.stderr[-2000:]
    if command == "verify":
        assert done.returncode == 1 and not any(": verified" in line for line in done.stdout.splitlines())
