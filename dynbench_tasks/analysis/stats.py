"""``dynbench stats``: how many programs each operator changes (the paper's Table 4) and how close
the mutants stay to the originals (Table 3's BLEU; token edit distance), beside the paper's numbers.

BLEU is sacrebleu's corpus BLEU over the programs an operator changed, each program split into
Python tokens (the ``tokenize`` module; layout tokens dropped) and joined by spaces, with
sacrebleu's own tokenisation off (``tokenize="none"``). The edit distance is the Levenshtein
distance between the two token sequences (rapidfuzz)."""

from __future__ import annotations

import io
import statistics
import tokenize
import warnings

import sacrebleu
from rapidfuzz.distance import Levenshtein

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from mutators import MUTATED, PAPER_OPERATORS, mutate

OPERATORS = [operator.name for operator in PAPER_OPERATORS]  # the paper's Tables 3 and 4 count these

_LAYOUT = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


def code_tokens(code: str) -> list[str]:
    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type not in _LAYOUT]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return code.split()


def benchmark_stats(benchmark: str, data_dir: str | None, seed: int) -> tuple[dict, dict]:
    spec = BENCHMARKS[benchmark]
    programs = [spec.program(record) for record in load_benchmark(benchmark, data_dir)]
    row = {"benchmark": benchmark, "programs": len(programs), "paper_programs": spec.paper_programs}
    per_program: dict[str, list[int]] = {}
    for operator in OPERATORS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            results = [mutate(p.code, operator, seed, kind=p.kind, entry_point=p.entry_point,
                              call_arguments=p.call_arguments) for p in programs]
        pairs = [(p.code, r.code) for p, r in zip(programs, results, strict=True) if r.status == MUTATED]
        originals = [" ".join(code_tokens(before)) for before, _ in pairs]
        mutants = [" ".join(code_tokens(after)) for _, after in pairs]
        bleu = sacrebleu.corpus_bleu(mutants, [originals], tokenize="none").score if pairs else None
        distances = [Levenshtein.distance(code_tokens(before), code_tokens(after)) for before, after in pairs]
        per_program[operator] = distances
        row[operator] = {
            "changed": len(pairs), "paper_changed": spec.paper_changed.get(operator),
            "bleu": None if bleu is None else round(bleu, 2), "paper_bleu": spec.paper_bleu.get(operator),
            "median_edit_distance": statistics.median(distances) if distances else None,
        }
    return row, per_program


def _shown(value, digits: int | None = None) -> str:
    if value is None:
        return "—"
    return f"{value:.{digits}f}" if digits is not None else str(value)


def render(rows: list[dict]) -> str:
    lines = ["| benchmark | operator | programs changed (paper) | BLEU vs original (paper) | median token edits |",
             "|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row['benchmark']} | original | {row['programs']} ({_shown(row['paper_programs'])}) | | |")
        for operator in OPERATORS:
            cell = row[operator]
            lines.append(f"| {row['benchmark']} | {operator} | {cell['changed']} ({_shown(cell['paper_changed'])}) | "
                         f"{_shown(cell['bleu'], 2)} ({_shown(cell['paper_bleu'], 2)}) | "
                         f"{cell['median_edit_distance']} |")
    return "\n".join(lines)
