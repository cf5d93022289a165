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

A derived input the program fails on, is slow on or answers differently under two hash seeds is not kept
(:mod:`mutators.output_choice`), nor, where the benchmark publishes its own program in the target
language, one on which that program disagrees.
"""

from __future__ import annotations

import hashlib
import random
import re

DERIVED_TESTS = 4  # derived inputs asked for per program
_TRIES = 4  # tries per derived input asked for, before it is given up
_LONG_DIGITS = 10  # a digit string this long is no bounded number
_WHOLE = re.compile(r"[1-9][0-9]*")  # a whole number as written, no sign or leading zero
_LOWEST = 2  # a lowered value is no less: problems often ask for 2 or more (a prime, a size), few for 3


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


def _is_shuffled_string(rows: list[list[str]], index: int) -> bool:
    row = rows[index]
    if len(row) != 1 or len(row[0]) < 2:
        return False
    token = row[0]
    elsewhere = sum(token in other for other in rows) > 1
    return (token.isalpha() and not elsewhere) or (token.isdigit() and len(token) >= _LONG_DIGITS)


def _rearranged(stdin: str, rng: random.Random) -> str:
    lines = stdin.split("\n")
    rows = [line.split() for line in lines]
    rearranged = list(lines)
    for index, row in enumerate(rows):
        if _is_array(rows, index):
            shuffled = list(row)
            rng.shuffle(shuffled)
            rearranged[index] = " ".join(shuffled)
        elif _is_shuffled_string(rows, index):
            characters = list(row[0])
            rng.shuffle(characters)
            rearranged[index] = lines[index].replace(row[0], "".join(characters), 1)
    return "\n".join(rearranged)


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
    program that sorts its input answers every rearrangement alike), either rule making up what the
    other cannot."""
    if not stdins:
        return []
    digest = hashlib.sha256(f"{seed}\x00".encode() + "\x00".join(stdins).encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    seen, derived = {_tokens(stdin) for stdin in stdins}, []
    for derive, upto in ((_rearranged, (count + 1) // 2), (_lowered, count), (_rearranged, count)):
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
