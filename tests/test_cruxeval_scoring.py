import pytest

from dynbench_tasks.benchmarks.cruxeval import extract_answer
from dynbench_tasks.scoring import pass_at_k


@pytest.mark.parametrize(
    "generation, prompt, answer, status",
    [
        (" [1, 2, 3]", "paper", "[1, 2, 3]", ""),
        (" 'abc' # done", "paper", "'abc'", ""),
        (" 6\nassert f([1, 2, 3, 4]) == 10\nassert f([1, ", "paper", "6", ""),
        ("assert f(3) == {'a': 1}", "paper", "{'a': 1}", ""),
        ("```python\nassert f('x') == 'xa'\n```", "paper", "'xa'", ""),
        (" (1,\n 2)", "paper", "(1,\n 2)", ""),
        (" f(3)", "paper", "f(3)", "calls_f"),
        (" len(f(3))", "paper", "len(f(3))", "calls_f"),
        ("   ", "paper", "", "empty"),
        (" [1, 2", "paper", "[1, 2", "unparseable"),
        ("\nassert f(17) == 17\n", "harness", "17", ""),
        ("\nassert f('x9j') == 'x9ja'\n[/ANSWER]", "harness", "'x9ja'", ""),
        ("[ANSWER]\nassert f(1) == f(1)\n[/ANSWER]", "harness", "f(1)", "calls_f"),
    ],
)
def test_extraction_keeps_quotes_and_rejects_calls_to_f(generation, prompt, answer, status):
    assert extract_answer(generation, prompt) == (answer, status)


def test_pass_at_k_is_the_unbiased_estimator():
    assert pass_at_k(5, 0, 1) == 0.0 and pass_at_k(5, 5, 1) == 1.0
    assert pass_at_k(5, 2, 1) == pytest.approx(0.4)
    assert pass_at_k(5, 1, 5) == 1.0 and pass_at_k(5, 0, 5) == 0.0
    assert pass_at_k(10, 3, 5) == pytest.approx(1 - (7 * 6 * 5 * 4 * 3) / (10 * 9 * 8 * 7 * 6))
    assert pass_at_k(3, 1, 5) == 1.0  # fewer samples than k: pass@n


def test_sandbox_value_checks(sandbox):
    def check(answer, reference="[1, 2]", seconds=1.0):
        task = {"kind": "compare_value", "payload": {"answer": answer, "reference": reference, "seconds": seconds},
                "limits": {"wall_seconds": seconds + 3, "cpu_seconds": 2, "memory_mb": 512}}
        result = sandbox.run([task])[0]
        return result["result"]["outcome"] if result["status"] == "ok" else result["status"]

    assert check("[1, 2]") == "passed" and check("[1] + [2]") == "passed"
    assert check("[2, 1]") == "wrong" and check("undefined_name") == "error"
    assert check("'x' * 10 ** 10") == "error"
    assert check("sum(iter(int, 1))", seconds=0.3) == "timeout"
    assert check("1 == 1.0", reference="True") == "passed"
