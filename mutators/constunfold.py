"""ConstUnfold: rewrites every integer literal as arithmetic of equal value, ``5`` → ``7 - 2``.

One operand is a random offset ``k`` in ``1..max_offset`` (default 10; CRUXEval's own construction
kept one operand ≤ 3, which ``max_offset=3`` reproduces). ``n ≥ 0`` becomes ``(n + k) - k`` or, when
``n ≥ k``, ``(n - k) + k``; a negated literal ``-n`` becomes ``k - (k + n)``. Parentheses are added
where precedence needs them (``2 ** -1`` → ``2 ** (3 - 4)``, ``x / 4`` → ``x / (9 - 5)``). Literals in
annotations, ``match`` patterns, f-string format specs and ``f"{…=}"`` fields stay.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import libcst as cst

from mutators.base import Operator, StepContext
from mutators.literals import integer
from mutators.tree import transform
from mutators.verbatim import SkipVerbatim

_TIGHT_BINARY = (cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.MatrixMultiply, cst.Power)


class UnfoldIntegers(SkipVerbatim):
    def __init__(self, rng: random.Random, max_offset: int) -> None:
        super().__init__()
        self.rng, self.max_offset = rng, max_offset
        self.tight: set[int] = set()  # ids of operands where an additive expression needs parentheses
        self.sites = 0

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, _TIGHT_BINARY):
            self.tight.update((id(node.left), id(node.right)))
        elif isinstance(node.operator, (cst.Add, cst.Subtract)):
            self.tight.add(id(node.right))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.tight.add(id(node.value))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        self.tight.add(id(node.value))

    def visit_Call(self, node: cst.Call) -> None:
        self.tight.add(id(node.func))

    def unfold(self, value: int, node: cst.BaseExpression) -> cst.BaseExpression:
        k = self.rng.randint(1, self.max_offset)
        if value < 0:
            left, operator, right = k, cst.Subtract(), k - value
        elif value >= k and self.rng.random() < 0.5:
            left, operator, right = value - k, cst.Add(), k
        else:
            left, operator, right = value + k, cst.Subtract(), k
        self.sites += 1
        parens = {}
        if node.lpar:
            parens = {"lpar": node.lpar, "rpar": node.rpar}
        elif id(node) in self.tight:
            parens = {"lpar": [cst.LeftParen()], "rpar": [cst.RightParen()]}
        return cst.BinaryOperation(integer(left), operator, integer(right), **parens)

    @staticmethod
    def _negated_literal(node: cst.UnaryOperation) -> bool:
        operand = node.expression
        return isinstance(node.operator, cst.Minus) and type(operand) is cst.Integer and not operand.lpar

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> bool:
        self.tight.add(id(node.expression))
        return not self._negated_literal(node)

    def leave_UnaryOperation(
        self, original_node: cst.UnaryOperation, updated_node: cst.UnaryOperation
    ) -> cst.BaseExpression:
        if not self._negated_literal(original_node):
            return updated_node
        return self.unfold(-int(original_node.expression.value, 0), original_node)

    def leave_Integer(self, original_node: cst.Integer, updated_node: cst.Integer) -> cst.BaseExpression:
        return self.unfold(int(original_node.value, 0), original_node)


class ConstUnfold(Operator):
    name = "constunfold"
    letter = "U"
    title = "ConstUnfold"
    option_defaults: ClassVar[Mapping[str, Any]] = {"max_offset": 10}
    option_minimums: ClassVar[Mapping[str, int]] = {"max_offset": 1}

    def apply(self, module: cst.Module, context: StepContext) -> tuple[cst.Module, int]:
        max_offset = int(self.option(context, "max_offset"))
        transformer = UnfoldIntegers(context.rng, max_offset)
        rewritten = transform(module, transformer)
        return rewritten, transformer.sites
