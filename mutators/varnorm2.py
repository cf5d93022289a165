"""VarNormII: renames every variable to a random identifier of one fixed length (default 3).

Names are drawn from the step's seeded stream: lowercase letter first, then letters and digits, never
a keyword, builtin or identifier the program already uses. Which variables are renamed is decided
exactly as for VarNormI.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import libcst as cst

from mutators.base import Operator, StepContext
from mutators.renaming import rename_variables


class VarNormII(Operator):
    name = "varnorm2"
    letter = "V2"
    title = "VarNormII"
    option_defaults: ClassVar[Mapping[str, Any]] = {"length": 3}
    option_minimums: ClassVar[Mapping[str, int]] = {"length": 1}

    def apply(self, module: cst.Module, context: StepContext) -> tuple[cst.Module, int]:
        length = int(self.option(context, "length"))
        return rename_variables(module, context, lambda pool, _variable: pool.random(context.rng, length))
