"""Stdin tests derived from the published ones (CodeNet publishes one per program): rearranged published
inputs, kept only where the unedited program answers them cleanly, soon and alike under two hash seeds,
scored with what the edited program prints; a program that ignores its input no longer passes."""

import json
import logging
import subprocess
import sys
from functools import partial
from textwrap import dedent

import lm_eval
import pytest
from known_answers import printing_java, prompt_key
from lm_eval.tasks import TaskManager
from scripted_server import ScriptedServer

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.lmeval.environment import task_directory
from mutators import MUTATED, ProgramKind, mutate
from mutators.derived_inputs import DERIVED_TESTS, derived_stdins
from mutators.output_choice import choose_new_outputs


def _lines(stdin: str) -> list[list[str]]:
    return [line.split() for line in stdin.split("\n")]


def _is_lowered(new: str, stdin: str) -> bool:
    """Whether ``new`` is ``stdin`` with one whole number lowered, to no less than half of it nor than 2."""
    changed = [(old, lowered) for old_row, new_row in zip(_lines(stdin), _lines(new), strict=True)
               for old, lowered in zip(old_row, new_row, strict=True) if old != lowered]
    if len(changed) != 1 or [len(row) for row in _lines(new)] != [len(row) for row in _lines(stdin)]:
        return False
    (old, lowered), = changed
    return old.isdigit() and lowered.isdigit() and max((int(old) + 1) // 2, 2) <= int(lowered) < int(old)


def _is_copied(new: str, stdin: str) -> bool:
    """Whether ``new`` is ``stdin`` with one number of a line, or one character of a word alone on its line,
    written over another of them."""
    changed = [(old_row, new_row) for old_row, new_row in zip(_lines(stdin), _lines(new), strict=True)
               if old_row != new_row]
    if len(changed) != 1 or [len(row) for row in _lines(new)] != [len(row) for row in _lines(stdin)]:
        return False
    (old_row, new_row), = changed
    if len(old_row) == 1 and len(old_row[0]) == len(new_row[0]):
        old_row, new_row = list(old_row[0]), list(new_row[0])
    differing = [(old, copied) for old, copied in zip(old_row, new_row, strict=True) if old != copied]
    return len(differing) == 1 and differing[0][1] in old_row


@pytest.mark.parametrize("stdin", ["5\n1 2 3 4 5\n3\n3 4 1\n", "5 3\n1 2 3 4 5\n", "6 4\nYJSNPI\n",
                                   "cabacc\nabc\n", "atcoder\n", "1817181712114\n"])
def test_a_derived_input_rearranges_a_published_one_and_invents_nothing(stdin):
    derived = derived_stdins([stdin], 0)
    assert 0 < len(derived) <= DERIVED_TESTS and stdin not in derived and len(set(derived)) == len(derived)
    rearranged = [new for new in derived if sorted(new) == sorted(stdin)]  # no value outside the published ones
    assert rearranged and all(_is_lowered(new, stdin) or _is_copied(new, stdin)
                              for new in derived if new not in rearranged)
    for new in rearranged:
        lines, published = _lines(new), _lines(stdin)
        assert [sorted(row) for row in lines] == [sorted(row) for row in published] or \
            [sorted("".join(row)) for row in lines] == [sorted("".join(row)) for row in published]
        if len(published[0]) > 1:
            assert lines[0] == published[0]  # sizes and counts stay
    assert derived_stdins([stdin], 0) == derived != derived_stdins([stdin], 1)


@pytest.mark.parametrize("stdin", [
    "7\n", "8 3 4\n", "81 27\n", "123456789\n",  # one value, a pair or a triple, a number
    "red blue\n5 5\nblue\n",  # a word that names one given before
    "3 2\n1 2\n5 6\n-2 8\n",  # pairs: the order of lines is kept
])
def test_what_a_statement_may_constrain_is_not_rearranged(stdin):
    """Nothing here is rearranged: each derived input is the published one with one value lowered."""
    derived = derived_stdins([stdin], 0)
    assert derived and derived == derived_stdins([stdin], 0) and all(_is_lowered(new, stdin) for new in derived)


@pytest.mark.parametrize("published, lowered", [
    ("""\
        5 5
        """, ["""\
        3 5
        """, """\
        4 5
        """, """\
        5 3
        """, """\
        5 4
        """]),
    # what may count or index the 3 lines of 3 stays; the 9 and the weight 4 are lowered, to half at least
    ("""\
        3 9
        1 2 4
        2 3 2
        1 3 1
        """, ["""\
        3 5
        1 2 4
        2 3 2
        1 3 1
        """, """\
        3 6
        1 2 4
        2 3 2
        1 3 1
        """, """\
        3 7
        1 2 4
        2 3 2
        1 3 1
        """, """\
        3 8
        1 2 4
        2 3 2
        1 3 1
        """, """\
        3 9
        1 2 2
        2 3 2
        1 3 1
        """, """\
        3 9
        1 2 3
        2 3 2
        1 3 1
        """]),
])
def test_where_nothing_is_rearranged_one_value_is_lowered(published, lowered):
    derived = derived_stdins([dedent(published)], 0)
    assert len(derived) == DERIVED_TESTS and set(derived) <= {dedent(text) for text in lowered}


@pytest.mark.parametrize("stdin", [
    "a\n", "A B\n", "1\n", "0 1\n", "-13 -3\n", "2.5 1.10\n", "007\n", "21:15\n",  # nothing whole above 1
    "2 2\n", "2 3\n..#\n###\n", "3 3\n...\n...\n...\n",  # a grid's sizes: its lines and their lengths
    "4 3\n1 2\n2 3\n1 4\n", "3\n1 2 2\n2 3 1\n",  # edges: no node above the counts the input shows
    "4\n1\n3\n2\n4\n",  # a permutation: no value above its length
    "4\n0 1 1 0\n1 0 1 1\n1 1 0 1\n0 1 1 0\n",  # a square of numbers: an adjacency matrix, no grid
    "4\n1 2 3 4\n4 3 2 1\n1\n",  # lines of the count's length that do not end the input: no grid
    "2\n11\n", "10010010\n",  # a digit string of the length given before; a string of bits
])
def test_sizes_indices_signs_fractions_and_small_numbers_are_never_lowered(stdin):
    assert derived_stdins([stdin], 0) == []


def test_only_the_array_a_count_announces_is_shuffled():
    assert derived_stdins([], 0) == []
    published = "3\n1 2 3\n2\n5 6\n9 9 9\n"
    derived = derived_stdins([published], 0)
    rearranged = [new for new in derived if sorted(new) == sorted(published)]
    assert rearranged and all(_is_lowered(new, published) or _is_copied(new, published)
                              for new in derived if new not in rearranged)
    for new in rearranged:
        rows = new.split("\n")
        assert rows[0] == "3" and rows[2] == "2" and rows[4] == "9 9 9" and sorted(rows[1].split()) == ["1", "2", "3"]
    # A shuffle that leaves the tokens where they were (spacing aside) is no new input.
    assert all(new.split() != ["5", "3", "1", "2", "3", "4", "5"] for new in derived_stdins(["5 3\n1  2 3 4 5\n"], 0))


def test_half_are_rearranged_half_lowered_and_either_rule_makes_up_for_the_other():
    # A program that sorts the array answers every rearrangement of it alike: two values are lowered.
    derived = derived_stdins(["3 3\n2 13 8\n"], 0)
    assert len(derived) == DERIVED_TESTS
    assert [sorted(new) == sorted("3 3\n2 13 8\n") for new in derived] == [True, True, False, False]
    assert all(_is_lowered(new, "3 3\n2 13 8\n") for new in derived[2:])
    # nothing above the counts (5 lines, 5 tokens) to lower: two rearranged, two with a number copied over another
    derived = derived_stdins(["5\n1 2 3 4 4\n"], 0)
    assert [sorted(new.split()) == ["1", "2", "3", "4", "4", "5"] for new in derived] == [True, True, False, False]
    assert all(_is_copied(new, "5\n1 2 3 4 4\n") for new in derived[2:])
    # ... but no value of a permutation is copied over another: all four rearranged
    assert all(sorted(new.split()) == ["1", "2", "3", "4", "5", "5"] for new in derived_stdins(["5\n1 2 3 4 5\n"], 0))
    assert all(sorted(new.split()) == ["0", "1", "2", "3"] for new in derived_stdins(["3\n0 2 1\n"], 0))
    # a string of ten digits or more is rearranged or has a digit copied, never lowered, nor is its length
    derived = derived_stdins(["10\n2311312312\n"], 0)
    assert [sorted(new) == sorted("10\n2311312312\n") for new in derived] == [True, True, False, False]
    assert all(_is_copied(new, "10\n2311312312\n") for new in derived[2:])
    # two numbers are no array to rearrange: the 7 is lowered, the count and the 1 stay
    assert sorted(derived_stdins(["2\n7 1\n"], 0)) == ["2\n4 1\n", "2\n5 1\n", "2\n6 1\n"]


def test_a_grid_is_rearranged_and_copied_row_by_row():
    """Two lines of the announced count of numbers (a 2 x N grid, CodeNet's s170274782) had nothing to vary:
    no line alone is an array, no number is above the counts. Each row is rearranged as an array is."""
    published = "5\n3 2 2 4 1\n1 2 2 2 1\n"
    derived = derived_stdins([published], 0)
    assert len(derived) == DERIVED_TESTS and derived == derived_stdins([published], 0)
    rows = [_lines(new) for new in derived]
    assert all(lines[0] == ["5"] and len(lines[1]) == len(lines[2]) == 5 for lines in rows)
    rearranged = [new for new in derived if [sorted(row) for row in _lines(new)] == [sorted(row) for row in
                                                                                      _lines(published)]]
    assert len(rearranged) == 2 and all(_is_copied(new, published) for new in derived if new not in rearranged)
    # lines of three are as often weighted edges or queries (``3`` then ``1 2 2`` and ``2 3 1``): no grid
    assert derived_stdins(["3\n1 2 2\n2 3 1\n"], 0) == []


PAIRS_OF_LETTERS = """s = list(str(input()))
s.sort()
if s[0] == s[1] and s[0] != s[2] and s[2] == s[3]:
    print("Yes")
else:
    print("No")
"""


def test_a_character_copied_over_another_changes_what_every_rearrangement_answers_alike():
    """CodeNet's s896397037 answers every rearrangement of ``ASSA`` with its published "Yes" (a property of
    the letters as a set), and there is no number to lower: a copy of one letter over another (``ASAA``,
    still only published letters) gives another answer."""
    derived = derived_stdins(["ASSA\n"], 0)
    copied = [new for new in derived if sorted(new) != sorted("ASSA\n")]
    assert len(copied) == 2 and all(_is_copied(new, "ASSA\n") for new in copied)
    assert {_printed(PAIRS_OF_LETTERS, new) for new in derived if new not in copied} == {"Yes\n"}
    assert {_printed(PAIRS_OF_LETTERS, new) for new in copied} == {"No\n"}


def _printed(code: str, stdin: str) -> str:
    return subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True).stdout


def _codenet_document(code: str, stdin: str, sandboxes, benchmark: str = "codenet", **fields) -> tuple:
    record = {"id": "x", "python": code, "tests": [{"index": 0, "input": stdin, "output": _printed(code, stdin)}],
              **fields}
    spec = BENCHMARKS[benchmark]
    program = spec.program(record)
    result = mutate(code, "O", 0, kind=ProgramKind.SCRIPT)
    choose_new_outputs([(result, program.answers(result))], 0, sandboxes)
    return result, spec.document_columns([record], [result])["tests"][0]


def test_derived_tests_are_scored_with_what_the_edited_program_prints(seeded_sandboxes):
    code = "n = int(input())\nxs = list(map(int, input().split()))\ntotal = 0\nfor i in range(n):\n" \
           "    total = total * 3 + xs[i]\nprint(total)\n"
    result, tests = _codenet_document(code, "4\n1 2 3 4\n", seeded_sandboxes)
    derived = [test for test in tests if test.get("derived")]
    assert result.status == MUTATED and len(derived) == DERIVED_TESTS == len(result.derived_inputs)
    assert [test["input"] for test in derived] == result.derived_inputs == derived_stdins(["4\n1 2 3 4\n"], 0)
    assert all(test["output"] == _printed(result.code, test["input"]) for test in tests)
    assert len({test["output"] for test in tests}) > 1


def test_a_derived_input_the_program_fails_on_or_answers_by_hash_seed_is_dropped(seeded_sandboxes):
    failing = "n = int(input())\nxs = list(map(int, input().split()))\nassert xs[0] < xs[-1]\ntotal = 0\n" \
              "for x in xs:\n    total = total * 2 + x\nprint(total)\n"
    result, tests = _codenet_document(failing, "3\n1 5 9\n", seeded_sandboxes)
    kept = [test["input"] for test in tests if test.get("derived")]
    assert result.status == MUTATED and all(stdin.split()[1] < stdin.split()[-1] for stdin in kept)
    assert len(kept) < len(derived_stdins(["3\n1 5 9\n"], 0))
    # A string whose first character comes after its last prints its set's order, which the hash seed sets.
    unsteady = "s = input()\nk = 1\nif s[0] < s[-1]:\n    print(s[k:])\nelse:\n    print(''.join(set(s)))\n"
    result, tests = _codenet_document(unsteady, "mutation\n", seeded_sandboxes)
    kept = [test["input"] for test in tests if test.get("derived")]
    assert result.status == MUTATED and kept and all(stdin[0] < stdin[-2] for stdin in kept)
    assert len(kept) < len(derived_stdins(["mutation\n"], 0))


def test_edits_that_together_give_back_the_unedited_programs_answers_change_nothing():
    """On a derived input the unedited program's answer stands for the published one: a second edit that
    undoes the first (Avatar's codeforces_705_B once got `c = 4 - c` then `c -= 1` for `c = 3 - c`) gives
    the answers a recalled program gives on every test, published and derived, and is no change."""
    from dataclasses import replace

    from mutators.output_choice import Problem, _differs
    from mutators.programs import StdinTests

    problem = Problem("print(input())", StdinTests(["1\n"], ["1\n"]), ["1\n", "2\n"], read=lambda values: values,
                      same=str.__eq__, published=["1\n", None], derived=1, derived_answers=["2\n"])
    problem.keep_derived_where([True])
    after_first_edit = replace(problem, baseline=["5\n", "6\n"])
    assert not _differs(after_first_edit, ["1\n", "2\n"])  # the unedited program's answers, everywhere
    assert _differs(after_first_edit, ["1\n", "3\n"])  # a new answer on the derived test


def test_a_lookup_table_of_the_published_input_fails_a_document_that_had_no_derived_test(seeded_sandboxes):
    """Issue 49: s896397037's document had no derived test (every derived input, a rearrangement, answered
    "Yes", so every edit answered every test alike and was sought on the published test alone), and a
    lookup table of its published input passed it. Built again, it has derived tests, and one of them
    expects what the table does not print (its published output, for any input it does not know)."""
    from dynbench_tasks.benchmarks.translation import judged_output

    result, tests = _codenet_document(PAIRS_OF_LETTERS, "ASSA\n", seeded_sandboxes)
    derived = [test for test in tests if test.get("derived")]
    assert result.status == MUTATED and derived and result.derived_inputs == [test["input"] for test in derived]
    assert all(test["output"] == _printed(result.code, test["input"]) for test in tests)
    table = {test["input"]: test["output"] for test in tests if not test.get("derived")}
    assert all(judged_output(table[test["input"]], test["output"], numeric=False) for test in tests
               if not test.get("derived"))
    assert any(not judged_output(table.get(test["input"], tests[0]["output"]), test["output"], numeric=False)
               for test in derived)


def test_derived_inputs_never_cost_a_program_its_edit(seeded_sandboxes):
    # The least number does not depend on the order: on the shuffled arrays (no number above the count 3,
    # none lowered) every edit answers as on the published one (the same answer on every test, refused), so
    # the edit is sought on the published test.
    code = "n = int(input())\nxs = list(map(int, input().split()))\nprint(min(xs) + 1)\n"
    result, tests = _codenet_document(code, "3\n1 3 2\n", seeded_sandboxes)
    assert derived_stdins(["3\n1 3 2\n"], 0)
    assert result.status == MUTATED and result.derived_inputs == [] and len(tests) == 1
    assert tests[0]["output"] == _printed(result.code, "3\n1 3 2\n") != "2\n"


SUM_OF_ENDS_JAVA = """import java.util.*;
public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int n = in.nextInt(), low = Integer.MAX_VALUE, high = Integer.MIN_VALUE;
        for (int i = 0; i < n; i++) { int x = in.nextInt(); low = Math.min(low, x); high = Math.max(high, x); }
        System.out.println(low + high);
    }
}
"""


def test_where_the_benchmark_has_its_own_java_a_derived_input_it_disagrees_on_is_dropped(seeded_sandboxes):
    # The Python adds the array's first and last numbers, the reference Java its least and greatest: the
    # same on the sorted published array, not on most shuffles of it.
    code = "n = int(input())\nxs = list(map(int, input().split()))\nfirst = xs[0]\nlast = xs[n - 1]\n" \
           "print(first + last)\n"
    result, tests = _codenet_document(code, "3\n1 5 9\n", seeded_sandboxes, benchmark="avatar",
                                      java=SUM_OF_ENDS_JAVA)
    candidates = derived_stdins(["3\n1 5 9\n"], 0)
    arrays = [list(map(int, stdin.split()[1:])) for stdin in candidates]
    agreeing = [stdin for stdin, xs in zip(candidates, arrays, strict=True) if xs[0] + xs[-1] == min(xs) + max(xs)]
    assert 0 < len(agreeing) < len(candidates)
    assert result.status == MUTATED and result.derived_inputs == agreeing
    assert [test["input"] for test in tests if test.get("derived")] == agreeing


def test_a_reference_run_a_time_limit_decided_is_judged_again_alone_then_reported(seeded_sandboxes, monkeypatch,
                                                                                   caplog):
    """Issue 50: no clock decides a document silently. The reference Java spins where the array's first number
    is not its least: on those derived inputs its wall-clock limit, not the program, decides, and the judge runs no
    test of a program after its first timeout. Each input so left undecided runs once more in a job of its own:
    those the Java decides are kept where it agrees; those still timed out are dropped, and the build says so in
    one line, counted."""
    from dynbench_tasks.benchmarks import translation

    monkeypatch.setattr(translation, "_REFERENCE_MS", 300)
    spinning = SUM_OF_ENDS_JAVA.replace("System.out.println(low + high);",
                                        "while (first != low) { } System.out.println(low + high);").replace(
        "for (int i = 0;", "int first = 0;\n        for (int i = 0;").replace(
        "int x = in.nextInt();", "int x = in.nextInt(); if (i == 0) { first = x; }")
    code = "n = int(input())\nxs = list(map(int, input().split()))\nprint(min(xs) + max(xs))\n"
    with caplog.at_level(logging.WARNING, logger="lm_eval.dynbench"):
        result, tests = _codenet_document(code, "3\n1 5 9\n", seeded_sandboxes, benchmark="avatar", java=spinning)
    candidates = derived_stdins(["3\n1 5 9\n"], 0)
    first_least = [int(stdin.split()[1]) == min(map(int, stdin.split()[1:])) for stdin in candidates]
    assert not first_least[0] and any(first_least)  # the first spins: before, every input after it went unrun
    kept = [stdin for stdin, least in zip(candidates, first_least, strict=True) if least]
    assert result.status == MUTATED and result.derived_inputs == kept
    assert [test["input"] for test in tests if test.get("derived")] == kept
    (warning,) = [record.getMessage() for record in caplog.records if "time limit" in record.getMessage()]
    spins = len(candidates) - len(kept)
    assert f"{spins} run{'s' if spins > 1 else ''} stopped by a time limit" in warning, warning
    assert "another machine" in warning


def _ignoring_input_java(output: str) -> str:
    return ("```java\npublic class Main {\n    public static void main(String[] args) {\n"
            f"        System.out.print({json.dumps(output)});\n    }}\n}}\n```")


@pytest.mark.slow
def test_a_program_that_ignores_its_input_fails_where_derived_tests_are(tmp_path, data_dir):
    task = "codenet_newoutput"
    (tmp_path / "codenet_py2java.jsonl").write_text(
        "\n".join((data_dir / "codenet_py2java.jsonl").read_text().splitlines()[:12]) + "\n")
    metadata = {"data_dir": str(tmp_path), "repeats": 1, "timeout": 5}
    docs = list(TaskManager(include_path=task_directory(), include_defaults=False, metadata=metadata)
                .load([task])["tasks"][task].test_docs())
    several = [doc for doc in docs if len({test["output"] for test in doc["tests"]}) > 1]
    assert len(several) >= 3 and all(len(doc["original_tests"]) == 1 for doc in docs)

    run = partial(_statuses, task, docs, metadata)

    # It prints the first test's output whatever it reads: right on one-test documents only.
    constant = run(lambda doc: _ignoring_input_java(doc["tests"][0]["output"]))
    assert [status == "passed" for status in constant] == [len({t["output"] for t in doc["tests"]}) == 1
                                                           for doc in docs], constant
    assert all(status == "passed" for status in run(lambda doc: printing_java(doc["tests"])))


def _statuses(task: str, docs: list[dict], metadata: dict, answer) -> list[str]:
    """Each document's status when a scripted model answers it with ``answer(doc)``, through lm_eval."""
    def reply(prompt: str, sample: int) -> str:
        return answer(next(doc for doc in docs if prompt_key(task, doc) in prompt))

    with ScriptedServer(reply) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=[task], task_manager=TaskManager(include_path=task_directory(), include_defaults=False,
                                                   metadata=metadata),
            confirm_run_unsafe_code=True, log_samples=True)
    samples = sorted(results["samples"][task], key=lambda sample: sample["doc_id"])
    return [json.loads(sample["filtered_resps"][0][0])["status"] for sample in samples]


def _lookup_table_java(doc: dict) -> str:
    """Java that answers each published input with the output the document scores it on (what the shown
    program prints there) and any other input with the first one's: a lookup table of the published inputs."""
    published = [test for test in doc["tests"] if not test.get("derived")]
    fallback = f"        System.out.print({json.dumps(published[0]['output'])});\n"
    return printing_java(published).replace("    }\n}\n```", fallback + "    }\n}\n```")


@pytest.mark.slow
def test_a_lookup_table_of_the_published_inputs_passes_no_document_with_a_derived_test(tmp_path, data_dir):
    """Issue 49: a CodeNet Java that is a lookup table of the published test inputs passed codenet_fuvo
    documents (the red teams' s199418121, s537584449, s043545989, s170274782 and s846046431). It passes none
    that has a derived test; the documents without one (nothing in their published input is one
    derived_inputs rearranges, lowers or copies, or none of the derived inputs was kept: every one of
    s043545989's, a rearranged permutation ``1 2 3``, and of s846046431's answers "Yes";
    scripts/derived_coverage.py counts them) are what it still passes."""
    task = "codenet_fuvo"
    (tmp_path / "codenet_py2java.jsonl").write_text(
        "\n".join((data_dir / "codenet_py2java.jsonl").read_text().splitlines()[:40]) + "\n")
    metadata = {"data_dir": str(tmp_path), "repeats": 1, "timeout": 5}
    docs = list(TaskManager(include_path=task_directory(), include_defaults=False, metadata=metadata)
                .load([task])["tasks"][task].test_docs())
    derived = [any(test.get("derived") for test in doc["tests"]) for doc in docs]
    # one-line inputs with nothing to rearrange (``198 1.10``, ``15``) get a value lowered; a 2 x N grid its rows
    # rearranged
    with_derived = {str(doc["id"]) for doc, has in zip(docs, derived, strict=True) if has}
    assert {"s199418121", "s537584449", "s170274782"} <= with_derived
    assert not {"s043545989", "s846046431"} & with_derived
    assert sum(derived) >= 3, sum(derived)

    statuses = partial(_statuses, task, docs, metadata)

    table = statuses(_lookup_table_java)
    assert [status == "passed" for status in table] == [not has_derived for has_derived in derived], table
    # the control: the same table given the derived inputs too passes every document, so a derived test is
    # what fails it
    assert all(status == "passed" for status in statuses(lambda doc: printing_java(doc["tests"])))
