"""VarNormI: renames every variable to ``var1``, ``var2``, … in order of first appearance.

Variables are found by Python's scoping rules (:mod:`mutators.scopes`); imported names, def and class
names, attributes, class attributes, builtins and names read through strings keep their spelling.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import libcst as cst

from mutators.base import Operator, StepContext
from mutators.renaming import rename_variables


class VarNormI(Operator):
    name = "varnorm1"
    letter = "V1"
    title = "VarNormI"
    option_defaults: ClassVar[Mapping[str, Any]] = {"prefix": "var"}

    @classmethod
    def option_problem(cls, option: str, value: Any) -> str | None:
        return None if value.isidentifier() else "must be the start of a Python identifier, such as 'var'"

    def apply(self, module: cst.Module, context: StepContext) -> tuple[cst.Module, int]:
        prefix = self.option(context, "prefix")
        return rename_variables(module, context, lambda pool, _variable: pool.numbered(prefix))
