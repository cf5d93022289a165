"""Arguments several commands share, and argparse value types: a bad command-line value becomes a
one-line usage error before any work starts."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from pathlib import Path


def output_file(text: str) -> Path:
    """A file to write: its folder must exist and it must not itself be a folder."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file name")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"folder {path.parent} does not exist")
    return path


def input_file(text: str) -> Path:
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    return path


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def names_from(choices: Iterable[str]) -> Callable[[str], list[str]]:
    """A comma-separated list whose every item is one of ``choices``."""
    allowed = list(choices)

    def parse(text: str) -> list[str]:
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in names if name not in allowed]
        if unknown or not names:
            raise argparse.ArgumentTypeError(
                f"unknown {', '.join(map(repr, unknown)) or 'empty list'}; choose from {', '.join(allowed)}")
        return names

    return parse


def resolve_task(text: str, available: Iterable[str], where: str) -> str:
    """The task ``text`` names among ``available``: its full name (``cruxeval_fuv``) or, where one
    benchmark has it, its variant alone (``fuv``); otherwise a one-line error with the nearest names."""
    from dynbench_tasks.errors import UsageError
    from dynbench_tasks.lmeval.task_names import nearest

    tasks = sorted(set(available))
    if text in tasks:
        return text
    matching = [task for task in tasks if task.endswith(f"_{text}")]
    if len(matching) == 1:
        return matching[0]
    if len(matching) > 1:
        raise UsageError(f"{text!r} is a variant of several tasks in {where}: {', '.join(matching)}; name one")
    close = nearest(text, tasks)
    hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
    raise UsageError(f"{where} has no task {text!r}{hint}; it has {', '.join(tasks) or 'none'}")


def add_data_dir(parser: argparse.ArgumentParser) -> None:
    """``--data-dir``, with the order in which dynbench looks for benchmark data."""
    parser.add_argument("--data-dir", metavar="DIR", help="a benchmark data folder "
                        "(default: $DYNBENCH_DATA_DIR, else the copy bundled with dynbench)")


def add_run_dirs(parser: argparse.ArgumentParser) -> None:
    """The lm-eval output folders a command reads, and their display names."""
    parser.add_argument("run_dirs", nargs="+", metavar="RUN_DIR",
                        help="an lm_eval --output_path folder (or the model folder inside it)")
    parser.add_argument("--names", help="comma-separated display names, one per RUN_DIR")


def load_named_runs(args: argparse.Namespace) -> list:
    """The dynbench task results under ``args.run_dirs``, named by ``--names``; none is an error."""
    from dynbench_tasks.analysis.runs import load_runs
    from dynbench_tasks.errors import DataError

    names = [n.strip() for n in args.names.split(",")] if args.names else None
    if names is not None and len(names) != len(args.run_dirs):
        raise DataError(f"--names gives {len(names)} names for {len(args.run_dirs)} run folders")
    runs = load_runs(args.run_dirs, names)
    if not runs:
        raise DataError("no dynbench task results in " + ", ".join(args.run_dirs))
    return runs
