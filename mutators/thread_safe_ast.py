"""``ast.parse`` and ``ast.literal_eval`` that another thread cannot make fail.

CPython 3.11 keeps the depth counter of the code that turns a parse into Python objects in the
interpreter, not in the call (python/cpython#106905). When a thread switch lands inside that code (a
garbage collection running a finaliser is enough) and another thread parses meanwhile, either parse
can end in ``SystemError: AST constructor recursion depth mismatch``: a crash, or a different
document if a caller took the error for "not a literal". Our own parses take one lock, so they never
overlap; a parse that a thread outside it (a user's, a library's) upset is retried, and each retry
starts the counter afresh."""

from __future__ import annotations

import ast
import threading

_ONE_AT_A_TIME = threading.Lock()
_TRIES = 100  # a mismatch needs another thread mid-parse at that very moment; this many in a row is no race


def parse(source: str, mode: str = "exec") -> ast.AST:
    """``ast.parse(source, mode=mode)``."""
    with _ONE_AT_A_TIME:
        for _ in range(_TRIES - 1):
            try:
                return ast.parse(source, mode=mode)
            except SystemError:
                continue
        return ast.parse(source, mode=mode)


def literal_eval(text: str):
    """``ast.literal_eval(text)``, with its errors for text that is no literal."""
    if not isinstance(text, str):
        return ast.literal_eval(text)
    return ast.literal_eval(parse(text.lstrip(" \t"), mode="eval"))
