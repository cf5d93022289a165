"""``dynbench leaderboard``: a static, offline site ranking models by their dynamic pass@1.

Per benchmark, one row per model: the dynamic pass@1 (for each seed the mean over the mutated
variants the runs hold, then mean ± standard deviation over the seeds), the static pass@1 (``orig``),
the gap between them with a 95% percentile-bootstrap interval over documents, lm-eval's own task
(``cruxeval_output``/``cruxeval_input``) where a run holds it, and whether ``dynbench verify`` accepts
the model's runs (verified, partial, unverified). Each model links to a ``dynbench view`` page of its
runs. ``index.html`` is self-contained (its columns sort with a few lines of plain script); the same
table is written as ``leaderboard.json``, ``.csv`` and ``.md``.
"""

from __future__ import annotations

import csv
import html
import json
import re
import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from dynbench_tasks.analysis.runs import BUILTIN, TaskRun
from dynbench_tasks.analysis.verify import FAILED, PARTIAL, UNVERIFIABLE, VERIFIED, TaskVerdict
from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.variants import STATIC

HARNESS_NOTE = ("lm-eval's own task, scored by its own executor: it strips quotes from answers (so every "
                "string-valued answer fails), cuts answers at '#', accepts an answer that merely echoes the call, "
                "and runs answers beside the reference in one process; dynbench's orig scores the same problems "
                "as the README's scoring section describes.")


@dataclass
class Row:
    benchmark: str
    model: str
    dynamic: float | None  # pass@1 in points
    dynamic_sd: float | None
    seeds: list[int]
    static: float | None
    gap: float | None  # static minus dynamic, points
    gap_low: float | None
    gap_high: float | None
    harness: float | None  # lm-eval's own task
    verification: str
    view: str | None  # page of this model's samples, relative to the site
    rank: int = 0
    variants: list[str] = field(default_factory=list)


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _gap_interval(static: TaskRun | None, dynamic: list[TaskRun], seed: int = 0) -> tuple[float | None, ...]:
    """Gap (points) and its 95% percentile-bootstrap interval over the documents scored both ways."""
    if static is None or not static.per_document:
        return None, None, None
    per_document: dict[str, list[float]] = {}
    for run in dynamic:
        for identifier, score in run.per_document.items():
            per_document.setdefault(identifier, []).append(score)
    shared = sorted(set(per_document) & set(static.per_document))
    if not shared:
        return None, None, None
    differences = np.array([static.per_document[i] - statistics.fmean(per_document[i]) for i in shared]) * 100
    rng = np.random.default_rng(seed)
    means = rng.choice(differences, size=(2000, len(differences)), replace=True).mean(axis=1)
    return float(differences.mean()), float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def _verification(verdicts: list[TaskVerdict]) -> str:
    outcomes = {v.outcome for v in verdicts}
    if not verdicts or outcomes & {FAILED, UNVERIFIABLE}:
        return "unverified"
    return PARTIAL if PARTIAL in outcomes else VERIFIED


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)


def build_rows(runs: list[TaskRun], verdicts: dict[int, TaskVerdict], views: dict[tuple[str, str], str]) -> list[Row]:
    """``verdicts``: by ``id`` of each run; ``views``: (model, benchmark) -> page."""
    rows = []
    for benchmark in BENCHMARKS:
        models = list(dict.fromkeys(r.model for r in runs if r.benchmark == benchmark))
        for model in models:
            mine = [r for r in runs if r.model == model and r.benchmark == benchmark]
            dynamic = [r for r in mine if r.variant not in (STATIC, BUILTIN) and r.pass_at_1 is not None]
            by_seed: dict[object, list[float]] = {}
            for run in dynamic:
                by_seed.setdefault(run.seed, []).append(run.pass_at_1 * 100)
            seed_means = [statistics.fmean(scores) for scores in by_seed.values()]
            static_runs = [r for r in mine if r.variant == STATIC and r.pass_at_1 is not None]
            harness = [r.pass_at_1 * 100 for r in mine if r.variant == BUILTIN and r.pass_at_1 is not None]
            static = _mean([r.pass_at_1 * 100 for r in static_runs])
            gap, low, high = _gap_interval(static_runs[0] if static_runs else None, dynamic)
            rows.append(Row(
                benchmark, model, _mean(seed_means), statistics.stdev(seed_means) if len(seed_means) > 1 else None,
                sorted(s for s in by_seed if s is not None), static, gap, low, high, _mean(harness),
                _verification([verdicts[id(r)] for r in mine if r.variant != BUILTIN and id(r) in verdicts]),
                views.get((model, benchmark)), variants=sorted({r.variant for r in dynamic})))
    for benchmark in BENCHMARKS:
        ranked = sorted((r for r in rows if r.benchmark == benchmark),
                        key=lambda r: (r.dynamic is None, -(r.dynamic or 0), r.model))
        for position, row in enumerate(ranked, 1):
            row.rank = position
    return sorted(rows, key=lambda r: (list(BENCHMARKS).index(r.benchmark), r.rank))


def _number(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _dynamic_text(row: Row) -> str:
    if row.dynamic is None:
        return "—"
    spread = f" ± {row.dynamic_sd:.2f}" if row.dynamic_sd is not None else ""
    return f"{row.dynamic:.2f}{spread} ({len(row.seeds)} seed{'s' if len(row.seeds) != 1 else ''})"


def _gap_text(row: Row) -> str:
    if row.gap is None:
        return "—"
    return f"{row.gap:+.2f} [{row.gap_low:+.2f}, {row.gap_high:+.2f}]"


COLUMNS = ["rank", "model", "dynamic pass@1", "static pass@1 (orig)", "gap (static - dynamic) [95% CI]",
           "lm-eval's own task", "verification"]


def _cells(row: Row) -> list[str]:
    return [str(row.rank), row.model, _dynamic_text(row), _number(row.static), _gap_text(row),
            _number(row.harness) + (" *" if row.harness is not None else ""), row.verification]


def markdown(rows: list[Row]) -> str:
    lines = ["# dynbench leaderboard", ""]
    for benchmark in BENCHMARKS:
        mine = [r for r in rows if r.benchmark == benchmark]
        if not mine:
            continue
        lines += [f"## {benchmark}", "", "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        lines += ["| " + " | ".join(_cells(row)) + " |" for row in mine]
        if any(r.harness is not None for r in mine):
            lines += ["", f"\\* {HARNESS_NOTE}"]
        lines.append("")
    return "\n".join(lines)


_STYLE = """body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}th{cursor:pointer;background:#eee}
.verified{color:#060}.partial{color:#a60}.unverified{color:#a00}.note{font-size:90%;color:#444}"""
_SCRIPT = """function sortBy(header){const table=header.closest('table');const index=[...header.parentNode.children]
.indexOf(header);const body=table.tBodies[0];const rows=[...body.rows];const down=header.dataset.order!=='down';
header.dataset.order=down?'down':'up';const key=r=>{const t=r.cells[index].dataset.sort;const n=parseFloat(t);
return isNaN(n)?t:n};rows.sort((a,b)=>{const x=key(a),y=key(b);const c=(typeof x==='number'&&typeof y==='number')
?x-y:String(x).localeCompare(String(y));return down?-c:c});rows.forEach(r=>body.appendChild(r))}"""


def _sort_key(row: Row, column: int) -> str:
    return {0: str(row.rank), 2: _number(row.dynamic, 6), 3: _number(row.static, 6), 4: _number(row.gap, 6),
            5: _number(row.harness, 6)}.get(column, _cells(row)[column])


def html_page(rows: list[Row]) -> str:
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>dynbench leaderboard</title>"
             f"<style>{_STYLE}</style><script>{_SCRIPT}</script></head><body><h1>dynbench leaderboard</h1>"
             "<p>Models ranked by dynamic pass@1: the mean over the mutated variants their runs hold, per seed, "
             "then over the seeds. Click a column to sort by it.</p>"]
    for benchmark in BENCHMARKS:
        mine = [r for r in rows if r.benchmark == benchmark]
        if not mine:
            continue
        parts.append(f"<h2>{html.escape(benchmark)}</h2><table id='{html.escape(benchmark)}'><thead><tr>"
                     + "".join(f"<th onclick='sortBy(this)'>{html.escape(c)}</th>" for c in COLUMNS)
                     + "</tr></thead><tbody>")
        for row in mine:
            cells = []
            for column, text in enumerate(_cells(row)):
                shown = html.escape(text)
                if column == 1 and row.view:
                    shown = f"<a href='{html.escape(row.view)}'>{shown}</a>"
                kind = f" class='{row.verification}'" if column == 6 else ""
                cells.append(f"<td data-sort='{html.escape(_sort_key(row, column))}'{kind}>{shown}</td>")
            parts.append("<tr>" + "".join(cells) + "</tr>")
        parts.append("</tbody></table>")
        if any(r.harness is not None for r in mine):
            parts.append(f"<p class='note'>* {html.escape(HARNESS_NOTE)}</p>")
    parts.append("</body></html>")
    return "".join(parts)


def write_leaderboard(runs: list[TaskRun], verdicts: dict[int, TaskVerdict], folder: Path) -> list[Path]:
    from dynbench_tasks.analysis.viewer import write_view_page

    folder.mkdir(parents=True, exist_ok=True)
    views: dict[tuple[str, str], str] = {}
    for run in runs:
        key = (run.model, run.benchmark)
        if key in views or run.variant in (STATIC, BUILTIN) or not run.samples:
            continue
        page = Path("views") / f"{_slug(run.model)}_{_slug(run.task)}.html"
        (folder / "views").mkdir(exist_ok=True)
        write_view_page(runs, run.task, folder / page, run.model)
        views[key] = page.as_posix()
    rows = build_rows(runs, verdicts, views)
    (folder / "index.html").write_text(html_page(rows), encoding="utf-8")
    (folder / "leaderboard.md").write_text(markdown(rows), encoding="utf-8")
    (folder / "leaderboard.json").write_text(json.dumps([asdict(r) for r in rows], indent=1), encoding="utf-8")
    with (folder / "leaderboard.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(list(asdict(rows[0]).keys()) if rows else [])
        for row in rows:
            writer.writerow([" ".join(map(str, v)) if isinstance(v, list) else v for v in asdict(row).values()])
    return [folder / name for name in ("index.html", "leaderboard.json", "leaderboard.csv", "leaderboard.md")]
