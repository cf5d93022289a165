"""What dynbench adds to a Python start-up: the import time of its modules (and of what they import),
from ``python -X importtime``, the median of several runs.

    python scripts/bench_startup.py                                  # python -c pass, this interpreter
    python scripts/bench_startup.py --code "import lm_eval"          # a program that imports lm-eval
    python scripts/bench_startup.py --python /path/to/venv/bin/python --runs 9

Import times are the interpreter's own count of microseconds spent importing, so they depend less on
a busy machine than wall-clock time does (not at all on what other processes wait for). Run it from a
folder outside the checkout, as the interpreter would otherwise import the checkout's sources.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys

OURS = re.compile(r"^(dynbench_tasks|mutators|task_configs)(\.|$)")
LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)$")


def dynbench_microseconds(importtime_output: str) -> int:
    """Microseconds spent importing dynbench's modules and what they imported: the cumulative time of
    every dynbench module that no other dynbench module imported. ``-X importtime`` prints a module
    after the modules it imported, one level deeper."""
    stack: list[tuple[int, str, int, list]] = []  # (depth, name, cumulative, children), children first
    for line in importtime_output.splitlines():
        found = LINE.match(line)
        if not found:
            continue
        depth = len(found.group(3)) // 2
        children = []
        while stack and stack[-1][0] > depth:
            children.append(stack.pop())
        stack.append((depth, found.group(4), int(found.group(2)), children))

    def ours(nodes) -> int:
        return sum(cumulative if OURS.match(name) else ours(children) for _, name, cumulative, children in nodes)

    return ours(stack)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter to start (default: this one)")
    parser.add_argument("--code", default="pass", help="the program it runs (default: pass)")
    parser.add_argument("--runs", type=int, default=5, help="runs, of which the median is given (default 5)")
    args = parser.parse_args()
    figures = []
    for _ in range(args.runs):
        done = subprocess.run([args.python, "-X", "importtime", "-c", args.code], capture_output=True, text=True)
        if done.returncode != 0:
            problem = done.stderr.strip()[-500:]
            print(f"bench_startup: {args.python} -c {args.code!r} failed: {problem}", file=sys.stderr)
            return 1
        figures.append(dynbench_microseconds(done.stderr))
    print(f"dynbench's modules at start-up of {args.python} -c {args.code!r}: median {statistics.median(figures)} µs "
          f"over {args.runs} runs (each: {', '.join(map(str, figures))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
