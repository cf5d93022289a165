"""``dynbench report`` on hostile logged samples, through the command: a sample that gives no document
score is left out of every per-document figure and named (its file and position) in one warning line,
deep nesting ends no run with a traceback, and no line the command prints carries a control character
from the files it read."""

import csv
import json
import subprocess
import sys

import pytest
from test_report import STAMP, write_run

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out

HOSTILE = {
    "a list": ([1, 2], "sample 2: a list, not a JSON object"),
    "text": ("sample", "sample 2: text, not a JSON object"),
    "doc a number": ({"doc": 3, "pass@1": 1.0}, "sample 2: its doc is a number, not an object"),
    "doc without an id": ({"doc": {"code": "x"}, "pass@1": 1.0}, "sample 2: its doc has no id (text or a whole number)"),
    "pass@1 past 1": ({"doc": {"id": "sample_1"}, "pass@1": 7}, "sample 2: its pass@1 is not a number from 0 to 1"),
    "pass@1 true": ({"doc": {"id": "sample_1"}, "pass@1": True}, "sample 2: its pass@1 is not a number from 0 to 1"),
}


def _report(*args):
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "report", *map(str, args)],
                          capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def _replace_line(path, number: int, text: str) -> None:
    lines = path.read_text().splitlines()
    lines[number - 1] = text
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("case", HOSTILE)
def test_a_sample_without_a_score_is_left_out_and_named(tmp_path, case):
    value, problem = HOSTILE[case]
    write_run(tmp_path / "run", "m", {"cruxeval_orig": [1, 1, 0], "cruxeval_fuv": [0, 1, 0]})
    samples = tmp_path / "run" / f"samples_cruxeval_fuv_{STAMP}.jsonl"
    _replace_line(samples, 2, json.dumps(value))
    code, out, err = _report(tmp_path / "run", "--out", tmp_path / "out")
    assert code == 0 and "Traceback" not in err, err
    assert err.splitlines() == [f"dynbench report: warning: {samples}: 1 of 3 logged samples left out ({problem})"]
    assert (tmp_path / "out" / "report.html").is_file() and str(tmp_path / "out" / "report.md") in out
    row = next(r for r in csv.DictReader((tmp_path / "out" / "report.csv").open()) if r["variant"] == "fuv")
    assert (row["scored_docs"], row["shared_docs"]) == ("2", "2")  # the two samples that give a score
    said = f"Not counted (samples that give no document score): {samples}: 1 of 3 logged samples left out"
    assert said in (tmp_path / "out" / "report.md").read_text().replace("\\", "")
    assert said in (tmp_path / "out" / "report.html").read_text()


def test_many_wrong_samples_are_counted_in_one_line_per_file(tmp_path):
    write_run(tmp_path / "run", "m", {"cruxeval_orig": [1, 1, 0, 1, 1, 0], "cruxeval_fuv": [0, 1, 0, 1, 1, 1]})
    samples = tmp_path / "run" / f"samples_cruxeval_fuv_{STAMP}.jsonl"
    for number in (1, 2, 4, 6):
        _replace_line(samples, number, "[]")
    orig = tmp_path / "run" / f"samples_cruxeval_orig_{STAMP}.jsonl"
    _replace_line(orig, 3, "{not json")
    code, _, err = _report(tmp_path / "run", "--out", tmp_path / "out")
    assert code == 0, err
    assert sorted(err.splitlines()) == sorted([
        f"dynbench report: warning: {samples}: 4 of 6 logged samples left out (sample 1: a list, not a JSON object; "
        "sample 2: a list, not a JSON object; sample 4: a list, not a JSON object; and 1 more)",
        f"dynbench report: warning: {orig}: 1 of 6 logged samples left out (sample 3: text, not a JSON object)"])


def test_deeply_nested_samples_end_in_one_line(tmp_path):
    depth = 200_000
    write_run(tmp_path / "run", "m", {"cruxeval_orig": [1, 1], "cruxeval_fuv": [0, 1]})
    samples = tmp_path / "run" / f"samples_cruxeval_fuv_{STAMP}.jsonl"
    _replace_line(samples, 1, "[" * depth + "]" * depth)
    code, _, err = _report(tmp_path / "run", "--out", tmp_path / "out")
    assert "Traceback" not in err and "RecursionError" not in err, err[-2000:]
    assert code in (0, 2) and str(samples) in err.splitlines()[0] and "sample 1" in err


def test_terminal_lines_carry_no_control_characters_from_file_names(tmp_path):
    stamp = "2026-11-30T10-00-00\x1b]0;owned\x07\x1b[2J"
    write_run(tmp_path / "run", "m", {"cruxeval_orig": [1, 1], "cruxeval_fuv": [0, 1]}, stamp=stamp)
    _replace_line(tmp_path / "run" / f"samples_cruxeval_fuv_{stamp}.jsonl", 1, "[]")
    code, out, err = _report(tmp_path / "run", "--out", tmp_path / "out")
    assert code == 0 and "left out" in err, err
    assert not any(c in err + out for c in "\x1b\x07")


def test_one_model_name_in_two_folders_is_two_models_and_one_line(tmp_path):
    """Issue 49: a model name in two folders was pooled as one model's runs (a warning said so); each
    folder's runs are their own model now, labelled with the folder, and one line names both."""
    from dynbench_tasks.analysis.runs import SHARED_NAME

    write_run(tmp_path / "a", "org/m", {"cruxeval_orig": [1, 1, 0], "cruxeval_fuv": [0, 1, 0]})
    write_run(tmp_path / "b", "org/m", {"cruxeval_orig": [0, 0, 0], "cruxeval_fuv": [0, 0, 0]})
    code, _, err = _report(tmp_path / "a", tmp_path / "b", "--out", tmp_path / "out")
    assert code == 0, err
    warned = [line for line in err.splitlines() if "org/m is the model name of runs in 2 folders" in line]
    assert len(warned) == 1 and str(tmp_path / "a") in warned[0] and str(tmp_path / "b") in warned[0], err
    with (tmp_path / "out" / "report.csv").open() as handle:
        models = {row["model"] for row in csv.DictReader(handle) if row.get("model")}
    assert {SHARED_NAME.format(model="org/m", folder=tmp_path / f) for f in "ab"} <= models, models


def test_a_record_that_is_no_object_ends_no_report_in_a_traceback(tmp_path):
    """``metadata.dynbench`` a list, not the object dynbench records: read as no record."""
    write_run(tmp_path / "run", "m", {"cruxeval_orig": [1, 1], "cruxeval_fuv": [0, 1]})
    results = tmp_path / "run" / f"results_{STAMP}.json"
    data = json.loads(results.read_text())
    data["configs"]["cruxeval_fuv"]["metadata"]["dynbench"] = [1]
    results.write_text(json.dumps(data))
    code, _, err = _report(tmp_path / "run", "--out", tmp_path / "out")
    assert "Traceback" not in err, err[-2000:]
    assert code in (0, 2)
