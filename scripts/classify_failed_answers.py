"""Why a run's CRUXEval output-prediction samples failed: a wrong value, no value, two different answers,
or the right value written where the reader does not take it (the reader's misses, which a person
then reads one by one: they are printed, escaped, up to ``--show`` of them).

    python scripts/classify_failed_answers.py RUN_DIR [--show 20]

Reads every logged ``cruxeval_*`` output-prediction sample under RUN_DIR (lm_eval --log_samples). A
failed sample "holds the right value" when a spelling of its document's output (as published, or as
Python or JSON writes that value) stands in the reply with its reasoning, the program's lines and the
shown call set aside.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
from collections import Counter
from pathlib import Path

from dynbench_tasks.analysis.text import one_line
from dynbench_tasks.benchmarks.final_answer import AMBIGUOUS, visible_text
from dynbench_tasks.scoring import PASSED

NO_VALUE = ("empty", "unparseable")
RIGHT_VALUE_UNREAD, WRONG_VALUE, NO_VALUE_STATED, TWO_ANSWERS = (
    "right value in the reply, not read", "wrong value", "no value", "two different answers")


def spellings(output: str) -> set[str]:
    """The ways a reply may write the published ``output``: as published, and as Python and JSON write it."""
    found = {output}
    try:
        value = ast.literal_eval(output)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return found
    found.add(repr(value))
    with contextlib.suppress(TypeError, ValueError):  # a value JSON cannot write (a set, a tuple key)
        found.add(json.dumps(value))
    return found


def unshown(reply: str, doc: dict) -> str:
    """The reply with its reasoning and what it repeats of the prompt (the program's lines, the shown
    call) set aside: a value found there is the reply's own."""
    visible = (visible_text(reply) or "").replace(f"f({doc['input']})", "")
    for line in doc["code"].split("\n"):
        if line.strip():
            visible = visible.replace(line.strip(), "")
    return visible


def kind_of_failure(reply: str, status: str, doc: dict) -> str:
    if status == AMBIGUOUS:
        return TWO_ANSWERS
    if any(spelling in unshown(reply, doc) for spelling in spellings(doc["output"])):
        return RIGHT_VALUE_UNREAD
    return NO_VALUE_STATED if status in NO_VALUE else WRONG_VALUE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", metavar="RUN_DIR")
    parser.add_argument("--show", type=int, default=20, help="failed samples holding the right value to print")
    args = parser.parse_args()
    samples = [json.loads(line) for path in sorted(Path(args.run_dir).rglob("samples_cruxeval_*.jsonl"))
               if not path.name.startswith("samples_cruxeval_input") for line in path.open(encoding="utf-8")]
    if not samples:
        raise SystemExit(f"{args.run_dir}: no logged CRUXEval output-prediction samples (lm_eval --log_samples)")
    kinds, statuses, shown = Counter(), Counter(), 0
    for sample in samples:
        for reply, scored in zip(sample["resps"][0], sample["filtered_resps"][0], strict=True):
            status = json.loads(scored)["status"]
            statuses[status] += 1
            if status == PASSED:
                continue
            kind = kind_of_failure(reply, status, sample["doc"])
            kinds[kind] += 1
            if kind == RIGHT_VALUE_UNREAD and shown < args.show:
                shown += 1
                print(f"{sample['doc']['id']} ({status}; output {one_line(sample['doc']['output'])[:80]}): "
                      f"{one_line(reply)[:400]}")
    print(json.dumps({"samples": sum(statuses.values()), "statuses": statuses, "failed": kinds}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
