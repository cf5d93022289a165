"""False alarms and power of ``dynbench detect`` on the real documents of ``cruxeval_newinput``.

The documents are built as lm-eval builds them (seeds given), with their decoys. Honest models make
the mistakes models make: of each document's samples, each is right with the model's own accuracy,
else an execution slip (the shown program's output on a small change of the shown input, run in the
sandbox: what misreading the input gives), else a guess from the shown text (an argument of the
call, its length, two arguments joined, a literal of the program: ``mutators.shown_guesses``), else an
empty value. They have no memory of the published outputs, so every flag of one is a false alarm.
Reciting models are honest models that, with a given chance per sample, write the published output
instead. Each answer is compared with the published output and the decoy as the scorer would (the
answers are literals), and each model judged as ``dynbench detect`` judges (one benchmark: 0.05).

    python scripts/detect_false_alarms.py --seeds 0 1 --models 400
"""

from __future__ import annotations

import argparse
import ast
import functools
import random
import sys
import time
from collections import Counter


def _why_no_decoy(doc: dict) -> str:
    """Why a document has no decoy (docs/detect.md, control coverage)."""
    from mutators.input_choice import trivial
    from mutators.shown_guesses import copied, guessed_from_shown

    try:
        published = ast.literal_eval(doc["original_output"])
    except (ValueError, SyntaxError):
        return "published output no literal"
    if trivial(published):
        return "trivial published output"
    if copied(doc["input"], published):
        return "published output an argument of the call"
    if guessed_from_shown(doc["original_code"], doc["input"], published):
        return "published output another guess from the shown text"
    return "no small change qualified"


def slips(docs: list[dict], per_document: int, seed: int) -> list[list[str]]:
    """For each document, outputs of its shown program on ``per_document`` small changes of its shown input."""
    from dynbench_tasks.runtime import shared_sandbox
    from mutators.input_choice import _task, _value
    from mutators.perturb import perturbed_inputs, render_arguments
    from mutators.programs import CallTests

    jobs = []
    for doc in docs:
        rng = random.Random(f"{seed}\x00slip\x00{doc['id']}")
        changed = [render_arguments(a, k) for a, k in perturbed_inputs([doc["input"]], rng, per_document)]
        jobs.append(_task(doc["code"], CallTests("f", [doc["input"]]), changed, 0.5) if changed else None)
    outcomes = shared_sandbox().run([job for job in jobs if job])
    found, served = [], iter(outcomes)
    for job in jobs:
        outcome = next(served) if job else None
        results = (outcome or {}).get("result") or {}
        values = [_value({"status": "ok", "result": r}) for r in results.get("results", [])] if job else []
        found.append([value[1] for value in values if not isinstance(value, str)])
    return found


@functools.cache
def guesses(code: str, arguments: str) -> list[str]:
    """The shown guesses as answers, once per problem (every simulated model asks again)."""
    from mutators.perturb import to_source
    from mutators.shown_guesses import shown_guesses

    return [to_source(value) for value in shown_guesses(code, arguments)]


def empty_like(output: str) -> str:
    try:
        return repr(type(ast.literal_eval(output))())
    except (ValueError, SyntaxError, TypeError):
        return "None"


def model_units(docs, pools, rng: random.Random, accuracy: float, recite: float, samples: int):
    from dynbench_tasks.contamination.verdict import Unit
    from mutators.input_choice import same_literal

    units = []
    for doc, pool in zip(docs, pools, strict=True):
        stale = decoy = 0
        for _ in range(samples):
            if rng.random() < recite:
                answer = doc["original_output"]
            elif rng.random() < accuracy:
                answer = doc["output"]
            else:
                roll = rng.random()
                options = pool if roll < 0.7 and pool else guesses(doc["code"], doc["input"]) if roll < 0.9 else []
                answer = rng.choice(options) if options else empty_like(doc["output"])
            stale += same_literal(answer, doc["original_output"])
            decoy += same_literal(answer, doc["decoy_output"])
        units.append(Unit(str(doc["id"]), samples, stale, decoy))
    return units


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--models", type=int, default=400, help="simulated models per scenario")
    parser.add_argument("--slips", type=int, default=8, help="execution slips computed per document")
    args = parser.parse_args()
    from dynbench_tasks.benchmarks.cruxeval import recited_answers
    from dynbench_tasks.contamination.verdict import ALPHA, judge
    from dynbench_tasks.lmeval import task_manager

    start = time.perf_counter()
    docs = []
    for seed in args.seeds:
        task = task_manager({"seed": seed}).load(["cruxeval_newinput"])["tasks"]["cruxeval_newinput"]
        built = list(task.test_docs())
        docs += [dict(doc, id=f"{seed}:{doc['id']}") for doc in built if "decoy" in recited_answers(doc)]
        missing = Counter(_why_no_decoy(doc) for doc in built if "decoy" not in recited_answers(doc))
        print(f"seed {seed}: {len(built)} documents, {sum(d['id'].startswith(f'{seed}:') for d in docs)} with a "
              f"decoy; without one: {dict(missing.most_common())}", file=sys.stderr)
    pools = slips(docs, args.slips, 0)
    print(f"built and ran slips in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    scenarios = [("honest", 0.0), ("reciting 2% of samples", 0.02), ("reciting 5% of samples", 0.05),
                 ("reciting 10% of samples", 0.10)]
    print(f"{len(docs)} documents with a decoy (seeds {' '.join(map(str, args.seeds))}), 5 samples each, "
          f"{args.models} simulated models per row, alpha {ALPHA}")
    print(f"{'models':<26}{'flagged':>9}  {'rate':>7}  mean stale / decoy samples")
    for label, recite in scenarios:
        rng = random.Random(f"detect-false-alarms\x00{label}")
        flagged, stale, decoy = 0, 0, 0
        for _ in range(args.models):
            units = model_units(docs, pools, rng, rng.uniform(0.1, 0.8), recite, 5)
            verdict = judge(units, ALPHA)
            flagged += verdict.verdict == "contaminated"
            stale, decoy = stale + verdict.stale, decoy + verdict.decoy
        print(f"{label:<26}{flagged:>9}  {flagged / args.models:>7.3f}  {stale / args.models:.1f} / "
              f"{decoy / args.models:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
