"""Stdin tests beyond the published ones, derived from them, so that a program that ignores its input
cannot pass a translation task with one published test (CodeNet has one per program). A derived input
rearranges a published one and invents no value: every number and character in it is one the
published input holds, so its values stay within the published ranges and its shape (lines, tokens per
line, lengths) is the published one. Only what a problem statement rarely constrains is rearranged:

* the numbers of an array: a line of three or more numbers whose count is the first number of the line
  just before it, where that line is the input's first or holds that number alone (``5`` then
  ``1 2 3 4 5``), and which is no line of a run of lines of its length (edges, queries);
* the letters of a word alone on its line that appears nowhere else in the input (a name, not a
  reference to one), and the digits of a digit string of ten or more alone on its line (longer than
  any bounded number).

Sizes, counts, pairs (``l r``, an edge ``a b`` where ``a < b``), times and the order of lines (operations
in sequence) stay as published: on Avatar, whose reference Java checks it (``scripts/derived_agreement.py``),
rearranging them made inputs the problem does not allow. A derived input the program fails on, is slow on
or answers differently under two hash seeds is not kept (:mod:`mutators.output_choice`), nor, where the
benchmark publishes its own program in the target language, one on which that program disagrees.
"""

from __future__ import annotations

import hashlib
import random

DERIVED_TESTS = 4  # derived inputs asked for per program
_TRIES = 4  # shuffles per derived input asked for, before it is given up
_LONG_DIGITS = 10  # a digit string this long is no bounded number


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


def derived_stdins(stdins: list[str], seed: int, count: int = DERIVED_TESTS) -> list[str]:
    """Up to ``count`` new inputs rearranged from ``stdins`` (taken in turn), none equal to a published
    one or to each other; the same for the same seed and inputs."""
    if not stdins:
        return []
    digest = hashlib.sha256(f"{seed}\x00".encode() + "\x00".join(stdins).encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    seen, derived = {_tokens(stdin) for stdin in stdins}, []
    for attempt in range(count * _TRIES):
        if len(derived) == count:
            break
        candidate = _rearranged(stdins[attempt % len(stdins)], rng)
        if _tokens(candidate) not in seen:
            seen.add(_tokens(candidate))
            derived.append(candidate)
    return derived


def _tokens(stdin: str) -> tuple:
    return tuple(tuple(line.split()) for line in stdin.split("\n"))
