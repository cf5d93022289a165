"""NewInput: the benchmark's call gets a new input of the same shape, and a new expected output.

The program text is not touched (the mutation contract holds for it); only the call changes.
Candidates are type-aware neighbours of the original input (:mod:`mutators.perturb`), drawn by the
seed; the *original* program runs on each in the sandbox, twice, under two hash seeds. The first
candidate, in the seed's order, qualifies that

* runs cleanly (no exception, within the time limit),
* gives the same ``repr`` under both hash seeds,
* gives a value whose ``repr`` is a literal that reads back to an equal value of the same type,
* gives an output that differs from the original one (so a remembered answer is wrong), and
* keeps input and output close in size to the originals (at most twice as long, plus 20 characters).

A candidate whose output can be had without working the program out is taken only if no other
qualifies: an output that is one of its own arguments (``f('ab', 'x') == 'ab'``) can be copied from
the call, and one that is the published output patched (``'ndbtu' -> 'dbtu'`` becoming ``'ndbt1u'
-> 'dbt1u'``: at least 80% of its text alike, as :mod:`difflib` counts it) can be made by a model
that remembers the published answer and sees how the input changed. Fine-tuned on the published
problems, such a model earns both (:func:`mutators.input_choice.guessable`). Of such candidates the
one least alike the published output is taken first.

If none does, the program keeps its input (status ``unchanged`` when nothing else changed) and the
reason says which rule ruled most candidates out. Only benchmarks whose problem includes the call
(CRUXEval) can take a new input. The choice itself runs programs, so it is not this operator's
``apply`` (which leaves the program as it is) but :func:`mutators.input_choice.choose_new_inputs`.
"""

from __future__ import annotations

import libcst as cst

from mutators.base import Operator, StepContext


class NewInput(Operator):
    name = "newinput"
    letter = "I"
    title = "NewInput"

    def apply(self, module: cst.Module, context: StepContext) -> tuple[cst.Module, int]:
        return module, 0  # the program stays; choose_new_inputs picks the input
