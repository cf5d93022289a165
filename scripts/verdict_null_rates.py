"""How often does the recitation verdict flag a model, by simulation: its false-alarm rate on honest models and
its power against reciting ones, at the per-benchmark alpha of one and of two benchmarks tested together.

    python scripts/verdict_null_rates.py [--models 2000] [--documents 200] [--seed 0]

Each simulated model answers every document 5 times. A document gets a rate drawn from [0, 0.3]; an honest
sample writes the published answer with that chance and the decoy with the same chance (never both), so the
two are exchangeable and any flag is a false alarm. The asymmetric honest model writes the published answer
one point more often than the decoy without reciting: a broken control (a decoy that is slightly harder to
land on), under which flags are false alarms the sign test does not protect against. A reciting model writes
the published answer outright in 5%, 10% or 20% of its samples and answers honestly otherwise; the share of
those flagged is the power. Each figure is a share of --models models, with its Monte Carlo standard error.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from dynbench_tasks.contamination.verdict import CONTAMINATED, Unit, judge, threshold

SAMPLES = 5
BENCHMARK_COUNTS = (1, 2)
# (label, what a flag is, published-answer advantage of an honest sample, share of samples recited)
SCENARIOS = (
    ("honest", "false alarm", 0.0, 0.0),
    ("honest, published +1 pt", "false alarm", 0.01, 0.0),
    ("reciting 5%", "power", 0.0, 0.05),
    ("reciting 10%", "power", 0.0, 0.10),
    ("reciting 20%", "power", 0.0, 0.20),
)


def simulated_model(rng: random.Random, documents: int, advantage: float, recite: float) -> list[Unit]:
    units = []
    for index in range(documents):
        rate = rng.uniform(0.0, 0.3)
        stale = decoy = 0
        for _ in range(SAMPLES):
            if rng.random() < recite:
                stale += 1
                continue
            draw = rng.random()
            stale += draw < rate + advantage
            decoy += rate + advantage <= draw < 2 * rate + advantage
        units.append(Unit(f"p{index}", SAMPLES, stale, decoy))
    return units


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=int, default=2000, help="simulated models per scenario")
    parser.add_argument("--documents", type=int, default=200, help="documents per model")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    headers = [f"B={count} (alpha {threshold(count):.3g})" for count in BENCHMARK_COUNTS]
    print(f"{args.models} models x {args.documents} documents x {SAMPLES} samples, seed {args.seed}")
    print((f"{'scenario':<26}{'flag is':<13}" + "".join(f"{header:<24}" for header in headers)).rstrip())
    for label, meaning, advantage, recite in SCENARIOS:
        flagged = [0] * len(BENCHMARK_COUNTS)
        for _ in range(args.models):
            units = simulated_model(rng, args.documents, advantage, recite)
            for column, count in enumerate(BENCHMARK_COUNTS):
                flagged[column] += judge(units, threshold(count)).verdict == CONTAMINATED
        cells = []
        for count in flagged:
            share = count / args.models
            cells.append(f"{share:.4f} +- {math.sqrt(share * (1 - share) / args.models):.4f}")
        print((f"{label:<26}{meaning:<13}" + "".join(f"{cell:<24}" for cell in cells)).rstrip())
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
