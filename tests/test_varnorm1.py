"""VarNormI before/after: var1, var2, … in order of first appearance, by Python's scoping rules."""

from conftest import check, rewrite
from mutators import ProgramKind, mutate


def test_parameters_and_locals_in_order_of_first_appearance():
    check(
        "V1",
        """
        def f(nums, k):
            total = 0
            for n in nums:
                total += n * k
            return total
        """,
        """
        def f(var1, var2):
            var3 = 0
            for var4 in var1:
                var3 += var4 * var2
            return var3
        """,
    )


def test_imports_attributes_builtins_keywords_and_strings_keep_their_names():
    check(
        "V1",
        """
        import math
        def f(text, sep):
            parts = text.rsplit(sep, maxsplit=2)
            return math.floor(len(parts)), "text", parts.count
        """,
        """
        import math
        def f(var1, var2):
            var3 = var1.rsplit(var2, maxsplit=2)
            return math.floor(len(var3)), "text", var3.count
        """,
    )


def test_same_name_in_two_functions_is_two_variables():
    check(
        "V1",
        """
        def g(x):
            return x + 1
        def f(x):
            return g(x)
        """,
        """
        def g(var1):
            return var1 + 1
        def f(var2):
            return g(var2)
        """,
    )


def test_global_and_nonlocal_follow_the_binding():
    check(
        "V1",
        """
        count = 0
        def f(step):
            global count
            total = 0
            def add():
                nonlocal total
                total += step
            add()
            count += total
            return count
        """,
        """
        var1 = 0
        def f(var2):
            global var1
            var3 = 0
            def add():
                nonlocal var3
                var3 += var2
            add()
            var1 += var3
            return var1
        """,
    )


def test_comprehension_lambda_walrus_and_fstring_fields():
    check(
        "V1",
        """
        def f(items):
            key = lambda item: -item
            best = [y for x in items if (y := key(x)) > 0]
            return f"{best[0]:>{len(items)}}", y
        """,
        """
        def f(var1):
            var2 = lambda var3: -var3
            var4 = [var5 for var6 in var1 if (var5 := var2(var6)) > 0]
            return f"{var4[0]:>{len(var1)}}", var5
        """,
    )


def test_self_documenting_fstring_pins_the_printed_name():
    check(
        "V1",
        """
        def f(a, b):
            c = a + b
            print(f"{c=}")
            return c
        """,
        """
        def f(var1, var2):
            c = var1 + var2
            print(f"{c=}")
            return c
        """,
    )


def test_eval_pins_its_scope_and_the_globals():
    source = "base = 1\ndef f(a):\n    b = a + base\n    return eval('b')\ndef g(x):\n    return x\n"
    assert rewrite("V1", source, kind="script") == (
        "base = 1\ndef f(a):\n    b = a + base\n    return eval('b')\ndef g(var1):\n    return var1\n"
    )


def test_class_attributes_and_methods_keep_names_but_method_parameters_do_not():
    check(
        "V1",
        """
        def f(n):
            class Box:
                size = n
                def grow(self, by):
                    return self.size + by
            return Box().grow(n)
        """,
        """
        def f(var1):
            class Box:
                size = var1
                def grow(var2, var3):
                    return var2.size + var3
            return Box().grow(var1)
        """,
    )


def test_keyword_call_rewritten_with_parameter_and_unresolved_keyword_pins_it():
    check(
        "V1",
        """
        def f(text):
            def pad(s, width):
                return s.ljust(width)
            return pad(text, width=4), dict(width=1)
        """,
        """
        def f(var1):
            def pad(var2, var3):
                return var2.ljust(var3)
            return pad(var1, var3=4), dict(width=1)
        """,
    )
    # A function that escapes may be called with any keyword: its parameter named like a keyword
    # passed to an unknown callee keeps its name.
    check(
        "V1",
        """
        def f(xs):
            def key(item):
                return -item
            return sorted(xs, key=key), max(xs, item=1) if False else 0
        """,
        """
        def f(var1):
            def key(item):
                return -item
            return sorted(var1, key=key), max(var1, item=1) if False else 0
        """,
    )


def test_benchmark_input_keywords_follow_renamed_parameters():
    result = mutate("def f(text, sep=' '):\n    return text.split(sep)\n", "V1", 0,
                    kind=ProgramKind.FUNCTION, entry_point="f", call_arguments="'a b', sep = 'b'")
    assert result.code == "def f(var1, var2=' '):\n    return var1.split(var2)\n"
    assert result.call_arguments == "'a b', var2 = 'b'"


def test_double_star_input_pins_parameters():
    result = mutate("def f(a, b):\n    return a - b\n", "V1", 0, kind=ProgramKind.FUNCTION, entry_point="f",
                    call_arguments="**{'a': 1, 'b': 2}")
    assert result.status == "unchanged"


def test_module_kind_keeps_top_level_names_and_signatures():
    source = "LIMIT = 3\ndef clip(value):\n    low = 0\n    return max(low, min(value, LIMIT))\n"
    assert mutate(source, "V1", 0, kind=ProgramKind.MODULE).code == (
        "LIMIT = 3\ndef clip(value):\n    var1 = 0\n    return max(var1, min(value, LIMIT))\n"
    )


def test_script_kind_renames_module_level_variables():
    source = "n = int(input())\nprint(n * 2)\n"
    assert mutate(source, "V1", 0, kind=ProgramKind.SCRIPT).code == "var1 = int(input())\nprint(var1 * 2)\n"


def test_existing_var_names_are_skipped():
    assert rewrite("V1", "def f(var1, x):\n    return var1 + x\n") == "def f(var2, var3):\n    return var2 + var3\n"


def test_star_import_pins_everything():
    source = "from math import *\ndef f(x):\n    return x\n"
    assert rewrite("V1", source) == source


def test_module_level_name_shadowing_a_builtin_keeps_it():
    # The right-hand `input` is the builtin: global lookups fall back to builtins at run time.
    source = "input = input().split()\nnum = ''.join(input)\nprint(num)\n"
    assert mutate(source, "V1", 0, kind=ProgramKind.SCRIPT).code == "input = input().split()\nvar1 = ''.join(input)\nprint(var1)\n"
