"""While2For before/after: only counting loops it can prove equivalent."""

from conftest import check, rewrite


def test_counting_loop_becomes_range():
    check(
        "W",
        """
        def f(text):
            result = ''
            i = len(text) - 1
            while i >= 0:
                result += text[i]
                i -= 1
            return result
        """,
        """
        def f(text):
            result = ''
            for i in range(len(text) - 1, -1, -1):
                result += text[i]
            return result
        """,
    )


def test_stable_local_bound():
    check(
        "W",
        """
        n = int(input())
        k = 0
        while k < n:
            print(k)
            k += 2
        """,
        """
        n = int(input())
        for k in range(0, n, 2):
            print(k)
        """,
        kind="script",
    )


def test_unsafe_shapes_stay():
    unchanged = [
        # bound re-evaluated each time and changed by the body
        "def f(a):\n    r = []\n    i = 0\n    while i < len(a):\n        r.append(a.pop())\n        i += 2\n    return r\n",
        # counter read after the loop
        "def f():\n    i = 0\n    while i < 3:\n        i += 1\n    return i\n",
        # continue skips the increment
        "def f(a):\n    i = 0\n    while i < 3:\n        if a:\n            continue\n        i += 1\n",
        # body rebinds the counter
        "def f():\n    i = 0\n    while i < 9:\n        i *= 2\n        i += 1\n",
        # a closure sees the counter
        "def f():\n    fs = []\n    i = 0\n    while i < 3:\n        fs.append(lambda: i)\n        i += 1\n    return fs\n",
        # bound might be a float
        "def f(n):\n    i = 0\n    while i < n:\n        print(i)\n        i += 1\n",
    ]
    for source in unchanged:
        assert rewrite("W", source) == source, source
