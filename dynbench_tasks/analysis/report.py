"""``dynbench report``: the paper's comparisons from lm-eval output folders, as Markdown, CSV, a
self-contained HTML page and one chart per benchmark. Each benchmark opens with its headline, the
contamination-resistant score (:data:`HEADLINE_WHY` says why it is built so), beside the static
score, robustness and the drop."""

from __future__ import annotations

import base64
import csv
import html
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dynbench_tasks.analysis.comparisons import (
    Paired,
    headline_figures,
    kendall_tau,
    mean_with_interval,
    paired,
    ranking,
    robustness,
)
from dynbench_tasks.analysis.runs import TaskRun, pool_runs
from dynbench_tasks.analysis.text import csv_cell, html_text, markdown_cell, one_line
from dynbench_tasks.analysis.viewer import answer_breakdown, unread_warning, unscored_samples
from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.lmeval.answer_statuses import OTHER_STATUS, UNREAD, WARN_SHARE
from dynbench_tasks.lmeval.counts import NOT_JUDGEABLE, SCORED, STATIC_STATUS
from dynbench_tasks.variants import ANSWER_CHANGING, COPYABLE_ANSWER_CHANGES, MEANING_PRESERVING, STATIC, VARIANTS
from mutators.programs import STATUSES

HEADLINE = "contamination-resistant"
ROBUSTNESS = "robustness"
HEADLINE_WHY = (
    f"Why this headline: the answer-changing variants ({', '.join(ANSWER_CHANGING)}) give every problem they score a "
    "new answer, so a model that memorised the published benchmark earns nothing there. On translation it leaves "
    f"out {', '.join(COPYABLE_ANSWER_CHANGES)}: a model that memorised the published Java copies a lone changed "
    "literal into it. Static (orig) is the "
    f"published benchmark, which memorisation can earn. {ROBUSTNESS.capitalize()} averages the paper's "
    f"meaning-preserving rewrites ({MEANING_PRESERVING[0]} … {MEANING_PRESERVING[-1]}): their answers are the "
    "published ones, so they measure how a model copes with a reworded program, not contamination. "
    f"Drop = static - {HEADLINE}, in points: positive means the model scores lower on the dynamic benchmark.")


@dataclass
class Cell:
    text: str
    level: int = 0  # 1: a drop past 10 points, 2: past 20
    foreign: bool = False  # holds model names, which come from result files: escaped for Markdown


@dataclass(frozen=True)
class Section:
    """A section that a part of dynbench this module cannot import adds to the report (the
    contamination verdict): a table, notes under it and a chart (a PNG in the report's folder)."""

    title: str
    header: list[str]
    rows: list[list[Cell]]
    notes: list[str]
    chart: Path | None = None
    chart_text: str = ""


def _drop_level(drop: float) -> int:
    return 2 if drop >= 20 else 1 if drop >= 10 else 0


@dataclass
class Summary:
    """A model's headline on one benchmark, in points of pass@1. Static, headline and drop are
    computed on the documents orig and every answer-changing run scored (``documents``), so that
    static - headline = drop; without logged samples, on the runs' own figures (``documents`` None)."""

    model: str
    static: float | None
    headline: float | None  # the mean over the answer-changing variants present
    headline_variants: list[str]
    robustness: float | None  # the mean of the meaning-preserving variants' pass@1
    robustness_variants: list[str]
    drop: float | None  # static - headline: positive = lower on the dynamic benchmark
    drop_low: float | None  # its 95% bootstrap interval over the documents
    drop_high: float | None
    documents: int | None


class Report:
    """The runs of a report, one per model and task: runs of a model with several seeds are pooled
    (:func:`~dynbench_tasks.analysis.runs.pool_runs`). ``left_out``: one line per samples file some
    of whose samples give no document score, so count in no per-document figure; ``unread``: one line
    per run whose replies mostly gave no answer to read (model names unescaped: escape them)."""

    def __init__(self, runs: list[TaskRun]) -> None:
        self.left_out = [line for line in map(unscored_samples, runs) if line]
        pooled = pool_runs(runs)
        self.unread = [line for line in map(unread_warning, pooled) if line]
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

    def _scored(self, model: str, benchmark: str, group: tuple[str, ...]) -> list[TaskRun]:
        found = (self.run(model, benchmark, v) for v in VARIANTS if v in group)
        return [r for r in found if r is not None and r.pass_at_1 is not None]

    def summary(self, model: str, benchmark: str) -> Summary:
        """The figures the leaderboard shows for a row, computed the same way (comparisons.py)."""
        base = self.run(model, benchmark, STATIC)
        static = [base] if base is not None and base.pass_at_1 is not None else []
        answer_changing = self._scored(model, benchmark, tuple(BENCHMARKS[benchmark].headline_variants))
        figures = headline_figures([static], [answer_changing])
        robust, counted = robustness(static, [self._scored(model, benchmark, MEANING_PRESERVING)])
        return Summary(model, figures.static, figures.headline, [r.variant for r in answer_changing], robust,
                       [r.variant for r in counted], figures.drop, figures.drop_low, figures.drop_high,
                       None if figures.documents is None else len(figures.documents))

    def summaries(self, benchmark: str) -> list[Summary]:
        """Every model's summary, best contamination-resistant score first (models without one last)."""
        found = [self.summary(model, benchmark) for model in self.models
                 if any(self.run(model, benchmark, v) for v in VARIANTS)]
        return sorted(found, key=lambda s: (s.headline is None, -(s.headline or 0)))

    def coverage(self, model: str, benchmark: str, variant: str) -> dict:
        run = self.run(model, benchmark, variant)
        return run.counts if run is not None else {}


def score_interval(run: TaskRun) -> tuple[float, float] | None:
    """The 95% percentile-bootstrap interval of a run's pass@1 (points) over its logged documents."""
    if not run.per_document:
        return None
    _, low, high = mean_with_interval(np.array(list(run.per_document.values())) * 100)
    return low, high


# ---------------------------------------------------------------------------------- tables
def _listed(variants: list[str]) -> str:
    return ", ".join(variants) if variants else "nothing (none run)"


def summary_rows(report: Report) -> tuple[list[str], list[list[Cell]]]:
    rows = []
    for benchmark in report.benchmarks:
        for summary in report.summaries(benchmark):
            drop = "—" if summary.drop is None else f"{summary.drop:+.2f}"
            if summary.drop_low is not None:
                drop += f" [{summary.drop_low:+.2f}, {summary.drop_high:+.2f}]"
            rows.append([
                Cell(benchmark), Cell(summary.model, foreign=True),
                *(Cell(_points(value)) for value in (summary.headline, summary.static, summary.robustness)),
                Cell(drop, 0 if summary.drop is None else _drop_level(summary.drop)),
                Cell(_documents_text(summary)),
            ])
    return ["benchmark", "model", HEADLINE, "static (orig)", ROBUSTNESS, f"drop (static - {HEADLINE}) [95% CI]",
            "documents"], rows


def _documents_text(summary: Summary) -> str:
    if summary.documents is not None:
        return str(summary.documents)
    return "—" if summary.drop is None else "each run's own (no logged samples)"


SUMMARY_DOCUMENTS = (
    f"Static, {HEADLINE} and drop are computed on the documents orig and every answer-changing variant scored "
    "(column 'documents'), so that static - headline = drop; the interval is a 95% percentile bootstrap over those "
    f"documents. {ROBUSTNESS.capitalize()} is the mean of its variants' pass@1.")


def summary_note(report: Report, benchmark: str, name: Callable[[str], str] = str) -> str:
    """Which variants a benchmark's means are over (``name`` writes a model's name for the format),
    and what to run where the headline is missing."""
    summaries = report.summaries(benchmark)
    means = {(tuple(s.headline_variants), tuple(s.robustness_variants)) for s in summaries}
    if len(means) == 1:
        ((headline, robustness),) = means
        text = f"{HEADLINE} = mean of {_listed(list(headline))}; {ROBUSTNESS} = mean of {_listed(list(robustness))}."
    else:
        text = " ".join(f"{name(s.model)}: {HEADLINE} = mean of {_listed(s.headline_variants)}, {ROBUSTNESS} = mean of "
                        f"{_listed(s.robustness_variants)}." for s in summaries)
    if any(s.headline is None for s in summaries):
        offered = BENCHMARKS[benchmark].headline_variants
        text += (f" Without an answer-changing variant there is no {HEADLINE} score: run "
                 f"{' or '.join(f'{benchmark}_{v}' for v in offered)}.")
    return f"{benchmark}: {text}"


def table_rows(report: Report, benchmark: str) -> tuple[list[str], list[list[Cell]]]:
    variants = report.variants(benchmark)
    rows = [[Cell(model, foreign=True)] + [report.cell(model, benchmark, v) for v in variants]
            for model in report.models]
    return ["model", *variants], rows


def ranking_rows(report: Report, benchmark: str) -> tuple[list[str], list[list[Cell]]]:
    original = report.scores(benchmark, STATIC)
    headline = {s.model: s.headline for s in report.summaries(benchmark) if s.headline is not None}
    rows = []
    per_variant = [(v, report.scores(benchmark, v)) for v in report.variants(benchmark)]
    for variant, scores in [(HEADLINE, headline), *per_variant]:
        tau = kendall_tau(original, scores) if variant != STATIC else None
        ranked = " > ".join(" = ".join(place) for place in ranking(scores))
        rows.append([Cell(variant), Cell(ranked or "—", foreign=True),
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
                rows.append([Cell(model, foreign=True), Cell(variant), Cell("no shared logged samples")]
                            + [Cell("—")] * 4)
                continue
            rows.append([
                Cell(model, foreign=True), Cell(variant), Cell(str(result.shared)),
                Cell(f"{result.drop:+.2f}", _drop_level(result.drop)),
                Cell(f"[{result.ci_low:+.2f}, {result.ci_high:+.2f}]"),
                Cell(f"{result.orig_only} / {result.variant_only}"), Cell(f"{result.p_value:.3g}"),
            ])
    return ["model", "variant", "shared docs", "drop (orig - variant)", "95% bootstrap CI",
            "orig-only / variant-only passes", "McNemar p"], rows


def _scored(run: TaskRun) -> tuple[int | None, str]:
    """How many documents a run scored, and where that count comes from (a ``--limit`` run's task
    still records how many documents it built)."""
    if run.per_document:
        return run.documents, "logged samples"
    if run.documents_claimed is not None:
        return run.documents_claimed, "lm-eval's count"
    return run.counts.get(SCORED), "the task's build (the run holds no count)"


def coverage_rows(report: Report, benchmark: str) -> tuple[list[str], list[list[Cell]]]:
    rows = []
    for variant in report.variants(benchmark):
        for model in report.models:
            run = report.run(model, benchmark, variant)
            if run is None:
                continue
            counts = run.counts
            statuses = [Cell("—" if variant == STATIC else str(counts.get(key, 0)))
                        for key in (*STATUSES, NOT_JUDGEABLE)]
            built, (scored, source) = counts.get(SCORED, counts.get(STATIC_STATUS)), _scored(run)
            rows.append([Cell(variant), Cell(model, foreign=True), *statuses,
                         *map(Cell, (_count(built), _count(scored), source))])
    return ["variant", "model", *STATUSES, NOT_JUDGEABLE, "built to score", "scored", "scored counted from"], rows


def status_rows(report: Report, benchmark: str) -> tuple[list[str], list[list[Cell]]]:
    """Per variant and model, the share of samples by status, the form most unread replies took, and
    where the counts come from (runs made before they were recorded, without logged samples: none)."""
    counted = [(variant, model, *answer_breakdown(run)) for variant in report.variants(benchmark)
               for model in report.models if (run := report.run(model, benchmark, variant)) is not None]
    statuses = list(BENCHMARKS[benchmark].sample_statuses)
    if any(breakdown is not None and OTHER_STATUS in breakdown.statuses for _, _, breakdown, _ in counted):
        statuses.append(OTHER_STATUS)
    rows = []
    for variant, model, breakdown, source in counted:
        if breakdown is None or not breakdown.samples:
            figures = [Cell("—")] * (len(statuses) + 3)
        else:
            figures = [Cell(str(breakdown.samples)),
                       Cell(_share(breakdown.unread_share), 2 if breakdown.unread_share > WARN_SHARE else 0),
                       *(Cell(_share(breakdown.share(status))) for status in statuses),
                       Cell(breakdown.commonest_form or "—")]
        rows.append([Cell(variant), Cell(model, foreign=True), *figures, Cell(source)])
    return ["variant", "model", "samples", UNREAD, *statuses, "unread replies, most often", "counted from"], rows


def _share(value: float) -> str:
    return f"{value:.0%}" if value in (0, 1) else f"{value:.1%}"


def _count(value: int | None) -> str:
    return "—" if value is None else str(value)


def _points(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


SECTIONS = [
    ("pass@1 per variant (in brackets: the drop orig - variant in points, positive = lower on the variant; "
     "marked past 10 and 20)", table_rows),
    ("Ranking of models", ranking_rows),
    ("Paired comparison with orig on shared documents", paired_rows),
    ("Coverage: documents per variant (built by the task, and scored by the run)", coverage_rows),
    (f"Answers by status: the share of samples ({UNREAD}: the reader found no answer in the reply; marked past "
     f"{WARN_SHARE:.0%})", status_rows),
]
HEADLINE_TITLE = f"Headline: the {HEADLINE} score per benchmark"
LEFT_OUT = "Not counted (samples that give no document score)"
UNREAD_TITLE = "Answers not read"


# ---------------------------------------------------------------------------------- renderers
def _markdown_cell(cell: Cell) -> str:
    """A model name cannot add rows or markup."""
    text = markdown_cell(cell.text) if cell.foreign else cell.text
    return {0: text, 1: f"**{text}**", 2: f"***{text}***"}[cell.level]


def _markdown_table(header: list[str], rows: list[list[Cell]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(_markdown_cell(c) for c in row) + " |" for row in rows] + [""]


def markdown(report: Report, images: dict[str, str], sections: tuple[Section, ...] = ()) -> str:
    lines = ["# dynbench report", "", f"Models: {markdown_cell(', '.join(report.models))}", ""]
    lines += [*(f"* {LEFT_OUT}: {markdown_cell(line)}" for line in report.left_out), ""] if report.left_out else []
    lines += [*(f"* {UNREAD_TITLE}: {markdown_cell(line)}" for line in report.unread), ""] if report.unread else []
    lines += [f"## {HEADLINE_TITLE}", ""]
    lines += _markdown_table(*summary_rows(report))
    lines += [*(f"* {summary_note(report, b, markdown_cell)}" for b in report.benchmarks), "", SUMMARY_DOCUMENTS, "",
              HEADLINE_WHY, ""]
    for benchmark in report.benchmarks:
        lines += [f"## {benchmark}", ""]
        if benchmark in images:
            lines += [f"![{benchmark}: pass@1 by variant]({images[benchmark]})", ""]
        for title, build in SECTIONS:
            lines += [f"### {title}", "", *_markdown_table(*build(report, benchmark))]
    for section in sections:
        lines += [f"## {section.title}", ""]
        if section.chart is not None:
            lines += [f"![{section.chart_text}]({section.chart.name})", ""]
        lines += [*_markdown_table(section.header, section.rows), *(f"* {markdown_cell(n)}" for n in section.notes), ""]
    return "\n".join(lines)


_STYLE = """*{box-sizing:border-box}body{font-family:sans-serif;margin:2em;line-height:1.4;max-width:80em}
.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse;margin:.5em 0 1em}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}th{background:#f0f0f0}
.l1{background:#ffe3b3}.l2{background:#ffb3b3}table.headline td:nth-child(3){font-weight:bold;font-size:115%}
.why{background:#f4f7ff;border-left:4px solid #3060c0;padding:.5em .8em}.note{color:#444}
img{max-width:100%;height:auto}"""


def _html_table(header: list[str], rows: list[list[Cell]], kind: str = "") -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td class='l{c.level}'>{html_text(c.text)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return (f"<div class='scroll'><table class='{kind}'><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table></div>")


def _embedded(path: Path, text: str) -> str:
    return f"<img alt='{html.escape(text)}' src='data:image/png;base64,{base64.b64encode(path.read_bytes()).decode()}'>"


def html_page(report: Report, images: dict[str, Path], sections: tuple[Section, ...] = ()) -> str:
    notes = "".join(f"<li>{html_text(summary_note(report, b))}</li>" for b in report.benchmarks)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'>"
             f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>dynbench report</title>"
             f"<style>{_STYLE}</style></head><body><h1>dynbench report</h1>"
             f"<p>Models: {html_text(', '.join(report.models))}</p>"
             + "".join(f"<p class='note' style='overflow-wrap:anywhere'>{LEFT_OUT}: {html_text(line)}</p>"
                       for line in report.left_out)
             + "".join(f"<p class='note' style='overflow-wrap:anywhere'>{UNREAD_TITLE}: {html_text(line)}</p>"
                       for line in report.unread)
             + f"<h2>{html.escape(HEADLINE_TITLE)}</h2>"
             + _html_table(*summary_rows(report), "headline")
             + f"<ul class='note'>{notes}</ul><p class='note'>{html.escape(SUMMARY_DOCUMENTS)}</p>"
             f"<p class='why'>{html.escape(HEADLINE_WHY)}</p>"]
    for benchmark in report.benchmarks:
        parts.append(f"<h2>{html.escape(benchmark)}</h2>")
        if benchmark in images:
            parts.append(_embedded(images[benchmark], f"{benchmark}: pass@1 by variant"))
        for title, build in SECTIONS:
            parts.append(f"<h3>{html.escape(title)}</h3>" + _html_table(*build(report, benchmark)))
    for section in sections:
        parts.append(f"<h2>{html.escape(section.title)}</h2>")
        if section.chart is not None:
            parts.append(_embedded(section.chart, section.chart_text))
        parts.append(_html_table(section.header, section.rows)
                     + "".join(f"<p class='note'>{html_text(note)}</p>" for note in section.notes))
    parts.append("</body></html>")
    return "".join(parts)


def write_csv(report: Report, path: Path) -> None:
    """One row per model, benchmark and variant (``drop``: orig - the variant), then the headline
    (``drop``: its summary's, on ``scored_docs`` documents) and robustness; ``mean_of`` names the
    variants they average."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["model", "benchmark", "variant", "pass@1", "drop", "scored_docs", "shared_docs",
                         "paired_drop", "ci_low", "ci_high", "mcnemar_p", "chain", "seed", "mean_of"])
        for benchmark in report.benchmarks:
            for model in report.models:
                if not any(report.run(model, benchmark, v) for v in VARIANTS):
                    continue
                name = csv_cell(model)  # from a result file: never read as a spreadsheet formula
                base = report.run(model, benchmark, STATIC)
                static = None if base is None or base.pass_at_1 is None else base.pass_at_1 * 100
                for variant in report.variants(benchmark):
                    run = report.run(model, benchmark, variant)
                    if run is None:
                        continue
                    score = None if run.pass_at_1 is None else run.pass_at_1 * 100
                    drop = None if score is None or static is None or variant == STATIC else static - score
                    result = report.paired(model, benchmark, variant) if variant != STATIC else None
                    settings = run.provenance
                    seeds = " ".join(map(str, run.seeds)) if run.seeds else settings.get("seed", "")
                    writer.writerow([name, benchmark, variant, _num(score), _num(drop), _count(_scored(run)[0]),
                                     *_paired_columns(result), settings.get("chain") or "", seeds, ""])
                summary = report.summary(model, benchmark)
                writer.writerow([name, benchmark, HEADLINE, _num(summary.headline), _num(summary.drop),
                                 summary.documents or "", "", "", _num(summary.drop_low), _num(summary.drop_high),
                                 "", "", "", " ".join(summary.headline_variants)])
                writer.writerow([name, benchmark, ROBUSTNESS, _num(summary.robustness), *[""] * 9,
                                 " ".join(summary.robustness_variants)])


def _paired_columns(result: Paired | None) -> list[str]:
    if result is None:
        return ["", "", "", "", ""]
    return [str(result.shared), _num(result.drop), _num(result.ci_low), _num(result.ci_high), _num(result.p_value, 4)]


def _num(value, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"


# ---------------------------------------------------------------------------------- the chart
_LEGEND_CHARACTERS = 28  # of a model name's line in the legend beside the plot
_LEGEND_LINE_INCHES = 0.2  # of one line of the legend (8 points, with the space between entries)
_TITLE_POINTS = 10
# Characters of title per inch of figure: an inch holds 72 points, a 10-point sans-serif character
# takes 6.5 at most, on average over a line.
_TITLE_CHARACTERS_PER_INCH = 72 / 6.5
_TOP = 110  # pass@1 runs from 0 to 100; the rest is room for the figures above the bars


def _family(variant: str) -> str:
    if variant == STATIC:
        return "static"
    if variant in ANSWER_CHANGING:
        return "answer-changing"
    return "meaning-preserving" if variant in MEANING_PRESERVING else "other"


def chart_text(name: str) -> str:
    """A model name as matplotlib draws it literally (no math mode, shown in the legend even when it
    starts with an underscore), in at most two lines for the legend beside the plot: a longer name
    keeps its start and its end (where names of one family differ), the tables give it whole."""
    text = one_line(name)
    if len(text) > 2 * _LEGEND_CHARACTERS:
        text = text[:_LEGEND_CHARACTERS - 1] + "…" + text[-_LEGEND_CHARACTERS:]
    lines = [text[start:start + _LEGEND_CHARACTERS] for start in range(0, len(text), _LEGEND_CHARACTERS)]
    return "\u200b" + "\n".join(lines).replace("$", r"\$")


def score_charts(report: Report, folder: Path) -> dict[str, Path]:
    """Per benchmark, pass@1 of each variant as bars (one per model, side by side) with their 95%
    bootstrap intervals over documents, the variants grouped static / meaning-preserving /
    answer-changing: readable for one model as for many."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = {}
    for benchmark in report.benchmarks:
        variants = [v for v in report.variants(benchmark) if report.scores(benchmark, v)]
        models = [m for m in report.models if any(report.run(m, benchmark, v) for v in variants)]
        if not variants:
            continue
        width = min(0.55, 0.8 / len(models))
        inches = min(16.0, max(7.0, 0.35 * len(variants) * (len(models) + 1) + 2))
        labels = [chart_text(model) for model in models]
        legend_lines = sum(label.count("\n") + 1 for label in labels) if len(models) > 1 else 0
        figure, axes = plt.subplots(figsize=(inches, max(4.5, 1.5 + _LEGEND_LINE_INCHES * legend_lines)))
        for position, (model, label) in enumerate(zip(models, labels, strict=True)):
            places, heights, below, above = [], [], [], []
            for index, variant in enumerate(variants):
                run = report.run(model, benchmark, variant)
                if run is None or run.pass_at_1 is None:
                    continue
                height, interval = run.pass_at_1 * 100, score_interval(run)
                places.append(index + width * (position + 0.5 - len(models) / 2))
                heights.append(height)
                below.append(max(0.0, height - interval[0]) if interval else 0.0)
                above.append(max(0.0, interval[1] - height) if interval else 0.0)
            bars = axes.bar(places, heights, width, yerr=[below, above], capsize=3, label=label)
            if len(models) <= 2:
                axes.bar_label(bars, fmt="%.1f", fontsize=8, padding=3)
        edges = [i for i in range(1, len(variants)) if _family(variants[i]) != _family(variants[i - 1])]
        for edge in edges:
            axes.axvline(edge - 0.5, color="#888", linestyle="--", linewidth=0.8)
        for start, stop in zip([0, *edges], [*edges, len(variants)], strict=True):
            axes.text((start + stop - 1) / 2, 1.01, _family(variants[start]), transform=axes.get_xaxis_transform(),
                      ha="center", va="bottom", fontsize=9, color="#444")
        axes.set_xticks(range(len(variants)), variants, rotation=30, ha="right")
        axes.set_xlim(-0.6, len(variants) - 0.4)
        axes.set_ylim(0, _TOP)  # the whole scale, so that low scores look low (all zeros included)
        axes.set_yticks(range(0, 101, 20))
        axes.set_ylabel("pass@1 (%)")
        shown = one_line(models[0]) if len(models) == 1 else f"{len(models)} models"
        title = textwrap.wrap(f"{benchmark}: pass@1 by variant, {shown}", int(inches * _TITLE_CHARACTERS_PER_INCH),
                              break_on_hyphens=False)
        title.append("(whiskers: 95% bootstrap interval over documents)")
        axes.set_title("\n".join(title).replace("$", r"\$"), fontsize=_TITLE_POINTS, pad=18)
        if len(models) > 1:
            axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        figure.tight_layout()
        path = folder / f"{benchmark}_scores.png"
        figure.savefig(path, dpi=100)
        plt.close(figure)
        written[benchmark] = path
    return written


def write_report(report: Report, folder: Path, sections: tuple[Section, ...] = ()) -> list[Path]:
    """The report's files in ``folder`` (created when missing); ``sections`` (their charts already in
    ``folder``) come after the benchmarks'."""
    folder.mkdir(parents=True, exist_ok=True)
    images = score_charts(report, folder)
    (folder / "report.md").write_text(markdown(report, {b: p.name for b, p in images.items()}, sections),
                                      encoding="utf-8")
    (folder / "report.html").write_text(html_page(report, images, sections), encoding="utf-8")
    write_csv(report, folder / "report.csv")
    charts = [section.chart for section in sections if section.chart is not None]
    return [folder / "report.md", folder / "report.html", folder / "report.csv", *images.values(), *charts]
