"""VarNormII before/after: random identifiers of one fixed length, drawn from the seed."""

import re

from conftest import rewrite
from mutators import ProgramKind, mutate, parse_chain
from mutators.scopes import RESERVED_NAMES


def test_every_variable_gets_a_fresh_name_of_the_configured_length():
    source = "def f(items, limit):\n    kept = [x for x in items if x < limit]\n    return kept\n"
    for length in (3, 6):
        chain = parse_chain("V2", {"varnorm2.length": length})
        out = mutate(source, chain, 1, kind="function", entry_point="f").code
        names = re.findall(r"def f\((\w+), (\w+)\):\n    (\w+) = \[(\w+)", out)[0]
        assert all(len(name) == length for name in names)
        assert len(set(names)) == 4
        assert not {"items", "limit", "kept"} & set(re.findall(r"\w+", out))


def test_same_seed_same_names_other_seed_other_names():
    source = "def f(a, b):\n    c = a * b\n    return c\n"
    assert rewrite("V2", source, seed=5) == rewrite("V2", source, seed=5)
    assert rewrite("V2", source, seed=5) != rewrite("V2", source, seed=6)


def test_names_never_collide_with_keywords_builtins_or_existing_identifiers():
    # With length 2 and many seeds, a collision with e.g. "id", "if" or "ab" would show up.
    source = "def f(ab, cd):\n    return ab + cd + len([id for id in range(3)])\n"
    before = set(re.findall(r"\w+", source))
    chain = parse_chain("V2", {"varnorm2.length": 2})
    for seed in range(200):
        out = mutate(source, chain, seed, kind="function", entry_point="f").code
        new = set(re.findall(r"\w+", out)) - before
        assert len(new) == 3 and all(len(n) == 2 for n in new), out
        assert not new & (RESERVED_NAMES | before), out


def test_scripts_rename_module_level_variables():
    out = mutate("n = int(input())\nfor i in range(n):\n    print(i)\n", "V2", 0, kind=ProgramKind.SCRIPT).code
    assert "n =" not in out and "int(input())" in out and "range(" in out


def test_one_letter_names_are_drawn_until_the_alphabet_runs_out():
    # 20 variables share 26 letters with "f", so draws collide often; builtins and keywords hold no
    # one-letter names and must not count against the alphabet.
    variables = [f"v{i}" for i in range(20)]
    source = f"def f({', '.join(variables)}):\n    return {' + '.join(variables)}\n"
    chain = parse_chain("V2", {"varnorm2.length": 1})
    for seed in range(5):
        out = mutate(source, chain, seed, kind="function", entry_point="f")
        assert out.status == "mutated", out.reason
        assert len(set(re.findall(r"\b[a-z]\b", out.code)) - {"f"}) == 20
