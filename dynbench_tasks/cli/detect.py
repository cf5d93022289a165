"""``dynbench detect``: a contamination verdict per model, from the answers its runs logged."""

from __future__ import annotations

import argparse
import json
import sys

from dynbench_tasks.cli.arguments import add_run_dirs, load_named_runs


def add_parsers(commands) -> None:
    detect = commands.add_parser(
        "detect", help="is a model reciting the published answers? a verdict with a p-value, from logged runs",
        description="Reads the logged samples (lm_eval --log_samples) of CRUXEval output tasks with new answers "
        "under each RUN_DIR, judges every answer again against its logged document, and per model says whether it "
        "writes the published output of problems whose input changed more often than a decoy (the program's "
        "output on another input as near the shown one): a one-sided exact sign test over documents, at a "
        "threshold that keeps false alarms at or below 5% per model across its benchmarks. No model runs; any "
        "backend's runs will do. docs/detect.md says what a verdict means and what it does not.",
    )
    add_run_dirs(detect)
    detect.add_argument("--against", nargs="+", metavar="RUN_DIR",
                        help="a reference model's runs (e.g. the base of a fine-tune): each model's stale answers "
                        "are compared with the reference's on the same documents (a paired one-sided sign test)")
    detect.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    detect.set_defaults(handler=run)


ALPHA_NOTE = "a model is flagged falsely with probability at most 0.05 across the benchmarks tested for it"


def _row(model: str, benchmark: str, verdict, evidence, compared: str) -> dict:
    return {"model": model, "benchmark": benchmark, "compared_with": compared, "verdict": verdict.verdict,
            "p_value": verdict.p_value, "documents": verdict.documents, "stale": verdict.stale,
            "control": verdict.decoy, "samples": verdict.samples, "stale_documents": verdict.stale_documents,
            "control_documents": verdict.decoy_documents, "excess": verdict.excess,
            "interval": list(verdict.interval), "documents_needed": verdict.needed, "tasks": sorted(evidence.tasks),
            "stale_only_documents": len(evidence.stale_only),
            "stale_only_rate": evidence.stale_only_counts[0] / max(1, evidence.stale_only_counts[1]),
            "unjudged_documents": evidence.unreadable}


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.runs import load_runs
    from dynbench_tasks.analysis.text import one_line
    from dynbench_tasks.contamination.detect import against, gather, verdicts
    from dynbench_tasks.contamination.verdict import sentence
    from dynbench_tasks.errors import DataError

    evidence = gather(load_named_runs(args))
    if not evidence:
        raise DataError("no logged samples of a CRUXEval output task with new answers (newinput, fuvi, fuvio, "
                        "newoutput) in " + ", ".join(args.run_dirs) + ": run lm_eval with --log_samples")
    found = [(key, verdict, "decoy") for key, verdict in sorted(verdicts(evidence).items())]
    if args.against:
        reference = gather(load_runs(args.against))
        if not reference:
            raise DataError("no logged samples of a CRUXEval output task with new answers in "
                            + ", ".join(args.against))
        found += [(key, verdict, "reference") for key, verdict in sorted(against(evidence, reference).items())]
    if args.json:
        rows = [_row(*key, verdict, evidence[key], compared) for key, verdict, compared in found]
        print(json.dumps({"alpha_per_model": ALPHA_NOTE, "verdicts": rows}, indent=1))
        return 0
    for (model, benchmark), verdict, compared in found:
        print(one_line(sentence(verdict, model, benchmark)
                       + (" (against the reference runs)" if compared == "reference" else "")))
        stale_only = evidence[(model, benchmark)].stale_only
        if compared == "decoy" and stale_only:
            stale, samples = evidence[(model, benchmark)].stale_only_counts
            print(one_line(f"{model}: {benchmark}: {stale} of {samples} samples wrote the published output on "
                           f"{len(stale_only)} documents without a decoy (the input did not change, the published "
                           "output is trivial or an argument of the call, or no neighbour input qualified): "
                           "recitation, an overlooked edit or a guess, which nothing here tells apart (--against "
                           "compares with a reference model)"))
    unjudged = sum(found.unreadable for found in evidence.values())
    if unjudged:
        print(f"dynbench detect: warning: {unjudged} logged documents had no answers or document to judge",
              file=sys.stderr)
    return 0
