"""``dynbench eval`` and ``dynbench tasks-path``: run lm-eval with dynbench's tasks; where the tasks are.

``dynbench eval`` is lm-eval's own command line, run in this process with dynbench's import hook
installed (:mod:`dynbench_tasks.lmeval.discovery`): the hook checks task names, settings and tools
before lm-eval indexes its tasks or loads a model, and prints a problem as one line. What lm-eval
itself refuses (a task it does not know) is one line here too."""

from __future__ import annotations

import argparse
import sys

from dynbench_tasks.lmeval import discovery, environment
from mutators.errors import DynbenchError

_NOT_FOUND = "Tasks not found: "  # lm-eval's ValueError when no task matches a name


def add_parsers(commands) -> None:
    evaluate = commands.add_parser(
        "eval", help="run lm_eval with dynbench's tasks available",
        description="Everything after 'eval' goes to lm_eval unchanged, e.g. dynbench eval --model hf "
        "--model_args pretrained=MODEL --tasks cruxeval_orig,cruxeval_fuv --confirm_run_unsafe_code",
    )
    evaluate.add_argument("lm_eval_args", nargs=argparse.REMAINDER, metavar="LM_EVAL_ARGUMENTS",
                          help="lm_eval's own arguments (--model, --tasks, ...), passed on as they are")
    evaluate.set_defaults(handler=run_eval)

    path = commands.add_parser("tasks-path", help="print the task folder, for lm_eval --include_path")
    path.set_defaults(handler=lambda args: print(environment.task_directory()) or 0)


def run_eval(args: argparse.Namespace) -> int:
    return evaluate(list(args.lm_eval_args))


def evaluate(lm_eval_args: list[str], program: str = "dynbench eval") -> int:
    """lm-eval's own command line, in this process, with dynbench's import hook installed; a problem
    ends it as one line starting with ``program`` (exit status 2)."""
    discovery.install()
    from lm_eval.__main__ import cli_evaluate

    saved = sys.argv
    sys.argv = [program, *lm_eval_args]  # lm-eval's errors, and the hook's, name the command typed
    try:
        cli_evaluate()
    except DynbenchError as error:
        print(f"{program}: error: {error}", file=sys.stderr)
        return 2
    except ValueError as error:
        if not str(error).startswith(_NOT_FOUND):
            raise
        print(f"{program}: error: {_not_found(str(error).removeprefix(_NOT_FOUND))}", file=sys.stderr)
        return 2
    finally:
        sys.argv = saved
    return 0


def _not_found(names: str) -> str:
    missing = [name.strip() for name in names.split(",")]
    hints = [f"{name!r} (did you mean {' or '.join(map(repr, discovery.nearest_tasks(name)))}?)"
             if discovery.nearest_tasks(name) else repr(name) for name in missing]
    return f"no task {', '.join(hints)}; `lm_eval ls tasks` lists lm-eval's own"
