"""How NewOutput edited each program of the answer-changing tasks: how many got two or more edits, a
structural one, one only, or none (by reason), per task and seed, one JSON line each:

    python scripts/newoutput_edits.py --tasks transcoder_newoutput,transcoder_fuvo --seeds 0 1 2 --check

On stdin benchmarks each line also gives ``tests_per_program`` (how many programs are scored on how many
tests) and ``derived_tests`` (tests beyond the published ones, :mod:`mutators.derived_inputs`).

With ``--check`` every document with new answers is run again as the model is shown it (its Python, on
the inputs it is scored on, in the sandbox): ``broken`` counts those whose answers are not the ones the
document is scored against (a translation benchmark's ``tests`` or ``expected_records``).

Documents are built from scratch in a fresh datasets cache (``--cached``: taken from the datasets cache
where a run built them) with every program kept (scope ``all``), so the counts cover every program with
tests.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter

from mutators.structural import has_structural

TRANSLATION = ("avatar_", "codenet_", "transcoder_")
_REFUSAL = re.compile(r"newoutput: no edit \((.*)\)")


def _kind(mutation: dict) -> str:
    if mutation["status"] != "mutated" or "output" not in mutation["changed_answers"]:
        found = _REFUSAL.search(mutation.get("reason") or "")
        return "refused: " + (found.group(1) if found else mutation.get("reason") or mutation["status"])
    if not mutation.get("edit"):  # FUVIO: NewInput changed the answer, NewOutput did not
        found = _REFUSAL.search(mutation.get("reason") or "")
        return "a new input, no edit" + (f" ({found.group(1)})" if found else "")
    steps = mutation["edit"].split("; ")
    structural = has_structural(mutation["edit"])
    return f"{min(len(steps), 2)}{'+' if len(steps) > 1 else ''} edits, {'a' if structural else 'no'} structural one"


def _broken(benchmark: str, docs: list[dict]) -> list[str]:
    """Ids of translation documents whose shown Python does not give the answers they are scored on."""
    from types import SimpleNamespace

    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.benchmarks.new_answers import script_problem
    from mutators.execution import Sandbox
    from mutators.output_choice import OutputRules, answers_of
    from mutators.programs import StdinTests

    spec, broken = BENCHMARKS[benchmark], []
    with Sandbox() as sandbox:
        for doc in docs:
            program, shown = spec.program(doc), SimpleNamespace(code=doc["python"])
            # the document's tests as they stand, derived ones among them: none derived again
            problem = script_problem(program.tests, shown) if isinstance(program.tests, StdinTests) else \
                program.answers(shown)
            # the shown program is an edited one, which may run more lines than an unedited one's budget
            roomy = OutputRules(unedited_script_steps=100_000_000, unedited_call_steps=100_000_000)
            answers = answers_of(problem, sandbox, roomy)
            if doc.get("expected_records"):  # TransCoder: the harness values, flat
                expected, position = [], 0
                for answer in answers if not isinstance(answers, str) else []:
                    expected.append(doc["expected_records"][position : position + len(answer)])
                    position += len(answer)
                right = position == len(doc["expected_records"])
            else:
                expected, right = [test["output"] for test in doc["tests"]], True
            if isinstance(answers, str) or not right or len(answers) != len(expected) or not all(
                    problem.same(answer, wanted) for answer, wanted in zip(answers, expected, strict=True)):
                broken.append(str(doc["id"]))
    return broken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", required=True, help="comma-separated answer-changing task names")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--check", action="store_true", help="run every changed document's Python again")
    parser.add_argument("--data-dir", help="a folder of benchmark files to read instead of the bundled data")
    parser.add_argument("--cached", action="store_true",
                        help="take documents from the datasets cache where a run built them (default: a fresh cache)")
    args = parser.parse_args()
    if args.check and any(not name.startswith(TRANSLATION) for name in args.tasks.split(",")):
        parser.error("--check runs translation tasks' documents only (avatar_*, codenet_*, transcoder_*)")
    with tempfile.TemporaryDirectory(prefix="dynbench-edits-") as cache:
        if not args.cached:
            os.environ["HF_DATASETS_CACHE"] = cache  # before datasets is imported: nothing is served from a cache
        from lm_eval.tasks import TaskManager

        from dynbench_tasks.lmeval.discovery import task_directory

        names = args.tasks.split(",")
        for seed in args.seeds:
            start = time.perf_counter()
            manager = TaskManager(include_path=task_directory(), include_defaults=False,
                                  metadata={"seed": seed, "scope": "all",
                                            **({"data_dir": args.data_dir} if args.data_dir else {})})
            tasks = manager.load(names)["tasks"]
            for name in names:
                docs = list(tasks[name].test_docs())
                kinds = Counter(_kind(doc["mutation"]) for doc in docs)
                changed = sum(n for kind, n in kinds.items() if not kind.startswith("refused"))
                total = sum(kinds.values())
                line = {"task": name, "seed": seed, "programs": total, "new_answers": changed,
                        "coverage": round(changed / max(1, total), 3), "kinds": dict(kinds.most_common()),
                        "seconds": round(time.perf_counter() - start)}
                if docs and "tests" in docs[0]:  # stdin benchmarks: how many tests each program is scored on
                    line["tests_per_program"] = dict(sorted(Counter(len(doc["tests"]) for doc in docs).items()))
                    line["derived_tests"] = sum(bool(test.get("derived")) for doc in docs for test in doc["tests"])
                if args.check:
                    changed_docs = [doc for doc in docs if not _kind(doc["mutation"]).startswith("refused")]
                    line["broken"] = _broken(name.split("_")[0], changed_docs)
                print(json.dumps(line), flush=True)
            print(f"seed {seed}: {len(names)} tasks in {time.perf_counter() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
