"""Does the ``cruxeval_execution`` evaluate metric give the task's own status to every answer of a run?

    python scripts/check_metric_agreement.py RUN_DIR

Reads every logged CRUXEval output-prediction sample under RUN_DIR (lm_eval --log_samples), scores
its raw answers with the metric, and prints how many statuses agree with the logged ones.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", metavar="RUN_DIR")
    args = parser.parse_args()
    import evaluate

    from dynbench_tasks.metrics import metric_path

    samples = [json.loads(line) for path in sorted(Path(args.run_dir).rglob("samples_cruxeval_*.jsonl"))
               if not path.name.startswith("samples_cruxeval_input") for line in path.open(encoding="utf-8")]
    if not samples:
        raise SystemExit(f"{args.run_dir}: no logged CRUXEval output-prediction samples (lm_eval --log_samples)")
    metric = evaluate.load(metric_path("cruxeval_execution"))
    got = metric.compute(predictions=[s["resps"][0] for s in samples], references=[s["doc"]["output"] for s in samples],
                         inputs=[s["doc"]["input"] for s in samples])
    logged = [[json.loads(answer)["status"] for answer in s["filtered_resps"][0]] for s in samples]
    pairs = [(ours, theirs) for mine, task in zip(got["statuses"], logged, strict=True)
             for ours, theirs in zip(mine, task, strict=True)]
    print(json.dumps({"answers": len(pairs), "agree": sum(a == b for a, b in pairs),
                      "statuses": Counter(b for _, b in pairs)}))
    return 0 if all(a == b for a, b in pairs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
