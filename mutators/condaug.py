"""CondAug: adds a tautology to every condition, ``if C`` → ``if C and ((8 > 6) or (8 < 6))``.

Conditions are the tests of ``if``/``elif``/``while``, conditional expressions, comprehension filters,
``assert`` and ``match`` guards; value-producing boolean expressions are never touched. Each site draws its form from
the step's seeded stream: ``C and <always true>`` or ``C or <always false>``, with random small
operands. ``C`` is parenthesised when precedence demands it (``(not a or b) and …``, ``(p := x) and …``).
Truthiness is tested once either way, so the branch taken never changes.
"""

from __future__ import annotations

import random

import libcst as cst

from mutators.base import Operator, StepContext
from mutators.tree import transform
from mutators.verbatim import SkipVerbatim


def _compare(left: int, operator: cst.BaseCompOp, right: int) -> cst.Comparison:
    return cst.Comparison(cst.Integer(str(left)), [cst.ComparisonTarget(operator, cst.Integer(str(right)))])


def _paren(node: cst.BaseExpression) -> cst.BaseExpression:
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _two_distinct(rng: random.Random) -> tuple[int, int]:
    high = rng.randint(2, 9)
    return high, rng.randint(1, high - 1)


def _always_true(rng: random.Random) -> cst.BaseExpression:
    form = rng.randrange(3)
    high, low = _two_distinct(rng)
    if form == 0:  # ((8 > 6) or (8 < 6)), the paper's example
        either = cst.BooleanOperation(
            _paren(_compare(high, cst.GreaterThan(), low)), cst.Or(), _paren(_compare(high, cst.LessThan(), low))
        )
        return _paren(either)
    if form == 1:
        return _paren(_compare(high, cst.GreaterThan(), low))
    return cst.Name("True")


def _always_false(rng: random.Random) -> cst.BaseExpression:
    form = rng.randrange(3)
    high, low = _two_distinct(rng)
    if form == 0:
        both = cst.BooleanOperation(
            _paren(_compare(high, cst.LessThan(), low)), cst.And(), _paren(_compare(high, cst.Equal(), low))
        )
        return _paren(both)
    if form == 1:
        return _paren(_compare(low, cst.GreaterThan(), high))
    return cst.Name("False")


def _binds_looser_than(condition: cst.BaseExpression, operator: cst.BaseBooleanOp) -> bool:
    if condition.lpar:
        return False
    if isinstance(condition, (cst.IfExp, cst.Lambda, cst.NamedExpr)):
        return True
    return isinstance(operator, cst.And) and isinstance(condition, cst.BooleanOperation) and isinstance(
        condition.operator, cst.Or
    )


class AugmentConditions(SkipVerbatim):
    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng
        self.sites = 0

    def augment(self, updated: cst.CSTNode, field: str = "test") -> cst.CSTNode:
        self.sites += 1
        condition = getattr(updated, field)
        if self.rng.random() < 0.5:
            operator, extra = cst.And(), _always_true(self.rng)
        else:
            operator, extra = cst.Or(), _always_false(self.rng)
        if _binds_looser_than(condition, operator):
            condition = _paren(condition)
        return updated.with_changes(**{field: cst.BooleanOperation(condition, operator, extra)})

    def leave_If(self, original_node: cst.If, updated_node: cst.If) -> cst.If:
        return self.augment(updated_node)

    def leave_While(self, original_node: cst.While, updated_node: cst.While) -> cst.While:
        return self.augment(updated_node)

    def leave_IfExp(self, original_node: cst.IfExp, updated_node: cst.IfExp) -> cst.IfExp:
        return self.augment(updated_node)

    def leave_CompIf(self, original_node: cst.CompIf, updated_node: cst.CompIf) -> cst.CompIf:
        return self.augment(updated_node)

    def leave_Assert(self, original_node: cst.Assert, updated_node: cst.Assert) -> cst.Assert:
        return self.augment(updated_node)

    def leave_MatchCase(self, original_node: cst.MatchCase, updated_node: cst.MatchCase) -> cst.MatchCase:
        if updated_node.guard is None:
            return updated_node
        return self.augment(updated_node, field="guard")


class CondAug(Operator):
    name = "condaug"
    letter = "A"
    title = "CondAug"

    def apply(self, module: cst.Module, context: StepContext) -> tuple[cst.Module, int]:
        transformer = AugmentConditions(context.rng)
        rewritten = transform(module, transformer)
        return rewritten, transformer.sites
