"""``dynbench view``: one static HTML page per variant run. Each document shows its original and
mutated program side by side (a token-level diff of its own, where a consistently renamed identifier
is shown as a rename, ``x → var1``, rather than as a changed line), what the answers are scored
against, and every sample's answer and status on the original and on the mutant; a switch shows only
the outcome flips (passed on orig, failed on the mutant). Long lines wrap inside their column, so the
page never scrolls sideways.

Logged samples are the submitter's: a sample of the wrong shape (not an object, a document without
the fields its benchmark's documents hold, answers that are not lists, a program longer than
``MAX_PROGRAM_CHARACTERS`` or ``MAX_PROGRAM_LINES``) is left out of the page, counted and named by
its file and position (:func:`page_samples`); a long answer is shown cut at ``SHOWN_CHARACTERS``, and
a document's answers past ``SHOWN_ANSWERS`` are counted."""

from __future__ import annotations

import difflib
import html
import keyword
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dynbench_tasks.analysis.runs import BUILTIN, TaskRun
from dynbench_tasks.analysis.submitted import parse_json
from dynbench_tasks.analysis.text import html_text, one_line, visible_lines
from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.errors import DataError, UsageError
from dynbench_tasks.lmeval.answer_statuses import RECORD, Breakdown, reply_form
from dynbench_tasks.variants import STATIC

# The answer a NewOutput-style operator recomputed, as named in a document's mutation record.
CHANGED_OUTPUT = "output"
# The benchmarks' longest program has under 4,000 characters and 230 lines; a rewrite at most doubles it.
MAX_PROGRAM_CHARACTERS = 64_000
MAX_PROGRAM_LINES = 1_000
SHOWN_CHARACTERS = 20_000  # of one answer or reference on the page; what is longer is cut, saying so
SHOWN_ANSWERS = 100  # of one document on one side (runs ask for a few repeats); the rest are counted
# Lines of a changed block beyond which each line stands alone rather than beside its most similar one
# (pairing compares every line with every other: real blocks are a few lines long).
_PAIRED_LINES = 60
# Programs longer than this (twice the benchmarks' longest, 3,816) are shown line beside line, without
# rename detection or token diffs: those compare every token with every other, minutes for a page of
# programs near MAX_PROGRAM_CHARACTERS.
DETAILED_DIFF_CHARACTERS = 8_000
_NAMED_PROBLEMS = 3  # left-out samples a message names; it counts the rest

_STYLE = """*{box-sizing:border-box}body{font-family:sans-serif;margin:1.5em;line-height:1.4}
h1{margin:.2em 0}.summary{font-size:110%}.legend span{padding:0 .4em;margin-right:.6em}
nav{display:flex;flex-wrap:wrap;gap:.3em .8em;margin:.5em 0}
section{border-top:2px solid #888;padding:.5em 0;margin-top:1em}section h2{margin:.2em 0;font-size:120%}
.flip{color:#a00}.badge{font-size:85%;padding:1px 6px;border-radius:3px;background:#eee;margin-left:.5em}
table.diff{width:100%;table-layout:fixed;border-collapse:collapse;font-family:monospace;font-size:13px}
table.diff col.n{width:3em}table.diff th{background:#eee;text-align:left;padding:2px 6px}
table.diff td{vertical-align:top;padding:0 6px;border-left:1px solid #ddd}
table.diff td.n{color:#888;text-align:right;user-select:none;border-left:none}
td.code{white-space:pre-wrap;overflow-wrap:anywhere}
td.gone{background:#fbe3e3}td.new{background:#e1f5e1}td.changed{background:#fdf6d8}td.none{background:#f6f6f6}
del,ins{text-decoration:none;border-radius:2px}del{background:#f5b5b5}ins{background:#a8e6a8}
.ren{background:#cfe0ff;border-bottom:1px dotted #3060c0}
.facts code,.note code{background:#f3f3f3;padding:0 3px;overflow-wrap:anywhere}
.note{background:#fff4d6;border-left:4px solid #e0a800;padding:.4em .6em;margin:.5em 0;overflow-wrap:anywhere}
.answers{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1em;margin-top:.5em}
.answers table{width:100%;border-collapse:collapse;table-layout:fixed}
.answers td{border-top:1px solid #eee;vertical-align:top;padding:2px 4px}.answers td.status{width:9em}
pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;max-height:18em;overflow-y:auto}
.passed{color:#060}.fail{color:#a00}
table.statuses{border-collapse:collapse;margin:.3em 0}table.statuses td,table.statuses th{border:1px solid #ddd;
padding:1px 8px;text-align:left}"""
_SCRIPT = """function flips(on){for(const s of document.querySelectorAll('section'))
s.style.display=(!on||s.dataset.flip==='1')?'':'none'}"""

# Python source as tokens that concatenate back to the line: strings, comments, names, numbers, runs of
# white space, and any other single character.
_TOKEN = re.compile(r"""[rbuRBUfF]{0,2}('''|\"\"\"|'|")(?:\\.|(?!\1).)*\1?|#.*|\w+|\s+|.""")
_NOT_RENAMED = set(keyword.kwlist) | set(keyword.softkwlist)


def _tokens(line: str) -> list[str]:
    return [match.group(0) for match in _TOKEN.finditer(line)]


def _is_name(token: str) -> bool:
    return token.isidentifier() and token not in _NOT_RENAMED


def find_renames(before: str, after: str) -> dict[str, str]:
    """Identifiers the mutation renamed, old -> new: aligned one-to-one in a token diff of the whole
    program, the old name gone from the mutant and the new one absent from the original."""
    old = [t for t in _tokens(before) if not t.isspace()]
    new = [t for t in _tokens(after) if not t.isspace()]
    old_names, new_names = {t for t in old if _is_name(t)}, {t for t in new if _is_name(t)}
    pairs: Counter[tuple[str, str]] = Counter()
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1:
            pairs.update((a, b) for a, b in zip(old[i1:i2], new[j1:j2], strict=True)
                         if _is_name(a) and _is_name(b) and a not in new_names and b not in old_names)
    renames: dict[str, str] = {}
    taken: set[str] = set()
    for (a, b), _ in pairs.most_common():
        if a not in renames and b not in taken:
            renames[a] = b
            taken.add(b)
    return renames


@dataclass
class _Side:
    number: int | None
    html: str
    kind: str  # "", "gone", "new", "changed" or "none" (no line on this side)


def _marked(tokens: list[str], renames: dict[str, str], changed: set[int], tag: str, side: str) -> str:
    """A line's tokens as HTML: each run of tokens at ``changed`` positions inside one ``tag``, renamed
    names marked with their other name."""
    out, inside = [], False
    for index, token in enumerate(tokens):
        if (index in changed) != inside:
            out.append(f"<{tag}>" if not inside else f"</{tag}>")
            inside = not inside
        text = html.escape(token)
        if token in renames:
            old, new = (token, renames[token]) if side == "old" else (renames[token], token)
            text = f"<span class='ren' title='renamed: {html.escape(old)} → {html.escape(new)}'>{text}</span>"
        out.append(text)
    return "".join(out) + (f"</{tag}>" if inside else "")


def _changed_run(tokens: list[str], start: int, stop: int) -> set[int]:
    """Positions start..stop of a changed stretch, without the white space at its ends."""
    while start < stop and tokens[start].isspace():
        start += 1
    while stop > start and tokens[stop - 1].isspace():
        stop -= 1
    return set(range(start, stop))


def _pair_lines(old_line: str, new_line: str, renames: dict[str, str], back: dict[str, str]) -> tuple[str, str, bool]:
    """Two aligned lines as HTML: a token diff in which renamed names count as equal."""
    old_tokens, new_tokens = _tokens(old_line), _tokens(new_line)
    normalised = [back.get(t, t) for t in new_tokens]
    removed, added = set(), set()
    matcher = difflib.SequenceMatcher(None, old_tokens, normalised, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed |= _changed_run(old_tokens, i1, i2)
            added |= _changed_run(new_tokens, j1, j2)
    return (_marked(old_tokens, renames, removed, "del", "old"), _marked(new_tokens, back, added, "ins", "new"),
            bool(removed or added))


def _best_pairs(old: list[str], new: list[str]) -> list[tuple[int | None, int | None]]:
    """Rows of a changed block (lines as compared: renames undone, indentation stripped): each old line
    beside the most similar later new line (if similar enough), in order; the rest stand alone."""
    rows: list[tuple[int | None, int | None]] = []
    if len(old) > _PAIRED_LINES or len(new) > _PAIRED_LINES:
        return [(i, None) for i in range(len(old))] + [(None, j) for j in range(len(new))]
    next_new = 0
    for i, line in enumerate(old):
        scores = [(difflib.SequenceMatcher(None, line, new[j], autojunk=False).ratio(), j)
                  for j in range(next_new, len(new))]
        best = max(scores, default=(0.0, None))
        if best[1] is None or best[0] < 0.5:
            rows.append((i, None))
            continue
        rows.extend((None, j) for j in range(next_new, best[1]))
        rows.append((i, best[1]))
        next_new = best[1] + 1
    rows.extend((None, j) for j in range(next_new, len(new)))
    return rows


def _alone(index: int, line: str, renames: dict[str, str], side: str) -> _Side:
    """A line with nothing beside it: removed from the original, or added by the mutation."""
    tokens = _tokens(line)
    tag, kind = ("del", "gone") if side == "old" else ("ins", "new")
    return _Side(index + 1, _marked(tokens, renames, _changed_run(tokens, 0, len(tokens)), tag, side), kind)


def _plain_pair(old_line: str, new_line: str) -> tuple[str, str, bool]:
    """Two aligned lines as HTML, without a token diff (programs past DETAILED_DIFF_CHARACTERS)."""
    return html.escape(old_line), html.escape(new_line), old_line != new_line


def side_by_side(before: str, after: str, renames: dict[str, str], detailed: bool = True
                 ) -> list[tuple[_Side, _Side]]:
    """Rows of the diff. Lines are aligned on their text with renames undone and indentation ignored
    (For2While re-indents a loop body), then, if ``detailed``, paired and compared token by token; if
    not, the lines of a changed block stand alone and aligned lines are compared whole."""
    back = {new: old for old, new in renames.items()}
    old_lines, new_lines = before.splitlines(), after.splitlines()
    old_keys = [line.strip() for line in old_lines]
    new_keys = ["".join(back.get(t, t) for t in _tokens(line)).strip() for line in new_lines]
    rows = []
    # Past DETAILED_DIFF_CHARACTERS, lines frequent enough to be junk anchor no match: linear-ish, as HtmlDiff.
    matcher = difflib.SequenceMatcher(None, old_keys, new_keys, autojunk=not detailed)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs = list(zip(range(i1, i2), range(j1, j2), strict=True))
        elif detailed:
            pairs = [(None if i is None else i1 + i, None if j is None else j1 + j)
                     for i, j in _best_pairs(old_keys[i1:i2], new_keys[j1:j2])]
        else:
            pairs = [(i, None) for i in range(i1, i2)] + [(None, j) for j in range(j1, j2)]
        for i, j in pairs:
            if i is not None and j is not None:
                left, right, changed = (_pair_lines(old_lines[i], new_lines[j], renames, back) if detailed
                                        else _plain_pair(old_lines[i], new_lines[j]))
                kind = "changed" if changed else ""
                rows.append((_Side(i + 1, left, kind), _Side(j + 1, right, kind)))
            elif i is not None:
                rows.append((_alone(i, old_lines[i], renames, "old"), _Side(None, "", "none")))
            else:
                rows.append((_Side(None, "", "none"), _alone(j, new_lines[j], back, "new")))
    return rows


def diff_table(before: str, after: str, right_title: str) -> str:
    """The side-by-side diff of one program, with the renames it found listed above it; programs past
    DETAILED_DIFF_CHARACTERS get a plain one, and the page says so."""
    detailed = max(len(before), len(after)) <= DETAILED_DIFF_CHARACTERS
    renames = find_renames(before, after) if detailed else {}
    listed = ""
    if not detailed:
        listed = (f"<p class='facts'>rename detection skipped: a program over {DETAILED_DIFF_CHARACTERS:,} "
                  "characters is shown line beside line, without renames or changes within a line</p>")
    elif renames:
        listed = "<p class='facts'>renamed: " + ", ".join(
            f"<code>{html.escape(a)}</code> → <code class='ren'>{html.escape(b)}</code>" for a, b in renames.items()
        ) + "</p>"
    body = []
    for left, right in side_by_side(before, after, renames, detailed):
        cells = []
        for side in (left, right):
            cells.append(f"<td class='n'>{side.number or ''}</td><td class='code {side.kind}'>{side.html}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f"{listed}<table class='diff'><colgroup><col class='n'><col><col class='n'><col></colgroup>"
            f"<thead><tr><th colspan='2'>original</th><th colspan='2'>{html.escape(right_title)}</th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")


# ---------------------------------------------------------------------------------- samples
_TEXT_FIELDS = ("input", "output", "original_input", "original_output")
_MUTATION_TEXT = ("status", "edit", "reason", "chain")
RECITED = {"stale": "the published answer", "decoy": "the decoy"}  # sample flags, as the view names them


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null"}
    return names.get(type(value), "a number")


def _is_fraction(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1


def sample_problem(sample: object) -> str | None:
    """Why ``sample`` gives no document score (None: it gives one): an lm-eval sample is an object
    whose ``doc`` is an object with an ``id``, and whose ``pass@1`` is a number from 0 to 1."""
    if not isinstance(sample, dict):
        return f"{_kind(sample)}, not a JSON object"
    doc = sample.get("doc")
    if not isinstance(doc, dict):
        return f"its doc is {_kind(doc)}, not an object"
    if type(doc.get("id")) not in (str, int):
        return "its doc has no id (text or a whole number)"
    if not _is_fraction(sample.get("pass@1")):
        return "its pass@1 is not a number from 0 to 1"
    return None


def _is_list_of_lists(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, list) for item in value)


def _program_problem(name: str, value: object) -> str | None:
    if value is None:
        return f"its doc has no {name}"
    if not isinstance(value, str):
        return f"its doc's {name} is {_kind(value)}, not text"
    if len(value) > MAX_PROGRAM_CHARACTERS or value.count("\n") >= MAX_PROGRAM_LINES:
        return f"its doc's {name} is longer than {MAX_PROGRAM_CHARACTERS} characters or {MAX_PROGRAM_LINES} lines"
    return None


def page_problem(sample: object, benchmark: str) -> str | None:
    """Why ``sample`` cannot be shown on a page of ``benchmark`` (None: it can): beyond a document
    score, the program as text (and the original, where it is logged), its other texts as text, a
    mutation record as an object, and its answers as lists of lists."""
    problem = sample_problem(sample)
    if problem:
        return problem
    spec, doc = BENCHMARKS[benchmark], sample["doc"]
    field = spec.code_field
    problem = _program_problem(field, doc.get(field))
    if not problem and doc.get(f"original_{field}") is not None:
        problem = _program_problem(f"original_{field}", doc[f"original_{field}"])
    if problem:
        return problem
    texts = [*_TEXT_FIELDS, *([spec.reference_field] if getattr(spec, "reference_field", None) else [])]
    wrong = [key for key in texts if doc.get(key) is not None and not isinstance(doc[key], str)]
    if wrong:
        return f"its doc's {wrong[0]} is {_kind(doc[wrong[0]])}, not text"
    mutation = doc.get("mutation")
    if mutation is not None:
        if not isinstance(mutation, dict):
            return f"its doc's mutation is {_kind(mutation)}, not an object"
        changed = mutation.get("changed_answers", [])
        if not (isinstance(changed, list) and all(isinstance(c, str) for c in changed)):
            return "its doc's mutation.changed_answers is not a list of names"
        wrong = [key for key in _MUTATION_TEXT if mutation.get(key) is not None and not isinstance(mutation[key], str)]
        if wrong:
            return f"its doc's mutation.{wrong[0]} is {_kind(mutation[wrong[0]])}, not text"
    if not _is_list_of_lists(sample.get("filtered_resps")):
        return "its filtered_resps is not a list of lists of answers"
    if sample.get("resps") is not None and not _is_list_of_lists(sample["resps"]):
        return "its resps is not a list of lists of answers"
    return None


def _usable(run: TaskRun, problem: Callable[[object], str | None]) -> tuple[list[dict], str | None]:
    """``run``'s samples that ``problem`` finds nothing wrong with, and one line naming the file and
    the samples left out (None when none is)."""
    kept, wrong = [], []
    for position, sample in enumerate(run.samples, 1):
        found = problem(sample)
        if found:
            wrong.append(f"sample {position}: {found}")
        else:
            kept.append(sample)
    if not wrong:
        return kept, None
    named = "; ".join(wrong[:_NAMED_PROBLEMS]) + (f"; and {len(wrong) - _NAMED_PROBLEMS} more"
                                                   if len(wrong) > _NAMED_PROBLEMS else "")
    where = run.samples_file or run.source
    return kept, one_line(f"{where}: {len(wrong)} of {len(run.samples)} logged samples left out ({named})")


def unscored_samples(run: TaskRun) -> str | None:
    """One line naming ``run``'s samples file and the samples in it that give no document score."""
    return _usable(run, sample_problem)[1]


def _shown(value: object) -> str:
    """A submitted text as HTML, its hidden characters shown (:func:`visible_lines`), cut at ``SHOWN_CHARACTERS``."""
    text = visible_lines(value)
    if len(text) <= SHOWN_CHARACTERS:
        return html.escape(text)
    return html.escape(text[:SHOWN_CHARACTERS]) + f"<i> … ({len(text) - SHOWN_CHARACTERS} more characters)</i>"


# ---------------------------------------------------------------------------------- answers
def _samples(sample: dict) -> list[dict]:
    """Each sample's status and answer; translation scores keep only the status, so their answer is
    the model's raw response."""
    raw = (sample.get("resps") or [[]])[0]
    decoded = []
    for index, item in enumerate(sample["filtered_resps"][0]):
        try:
            entry = parse_json(item) if isinstance(item, str) else item
        except ValueError:
            entry = None
        if not isinstance(entry, dict):
            entry = {"answer": item, "status": "?"}
        if "answer" not in entry and index < len(raw):
            entry = {**entry, "answer": raw[index]}
        decoded.append(entry)
    return decoded


LOGGED = "logged samples"  # where a run's breakdown of answers by status comes from
RECORDED = "the run's record"
NOT_RECORDED = "not recorded"


def answer_breakdown(run: TaskRun) -> tuple[Breakdown | None, str]:
    """``run``'s samples by status and its unread replies by form, and where they were counted: its
    logged samples (those with answers in lists), else the breakdown the run recorded (runs made
    before it was recorded have none: None, :data:`NOT_RECORDED`)."""
    unread = BENCHMARKS[run.benchmark].unread_statuses
    statuses: Counter[str] = Counter()
    forms: Counter[str] = Counter()
    for sample in run.samples:
        if not isinstance(sample, dict) or not _is_list_of_lists(sample.get("filtered_resps")):
            continue
        raw = sample["resps"][0] if _is_list_of_lists(sample.get("resps")) else []
        for index, entry in enumerate(_samples({**sample, "resps": [raw]})):
            status = entry.get("status")
            statuses[status if isinstance(status, str) else "?"] += 1
            if status in unread and index < len(raw):  # a run that logged no replies: statuses only
                forms[reply_form(raw[index])] += 1
    if statuses:
        return Breakdown.counted(run.benchmark, statuses, forms), LOGGED
    provenance = run.metadata.get("dynbench")
    recorded = Breakdown.from_record(run.benchmark, provenance.get(RECORD) if isinstance(provenance, dict) else None)
    return (recorded, RECORDED) if recorded is not None else (None, NOT_RECORDED)


def unread_warning(run: TaskRun) -> str | None:
    """One line when many of ``run``'s replies gave no answer to read, its model named (escape it)."""
    breakdown, _ = answer_breakdown(run)
    return breakdown.warning(f"{run.model} {run.task}") if breakdown is not None else None


def answer_changed(doc: dict) -> bool:
    """Whether the mutation recomputed the document's expected output (a missing record: unchanged)."""
    return CHANGED_OUTPUT in ((doc.get("mutation") or {}).get("changed_answers") or [])


def _code(value: object) -> str:
    return f"<code>{_shown(value)}</code>"


def _reference_answer(benchmark: str, doc: dict) -> str | None:
    try:
        return BENCHMARKS[benchmark].reference_answer(doc)
    except KeyError:  # a logged document without the field its benchmark's answer comes from
        return None


def _scored_against(benchmark: str, doc: dict) -> str:
    """What the answers to ``doc`` are scored against, and what the mutation changed of it."""
    spec = BENCHMARKS[benchmark]
    mutation = doc.get("mutation") or {}
    answer = _reference_answer(benchmark, doc)
    if spec.needs_jdk:
        edit = f" (the edit: {_code(mutation['edit'])})" if mutation.get("edit") else ""
        if answer_changed(doc):
            published = doc.get(spec.reference_field) if spec.reference_field else None
            published = "" if published is None else (
                f"<details><summary>the published Java (right for the original program only)</summary>"
                f"<pre>{_shown(published)}</pre></details>")
            narrowed = f" {_shown(mutation['reason'])}." if mutation.get("reason") else ""
            return (f"<p class='note'>The answer changed: the mutation changed what this program prints{edit}, and "
                    "the tests' expected output was recomputed from the changed Python. The benchmark's reference Java "
                    f"translates the original program, so it is not a reference here.{narrowed}</p>{published}")
        if answer is None:
            reason = getattr(spec, "no_reference_reason", "")
            return f"<p class='facts'>no reference Java{': ' + html.escape(reason) if reason else ''}</p>"
        return f"<details><summary>reference Java</summary><pre>{_shown(answer)}</pre></details>"
    if "input" in doc and "output" in doc:  # CRUXEval, either direction: the call and what it returns
        facts = ["reference " + _code(f"assert f({doc['input']}) == {doc['output']}")]
    else:
        facts = ["no reference answer logged" if answer is None else f"reference answer {_code(answer)}"]
    for key in ("input", "output"):
        published = doc.get(f"original_{key}")
        if published is not None and published != doc.get(key):
            facts.append(f"{key} changed by the mutation: published {_code(published)}, now {_code(doc.get(key))}")
    if mutation.get("edit"):
        facts.append(f"the program's edit: {_code(mutation['edit'])}")
    return "<p class='facts'>" + "; ".join(facts) + "</p>"


def _answers(sample: dict | None, title: str) -> str:
    if sample is None:
        return f"<div><h3>{html.escape(title)}</h3><p>not run</p></div>"
    rows, answers = [], _samples(sample)
    for item in answers[:SHOWN_ANSWERS]:
        status = str(item.get("status"))
        # The run's own flags (dynbench detect judges the answers again): the published answer, or its control.
        recited = "".join(f"<br><span class='badge'>{label}</span>" for name, label in RECITED.items()
                          if item.get(name) is True)
        verdict = "passed" if status == "passed" else "fail"
        rows.append(f"<tr><td><pre>{_shown(item.get('answer', ''))}</pre></td>"
                    f"<td class='status {verdict}'>{_shown(status)}{recited}</td></tr>")
    if len(answers) > SHOWN_ANSWERS:
        rows.append(f"<tr><td colspan='2'>… and {len(answers) - SHOWN_ANSWERS} more answers</td></tr>")
    return (f"<div><h3>{html.escape(title)}: pass@1 {sample.get('pass@1', 0):.2f}</h3>"
            f"<table>{''.join(rows)}</table></div>")


# ---------------------------------------------------------------------------------- the page
def viewable_tasks(runs: list[TaskRun]) -> list[str]:
    """The dynbench tasks of ``runs`` a page can show (lm-eval's own tasks have no programs to diff)."""
    return sorted({run.task for run in runs if run.variant != BUILTIN})


def _pick(runs: list[TaskRun], task: str, model: str | None = None) -> tuple[TaskRun, TaskRun | None]:
    mine = [run for run in runs if run.task == task and model in (None, run.model)]
    if not mine:
        raise DataError(f"no run of {task}{f' by {one_line(model)}' if model else ''}; the runs hold "
                        f"{', '.join(viewable_tasks(runs)) or 'no dynbench task'}")
    if mine[0].variant == STATIC:
        others = [t for t in viewable_tasks(runs) if t != task and t.startswith(f"{mine[0].benchmark}_")]
        hint = f"name one of {', '.join(others)}" if others else f"the runs hold no other {mine[0].benchmark} task"
        raise UsageError(f"{task} is what a page compares each variant with, so there is nothing to compare it "
                         f"with; {hint}")
    for run in mine:
        if run.samples:
            base = next((r for r in runs if r.model == run.model and r.task == f"{run.benchmark}_{STATIC}"), None)
            return run, base
    raise DataError(f"{task} was run without --log_samples, so there are no answers to show "
                    f"(run lm_eval again with --log_samples)")


@dataclass
class PageSamples:
    """The samples a page shows: the variant's and, by document id, the original's, each checked
    with :func:`page_problem`; ``left_out``: one line per samples file with samples left out."""

    variant: TaskRun
    base: TaskRun | None
    samples: list[dict]
    originals: dict[str, dict]
    left_out: list[str]


def page_samples(runs: list[TaskRun], task: str, model: str | None = None) -> PageSamples:
    variant, base = _pick(runs, task, model)

    def problem(sample: object) -> str | None:
        return page_problem(sample, variant.benchmark)

    samples, variant_left_out = _usable(variant, problem)
    if not samples:
        raise DataError(f"{variant_left_out}: nothing left to show")
    originals, base_left_out = _usable(base, problem) if base is not None and base.samples else ([], None)
    return PageSamples(variant, base, samples, {str(s["doc"]["id"]): s for s in originals},
                       [line for line in (variant_left_out, base_left_out) if line])


def _anchor(index: int) -> str:
    return f"doc-{index}"


def _passed(sample: dict | None) -> bool:
    return sample is not None and sample.get("pass@1", 0) >= 0.5


def _status_table(runs: list[tuple[str, TaskRun]]) -> str:
    """The samples of each run by status, then its unread replies by form (count and share), with
    the warning of a run whose replies mostly went unread."""
    counted = [(title, *answer_breakdown(run)) for title, run in runs]
    columns = [None if breakdown is None else
               {**breakdown.statuses, **{f"unread: {form}": n for form, n in breakdown.forms.items()}}
               for _, breakdown, _ in counted]
    labels = list(dict.fromkeys(label for column in columns if column for label in column))
    rows = []
    for label in labels:
        cells = "".join(f"<td>{html.escape(source)}</td>" if column is None else
                        f"<td>{column.get(label, 0)} ({column.get(label, 0) / max(1, breakdown.samples):.0%})</td>"
                        for column, (_, breakdown, source) in zip(columns, counted, strict=True))
        rows.append(f"<tr><th>{html.escape(label)}</th>{cells}</tr>")
    head = "".join(f"<th>{html.escape(title)}</th>" for title, _, _ in counted)
    sources = "; ".join(f"{html.escape(title)}: {html.escape(source)}" for title, _, source in counted)
    warnings = [breakdown.warning(title) for title, breakdown, _ in counted if breakdown is not None]
    notes = "".join(f"<p class='note unread'>{html_text(line)}</p>" for line in warnings if line)
    return (f"<details class='statuses'{' open' if notes else ''}><summary>Samples by status (counted from "
            f"{sources})</summary><table class='statuses'><thead><tr><th>status</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></details>{notes}")


def _percent(run: TaskRun | None) -> str:
    return "—" if run is None or run.pass_at_1 is None else f"{run.pass_at_1 * 100:.2f}"


def write_view_page(runs: list[TaskRun], task: str, out: Path, model: str | None = None) -> int:
    """The page for ``task`` (of ``model``, or the first with logged samples), its folder created when
    missing; the number of flips."""
    shown = page_samples(runs, task, model)
    variant, base, benchmark = shown.variant, shown.base, shown.variant.benchmark
    field = BENCHMARKS[benchmark].code_field
    sections, flipped, reversed_flips = [], [], 0
    for index, sample in enumerate(shown.samples):
        doc = sample["doc"]
        identifier = str(doc["id"])
        original = shown.originals.get(identifier)
        flip = _passed(original) and not _passed(sample)
        reversed_flips += original is not None and _passed(sample) and not _passed(original)
        if flip:
            flipped.append((index, identifier))
        status = (doc.get("mutation") or {}).get("status", "")
        badges = f"<span class='badge'>{_shown(status)}</span>" if status else ""
        if answer_changed(doc):
            badges += "<span class='badge'>answer changed</span>"
        sections.append(
            f"<section id='{_anchor(index)}' data-flip='{int(flip)}'><h2>{_shown(identifier)}{badges}"
            f"{' <span class=flip>outcome flip</span>' if flip else ''}</h2>"
            + _scored_against(benchmark, doc)
            + diff_table(doc.get(f"original_{field}") or doc[field], doc[field], f"shown to the model ({task})")
            + "<div class='answers'>" + _answers(original, "on orig") + _answers(sample, f"on {task}") + "</div>"
            + "</section>")
    flip_links = "".join(f"<a href='#{_anchor(i)}'>{_shown(identifier)}</a>" for i, identifier in flipped)
    left_out = "".join(f"<p class='note'>Left out: {html_text(line)}</p>" for line in shown.left_out)
    head = (
        f"<!doctype html><html><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{html.escape(task)}</title>"
        f"<style>{_STYLE}</style><script>{_SCRIPT}</script></head><body>"
        f"<h1>{html.escape(task)} — {html_text(variant.model)}</h1>"
        f"<p class='summary'>{len(shown.samples)} documents. pass@1 on orig {_percent(base)}, on {html.escape(task)} "
        f"{_percent(variant)}. <b>{len(flipped)} outcome flips</b> (passed on orig, failed on the mutant); "
        f"{reversed_flips} the other way.</p>{left_out}"
        + _status_table([*([("on orig", base)] if base is not None else []), (f"on {task}", variant)])
        + (f"<nav aria-label='outcome flips'>flips: {flip_links}</nav>" if flipped else "")
        + "<p class='legend'>Each document: the original program (left) beside the one the model saw (right). "
        "<span><del>removed</del></span><span><ins>added</ins></span>"
        "<span class='ren' title='renamed: old → new'>renamed</span> (hover for the old name)</p>"
        "<label><input type='checkbox' onchange='flips(this.checked)'> only outcome flips "
        "(passed on orig, failed on the mutant)</label>")
    out.parent.mkdir(parents=True, exist_ok=True)
    # every field a run logged (its documents too, which a doctored log can fill) shows its hidden characters
    out.write_text(visible_lines(head + "".join(sections) + "</body></html>"), encoding="utf-8")
    return len(flipped)
