"""While2For: rewrites counting ``while`` loops as ``for … in range(…)`` where that is provably exact.

Only this shape is touched::

    i = a                    →    for i in range(a, b, s):
    while i < b:                      <body>
        <body>
        i += s

It is exact when ``a`` and ``b`` are provably ints (literals, ``len(…)``, ``int(…)`` and their
arithmetic, or a local name bound only to such values and never inside the loop), ``s`` is a positive
literal whose direction matches the comparison (``<``/``<=`` with ``+=``, ``>``/``>=`` with ``-=``),
the body never rebinds ``i`` nor ``continue``s this loop, and ``i`` is used nowhere else, not even by a
nested function (so its value after the loop, which differs, is never observed).
"""

from __future__ import annotations

import libcst as cst

from mutators.base import Operator, StepContext
from mutators.literals import integer, provably_int
from mutators.scopes import ScopeAnalysis, ScopeKind, Variable, analyze
from mutators.tree import has_statement, iter_children, transform, walk

_INT_CALLS = frozenset({"len", "int"})
_BUILTINS_USED = _INT_CALLS | {"range"}
_UPWARD = {cst.LessThan: 0, cst.LessThanEqual: 1}
_DOWNWARD = {cst.GreaterThan: 0, cst.GreaterThanEqual: -1}


def _continues_this_loop(statements) -> bool:
    """True if a ``continue`` in ``statements`` targets the loop whose body they are."""
    stack = list(statements)
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Continue):
            return True
        if isinstance(node, (cst.For, cst.While)):
            if node.orelse is not None:
                stack.append(node.orelse)
        elif not isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.BaseExpression)):
            stack.extend(iter_children(node))
    return False


def _single_small(statement: cst.CSTNode, kind: type) -> cst.BaseSmallStatement | None:
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, kind):
            return small
    return None


class _Facts:
    def __init__(self, module: cst.Module, analysis: ScopeAnalysis, public_module: bool) -> None:
        self.analysis, self.public_module = analysis, public_module
        self.assigned_value: dict[int, cst.BaseExpression] = {}
        for node in walk(module):
            small = _single_small(node, cst.Assign)
            if small is not None and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                self.assigned_value[id(small.targets[0].target)] = small.value

    def provably_int(self, node: cst.BaseExpression, stable_in=None) -> bool:
        """An int for sure. With ``stable_in=(scope, loop node ids)``: also the same value on every
        evaluation during the loop, so no calls, and names only if bound outside the loop."""
        if stable_in is None:
            return provably_int(node, calls=_INT_CALLS, signed_expressions=True)
        return provably_int(node, name=lambda name: self.stable_int_name(name, *stable_in), signed_expressions=True)

    def stable_int_name(self, node: cst.Name, scope, loop_ids: set[int]) -> bool:
        """A variable of ``scope`` bound only outside the loop, each time to a provably int value."""
        variable = self.analysis.variable_of.get(id(node))
        if variable is None or variable.scope is not scope or not self.private(variable):
            return False
        for occurrence in variable.occurrences:
            if id(occurrence) not in self.analysis.binding_nodes:
                continue
            value = self.assigned_value.get(id(occurrence))
            if (
                value is None
                or id(occurrence) in loop_ids
                or self.analysis.scope_of[id(occurrence)] is not scope
                or not self.provably_int(value)
            ):
                return False
        return True

    def private(self, variable: Variable) -> bool:
        scope = variable.scope
        if scope.dynamic or id(variable) in self.analysis.read_by_name or self.analysis.star_import:
            return False
        return scope.kind != ScopeKind.MODULE or not (self.public_module or scope.dynamic)


class LoopsToFor(cst.CSTTransformer):
    def __init__(self, facts: _Facts) -> None:
        super().__init__()
        self.facts = facts
        self.sites = 0

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        return updated_node.with_changes(body=self.rewrite(original_node.body, updated_node.body))

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock):
        return updated_node.with_changes(body=self.rewrite(original_node.body, updated_node.body))

    def rewrite(self, originals, updated) -> list[cst.BaseStatement]:
        result: list[cst.BaseStatement] = []
        index = 0
        while index < len(updated):
            if index + 1 < len(updated):
                loop = self.convert(originals[index], originals[index + 1], updated[index + 1])
                if loop is not None:
                    result.append(loop.with_changes(leading_lines=updated[index].leading_lines))
                    self.sites += 1
                    index += 2
                    continue
            result.append(updated[index])
            index += 1
        return result

    def convert(self, init_line, original_loop, loop) -> cst.For | None:
        init = _single_small(init_line, cst.Assign)
        if (
            init is None
            or not isinstance(original_loop, cst.While)
            or len(init.targets) != 1
            or not isinstance(init.targets[0].target, cst.Name)
            or not isinstance(original_loop.body, cst.IndentedBlock)
        ):
            return None
        counter = init.targets[0].target
        shape = _loop_shape(original_loop, counter.value)
        if shape is None:
            return None
        bound, stop_adjust, step = shape
        facts = self.facts
        variable = facts.analysis.variable_of.get(id(counter))
        loop_ids = {id(node) for node in walk(original_loop)}
        if variable is None or not facts.private(variable):
            return None
        scope = variable.scope
        for occurrence in variable.occurrences:
            inside = id(occurrence) in loop_ids or occurrence is counter
            if not inside or facts.analysis.scope_of[id(occurrence)] is not scope:
                return None
            rebinds = id(occurrence) in facts.analysis.binding_nodes and occurrence is not counter
            if rebinds and occurrence is not _increment(original_loop).target:
                return None
        if not (
            facts.provably_int(init.value)
            and facts.provably_int(bound, stable_in=(scope, loop_ids))
            and not _continues_this_loop(original_loop.body.body[:-1])
        ):
            return None
        return _for_statement(counter, init.value, loop.test.comparisons[0].comparator, stop_adjust, step, loop)


def _increment(loop: cst.While) -> cst.AugAssign:
    return loop.body.body[-1].body[0]


def _loop_shape(loop: cst.While, counter: str):
    """(bound, stop adjustment, signed step) when ``loop`` counts ``counter`` by a literal step."""
    test = loop.test
    if not (
        isinstance(test, cst.Comparison)
        and not test.lpar
        and isinstance(test.left, cst.Name)
        and test.left.value == counter
        and len(test.comparisons) == 1
        and loop.body.body
    ):
        return None
    move = _single_small(loop.body.body[-1], cst.AugAssign)
    if (
        move is None
        or not isinstance(move.target, cst.Name)
        or move.target.value != counter
        or not isinstance(move.value, cst.Integer)
        or int(move.value.value, 0) <= 0
    ):
        return None
    operator = type(test.comparisons[0].operator)
    step = int(move.value.value, 0)
    if operator in _UPWARD and isinstance(move.operator, cst.AddAssign):
        return test.comparisons[0].comparator, _UPWARD[operator], step
    if operator in _DOWNWARD and isinstance(move.operator, cst.SubtractAssign):
        return test.comparisons[0].comparator, _DOWNWARD[operator], -step
    return None


def _for_statement(counter, start, bound, stop_adjust: int, step: int, loop: cst.While) -> cst.For:
    stop = bound
    if stop_adjust and isinstance(bound, cst.Integer):
        stop = integer(int(bound.value, 0) + stop_adjust)
    elif stop_adjust:
        operator = cst.Add() if stop_adjust > 0 else cst.Subtract()
        stop = cst.BinaryOperation(bound, operator, cst.Integer(str(abs(stop_adjust))))
    args = [start, stop]
    if step != 1:
        args.append(integer(step))
    elif isinstance(start, cst.Integer) and int(start.value, 0) == 0:
        args = [stop]
    body_statements = list(loop.body.body[:-1]) or [cst.SimpleStatementLine([cst.Pass()])]
    return cst.For(
        target=counter,
        iter=cst.Call(cst.Name("range"), [cst.Arg(arg) for arg in args]),
        body=loop.body.with_changes(body=body_statements),
        orelse=loop.orelse,
    )


class While2For(Operator):
    name = "while2for"
    letter = "W"
    title = "While2For"

    def apply(self, module: cst.Module, context: StepContext) -> tuple[cst.Module, int]:
        if not has_statement(module, cst.While):
            return module, 0
        analysis = analyze(module)
        if analysis.bound_names() & _BUILTINS_USED:
            return module, 0
        transformer = LoopsToFor(_Facts(module, analysis, context.interface.module_names_public))
        rewritten = transform(module, transformer)
        return rewritten, transformer.sites
