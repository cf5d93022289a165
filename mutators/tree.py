"""Fast traversal of libcst trees.

libcst's own driver (``module.visit(transformer)``) rebuilds every node it passes, so each pass costs
more than parsing the program. Here the same transformers run through :func:`transform`, which calls
the same ``on_visit``/``on_leave`` hooks in the same order but walks only the syntactic fields and
rebuilds only the nodes on the path to a change. Read-only analyses use :func:`iter_children`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import libcst as cst

_TOKEN_FIELDS = frozenset(
    {
        "lpar", "rpar", "lbracket", "rbracket", "lbrace", "rbrace", "comma", "semicolon", "colon",
        "equal", "dot", "star", "operator", "relative", "header", "footer", "leading_lines",
        "lines_after_decorators", "empty_lines", "indent", "newline", "trailing_whitespace",
        "leading_whitespace", "first_line_whitespace", "asynchronous", "conversion", "first_colon",
        "second_colon", "first_line", "last_line", "trailing_comma", "separator", "posonly_ind", "comment",
        "start", "end",
    }
)

# Where the dataclass declares fields in another order than the source spells them.
_SOURCE_ORDER = {
    "Arg": ("keyword", "value"),
    "ClassDef": ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
    "ExceptHandler": ("type", "name", "body"),
    "ExceptStarHandler": ("type", "name", "body"),
    "FunctionDef": ("decorators", "name", "type_parameters", "params", "returns", "body"),
    "IfExp": ("body", "test", "orelse"),
    "MatchCase": ("pattern", "guard", "body"),
    "Parameters": ("posonly_params", "params", "star_arg", "kwonly_params", "star_kwarg"),
    "TypeAlias": ("name", "type_parameters", "value"),
}

_fields_by_type: dict[type, tuple[str, ...]] = {}


def _child_fields(node_type: type) -> tuple[str, ...]:
    fields = _fields_by_type.get(node_type)
    if fields is None:
        fields = _SOURCE_ORDER.get(node_type.__name__) or tuple(
            f.name
            for f in dataclasses.fields(node_type)
            if f.name not in _TOKEN_FIELDS and not f.name.startswith("whitespace")
        )
        _fields_by_type[node_type] = fields
    return fields


_is_node_by_type: dict[type, bool] = {}


def _is_node(value: object) -> bool:
    kind = type(value)
    known = _is_node_by_type.get(kind)
    if known is None:
        known = _is_node_by_type[kind] = issubclass(kind, cst.CSTNode)
    return known


def iter_children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Yield the syntactic children of ``node`` in source order (no whitespace or tokens)."""
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if type(value) is tuple or type(value) is list:
            for item in value:
                if _is_node(item):
                    yield item
        elif _is_node(value):
            yield value


def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``node`` and every syntactic node below it (depth first, children in reverse order)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(iter_children(current))


def has_statement(module: cst.Module, kind: type) -> bool:
    """Whether a statement of type ``kind`` occurs anywhere; expressions are not searched."""
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        if type(node) is kind:
            return True
        if not isinstance(node, (cst.BaseExpression, cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            stack.extend(iter_children(node))
    return False


_all_fields_by_type: dict[type, tuple[str, ...]] = {}
_hooks_by_type: dict[tuple[type, type], tuple] = {}


def _replaced(node: cst.CSTNode, changes: dict) -> cst.CSTNode:
    """``node.with_changes(**changes)`` without re-validating: every new child came from a
    transformer that built it with libcst's validating constructors."""
    kind = type(node)
    names = _all_fields_by_type.get(kind)
    if names is None:
        names = _all_fields_by_type[kind] = tuple(f.name for f in dataclasses.fields(kind))
    new = object.__new__(kind)
    for name in names:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(node, name))
    return new


def _hooks(transformer: cst.CSTTransformer, node_type: type) -> tuple:
    """The (visit, leave) callables ``on_visit``/``on_leave`` would dispatch to for ``node_type``."""
    key = (type(transformer), node_type)
    hooks = _hooks_by_type.get(key)
    if hooks is None:
        cls = type(transformer)
        visit = getattr(cls, "visit_" + node_type.__name__, None)
        leave = getattr(cls, "leave_" + node_type.__name__, None)
        if cls.on_visit is not cst.CSTTransformer.on_visit:
            visit = cls.on_visit
        if cls.on_leave is not cst.CSTTransformer.on_leave:
            leave = cls.on_leave
        hooks = _hooks_by_type[key] = (visit, leave)
    return hooks


def transform(node: cst.CSTNode, transformer: cst.CSTTransformer):
    """``node.visit(transformer)`` for transformers that only rewrite syntactic nodes.

    Token and whitespace nodes are neither visited nor rebuilt; every other node gets exactly the
    hook calls libcst's driver makes, with the original nodes, in source order.
    """
    visit, leave = _hooks(transformer, type(node))
    if visit is not None and visit(transformer, node) is False:
        return node if leave is None else leave(transformer, node, node)
    changes = {}
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if type(value) is tuple or type(value) is list:
            items, changed = [], False
            for item in value:
                if not _is_node(item):
                    items.append(item)
                    continue
                result = transform(item, transformer)
                if result is item:
                    items.append(item)
                    continue
                changed = True
                if isinstance(result, cst.FlattenSentinel):
                    items.extend(result.nodes)
                elif not isinstance(result, cst.RemovalSentinel):
                    items.append(result)
            if changed:
                changes[name] = tuple(items)
        elif _is_node(value):
            result = transform(value, transformer)
            if result is not value:
                changes[name] = result
    updated = _replaced(node, changes) if changes else node
    return updated if leave is None else leave(transformer, node, updated)
