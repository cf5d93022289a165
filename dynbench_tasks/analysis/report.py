"""``dynbench report``: the paper's comparisons from lm-eval output folders, as Markdown, CSV, a
self-contained HTML page and box plots."""

from __future__ import annotations

import base64
import csv
import html
from dataclasses import dataclass
from pathlib import Path

from dynbench_tasks.analysis.comparisons import Paired, kendall_tau, paired, ranking
from dynbench_tasks.analysis.runs import TaskRun, pool_runs
from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.lmeval.counts import NOT_JUDGEABLE, SCORED, STATIC_STATUS
from dynbench_tasks.variants import STATIC, VARIANTS
from mutators.programs import STATUSES

COVERAGE = (*STATUSES, NOT_JUDGEABLE, SCORED)


@dataclass
class Cell:
    text: str
    level: int = 0  # 1: a drop past 10 points, 2: past 20


def _drop_level(drop: float) -> int:
    return 2 if drop >= 20 else 1 if drop >= 10 else 0


class Report:
    """The runs of a report, one per model and task: runs of a model with several seeds are pooled
    (:func:`~dynbench_tasks.analysis.runs.pool_runs`)."""

    def __init__(self, runs: list[TaskRun]) -> None:
        pooled = pool_runs(runs)
        self.runs = {(r.model, r.benchmark, r.variant): r for r in pooled}
        self.models = list(dict.fromkeys(r.model for r in pooled))
        self.benchmarks = [b for b in BENCHMARKS if any(r.benchmark == b for r in pooled)]

    def run(self, model: str, benchmark: str, variant: str) -> TaskRun | None:
        return self.runs.get((model, benchmark, variant))

    def variants(self, benchmark: str) -> list[str]:
        return [v for v in VARIANTS if any(self.run(m, benchmark, v) for m in self.models)]

    def scores(self, benchmark: str, variant: str) -> dict[str, float]:
        found = {m: self.run(m, benchmark, variant) for m in self.models}
        return {m: r.pass_at_1 * 100 for m, r in found.items() if r is not None and r.pass_at_1 is not None}

    def cell(self, model: str, benchmark: str, variant: str) -> Cell:
        run = self.run(model, benchmark, variant)
        if run is None:
            return Cell("—")
        if run.pass_at_1 is None:
            return Cell("failed")
        score = run.pass_at_1 * 100
        shown = f"{score:.2f}" + (f" ±{(run.spread or 0) * 100:.2f} ({len(run.seeds)} seeds)" if run.seeds else "")
        base = self.run(model, benchmark, STATIC)
        if variant == STATIC or base is None or base.pass_at_1 is None:
            return Cell(shown)
        drop = base.pass_at_1 * 100 - score
        return Cell(f"{shown} ({drop:+.2f})", _drop_level(drop))

    def paired(self, model: str, benchmark: str, variant: str) -> Paired | None:
        base, run = self.run(model, benchmark, STATIC), self.run(model, benchmark, variant)
        return paired(base, run) if base is not None and run is not None else None

    def coverage(self, benchmark: str, variant: str) -> dict:
        for model in self.models:
            run = self.run(model, benchmark, variant)
            if run is not None and run.counts:
                return run.counts
        return {}


# ---------------------------------------------------------------------------------- tables
def table_rows(report: Report, benchmark: str) -> tuple[list[str], list[list[Cell]]]:
    variants = report.variants(benchmark)
    rows = [[Cell(model)] + [report.cell(model, benchmark, v) for v in variants] for model in report.models]
    return ["model", *variants], rows


def ranking_rows(report: Report, benchmark: str) -> tuple[list[str], list[list[Cell]]]:
    original = report.scores(benchmark, STATIC)
    rows = []
    for variant in report.variants(benchmark):
        scores = report.scores(benchmark, variant)
        tau = kendall_tau(original, scores) if variant != STATIC else None
        rows.append([Cell(variant), Cell(" > ".join(ranking(scores)) or "—"),
                     Cell("—" if tau is None else f"{tau:.2f}")])
    return ["variant", "ranking (best first)", "Kendall τ vs orig"], rows


def paired_rows(report: Report, benchmark: str) -> tuple[list[str], list[list[Cell]]]:
    rows = []
    for model in report.models:
        for variant in report.variants(benchmark):
            if variant == STATIC or report.run(model, benchmark, variant) is None:
                continue
            result = report.paired(model, benchmark, variant)
            if result is None:
                rows.append([Cell(model), Cell(variant), Cell("no shared logged samples")] + [Cell("—")] * 4)
                continue
            rows.append([
                Cell(model), Cell(variant), Cell(str(result.shared)),
                Cell(f"{result.drop:+.2f}", _drop_level(result.drop)),
                Cell(f"[{result.ci_low:+.2f}, {result.ci_high:+.2f}]"),
                Cell(f"{result.orig_only} / {result.variant_only}"), Cell(f"{result.p_value:.3g}"),
            ])
    return ["model", "variant", "shared docs", "drop (points)", "95% bootstrap CI", "orig-only / variant-only passes",
            "McNemar p"], rows


def coverage_rows(report: Report, benchmark: str) -> tuple[list[str], list[list[Cell]]]:
    rows = []
    for variant in report.variants(benchmark):
        counts = report.coverage(benchmark, variant)
        rows.append([Cell(variant)] + [Cell(str(counts.get(key, counts.get(STATIC_STATUS, 0) if key == SCORED else 0)))
                                       for key in COVERAGE])
    return ["variant", *COVERAGE], rows


SECTIONS = [
    ("pass@1 (drop against orig in points; bold past 10, bold italic past 20)", table_rows),
    ("Ranking of models", ranking_rows),
    ("Paired comparison on shared documents", paired_rows),
    ("Coverage of each variant (programs)", coverage_rows),
]


# ---------------------------------------------------------------------------------- renderers
def _markdown_cell(cell: Cell) -> str:
    return {0: cell.text, 1: f"**{cell.text}**", 2: f"***{cell.text}***"}[cell.level]


def markdown(report: Report, images: dict[str, str]) -> str:
    lines = ["# dynbench report", "", f"Models: {', '.join(report.models)}", ""]
    for benchmark in report.benchmarks:
        lines += [f"## {benchmark}", ""]
        for title, build in SECTIONS:
            header, rows = build(report, benchmark)
            lines += [f"### {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            lines += ["| " + " | ".join(_markdown_cell(c) for c in row) + " |" for row in rows]
            lines.append("")
        if benchmark in images:
            lines += [f"![{benchmark} box plot]({images[benchmark]})", ""]
    return "\n".join(lines)


_STYLE = """body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}.l1{background:#ffe3b3}.l2{background:#ffb3b3}"""


def html_page(report: Report, images: dict[str, Path]) -> str:
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>dynbench report</title>"
             f"<style>{_STYLE}</style></head><body><h1>dynbench report</h1>"
             f"<p>Models: {html.escape(', '.join(report.models))}</p>"]
    for benchmark in report.benchmarks:
        parts.append(f"<h2>{html.escape(benchmark)}</h2>")
        for title, build in SECTIONS:
            header, rows = build(report, benchmark)
            parts.append(f"<h3>{html.escape(title)}</h3><table><tr>"
                         + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>")
            for row in rows:
                parts.append("<tr>" + "".join(f"<td class='l{c.level}'>{html.escape(c.text)}</td>" for c in row)
                             + "</tr>")
            parts.append("</table>")
        if benchmark in images:
            encoded = base64.b64encode(images[benchmark].read_bytes()).decode()
            parts.append(f"<img alt='{benchmark} box plot' src='data:image/png;base64,{encoded}'>")
    parts.append("</body></html>")
    return "".join(parts)


def write_csv(report: Report, path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["model", "benchmark", "variant", "pass@1", "drop", "shared_docs", "paired_drop",
                         "ci_low", "ci_high", "mcnemar_p", "chain", "seed"])
        for benchmark in report.benchmarks:
            for model in report.models:
                base = report.run(model, benchmark, STATIC)
                for variant in report.variants(benchmark):
                    run = report.run(model, benchmark, variant)
                    if run is None:
                        continue
                    score = None if run.pass_at_1 is None else run.pass_at_1 * 100
                    drop = None if score is None or base is None or base.pass_at_1 is None or variant == STATIC \
                        else base.pass_at_1 * 100 - score
                    result = report.paired(model, benchmark, variant) if variant != STATIC else None
                    settings = run.metadata.get("dynbench") or {}
                    writer.writerow([model, benchmark, variant, _num(score), _num(drop),
                                     result.shared if result else "", _num(result and result.drop),
                                     _num(result and result.ci_low), _num(result and result.ci_high),
                                     _num(result and result.p_value, 4), settings.get("chain") or "",
                                     " ".join(map(str, run.seeds)) if run.seeds else settings.get("seed", "")])


def _num(value, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def box_plots(report: Report, folder: Path) -> dict[str, Path]:
    """The paper's Figure 4: per benchmark, the spread of model scores under each variant."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = {}
    for benchmark in report.benchmarks:
        variants = [v for v in report.variants(benchmark) if report.scores(benchmark, v)]
        if not variants:
            continue
        figure, axes = plt.subplots(figsize=(max(6.0, 1.1 * len(variants) + 2), 4))
        axes.boxplot([list(report.scores(benchmark, v).values()) for v in variants])
        axes.set_xticks(range(1, len(variants) + 1), variants, rotation=30)
        axes.set_ylabel("pass@1 (%)")
        axes.set_title(f"{benchmark}: model scores by variant ({len(report.models)} models)")
        figure.tight_layout()
        path = folder / f"{benchmark}_boxplot.png"
        figure.savefig(path, dpi=100)
        plt.close(figure)
        written[benchmark] = path
    return written


def write_report(report: Report, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    images = box_plots(report, folder)
    (folder / "report.md").write_text(markdown(report, {b: p.name for b, p in images.items()}), encoding="utf-8")
    (folder / "report.html").write_text(html_page(report, images), encoding="utf-8")
    write_csv(report, folder / "report.csv")
    return [folder / "report.md", folder / "report.html", folder / "report.csv", *images.values()]
