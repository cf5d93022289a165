"""``dynbench view``: its own side-by-side diff (renames shown as renames, changed tokens marked, no
difflib navigation), outcome flips, what answers are scored against (the reference Java only where it
still applies), hostile answers escaped, and the command's names, messages and output folders."""

import json
import subprocess
import sys

import pytest
from test_report import STAMP, write_run

from dynbench_tasks.analysis.runs import load_runs
from dynbench_tasks.analysis.viewer import diff_table, find_renames, write_view_page

BEFORE = """def f(nums):
    output = []
    for n in nums:
        output.append((nums.count(n), n))
    if len(output) < 2:
        return output
    return output
"""
# What F+U+V2 made of it (engine output, seed 0), with the constant 2 unfolded by hand.
AFTER = """def f(vq9):
    mn8 = []
    dn1 = iter(vq9)
    while True:
        try:
            t5x = next(dn1)
        except StopIteration:
            break
        mn8.append((vq9.count(t5x), t5x))
    if len(mn8) < 7 - 5:
        return mn8
    return mn8
"""


def write_viewer(run_dir, task: str, out) -> int:
    return write_view_page(load_runs([str(run_dir)]), task, out)


def test_renamed_identifiers_are_found():
    assert find_renames(BEFORE, AFTER) == {"output": "mn8", "nums": "vq9", "n": "t5x"}
    assert find_renames(BEFORE, BEFORE) == {}
    # A name that is still there after the change was not renamed, whatever the alignment says.
    assert find_renames("x = a\ny = b\n", "x = b\ny = b\n") == {}


def test_the_diff_shows_renames_and_changed_tokens_not_changed_lines():
    table = diff_table(BEFORE, AFTER, "mutated")
    assert "renamed: <code>output</code> → <code class='ren'>mn8</code>" in table
    rows = table.split("<tr>")
    # `output.append(...)` and `mn8.append(...)` sit on one row, unchanged but for the renames.
    appended = next(row for row in rows if ".append((" in row)
    assert "class='code '" in appended and "<del>" not in appended and "<ins>" not in appended
    assert "title='renamed: nums → vq9'>vq9<" in appended and "title='renamed: n → t5x'>t5x<" in appended
    # The unfolded constant is marked as a token, the rest of its line is not.
    unfolded = next(row for row in rows if "7 - 5" in row)
    assert "<del>2</del>" in unfolded and "<ins>7 - 5</ins>" in unfolded and "class='code changed'" in unfolded
    # The loop's new lines stand alone on the right.
    assert any("class='code new'" in row and "while True:" in row for row in rows)
    assert "diff_next" not in table and "difflib" not in table and "nowrap" not in table


@pytest.fixture
def runs(tmp_path):
    write_run(tmp_path / "a", "model-a", {"cruxeval_orig": [1, 1, 1, 1, 1], "cruxeval_fuv": [0, 0, 0, 0, 0]})
    write_run(tmp_path / "c", "model-c", {"cruxeval_orig": [1, 0, 0, 0, 0], "cruxeval_fuv": [1, 1, 1, 1, 1]})
    return tmp_path


def test_viewer_marks_outcome_flips(runs, tmp_path):
    out = tmp_path / "view.html"
    assert write_viewer(str(runs / "a"), "cruxeval_fuv", out) == 5  # all five passed on orig, none on fuv
    assert write_viewer(str(runs / "c"), "cruxeval_fuv", tmp_path / "c.html") == 0
    page = out.read_text()
    assert page.count("data-flip='1'") == 5 and "only outcome flips" in page and "5 outcome flips" in page
    assert all(f"href='#doc-{i}'" in page and f"id='doc-{i}'" in page for i in range(5))  # the flips, linked
    assert "reference answer <code>0</code>" in page
    assert "title='renamed: x → v0'" in page  # write_run's mutant renames x


def _translation_run(folder, changed_answers=None, answer="class Main { /* avatar_fuvo answer */ }"):
    folder.mkdir()
    for task, status in (("avatar_orig", "passed"), ("avatar_fuvo", "compile_error")):
        mutation = {"status": "mutated"}
        if changed_answers is not None and task == "avatar_fuvo":
            mutation.update(changed_answers=changed_answers, edit="line 1: 1 -> 2")
        doc = {"id": "atcoder_X", "python": "n = int(input())\nprint(n + 2)\n",
               "original_python": "n = int(input())\nprint(n + 1)\n", "java": "public class Main { /* reference */ }",
               "mutation": mutation}
        reply = answer if task == "avatar_fuvo" else "class Main { /* avatar_orig answer */ }"
        sample = {"doc_id": 0, "doc": doc, "resps": [[reply]], "filtered_resps": [[json.dumps({"status": status})]],
                  "pass@1": float(status == "passed")}
        (folder / f"samples_{task}_{STAMP}.jsonl").write_text(json.dumps(sample) + "\n")
    (folder / f"results_{STAMP}.json").write_text(json.dumps({
        "results": {t: {"pass@1,sandbox": 0.0} for t in ("avatar_orig", "avatar_fuvo")}, "configs": {},
        "model_name": "m"}))
    return folder


@pytest.mark.parametrize("changed", [None, []])  # no record of changed answers: unchanged
def test_translation_shows_answers_and_the_reference_java_while_it_applies(tmp_path, changed):
    out = tmp_path / "t.html"
    assert write_viewer(str(_translation_run(tmp_path / "t", changed)), "avatar_fuvo", out) == 1
    page = out.read_text()
    assert "/* avatar_fuvo answer */" in page and "/* avatar_orig answer */" in page and "compile_error" in page
    assert "<summary>reference Java</summary>" in page and "/* reference */" in page
    assert "answer changed" not in page


def test_translation_whose_answer_changed_says_the_reference_java_does_not_apply(tmp_path):
    out = tmp_path / "t.html"
    write_viewer(str(_translation_run(tmp_path / "t", ["output"])), "avatar_fuvo", out)
    page = out.read_text()
    assert "<summary>reference Java</summary>" not in page
    assert "so it is not a reference here" in page and "<code>line 1: 1 -&gt; 2</code>" in page
    assert "right for the original program only" in page  # the published Java, labelled for what it is


def test_hostile_answers_and_ids_are_shown_as_text(tmp_path):
    hostile = "</pre></td><script>alert(1)</script><img src=x onerror=alert(2)>"
    out = tmp_path / "t.html"
    write_viewer(str(_translation_run(tmp_path / "t", answer=hostile)), "avatar_fuvo", out)
    page = out.read_text()
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    # control: the page's own script is still there
    assert page.count("<script>") == 1


def test_an_answer_s_control_and_bidi_characters_are_shown_not_obeyed(tmp_path):
    """A right-to-left override shows text as other text, an escape sequence rewrites a terminal showing the
    page's source; both passed into the page as they were (red team 3). Its lines stay lines."""
    hostile = "print(1)\n\u202e)dlrow(tnirp\n\x1b[2Jcleared"
    out = tmp_path / "t.html"
    write_viewer(str(_translation_run(tmp_path / "t", answer=hostile)), "avatar_fuvo", out)
    page = out.read_text()
    assert "\u202e" not in page and "\x1b" not in page
    assert "print(1)\n\ufffd)dlrow(tnirp\n\ufffd[2Jcleared" in page


def test_a_logged_document_s_hidden_characters_and_a_lone_surrogate_are_shown_not_obeyed(tmp_path):
    """A doctored log's document holds a right-to-left override and an escape sequence; an answer holds a lone
    surrogate, which no UTF-8 page can hold (red team 4: the page then failed to write)."""
    run = _translation_run(tmp_path / "t", answer="class Main { }\ud800")
    for path in run.glob("samples_*.jsonl"):
        sample = json.loads(path.read_text())
        sample["doc"]["python"] = "print(1)\n\u202e)dlrow(tnirp\n\x1b[2J"
        path.write_text(json.dumps(sample) + "\n")
    out = tmp_path / "t.html"
    write_viewer(str(run), "avatar_fuvo", out)
    page = out.read_text(encoding="utf-8")
    assert not any(hidden in page for hidden in ("\u202e", "\x1b", "\ud800"))
    assert "class Main { }\ufffd" in page and "\ufffd)dlrow(tnirp" in page


def _view(*args):
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "view", *map(str, args)],
                          capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def test_the_command_takes_a_variant_alone_and_creates_its_folder(runs, tmp_path):
    code, out, err = _view(runs / "a", "--variant", "fuv", "--out", tmp_path / "new" / "folder")
    assert code == 0, err
    page = tmp_path / "new" / "folder" / "cruxeval_fuv.html"
    assert out.strip() == str(page) and page.is_file() and "5 outcome flips" in err
    code, _, err = _view(runs / "a", "--variant", "cruxeval_fuv", "--out", tmp_path / "other" / "page.html")
    assert code == 0 and (tmp_path / "other" / "page.html").is_file(), err


def test_a_variant_the_run_lacks_is_named_with_what_it_has(runs, tmp_path):
    code, _, err = _view(runs / "a", "--variant", "fvu", "--out", tmp_path / "v.html")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "has no task 'fvu' (did you mean 'cruxeval_fuv'?)" in err and "it has cruxeval_fuv, cruxeval_orig" in err
    assert "log_samples" not in err and not (tmp_path / "v.html").exists()
    code, _, err = _view(runs / "a", "--variant", "newoutput", "--out", tmp_path / "v.html")  # a real variant
    assert code == 2 and "has no task 'newoutput'" in err and "it has cruxeval_fuv, cruxeval_orig" in err


def test_a_run_without_samples_is_told_to_log_them(tmp_path):
    write_run(tmp_path / "s", "m", {"cruxeval_orig": [1], "cruxeval_fuv": [0]}, samples=False)
    code, _, err = _view(tmp_path / "s", "--variant", "fuv", "--out", tmp_path / "out")
    assert code == 2 and "cruxeval_fuv was run without --log_samples" in err and not (tmp_path / "out").exists()


def test_a_cruxeval_answer_changed_by_the_program_edit_is_shown_with_the_edit(tmp_path):
    write_run(tmp_path / "n", "m", {"cruxeval_orig": [1], "cruxeval_newoutput": [0]})
    path = next((tmp_path / "n").glob("samples_cruxeval_newoutput_*.jsonl"))
    sample = json.loads(path.read_text())
    sample["doc"].update(code="def f(v0):\n    return v0 + 1\n", input="1", original_input="1", output="2",
                         original_output="1", mutation={"status": "mutated", "changed_answers": ["output"],
                                                        "edit": "line 2: v0 -> v0 + 1"})
    path.write_text(json.dumps(sample) + "\n")
    write_viewer(tmp_path / "n", "cruxeval_newoutput", tmp_path / "n.html")
    page = (tmp_path / "n.html").read_text()
    assert "reference <code>assert f(1) == 2</code>" in page and "answer changed</span>" in page
    assert "output changed by the mutation: published <code>1</code>, now <code>2</code>" in page
    assert "the program's edit: <code>line 2: v0 -&gt; v0 + 1</code>" in page and "input changed" not in page


def test_an_answer_that_wrote_the_published_output_is_marked(tmp_path):
    write_run(tmp_path / "n", "m", {"cruxeval_orig": [1], "cruxeval_newoutput": [0]})
    path = next((tmp_path / "n").glob("samples_cruxeval_newoutput_*.jsonl"))
    sample = json.loads(path.read_text())
    sample["filtered_resps"] = [[json.dumps({"answer": "1", "status": "wrong", "stale": True}),
                                 json.dumps({"answer": "3", "status": "wrong", "stale": "yes", "decoy": True})]]
    path.write_text(json.dumps(sample) + "\n")
    write_viewer(tmp_path / "n", "cruxeval_newoutput", tmp_path / "n.html")
    page = (tmp_path / "n.html").read_text()
    assert page.count("the published answer</span>") == 1 and page.count("the decoy</span>") == 1
