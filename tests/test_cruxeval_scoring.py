import math

import pytest

from dynbench_tasks.benchmarks.cruxeval import parse_answer
from dynbench_tasks.benchmarks.execution import Check, chain_holds, sandbox_task, verdict
from dynbench_tasks.scoring import pass_at_k

SHOWN = "[1, 2, 3]"  # the input the prompt shows: answers are about f([1, 2, 3])


@pytest.mark.parametrize(
    "generation, prompt, answer, status",
    [
        (" [1, 2, 3]", "paper", "[1, 2, 3]", ""),
        (" 'abc' # done", "paper", "'abc'", ""),
        (" 6\nassert f([1, 2, 3, 4]) == 10\nassert f([1, ", "paper", "6", ""),
        ("assert f([1, 2, 3]) == {'a': 1}", "paper", "{'a': 1}", ""),
        ("```python\nassert f([1,2,3]) == 'xa'\n```", "paper", "'xa'", ""),
        (" (1,\n 2)", "paper", "(1,\n 2)", ""),
        (" f(3)", "paper", "f(3)", "calls_f"),
        (" len(f(3))", "paper", "len(f(3))", "calls_f"),
        ("   ", "paper", "", "empty"),
        (" [1, 2", "paper", "[1, 2", "unparseable"),
        ("\nassert f([1, 2, 3]) == 17\n", "harness", "17", ""),
        ("\nassert f([1, 2, 3]) == 'x9ja'\n[/ANSWER]", "harness", "'x9ja'", ""),
        ("[ANSWER]\nassert f([1, 2, 3]) == f([1, 2, 3])\n[/ANSWER]", "harness", "f([1, 2, 3])", "calls_f"),
        ("[ANSWER]\nassert f([1, 2]) == 3\n[/ANSWER]", "harness", "assert f([1, 2]) == 3", "wrong_call"),
        ("('ab'\n 'cd')\nThat is the output.", "paper", "('ab'\n 'cd')", ""),
        ("(1 +\n 2)", "paper", "(1 +\n 2)", ""),
        ("1" + "+1" * 3000, "paper", "1" + "+1" * 3000, "unparseable"),
        ("[" * 100_000, "paper", "[" * 200, "unparseable"),
    ],
)
def test_extraction_keeps_quotes_and_rejects_calls_to_f(generation, prompt, answer, status):
    check = parse_answer(generation, prompt, SHOWN)
    assert (check.answer, check.status) == (answer, status)


@pytest.mark.parametrize(
    "generation, answer, status",
    [
        ("assert (f([1, 2, 3])) == 6", "6", ""),  # redundant parentheses and spaces do not count
        ("( f( [1,2,3] ) ) == 6", "6", ""),
        ("assert ((f([1, 2, 3])) == (6))", "(6)", ""),
        ("assert f([1, 2, 3]) == \\\n 6", "6", ""),
        ("(f([1, 2, 3])  # a comment == 7\n ) == 6", "6", ""),
        ("assert f([1, 2, 3],) == 6", "6", ""),
        ("assert f([1, 2, 3]) == 6, 'the message'", "6", ""),
        ("assert [f([1, 2, 3])] == [6]", "assert [f([1, 2, 3])] == [6]", "wrong_call"),
        ("f([1, 2, 3]) + f(0) == 6", "f([1, 2, 3]) + f(0) == 6", "wrong_call"),
        ("assert f([3, 2, 1]) == 6", "assert f([3, 2, 1]) == 6", "wrong_call"),
        ("assert f(x=[1, 2, 3]) == 6", "assert f(x=[1, 2, 3]) == 6", "wrong_call"),
        ("assert f([1, 2, 3]) == 6 or True", "assert f([1, 2, 3]) == 6 or True", "wrong_call"),
        ("assert f([1, 2, 3]) != 5", "assert f([1, 2, 3]) != 5", "wrong_call"),
        ("assert 6 == 6", "assert 6 == 6", "wrong_call"),
        ("6 == f([1, 2, 3])", "6 == f([1, 2, 3])", "calls_f"),  # no left side: a value that calls f
        ("f([1, 2, 3]) == 6 or True", "f([1, 2, 3]) == 6 or True", "calls_f"),
    ],
)
def test_a_stated_comparison_is_about_the_shown_call(generation, answer, status):
    check = parse_answer(generation, "paper", SHOWN)
    assert (check.answer, check.status) == (answer, status)


@pytest.mark.parametrize(
    "answer, expressions, links",
    [
        ("0 == 1", ["(0)", "(1)"], ["=="]),  # assert f(x) == 0 == 1: a chain that never holds
        ("(0 == 1)", ["(0 == 1)"], []),  # parenthesised, it is one value
        ("1 or 2", ["(1 or 2)"], []),  # the value 1, not an `or` that passes any assertion
        ("1, 2", ["(1, 2)"], []),
        ("('ab'\n 'cd')", ["('ab'\n 'cd')"], []),
        ("3 < 4 in [4]", ["(3)", "(4)", "([4])"], ["<", "in"]),
        ("assert f(1) == 'a' \x0c+ 'x'", ["('a' \x0c+ 'x')"], []),  # a form feed is not a line end
    ],
)
def test_answers_are_read_as_the_right_side_of_the_assertion(answer, expressions, links):
    check = parse_answer(answer, "paper", "1")
    assert (check.expressions, check.links) == (expressions, links)


@pytest.mark.parametrize("answer", ["(exec('1'), 2)[1]", "[x for x in range(3)]", "().__class__", "(lambda: 1)()",
                                    "__import__('os').getcwd()", "sum(iter(int, 1))", "(y := 3)"])
def test_answers_that_compute_instead_of_stating_a_value_do_not_count(answer):
    assert parse_answer(answer, "paper", "1").status == "not_a_value"
    for stated in ("'abc'.upper()", "float('nan')", "sorted([3, 1])", "set()", "-5", "'a' * 3", "(1, 2)"):
        assert parse_answer(stated, "paper", "1").status == ""


def test_the_chain_is_judged_outside_like_python_would():
    assert chain_holds(3, [3], []) and not chain_holds(3, [4], [])
    assert not chain_holds(False, [0, 1], ["=="]) and chain_holds(3, [3, 4, [4]], ["<", "in"])
    assert chain_holds([1, 2], [[1, 2]], []) and not chain_holds((1, 2), [[1, 2]], [])
    assert chain_holds(True, [1], []) and not chain_holds(math.nan, [math.nan], [])


def _outcome(values):
    return {"status": "ok", "result": {"outcome": "values", "values": values}}


def test_verdicts_trust_nothing_the_sandbox_says():
    one = Check("x", expressions=["(x)"])
    assert verdict(one, _outcome([["int", "3"]]), 3) == ("passed", "")
    assert verdict(one, _outcome([["int", "4"]]), 3) == ("wrong", "")
    assert verdict(one, _outcome([["int", "3"], ["int", "3"]]), 3) == ("error", "sandbox")  # too many values
    assert verdict(one, _outcome([["int", "3x"]]), 3) == ("error", "undecodable")
    assert verdict(one, _outcome("passed"), 3) == ("error", "sandbox")
    assert verdict(one, {"status": "ok", "result": {"outcome": "passed"}}, 3) == ("error", "sandbox")
    assert verdict(one, {"status": "ok", "result": {"outcome": "raise", "exception": "root:x:0:0:/root"}}, 3) == (
        "error", "exception")  # only a built-in exception's name reaches the logs
    assert verdict(one, {"status": "ok", "result": {"outcome": "raise", "exception": "KeyError"}}, 3) == (
        "error", "KeyError")
    assert verdict(one, {"status": "timeout"}, 3) == ("timeout", "")
    assert verdict(one, {"status": "died", "error": "SIGKILL"}, 3) == ("error", "sandbox")
    assert verdict(one, {"status": "ok", "result": {"outcome": "not_plain", "why": "not plain data"}}, 3) == (
        "wrong", "not plain data")


def test_pass_at_k_is_the_unbiased_estimator():
    assert pass_at_k(5, 0, 1) == 0.0 and pass_at_k(5, 5, 1) == 1.0
    assert pass_at_k(5, 2, 1) == pytest.approx(0.4)
    assert pass_at_k(5, 1, 5) == 1.0 and pass_at_k(5, 0, 5) == 0.0
    assert pass_at_k(10, 3, 5) == pytest.approx(1 - (7 * 6 * 5 * 4 * 3) / (10 * 9 * 8 * 7 * 6))
    assert pass_at_k(3, 1, 5) == 1.0  # fewer samples than k: pass@n


def test_values_come_back_as_plain_data_and_are_judged_here(sandbox):
    def check(answer, reference=(1, 2), seconds=1.0, read=True):
        # read=False runs what the reader would refuse, as if it had let it through
        parsed = parse_answer(answer, "paper", "1") if read else Check(answer, expressions=[f"({answer})"])
        assert not parsed.status, parsed
        return verdict(parsed, sandbox.run([sandbox_task(parsed, seconds)])[0], reference)[0]

    assert check("(1, 2)") == "passed" and check("(1,) + (2,)") == "passed"
    assert check("[1, 2]") == "wrong" and check("undefined_name", read=False) == "error"
    assert check("'x' * 10 ** 10") == "error"
    assert check("sum(iter(int, 1))", seconds=0.3, read=False) == "timeout"
    assert check("1 == 2", reference=False) == "wrong"  # assert f(x) == 1 == 2 never holds
    assert check("type('A', (), {'__eq__': lambda s, o: True})()", read=False) == "wrong"
    assert check("float('nan')", reference=math.nan) == "wrong"  # as Python's own assert would judge
