"""ConstUnfold before/after: integer literals become arithmetic of equal value."""

import re

from conftest import check, rewrite
from mutators import mutate, parse_chain


def test_literal_becomes_arithmetic_with_a_bounded_offset():
    check("U", "def f(xs):\n    xs[0] = 5\n    return xs\n", "def f(xs):\n    xs[4 - 4] = 0 + 5\n    return xs\n")


def test_precedence_gets_parentheses():
    out = rewrite("U", "def f(x):\n    return x - 4, x / 4, 2 ** 3, 4 + x, x << 2, (3).bit_length(), -5\n")
    body = out.splitlines()[1]
    assert re.fullmatch(
        r"    return x - \(\d+ [-+] \d+\), x / \(\d+ [-+] \d+\), \(\d+ [-+] \d+\) \*\* \(\d+ [-+] \d+\), "
        r"\d+ [-+] \d+ \+ x, x << \d+ [-+] \d+, \(\d+ [-+] \d+\)\.bit_length\(\), \d+ - \d+",
        body,
    ), body


def test_negated_literal_and_negative_exponent():
    out = rewrite("U", "def f(x):\n    return x ** -1\n")
    assert re.fullmatch(r"def f\(x\):\n    return x \*\* \(\d+ - \d+\)\n", out), out


def test_every_literal_spelling_keeps_its_value():
    source = "def f():\n    return [0b101, 0x1F, 0o17, 1_000, 0, 10**20]\n"
    for seed in range(20):
        out = mutate(source, "U", seed, kind="function", entry_point="f").code
        values = eval(out.split("return ", 1)[1])  # literal arithmetic only
        assert values == [5, 31, 15, 1000, 0, 10**20]


def test_max_offset_bounds_the_added_operand():
    chain = parse_chain("U", {"constunfold.max_offset": 3})
    for seed in range(30):
        out = mutate("def f():\n    return 100\n", chain, seed, kind="function", entry_point="f").code
        left, op, right = re.search(r"return (\d+) ([-+]) (\d+)", out).groups()
        assert 1 <= int(right) <= 3 and eval(f"{left} {op} {right}") == 100


def test_annotations_match_patterns_format_specs_and_printed_fields_stay():
    source = (
        "def f(x: 'int' = 1) -> list[3]:\n"
        "    y: dict[1, 2] = {}\n"
        "    match x:\n"
        "        case 1 | -2:\n"
        "            return f'{x:{4}}' + f'{7=}'\n"
        "        case {5: _}:\n"
        "            return 6\n"
    )
    out = rewrite("U", source)
    assert "-> list[3]" in out and "dict[1, 2]" in out and "case 1 | -2:" in out and "case {5: _}" in out
    assert "f'{x:{4}}'" in out and "f'{7=}'" in out
    assert "= 1)" not in out and "return 6\n" not in out


def test_floats_and_booleans_are_not_integers():
    check("U", "def f():\n    return 1.5, True\n", "def f():\n    return 1.5, True\n")
