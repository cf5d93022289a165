"""``dynbench view``: one static HTML page per variant run, each document with its original and
mutated program side by side (diff highlighted), the reference answer, and every sample's answer
and status on the original and on the mutant; a switch shows only the outcome flips (passed on
orig, failed on the mutant)."""

from __future__ import annotations

import difflib
import html
import json
from pathlib import Path

from dynbench_tasks.analysis.runs import TaskRun, load_runs
from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.errors import DataError
from dynbench_tasks.variants import STATIC

_STYLE = """body{font-family:sans-serif;margin:1.5em}section{border-top:2px solid #888;padding:.5em 0}
table.diff{font-family:monospace;font-size:12px}.diff_add{background:#c8f0c8}.diff_chg{background:#f0e8a0}
.diff_sub{background:#f0c0c0}.passed{color:#060}.fail{color:#a00}pre{margin:0}"""
_SCRIPT = """function flips(on){for(const s of document.querySelectorAll('section'))
s.style.display=(!on||s.dataset.flip==='1')?'':'none'}"""


def _samples(sample: dict) -> list[dict]:
    """Each sample's status and answer; translation scores keep only the status, so their answer is
    the model's raw response."""
    raw = (sample.get("resps") or [[]])[0]
    decoded = []
    for index, item in enumerate(sample.get("filtered_resps", [[]])[0]):
        try:
            entry = json.loads(item) if isinstance(item, str) else dict(item)
        except (TypeError, ValueError):
            entry = {"answer": str(item), "status": "?"}
        if "answer" not in entry and index < len(raw):
            entry["answer"] = raw[index]
        decoded.append(entry)
    return decoded


def _reference(benchmark: str, doc: dict) -> str:
    spec = BENCHMARKS[benchmark]
    answer = spec.reference_answer(doc)
    if answer is None:
        return ""
    if spec.needs_jdk:
        return f"<details><summary>reference Java</summary><pre>{html.escape(answer)}</pre></details>"
    return f"<p>reference: <code>{html.escape(str(answer))}</code></p>"


def _answers(sample: dict | None, title: str) -> str:
    if sample is None:
        return f"<p>{title}: not run</p>"
    rows = []
    for item in _samples(sample):
        status = str(item.get("status"))
        rows.append(f"<tr><td><pre>{html.escape(str(item.get('answer', '')))}</pre></td>"
                    f"<td class='{'passed' if status == 'passed' else 'fail'}'>{html.escape(status)}</td></tr>")
    rows = "".join(rows)
    return f"<p>{title}: pass@1 {sample.get('pass@1', 0):.2f}</p><table>{rows}</table>"


def _pick(runs: list[TaskRun], task: str, model: str | None = None) -> tuple[TaskRun, TaskRun | None]:
    for run in runs:
        if run.task == task and run.samples and model in (None, run.model):
            base = next((r for r in runs if r.model == run.model and r.task == f"{run.benchmark}_{STATIC}"), None)
            return run, base
    raise DataError(f"no logged samples of {task} (run lm_eval with --log_samples)")


def write_viewer(run_dir: str, task: str, out: Path) -> int:
    return write_view_page(load_runs([run_dir]), task, out)


def write_view_page(runs: list[TaskRun], task: str, out: Path, model: str | None = None) -> int:
    """The page for ``task`` (of ``model``, or the first with logged samples); the number of flips."""
    variant, base = _pick(runs, task, model)
    originals = {str(s["doc"]["id"]): s for s in (base.samples if base else [])}
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(task)}</title>"
             f"<style>{_STYLE}</style><script>{_SCRIPT}</script></head><body>"
             f"<h1>{html.escape(task)} — {html.escape(variant.model)}</h1>"
             "<label><input type='checkbox' onchange='flips(this.checked)'> only outcome flips "
             "(passed on orig, failed on the mutant)</label>"]
    differ, flips = difflib.HtmlDiff(wrapcolumn=70), 0
    for sample in variant.samples:
        doc = sample["doc"]
        identifier = str(doc.get("id"))
        field = BENCHMARKS[variant.benchmark].code_field
        before, after = doc.get(f"original_{field}") or doc[field], doc[field]
        original = originals.get(identifier)
        flip = original is not None and original.get("pass@1", 0) >= 0.5 > sample.get("pass@1", 0)
        flips += flip
        parts.append(
            f"<section data-flip='{int(flip)}'><h2>{html.escape(identifier)}"
            f"{' — outcome flip' if flip else ''}</h2>{_reference(variant.benchmark, doc)}"
            + differ.make_table(before.splitlines(), after.splitlines(), "original", "mutated")
            + _answers(original, "on orig") + _answers(sample, f"on {task}") + "</section>"
        )
    parts.append("</body></html>")
    out.write_text("".join(parts), encoding="utf-8")
    return flips
