"""What a model that saw a translation benchmark's problems gains over a control model on the same
documents, per variant, split by how NewOutput edited each program (its ``newoutput`` document's edit):
one token edit only (a program with room for no more), two or more token edits, or a structural edit
among them. RQ3's share (a variant's net gain over ``orig``'s) read per kind of edit, from runs already
made:

    python scripts/translation_gain_by_edits.py --trained RUN_DIR... --control RUN_DIR... [--benchmark transcoder]

``--trained``: the fine-tune's runs on the problems it was trained on (``orig``, ``newoutput`` and
``fuvo`` with logged samples); ``--control``: a model that did not see them (a sibling fine-tune, say) on
the same problems. A document counts once, with its pass@1, where both models scored it on every variant.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

from dynbench_tasks.analysis.runs import load_runs
from dynbench_tasks.errors import DataError
from mutators.structural import has_structural

VARIANTS = ("orig", "newoutput", "fuvo")


def edit_kind(mutation: object) -> str:
    """How NewOutput edited a document: ``one token edit``, ``several edits``, ``several edits, a
    structural one`` (one structural edit alone counts with these) or ``no edit``."""
    edit = (mutation or {}).get("edit") if isinstance(mutation, dict) else None
    if not edit:
        return "no edit"
    sites = sum(step.get("sites", 0) for step in mutation.get("steps", []) if step.get("operator") == "newoutput")
    if has_structural(edit):
        return "several edits, a structural one"
    return "several edits" if sites > 1 else "one token edit"


def _scores(folders: list[str], benchmark: str) -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    scores: dict[str, dict[str, float]] = defaultdict(dict)
    kinds: dict[str, str] = {}
    for run in load_runs(folders):
        if run.benchmark == benchmark and run.variant in VARIANTS:
            scores[run.variant].update(run.per_document)
            if run.variant == "newoutput":
                kinds.update({str(s["doc"]["id"]): edit_kind(s["doc"].get("mutation")) for s in run.samples
                              if isinstance(s, dict) and isinstance(s.get("doc"), dict)})
    return scores, kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trained", nargs="+", required=True, help="the fine-tune's runs on its own problems")
    parser.add_argument("--control", nargs="+", required=True, help="a model that did not see them, same problems")
    parser.add_argument("--benchmark", default="transcoder", choices=("avatar", "codenet", "transcoder"))
    args = parser.parse_args()
    try:
        trained, kinds = _scores(args.trained, args.benchmark)
        control, _ = _scores(args.control, args.benchmark)
    except DataError as error:
        print(error, file=sys.stderr)
        return 2
    missing = [f"{side} {variant}" for side, scores in (("--trained", trained), ("--control", control))
               for variant in VARIANTS if not scores.get(variant)]
    if missing:
        print(f"no logged samples of {args.benchmark}: {', '.join(missing)} (run lm_eval with --log_samples)",
              file=sys.stderr)
        return 2
    documents = set(kinds).intersection(*(set(s[v]) for s in (trained, control) for v in VARIANTS))
    print(f"{'edits':<34}{'docs':>5}" + "".join(f"{v + ' net':>14}" for v in VARIANTS) + "   share of orig's")
    groups = [*sorted({kinds[d] for d in documents}), "all"]
    for group in groups:
        chosen = [d for d in documents if group in ("all", kinds[d])]
        net = {v: sum(trained[v][d] - control[v][d] for d in chosen) for v in VARIANTS}
        shares = ", ".join(f"{v} {net[v] / net['orig']:.0%}" if net["orig"] > 0 else f"{v} -"
                           for v in VARIANTS[1:])
        print(f"{group:<34}{len(chosen):>5}" + "".join(f"{net[v]:>+14.2f}" for v in VARIANTS) + f"   {shares}")
    print(f"(net: the trained model's documents passed less the control's, pass@1 summed; {len(documents)} "
          f"documents both scored on {', '.join(VARIANTS)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
