"""A real ``lm_eval`` run of CRUXEval tasks (output or input prediction) against a scripted
OpenAI-compatible server (the tests' ``scripted_server.py``) whose answers are known: of each
problem's 5 samples, the first ``--right`` state the reference (the output, or the call on the
problem's own input) and the rest a wrong one (a value no output is, a call with a keyword no
program takes). Prints the expected and the obtained pass@1 of each
task; the run folder is what ``dynbench verify`` and ``dynbench leaderboard`` read, e.g.

    python scripts/scripted_run.py --tasks cruxeval_fuv --out runs/scripted   # all 800 problems
    dynbench verify runs/scripted
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
SAMPLES = 5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default="cruxeval_fuv", help="comma-separated CRUXEval tasks")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--right", type=int, default=3, choices=range(SAMPLES + 1), help="right samples of 5")
    parser.add_argument("--limit", type=int, help="problems per task (default: all)")
    args = parser.parse_args()

    sys.path.insert(0, str(TESTS))
    from scripted_server import ScriptedServer

    from dynbench_tasks.lmeval import discovery, task_manager

    discovery.install()
    tasks = args.tasks.split(",")
    loaded = task_manager({}).load(tasks)["tasks"]
    answers = {}  # the prompt's program and visible half -> (right answer, wrong answer)
    for task in tasks:
        for doc in list(loaded[task].test_docs())[: args.limit]:
            if task.startswith("cruxeval_input"):
                prompt = f"{doc['code']}\nassert f(??) == {doc['output']}"
                answers[prompt] = (f"f({doc['input']})", "f(not_a_parameter_of_f=0)")
            else:
                answers[f"{doc['code']}\nassert f({doc['input']}) =="] = (doc["output"], "'__not the output__'")

    def answer(prompt: str, sample: int) -> str:
        right, wrong = next(pair for key, pair in answers.items() if key in prompt)
        return right if sample % SAMPLES < args.right else wrong

    with ScriptedServer(answer) as server:
        model_args = (f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
                      "tokenized_requests=False,num_concurrent=4")
        command = [sys.executable, "-m", "lm_eval", "--model", "local-completions", "--model_args", model_args,
                   "--tasks", args.tasks, "--confirm_run_unsafe_code", "--log_samples", "--output_path", args.out]
        subprocess.run(command + (["--limit", str(args.limit)] if args.limit else []), check=True)
    results = json.loads(max(Path(args.out).rglob("results_*.json"), key=lambda p: p.stat().st_mtime).read_text())
    for task in tasks:
        obtained = results["results"][task]["pass@1,sandbox"]
        print(f"{task}: expected pass@1 {args.right / SAMPLES:.2f}, obtained {obtained:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
