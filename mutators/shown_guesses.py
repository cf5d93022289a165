"""Answers a model can write from a shown CRUXEval problem without running its program.

A model that cannot work a program out still writes something, and what it writes is often had from
the text in front of it: an argument of the call copied back, a literal printed in the program, the
length of a shown list or string, two shown arguments joined. A published output that is one of these
is no evidence of memory when a model writes it (an honest guess lands there), and a decoy that is
one of these would draw guesses the stale answer does not: the decoy rules of
:mod:`mutators.input_choice` leave both out (docs/detect.md, the control).
"""

from __future__ import annotations

import ast
import itertools

from mutators import thread_safe_ast
from mutators.perturb import parse_arguments

_SIZED = (str, bytes, list, tuple, dict, set, frozenset)
_JOINED = (int, float, str, bytes, list, tuple)  # types whose ``a + b`` a model writes by joining the text


def program_literals(code: str) -> list[object]:
    """Every literal the program spells: constants, signed numbers, literal lists, tuples, sets, dicts."""
    try:
        tree = thread_safe_ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Constant, ast.UnaryOp, ast.List, ast.Tuple, ast.Set, ast.Dict)):
            try:
                found.append(thread_safe_ast.literal_eval(node))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
    return found


def call_values(arguments: str) -> list[object]:
    """The values of a call's arguments, positional then keyword; none where it does not parse."""
    parsed = parse_arguments(arguments)
    return [*parsed[0], *parsed[1].values()] if parsed else []


def copied(arguments: str, value) -> bool:
    """Whether ``value`` is one of the call's arguments: an answer had by copying from the call."""
    return among(value, call_values(arguments))


def shown_guesses(code: str, arguments: str) -> list[object]:
    """The values one step from the shown text: each argument of the call, its length, two arguments
    of one type joined (``a + b``, dicts merged), and each literal of the program."""
    values = call_values(arguments)
    guesses = [*values, *(len(value) for value in values if isinstance(value, _SIZED))]
    for first, second in itertools.permutations(values, 2):
        if type(first) is not type(second):
            continue
        if isinstance(first, dict):
            guesses.append({**first, **second})
        elif isinstance(first, _JOINED) and not isinstance(first, bool):
            guesses.append(first + second)
    return guesses + program_literals(code)


def guessed_from_shown(code: str, arguments: str, value) -> bool:
    """Whether ``value`` is one of :func:`shown_guesses` (equal, and of the same type)."""
    return among(value, shown_guesses(code, arguments))


def among(value, candidates: list[object]) -> bool:
    """Whether ``value`` is one of ``candidates`` (equal, and of the same type)."""
    return any(type(candidate) is type(value) and candidate == value for candidate in candidates)
