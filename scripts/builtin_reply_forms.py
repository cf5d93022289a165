"""The chat and reasoning reply forms of tests/reply_forms.py scored by lm-eval's own ``cruxeval_output``
and by dynbench's ``cruxeval_orig`` (under lm-eval's prompt, ``prompt: harness``, so both tasks send the
identical prompt), offline from the bundled data: one ``lm_eval`` run (Python API, ``local-completions``
against a scripted server) per mode, each form written on every problem. Prints a Markdown table of
pass@1 per form and mode, one column per scorer (docs/cruxeval.md keeps its figures).

    python scripts/builtin_reply_forms.py --limit 30
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
STOP = "[/ANSWER]"


def pass_at_1(scores: dict) -> float:
    """The task's pass@1, whatever lm-eval names its filter (``pass@1,none``, ``pass_at_k,create_test``)."""
    return next(value for key, value in scores.items() if key.split(",")[0] in ("pass@1", "pass_at_k"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=30, help="problems, the first of CRUXEval")
    parser.add_argument("--modes", default="right,wrong,ambiguous")
    args = parser.parse_args()

    sys.path.insert(0, str(TESTS))
    import lm_eval
    from known_answers import prompt_key
    from lm_eval.tasks import TaskManager
    from lm_eval.tasks._yaml_loader import load_yaml
    from reply_forms import replies
    from scripted_server import ScriptedServer

    from dynbench_tasks.lmeval.environment import task_directory

    bundled = Path(__file__).resolve().parent.parent / "dynbench_tasks" / "data" / "cruxeval.jsonl.gz"
    with tempfile.TemporaryDirectory() as data_dir:
        with gzip.open(bundled) as packed, open(Path(data_dir) / "cruxeval.jsonl", "wb") as plain:
            shutil.copyfileobj(packed, plain)
        builtin = load_yaml(Path(lm_eval.__file__).parent / "tasks" / "cruxeval" / "cruxeval_output.yaml")
        builtin.update(dataset_path="json", dataset_kwargs={"data_files": {"test": f"{data_dir}/cruxeval.jsonl"}})
        manager = TaskManager(include_path=task_directory(), include_defaults=False,
                              metadata={"data_dir": data_dir, "prompt": "harness", "repeats": 1})
        docs = list(manager.load(["cruxeval_orig"])["tasks"]["cruxeval_orig"].test_docs())[:args.limit]
        table: dict[str, dict[str, tuple[float, float]]] = defaultdict(dict)
        for mode in args.modes.split(","):
            forms = {name: {prompt_key("cruxeval_orig", doc): reply for doc in docs
                            for form, reply in replies("cruxeval_orig", doc, mode) if form == name}
                     for name, _ in replies("cruxeval_orig", docs[0], mode)}
            for name, by_key in forms.items():
                def answer(prompt: str, sample: int, by_key=by_key) -> str:
                    reply = next(reply for key, reply in by_key.items() if key in prompt)
                    return reply.split(STOP, 1)[0]  # as a server cuts it at both tasks' stop sequence

                with ScriptedServer(answer) as server:
                    results = lm_eval.simple_evaluate(
                        model="local-completions",
                        model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
                                   "tokenized_requests=False,max_retries=1",
                        tasks=[builtin, "cruxeval_orig"], limit=args.limit, task_manager=manager,
                        confirm_run_unsafe_code=True, gen_kwargs="seed=null")
                table[mode][name] = tuple(pass_at_1(results["results"][task]) for task in ("cruxeval_output",
                                                                                             "cruxeval_orig"))
    print("| mode | form | lm-eval's cruxeval_output | dynbench's cruxeval_orig |\n|---|---|---|---|")
    for mode, rows in table.items():
        for name, (theirs, ours) in rows.items():
            print(f"| {mode} | {name} | {theirs:.2f} | {ours:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
