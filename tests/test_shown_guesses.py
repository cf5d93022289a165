"""What a model can write from a shown problem without running it, and the decoy rule built on it:
a published output one guess from the shown text gets no decoy, and no decoy is such a guess. The
examples are the four stale answers the demo model wrote in 14 real null runs (docs/detect.md)."""

import ast
from textwrap import dedent

import pytest

from mutators import ProgramKind, mutate
from mutators.input_choice import choose_new_inputs
from mutators.programs import CallTests
from mutators.shown_guesses import guessed_from_shown, program_literals, shown_guesses

COUNT_ALPHA = dedent("""\
    def f(names):
        count = len(names)
        numberOfNames = 0
        for i in names:
            if i.isalpha():
                numberOfNames += 1
        return numberOfNames
    """)
INSERT_MIDDLE = dedent("""\
    def f(array, values):
        array.reverse()
        for value in values:
            array.insert(len(array) // 2, value)
        array.reverse()
        return array
    """)
LONGEST_WORD = dedent("""\
    def f(text):
        texts = text.split()
        if texts:
            xtexts = [t for t in texts if t.isascii() and t not in ('nada', '0')]
            return max(xtexts, key=len) if xtexts else 'nada'
        return 'nada'
    """)
MERGE = "def f(a, b):\n    return {**a, **b}\n"


@pytest.mark.parametrize("code, shown, published", [
    (COUNT_ALPHA, "['sharron', 'Mike Cherokee']", 2),  # the shown list's length
    (INSERT_MIDDLE, "[58], [92, 21]", [58, 92, 21]),  # the shown lists joined
    (LONGEST_WORD, "'tt'", "nada"),  # a literal of the program
    (MERGE, "{'wi': 10}, {'w': 3}", {"wi": 10, "w": 3}),  # the shown dicts merged
    (MERGE, "{'wi': 10}, {'w': 3}", {"w": 3}),  # an argument, copied
    ("def f(x):\n    return x * -5\n", "7", -5),  # a signed literal
])
def test_an_answer_one_step_from_the_shown_text_is_a_guess(code, shown, published):
    assert guessed_from_shown(code, shown, published)


@pytest.mark.parametrize("code, shown, value", [
    (COUNT_ALPHA, "['sharron', 'Mike Cherokee']", 3),  # the decoy the demo model never wrote
    (INSERT_MIDDLE, "[58], [92, 21]", [58, 21, 92]),  # worked out, not joined
    (LONGEST_WORD, "'tt'", "ttt"),
    (MERGE, "{'wi': 10}, {'w': 3}", {"wi": 10, "#w": 3}),
    (COUNT_ALPHA, "['ab', 'c']", 2.0),  # equal to a length, but of another type
    (MERGE, "True, True", 2),  # bools are not added
])
def test_an_answer_that_needs_the_program_run_is_no_guess(code, shown, value):
    assert not guessed_from_shown(code, shown, value)


def test_the_guesses_are_listed_in_a_fixed_order_and_survive_unparseable_text():
    assert shown_guesses("def f(a, b):\n    return [1, -2]\n", "'x', 'yz'") == [
        "x", "yz", 1, 2, "xyz", "yzx", [1, -2], 1, -2, 2]
    assert program_literals("def f(:\n") == [] and shown_guesses("def f(:\n", "g()") == []


def _decoy(code: str, arguments: str, output: str, sandboxes) -> tuple[str | None, str | None]:
    result = mutate(code, "I", 0, kind=ProgramKind.FUNCTION, entry_point="f", call_arguments=arguments)
    choose_new_inputs([(code, result, CallTests("f", [arguments]), output)], 0, sandboxes)
    return result.new_input, result.decoy_output


@pytest.mark.parametrize("code, published_input, published_output", [
    (LONGEST_WORD, "''", "'nada'"),  # the published output is printed in the program
    (INSERT_MIDDLE, "[58], [21, 92]", "[58, 92, 21]"),  # ... or the shown lists joined (seed 0 shows [58], [92, 21])
])
def test_a_published_output_guessable_from_the_shown_text_gets_no_decoy(code, published_input, published_output,
                                                                         seeded_sandboxes):
    shown, decoy = _decoy(code, published_input, published_output, seeded_sandboxes)
    assert shown is not None and shown != published_input
    assert guessed_from_shown(code, shown, ast.literal_eval(published_output))
    assert decoy is None


def test_a_published_output_that_needs_the_program_run_keeps_its_decoy(seeded_sandboxes):
    shown, decoy = _decoy(COUNT_ALPHA, "['sharron', 'Savannah', 'Mike Cherokee']", "2", seeded_sandboxes)
    assert not guessed_from_shown(COUNT_ALPHA, shown, 2)
    assert decoy is not None and decoy != "2"


def test_no_decoy_is_a_guess_from_the_shown_text(seeded_sandboxes):
    """Over programs whose outputs are often their arguments joined or counted, every decoy found
    needs the program run, and most programs still have one."""
    programs = [
        ("def f(a, b):\n    return sorted(a + b)\n", "[3, 1], [2]", "[1, 2, 3]"),
        ("def f(xs):\n    return sum(x * x for x in xs)\n", "[1, 2, 3]", "14"),
        ("def f(s, n):\n    return s[n:] + s[:n]\n", "'abcdef', 2", "'cdefab'"),
        ("def f(d):\n    return {k: v * 2 for k, v in d.items() if v > 1}\n", "{'a': 1, 'b': 3}", "{'b': 6}"),
    ]
    found = 0
    for code, arguments, output in programs:
        shown, decoy = _decoy(code, arguments, output, seeded_sandboxes)
        if decoy is not None:
            found += 1
            assert not guessed_from_shown(code, shown, ast.literal_eval(decoy))
    assert found >= 3
