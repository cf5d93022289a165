"""The contamination verdict as a section of ``dynbench report``: per model and benchmark what
``dynbench detect`` says (:mod:`.detect`: the verdict, its counts, p-value and interval), and a chart
of each model's stale rate beside its decoy's, the two rates a verdict compares."""

from __future__ import annotations

from pathlib import Path

from dynbench_tasks.analysis.report import Cell, Section, chart_text
from dynbench_tasks.analysis.runs import TaskRun
from dynbench_tasks.contamination.detect import BENCHMARK, checked_runs, gather, verdicts
from dynbench_tasks.contamination.verdict import CONTAMINATED, Verdict, sentence

TITLE = "Recitation: is a model writing the published answers?"
CHART = "recitation.png"
MEANING = ("A verdict compares, on problems whose input changed, how often a model writes the published output "
           "with how often it writes the decoy (the program's output on another input as near the shown one); "
           "'contaminated' means the published output comes more often than chance allows (one-sided exact sign "
           "test over documents, false alarms at most 5% per model). 'not flagged' is no proof of a clean model: "
           "docs/detect.md says what a verdict means and what it does not.")


def _p(verdict: Verdict) -> str:
    return "< 1e-9" if verdict.p_value < 1e-9 else f"{verdict.p_value:.2g}"


def recitation_section(runs: list[TaskRun], folder: Path) -> Section | None:
    """The section, its chart written into ``folder``; None where no run logged the samples of a
    CRUXEval output task with new answers. As ``dynbench detect``, only runs whose logged documents are the
    ones a rebuild gives (over ``$DYNBENCH_DATA_DIR``, else the bundled data) count; a note names each other."""
    checked, unchecked = checked_runs(runs, benchmarks=(BENCHMARK,))
    found = sorted(verdicts(gather(checked)).items())
    if not found and not unchecked:
        return None
    header = ["model", "benchmark", "verdict", "stale documents", "decoy documents", "stale / decoy samples", "p",
              "excess (95% interval)", "documents for a 5-point excess"]
    rows = [[Cell(model, foreign=True), Cell(benchmark), Cell(v.verdict, level=2 if v.verdict == CONTAMINATED else 0),
             Cell(f"{v.stale_documents} of {v.documents}"), Cell(f"{v.decoy_documents} of {v.documents}"),
             Cell(f"{v.stale} / {v.decoy} of {v.samples}"), Cell(_p(v)),
             Cell(f"{v.excess:+.1%} ({v.interval[0]:+.1%} to {v.interval[1]:+.1%})"), Cell(str(v.needed))]
            for (model, benchmark), v in found]
    notes = [sentence(v, model, benchmark) for (model, benchmark), v in found] + [r.line() for r in unchecked] + [
        MEANING]
    path = folder / CHART
    _chart(found, path)
    return Section(TITLE, header, rows, notes, path, "stale and decoy rates by model")


def _chart(found: list[tuple[tuple[str, str], Verdict]], path: Path) -> None:
    """Per model and benchmark, the share of samples that wrote the published output and the share that
    wrote the decoy, side by side, the verdict under them."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(max(6.0, 1.6 * len(found) + 2), 4.5))
    places = range(len(found))
    stale = [100 * v.stale / max(1, v.samples) for _, v in found]
    decoy = [100 * v.decoy / max(1, v.samples) for _, v in found]
    axes.bar([p - 0.2 for p in places], stale, 0.4, label="stale: the published output", color="#c03030")
    axes.bar([p + 0.2 for p in places], decoy, 0.4, label="decoy: the control", color="#3060c0")
    axes.set_xticks(list(places), [f"{chart_text(model)}\n{benchmark}\n{v.verdict}" for (model, benchmark), v in found],
                    fontsize=8)
    axes.set_ylim(0, 100)
    axes.set_ylabel("samples on documents with a decoy (%)")
    axes.set_title("Stale answers against the decoy, by model")
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
