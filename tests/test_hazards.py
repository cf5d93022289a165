"""Every hazard of the mutation contract (DESIGN.md §2), executed: each program is mutated by every
operator and preset, then original and mutant run side by side in the sandbox on the inputs below
plus perturbed extra inputs. The mutant must agree everywhere, and the operators named for the
hazard must actually have rewritten it (so the test is never vacuous)."""

from textwrap import dedent

import pytest

from mutators import MUTATED, ProgramKind, mutate
from mutators.equivalence import CheckSettings, check_equivalence
from mutators.programs import CallTests

CHAINS = ["V1", "V2", "U", "F", "W", "A", "FUV", "AUV", "AFU"]

HAZARDS = {
    "continue_break_else": (
        """
        def f(xs):
            seen = []
            for x in xs:
                if x < 0:
                    continue
                if x > 100:
                    break
                seen.append(x)
            else:
                seen.append('done')
            return seen
        """,
        ["[1, -2, 3]", "[5, 200, 7]", "[]"],
        "VUFA",
    ),
    "hand_made_index_with_continue": (
        """
        def f(s):
            i = 0
            out = ''
            for c in s:
                i += 1
                if c.isascii() is False:
                    return False
                else:
                    continue
            return i
        """,
        ["'1z1z1'", "'é'"],
        "VUFA",
    ),
    "dict_set_zip_generator_string": (
        """
        def f(d, s, text):
            out = []
            for k in d:
                out.append(k)
            for v in sorted(s):
                out.append(v)
            for a, b in zip(text, text[1:]):
                out.append(a + b)
            for g in (c.upper() for c in text):
                out.append(g)
            for ch in text:
                out.append(ord(ch))
            return out
        """,
        ["{'a': 1, 'b': 2}, {3, 1}, 'xyz'"],
        "VF",
    ),
    "range_steps_and_loop_variable_after_loop": (
        """
        def f(n):
            last = None
            for i in range(n, -1, -3):
                last = i
            for j in range(0):
                pass
            k = 'unset'
            for k in range(2, n):
                pass
            return last, i, k
        """,
        ["7", "2"],
        "VUF",
    ),
    "sequence_mutated_inside_loop": (
        """
        def f(nums):
            for x in nums:
                if x % 2 == 0:
                    nums.remove(x)
            for i in range(len(nums)):
                nums.append(i)
            return nums
        """,
        ["[2, 4, 6, 7]", "[1]"],
        "VUFA",
    ),
    "loop_variable_rebound_in_body": (
        """
        def f(n):
            total = 0
            for i in range(n):
                i *= 10
                total += i
            return total
        """,
        ["4"],
        "VUF",
    ),
    "nested_loops_and_comprehensions": (
        """
        def f(m):
            out = []
            for row in m:
                for x in row:
                    if x:
                        out.append(x)
            flat = [y * 2 for r in m for y in r if y > 1]
            pairs = {k: v for k, v in zip(out, flat)}
            return out, flat, pairs, any(z for z in out if z > 2)
        """,
        ["[[1, 2], [3, 0]]", "[]"],
        "VUFA",
    ),
    "lambdas_defaults_star_args_kwargs_keywords": (
        """
        def f(a, b=2, *rest, scale=1, **extra):
            key = lambda item, off=b: -item + off
            def combine(x, y=0):
                return x * y
            return sorted([a, b, *rest], key=key), combine(a, y=b), scale, sorted(extra)
        """,
        ["3, 4, 5, scale=2, z=1", "1"],
        "VU",
    ),
    "global_nonlocal_nested_def_and_class": (
        """
        counter = 0
        def f(step):
            global counter
            total = 0
            def add(n):
                nonlocal total
                total += n
            class Acc:
                base = step
                def get(self):
                    return self.base + total
            for i in range(3):
                add(step)
            counter += 1
            return Acc().get(), counter > 0
        """,
        ["2"],
        "VUF",
    ),
    "imports_attributes_fstrings_and_strings": (
        """
        import math
        from collections import Counter
        def f(text, sep):
            parts = text.rsplit(sep, maxsplit=2)
            counts = Counter(parts)
            label = 'parts'
            return f"{label}:{len(parts):>{3}}|{math.floor(2.5)}", counts.most_common(1), "text"
        """,
        ["'a-.-.b', '-.'"],
        "VU",
    ),
    "integer_literal_spellings": (
        """
        def f(x):
            return [0b101 + x, 0x1F, 0o17, 1_000, -5, 2 ** 3, x ** -1, 10 ** 20, (3).bit_length()]
        """,
        ["2", "-4"],
        "VU",
    ),
    "walrus_and_conditions": (
        """
        def f(d1, d2):
            mmax = 0
            for k1 in d1:
                if p := len(d1[k1]) + len(d2.get(k1, [])):
                    if p > mmax:
                        mmax = p
            found = [q for v in d1.values() if (q := len(v)) > 1]
            return mmax, found, q if found else None
        """,
        ["{0: [], 1: []}, {0: [0, 0, 0, 0], 2: [2, 2, 2]}", "{1: [1, 2]}, {}"],
        "VUFA",
    ),
    "not_or_precedence": (
        """
        def f(a, b):
            if not a or b:
                return 1 if a and not b else 2
            return 3
        """,
        ["True, False", "False, False", "True, True"],
        "VUA",
    ),
    "match_statement": (
        """
        def f(cmd):
            match cmd:
                case [1, x]:
                    return x + 1
                case {"k": -2, **rest}:
                    return rest
                case str() as s if len(s) > 2:
                    return s
                case _:
                    return None
        """,
        ["[1, 5]", "{'k': -2, 'z': 3}", "'abcd'", "7"],
        "VUA",
    ),
    "try_except_as_with_as_del": (
        """
        import io
        def f(text):
            try:
                value = int(text)
            except ValueError as err:
                value = len(str(err))
            with io.StringIO(text) as handle:
                first = handle.read(1)
            tmp = first * 2
            del tmp
            return value, first
        """,
        ["'12'", "'x'"],
        "VU",
    ),
    "decorators": (
        """
        import functools
        def f(n):
            def twice(fn):
                @functools.wraps(fn)
                def inner(x):
                    return fn(fn(x))
                return inner
            @twice
            def inc(x):
                return x + 1
            return inc(n)
        """,
        ["3"],
        "VU",
    ),
    "eval_and_locals_read_names": (
        """
        def f(a):
            b = a + 1
            return eval('b'), sorted(locals())
        """,
        ["1"],
        "U",
    ),
    "counting_while_loops": (
        """
        def f(text):
            result = ''
            i = len(text) - 1
            while i >= 0:
                if text[i].isalpha():
                    result += text[i]
                i -= 1
            return result
        """,
        ["'102x0zoq'", "''"],
        "VUWA",
    ),
    "builtin_shadowing_module_variable": (
        """
        len = len
        def f(xs):
            return len(xs)
        """,
        ["[1, 2]"],
        "V",
    ),
}

_LETTERS = {"V": ("varnorm1", "varnorm2"), "U": ("constunfold",), "F": ("for2while",),
            "W": ("while2for",), "A": ("condaug",)}


@pytest.mark.parametrize("name", sorted(HAZARDS))
def test_hazard_survives_every_operator(name, sandbox):
    source, inputs, expected_letters = HAZARDS[name]
    source = dedent(source)
    changed_by = set()
    items = []
    for chain in CHAINS:
        result = mutate(source, chain, seed=11, kind=ProgramKind.FUNCTION, entry_point="f", call_arguments=inputs[0])
        assert result.status in (MUTATED, "unchanged"), (chain, result.reason)
        changed_by.update(step.operator for step in result.steps if step.changed)
        items.append((source, result, CallTests("f", inputs, extra_inputs=8)))
    check_equivalence(items, sandbox, CheckSettings(seconds=2.0, seed=11))
    for chain, (_, result, _) in zip(CHAINS, items, strict=True):
        assert result.status != "rejected", f"{chain}: {result.reason}\n{result.code}"
        if result.status == MUTATED:
            assert result.checked_inputs >= len(inputs), (chain, result.checked_inputs)
    for letter in expected_letters:
        assert changed_by & set(_LETTERS[letter]), f"no {letter} operator changed {name}"
