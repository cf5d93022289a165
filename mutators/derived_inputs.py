"""Stdin tests beyond the published ones, derived from them, so that a program that ignores its input
cannot pass a translation task with one published test (CodeNet has one per program), nor a lookup table
of the published inputs. A derived input is a published one rearranged or with one value lowered (half
each, where both can be had); it keeps the published shape (lines, tokens per line).

A rearranged input invents no value: every number and character in it is one the published input holds,
so its values stay within the published ranges. Only what a problem statement rarely constrains is
rearranged:

* the numbers of an array: a line of three or more numbers whose count is the first number of the line
  just before it, where that line is the input's first or holds that number alone (``5`` then
  ``1 2 3 4 5``), and which is no line of a run of lines of its length (edges, queries);
* the letters of a word alone on its line that appears nowhere else in the input (a name, not a
  reference to one), and the digits of a digit string of ten or more alone on its line (longer than
  any bounded number).

Sizes, counts, pairs (``l r``, an edge ``a b`` where ``a < b``), times and the order of lines (operations
in sequence) stay as published: on Avatar, whose reference Java checks it (``scripts/derived_agreement.py``),
rearranging them made inputs the problem does not allow.

A lowered input changes one whole number to one between half of it (and 2) and one less: a value a
problem's range, which starts at 1 or 2 far more often than at the published value, still holds (``10``
becomes ``6``). Most one-line inputs (``5 5``) have nothing to rearrange, and a program that sorts its
array answers every rearrangement alike. Only a number above every count the input shows (its lines, the
tokens of a line, the characters of a word or of a token alone on its line) and above 2 is lowered, so no
size, count, index, node or position of a permutation; nor a string of digits: ten or more, bits
(``10010010``), or alone on its line with its digit count on another (``2`` then ``11``). On Avatar the
reference Java rejected lowered edge ends, permutation entries, a prime's lower bound 2 and digit strings
until these limits.

A copied input writes one value of such an array (or character of such a word or digit string) over
another of it (``2 1 3 5`` becomes ``2 1 2 5``): it too invents no value, but a program that answers every
rearrangement alike (a property of the values as a set: their XOR, whether a word's letters pair up) no
longer must. Copies make up what the lowered values cannot, after them. No value of a permutation (of 1 to
its length, or 0 to one less) is copied: on Avatar the reference Java disagreed with the Python on copies in
three permutation problems, which their statements forbid.

The numbers of a grid are rearranged and copied row by row, as arrays: two or more lines of the count of
numbers that the line before them announces (``5`` then ``3 2 2 4 1`` and ``1 2 2 2 1``), ending the
input, fewer lines than the count (a square of them may be an adjacency or distance matrix) and of four
numbers or more (lines of three are weighted edges or queries ``t l r`` as often).

A derived input the program fails on, is slow on or answers differently under two hash seeds is not kept
(:mod:`mutators.output_choice`), nor, where the benchmark publishes its own program in the target
language, one on which that program disagrees.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re

DERIVED_TESTS = 4  # derived inputs asked for per program
_TRIES = 4  # tries per derived input asked for, before it is given up
_LONG_DIGITS = 10  # a digit string this long is no bounded number
_WHOLE = re.compile(r"[1-9][0-9]*")  # a whole number as written, no sign or leading zero
_LOWEST = 2  # a lowered value is no less: problems often ask for 2 or more (a prime, a size), few for 3
_TRIPLE = 3  # a run of lines of three numbers is a run of triples (weighted edges, queries ``t l r``), no grid


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _is_array(rows: list[list[str]], index: int) -> bool:
    row, above = rows[index], rows[index - 1] if index else []
    neighbours = [rows[i] for i in (index - 1, index + 1) if 0 <= i < len(rows)]
    return (len(row) > 2 and all(map(_is_number, row)) and bool(above) and above[0] == str(len(row))
            and (index == 1 or len(above) == 1) and all(len(other) != len(row) for other in neighbours))


def _is_grid_row(rows: list[list[str]], index: int) -> bool:
    """Whether ``rows[index]`` is a row of a grid of numbers: one of two or more lines, fewer than the count,
    of the count (four or more) of numbers that the line before them announces (alone or first of the
    input), ending it."""
    size, first = len(rows[index]), index
    while first > 1 and len(rows[first - 1]) == size:
        first -= 1
    count = rows[first - 1] if first else []
    grid = list(itertools.takewhile(lambda row: len(row) == size, rows[first:]))
    return (size > _TRIPLE and bool(count) and count[0] == str(size) and (first == 1 or len(count) == 1)
            and 2 <= len(grid) < size and all(all(map(_is_number, row)) for row in grid)
            and not any(rows[first + len(grid):]))


def _is_shuffled_string(rows: list[list[str]], index: int) -> bool:
    row = rows[index]
    if len(row) != 1 or len(row[0]) < 2:
        return False
    token = row[0]
    elsewhere = sum(token in other for other in rows) > 1
    return (token.isalpha() and not elsewhere) or (token.isdigit() and len(token) >= _LONG_DIGITS)


def _is_numbers(rows: list[list[str]], index: int) -> bool:
    return _is_array(rows, index) or _is_grid_row(rows, index)


def _rearranged(stdin: str, rng: random.Random) -> str:
    lines = stdin.split("\n")
    rows = [line.split() for line in lines]
    rearranged = list(lines)
    for index, row in enumerate(rows):
        if _is_numbers(rows, index):
            shuffled = list(row)
            rng.shuffle(shuffled)
            rearranged[index] = " ".join(shuffled)
        elif _is_shuffled_string(rows, index):
            characters = list(row[0])
            rng.shuffle(characters)
            rearranged[index] = lines[index].replace(row[0], "".join(characters), 1)
    return "\n".join(rearranged)


def _is_permutation(row: list[str]) -> bool:
    return len(set(row)) == len(row) and set(row) in ({str(value) for value in range(1, len(row) + 1)},
                                                      {str(value) for value in range(len(row))})


def _copied(stdin: str, rng: random.Random) -> str:
    """``stdin`` with one value of an array or grid row that is no permutation, or one character of a word
    or digit string that ``_rearranged`` rearranges, written over another of them that differs from it."""
    lines = stdin.split("\n")
    rows = [line.split() for line in lines]
    places = [index for index, row in enumerate(rows)
              if (_is_numbers(rows, index) and len(set(row)) > 1 and not _is_permutation(row))
              or (_is_shuffled_string(rows, index) and len(set(row[0])) > 1)]
    if not places:
        return stdin
    index = places[rng.randrange(len(places))]
    items = list(rows[index]) if _is_numbers(rows, index) else list(rows[index][0])
    position = rng.randrange(len(items))
    items[position] = rng.choice(sorted(set(items) - {items[position]}))
    lines[index] = " ".join(items) if _is_numbers(rows, index) else lines[index].replace(rows[index][0],
                                                                                          "".join(items), 1)
    return "\n".join(lines)


def _is_value(token: str) -> bool:
    """Whether a token reads as a value: a whole number, of fewer digits than a digit string, that is no
    string of bits (``10010010``; ``100`` is a value)."""
    return bool(_WHOLE.fullmatch(token)) and len(token) < _LONG_DIGITS and \
        not (set(token) <= {"0", "1"} and token.count("1") > 1)


def _lowerable(stdin: str) -> list[tuple[int, int]]:
    """Where ``stdin`` holds a value that may be lowered: (line, token) of each value above every count the
    input shows (of its lines, of the tokens on a line, of the characters of a word or of a token alone on its
    line: so no size, count, index or position) and above 2, unless it is alone on its line and its number of
    digits is on another line (``2`` then ``11``: a digit string)."""
    rows = [line.split() for line in stdin.split("\n")]
    strings = [token for row in rows for token in row if len(row) == 1 or not _is_number(token)]
    counts = max([sum(map(bool, rows)), *map(len, rows), *map(len, strings)])

    def digit_string(index: int, token: str) -> bool:
        return len(rows[index]) == 1 and any(str(len(token)) in row for other, row in enumerate(rows) if other != index)

    return [(index, position) for index, row in enumerate(rows) for position, token in enumerate(row)
            if _is_value(token) and int(token) > max(counts, _LOWEST) and not digit_string(index, token)]


def _lowered(stdin: str, rng: random.Random) -> str:
    """``stdin`` with one of its values lowered, to no less than half of it (nor than 2)."""
    places = _lowerable(stdin)
    if not places:
        return stdin
    index, position = places[rng.randrange(len(places))]
    lines = stdin.split("\n")
    row = lines[index].split()
    value = int(row[position])
    row[position] = str(rng.randint(max((value + 1) // 2, _LOWEST), value - 1))
    lines[index] = " ".join(row)
    return "\n".join(lines)


def derived_stdins(stdins: list[str], seed: int, count: int = DERIVED_TESTS) -> list[str]:
    """Up to ``count`` new inputs, none equal to a published one or to each other, the same for the same
    seed and inputs: half rearranged from ``stdins`` (taken in turn), half with one value lowered (a
    program that sorts its input answers every rearrangement alike), else with one value copied over
    another (one that only looks at the set of values does too), else rearranged."""
    if not stdins:
        return []
    digest = hashlib.sha256(f"{seed}\x00".encode() + "\x00".join(stdins).encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    seen, derived = {_tokens(stdin) for stdin in stdins}, []
    for derive, upto in ((_rearranged, (count + 1) // 2), (_lowered, count), (_copied, count), (_rearranged, count)):
        for attempt in range(count * _TRIES):
            if len(derived) >= upto:
                break
            candidate = derive(stdins[attempt % len(stdins)], rng)
            if _tokens(candidate) not in seen:
                seen.add(_tokens(candidate))
                derived.append(candidate)
    return derived


def _tokens(stdin: str) -> tuple:
    return tuple(tuple(line.split()) for line in stdin.split("\n"))
