import json
import os
import subprocess
import sys

from mutators import MUTATED, REJECTED, UNCHANGED, UNPARSEABLE, ProgramKind, mutate


def test_record_carries_chain_seed_version_and_per_operator_sites():
    result = mutate("def f(x):\n    for i in range(3):\n        x += i\n    return x\n", "FUV", 4,
                    kind=ProgramKind.FUNCTION, entry_point="f")
    record = result.record()
    assert record["status"] == MUTATED and record["chain"] == "F+U+V2" and record["seed"] == 4
    assert record["engine_version"]
    assert [(s["operator"], s["changed"]) for s in record["steps"]] == [
        ("for2while", True), ("constunfold", True), ("varnorm2", True)]
    assert all(s["sites"] > 0 for s in record["steps"])


def test_unchanged_unparseable_and_bad_input():
    assert mutate("def f():\n    return 'x'\n", "U", 0).status == UNCHANGED
    broken = mutate("def f(:\n", "V1", 0)
    assert broken.status == UNPARSEABLE and broken.reason
    python2 = mutate("print 'hello'\n", "V1", 0)
    assert python2.status == UNPARSEABLE
    semantic = mutate("x = 1\nreturn x\n", "U", 0)  # parses, but CPython refuses to compile it
    assert semantic.status == UNPARSEABLE and "return" in semantic.reason
    bad_input = mutate("def f(a):\n    return a\n", "V1", 0, kind=ProgramKind.FUNCTION, entry_point="f", call_arguments="1,,")
    assert bad_input.status == UNPARSEABLE and "input" in bad_input.reason


def test_mutated_input_keeps_every_other_byte():
    result = mutate("def f(text, sep):\n    return text.split(sep)\n", "V1", 0, kind=ProgramKind.FUNCTION,
                    entry_point="f", call_arguments=" 'a,b' ,  sep=',' ")
    assert result.call_arguments == " 'a,b' ,  var2=',' "


def test_a_failing_operator_is_a_counted_rejection_not_a_crash():
    deep = "def f(x):\n    return " + "(" * 400 + "x" + ")" * 400 + "\n"
    result = mutate(deep, "V1", 0, kind=ProgramKind.FUNCTION, entry_point="f")
    assert result.status in (MUTATED, REJECTED, UNPARSEABLE)


_SCRIPT = """
import json, sys
from mutators import mutate
programs = [
    "def f(a, b):\\n    for k in {a: 1, b: 2}:\\n        if k:\\n            return k * 3\\n",
    "def f(s):\\n    return {c for c in s if c > 'a'}, [x for x in range(10) if x % 2]\\n",
]
print(json.dumps([mutate(p, c, int(sys.argv[1]), kind="function", entry_point="f").code
                  for p in programs for c in ("V1", "V2", "U", "F", "A", "FUV", "AUV", "AFU")]))
"""


def _run(seed: int, hash_seed: str) -> list:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    command = [sys.executable, "-c", _SCRIPT, str(seed)]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_same_seed_is_byte_identical_across_hash_seeds_and_other_seeds_differ():
    first, second = _run(7, "1"), _run(7, "4242")
    assert first == second
    other = _run(8, "1")
    assert other != first


def test_module_kind_without_tests_still_mutates():
    assert mutate("def area(width):\n    return width * 2\n", "U", 0, kind=ProgramKind.MODULE).status == MUTATED
