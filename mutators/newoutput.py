"""NewOutput: the program gets a small seeded edit that changes what it computes, and the problem a
new answer, computed by running the edited program.

The paper's operators keep every answer, so a model that memorised a problem passes its mutants.
NewOutput changes the answer instead: one local edit (a literal value, a comparison constant, a slice
bound, an arithmetic or comparison operator), drawn by the seed. Choosing the edit runs programs, so
it is not this operator's ``apply`` (which leaves the program as it is) but
:func:`mutators.output_choice.choose_new_outputs`, which keeps an edit only if the edited program
runs cleanly on every scored input, gives the same answers under two hash seeds, and changes at least
one scored answer.
"""

from __future__ import annotations

import libcst as cst

from mutators.base import Operator, StepContext


class NewOutput(Operator):
    name = "newoutput"
    letter = "O"
    title = "NewOutput"

    def apply(self, module: cst.Module, context: StepContext) -> tuple[cst.Module, int]:
        return module, 0  # the program stays; choose_new_outputs picks the edit
