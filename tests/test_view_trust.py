"""``dynbench view`` on hostile logged samples, through the command: a sample of the wrong shape is left
out of the page and named (its file and position) in one line, deep nesting and huge texts end no run
with a traceback, and no line the command prints carries a control character from the files it read."""

import json
import subprocess
import sys

import pytest
from test_report import STAMP, write_run

from dynbench_tasks.analysis.viewer import (
    DETAILED_DIFF_CHARACTERS,
    MAX_PROGRAM_CHARACTERS,
    SHOWN_ANSWERS,
    SHOWN_CHARACTERS,
)

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out


def _view(*args):
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "view", *map(str, args)],
                          capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


class Raw(str):
    """A line written as it is, not as JSON."""


def _run_with_first_sample(folder, change, task="cruxeval_fuv", stamp=STAMP):
    """A run of two documents whose first logged sample of ``task`` is ``change(sample)``: a JSON value,
    or the line's text (``Raw``)."""
    write_run(folder, "m", {"cruxeval_orig": [1, 1], "cruxeval_fuv": [0, 1]}, stamp=stamp)
    path = folder / f"samples_{task}_{stamp}.jsonl"
    lines = path.read_text().splitlines()
    changed = change(json.loads(lines[0]))
    lines[0] = changed if isinstance(changed, Raw) else json.dumps(changed)
    path.write_text("\n".join(lines) + "\n")
    return path


def _with(path: str, value):
    def change(sample):
        keys = path.split(".")
        target = sample
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
        return sample
    return change


def _without(path: str):
    def change(sample):
        keys = path.split(".")
        target = sample
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]
        return sample
    return change


HOSTILE = {
    "a list": (lambda s: [s], "a list, not a JSON object"),
    "a number": (lambda s: 7, "a number, not a JSON object"),
    "a JSON string": (lambda s: "sample", "text, not a JSON object"),
    "not JSON": (lambda s: Raw("{'doc': 1"), "text, not a JSON object"),
    "doc a list": (_with("doc", [1]), "its doc is a list, not an object"),
    "no doc": (_without("doc"), "its doc is null, not an object"),
    "doc without id": (_without("doc.id"), "its doc has no id"),
    "pass@1 as text": (_with("pass@1", "1.0"), "its pass@1 is not a number from 0 to 1"),
    "no program": (_without("doc.code"), "its doc has no code"),
    "program an object": (_with("doc.code", {"a": 1}), "its doc's code is an object, not text"),
    "original program a list": (_with("doc.original_code", ["x"]), "its doc's original_code is a list, not text"),
    "output a number": (_with("doc.output", 5), "its doc's output is a number, not text"),
    "mutation a list": (_with("doc.mutation", [1]), "its doc's mutation is a list, not an object"),
    "changed_answers null": (_with("doc.mutation", {"changed_answers": None}), "mutation.changed_answers"),
    "edit an object": (_with("doc.mutation", {"edit": {}}), "its doc's mutation.edit is an object, not text"),
    "filtered_resps text": (_with("filtered_resps", "passed"), "its filtered_resps is not a list of lists"),
    "filtered_resps flat": (_with("filtered_resps", ["passed"]), "its filtered_resps is not a list of lists"),
    "resps a number": (_with("resps", 3), "its resps is not a list of lists"),
    "huge program": (_with("doc.code", "x = 1\n" * (MAX_PROGRAM_CHARACTERS // 6 + 1)),
                     f"longer than {MAX_PROGRAM_CHARACTERS} characters"),
}


@pytest.mark.parametrize("case", HOSTILE)
def test_a_sample_of_the_wrong_shape_is_left_out_and_named(tmp_path, case):
    change, problem = HOSTILE[case]
    samples = _run_with_first_sample(tmp_path / "run", change)
    code, _, err = _view(tmp_path / "run", "--variant", "fuv", "--out", tmp_path / "page.html")
    assert code == 0 and "Traceback" not in err, err
    warning = err.splitlines()[0]
    assert warning.startswith(f"dynbench view: warning: {samples}: 1 of 2 logged samples left out (sample 1: ")
    assert problem in warning and len(err.splitlines()) == 2  # the warning, then the flips
    page = (tmp_path / "page.html").read_text()
    assert "1 documents." in page and "id='doc-0'" in page and "id='doc-1'" not in page
    assert "Left out:" in page and "sample 1: " in page


def test_answers_of_odd_types_are_shown_as_text(tmp_path):
    """Answers are the model's: whatever they decode to, each is shown as text with its status."""
    answers = [5, None, {"status": ["x"]}, json.dumps([1, 2]), "{not json", "[" * 100 + "]" * 100]
    _run_with_first_sample(tmp_path / "run", _with("filtered_resps", [answers]))
    code, _, err = _view(tmp_path / "run", "--variant", "fuv", "--out", tmp_path / "page.html")
    assert code == 0 and "warning" not in err, err
    page = (tmp_path / "page.html").read_text()
    assert page.count("<td class='status") == len(answers) + 3  # and one answer for each other sample
    assert "{not json" in page and "[[[[" in page


def test_a_run_whose_samples_are_all_wrong_stops_with_one_line(tmp_path):
    write_run(tmp_path / "run", "m", {"cruxeval_orig": [1], "cruxeval_fuv": [0]})
    path = tmp_path / "run" / f"samples_cruxeval_fuv_{STAMP}.jsonl"
    path.write_text("[1]\n2\n")
    code, _, err = _view(tmp_path / "run", "--variant", "fuv", "--out", tmp_path / "page.html")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert f"{path}: 2 of 2 logged samples left out (sample 1: a list" in err and "nothing left to show" in err
    assert not (tmp_path / "page.html").exists()


def test_a_wrong_sample_of_the_original_run_is_named_too(tmp_path):
    samples = _run_with_first_sample(tmp_path / "run", lambda s: [s], task="cruxeval_orig")
    code, _, err = _view(tmp_path / "run", "--variant", "fuv", "--out", tmp_path / "page.html")
    assert code == 0, err
    assert err.startswith(f"dynbench view: warning: {samples}: 1 of 2 logged samples left out (sample 1: a list")
    page = (tmp_path / "page.html").read_text()
    assert "2 documents." in page and page.count("not run</p>") == 1  # the first document has no orig to show


def test_deeply_nested_samples_end_in_one_line(tmp_path):
    depth = 200_000
    samples = _run_with_first_sample(tmp_path / "run", lambda s: Raw("[" * depth + "]" * depth))
    code, _, err = _view(tmp_path / "run", "--variant", "fuv", "--out", tmp_path / "page.html")
    assert "Traceback" not in err and "RecursionError" not in err, err[-2000:]
    assert code in (0, 2) and str(samples) in err.splitlines()[0]


def test_huge_answers_are_cut_on_the_page(tmp_path):
    answer = "y" * (SHOWN_CHARACTERS * 50)
    _run_with_first_sample(tmp_path / "run", _with("filtered_resps", [[json.dumps({"answer": answer,
                                                                                      "status": "wrong"})]]))
    code, _, err = _view(tmp_path / "run", "--variant", "fuv", "--out", tmp_path / "page.html")
    assert code == 0, err
    page = (tmp_path / "page.html").read_text()
    assert f"({len(answer) - SHOWN_CHARACTERS} more characters)" in page and len(page) < len(answer) / 10


def test_terminal_lines_carry_no_control_characters_from_file_names(tmp_path):
    stamp = "2026-11-30T10-00-00\x1b]0;owned\x07\x1b[2J"
    _run_with_first_sample(tmp_path / "run", lambda s: [s], stamp=stamp)
    code, out, err = _view(tmp_path / "run", "--variant", "fuv", "--out", tmp_path / "page.html")
    assert code == 0 and "Traceback" not in err, err
    assert "left out" in err and not any(c in err + out for c in "\x1b\x07")


def test_viewing_orig_says_there_is_nothing_to_compare(tmp_path):
    write_run(tmp_path / "run", "m", {"cruxeval_orig": [1, 0], "cruxeval_fuv": [0, 1], "cruxeval_auv": [1, 1]})
    for name in ("orig", "cruxeval_orig"):
        code, _, err = _view(tmp_path / "run", "--variant", name, "--out", tmp_path / "page.html")
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert "cruxeval_orig is what a page compares each variant with" in err
        assert "name one of cruxeval_auv, cruxeval_fuv" in err and not (tmp_path / "page.html").exists()
    write_run(tmp_path / "alone", "m", {"cruxeval_orig": [1, 0]})
    code, _, err = _view(tmp_path / "alone", "--variant", "orig", "--out", tmp_path / "page.html")
    assert code == 2 and "the runs hold no other cruxeval task" in err


def test_a_flood_of_answers_is_counted_not_shown(tmp_path):
    answers = [json.dumps({"answer": str(i), "status": "wrong"}) for i in range(SHOWN_ANSWERS * 20)]
    _run_with_first_sample(tmp_path / "run", _with("filtered_resps", [answers]))
    code, _, err = _view(tmp_path / "run", "--variant", "fuv", "--out", tmp_path / "page.html")
    assert code == 0, err
    page = (tmp_path / "page.html").read_text()
    assert f"… and {len(answers) - SHOWN_ANSWERS} more answers" in page
    assert page.count("<td class='status") == SHOWN_ANSWERS + 3  # and one answer for each other sample


def _long_program(names: list[str], characters: int) -> str:
    """A program of about ``characters`` characters whose lines use ``names`` in turn."""
    lines, size, index = ["def f(x):"], 9, 0
    while size < characters:
        a, b, c = (names[(index + k) % len(names)] for k in range(3))
        line = f"    {a} = {b} + {c} * x - len(str({a})) // 3  # step {index} of the long program"
        lines.append(line)
        size += len(line) + 1
        index += 1
    return "\n".join(lines) + "\n    return x\n"


def test_a_long_program_pair_renders_quickly_without_rename_detection(tmp_path):
    """Issue 30: rename detection diffs every token with every other, minutes for a page of programs
    near the 64,000-character cap; past DETAILED_DIFF_CHARACTERS a page shows them line beside line."""
    import random

    names = [f"name_{i}" for i in range(300)]
    renamed = [f"var_{i}" for i in random.Random(0).sample(range(300), 300)]  # every name renamed, shuffled
    original, mutant = _long_program(names, 60_000), _long_program(renamed, 60_000)
    assert DETAILED_DIFF_CHARACTERS < len(original) <= MAX_PROGRAM_CHARACTERS
    change = _with("doc.original_code", original)
    _run_with_first_sample(tmp_path / "run", lambda s: _with("doc.code", mutant)(change(s)))
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "view", str(tmp_path / "run"), "--variant",
                           "fuv", "--out", str(tmp_path / "page.html")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "left out" not in done.stderr, done.stderr[-2000:]
    page = (tmp_path / "page.html").read_text()
    assert f"rename detection skipped: a program over {DETAILED_DIFF_CHARACTERS:,} characters" in page
    assert "name_299" in page and "var_0" in page  # both programs are on the page
