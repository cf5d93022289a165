"""For2While before/after."""

from conftest import check, rewrite


def test_range_with_provably_int_bounds_uses_a_hidden_counter():
    check(
        "F",
        """
        def f(b):
            for i in range(2, len(b)): b[i] += '+'
            return b
        """,
        """
        def f(b):
            _i = 2
            _stop = len(b)
            while _i < _stop:
                i = _i
                _i += 1
                b[i] += '+'
            return b
        """,
    )


def test_negative_literal_step_counts_down():
    check(
        "F",
        """
        def f(s):
            out = ''
            for i in range(len(s) - 1, -1, -2):
                out += s[i]
            return out
        """,
        """
        def f(s):
            out = ''
            _i = len(s) - 1
            while _i > -1:
                i = _i
                _i -= 2
                out += s[i]
            return out
        """,
    )


def test_any_other_iterable_goes_through_the_iterator_protocol():
    check(
        "F",
        """
        def f(d, n):
            total = 0
            for k, v in d.items():  # keys and values
                if v is None:
                    continue
                total += v
            for i in range(n):
                total += i
            return total
        """,
        """
        def f(d, n):
            total = 0
            _it = iter(d.items())
            while True:  # keys and values
                try:
                    k, v = next(_it)
                except StopIteration:
                    break
                if v is None:
                    continue
                total += v
            _it2 = iter(range(n))
            while True:
                try:
                    i = next(_it2)
                except StopIteration:
                    break
                total += i
            return total
        """,
    )


def test_for_else_and_attribute_targets_use_a_sentinel_and_while_else():
    check(
        "F",
        """
        def f(lst, box):
            for box.item in lst:
                if box.item == 3:
                    break
            else:
                return True
            return False
        """,
        """
        def f(lst, box):
            _it = iter(lst)
            _done = object()
            while (_item := next(_it, _done)) is not _done:
                box.item = _item
                if box.item == 3:
                    break
            else:
                return True
            return False
        """,
    )


def test_bare_tuple_iterable_is_parenthesised():
    assert "iter((a, b, c))" in rewrite("F", "def f(a, b, c):\n    for d in a, b, c:\n        print(d)\n")


def test_class_body_loops_async_for_and_rebound_builtins_stay():
    unchanged = [
        "class C:\n    for i in range(3):\n        pass\n",
        "async def f(xs):\n    async for x in xs:\n        pass\n",
        "def f(xs):\n    next = 1\n    for x in xs:\n        pass\n",
    ]
    for source in unchanged:
        assert rewrite("F", source) == source


def test_nested_loops_get_distinct_temporaries():
    out = rewrite("F", "def f(m):\n    for row in m:\n        for x in row:\n            print(x)\n")
    assert "_it = iter(m)" in out and "_it2 = iter(row)" in out
