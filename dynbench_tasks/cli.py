"""The ``dynbench`` command line. Subcommands import their heavy dependencies only when run."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem (exit status 2)."""

    def error(self, message: str) -> None:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from dynbench_tasks import contamination_command, eval_command, judge_command, mutate_command, report_command

    parser = _Parser(prog="dynbench", description="Dynamic code benchmarks for lm-evaluation-harness.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    mutate_command.add_parser(commands)
    eval_command.add_parsers(commands)
    judge_command.add_parser(commands)
    report_command.add_parsers(commands)
    contamination_command.add_parsers(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from dynbench_tasks.errors import UserError

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["eval"] and argv[1:2] not in (["-h"], ["--help"]):
        from dynbench_tasks.eval_command import evaluate

        return evaluate(argv[1:])  # everything after "eval" belongs to lm_eval, options included
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except UserError as error:
        print(f"dynbench {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
