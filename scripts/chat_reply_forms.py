"""Chat and reasoning models' reply forms, scored through the real ``lm_eval`` command line: a scripted
OpenAI-compatible server (tests/scripted_server.py) answers every document with the right answer to it
as shown (tests/known_answers.py), a wrong one, or two different ones (``ambiguous``), in the forms of
tests/reply_forms.py, taken in turn. Each backend (``local-chat-completions --apply_chat_template``,
which gets the chat prompt; ``local-completions``, the paper prompt) and mode is one lm_eval run of
the tasks; it prints each task's pass@1 under judging rules 3 (the run's) and what judging rules 2
read in the same replies, then each form's statuses.

    python scripts/chat_reply_forms.py --limit 100 --out runs/chat_forms
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
TASKS = "cruxeval_orig,cruxeval_fuv,cruxeval_fuvio,cruxeval_input_orig,cruxeval_input_fuvi"
BACKENDS = {"chat": ("local-chat-completions", "chat/completions", ["--apply_chat_template"]),
            "completions": ("local-completions", "completions", [])}
FIRST_PROBLEMS = 200  # the problems the tasks are built from: enough for --limit 100 of every variant


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default=TASKS, help="comma-separated CRUXEval tasks")
    parser.add_argument("--limit", type=int, default=100, help="problems per task")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--backends", default="chat,completions")
    parser.add_argument("--modes", default="right,wrong,ambiguous")
    args = parser.parse_args()

    sys.path.insert(0, str(TESTS))
    from reply_forms import scripted_replies
    from scripted_server import ScriptedServer

    from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
    from dynbench_tasks.lmeval import discovery, task_manager

    discovery.install()
    tasks = args.tasks.split(",")
    ids = [str(record["id"]) for record in load_benchmark("cruxeval", None)[:FIRST_PROBLEMS]]
    metadata = {"ids": ids, "timeout": 3.0}
    loaded = task_manager(metadata).load(tasks)["tasks"]
    docs = {task: list(loaded[task].test_docs())[: args.limit] for task in tasks}
    print(f"{args.limit} problems per task (of the first {FIRST_PROBLEMS} CRUXEval problems); judging rules 3 "
          "is the run's score, rules 2 the same replies read by the reader before it")
    for backend in args.backends.split(","):
        model, endpoint, extra = BACKENDS[backend]
        for mode in args.modes.split(","):
            answer, form_of = scripted_replies(docs, mode)
            out = Path(args.out) / f"{backend}_{mode}"
            with ScriptedServer(answer) as server:
                model_args = (f"model=scripted,base_url={server.url}/{endpoint},tokenizer_backend=none,"
                              "tokenized_requests=False,num_concurrent=4")
                command = [sys.executable, "-m", "lm_eval", "--model", model, "--model_args", model_args, *extra,
                           "--tasks", ",".join(tasks), "--limit", str(args.limit), "--confirm_run_unsafe_code",
                           "--log_samples", "--output_path", str(out), "--metadata", json.dumps(metadata)]
                subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            results = json.loads(max(out.rglob("results_*.json"), key=lambda p: p.stat().st_mtime).read_text())
            print(f"\n{model}{' ' + ' '.join(extra) if extra else ''}, {mode} answers:")
            forms: dict[str, Counter] = defaultdict(Counter)
            for task in tasks:
                logged = next(out.rglob(f"samples_{task}_*.jsonl")).read_text()
                samples = [json.loads(line) for line in logged.splitlines()]
                settings = replace(loaded[task].settings, judging_rules=2)
                spec = BENCHMARKS[settings.benchmark]
                before = spec.score([s["resps"][0] for s in samples], [s["doc"] for s in samples], settings)
                passed_before = sum(json.loads(item)["status"] == "passed" for row in before for item in row)
                for sample in samples:
                    for reply, scored in zip(sample["resps"][0], sample["filtered_resps"][0], strict=True):
                        forms[form_of[reply]][json.loads(scored)["status"]] += 1
                prompt = results["configs"][task]["metadata"]["dynbench"]["prompt"]
                print(f"  {task:22} pass@1 {results['results'][task]['pass@1,sandbox']:.4f} (rules 2: "
                      f"{passed_before / (5 * len(samples)):.4f}) on {len(samples)} problems, prompt {prompt}")
            for form, statuses in forms.items():
                print(f"    {form:32} " + ", ".join(f"{status} {count}" for status, count in statuses.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
