"""Integer literals as operators build and recognise them."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

_INT_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)


def integer(value: int) -> cst.BaseExpression:
    """``5`` or ``-5`` as an expression node."""
    literal = cst.Integer(str(abs(value)))
    return literal if value >= 0 else cst.UnaryOperation(cst.Minus(), literal)


def literal_int(node: cst.BaseExpression) -> int | None:
    """The value of ``5``, ``-5`` or ``+5``; None for anything else."""
    if isinstance(node, cst.Integer):
        return int(node.value, 0)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.expression, cst.Integer):
        value = int(node.expression.value, 0)
        if isinstance(node.operator, cst.Minus):
            return -value
        if isinstance(node.operator, cst.Plus):
            return value
    return None


def provably_int(
    node: cst.BaseExpression,
    *,
    calls: frozenset[str] = frozenset(),
    name: Callable[[cst.Name], bool] | None = None,
    signed_expressions: bool = False,
) -> bool:
    """An int for sure: integer literals and their ``+ - * // %`` arithmetic, single-argument calls of
    the builtins in ``calls`` (the caller makes sure the program does not rebind them), names that
    ``name`` vouches for, and a sign in front of a literal (of any such expression with
    ``signed_expressions``)."""

    def check(expression: cst.BaseExpression) -> bool:
        if isinstance(expression, cst.Integer):
            return True
        if isinstance(expression, cst.UnaryOperation) and isinstance(expression.operator, (cst.Minus, cst.Plus)):
            inner = expression.expression
            return check(inner) if signed_expressions else isinstance(inner, cst.Integer)
        if isinstance(expression, cst.BinaryOperation):
            return isinstance(expression.operator, _INT_ARITHMETIC) and check(expression.left) and check(
                expression.right)
        if isinstance(expression, cst.Name):
            return name is not None and name(expression)
        return (
            isinstance(expression, cst.Call)
            and isinstance(expression.func, cst.Name)
            and expression.func.value in calls
            and len(expression.args) == 1
            and expression.args[0].keyword is None
            and not expression.args[0].star
        )

    return check(node)
