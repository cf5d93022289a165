"""A real ``lm_eval`` run of dynbench tasks against a scripted OpenAI-compatible server (the tests'
``scripted_server.py``) whose answers are known (tests/known_answers.py). By default, of each
problem's 5 samples the first ``--right`` give the right answer to the document as shown and the rest
a wrong one; with ``--memorised`` every sample gives what a model that memorised the published
benchmark would give (the published output or input, the benchmark's own Java, or its published test
outputs printed): it recognises each problem however it is rewritten and never reads the program; with
``--patched``, the benchmark's own Java with each literal, operator or call edit of the shown program
patched into it (it cannot patch an added statement or moved loop bounds).
Prints the expected and the obtained pass@1 of each task; the run folder is what ``dynbench verify``
and ``dynbench leaderboard`` read, e.g.

    python scripts/scripted_run.py --tasks cruxeval_fuv --out runs/scripted   # all 800 problems
    python scripts/scripted_run.py --tasks cruxeval_orig,cruxeval_fuv,cruxeval_fuvio --memorised --out runs/m
    python scripts/scripted_run.py --tasks transcoder_newoutput,transcoder_fuvo --patched --out runs/p
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
    parser.add_argument("--tasks", default="cruxeval_fuv", help="comma-separated dynbench tasks")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--right", type=int, default=3, choices=range(SAMPLES + 1), help="right samples of 5")
    recalled = parser.add_mutually_exclusive_group()
    recalled.add_argument("--memorised", action="store_true", help="every sample gives the published answer")
    recalled.add_argument("--patched", action="store_true",
                          help="every sample gives the published Java with the shown token edits patched in")
    parser.add_argument("--limit", type=int, help="problems per task (default: all)")
    parser.add_argument("--metadata", default="{}", help="JSON task settings, as lm_eval --metadata takes them")
    args = parser.parse_args()

    sys.path.insert(0, str(TESTS))
    from known_answers import memorised_answer, patched_answer, prompt_key, right_answer, wrong_answer
    from scripted_server import ScriptedServer

    from dynbench_tasks.lmeval import discovery, task_manager

    discovery.install()
    tasks = args.tasks.split(",")
    metadata = json.loads(args.metadata)
    loaded = task_manager(metadata).load(tasks)["tasks"]
    answers, unanswerable = {}, 0  # the prompt's program and visible half -> the samples' answers
    for task in tasks:
        for doc in list(loaded[task].test_docs())[: args.limit]:
            right = right_answer(task, doc)
            unanswerable += right is None
            if args.memorised or args.patched:
                samples = [(memorised_answer if args.memorised else patched_answer)(task, doc)] * SAMPLES
            else:
                samples = [right or wrong_answer(task)] * args.right + [wrong_answer(task)] * (SAMPLES - args.right)
            answers[prompt_key(task, doc)] = samples

    def answer(prompt: str, sample: int) -> str:
        return next(samples for key, samples in answers.items() if key in prompt)[sample % SAMPLES]

    with ScriptedServer(answer) as server:
        model_args = (f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
                      "tokenized_requests=False,num_concurrent=4")
        command = [sys.executable, "-m", "lm_eval", "--model", "local-completions", "--model_args", model_args,
                   "--tasks", args.tasks, "--confirm_run_unsafe_code", "--log_samples", "--output_path", args.out,
                   "--metadata", json.dumps(metadata)]
        subprocess.run(command + (["--limit", str(args.limit)] if args.limit else []), check=True)
    results = json.loads(max(Path(args.out).rglob("results_*.json"), key=lambda p: p.stat().st_mtime).read_text())
    for task in tasks:
        metrics = results["results"][task]
        obtained = next(v for k, v in metrics.items() if k.startswith("pass@1,") and "stderr" not in k)
        expected = "memorised" if args.memorised else "patched" if args.patched else \
            f"expected pass@1 {args.right / SAMPLES:.2f}"
        print(f"{task}: {expected}, obtained {obtained:.4f} on {results['n-samples'][task]['effective']} problems")
    if unanswerable and not (args.memorised or args.patched):
        print(f"({unanswerable} documents had no right answer built here and got wrong ones only)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
