"""How often does the score-based test flag a model: its false-alarm rate among honest models and its power
against one that remembers published answers, by simulation; then each model of the paper's Table 2 against
the other nine.

    python scripts/score_test_null_rates.py [--populations 1000] [--models 6 10 20] [--documents 800] [--seed 0]

A simulated population holds --models models scoring the same documents, 5 samples each. A document has a
difficulty (normal, sd 1.5) and its meaning-preserving rewrite is harder by a document's own amount (normal,
mean 0.8, sd 0.5); a model has a skill (uniform on [-2, 2]) and a knack for rewritten code of its own (normal,
sd 0.3). A sample is right with the logistic chance of skill minus difficulty, so the relation between the two
scores is curved and models scatter about it: any line fitted through them is only an approximation. Under
the null every model is honest and every flag is a false alarm; the rate is per model (each model against
all the others). For power, one model of each population recites the published answer outright on 5%, 10% or
20% of the documents of the published task, and the share of those models flagged is the power.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from dynbench_tasks.contamination.score_test import ScorePoint, score_test
from dynbench_tasks.contamination.verdict import ALPHA, threshold

SAMPLES = 5
RECITED = (0.0, 0.05, 0.10, 0.20)
ALPHAS = (threshold(1), threshold(2))  # a model tested once; twice (e.g. with the decoy verdict)
# The paper's Table 2 (pass@1 in points on orig and FUV; 800 CRUXEval and 200 CodeNet problems).
PAPER = {
    "cruxeval": (800, {"DeepSeek V3": (65.80, 45.93), "GPT-4o mini": (53.60, 31.28), "Llama 3.1 70B": (53.20, 36.79),
                       "Llama 3.1 8B": (31.20, 15.93), "Qwen2.5-Coder 32B": (65.50, 37.25),
                       "Qwen2.5-Coder 14B": (58.30, 33.90), "Qwen2.5-Coder 7B": (45.70, 31.61),
                       "StarCoder2 15B": (33.10, 12.07), "StarCoder2 7B": (33.80, 20.33),
                       "StarCoder2 3B": (30.00, 16.59)}),
    "codenet": (200, {"DeepSeek V3": (94.70, 78.93), "GPT-4o mini": (90.20, 70.71), "Llama 3.1 70B": (88.00, 43.21),
                      "Llama 3.1 8B": (66.70, 25.00), "Qwen2.5-Coder 32B": (92.70, 58.21),
                      "Qwen2.5-Coder 14B": (86.30, 58.93), "Qwen2.5-Coder 7B": (84.10, 40.71),
                      "StarCoder2 15B": (58.60, 32.86), "StarCoder2 7B": (43.00, 18.21),
                      "StarCoder2 3B": (50.70, 19.29)}),
}


def population(rng: np.random.Generator, models: int, documents: int, recited: float) -> list[ScorePoint]:
    """Simulated models' scores; the first recites `recited` of the published documents."""
    difficulty = rng.normal(0.0, 1.5, documents)
    harder = difficulty + rng.normal(0.8, 0.5, documents)
    points = []
    for index in range(models):
        skill, knack = rng.uniform(-2, 2), rng.normal(0.0, 0.3)
        static = rng.binomial(SAMPLES, 1 / (1 + np.exp(difficulty - skill))) / SAMPLES
        dynamic = rng.binomial(SAMPLES, 1 / (1 + np.exp(harder - skill - knack))) / SAMPLES
        if index == 0 and recited:
            static = np.where(rng.random(documents) < recited, 1.0, static)
        points.append(ScorePoint(f"m{index}", float(static.mean()), float(dynamic.mean()), documents, documents))
    return points


def simulate(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    print(f"{args.populations} populations per row, {args.documents} documents x {SAMPLES} samples, seed {args.seed}; "
          "a cell: the share flagged (95% upper bound)")
    print(f"{'models':<8}{'scenario':<24}" + "".join(f"{'alpha ' + format(a, '.3g'):<24}" for a in ALPHAS))
    for models in args.models:
        for recited in RECITED:
            p_values = []
            for _ in range(args.populations):
                points = population(rng, models, args.documents, recited)
                targets = points if not recited else points[:1]  # null: every model; power: the reciting one
                p_values += [score_test(target, [p for p in points if p is not target], ALPHA, "simulated").p_value
                             for target in targets]
            label = "honest (false alarms)" if not recited else f"reciting {recited:.0%} (power)"
            cells = []
            for alpha in ALPHAS:
                share = sum(p <= alpha for p in p_values) / len(p_values)
                upper = share + 1.96 * math.sqrt(max(share * (1 - share), 1 / len(p_values)) / len(p_values))
                cells.append(f"{share:.4f} ({upper:.4f})")
            print(f"{models:<8}{label:<24}" + "".join(f"{cell:<24}" for cell in cells))


def paper() -> None:
    print("the paper's Table 2, each model against the other nine:")
    for benchmark, (documents, scores) in PAPER.items():
        points = [ScorePoint(model, static / 100, dynamic / 100, documents, documents)
                  for model, (static, dynamic) in scores.items()]
        for target in points:
            verdict = score_test(target, [p for p in points if p is not target], ALPHA, benchmark)
            print(f"  {benchmark:<9} {target.model:<18} orig {verdict.static:6.1%} predicted {verdict.predicted:6.1%}"
                  f"  excess {verdict.excess:+6.1%}  p = {verdict.p_value:.3f}  {verdict.verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--populations", type=int, default=1000, help="simulated populations per row")
    parser.add_argument("--models", type=int, nargs="+", default=[6, 10, 20],
                        help="models per population (each tested against the rest)")
    parser.add_argument("--documents", type=int, default=800)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    simulate(args)
    paper()
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
