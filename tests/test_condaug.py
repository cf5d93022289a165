"""CondAug before/after: a tautology joins every condition, never a value-producing expression."""

import re

from conftest import rewrite

TRUE = r"(?:\(\(\d > \d\) or \(\d < \d\)\)|\(\d > \d\)|True)"
FALSE = r"(?:\(\(\d < \d\) and \(\d == \d\)\)|\(\d > \d\)|False)"


def augmented(condition: str) -> str:
    return rf"(?:{condition} and {TRUE}|{condition} or {FALSE})"


def test_every_kind_of_condition_is_augmented():
    source = (
        "def f(xs, n):\n"
        "    assert n >= 0, 'negative'\n"
        "    while n > 0:\n"
        "        n -= 1\n"
        "    if not xs or n:\n"
        "        return [x for x in xs if x]\n"
        "    elif (p := len(xs)):\n"
        "        return p if p > 1 else 0\n"
        "    return xs and n\n"
    )
    lines = rewrite("A", source, seed=3).splitlines()
    assert re.fullmatch(rf"    assert {augmented('n >= 0')}, 'negative'", lines[1]), lines[1]
    assert re.fullmatch(rf"    while {augmented('n > 0')}:", lines[2]), lines[2]
    assert re.fullmatch(rf"    if {augmented(re.escape('(not xs or n)'))}:", lines[4]) or re.fullmatch(
        rf"    if not xs or n or {FALSE}:", lines[4]
    ), lines[4]
    assert re.fullmatch(rf"        return \[x for x in xs if {augmented('x')}\]", lines[5]), lines[5]
    assert re.fullmatch(rf"    elif {augmented(re.escape('(p := len(xs))'))}:", lines[6]), lines[6]
    assert re.fullmatch(rf"        return p if {augmented('p > 1')} else 0", lines[7]), lines[7]
    assert lines[8] == "    return xs and n"


def test_walrus_condition_is_parenthesised():
    out = rewrite("A", "def f(d):\n    if p := len(d):\n        return p\n")
    assert out.splitlines()[1].startswith("    if (p := len(d)) ")


def test_forms_vary_with_the_seed():
    outs = {rewrite("A", "def f(x):\n    if x:\n        return 1\n", seed=s).splitlines()[1] for s in range(40)}
    assert len(outs) >= 5
