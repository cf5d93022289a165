"""Mutating a benchmark's programs under one seed and one or more chains, the one way the tasks and
``dynbench mutate`` both do it: the chains' text operators, NewInput's new inputs (run in two
sandboxes with fixed hash seeds), then one equivalence check in the sandbox for every chain at once,
so that each program's original runs once for all its mutants, then NewOutput's edits of the
programs as the other operators left them (run in the same two sandboxes). The programs go in
slices: while the sandbox runs one slice, this process mutates the next."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from dynbench_tasks.benchmarks.base import Program
from mutators.execution.limits import CHECK_HASH_SEED
from mutators.programs import MUTATED, UNCHANGED, CallTests

NO_INPUTS = "the problem has no inputs to compute new answers on"
NO_CALL = "the problem shows no call with its output"

SLICE = 100  # programs


def _run_slice(programs: Sequence[Program], per_chain: list[list], with_new_inputs: list[bool],
               with_new_outputs: list[bool], seed: int, *, verify: bool, sandbox: Callable, check_seconds: float,
               progress: Callable[[int], None], donors) -> None:
    """New inputs, then the equivalence check, then new outputs, for one slice of programs (all chains)."""
    from mutators.equivalence import CheckSettings, check_equivalence
    from mutators.input_choice import choose_new_inputs
    from mutators.output_choice import choose_new_outputs

    items = []
    for results, wanted in zip(per_chain, with_new_inputs, strict=True):
        for p, r in zip(programs, results, strict=True) if wanted else ():
            if isinstance(p.tests, CallTests) and p.tests.arguments and p.output is not None:
                items.append((p.code, r, p.tests, p.output))
            elif r.status in (MUTATED, UNCHANGED):
                _add_reason(r, f"newinput: no new input ({NO_CALL})")
    if items:
        choose_new_inputs(items, seed, (sandbox(1), sandbox(2)), donors=donors)
    if verify:
        items = [(p.code, r, p.tests) for results in per_chain
                 for p, r in zip(programs, results, strict=True) if p.tests is not None]
        check_equivalence(items, sandbox(CHECK_HASH_SEED), CheckSettings(seconds=check_seconds, seed=seed),
                          progress=progress)
    # NewOutput edits the program as the other operators left it, so it comes last.
    problems = [(r, p.answers(r) if p.answers is not None else None)
                for results, wanted in zip(per_chain, with_new_outputs, strict=True) if wanted
                for p, r in zip(programs, results, strict=True) if r.status in (MUTATED, UNCHANGED)]
    for result, problem in problems:
        if problem is None:
            _add_reason(result, f"newoutput: no edit ({NO_INPUTS})")
    problems = [(r, problem) for r, problem in problems if problem is not None]
    if problems:
        choose_new_outputs(problems, seed, (sandbox(1), sandbox(2)))


def _add_reason(result, reason: str) -> None:
    result.reason = (result.reason + "; " if result.reason else "") + reason


def mutate_programs(programs: Sequence[Program], chains: Sequence, seed: int, *, label: str, verify: bool,
                    sandbox: Callable, check_seconds: float = 2.0, mutate_one: Callable | None = None) -> list[list]:
    """For each chain, one result per program. ``sandbox(hash_seed)`` gives the sandbox to use, whose
    processes all take that PYTHONHASHSEED; it is only asked for when something must run. ``mutate_one``
    rewrites one program (:func:`mutators.engine.mutate` by default)."""
    from tqdm import tqdm

    from mutators.engine import mutate
    from mutators.newinput import NewInput
    from mutators.newoutput import NewOutput

    mutate_one = mutate_one or mutate
    donors = None
    if any(NewInput in chain.operators for chain in chains):
        from mutators.input_choice import Donors

        donors = Donors([p.tests.arguments[0] for p in programs
                         if isinstance(p.tests, CallTests) and p.tests.arguments])

    with_new_inputs = [NewInput in chain.operators for chain in chains]
    with_new_outputs = [NewOutput in chain.operators for chain in chains]
    per_chain: list[list] = [[] for _ in chains]
    with tqdm(total=len(programs) * len(chains), desc=f"{label}: mutating", unit="program", disable=None,
              file=sys.stderr) as mutating, \
            tqdm(desc=f"{label}: checking equivalence", unit="task", disable=None, file=sys.stderr) as checking, \
            ThreadPoolExecutor(max_workers=2, thread_name_prefix="dynbench-check") as runner:
        running = []
        for start in range(0, len(programs), SLICE):
            part = programs[start : start + SLICE]
            for chain, results in zip(chains, per_chain, strict=True):
                for p in part:
                    results.append(mutate_one(p.code, chain, seed, kind=p.kind, entry_point=p.entry_point,
                                              call_arguments=p.call_arguments))
                    mutating.update()
            running.append(runner.submit(
                _run_slice, part, [results[start:] for results in per_chain], with_new_inputs, with_new_outputs, seed,
                verify=verify, sandbox=sandbox, check_seconds=check_seconds, progress=checking.update, donors=donors))
        for job in running:
            job.result()
    return per_chain
