"""Places whose source text is part of the program's meaning, so no operator may rewrite them.

Annotations, ``match`` patterns and f-string format specs must stay literals (or are read as text by
tools); a self-documenting f-string field (``f"{x=}"``) prints its own source. Transformers that
inherit :class:`SkipVerbatim` never descend into them.
"""

from __future__ import annotations

import libcst as cst


class SkipVerbatim(cst.CSTTransformer):
    def __init__(self) -> None:
        super().__init__()
        self._inside_format_spec: set[int] = set()

    def visit_Annotation(self, node: cst.Annotation) -> bool:
        return False

    def visit_MatchValue(self, node: cst.MatchValue) -> bool:
        return False

    def visit_MatchMappingElement(self, node: cst.MatchMappingElement) -> bool:
        return False

    def visit_MatchSingleton(self, node: cst.MatchSingleton) -> bool:
        return False

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> bool:
        if node.equal is not None or id(node) in self._inside_format_spec:
            return False
        for part in node.format_spec or ():
            self._inside_format_spec.add(id(part))
        return True
