"""How often does the recitation verdict flag a model, by simulation: its false-alarm rate on honest models and
its power against reciting ones, at the per-benchmark alpha of one and of two benchmarks tested together.

    python scripts/verdict_null_rates.py [--models 2000] [--documents 200] [--seed 0] [--against]

Each simulated model answers every document 5 times. A document gets a rate drawn from [0, 0.3]; an honest
sample writes the published answer with that chance and the decoy with the same chance (never both), so the
two are exchangeable and any flag is a false alarm. The asymmetric honest model writes the published answer
one point more often than the decoy without reciting: a broken control (a decoy that is slightly harder to
land on), under which flags are false alarms the sign test does not protect against. A reciting model writes
the published answer outright in 5%, 10% or 20% of its samples and answers honestly otherwise; the share of
those flagged is the power. Each figure is a share of --models models, with its Monte Carlo standard error.

``--against``: the paired test of ``dynbench detect --against`` (translation, CRUXEval newoutput), a model
against a reference model on the same documents. A document's stale rate is drawn from [0, 1] (an honest
model that overlooks an edit writes stale Java often) and both models sample it: any flag is a false alarm.
A fine-tune that recites answers the stale answer outright in 5%, 10% or 20% of its samples.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from dynbench_tasks.contamination.verdict import CONTAMINATED, Unit, judge, paired_against, threshold

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


PAIRED_SCENARIOS = (
    ("same rates as the reference", "false alarm", 0.0),
    ("reciting 5% more", "power", 0.05),
    ("reciting 10% more", "power", 0.10),
    ("reciting 20% more", "power", 0.20),
)


def paired_models(rng: random.Random, documents: int, recite: float) -> tuple[list[Unit], list[Unit]]:
    """A model and its reference on the same documents, each document's stale rate shared by both."""
    model, reference = [], []
    for index in range(documents):
        rate = rng.uniform(0.0, 1.0)
        stale = sum(rng.random() < recite or rng.random() < rate for _ in range(SAMPLES))
        model.append(Unit(f"p{index}", SAMPLES, stale, 0))
        reference.append(Unit(f"p{index}", SAMPLES, sum(rng.random() < rate for _ in range(SAMPLES)), 0))
    return model, reference


def flagged_share(count: int, models: int) -> str:
    share = count / models
    return f"{share:.4f} +- {math.sqrt(share * (1 - share) / models):.4f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=int, default=2000, help="simulated models per scenario")
    parser.add_argument("--documents", type=int, default=200, help="documents per model")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--against", action="store_true", help="the paired test against a reference model")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    headers = [f"B={count} (alpha {threshold(count):.3g})" for count in BENCHMARK_COUNTS]
    print(f"{args.models} {'pairs of models' if args.against else 'models'} x {args.documents} documents x "
          f"{SAMPLES} samples, seed {args.seed}")
    print((f"{'scenario':<30}{'flag is':<13}" + "".join(f"{header:<24}" for header in headers)).rstrip())
    scenarios = PAIRED_SCENARIOS if args.against else SCENARIOS
    for label, meaning, *shape in scenarios:
        flagged = [0] * len(BENCHMARK_COUNTS)
        for _ in range(args.models):
            pair = paired_models(rng, args.documents, *shape) if args.against else None
            units = None if pair else simulated_model(rng, args.documents, *shape)
            for column, count in enumerate(BENCHMARK_COUNTS):
                verdict = paired_against(*pair, threshold(count)) if pair else judge(units, threshold(count))
                flagged[column] += verdict.verdict == CONTAMINATED
        cells = [flagged_share(count, args.models) for count in flagged]
        print((f"{label:<30}{meaning:<13}" + "".join(f"{cell:<24}" for cell in cells)).rstrip())
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
