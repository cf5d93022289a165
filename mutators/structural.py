"""NewOutput's structural edits: a statement's shape changed, not one of its tokens, so that a
translation recalled from memory cannot be patched token by token to the new answers.

Two kinds, drawn by the seed like the token edits of :mod:`mutators.newoutput`:

* a statement added after an assignment to a name (not of a constant, not a ``for`` loop's variable, whose
  change Python's loop forgets and a C-style loop does not): ``total = a + b`` is followed by ``total += 1``
  or ``total -= 1`` on a line of its own; after ``total += x`` or ``total = total + x`` (or ``-``) a step
  the same way, so that a loop's counter is never stepped back;
* a statement added at the start of a function, stepping a parameter: ``n += 1`` or ``n -= 1``;
* a loop's bounds moved: ``for i in range(n)`` → ``range(1, n)``, ``range(a, b)`` → ``range(a + 1, b)``
  or ``range(a, b - 1)``.

As with every NewOutput edit, none has to be proved to matter or to run: a candidate that breaks the
program, or changes no answer, is refused when it runs (:mod:`mutators.output_choice`). A statement is
added only to a program of at least :data:`MIN_LINES` lines, so that the edits together add at most a
fifth to its length.
"""

from __future__ import annotations

import ast
import random
import re

from mutators import thread_safe_ast
from mutators.newoutput import Edit, line_starts

MIN_LINES = 5  # one added line is at most 20% of the program
# how the edits below describe themselves in a document's record (``Edit.what``, joined by ``Edits.what``)
_RECORDED = re.compile(r"(?:^|; )line \d+: (?:added |range\()")


class _Offsets:
    """Character offsets of ``ast`` positions (whose columns count UTF-8 bytes)."""

    def __init__(self, code: str) -> None:
        self.lines = code.splitlines(keepends=True)
        self.starts = line_starts(code)

    def at(self, line: int, column: int) -> int:
        text = self.lines[line - 1].encode()[:column].decode(errors="replace")
        return self.starts[line - 1] + len(text)


def _alone_on_its_lines(node: ast.stmt, offsets: _Offsets) -> bool:
    """Whether the statement starts its line and nothing but a comment follows it on its last line."""
    first, last = offsets.lines[node.lineno - 1], offsets.lines[node.end_lineno - 1]
    before = first.encode()[: node.col_offset].decode(errors="replace")
    after = last.encode()[node.end_col_offset :].decode(errors="replace").strip()
    return not before.strip() and (not after or after.startswith("#"))


def _added_statements(tree: ast.Module, code: str, offsets: _Offsets, rng: random.Random) -> list[Edit]:
    if len(code.splitlines()) < MIN_LINES:
        return []
    loop_variables = {name.id for node in ast.walk(tree) if isinstance(node, (ast.For, ast.comprehension))
                      for name in ast.walk(node.target) if isinstance(name, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and not isinstance(node.value, ast.Constant):
            target, value = node.targets[0], node.value
            stepped = isinstance(value, ast.BinOp) and isinstance(value.left, ast.Name) and \
                isinstance(target, ast.Name) and value.left.id == target.id  # ``i = i + 1`` is a step too
            if stepped and not isinstance(value.op, (ast.Add, ast.Sub)):
                continue
            step = ("+=" if isinstance(value.op, ast.Add) else "-=") if stepped else rng.choice(("+=", "-="))
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Add, ast.Sub)):
            target, step = node.target, "+=" if isinstance(node.op, ast.Add) else "-="
        else:
            continue
        if not isinstance(target, ast.Name) or target.id in loop_variables or not _alone_on_its_lines(node, offsets):
            continue
        line = offsets.lines[node.end_lineno - 1]
        end = offsets.starts[node.end_lineno - 1] + len(line.rstrip("\r\n"))
        first = offsets.lines[node.lineno - 1]
        indent = first[: len(first) - len(first.lstrip())]
        statement = f"{target.id} {step} 1"
        found.append(Edit(end, end, f"\n{indent}{statement}", f"line {node.end_lineno + 1}: added {statement}"))
    return found


def _stepped_parameters(tree: ast.Module, code: str, offsets: _Offsets, rng: random.Random) -> list[Edit]:
    if len(code.splitlines()) < MIN_LINES:
        return []
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = node.body[1:] if isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant) \
            else node.body
        if not body or body[0].lineno == node.lineno or not _alone_on_its_lines(body[0], offsets):
            continue
        first = offsets.lines[body[0].lineno - 1]
        indent = first[: len(first) - len(first.lstrip())]
        for parameter in node.args.posonlyargs + node.args.args:
            statement = f"{parameter.arg} {rng.choice(('+=', '-='))} 1"
            start = offsets.starts[body[0].lineno - 1]
            found.append(Edit(start, start, f"{indent}{statement}\n", f"line {body[0].lineno}: added {statement}"))
    return found


def _moved_bounds(tree: ast.Module, offsets: _Offsets, rng: random.Random) -> list[Edit]:
    found = []
    for node in ast.walk(tree):
        call = node.iter if isinstance(node, ast.For) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "range"
                and 1 <= len(call.args) <= 2 and not call.keywords
                and not any(isinstance(arg, ast.Starred) for arg in call.args)):
            continue
        start = offsets.at(call.args[0].lineno, call.args[0].col_offset)
        end = offsets.at(call.args[-1].end_lineno, call.args[-1].end_col_offset)
        texts = [ast.get_source_segment("".join(offsets.lines), arg) for arg in call.args]
        if any(text is None or "\n" in text for text in texts):
            continue
        if len(texts) == 1:
            moved = f"1, {texts[0]}"
        elif rng.random() < 0.5:
            moved = f"{texts[0]} + 1, {texts[1]}"
        else:
            moved = f"{texts[0]}, {texts[1]} - 1"
        found.append(Edit(start, end, moved, f"line {call.lineno}: range({', '.join(texts)}) -> range({moved})"))
    return found


def structural_edits(code: str, seed: int) -> list[Edit]:
    """Every structural candidate of ``code``, in the seed's order (all kinds shuffled together)."""
    try:
        tree = thread_safe_ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    rng = random.Random(f"{seed}\x00structural\x00{code}")
    offsets = _Offsets(code)
    found = _added_statements(tree, code, offsets, rng) + _stepped_parameters(tree, code, offsets, rng) + \
        _moved_bounds(tree, offsets, rng)
    rng.shuffle(found)
    return found


def has_structural(edit_record: str) -> bool:
    """Whether a document's NewOutput edit record (``mutation["edit"]``) holds a structural edit."""
    return bool(_RECORDED.search(edit_record))


def statement_of(code: str, line: int) -> tuple[int, int] | None:
    """The lines of the innermost statement that holds ``line`` (of a compound statement, its header
    only), or None where no statement does."""
    try:
        tree = thread_safe_ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    best = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        body = getattr(node, "body", None)
        last = max(node.lineno, body[0].lineno - 1) if isinstance(body, list) and body and \
            isinstance(body[0], ast.stmt) else node.end_lineno
        if node.lineno <= line <= last and (best is None or last - node.lineno <= best[1] - best[0]):
            best = (node.lineno, last)
    return best
