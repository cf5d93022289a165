"""``dynbench leaderboard RUN_DIR... --out DIR``: rank models by their contamination-resistant score,
verified, offline; ``--seed`` makes it a round's."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dynbench_tasks.cli.arguments import add_run_dirs, load_named_runs

# Settings a round's --round-metadata may not set: its seed is --seed, its data the maintainer's --data-dir.
_NOT_ROUND_SETTINGS = ("seed", "data_dir", "data_source")


def round_settings(text: str) -> str:
    """--round-metadata: a JSON object of task settings, as canonical JSON text."""
    import json

    from dynbench_tasks.lmeval.settings import SETTINGS

    try:
        value = json.loads(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not JSON: {text[:60]!r}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object of task settings, e.g. '{\"repeats\": 1}'")
    allowed = [key for key in SETTINGS if key not in _NOT_ROUND_SETTINGS]
    unknown = [key for key in value if key not in allowed]
    if unknown:
        raise argparse.ArgumentTypeError(f"{', '.join(map(repr, unknown))} cannot be set here; a round's settings "
                                         f"are {', '.join(allowed)} (its seed is --seed, its data --data-dir)")
    return json.dumps(value, sort_keys=True)


def add_parsers(commands) -> None:
    leaderboard = commands.add_parser(
        "leaderboard", help="a static site ranking models by their contamination-resistant score, verified",
        description="Reads lm-eval output folders (any number of models and seeds), verifies every run as dynbench "
        "verify does, and writes index.html (sortable, self-contained, offline), leaderboard.json, .csv, .md and "
        "a views/ page per row to --out. Models are ranked by the mean pass@1 over the answer-changing variants "
        "their runs hold (on translation not newoutput, whose one changed literal a model copies into the Java it "
        "memorised), beside static (orig), robustness and drop = static - headline; on CRUXEval each model's "
        "recitation verdict (as dynbench detect) from its runs verify verified in full.",
    )
    add_run_dirs(leaderboard)
    leaderboard.add_argument("--out", required=True, metavar="DIR",
                             help="the folder to write the leaderboard into (page, CSV, JSON, Markdown)")
    leaderboard.add_argument("--seed", type=int, metavar="S", help="a round's seed: rank only runs made with it and "
                             "with the round's settings (--round-metadata), this dynbench's engine and judging rules "
                             "and the data in use, and list every other run apart with the reason")
    leaderboard.add_argument("--round-metadata", type=round_settings, default="{}", metavar="JSON",
                             help="the round's task settings, as lm_eval --metadata takes them (e.g. "
                             "'{\"repeats\": 1, \"temperature\": 0}'); every setting left out is dynbench's default")
    leaderboard.add_argument("--require-greedy", action="store_true", help="rank only runs certified greedy by "
                             "verify (temperature 0, repeats that agree), whose answers a spot check (dynbench verify "
                             "--reproduce) can compare; in a round, temperature 0 unless --round-metadata names one")
    leaderboard.add_argument("--data-dir", metavar="DIR", help="the benchmark data runs are verified against, "
                             "chosen by the maintainer (default: $DYNBENCH_DATA_DIR, else the copy bundled with "
                             "dynbench); a run's own data folder is never read")
    leaderboard.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.leaderboard import (
        Round,
        duplicate_warnings,
        settings_warnings,
        warnings,
        write_leaderboard,
    )
    from dynbench_tasks.analysis.runs import BUILTIN, look_alike_lines, shared_name_lines
    from dynbench_tasks.analysis.verify import verify_task
    from dynbench_tasks.contamination.leaderboard_column import recitation_column

    runs = load_named_runs(args)
    verdicts = {id(r): verify_task(r, args.data_dir) for r in runs if r.variant != BUILTIN}
    if args.round_metadata != "{}" and args.seed is None:
        from dynbench_tasks.errors import UsageError

        raise UsageError("--round-metadata sets a round's settings: give the round's --seed too")
    for verdict in verdicts.values():
        print(verdict.line())  # one line of plain text: it names the model, and a submitted name may hold anything
    game = Round(args.seed, args.round_metadata, args.require_greedy, args.data_dir)
    rows, written = write_leaderboard(runs, verdicts, Path(args.out), game=game, recite=recitation_column(verdicts))
    for line in (shared_name_lines(runs) + look_alike_lines(runs) + duplicate_warnings(runs)
                 + settings_warnings(runs, game) + warnings(rows, args.seed)):
        print(f"dynbench leaderboard: warning: {line}", file=sys.stderr)
    for path in written:
        print(path)
    return 0
