"""``dynbench detect``: a contamination verdict per model, from the answers its runs logged."""

from __future__ import annotations

import argparse
import json
import sys

from dynbench_tasks.cli.arguments import add_run_dirs, load_named_runs


def add_parsers(commands) -> None:
    detect = commands.add_parser(
        "detect", help="is a model reciting the published answers? a verdict with a p-value, from logged runs",
        description="Reads the logged samples (lm_eval --log_samples) of CRUXEval (output and input prediction) and "
        "translation tasks with new answers under each RUN_DIR, checks every logged document against the one its "
        "recorded settings rebuild (as dynbench verify does; a run with any other document gives no verdict), "
        "judges every answer again against it, and per model says whether it writes the published output of "
        "problems whose input changed more often than a decoy (the "
        "program's output on another input as near the shown one): a one-sided exact sign test over documents, at a "
        "threshold that keeps false alarms at or below 5% per model across its tests. On translation it reports "
        "the share of Java that passes the published program's tests instead of the edited one's, on input "
        "prediction the share of answers that call the published input where it no longer gives the shown output "
        "(a verdict on either needs --against). Where more than five models "
        "ran a benchmark's orig and fuv tasks, each model's orig score is also tested against the one the others' "
        "scores predict from its fuv score (ConStat's way). No model runs; any backend's runs will do. "
        "docs/detect.md says what a verdict means and what it does not.",
    )
    add_run_dirs(detect)
    detect.add_argument("--against", nargs="+", metavar="RUN_DIR",
                        help="a reference model's runs (e.g. the base of a fine-tune): each model's stale answers "
                        "are compared with the reference's on the same documents (a paired one-sided sign test)")
    detect.add_argument("--data-dir", metavar="DIR", help="the benchmark data the logged documents are rebuilt from "
                        "and checked against, chosen by you (default: $DYNBENCH_DATA_DIR, else the copy bundled with "
                        "dynbench); a run's own data folder is never read")
    detect.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    detect.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.runs import load_runs, shared_name_lines
    from dynbench_tasks.analysis.text import one_line
    from dynbench_tasks.contamination.detect import ALPHA_NOTE, INPUT, findings, rates_without_decoy
    from dynbench_tasks.contamination.score_test import score_sentence
    from dynbench_tasks.contamination.verdict import sentence

    reference = load_runs(args.against) if args.against else None
    runs = load_named_runs(args)
    found, evidence, scores, unchecked, score_notes = findings(runs, reference, ", ".join(args.run_dirs),
                                                               ", ".join(args.against or []), args.data_dir)
    for line in shared_name_lines(runs) + score_notes:
        print(one_line(f"dynbench detect: warning: {line}"), file=sys.stderr)
    rates = rates_without_decoy(evidence)
    if args.json:
        print(json.dumps({"alpha_per_model": ALPHA_NOTE, "verdicts": [finding.row() for finding in found],
                          "stale_rates": [rate.rate_row() for rate in rates],
                          "score_tests": [verdict.row() for verdict in scores],
                          "unchecked_runs": [refused.row() for refused in unchecked]}, indent=1))
        return 0
    for refused in unchecked:
        print(refused.line())
    for finding in found:
        model, benchmark = finding.model, finding.benchmark
        print(one_line(sentence(finding.verdict, model, benchmark)
                       + (" (against the reference runs)" if finding.compared_with == "reference" else "")))
        stale_only = finding.evidence.without_decoy
        if finding.compared_with == "decoy" and stale_only:
            stale, samples = finding.evidence.stale_only_counts
            print(one_line(f"{model}: {benchmark}: {stale} of {samples} samples wrote the published output on "
                           f"{len(stale_only)} documents without a decoy (the input did not change, the published "
                           "output is trivial or an argument of the call, or no neighbour input qualified): "
                           "recitation, an overlooked edit or a guess, which nothing here tells apart (--against "
                           "compares with a reference model)"))
    for rate in rates:
        row = rate.rate_row()
        counted = f"{rate.model}: {rate.benchmark}: {row['stale']} of {row['samples']} samples on {row['documents']}"
        if rate.benchmark == INPUT:
            print(one_line(f"{counted} documents whose input changed call the published input, which no longer "
                           "gives the shown output (stale): recitation or a near miss, which only --against a "
                           "reference model's runs tells apart"))
        else:
            print(one_line(f"{counted} documents whose program was edited fail its tests and pass the published "
                           "program's (stale): recitation or an overlooked edit, which only --against a reference "
                           "model's runs tells apart"))
    for verdict in scores:
        print(one_line(score_sentence(verdict)))
    unjudged = sum(found.unreadable for found in evidence.values())
    if unjudged:
        print(f"dynbench detect: warning: {unjudged} logged documents had no answers or document to judge, or "
              "belong to a run whose documents a rebuild did not confirm",
              file=sys.stderr)
    return 0
