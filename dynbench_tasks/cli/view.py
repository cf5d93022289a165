"""``dynbench view``: a static HTML page of logged samples, original against mutated program."""

from __future__ import annotations

import argparse
import sys

from dynbench_tasks.cli.arguments import output_file


def add_parsers(commands) -> None:
    view = commands.add_parser(
        "view", help="a static HTML page of logged samples: original vs mutated program, answers, outcome flips",
    )
    view.add_argument("run_dir", metavar="RUN_DIR")
    view.add_argument("--variant", required=True, help="e.g. cruxeval_fuv (compared with the same benchmark's orig)")
    view.add_argument("--out", required=True, type=output_file, metavar="FILE.html")
    view.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.viewer import write_viewer

    flips = write_viewer(args.run_dir, args.variant, args.out)
    print(f"{args.out}: {flips} outcome flips (passed on orig, failed on {args.variant})", file=sys.stderr)
    return 0
