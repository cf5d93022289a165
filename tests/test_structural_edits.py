"""NewOutput on translation: a structural edit (a statement added, a loop's bounds moved) and a second
edit in another statement, each of which matters, so that a recalled translation cannot be patched token
by token to the new answers."""

import subprocess
import sys
from textwrap import dedent

from dynbench_tasks.benchmarks.new_answers import script_problem
from mutators import MUTATED, ProgramKind, mutate
from mutators.newoutput import Edits
from mutators.newoutput import edits as token_edits
from mutators.output_choice import DEGENERATE, choose_new_outputs
from mutators.programs import StdinTests
from mutators.structural import has_structural, statement_of, structural_edits

PROGRAM = dedent("""\
    def f_gold(a, n):
        total = a[0] * 2
        for i in range(n):
            total += a[i]
        return total
""")


def _edited(code: str, seed: int = 0) -> dict[str, str]:
    return {edit.what: edit.apply(code) for edit in structural_edits(code, seed)}


def test_a_statement_is_added_after_an_assignment_to_a_name():
    edited = _edited(PROGRAM)
    after = next(code for what, code in edited.items() if what.startswith("line 3: added total "))
    assert after.splitlines()[:3] == ["def f_gold(a, n):", "    total = a[0] * 2", after.splitlines()[2]]
    assert after.splitlines()[2] in ("    total += 1", "    total -= 1")
    added_in_loop = next(code for what, code in edited.items() if what.startswith("line 5: added total "))
    assert added_in_loop.splitlines()[3:5] == ["        total += a[i]", added_in_loop.splitlines()[4]]
    assert added_in_loop.splitlines()[4].startswith("        total ")


def test_a_parameter_is_stepped_at_the_start_of_a_function():
    code = dedent("""\
        def f_gold(n, k):
            \"\"\"A docstring stays first.\"\"\"
            if n + 1 >= k:
                return k - 1
            return 2 * n + 1 - k
    """)
    edited = {what: after for what, after in _edited(code).items() if what.startswith("line 3: added ")}
    assert {what[len("line 3: added "):] for what in edited} in ({"n += 1", "k += 1"}, {"n += 1", "k -= 1"},
                                                                 {"n -= 1", "k += 1"}, {"n -= 1", "k -= 1"})
    for what, after in edited.items():
        assert after.splitlines()[2] == "    " + what[len("line 3: added "):]
        assert after.replace(after.splitlines()[2] + "\n", "") == code


def test_a_loops_bounds_move():
    assert _edited(PROGRAM)["line 3: range(n) -> range(1, n)"] == PROGRAM.replace("range(n)", "range(1, n)")
    two = PROGRAM.replace("range(n)", "range(2, n)")
    assert set(_edited(two)) & {"line 3: range(2, n) -> range(2 + 1, n)", "line 3: range(2, n) -> range(2, n - 1)"}


def test_nothing_is_added_after_a_constant_a_shared_line_or_to_a_short_program():
    code = dedent("""\
        def f_gold(n):
            count = 0
            x = n; y = n
            if n: z = n * 2
            return count
    """)
    assert [what for what in _edited(code) if "added" in what] in (["line 2: added n += 1"], ["line 2: added n -= 1"])
    assert not [what for what in _edited("def f(n):\n    m = n * 2\n    return m\n") if "added" in what]


def test_the_edits_repeat_with_the_seed_and_vary_with_it():
    assert [e.what for e in structural_edits(PROGRAM, 3)] == [e.what for e in structural_edits(PROGRAM, 3)]
    assert len({tuple(e.what for e in structural_edits(PROGRAM, seed)) for seed in range(6)}) > 1


def test_a_documents_edit_record_says_whether_it_holds_a_structural_edit():
    structural = structural_edits(PROGRAM, 0)
    assert structural and all(has_structural(edit.what) for edit in structural)
    code = PROGRAM.replace("a[0] * 2", "max(a[0], 2) * len('added ')")
    tokens = token_edits(code, 0, 20)
    assert len(tokens) > 3 and not any(has_structural(edit.what) for edit in tokens)
    assert not has_structural(Edits(tuple(tokens[:3])).what)
    assert has_structural(Edits((tokens[0], structural[0])).what)


def test_a_compound_statement_is_its_header():
    assert statement_of(PROGRAM, 3) == (3, 3) and statement_of(PROGRAM, 4) == (4, 4)
    assert statement_of("x = (1 +\n     2)\n", 2) == (1, 2) and statement_of("x = 1\n", 7) is None


SCRIPT = dedent("""\
    n = int(input())
    values = [int(v) for v in input().split()]
    best = values[0]
    for i in range(1, n):
        best = max(best, values[i])
    print(best * 2 + 1)
""")
STDINS = ["3\n1 5 2\n", "4\n7 1 1 9\n", "2\n4 4\n"]


def _printed(code: str, stdin: str) -> str:
    return subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True).stdout


def test_a_translation_program_gets_two_edits_in_different_statements_and_each_matters(seeded_sandboxes):
    published = [_printed(SCRIPT, stdin) for stdin in STDINS]
    for seed in range(3):
        result = mutate(SCRIPT, "O", seed, kind=ProgramKind.SCRIPT)
        chosen = choose_new_outputs([(result, script_problem(StdinTests(STDINS, published), result))], seed,
                                    seeded_sandboxes)[id(result)]
        first, second = chosen.edit.steps
        assert result.status == MUTATED and result.edit == f"{first.what}; {second.what}"
        assert ": added " in first.what or "-> range(" in first.what  # the structural one first
        assert result.steps[-1].sites == 2
        assert result.new_answers == [_printed(result.code, stdin) for stdin in STDINS] != published
        shown = first.apply(SCRIPT)
        assert statement_of(shown, first.line(SCRIPT)) != statement_of(shown, second.line(shown))
        # Undoing either edit changes an answer.
        for undone in (second.without(first).apply(SCRIPT), shown):
            assert [_printed(undone, stdin) for stdin in STDINS] != result.new_answers


def test_a_program_with_room_for_one_edit_keeps_one(seeded_sandboxes):
    code = "n = int(input())\nprint(n * 3)\n"
    result = mutate(code, "O", 0, kind=ProgramKind.SCRIPT)
    choose_new_outputs([(result, script_problem(StdinTests(["1\n", "2\n"], ["3\n", "6\n"]), result))], 0,
                       seeded_sandboxes)
    assert result.status == MUTATED and "; " not in result.edit and result.steps[-1].sites == 1


def test_answers_a_program_could_give_without_reading_its_input_are_refused(seeded_sandboxes):
    # "2 -> 3" or "2 -> 4" print nothing on some tests; the other edits change no answer.
    code = "n = int(input())\nif n > 2:\n    print(n)\n"
    tests = StdinTests(["3\n", "5\n", "4\n"], ["3\n", "5\n", "4\n"])
    reasons = set()
    for seed in range(8):
        result = mutate(code, "O", seed, kind=ProgramKind.SCRIPT)
        choose_new_outputs([(result, script_problem(tests, result))], seed, seeded_sandboxes)
        assert result.status != MUTATED, (seed, result.edit, result.new_answers)
        reasons.add(result.reason)
    assert f"newoutput: no edit ({DEGENERATE})" in reasons
