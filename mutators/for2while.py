"""For2While: rewrites every ``for`` statement as an equivalent ``while`` statement.

``for i in range(a, b, s)`` with arguments that are provably ints and a literal step becomes a hidden
counter::

    _i = a
    _stop = b
    while _i < _stop:
        i = _i
        _i += s
        <body>

The counter moves before the body runs, so ``continue`` and rebinding ``i`` in the body behave as in
the ``for``; ``b`` is evaluated once; ``i`` keeps its last value after the loop. Any other iterable
(dict, set, zip, generator, str, …) goes through the iterator protocol exactly as ``for`` does::

    _it = iter(xs)
    while True:
        try:
            x = next(_it)
        except StopIteration:
            break
        <body>

A loop with an ``else`` clause, or whose target is an attribute or subscript (whose assignment must
not sit inside the ``try``), uses ``while (_item := next(_it, _done)) is not _done:`` with a fresh
``_done = object()``, so ``while … else`` carries the ``else`` over unchanged. ``async for`` and loops
directly in a class body (where temporaries would become class attributes) are left alone, as is
every loop of a program that rebinds a builtin the rewrite calls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import libcst as cst

from mutators.base import Operator, StepContext
from mutators.literals import literal_int, provably_int
from mutators.names import NamePool
from mutators.scopes import analyze
from mutators.tree import has_statement, transform

_BUILTINS_USED = frozenset({"range", "len", "iter", "next", "object", "StopIteration"})
_RANGE_BOUND_CALLS = frozenset({"len"})


def _line(small: cst.BaseSmallStatement) -> cst.SimpleStatementLine:
    return cst.SimpleStatementLine([small])


def _assign(target: cst.BaseAssignTargetExpression, value: cst.BaseExpression) -> cst.SimpleStatementLine:
    return _line(cst.Assign([cst.AssignTarget(target)], value))


def _call(function: str, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.Name(function), [cst.Arg(_parenthesized_tuple(arg)) for arg in args])


def _parenthesized_tuple(node: cst.BaseExpression) -> cst.BaseExpression:
    """``for x in a, b:`` iterates a bare tuple; as a call argument it needs its parentheses."""
    if isinstance(node, cst.Tuple) and not node.lpar:
        return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return node


def _block_statements(body: cst.BaseSuite) -> list[cst.BaseStatement]:
    if isinstance(body, cst.SimpleStatementSuite):
        return [cst.SimpleStatementLine(body.body, trailing_whitespace=body.trailing_whitespace)]
    return list(body.body)


def _with_body(body: cst.BaseSuite, prefix: Sequence[cst.BaseStatement]) -> cst.IndentedBlock:
    statements = list(prefix) + _block_statements(body)
    if isinstance(body, cst.IndentedBlock):
        return body.with_changes(body=statements)
    return cst.IndentedBlock(statements)


@dataclass
class _LoopPlan:
    """How one ``for`` is rewritten, chosen when it is first visited: ``build(loop, temporaries, *extra)``."""

    build: Callable[..., list[cst.BaseStatement]]
    extra: tuple
    temporaries: list[cst.Name]


class LoopsToWhile(cst.CSTTransformer):
    def __init__(self, pool: NamePool) -> None:
        super().__init__()
        self.pool = pool
        self.enclosing: list[str] = []
        self.plans: dict[int, _LoopPlan] = {}  # by id(For)
        self.sites = 0

    # Statements only: no ``for`` statement can sit inside an expression or a simple statement.
    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.BaseExpression, cst.SimpleStatementLine)):
            return False
        return super().on_visit(node)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.enclosing.append("class")

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef) -> cst.ClassDef:
        self.enclosing.pop()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.enclosing.append("function")

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self.enclosing.pop()
        return updated_node

    def visit_For(self, node: cst.For) -> None:
        """Choose the loop's form and its temporaries here, so outer loops are numbered first."""
        if node.asynchronous is not None or (self.enclosing and self.enclosing[-1] == "class"):
            return
        counted = self._range_bounds(node.iter)
        if counted is not None:
            names = ["_i"] + (["_stop"] if literal_int(counted[1]) is None else [])
            build, extra = self._counter_loop, counted
        elif node.orelse is None and _simple_target(node.target):
            names, build, extra = ["_it"], self._try_loop, ()
        else:
            names, build, extra = ["_it", "_done", "_item"], self._sentinel_loop, ()
        self.plans[id(node)] = _LoopPlan(build, extra, [cst.Name(self.pool.fresh(name)) for name in names])

    def leave_For(self, original_node: cst.For, updated_node: cst.For):
        plan = self.plans.get(id(original_node))
        if plan is None:
            return updated_node
        statements = plan.build(updated_node, plan.temporaries, *plan.extra)
        self.sites += 1
        statements[0] = statements[0].with_changes(leading_lines=updated_node.leading_lines)
        return cst.FlattenSentinel(statements)

    # ------------------------------------------------------------------ range loops
    def _range_bounds(self, iterable: cst.BaseExpression):
        """(start, stop, step) of a ``range`` call the counter form reproduces exactly, else None."""
        if not (
            isinstance(iterable, cst.Call)
            and isinstance(iterable.func, cst.Name)
            and iterable.func.value == "range"
            and 1 <= len(iterable.args) <= 3
            and all(arg.keyword is None and not arg.star for arg in iterable.args)
        ):
            return None
        values = [arg.value for arg in iterable.args]
        step = 1
        if len(values) == 3:
            step = literal_int(values[2])
            if not step:
                return None
        bounds = values[:2] if len(values) > 1 else [cst.Integer("0"), values[0]]
        if not all(provably_int(bound, calls=_RANGE_BOUND_CALLS) for bound in bounds):
            return None
        return bounds[0], bounds[1], step

    def _counter_loop(self, loop: cst.For, names, start, stop, step: int) -> list[cst.BaseStatement]:
        counter = names[0]
        statements: list[cst.BaseStatement] = [_assign(counter, start)]
        if len(names) > 1:
            limit = names[1]
            statements.append(_assign(limit, stop))
        else:
            limit = stop
        compare = cst.LessThan() if step > 0 else cst.GreaterThan()
        test = cst.Comparison(counter, [cst.ComparisonTarget(compare, limit)])
        move = cst.AugAssign(
            counter, cst.AddAssign() if step > 0 else cst.SubtractAssign(), cst.Integer(str(abs(step)))
        )
        body = _with_body(loop.body, [_assign(loop.target, counter), _line(move)])
        statements.append(cst.While(test, body, loop.orelse))
        return statements

    # ------------------------------------------------------------------ iterator loops
    def _try_loop(self, loop: cst.For, names) -> list[cst.BaseStatement]:
        (iterator,) = names
        fetch = cst.Try(
            cst.IndentedBlock([_assign(loop.target, _call("next", iterator))]),
            handlers=[
                cst.ExceptHandler(cst.IndentedBlock([_line(cst.Break())]), type=cst.Name("StopIteration"))
            ],
        )
        return [
            _assign(iterator, _call("iter", loop.iter)),
            cst.While(cst.Name("True"), _with_body(loop.body, [fetch])),
        ]

    def _sentinel_loop(self, loop: cst.For, names) -> list[cst.BaseStatement]:
        iterator, done, item = names
        fetch = cst.NamedExpr(
            item,
            _call("next", iterator, done),
            lpar=[cst.LeftParen()],
            rpar=[cst.RightParen()],
        )
        test = cst.Comparison(fetch, [cst.ComparisonTarget(cst.IsNot(), done)])
        return [
            _assign(iterator, _call("iter", loop.iter)),
            _assign(done, _call("object")),
            cst.While(test, _with_body(loop.body, [_assign(loop.target, item)]), loop.orelse),
        ]


def _simple_target(target: cst.BaseExpression) -> bool:
    """Names, possibly unpacked: assigning them can raise nothing a ``try`` could confuse."""
    if isinstance(target, cst.Name):
        return True
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(_simple_target(element.value) for element in target.elements)
    if isinstance(target, cst.StarredElement):
        return _simple_target(target.value)
    return False


class For2While(Operator):
    name = "for2while"
    letter = "F"
    title = "For2While"

    def apply(self, module: cst.Module, context: StepContext) -> tuple[cst.Module, int]:
        if not has_statement(module, cst.For):
            return module, 0
        analysis = analyze(module)
        if analysis.star_import or analysis.bound_names() & _BUILTINS_USED:
            return module, 0
        transformer = LoopsToWhile(NamePool(analysis.all_identifiers))
        rewritten = transform(module, transformer)
        return rewritten, transformer.sites
