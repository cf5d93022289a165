"""The ``dynbench`` command line: one module per command, each adding its parser and importing its
heavy dependencies (lm-eval, datasets, libcst, torch, …) only when it runs, so ``--help`` is quick.
A :class:`~dynbench_tasks.errors.DynbenchError` ends a command as one line with exit status 2, and
so does an option no command has (naming the nearest one). Progress bars go to a terminal only."""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Sequence

from dynbench_tasks.cli import (
    contaminate,
    demo,
    detect,
    evaluate,
    judge,
    leaderboard,
    mutate,
    probe,
    report,
    stats,
    terminal,
    verify,
    view,
)
from mutators.errors import DynbenchError

COMMANDS = (mutate, evaluate, demo, judge, report, stats, view, verify, leaderboard, contaminate, probe, detect)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem (exit status 2)."""

    def error(self, message: str) -> None:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dynbench", description="Dynamic code benchmarks for lm-evaluation-harness.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in COMMANDS:
        command.add_parsers(commands)
    return parser


def _unrecognized(parser: argparse.ArgumentParser, command: str, extras: list[str]) -> str:
    """argparse's complaint about ``extras``, with the nearest option of ``command`` for each."""
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    options = list(commands.choices[command]._option_string_actions)
    hints = [close[0] for extra in extras if extra.startswith("-")
             for close in [difflib.get_close_matches(extra.split("=", 1)[0], options, n=1)] if close]
    hint = f" (did you mean {', '.join(hints)}?)" if hints else ""
    return f"unrecognized arguments: {' '.join(extras)}{hint}"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    terminal.progress_bars_only_to_a_terminal()
    if argv[:1] == ["eval"] and argv[1:2] not in (["-h"], ["--help"]):
        return evaluate.evaluate(argv[1:])  # everything after "eval" belongs to lm_eval, options included
    parser = build_parser()
    args, extras = parser.parse_known_args(argv)
    if extras:
        parser.error(_unrecognized(parser, args.command, extras))
    try:
        return args.handler(args)
    except DynbenchError as error:
        print(f"dynbench {args.command}: error: {error}", file=sys.stderr)
        return 2
