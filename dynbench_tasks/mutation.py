"""Mutating a benchmark's programs under one chain and seed, the one way the tasks and ``dynbench
mutate`` both do it: the chain's text operators, NewInput's new inputs (run in two sandboxes with
fixed hash seeds), then the equivalence check in the sandbox."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from dynbench_tasks.benchmarks.base import Program
from mutators.programs import CallTests


def mutate_programs(programs: Sequence[Program], chain, seed: int, *, label: str, verify: bool, sandbox: Callable,
                    check_seconds: float = 2.0) -> list:
    """One result per program. ``sandbox(hash_seed)`` gives the sandbox to use (None: any hash seed);
    it is only asked for when something must run."""
    from tqdm import tqdm

    from mutators.engine import mutate
    from mutators.equivalence import CheckSettings, check_equivalence
    from mutators.input_choice import choose_new_inputs
    from mutators.newinput import NewInput

    results = [
        mutate(p.code, chain, seed, kind=p.kind, entry_point=p.entry_point, call_arguments=p.call_arguments)
        for p in tqdm(programs, desc=f"{label}: mutating", unit="program", disable=None, file=sys.stderr)
    ]
    if NewInput in chain.operators:
        items = [(p.code, r, p.tests, p.output) for p, r in zip(programs, results, strict=True)
                 if isinstance(p.tests, CallTests) and p.output is not None]
        choose_new_inputs(items, seed, (sandbox(1), sandbox(2)))
    if verify:
        items = [(p.code, r, p.tests) for p, r in zip(programs, results, strict=True) if p.tests is not None]
        with tqdm(desc=f"{label}: checking equivalence", unit="task", disable=None, file=sys.stderr) as bar:
            check_equivalence(items, sandbox(None), CheckSettings(seconds=check_seconds, seed=seed),
                              progress=bar.update)
    return results
