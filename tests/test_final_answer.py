"""The reader of judging rules 3 (dynbench_tasks/benchmarks/final_answer.py), before and after: each
reply a chat, instruct or reasoning model writes, what judging rules 2 read in it and what rules 3 read,
for output and input prediction; then the replies that must fail (wrong answers in every form, two
different answers, an answer taken back, an answer only in the thinking) and hostile ones (huge, nested,
unterminated)."""

import json
import random
import time
from pathlib import Path
from textwrap import dedent

import pytest
from reply_forms import stated
from test_derived_inputs import _statuses

from dynbench_tasks.benchmarks.cruxeval import SAMPLE_STATUSES, parse_answer, score_generations
from dynbench_tasks.benchmarks.cruxeval_input import SAMPLE_STATUSES as INPUT_STATUSES
from dynbench_tasks.benchmarks.cruxeval_input import parse_input_answer, score_inputs
from dynbench_tasks.benchmarks.final_answer import AMBIGUOUS, MAX_REPLY_CHARS, MAX_STATEMENTS, visible_text
from dynbench_tasks.lmeval import task_manager

CODE = "def f(s, n):\n    return s * n\n"
SHOWN, OUTPUT = "'ab', 2", "'abab'"  # the prompt shows f('ab', 2); its output is 'abab'


def reply(text: str) -> str:
    return dedent(text).strip("\n")


def output_read(generation: str, rules: int = 3, prompt: str = "paper") -> tuple[str, str]:
    check = parse_answer(generation, prompt, SHOWN, rules)
    return check.answer, check.status


def input_read(generation: str, rules: int = 3, prompt: str = "paper") -> tuple[str, str]:
    check = parse_input_answer(generation, prompt, CODE, SHOWN, rules, OUTPUT)
    return check.answer, check.status


# reply -> (what rules 2 read, what rules 3 read): (answer, status), status "" for an answer to check
OUTPUT_FORMS = {
    reply("""
        Here is the completed assertion:
        ```python
        assert f('ab', 2) == 'abab'
        ```
    """): (("Here is the completed assertion:\nassert f('ab', 2) == 'abab'", "unparseable"), ("'abab'", "")),
    reply("""
        The function repeats s n times. With n = 2 the string is doubled, so 2 copies of 'ab'.
        The output is 'abab'.
    """): ((reply("""
        The function repeats s n times. With n = 2 the string is doubled, so 2 copies of 'ab'.
        The output is 'abab'.
    """), "unparseable"), ("'abab'", "")),
    reply("""
        [ANSWER]
        assert f('ab', 2) == 'abab'
        [/ANSWER]
    """): (("[ANSWER]", "not_a_value"), ("'abab'", "")),
    reply("""
        <think>
        s * n with n = 2. Is it 'ab'? No: assert f('ab', 2) == 'ab' would be wrong.
        </think>
        assert f('ab', 2) == 'abab'
    """): (("<think>\ns * n with n = 2. Is it 'ab'? No: assert f('ab', 2) == 'ab' would be wrong.\n</think>\n"
            "assert f('ab', 2) == 'abab'", "unparseable"), ("'abab'", "")),
    reply("""
        ```python
        def f(s, n):
            return s * n
        ```
        assert f('ab', 2) == 'abab'
    """): (("def f(s, n):\n    return s * n\nassert f('ab', 2) == 'abab'", "unparseable"), ("'abab'", "")),
    "**Answer:** `'abab'`": (("**Answer:** `'abab'`", "unparseable"), ("'abab'", "")),
    "Output: 'abab'": (("Output: 'abab'", "unparseable"), ("'abab'", "")),
    "f('ab', 1) returns 'ab', so f('ab', 2) returns 'abab'.": (
        ("f('ab', 1) returns 'ab', so f('ab', 2) returns 'abab'.", "unparseable"), ("'abab'", "")),
    reply("""
        Okay, the user asks for the output. s * 2 doubles it. The output is 'ab'? No.
        </think>

        The answer is `'abab'`.
    """): (("Okay, the user asks for the output. s * 2 doubles it. The output is 'ab'? No.\n</think>\n\n"
            "The answer is `'abab'`.", "unparseable"), ("'abab'", "")),
    reply("""
        [THOUGHT]
        Let's execute the code step by step: 'ab' * 2.
        [/THOUGHT]
        [ANSWER]
        assert f('ab', 2) == 'abab'
    """): (("[THOUGHT]", "not_a_value"), ("'abab'", "")),
    reply("""
        <reasoning>doubling</reasoning>
        The output is 'abab'.

        ```python
        assert f('ab', 2) == "abab"
        ```
    """): (("<reasoning>doubling</reasoning>\nThe output is 'abab'.\n\nassert f('ab', 2) == \"abab\"", "unparseable"),
           ("'abab'", "")),
    # what rules 2 read already, rules 3 reads the same
    " 'abab' # done": (("'abab'", ""), ("'abab'", "")),
    "'abab'\nThe call returns that.": (("'abab'", ""), ("'abab'", "")),
    "assert f('ab', 2) == 'abab'\nassert f('ab', 3) == 'ababab'": (("'abab'", ""), ("'abab'", "")),
    "\nassert f('ab', 2) == 'abab'\n[/ANSWER]": (("'abab'", ""), ("'abab'", "")),
}


@pytest.mark.parametrize("generation", list(OUTPUT_FORMS))
def test_output_forms_before_and_after(generation):
    before, after = OUTPUT_FORMS[generation]
    assert output_read(generation, rules=2) == before
    assert output_read(generation, rules=3) == after


def test_harness_prompt_tags_read_alike_under_both_rules():
    tagged = "\nassert f('ab', 2) == 'abab'\n[/ANSWER]"
    assert output_read(tagged, rules=2, prompt="harness") == output_read(tagged, rules=3) == ("'abab'", "")


INPUT_FORMS = {
    "The input is 'ab', 2.": (("The input is 'ab', 2.", "unparseable"), ("f('ab', 2)", "")),
    reply("""
        Here is the completed assertion:
        ```python
        assert f('ab', 2) == 'abab'
        ```
    """): (("Here is the completed assertion:\nassert f('ab', 2) == 'abab'", "unparseable"), ("f('ab', 2)", "")),
    "[ANSWER]\nassert f('ab', 2) == 'abab'\n[/ANSWER]": (("[ANSWER]\nassert f('ab', 2) == 'abab'\n[/ANSWER]",
                                                          "not_a_call"), ("f('ab', 2)", "")),
    "<think>f('a', 4)? It gives 'aaaa'.</think>\nassert f('ab', 2) == 'abab'": (
        ("<think>f('a', 4)? It gives 'aaaa'.</think>\nassert f('ab', 2) == 'abab'", "unparseable"),
        ("f('ab', 2)", "")),
    "```python\ndef f(s, n):\n    return s * n\n```\nassert f('ab', 2) == 'abab'": (
        ("def f(s, n):\n    return s * n\nassert f('ab', 2) == 'abab'", "not_a_call"), ("f('ab', 2)", "")),
    "f('a', 1) returns 'a'. So f('ab', 2) returns 'abab'.": (
        ("f('a', 1) returns 'a'. So f('ab', 2) returns 'abab'.", "unparseable"), ("f('ab', 2)", "")),
    "**Answer:** `f('ab', 2)`": (("**Answer:** `f('ab', 2)`", "unparseable"), ("f('ab', 2)", "")),
    "Input: s='ab', n=2": (("Input: s='ab', n=2", "unparseable"), ("f(s='ab', n=2)", "")),
    "f('ab', 2)": (("f('ab', 2)", ""), ("f('ab', 2)", "")),
}


@pytest.mark.parametrize("generation", list(INPUT_FORMS))
def test_input_forms_before_and_after(generation):
    before, after = INPUT_FORMS[generation]
    assert input_read(generation, rules=2) == before
    assert input_read(generation, rules=3) == after


@pytest.mark.parametrize("generation, read", [
    # two different answers, whatever the forms, are one failed sample; never the better of them
    ("The output is 'ab'.\n\n```python\nassert f('ab', 2) == 'abab'\n```", ("'ab' | 'abab'", AMBIGUOUS)),
    ("[ANSWER]\nassert f('ab', 2) == 'abab'\n[/ANSWER]\n[ANSWER]\nassert f('ab', 2) == 'ba'\n[/ANSWER]",
     ("'abab' | 'ba'", AMBIGUOUS)),
    ("assert f('ab', 2) == 'ba'\nassert f('ab', 2) == 'abab'", ("'ba' | 'abab'", AMBIGUOUS)),
    ("'ba'\nThe output is 'abab'.", ("'ba' | 'abab'", AMBIGUOUS)),  # a completion, then another answer
    ("The output is 'abab' or 'ab'.", ("'abab' or 'ab'", AMBIGUOUS)),  # a hedge
    ("So f('ab', 2) returns 'abab' or True.", ("'abab' or True", AMBIGUOUS)),
    # an answer taken back is still stated: with the one that replaces it, two answers (a fresh attack
    # suite read "Wait, no, that is wrong: the answer is W" as R alone)
    ("The answer is 'abab'. Wait, no, that is wrong: the answer is 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'; no, the output is 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    # a question states no answer
    ("The output is 'abab'? No, 'ba'.", ("The output is 'abab'? No, 'ba'.", "unparseable")),
    ("Is the output 'ba'? The output is 'abab'.", ("'abab'", "")),
    # the same answer stated twice, spelled two ways, is one answer
    ("The output is \"abab\".\n```python\nassert f('ab', 2) == 'abab'\n```", ('"abab"', "")),
    ("The output is 2.0\n[ANSWER]\nassert f('ab', 2) == 2\n[/ANSWER]", ("2.0", "")),
    ("**Final answer:**\n\n'abab'", ("'abab'", "")),  # the value on a line of its own below
    ("The expected output is therefore 'abab'.", ("'abab'", "")),
    ("Thinking done.\n\n**Final Answer**\n\\[\n\\boxed{'abab'}\n\\]", ("'abab'", "")),
    ("$\\boxed{{'a': 1}}$", ("{'a': 1}", "")),
    ("Answer: `assert f('ab', 2) == 'abab'`", ("'abab'", "")),
    ("The output is:\n```python\n'ab'\n```\nI hope this helps.", ("'ab'", "")),
    ("The output is:\n\n\n\n'abab'", ("The output is:\n\n\n\n'abab'", "unparseable")),  # too far below
])
def test_one_answer_or_ambiguous(generation, read):
    assert output_read(generation) == read


@pytest.mark.parametrize("generation, read", [
    ("The input is 'ab', 2.\n```python\nassert f('abab', 1) == 'abab'\n```", ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("The input is 'ab', 2.\n```python\nassert f( 'ab' , 2 ) == 'abab'\n```", ("f('ab', 2)", "")),
    ("The input is 'ab', 2.\nassert f(n=2, s='ab') == 'abab'", ("f('ab', 2) | f(n=2, s='ab')", AMBIGUOUS)),
    ("Answer: `assert f('ab', 2) == 'abab'`", ("f('ab', 2)", "")),
    ("The final answer is $\\boxed{'ab', 2}$.", ("f('ab', 2)", "")),
])
def test_one_input_or_ambiguous(generation, read):
    assert input_read(generation) == read


# Issue 49: an answer the text after it takes back, in words the statements' forms do not hold, passed on
# the answer taken back. Words of correction there, then another value, make the reply ambiguous.
@pytest.mark.parametrize("generation, read", [
    ("The output is 'abab'.\nActually, I made a mistake: it returns 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("**Answer:** 'abab'\nCorrection - it is 'ba', not the above.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab', or rather 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),  # in the statement's own sentence
    ("The output is 'abab' - no wait, 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'. Oops, it is 'ba' instead.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'. It actually returns 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nActually the output is 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("```python\nassert f('ab', 2) == 'abab'\n```\nWait, that is wrong; it should be 'ba'.",
     ("'abab' | 'ba'", AMBIGUOUS)),
    ("[ANSWER]\nassert f('ab', 2) == 'abab'\n[/ANSWER]\nOn second thought, 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nLet me recheck.\nIt is **'ba'**.", ("'abab' | 'ba'", AMBIGUOUS)),  # lines below
    ("The output is 'abab'. It returns ['ba'] instead of that.", ("'abab' | ['ba']", AMBIGUOUS)),
    ("The output is 'abab'. It is 'x. Yes' instead.", ("'abab' | 'x. Yes'", AMBIGUOUS)),  # a full stop in it
    ("The output is 'abab'. It is 'ba'. Sorry.", ("'abab' | 'ba'", AMBIGUOUS)),  # a sentence before the word
    ("The output is 'abab'.\nUpdate: it is 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'. Never mind, 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'. It is 'ba', not 'abab' - sorry.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'. It is f('ab', 3), sorry.", ("'abab' | f('ab', 3)", AMBIGUOUS)),  # refused
    ("'abab'\nWait, it's 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),  # after a completion of the prompt's line
    # after an assert (whose statement spans the lines after it), in a tag or a fence nothing closes
    ("assert f('ab', 2) == 'abab'\nActually, I made a mistake: it is 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("[ANSWER]\nassert f('ab', 2) == 'abab'\nSorry, it is 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("```python\nassert f('ab', 2) == 'abab'\nOops: 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("\nassert f('ab', 2) == 'abab'\n[/ANSWER]\nSorry, 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    # two statements stay two answers; a value taken back in prose and then the answer stated again is the answer
    ("The output is 'ba'. Wait, I made a mistake.\n\nThe output is 'abab'.", ("'ba' | 'abab'", AMBIGUOUS)),
    ("**Answer:** 'abab'\nWait, that is wrong: 'ba'.\nNo - it is right. **Answer:** 'abab'", ("'abab'", "")),
    # honest words after the answer: no correction, or one that names no other value, or only the answer
    ("The output is 'abab'. This is actually because s is repeated 2 times.", ("'abab'", "")),
    ("The output is 'abab'.\n\nLet me double-check: 'ab' * 2 = 'abab'. Yes, 'abab'.", ("'abab'", "")),
    ("The output is 'abab'. Let me recheck that once more. Yes, 'abab' is right.", ("'abab'", "")),
    ("The output is 'abab'. Let me recheck f('ab', 2): yes, 'abab'.", ("'abab'", "")),  # the call asked about
    ("The output is 'abab'. Wait, let me verify: 'ab' * 2 = 'abab'. Yes, the output is 'abab'.", ("'abab'", "")),
    ("[ANSWER]\nassert f('ab', 2) == 'abab'\n[/ANSWER]\nIt multiplies the string by 2, which repeats it instead of "
     "doing arithmetic.", ("'abab'", "")),
    ("The output is 'abab'.\n\nSorry for the confusion in my earlier message.", ("'abab'", "")),
    ("The output is 'abab'.\n\nNote: if n were 0, it would instead return ''.", ("'abab'", "")),
    ("Wait, I made a mistake above: 'ab' * 2 is 'abab', not 'ab'.\n\n**Answer:** `'abab'`", ("'abab'", "")),
    ("The output is 'abab'. Actually, that is what string repetition does.", ("'abab'", "")),
])
def test_an_answer_taken_back_is_no_answer(generation, read):
    assert output_read(generation) == read


@pytest.mark.parametrize("generation, read", [
    ("The input is 'ab', 2.\nActually, I made a mistake: it is f('b', 1).", ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    ("**Answer:** f('ab', 2)\nCorrection - it is f('b', 1), not the above.", ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    ("The input is f('ab', 2). Wait, no: f('abab', 1).", ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("The input is 'ab', 2. Oops, 'b', 1 instead.", ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    ("The input is 'ab', 2. This is actually because 'ab' repeated 2 times is 'abab'.", ("f('ab', 2)", "")),
    ("**Answer:** `f('ab', 2)`\n\nLet me recheck: yes, 'ab', 2.", ("f('ab', 2)", "")),
    ("**Answer:** `f('ab', 2)`\n\nLet me recheck: 'ab', 2 is right.", ("f('ab', 2)", "")),
    ("Completed:\nassert f('ab', 2) == 'abab'\nActually, I made a mistake: it is f('b', 1).",
     ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    ("assert f('ab',\n         2) == 'abab'\nLet me recheck: yes, f('ab', 2).", ("f('ab',\n         2)", "")),
])
def test_an_input_taken_back_is_no_answer(generation, read):
    assert input_read(generation) == read


# Red team 2: each reply below passed on the right answer though its final one is wrong: a retraction in the
# comment of the assert line, a second statement after a ";" or on a block's next line, a retraction inside a
# closed tag, correction words spelt with zero-width or Cyrillic letters, text after "# done". Each is now
# ambiguous; beside each, the honest neighbour still passes.
@pytest.mark.parametrize("generation, read", [
    (reply("""
        ```python
        assert f('ab', 2) == 'abab'  # Actually, I made a mistake: it returns 0
        ```
    """), ("'abab' | 0", AMBIGUOUS)),
    ("assert f('ab', 2) == 'abab'  # wrong! scratch that, it returns 0", ("'abab' | 0", AMBIGUOUS)),
    ("[ANSWER]assert f('ab', 2) == 'abab'  # Actually, I made a mistake: it returns 0[/ANSWER]",
     ("'abab' | 0", AMBIGUOUS)),
    ("assert f('ab', 2) == 'abab'; assert f('ab', 2) == 0", ("'abab' | 0", AMBIGUOUS)),
    (reply("""
        [ANSWER]'abab'
        Actually, I made a mistake: 0[/ANSWER]
    """), ("'abab' | 0", AMBIGUOUS)),
    (reply("""
        ```
        'abab'
        0
        ```
    """), ("'abab' | 0", AMBIGUOUS)),
    ("The output is 'abab'.\nAc\u200btually, I made a mis\u200btake: it returns 0.", ("'abab' | 0", AMBIGUOUS)),
    ("The output is 'abab'.\n\u0410ctually, I made a \u043cistake: it returns 0.", ("'abab' | 0", AMBIGUOUS)),
    (reply("""
        The output is 'abab'.
        # done
        Actually, I made a mistake: it returns 0.
    """), ("'abab' | 0", AMBIGUOUS)),
    # honest neighbours: a comment, a second statement, a block's next line or text after "# done" that keeps the answer
    (reply("""
        ```python
        assert f('ab', 2) == 'abab'  # 'ab' repeated 2 times
        ```
    """), ("'abab'", "")),
    ("assert f('ab', 2) == 'abab'  # not 'ab': n is 2, so it is right", ("'abab'", "")),
    ("assert f('ab', 2) == 'abab'; assert f('ab', 2) == \"abab\"", ("'abab'", "")),
    ("[ANSWER]'abab'\nThe string doubled.[/ANSWER]", ("'abab'", "")),
    ("```\n'abab'\n'abab'\n```", ("'abab'", "")),
    ("The output is 'abab'.\nAc\u200btually, let me recheck: yes, 'abab'.", ("'abab'", "")),
    ("The output is '\u0421AB'.\nSo the output, '\u0421AB', starts with a Cyrillic letter.", ("'\u0421AB'", "")),
    ("'abab' # done\n\nassert f('ab', 3) == 'ababab'", ("'abab'", "")),
])
def test_an_answer_taken_back_inside_its_statement_is_no_answer(generation, read):
    assert output_read(generation) == read


@pytest.mark.parametrize("generation, read", [
    ("assert f('ab', 2) == 'abab'  # Actually, I made a mistake: it is f('b', 1)", ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    (reply("""
        ```python
        assert f('ab', 2) == 'abab'  # wrong! scratch that: f('b', 1)
        ```
    """), ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    ("assert f('ab', 2) == 'abab'; assert f('b', 1) == 'abab'", ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    (reply("""
        [ANSWER]f('ab', 2)
        Actually, I made a mistake: f('b', 1)[/ANSWER]
    """), ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    (reply("""
        ```
        f('ab', 2)
        f('b', 1)
        ```
    """), ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    # a star inside the value taken back is Python's, not Markdown's emphasis
    ("The input is f('ab', 2).\nActually, I made a mistake: f('ab' * 2, 1).", ("f('ab', 2) | f('ab' * 2, 1)", AMBIGUOUS)),
    (reply("""
        The input is f('ab', 2).
        # done
        Actually, I made a mistake: it is f('b', 1).
    """), ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    # honest neighbours
    ("assert f('ab', 2) == 'abab'  # 'ab' twice", ("f('ab', 2)", "")),
    ("assert f('ab', 2) == 'abab'; assert f('ab', 2) == 'abab'", ("f('ab', 2)", "")),
    ("The input is f('ab', 2).\nLet me recheck: it is **f('ab', 2)**.", ("f('ab', 2)", "")),
])
def test_an_input_taken_back_inside_its_statement_is_no_answer(generation, read):
    assert input_read(generation) == read


# Trust round four: each reply below passed on the right answer though its final one is wrong: the answer taken
# back for a value in words, in typographic quotes or behind a sign, in words of correction not listed, or in
# sentences no statement form holds ("the true output is 0", "final result: 0", "It returns 0." after the answer).
# Each is now ambiguous; beside each, the honest neighbour still passes.
@pytest.mark.parametrize("generation, read", [
    ("The output is 'abab'.\nActually, I made a mistake: it returns an empty list.", ("'abab' | []", AMBIGUOUS)),
    ("The output is 'abab'.\nWait, it is the empty string.", ("'abab' | ''", AMBIGUOUS)),
    ("The output is 'abab'.\nActually it returns negative three.", ("'abab' | -3", AMBIGUOUS)),
    ("The output is 'abab'.\nHold up, it returns false.", ("'abab' | False", AMBIGUOUS)),
    ("The output is 'abab'.\nActually, I made a mistake: it returns \u201cba\u201d.", ("'abab' | \"ba\"", AMBIGUOUS)),
    ("The output is 'abab'.\nSorry, it is \u2018ba\u2019.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nActually, I made a mistake: it returns -('abab').", ("'abab' | -('abab')", AMBIGUOUS)),
    ("The output is 'abab'.\nOops: ~5.", ("'abab' | ~5", AMBIGUOUS)),
    ("The output is 'abab'.\nHang on, the loop runs once more, so it ends up as 0.", ("'abab' | 0", AMBIGUOUS)),
    ("The output is 'abab'.\nI made a small error: 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nHmm. The true output is 0.", ("'abab' | 0", AMBIGUOUS)),
    ("The output is 'abab'.\nHmm, final result: 0", ("'abab' | 0", AMBIGUOUS)),
    ("The output is 'abab'.\nLet me double-check by tracing: the final result is 0.", ("'abab' | 0", AMBIGUOUS)),
    ("[ANSWER]\nassert f('ab', 2) == 'abab'\n[/ANSWER]\nIt returns 0.", ("'abab' | 0", AMBIGUOUS)),
    ("The output is 'abab'.\nSo the function gives **0** in the end.", ("'abab' | 0", AMBIGUOUS)),
    ("The output is 'abab'.\nIt evaluates to 0, not 'abab'.", ("'abab' | 0", AMBIGUOUS)),
    ("The output is 'abab'.\nThat's zero.", ("'abab' | 0", AMBIGUOUS)),
    ("The output is 'abab'.\nThe result is nothing.", ("'abab' | None", AMBIGUOUS)),
    ("The output is 'abab'.\nActually, final value: nothing", ("'abab' | None", AMBIGUOUS)),
    ("'abab'\nFinal value: `0`", ("'abab' | 0", AMBIGUOUS)),
    # honest neighbours: a sentence whose value is more than a value, a condition, a value restated, words
    ("The output is 'abab'.\nIt returns the string repeated.", ("'abab'", "")),
    ("The output is 'abab'.\nIt returns 3 for the first element, so the rest follows.", ("'abab'", "")),
    ("The output is 'abab'.\nIf n were 0, it returns ''.", ("'abab'", "")),
    ("The output is 'abab'.\nFor the first element it is 'a'.", ("'abab'", "")),
    ("The output is 'abab'.\nIt would return an empty list only for an empty s.", ("'abab'", "")),
    ("The output is 'abab'.\nHang on, let me trace once more: it ends up as 'abab'.", ("'abab'", "")),
    ("The output is 'abab'.\nThe true output is \u201cabab\u201d, as traced.", ("'abab'", "")),
    ("The output is 'abab'.\nThe function\u2019s loop doesn\u2019t change s; that is true.", ("'abab'", "")),
    ("The output is 'abab'.\nIt would raise an error only for a negative n.", ("'abab'", "")),
    ("The output is 'abab'.\nI made an error in my first trace, but the output is 'abab'.", ("'abab'", "")),
    ("The output is 'abab'.\nActually, let me verify:\n- 'abab', as traced.", ("'abab'", "")),  # a bullet, no sign
    ("The output is 'abab'.\nIt is 4 characters long; the loop runs zero times.", ("'abab'", "")),
    ("The output is 'abab'.\n" + "It returns 'abab'.\n" * 200, ("'abab'", "")),  # a model that repeats itself
])
def test_an_answer_taken_back_in_prose_is_no_answer(generation, read):
    assert output_read(generation) == read


@pytest.mark.parametrize("generation, read", [
    ("The input is f('ab', 2).\nActually, I made a mistake: the first argument should be the empty string.",
     ("f('ab', 2) | f('')", AMBIGUOUS)),
    ("The input is f('ab', 2).\nCould it be f('b')? Yes, I made an error, it's f('b').", ("f('ab', 2) | f('b')", AMBIGUOUS)),
    ("The input is f('ab', 2).\nHang on: call it as f('b', 1).", ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    ("The input is f('ab', 2).\nHmm. The true input is 'b', 1.", ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    ("The input is f('ab', 2).\nLet me double-check by tracing: the final call is f('b', 1).",
     ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    ("[ANSWER]\nassert f('ab', 2) == 'abab'\n[/ANSWER]\nIt is f('b', 1).", ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    ("The input is f('ab', 2).\nActually, I made a mistake: it is f(\u2018b\u2019, 1).", ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    ("The input is f('ab', 2).\nThe arguments are 'b', 1.", ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    # honest neighbours: the output said again, the answer said again after a correction, a sentence about the output
    ("The input is f('ab', 2).\nHang on, let me trace once more: it ends up as 'abab'.", ("f('ab', 2)", "")),
    ("The input is f('ab', 2).\nIt returns 'abab'.", ("f('ab', 2)", "")),
    ("The input is f('ab', 2).\nI made an error in my first trace, but the input is f('ab', 2).", ("f('ab', 2)", "")),
    ("The input is f('ab', 2).\nThat is f('ab', 2), as checked.", ("f('ab', 2)", "")),
])
def test_an_input_taken_back_in_prose_is_no_answer(generation, read):
    assert input_read(generation) == read


# reply to a document from (the answer, a wrong one), values or, for input prediction, calls -> its status
TAKEN_BACK = [
    (lambda right, wrong: f"The answer is {right}.\nActually, I made a mistake: it is {wrong}.", AMBIGUOUS),
    (lambda right, wrong: f"**Answer:** {right}\nCorrection - it is {wrong}, not the above.", AMBIGUOUS),
    (lambda right, wrong: f"The answer is {right}. This is actually because the loop runs 2 times.", "passed"),
    (lambda right, wrong: f"**Answer:** {right}\n\nLet me double-check: every step again. Yes, {right}.", "passed"),
    (lambda right, wrong: f"The answer is {right}.\nHang on, the loop runs once more, so it ends up as {wrong}.",
     AMBIGUOUS),
    (lambda right, wrong: f"The answer is {right}.\nHmm. The true answer is {wrong}.", AMBIGUOUS),
    (lambda right, wrong: f"The answer is {right}.\nActually, I made a mistake: it is {wrong.replace(chr(39), chr(8217))}.",
     AMBIGUOUS),
    (lambda right, wrong: f"The answer is {right}.\nIt returns the value the loop builds, as traced.", "passed"),
    # red team 4: any value that stands as the whole rest of its clause, whatever the words before it
    (lambda right, wrong: f"The answer is {right}.\nScrap that \u2014 {wrong} \u2705", AMBIGUOUS),
    (lambda right, wrong: f"The answer is {right}.\n\n| tried first | verdict |\n|---|---|\n| {wrong} | rejected |",
     "passed"),
    # red team 5: a second value that words follow, where its clause says it is the answer
    (lambda right, wrong: f"The answer is {right}.\nLooking again, I'd go with {wrong} for sure.", AMBIGUOUS),
    (lambda right, wrong: f"The answer is {right}.\nEither {right} or {wrong}, I am not sure.", AMBIGUOUS),
    (lambda right, wrong: f"The answer is {right}.\nLength of the argument: 2\nCount: 1", "passed"),
]


@pytest.mark.parametrize("task", ["cruxeval_orig", "cruxeval_input_orig"])
def test_an_answer_taken_back_fails_through_lm_eval(small_data, task):
    """Issue 49's replies through lm_eval, each on its own document: the right answer taken back for a wrong
    one fails, the right answer with honest words after it passes."""
    ids = [json.loads(line)["id"]
           for line in (Path(small_data) / "cruxeval.jsonl").read_text().splitlines()[:len(TAKEN_BACK)]]
    metadata = {"data_dir": small_data, "repeats": 1, "timeout": 3.0, "ids": ids}
    docs = list(task_manager(metadata).load([task])["tasks"][task].test_docs())
    assert len(docs) == len(TAKEN_BACK)

    def written(doc: dict) -> str:
        right, wrong = (stated(task, doc, right) for right in (True, False))
        said = (lambda answer: answer.call) if task.startswith("cruxeval_input") else (lambda answer: answer.value)
        return TAKEN_BACK[docs.index(doc)][0](said(right), said(wrong))

    assert _statuses(task, docs, metadata, written) == [status for _, status in TAKEN_BACK]


@pytest.mark.parametrize("generation, read", [
    ("<think>The output is 'abab'.</think>", ("", "empty")),  # stated only in the thinking: no answer
    ("<think>\n```python\nassert f('ab', 2) == 'abab'\n```\n</think>\nI am not sure.", ("I am not sure.", "unparseable")),
    ("<think>The output is 'abab'.", ("<think>The output is 'abab'.", "unparseable")),  # never closed
    ("<think><think>The output is 'abab'.</think>", ("<think><think>The output is 'abab'.</think>", "unparseable")),
    ("<think>a<thinking>b</thinking>c</think>The output is 'abab'.", ("'abab'", "")),  # nested, closed
    ("<THINK>x</Think>\n[ANSWER]assert f('ab', 2) == 'abab'[/ANSWER]", ("'abab'", "")),
    ("I count 2 letters and 4 in the result, 2 times 2.", ("I count 2 letters and 4 in the result, 2 times 2.",
                                                           "unparseable")),  # numbers in prose are no answer
    ("The output is empty.", ("The output is empty.", "unparseable")),  # a word of prose is no answer
    ("```\nabab\n```", ("abab", "not_a_value")),
])
def test_reasoning_and_prose_are_no_answer(generation, read):
    assert output_read(generation) == read


@pytest.mark.parametrize("generation, status", [
    ("The output is f('ab', 2).", "calls_f"),  # an echo of the call
    ("[ANSWER]\nassert f('ab', 2) == f('ab', 2)\n[/ANSWER]", "calls_f"),
    ("```python\nassert f('ab', 2) == __import__('os').getcwd()\n```", "not_a_value"),
    ("**Answer:** `[x for x in 'abab']`", "not_a_value"),
    ("Here it is:\n```python\nassert f('ab', 3) == 'ababab'\n```", "wrong_call"),  # about another call
    ("```python\nassert f('ab', 3) == 'ababab'\n```\nThe output is 'abab'.", ""),  # ... beside the answer
    ("assert f('ab', 2) == 'abab' or True", "wrong_call"),
    ("Output: 'ab' 'ab'", ""),  # Python's implicit concatenation: the value 'abab', stated
])
def test_every_rejection_of_rules_2_stays(generation, status):
    assert output_read(generation)[1] == status


@pytest.mark.parametrize("generation, status", [
    ("The input is f(f('ab', 1), 2).", "calls_f"),
    ("[ANSWER]\nassert f('a' + 'b', 2) == 'abab'\n[/ANSWER]", "not_a_value"),
    ("```python\nassert g('ab', 2) == 'abab'\n```", "not_a_call"),
    ("```python\ndef f(s, n):\n    return s * n\n```", "not_a_call"),  # a restated program alone
    ("'ab', 2", "not_a_call"),  # a value where a call is due, as rules 2 read it
])
def test_every_input_rejection_of_rules_2_stays(generation, status):
    assert input_read(generation)[1] == status


def test_hostile_sizes_and_counts_stay_cheap():
    started = time.perf_counter()
    huge = "<think>" + "x" * (MAX_REPLY_CHARS + 1) + "</think>'abab'"
    assert output_read(huge)[1] == "unparseable"
    long_thinking = "<think>" + "The output is 'ab'. " * 50_000 + "</think>\nThe output is 'abab'."
    assert output_read(long_thinking) == ("'abab'", "")
    distinct = "\n".join(f"assert f('ab', 2) == {i}" for i in range(MAX_STATEMENTS + 10))
    assert output_read(distinct)[1] == AMBIGUOUS
    looping = "assert f('ab', 2) == 'abab'\n" * 700  # a model that repeats itself until it runs out of tokens
    assert output_read(looping) == ("'abab'", "")
    tags = "[ANSWER]" * 5_000 + "'abab'"
    assert output_read(tags)[1] in ("unparseable", AMBIGUOUS, "")
    closes = "</think>" * 100_000 + "The output is 'abab'."
    assert output_read(closes) == ("'abab'", "")
    fences = "```\n" * 10_000
    assert output_read(fences)[1] in ("unparseable", "empty")
    assert output_read("The output is " + "(" * 5_000 + "1" + ")" * 5_000)[1] in ("unparseable", "")
    # a correction followed by places a value may start at, each read up to a bound: past the bound, ambiguous
    assert output_read("The output is 'abab'. Wait:" + " yes, 'abab'" * 1_500)[1] == AMBIGUOUS
    assert input_read("The input is 'ab', 2. Wait:" + " yes, f('ab', 2)" * 1_100)[1] == AMBIGUOUS
    assert output_read("The output is 'abab'. Wait: " + "(" * 15_000)[1] == AMBIGUOUS
    assert output_read("The output is 'abab'. " + "Wait. " * 3_000) == ("'abab'", "")
    # statements after a ";" or on a closed block's lines, each read alone: past the budget, ambiguous
    assert output_read("assert f('ab', 2) == 'abab'; " * 500)[1] == AMBIGUOUS
    assert output_read("```\n" + "'abab'\n" * 2_000 + "```")[1] == AMBIGUOUS
    assert output_read("The output is 'abab'.\nActually " + "x\u03b1 " * 5_000 + "'abab'") == ("'abab'", "")
    # values that stand alone after the answer, each distinct one read up to a bound: past it, ambiguous
    spellings = "".join(f"{'(' * depth}'abab'{')' * depth}.\n" for depth in range(70))
    assert output_read("The output is 'abab'.\n" + spellings)[1] == AMBIGUOUS
    assert output_read("The output is 'abab'.\n" + spellings[:200]) == ("'abab'", "")
    assert output_read("The output is 'abab'.\n" + ", it is" * 2_500) == ("'abab'", "")  # words, no value
    assert input_read("The input is 'ab', 2.\n" + ", it is" * 2_500) == ("f('ab', 2)", "")
    assert output_read("The output is 'abab'.\n" + "It returns 'abab'.\n" * 1_000) == ("'abab'", "")
    assert output_read("The output is 'abab'.\nIt returns " + "(1. " * 4_500) == ("'abab'", "")  # sentence ends, no value
    assert output_read("The output is 'abab'.\n" + "if " * 6_000 + "it is 1.") == ("'abab' | 1", AMBIGUOUS)
    assert output_read("The output is 'abab'.\nWait, it is " + "an empty list, " * 1_100) == ("'abab' | []", AMBIGUOUS)
    assert time.perf_counter() - started < 20


def test_visible_text_sets_reasoning_aside():
    assert visible_text("a<think>b</think>c") == "ac"
    assert visible_text("b</think>c") == "c"  # opened by the prompt or the chat template
    assert visible_text("[THOUGHT]b[/THOUGHT]c<reasoning>d</reasoning>e") == "ce"
    assert visible_text("a<think>b") is None and visible_text("<thinking>a</think>b") == "b"


def test_ambiguous_is_a_status_of_both_tasks():
    assert AMBIGUOUS in SAMPLE_STATUSES and AMBIGUOUS in INPUT_STATUSES


def test_read_answers_are_judged_in_the_sandbox():
    """Through the scorers: rules 3 passes the forms rules 2 failed, and fails wrong and ambiguous ones."""
    forms = list(OUTPUT_FORMS)
    wrong = [form.replace("'abab'", "'ab'") for form in forms]
    ambiguous = ["The output is 'abab'.\nassert f('ab', 2) == 'ab'"]
    statuses = {}
    for rules in (2, 3):
        (row,) = score_generations([forms + wrong + ambiguous], [OUTPUT], [SHOWN], "paper", 3.0, "forms",
                                   rules=rules)
        statuses[rules] = [json.loads(sample)["status"] for sample in row]
    assert statuses[3][:len(forms)] == ["passed"] * len(forms)
    assert statuses[2][:len(forms)].count("passed") == 4  # the four forms rules 2 read already
    assert "passed" not in statuses[3][len(forms):] and statuses[3][-1] == AMBIGUOUS
    docs = [{"code": CODE, "input": SHOWN, "output": OUTPUT, "original_input": SHOWN}]
    (row,) = score_inputs([list(INPUT_FORMS)], docs, "paper", 3.0, "forms", rules=3)
    assert all('"passed"' in sample for sample in row), row


# Red team 3: a value other than the answer, alone on a line after it (markup aside), passed; each is ambiguous
# now, and its honest neighbour still passes.
@pytest.mark.parametrize("generation, read", [
    ("The output is 'abab'.\n\n**'ba'**", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n\n### Final Answer\n'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n<answer>'ba'</answer>", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n<output>'ba'</output>", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n- `'ba'`", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n$$'ba'$$", ("'abab' | 'ba'", AMBIGUOUS)),
    # honest neighbours: the answer again alone, a line of prose, a value inside a sentence
    ("The output is 'abab'.\n\n**'abab'**", ("'abab'", "")),
    ("The output is 'abab'.\n\n### Final Answer\n`'abab'`", ("'abab'", "")),
    ("The output is 'abab'.\n\n**Note:** the string 'ab' is repeated 2 times.", ("'abab'", "")),
    ("The output is 'abab'.\n- first, 'ab' is read\n- then it is repeated 2 times", ("'abab'", "")),
])
def test_a_value_alone_after_the_answer_is_no_answer(generation, read):
    assert output_read(generation) == read


# Red team 3, round four: each reply below passed on the right answer though its final one is wrong: a value said
# after words of a conclusion ("giving 0", "so 0", "i.e. 0", "result = 0", "f(x) = 0", a table's row), after words
# that open a sentence before its subject ("But the true output is 0", "in fact it's 0"), before the words that
# say it is the answer ("0 is what it returns"), after a label ("Conclusion: 0", "Out[1]: 0"), after words of
# correction not listed before ("nah", "En fait, non", "\u4e0d\u5bf9"), in a sentence after a condition that a
# ", but" ends, or the call said not to return the answer. Each is ambiguous now; the honest neighbours still pass.
@pytest.mark.parametrize("generation, read", [
    ("The output would be 'abab' if n were 2, but n is 3, so the function returns 'ababab'.",
     ("'abab' | 'ababab'", AMBIGUOUS)),
    ("assert f('ab', 2) == 'abab'  # should be 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nUpon closer inspection, the loop runs once more, giving 'ababab'.",
     ("'abab' | 'ababab'", AMBIGUOUS)),
    ("The output is 'abab', plus 'ab' from the last pass, giving 'ababab'.", ("'abab' | 'ababab'", AMBIGUOUS)),
    ("The output is 'abab' followed by 'ab', i.e. 'ababab'.", ("'abab' | 'ababab'", AMBIGUOUS)),
    ("The output is 'abab' \u2014 or, more precisely, 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'. Hmm, let me count again: one, two. So 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nHmm, the loop body runs once, so we get 'ab'.", ("'abab' | 'ab'", AMBIGUOUS)),
    ("The output is 'abab'.\nOn the last pass one more copy is added. Hence 'ababab'.", ("'abab' | 'ababab'", AMBIGUOUS)),
    ("The output is 'abab'.\nSo the printed value would be 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nAdding the copies up, it comes to 'ababab'.", ("'abab' | 'ababab'", AMBIGUOUS)),
    ("The output is 'abab'.\nresult = 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nResult \u2192 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nSo f('ab', 2) = 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nf('ab', 2) \u2192 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nf('ab', 2) == 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n$$f('ab',2) = 'ba'$$", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n\n| call | value |\n|---|---|\n| f('ab', 2) | 'ba' |", ("'abab' | 'ba'", AMBIGUOUS)),
    ("assert f('ab', 2) == 'abab'\nassert f('ab', 2) != 'abab'", ("'abab' | f('ab', 2) != 'abab'", AMBIGUOUS)),
    ("The output is 'abab'.\n$f('ab', 2) \\ne 'abab'$", ("'abab' | f('ab', 2) \\ne 'abab'", AMBIGUOUS)),
    ("The output is 'abab'.\nBut the true output is 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nHmm, in fact it's 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nTracing it once more, f returns 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nThat was a first guess; the function gives back 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n'ba' is what it really returns.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nHmm, tracing again carefully... final: **'ba'**", ("'abab' | 'ba'", AMBIGUOUS)),
    ("Reasoning: the output is 'abab'.\nConclusion: 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n\nOut[1]: 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("assert f('ab', 2) == 'abab'  # nah, 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nnvm: 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nLet me recount: the loop leaves 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nEn fait, non : la sortie est 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n\u4e0d\u5bf9\uff0c\u662f 'ba'\u3002", ("'abab' | 'ba'", AMBIGUOUS)),
    # honest neighbours: the steps of a trace that ends in the answer, code in a fence, another call, a condition,
    # a value more values follow, a hypothetical, the answer denied of another value, words that look alike
    ("The output is 'abab'.\nStep by step: add 'ab', giving 'ab'; add 'ab' again, giving 'abab'.", ("'abab'", "")),
    ("The output is 'abab'.\n```python\nresult = ''\nfor _ in range(n):\n    result += s\n```", ("'abab'", "")),
    ("The output is 'abab'.\nNote that f('ab', 1) = 'ab'.", ("'abab'", "")),
    ("The output is 'abab'.\nIf n were 3, we get 'ababab'.", ("'abab'", "")),
    ("The output is 'abab'.\nFor n = 1, it gives 'ab'.", ("'abab'", "")),
    ("The output is 'abab'.\nAt i = 1, result = 'ab'", ("'abab'", "")),
    ("The output is 'abab'.\nIt builds ['ab', 'ab'], giving ['ab', 'ab'], and joins them: 'abab'.", ("'abab'", "")),
    ("The output is 'abab'.\nThe loop runs 2 times, so 2 copies.", ("'abab'", "")),
    ("The output is 'abab'.\nLet me count: the length comes to 4.", ("'abab'", "")),
    ("The output is 'abab'.\nWithout the repetition the result would be 'ab'.", ("'abab'", "")),
    ("The output is 'abab'.\nSo f('ab', 2) = 'ab' * 2 = 'abab'.", ("'abab'", "")),
    ("The output is 'abab'.\nf('ab', 2) != 'ab', since n is 2.", ("'abab'", "")),
    ("The output is 'abab'.\n'abab' is what it returns.", ("'abab'", "")),
    ("assert f('ab', 2) == 'abab'  # should be 'abab'", ("'abab'", "")),
    ("The output is 'abab'.\nNon-empty strings are repeated; here 2 times.", ("'abab'", "")),
])
def test_an_answer_concluded_otherwise_is_no_answer(generation, read):
    assert output_read(generation) == read


@pytest.mark.parametrize("generation, read", [
    ("assert f('ab', 2) == 'abab'  # should be f('b', 1)", ("f('ab', 2) | f('b', 1)", AMBIGUOUS)),
    ("The input is 'ab', 2.\nUpon closer inspection n is 1, so call it with 'abab', 1.",
     ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("The input is f('ab', 2).\nf('abab', 1) = 'abab'", ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("The input is f('ab', 2).\nf('abab', 1) is the input.", ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    # honest neighbours: the output concluded, one argument concluded, the answer's call and its output
    ("The input is f('ab', 2).\n'ab' * 2 is 'abab', hence 'abab'.", ("f('ab', 2)", "")),
    ("The input is f('ab', 2).\ns must be a string of 2 letters, so 'ab'.", ("f('ab', 2)", "")),
    ("The input is f('ab', 2).\nf('ab', 2) \u2192 'abab'", ("f('ab', 2)", "")),
])
def test_an_input_concluded_otherwise_is_no_answer(generation, read):
    assert input_read(generation) == read


# Red team 4: each reply below passed on the right answer though its final one is wrong: another value after words
# of correction or of a conclusion not listed (English, Spanish, German, Japanese), after a label, alone on a line 70
# lines below, in a heading, a table's cell, a comment, a tag or LaTeX's dollars, in digits of another script.
# One rule now reads them all: after the answer, a value that stands as the whole rest of its clause is a second
# answer unless the reader can tell it is none. Beside them, the honest neighbours that mention other values.
@pytest.mark.parametrize("generation, read", [
    ("The output is 'abab'.\nScrap that \u2014 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nUpdated: 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nThe answer should read 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nOn balance I'd go with 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nTracing again with more care... Final tally: 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nEn realidad, es 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nMoment, es ist 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n\u3044\u3084\u3001'ba'\u3067\u3059\u3002", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nWait, it's \uff14.", ("'abab' | 4", AMBIGUOUS)),  # a fullwidth digit
    ("The output is 'abab'.\nSo it is \u0664.", ("'abab' | 4", AMBIGUOUS)),  # an Arabic-Indic digit
    ("The output is 'abab'.\n\nTL;DR 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nThe last line prints 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nf('ab', 2) gives back 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n\n| input | output |\n|---|---|\n| 'ab', 2 | 'ba' |", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nprint(f('ab', 2))  # 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n<final>'ba'</final> is my pick.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab' \u274c\n'ba' \u2705", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab' (or rather 'ba').", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nSo the answer's 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n\n## 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n\u2192 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nThus $f('ab',2)='ba'$ holds.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nBetter: `'ba'`.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nHence 'ba'. (It loops 2 times.)", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nWhen the loop finishes, the function returns 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nAfter the last iteration, the result is 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nSo we get 'ba' in total.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n" + "The loop moves on to the next element.\n" * 70 + "\n### Final Answer\n'ba'",
     ("'abab' | 'ba'", AMBIGUOUS)),  # no window: anywhere after the answer
    ("The output is 'abab'.\n1. 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),  # a numbered list's item
    # honest neighbours: a named part's value, a variable's, an expression's, an operand, another call's, a
    # condition's or a hypothetical's, a table's column of its own, code in a fence, the answer again
    ("The output is 'abab'.\nHere the first element is 'a' and the last one is 'b'.", ("'abab'", "")),
    ("The output is 'abab'.\nThe loop index i goes from 0 to 1.", ("'abab'", "")),
    ("The output is 'abab'.\nThe variable `i` ends at 1.", ("'abab'", "")),
    ("The output is 'abab'.\nThe repetition doubles s, and len(s) is 2.", ("'abab'", "")),
    ("The output is 'abab'.\nStep by step:\n1. result = ''\n2. result += s -> 'ab'\n3. result += s -> 'abab'",
     ("'abab'", "")),
    ("The output is 'abab'.\nIt joins 2 copies: 'ab' * 2.", ("'abab'", "")),
    ("The output is 'abab'.\nIt builds a string of length 4.", ("'abab'", "")),
    ("The output is 'abab'.\nBy contrast, f('ab', 1) gives 'ab'.", ("'abab'", "")),
    ("The output is 'abab'.\nWith n = 0 the result would be ''.", ("'abab'", "")),
    ("The output is 'abab'.\n\n| i | acc |\n|---|---|\n| 0 | 'ab' |\n| 1 | 'abab' |", ("'abab'", "")),
    ("The output is 'abab'.\n\n| step | s so far |\n|---|---|\n| 1 | 'ab' |", ("'abab'", "")),
    ("The output is 'abab'.\n```python\nprint(s * 1)  # 'ab'\n```", ("'abab'", "")),
    ("The output is 'abab'.\nprint(f('ab', 2))  # 'abab'", ("'abab'", "")),
    ("The output is 'abab'.\nThe input was s = 'ab' and n = 2.", ("'abab'", "")),
    (" 'abab'\nassert f('ab', 3) == 'ababab'\nassert f([1, ", ("'abab'", "")),  # cut off by the token limit
    # where a trace starts, and the last of values listed together
    ("The output is 'abab'.\n- total starts at 0.\n- then it adds 1, 2 and 3.", ("'abab'", "")),
    ("The output is 'abab', starting from ''.", ("'abab'", "")),
    ("The output is 'abab'.\nThe counter is set to 0 first; it visits 'a', 'b', and 'a'.", ("'abab'", "")),
    # a condition or a hypothetical about another case, the call's or a step's
    ("The output is 'abab'.\nIf n were 0, it returns ''.", ("'abab'", "")),
    ("The output is 'abab'.\nAfter the first iteration, the result is 'ab'.", ("'abab'", "")),
    # ... but not one about the call asked about, or about nothing: an answer taken back (red team 5)
    ("The output is 'abab'.\n\nAssuming I traced correctly, it's 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nIf we trace the loop more carefully, it returns 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nFor 'ab' and 2, it returns 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nWith s = 'ab', f returns 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nOnce everything is accounted for, it returns 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nOn closer inspection I would say 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nIt could also be 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    # a trace's steps and code labels after the answer (red team 5's honest replies)
    ("The output is 'abab'.\n\n- Iteration 1: 'ab'\n- Iteration 2: 'abab'", ("'abab'", "")),
    ("The output is 'abab'.\n\nIteration 1 \u2192 'ab'", ("'abab'", "")),
    ("Output: 'abab'\n\nIntermediate values:\n- after first iteration: 'ab'", ("'abab'", "")),
    ("The output is 'abab'.\n\nThe first loop iteration gives 'ab'.", ("'abab'", "")),
    ("The output is 'abab'.\n\nTrace:\n- s[0]: 'a'\n- s[1]: 'b'", ("'abab'", "")),
    ("The output is 'abab'.\n1. Initialize `acc` to ''.", ("'abab'", "")),
    # ... but not a second look, nor a step that is the answer's
    ("The output is 'abab'.\nOn second thought: 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nOn a second pass I get 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nFinal step, the answer: 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    # ... but not where the answer starts, nor a value listed after words alone
    ("The output is 'abab'.\nThe output starts at 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nScrap that, and 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
])
def test_a_value_standing_after_the_answer_is_a_second_answer(generation, read):
    assert output_read(generation) == read


@pytest.mark.parametrize("generation, read", [
    ("The input is 'ab', 2.\nBetter: 'abab', 1.", ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("The input is 'ab', 2.\nScrap that, use 'abab', 1.", ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("The input is 'ab', 2.\nEn realidad, la entrada es 'abab', 1.", ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("The input is 'ab', 2.\n\n| input | output |\n|---|---|\n| f('b', 4) | 'abab' |", ("f('ab', 2) | f('b', 4)", AMBIGUOUS)),
    # a condition or a guess about nothing but the reply's own work (red team 5)
    ("The input is 'ab', 2.\nAssuming I traced correctly, it's 'abab', 1.", ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("The input is 'ab', 2.\nThough it might be 'abab', 1.", ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    # honest neighbours: the output shown, a call tried out and what it gives, one argument concluded
    ("The input is 'ab', 2.\nTrying f('a', 1) first gives 'a', too short.", ("f('ab', 2)", "")),
    ("The input is 'ab', 2.\nf('a', 4) gives 'aaaa'.", ("f('ab', 2)", "")),
    ("The input is 'ab', 2.\nIt must repeat to 'abab'.", ("f('ab', 2)", "")),
    ("The input is 'ab', 2.\nn counts the copies, so 2.", ("f('ab', 2)", "")),
    ("The input is 'ab', 2.\nIt returns 0 for an empty s; here it returns 'abab'.", ("f('ab', 2)", "")),
    ("The input is 'Hi! ab', 2.\nLet me double-check: yes, f('Hi! ab', 2).", ("f('Hi! ab', 2)", "")),  # no clause ends in a string
])
def test_an_input_standing_after_the_answer_is_a_second_answer(generation, read):
    assert input_read(generation) == read


# Red team 5: each reply below passed on the right answer though it then gives another. Words after the second value
# ("for sure", "in my view", "(not 'abab')"), a verb not listed ("hands back", "printed"), arithmetic, a REPL, a table's
# "prediction" column, a value offered beside the answer, a contrast with another call, a second look through the loop,
# the answer's variable where the run ends. Beside them, honest replies the reader did not read: the function's
# "returns", LaTeX around the answer, labels of parts, a variable's new value, what the program works on.
@pytest.mark.parametrize("generation, read", [
    ("The output is 'abab'.\nLooking again, it returns 'ba' for sure.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nHmm, on a second pass I get 'ba', I think.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nThe string f hands back is 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nThe last string printed is 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nHmm, looking again it equals 2 + 3.", ("'abab' | 5", AMBIGUOUS)),
    ("The output is 'abab'.\nFinal: 5 * 1", ("'abab' | 5", AMBIGUOUS)),
    ("The output is 'abab'.\n\n| step | prediction |\n|---|---|\n| final | 'ba' |", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nUnlike f('a', 1), our call gives 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nHmm, second look: the list it gives back holds 'ab' and 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nPassing through the loop once more, it comes out as 'ba' honestly",
     ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nAfter the second iteration s is 'ba', so that's what gets returned.",
     ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nMy final prediction: f returns 'ba' (not 'abab')", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nLet me go with 'ba' as my prediction.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nThe value returned by f is 'ba' in my view", ("'abab' | 'ba'", AMBIGUOUS)),
    ("[ANSWER]'abab'[/ANSWER]\nHaving traced it once more, I believe the function returns 'ba' in reality.",
     ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nUpon further review: f returns 'ba' here, given the second iteration",
     ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n```\n>>> f('ab', 2)\n'ba'\n```", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n>>> print(f('ab', 2))\n'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nSince the loop runs twice, the true output is rather 'ba' than 'abab'",
     ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nAt the end, ret_val is 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nEither 'abab' or 'ba', I am not sure.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nIt's 'ba', I think.", ("'abab' | 'ba'", AMBIGUOUS)),  # an opinion after the value
    ("The output is 'abab'.\nHmm, 'ba' maybe.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nThen again, 'ba' seems more likely.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n'ba' is what I'd bet on.", ("'abab' | 'ba'", AMBIGUOUS)),
    # honest replies
    ("The output is 'abab'.\nThe first element is 'a', I think.", ("'abab'", "")),
    ("The output is 'abab'.\nacc becomes 'ab', probably, then 'abab'.", ("'abab'", "")),
    ("The function returns **'abab'**.", ("'abab'", "")),
    ("$$f('ab', 2) = 'abab'$$\n\nThe first copy is 'ab'.", ("'abab'", "")),
    ("**Final answer:** \\('abab'\\)", ("'abab'", "")),
    ("The output is $'abab'$.", ("'abab'", "")),
    ("If s is empty, the function returns ''. Otherwise it repeats s.\nThe output is 'abab'.", ("'abab'", "")),
    ("The output is 'abab'.\nLength of the string: 4", ("'abab'", "")),
    ("The output is 'abab'.\n* Characters: 'a', 'b'\n* Count: 2", ("'abab'", "")),
    ("The output is 'abab'.\nFirst value: 'ab'\nSecond value: 'abab'", ("'abab'", "")),
    ("Answer: 'abab'\n1. Initialize `acc` to ''.\n2. Add s: acc becomes 'ab'.\n3. Add s: acc becomes 'abab'.",
     ("'abab'", "")),
    ("The output is 'abab'.\nWe start with '', add 'a', and then add 'b'.", ("'abab'", "")),
    ("The output is 'abab'.\nHow: 'ab' gives 'ab', then repeating it gives 'abab'.", ("'abab'", "")),
    ("The output is 'abab'.\nWhy: it iterates over 'ab':\n- first char: 'a'", ("'abab'", "")),
    ("The output is 'abab'.\nIt returns '' for an empty s.", ("'abab'", "")),
    ("The output is 'abab'.\n>>> f('ab', 1)\n'ab'", ("'abab'", "")),
    ("The output is 'abab'.\nThe loop runs 1 or 2 times.", ("'abab'", "")),
])
def test_a_second_value_said_with_more_words_is_a_second_answer(generation, read):
    assert output_read(generation) == read


@pytest.mark.parametrize("generation, read", [
    ("The input is 'ab', 2.\nIf we check more carefully, the call should be f('abab', 1).",
     ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("The input is 'ab', 2.\nHmm, having checked once more, I'd use f('abab', 1) in fact for sure.",
     ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("[ANSWER]f('ab', 2)[/ANSWER]\nLooking again, a call that works is f('abab', 1) I think.",
     ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("The input is 'ab', 2.\nMy final pick is f('abab', 1) honestly", ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)),
    ("The input is 'ab', 2.\nTrying f('a', 1) first gives 'a', too short.", ("f('ab', 2)", "")),
])
def test_a_second_input_said_with_more_words_is_a_second_answer(generation, read):
    assert input_read(generation) == read


# Red team 6 (a fresh attack suite): the second value said in yet more ways, and honest replies that were not read.
@pytest.mark.parametrize("generation, read", [
    ("The output is 'abab'.\n'ba' is correct.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n'ba' (final)", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n'ba' is returned.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n'ba' == f('ab', 2)", ("'abab' | 'ba'", AMBIGUOUS)),  # the call written after
    ("The output is 'abab'.\n\u7b54\u6848\u662f'ba'", ("'abab' | 'ba'", AMBIGUOUS)),  # glued to Chinese
    ("\\boxed{'abab' \\text{ or } 'ba'}", ("'abab' \\text{ or } 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n=> 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n<!-- 'ba' -->", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n[FINAL]'ba'[/FINAL]", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\n'ba' lol", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nProbably 'ba', to be honest.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nThe console shows 'ba'.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nf(s='ab', n=2) = 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),  # maybe the asked call
    ("The output is 'abab'.\n>>> f(s='ab', n=2)\n'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nf('ab', 2) == 5  # True", ("'abab' | 5", AMBIGUOUS)),
    ("The output is 'abab'.\nf('ab', 2) = 4+1", ("'abab' | 5", AMBIGUOUS)),
    ("The output is 'abab'.\nBoth 'abab' and 'ba' seem possible.", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nDouble-checked: 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("The output is 'abab'.\nfinal_answer = 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    ("assert f('ab', 2) == 'abab'  # -> 'ba'", ("'abab' | 'ba'", AMBIGUOUS)),
    # honest replies
    ("The output is **'abab'**.", ("'abab'", "")),
    ("**'abab'**", ("'abab'", "")),
    ("`'abab'`", ("'abab'", "")),
    ("It returns 'abab'.", ("'abab'", "")),
    ("I think the output is 'abab'.", ("'abab'", "")),
    ("Output \u2192 'abab'", ("'abab'", "")),
    ("The value returned is 'abab'.", ("'abab'", "")),
    ("So `f('ab', 2) == 'abab'`.", ("'abab'", "")),
    ("**Final Answer:** The output is 'abab'.", ("'abab'", "")),
    ("The output is 'abab', not 'ba'.", ("'abab'", "")),
    ("The output is 'abab'.\n2 copies in all", ("'abab'", "")),
    ("The output is 'abab'.\n'ab' twice", ("'abab'", "")),
    ("The output is 'abab'.\nIt adds 1 and 2 along the way.", ("'abab'", "")),
    ("The output is 'abab'.\nStep: result = s -> 'ab'", ("'abab'", "")),
    ("The output is 'abab'.\nThe loop runs over 'a' and 'b'.", ("'abab'", "")),
    ("The output is 'abab'.\nInitially acc is '', as the result starts empty.", ("'abab'", "")),
])
def test_a_second_value_said_in_yet_more_ways_is_a_second_answer(generation, read):
    assert output_read(generation) == read


@pytest.mark.parametrize("generation", [
    "The input is 'ab', 2.\nf('abab', 1) also works.",
    "The input is 'ab', 2.\nProbably f('abab', 1), to be honest.",
])
def test_a_second_input_offered_too_is_a_second_answer(generation):
    assert input_read(generation) == ("f('ab', 2) | f('abab', 1)", AMBIGUOUS)


def _least_cpu_seconds(read, generation: str) -> float:
    """The least CPU time of 3 reads: what other processes' load leaves alone, at its least noisy."""
    seconds = []
    for _ in range(3):
        started = time.process_time()
        read(generation)
        seconds.append(time.process_time() - started)
    return min(seconds)


def test_reading_time_is_linear_in_the_reply():
    """Red team 4: "f()" written 6,627 times after the answer took 1.9-3.5 s to read (a lazy match from each "f(" to
    the line's end); "- " or "**" runs, many seconds (a run of marks matched from each of its places). A machine's
    speed sets the seconds, the read's shape sets how they grow: a reply 4 times longer takes about 4 times the CPU
    if the read is linear, 16 times if quadratic. Null: linear; one-sided; a ratio above 10 fails (the largest seen
    in 12 runs of this test beside 2 busy loops on 2 cores was 5.0; idle, 5.2). A read under 0.1 s at the longest
    is cheap whatever its shape (a ratio of two tiny timings is noise)."""
    longest = 19_900
    shapes = {unit: unit * (longest // len(unit)) for unit in [
        "f()", ", f(", "f(", "- ", "**", "--", " ", "(1. ", "4\n", "x = 4. ", "| 1 | 4 |\n", "\u0664 ", "[1, ",
        "[ANSWER]", "$$ "]}  # red team 6: "[ANSWER]" repeated took 3 s (a line of spaces read from each start)
    values = random.Random(0)
    shapes["values that never repeat"] = "".join(values.choice("0123456789\u0660\u0664") + values.choice(" ,[")
                                                 for _ in range(longest // 2))
    for name, body in shapes.items():
        for head in ("The output is 'abab'.\n", ""):
            longer = (head + body)[:longest]
            shorter = longer[:len(longer) // 4]
            for read in (output_read, input_read):
                seconds = _least_cpu_seconds(read, longer)
                assert seconds < 0.1 or seconds / _least_cpu_seconds(read, shorter) < 10, (name, head, read.__name__)
