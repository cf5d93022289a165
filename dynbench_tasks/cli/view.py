"""``dynbench view``: a static HTML page of logged samples, original against mutated program."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parsers(commands) -> None:
    view = commands.add_parser(
        "view", help="a static HTML page of logged samples: original vs mutated program, answers, outcome flips",
    )
    view.add_argument("run_dir", metavar="RUN_DIR",
                      help="an lm_eval --output_path folder (or the model folder inside it), run with --log_samples")
    view.add_argument("--variant", required=True,
                      help="a task of the run, by its name (cruxeval_fuv) or, where one benchmark has it, its variant "
                      "(fuv); compared with the same benchmark's orig")
    view.add_argument("--out", required=True, type=Path, metavar="FILE.html|DIR",
                      help="the page to write, or a folder to write <task>.html into; missing folders are created")
    view.set_defaults(handler=run)


def page_path(out: Path, task: str) -> Path:
    """``--out`` as the page to write: a name ending in .html is the page, anything else a folder
    (the page writer creates whatever folders are missing)."""
    if out.suffix.lower() in (".html", ".htm") and not out.is_dir():
        return out
    return out / f"{task}.html"


def run(args: argparse.Namespace) -> int:
    from dynbench_tasks.analysis.runs import load_runs
    from dynbench_tasks.analysis.text import one_line
    from dynbench_tasks.analysis.viewer import page_samples, unread_warning, viewable_tasks, write_view_page
    from dynbench_tasks.cli.arguments import resolve_task

    runs = load_runs([args.run_dir])
    task = resolve_task(args.variant, viewable_tasks(runs), one_line(args.run_dir))
    out = page_path(args.out, task)
    shown = page_samples(runs, task)
    unread = [unread_warning(run) for run in (shown.base, shown.variant) if run is not None]
    for line in [*shown.left_out, *(one_line(line) for line in unread if line)]:
        print(f"dynbench view: warning: {line}", file=sys.stderr)
    flips = write_view_page(runs, task, out)
    print(out)
    print(f"{out}: {flips} outcome flips (passed on orig, failed on {task})", file=sys.stderr)
    return 0
