"""Real null runs of the recitation verdict: the demo model (SmolLM2-135M-Instruct, offline on the CPU) through
lm_eval on cruxeval_newinput over benchmark seeds, temperatures and both prompts, each run judged alone by
``dynbench detect``. Every flag is a false alarm or a finding about the model; the flag rate over the runs
comes with its exact (Clopper-Pearson) one-sided 95% upper bound; then the runs pooled, as ``detect`` pools
one model's runs.

    python scripts/detect_real_null_runs.py --out DIR [--limit 150] [--runs 14]

Runs whose results are already under DIR are judged again, not re-run (so an interrupted sweep resumes).
Runs of one benchmark seed share documents, and all runs share the model: they are not independent draws,
so the bound is for these runs, not for honest models in general (scripts/detect_false_alarms.py simulates
those). One sample per document (greedy, or sampled at the run's temperature with lm_eval's --seed).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from scipy import stats

from dynbench_tasks.contamination.detect import detect
from dynbench_tasks.lmeval.demo_model import model_args

TASK = "cruxeval_newinput"
# (benchmark seed, temperature, prompt): seeds x temperatures, then the other prompt and more seeds.
SWEEP = [(seed, temperature, "paper") for seed in (0, 1, 2) for temperature in (0.0, 0.2, 0.8)]
SWEEP += [(0, 0.0, "harness"), (3, 0.2, "paper"), (4, 0.8, "paper"), (1, 0.0, "harness"), (2, 0.2, "harness")]


def lm_eval(out: Path, seed: int, temperature: float, prompt: str, limit: int) -> None:
    metadata = {"seed": seed, "temperature": temperature, "repeats": 1, "prompt": prompt, "scope": "all"}
    command = [sys.executable, "-m", "lm_eval", "--model", "hf", "--model_args", model_args(), "--device", "cpu",
               "--batch_size", "8", "--tasks", TASK, "--limit", str(limit), "--gen_kwargs", "max_gen_toks=48",
               "--confirm_run_unsafe_code", "--log_samples", "--output_path", str(out),
               "--metadata", json.dumps(metadata), "--seed", ",".join([str(seed)] * 4)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="a folder for the runs (kept, resumed)")
    parser.add_argument("--limit", type=int, default=150, help="the first LIMIT problems of each run")
    parser.add_argument("--runs", type=int, default=len(SWEEP), choices=range(1, len(SWEEP) + 1), metavar="N",
                        help=f"the first N of the {len(SWEEP)} runs of the sweep")
    args = parser.parse_args()
    print(f"{'seed':<6}{'temp':<6}{'prompt':<9}{'docs':<6}{'stale':<7}{'decoy':<7}{'p':<9}{'verdict':<20}time")
    flagged, folders = 0, []
    for seed, temperature, prompt in SWEEP[:args.runs]:
        out = args.out / f"seed{seed}_t{temperature}_{prompt}"
        start = time.perf_counter()
        if not any(out.rglob("results_*.json")):
            lm_eval(out, seed, temperature, prompt, args.limit)
        folders.append(str(out))
        (row,) = detect([str(out)])
        flagged += row["verdict"] == "contaminated"
        print(f"{seed:<6}{temperature:<6}{prompt:<9}{row['documents']:<6}{row['stale_documents']:<7}"
              f"{row['control_documents']:<7}{row['p_value']:<9.3g}{row['verdict']:<20}"
              f"{time.perf_counter() - start:.0f} s", flush=True)
    upper = stats.beta.ppf(0.95, flagged + 1, args.runs - flagged) if flagged < args.runs else 1.0
    print(f"flagged {flagged} of {args.runs} runs; exact one-sided 95% upper bound on the flag rate {upper:.3f}")
    (pooled,) = detect(folders)  # one model: its runs pool into one verdict, each problem counted once
    print(f"pooled (one model, {pooled['documents']} problems): {pooled['stale_documents']} stale, "
          f"{pooled['control_documents']} decoy, p = {pooled['p_value']:.3g}, {pooled['verdict']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
