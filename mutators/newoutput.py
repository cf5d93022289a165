"""NewOutput: the program gets a small seeded edit that changes what it computes, and the problem a
new answer, computed by running the edited program.

The paper's operators keep every answer, so a model that memorised a problem passes its mutants.
NewOutput changes the answer instead: one local edit, drawn by the seed, of a literal value (an
integer ``n`` → ``n ± 1`` or ``n + 2``, a string with one character changed, ``True`` ↔ ``False``)
or, after those, of an operator (``<`` ↔ ``<=``, ``>`` ↔ ``>=``, ``==`` ↔ ``!=``, ``+`` ↔ ``-``,
``+=`` ↔ ``-=``, a slice's missing bound made ``1`` or ``-1``), and last of a call (``min`` ↔
``max``, ``any`` ↔ ``all``, and methods that take the same arguments: ``.lower()`` ↔ ``.upper()``,
``.find`` ↔ ``.rfind``, ``.startswith`` ↔ ``.endswith``, …). Nothing about an edit has to be
proved safe: the answers are what the edited program itself computes. Choosing the edit runs
programs, so it is not this operator's ``apply`` (which leaves the program as it is) but
:func:`mutators.output_choice.choose_new_outputs`, which keeps the first edit, in the seed's order,
under which the program runs cleanly on every scored input, gives the same answers under two hash
seeds, and changes at least one scored answer.

A translation program takes two edits, one of them structural where it allows one
(:mod:`mutators.structural`, :class:`Edits`).

Edits are made on the program's tokens, not its tree: a candidate is one token replaced (or one
inserted), so making twenty of them costs a tokenisation, where rendering twenty libcst trees would cost most of a cold
build.
"""

from __future__ import annotations

import ast
import io
import random
import string
import tokenize
from dataclasses import dataclass

import libcst as cst

from mutators import thread_safe_ast
from mutators.base import Operator, StepContext


class NewOutput(Operator):
    name = "newoutput"
    letter = "O"
    title = "NewOutput"

    def apply(self, module: cst.Module, context: StepContext) -> tuple[cst.Module, int]:
        return module, 0  # the program stays; choose_new_outputs picks the edit


_SWAPPED_OPERATORS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "+": "-", "-": "+",
                      "+=": "-=", "-=": "+="}
_SWAPPED_NAMES = {"True": "False", "False": "True"}
# Built-ins and methods that take the same arguments and mean something close but different.
_SWAPPED_CALLS = {"min": "max", "max": "min", "any": "all", "all": "any"}
_SWAPPED_METHODS = {name: other for pair in (
    ("lower", "upper"), ("lstrip", "rstrip"), ("startswith", "endswith"), ("find", "rfind"), ("index", "rindex"),
    ("ljust", "rjust"), ("islower", "isupper"), ("isdigit", "isalpha"), ("isdecimal", "isalpha"),
    ("isalnum", "isalpha"), ("title", "capitalize"), ("split", "rsplit"), ("partition", "rpartition"),
    ("removeprefix", "removesuffix"), ("isascii", "isprintable"), ("splitlines", "split"), ("clear", "copy"),
) for name, other in (pair, pair[::-1])}
_LETTERS = string.ascii_lowercase
_FSTRING_START, _FSTRING_END = getattr(tokenize, "FSTRING_START", -1), getattr(tokenize, "FSTRING_END", -1)


@dataclass(frozen=True)
class Edit:
    """One candidate: the token at ``start`` to ``end`` (character offsets) spelled ``text``; ``what``
    says it for the record, e.g. ``line 3: 5 -> 6``."""

    start: int
    end: int
    text: str
    what: str

    def apply(self, code: str) -> str:
        return code[: self.start] + self.text + code[self.end :]

    @property
    def steps(self) -> tuple[Edit, ...]:
        return (self,)

    def line(self, code: str) -> int:
        """The line of the edited program (``self.apply(code)``) that the edit's text starts on, added lines'
        leading newline aside."""
        return code.count("\n", 0, self.start) + 1 + (len(self.text) - len(self.text.lstrip("\n")))

    def without(self, earlier: Edit) -> Edit:
        """This edit, made to the program ``earlier`` left, as it would be made to the program before it
        (the two do not overlap)."""
        if self.start < earlier.start + len(earlier.text):
            return self
        shift = len(earlier.text) - (earlier.end - earlier.start)
        return Edit(self.start - shift, self.end - shift, self.text, self.what)


@dataclass(frozen=True)
class Edits:
    """Edits made one after another, each at offsets of the program the ones before it left."""

    steps: tuple[Edit, ...]

    def apply(self, code: str) -> str:
        for step in self.steps:
            code = step.apply(code)
        return code

    @property
    def what(self) -> str:
        return "; ".join(step.what for step in self.steps)


def line_starts(code: str) -> list[int]:
    """The character offset at which each line of ``code`` starts, then the length of ``code``."""
    starts, position = [0], 0
    for line in code.splitlines(keepends=True):
        position += len(line)
        starts.append(position)
    return starts


def _new_integer(value: int, rng: random.Random) -> int:
    return value + rng.choice((1, -1, 2)) if value > 1 else value + 1


def _new_string(value: str, rng: random.Random) -> str:
    if not value:
        return rng.choice(_LETTERS)
    index = rng.randrange(len(value))
    old = value[index]
    pool = [c for c in (_LETTERS if not old.isdigit() else string.digits) if c != old.lower()]
    return value[:index] + rng.choice(pool) + value[index + 1 :]


def _literal_edit(token: tokenize.TokenInfo, rng: random.Random) -> str | None:
    """The new spelling of a literal token, or None if it is not one NewOutput edits."""
    if token.type == tokenize.NAME:
        return _SWAPPED_NAMES.get(token.string)
    try:
        value = thread_safe_ast.literal_eval(token.string)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None  # f-strings and the like
    if token.type == tokenize.NUMBER and type(value) is int:
        return str(_new_integer(value, rng))
    if token.type == tokenize.STRING and type(value) is str and len(value) <= 200:
        return repr(_new_string(value, rng))
    return None


def _docstring_tokens(code: str) -> set[tuple[int, int]]:
    """Start positions of docstrings: editing one changes no answer, so it would waste a candidate."""
    try:
        tree = thread_safe_ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add((first.lineno, first.col_offset))
    return found


# A slice's missing bound made explicit: ``s[:…]`` → ``s[1:…]``, ``s[…:]`` → ``s[…:-1]``.
_OPEN_SLICE_BOUNDS = {("[", ":"): "1", (":", "]"): "-1"}


@dataclass(frozen=True)
class _Gap:
    """The empty place between two tokens, where an edit inserts text."""

    start: tuple[int, int]
    end: tuple[int, int]
    string: str = ""


_SHARES = (2, 1, 1)  # literal edits, operator edits, swapped calls: literals are the core


def _interleaved(groups: list[list], shares: tuple[int, ...]) -> list:
    """The groups' items taken in turns, ``shares[i]`` at a time from group ``i``, until all are used."""
    taken, positions = [], [0] * len(groups)
    while any(position < len(group) for position, group in zip(positions, groups, strict=True)):
        for index, (group, share) in enumerate(zip(groups, shares, strict=True)):
            taken += group[positions[index] : positions[index] + share]
            positions[index] += share
    return taken


def edits(code: str, seed: int, count: int) -> list[Edit]:
    """Up to ``count`` candidate edits of ``code`` in the seed's order: literal edits, operator edits
    and swapped calls, each group shuffled, taken in turns (two literal edits for each of the others).
    A token swapped for one of its own kind keeps the program compiling; an edit that breaks it
    anyway fails when it runs, like any other edit that breaks the program."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    rng = random.Random(f"{seed}\x00newoutput\x00{code}")
    starts, docstrings = line_starts(code), _docstring_tokens(code)
    literals, operators, calls = [], [], []
    inside_fstring, previous = 0, None
    for token, following in zip(tokens, [*tokens[1:], None], strict=True):
        # Python 3.12 splits f-strings into tokens; earlier versions keep them whole (and skip them below).
        inside_fstring += (token.type == _FSTRING_START) - (token.type == _FSTRING_END)
        called = following is not None and following.string == "("
        if inside_fstring or token.start in docstrings:
            pass
        elif token.type == tokenize.OP and token.string in "[:" and following is not None and \
                (token.string, following.string) in _OPEN_SLICE_BOUNDS:
            operators.append((_Gap(token.end, following.start), _OPEN_SLICE_BOUNDS[token.string, following.string]))
        elif token.type == tokenize.OP and token.string in _SWAPPED_OPERATORS:
            operators.append((token, _SWAPPED_OPERATORS[token.string]))
        elif token.type == tokenize.NAME and called and previous is not None and previous.string == "." \
                and token.string in _SWAPPED_METHODS:
            calls.append((token, _SWAPPED_METHODS[token.string]))
        elif token.type == tokenize.NAME and called and (previous is None or previous.string != ".") \
                and token.string in _SWAPPED_CALLS:
            calls.append((token, _SWAPPED_CALLS[token.string]))
        elif token.type in (tokenize.NUMBER, tokenize.STRING, tokenize.NAME):
            replacement = _literal_edit(token, rng)
            if replacement is not None:
                literals.append((token, replacement))
        previous = token
    for group in (literals, operators, calls):
        rng.shuffle(group)
    chosen = []
    for token, replacement in _interleaved([literals, operators, calls], _SHARES):
        if len(chosen) >= count:
            break
        (row, column), (end_row, end_column) = token.start, token.end
        shown = f"{token.string} -> {replacement}" if token.string else f"insert {replacement}"
        chosen.append(Edit(starts[row - 1] + column, starts[end_row - 1] + end_column, replacement,
                           f"line {row}: {shown}"))
    return chosen
