"""One cold evaluation, whole process: ``lm_eval --tasks TASKS --limit 1`` with an empty datasets
cache, so every document of every task is built from scratch (what a fresh seed costs). Time it with
a timer that runs it several times, e.g. ``/usr/bin/time -v`` or ``hyperfine``, against the same
command with ``--tasks cruxeval_orig``:

    python scripts/bench_cold_run.py --tasks cruxeval_dynamic
    python scripts/bench_cold_run.py --tasks cruxeval_orig

The model is the embedded SmolLM2-135M-Instruct (``--model_args`` to use another hf model); it
answers one problem per task (its ``repeats`` times) with one token, so the run is mostly building
rather than generating, which grows with the number of tasks whatever builds them
(``--max-gen-toks 24``: 65 answers of 24 tokens take about a minute of a 2-core machine).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default="cruxeval_dynamic")
    parser.add_argument("--model_args", help="hf model arguments (default: the embedded SmolLM2)")
    parser.add_argument("--metadata", default="{}", help="passed to lm_eval --metadata (e.g. a seed)")
    parser.add_argument("--max-gen-toks", type=int, default=1, help="tokens per answer (default 1)")
    args = parser.parse_args()
    if args.model_args is None:
        from dynbench_tasks.lmeval.demo_model import model_args as demo_model_args

        args.model_args = demo_model_args()
    with tempfile.TemporaryDirectory(prefix="dynbench-cold-") as cache:
        command = [sys.executable, "-m", "lm_eval", "--model", "hf", "--model_args", args.model_args,
                   "--device", "cpu", "--tasks", args.tasks, "--limit", "1",
                   "--gen_kwargs", f"max_gen_toks={args.max_gen_toks}",
                   "--confirm_run_unsafe_code", "--metadata", args.metadata,
                   "--output_path", os.path.join(cache, "out")]
        environment = dict(os.environ, HF_DATASETS_CACHE=os.path.join(cache, "datasets"))
        return subprocess.run(command, env=environment).returncode


if __name__ == "__main__":
    sys.exit(main())
