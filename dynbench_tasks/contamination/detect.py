"""``dynbench detect``: is a model reciting a benchmark? Read from the answers of ordinary runs.

On a CRUXEval output task whose problems have new inputs (newinput, fuvi, fuvio), a model that still
writes a problem's *published* output is reciting it: that output is no answer to the call it was
shown. Each logged answer is judged again (in the sandbox, against the logged document) for whether
it wrote the published output (``stale``) or a decoy: the same program's output on another small
change of the shown input, drawn by the same seed (the control: an honest model that has no memory of
the published output writes one no more often than the other). Documents are the unit; runs of one model pool,
each problem counted once (:mod:`.verdict`). Where the input did not change (newoutput), a
stale answer may be an overlooked edit, so only the rate is shown, and a verdict comes only from a
paired comparison with a reference model's runs (``--against``). The same holds on translation
(``<benchmark>_newoutput``, ``_fuvo``): a stale answer is Java that fails the edited program's tests and
passes the published program's, as the memorised published Java does; on CRUXEval input prediction
(``cruxeval_input_newinput``, ``_fuvi``, ``_fuvio``) a call of the published input where it no longer gives
the shown output. Neither has a decoy: a model shown an output, or asked for Java, has no shown input
to slip onto a neighbour of.

A verdict rests only on documents checked against a rebuild (DESIGN.md §5): each run's logged documents are
compared with the ones its recorded settings rebuild from the maintainer's data, as ``dynbench verify``
rebuilds them (:func:`~dynbench_tasks.analysis.verify.checked_documents`, the same code and datasets cache).
A run any of whose documents differs, or that cannot be rebuilt (another engine, data or judging rules, no
provenance), gives no evidence; one line says which run and why (:class:`Unchecked`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dynbench_tasks.analysis.runs import TaskRun, load_runs
from dynbench_tasks.analysis.text import one_line
from dynbench_tasks.contamination.score_test import (
    DYNAMIC,
    MIN_REFERENCES,
    STATIC,
    ScorePoint,
    ScoreVerdict,
    left_out,
    score_points,
    score_verdicts,
)
from dynbench_tasks.contamination.verdict import Unit, Verdict, judge, paired_against, threshold

if TYPE_CHECKING:
    from dynbench_tasks.analysis.verify import CheckedDocuments

BENCHMARK = "cruxeval"  # the benchmark whose answers can be told recited against a decoy: its outputs are values
INPUT = "cruxeval_input"  # stale answers are the published input's call
# Benchmarks whose stale answers are Java that passes the published program's tests.
TRANSLATION = ("avatar", "codenet", "transcoder")
# Benchmarks without a decoy: the stale rate, and a verdict only against a reference model's runs.
WITHOUT_DECOY = (INPUT, *TRANSLATION)


@dataclass
class Evidence:
    """What one model's runs of one benchmark say: units with a decoy (the decoy verdict's), units
    without one (their stale rate; ``guessable``: those whose published answer a guess from the shown
    text reaches, left out of ``--against`` too), and what could not be read."""

    model: str
    benchmark: str
    with_decoy: list[Unit] = field(default_factory=list)
    stale_only: list[Unit] = field(default_factory=list)
    guessable: list[Unit] = field(default_factory=list)
    paired_units: list[Unit] = field(default_factory=list)  # what --against compares (_paired)
    tasks: set[str] = field(default_factory=set)
    unreadable: int = 0  # logged documents left out: no answers, no document to judge them against, or a run
    # whose documents a rebuild did not confirm

    @property
    def without_decoy(self) -> list[Unit]:
        return self.stale_only + self.guessable

    @property
    def stale_only_counts(self) -> tuple[int, int]:
        """(samples that wrote the published output, samples) over the documents without a decoy."""
        return sum(unit.stale for unit in self.without_decoy), sum(unit.samples for unit in self.without_decoy)

    def rate_row(self) -> dict:
        """The stale rate of a benchmark without decoys, as ``dynbench detect --json`` prints it."""
        stale, samples = self.stale_only_counts
        return {"model": self.model, "benchmark": self.benchmark, "documents": len(self.without_decoy),
                "stale_documents": sum(bool(unit.stale) for unit in self.without_decoy), "stale": stale,
                "samples": samples, "stale_rate": stale / max(1, samples), "tasks": sorted(self.tasks),
                "unjudged_documents": self.unreadable}


def _settings(run: TaskRun) -> tuple[str, float]:
    """The prompt and timeout the run recorded, where they are ones a task takes; else the defaults."""
    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.settings import MAX_TIMEOUT

    spec = BENCHMARKS[run.benchmark]
    recorded = run.metadata.get("dynbench") if isinstance(run.metadata.get("dynbench"), dict) else {}
    prompt = recorded.get("prompt") if recorded.get("prompt") in spec.prompts else spec.prompts[0]
    timeout = recorded.get("timeout")
    valid = isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and 0 < timeout <= MAX_TIMEOUT
    return prompt, float(timeout) if valid else spec.default_timeout


def _judging_rules(run: TaskRun) -> int:
    """The judging rules the run records, where answers are still judged by them; else this dynbench's."""
    from dynbench_tasks.scoring import JUDGING_RULES, REJUDGED_RULES

    recorded = run.metadata.get("dynbench") if isinstance(run.metadata.get("dynbench"), dict) else {}
    rules = recorded.get("judging_rules")
    return rules if type(rules) is int and rules in REJUDGED_RULES else JUDGING_RULES


def _paired(problem: str, flags: list[dict], answered: tuple[str, ...]) -> Unit:
    """A document as ``--against`` compares it: its stale samples over those that gave an answer to
    compare (a value, Java that ran to its end). A model that rarely answers in the task's format (a
    base model before the fine-tune taught it) writes no stale answer for want of any answer; counting
    only answers keeps that apart from memory."""
    given = [flag for flag in flags if flag.get("status") in answered]
    return Unit(problem, len(given), sum(flag.get("stale") is True for flag in given), 0)


def _guessable(doc: dict) -> bool:
    """Whether the document's published output is one a model writes without working anything out:
    trivial, or a guess from the shown text (what keeps a problem from having a decoy)."""
    from mutators import thread_safe_ast
    from mutators.input_choice import trivial
    from mutators.shown_guesses import guessed_from_shown

    published = thread_safe_ast.literal_eval(doc["original_output"])
    return trivial(published) or guessed_from_shown(doc["code"], doc["input"], published)


def units_of(run: TaskRun) -> tuple[list[Unit], list[Unit], list[Unit], list[Unit], int]:
    """(units with a decoy, units with a stale answer only, those of them whose published output a
    guess reaches, the units ``--against`` compares, documents that could not be judged) of one logged
    run, its answers judged again against its logged documents. A guess is left out of ``--against``
    because a fine-tune's guessing habits differ from its base's (it learns the answer format)."""
    from dynbench_tasks.analysis.verify import logged_answers
    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.benchmarks.cruxeval import recited_answers, score_generations

    rows, unreadable = [], 0
    for sample in run.samples:
        doc = sample.get("doc") if isinstance(sample, dict) else None
        answers = logged_answers(sample, "resps") if isinstance(sample, dict) else None
        try:
            others = recited_answers(doc) if isinstance(doc, dict) and answers else None
            shown = (str(doc["output"]), str(doc["input"]), str(doc["id"])) if others else None
            guessable = "stale" in others and "decoy" not in others and _guessable(doc) if others else False
        except (KeyError, TypeError, ValueError, SyntaxError, RecursionError, MemoryError):
            others = shown = None
        if others is None:
            unreadable += 1
        elif "stale" in others:
            rows.append((answers, shown, others, guessable))
    if not rows:
        return [], [], [], [], unreadable
    prompt, timeout = _settings(run)
    try:
        scored = score_generations([row[0] for row in rows], [row[1][0] for row in rows],
                                   [row[1][1] for row in rows], prompt, timeout, f"detect {run.task}",
                                   [row[2] for row in rows], _judging_rules(run))
    except (ValueError, SyntaxError, RecursionError, MemoryError):  # a logged output that is no literal: not ours
        return [], [], [], [], unreadable + len(rows)
    with_decoy, stale_only, guessable, paired = [], [], [], []
    answered = BENCHMARKS[BENCHMARK].answered_statuses
    for (_, shown, others, guess), row in zip(rows, scored, strict=True):
        flags = [json.loads(item) for item in row]
        unit = Unit(shown[2], len(flags), sum(f.get("stale") is True for f in flags),
                    sum(f.get("decoy") is True for f in flags))
        (with_decoy if "decoy" in others else guessable if guess else stale_only).append(unit)
        if not guess:
            paired.append(_paired(shown[2], flags, answered))
    return with_decoy, stale_only, guessable, paired, unreadable


def _input_guessable(doc: dict) -> bool:
    """Whether every value of the document's published input is one a model writes without working
    anything out: trivial, or had from the shown output or program (:func:`_guessable`'s input side)."""
    from mutators.input_choice import trivial
    from mutators.shown_guesses import among, call_values, shown_guesses

    values = call_values(doc["original_input"])
    guesses = shown_guesses(doc["code"], doc["output"])
    return bool(values) and all(trivial(value) or among(value, guesses) for value in values)


def input_units(run: TaskRun) -> tuple[list[Unit], list[Unit], list[Unit], int]:
    """(units with a stale answer, those of them whose published input a guess reaches, the units
    ``--against`` compares, documents that could not be judged) of one logged input-prediction run,
    its answers judged again against its logged documents."""
    from dynbench_tasks.analysis.verify import logged_answers
    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.benchmarks.cruxeval_input import score_inputs, stale_input

    rows, unreadable = [], 0
    for sample in run.samples:
        doc = sample.get("doc") if isinstance(sample, dict) else None
        answers = logged_answers(sample, "resps") if isinstance(sample, dict) else None
        fields = ("id", "code", "input", "output", "original_input")
        try:
            readable = isinstance(doc, dict) and bool(answers) and all(isinstance(doc[key], str) for key in fields)
            published = stale_input(doc) if readable else None
            guess = published is not None and _input_guessable(doc)
        except (KeyError, TypeError, ValueError, AttributeError, SyntaxError, RecursionError, MemoryError):
            readable = False
        if not readable:
            unreadable += 1
        elif published is not None:
            rows.append((answers, doc, guess))
    if not rows:
        return [], [], [], unreadable
    prompt, timeout = _settings(run)
    try:
        scored = score_inputs([row[0] for row in rows], [row[1] for row in rows], prompt, timeout,
                              f"detect {run.task}", _judging_rules(run))
    except (ValueError, SyntaxError, RecursionError, MemoryError):  # a logged output that is no literal: not ours
        return [], [], [], unreadable + len(rows)
    stale_only, guessable, paired = [], [], []
    answered = BENCHMARKS[INPUT].answered_statuses
    for (_, doc, guess), row in zip(rows, scored, strict=True):
        flags = [json.loads(item) for item in row]
        (guessable if guess else stale_only).append(
            Unit(doc["id"], len(flags), sum(flag.get("stale") is True for flag in flags), 0))
        if not guess:
            paired.append(_paired(doc["id"], flags, answered))
    return stale_only, guessable, paired, unreadable


def translation_units(run: TaskRun) -> tuple[list[Unit], list[Unit], int]:
    """(units with a stale answer, the units ``--against`` compares, documents that could not be judged)
    of one logged translation run: its Java judged again against its logged documents, for the published
    program's tests too."""
    from dynbench_tasks.analysis.verify import logged_answers
    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.benchmarks.translation import has_stale_answer

    rows, unreadable = [], 0
    for sample in run.samples:
        doc = sample.get("doc") if isinstance(sample, dict) else None
        answers = logged_answers(sample, "resps") if isinstance(sample, dict) else None
        if not isinstance(doc, dict) or not answers or "id" not in doc:
            unreadable += 1
        elif has_stale_answer(doc):
            rows.append((answers, doc))
    if not rows:
        return [], [], unreadable
    _, timeout = _settings(run)
    spec, units, paired = BENCHMARKS[run.benchmark], [], []
    for (_, doc), flags in zip(rows, _judged_rows(spec, rows, timeout), strict=True):
        if flags is None:
            unreadable += 1
        else:
            units.append(Unit(str(doc["id"]), len(flags), sum(flag.get("stale") is True for flag in flags), 0))
            paired.append(_paired(str(doc["id"]), flags, spec.answered_statuses))
    return units, paired, unreadable


def _judged_rows(spec, rows: list[tuple[list[str], dict]], timeout: float) -> list[list[dict] | None]:
    """Each row's answers judged with ``stale``, in one batch; where a logged document is not one a task
    built (a field missing or of another type), row by row, that row None."""
    from dynbench_tasks.runtime import shared_java_judge

    def judged(part: list[tuple[list[str], dict]]) -> list[list[dict]]:
        flags = spec.judge_with_stale([(answer, doc) for answers, doc in part for answer in answers],
                                      shared_java_judge(), int(timeout * 1000))
        found, position = [], 0
        for answers, _ in part:
            found.append(flags[position:position + len(answers)])
            position += len(answers)
        return found

    malformed = (KeyError, TypeError, ValueError, AttributeError, IndexError)
    try:
        return judged(rows)
    except malformed:
        pass
    found: list[list[dict] | None] = []
    for row in rows:
        try:
            found += judged([row])
        except malformed:
            found.append(None)
    return found


_NAMED_DOCUMENTS = 5  # differing documents a line names


@dataclass
class Unchecked:
    """A run whose logged documents were not all checked against a rebuild: it gives no evidence."""

    model: str
    benchmark: str
    task: str
    documents: int  # its logged documents, every one unjudged
    differing: list[str]  # the ones that differ from the rebuilt documents (none: it could not be rebuilt)
    reason: str

    def line(self) -> str:
        return one_line(f"{self.model}: {self.task}: no verdict from this run: {self.reason}")

    def row(self) -> dict:
        """As ``dynbench detect --json`` prints it."""
        return {"model": self.model, "task": self.task, "unjudged_documents": self.documents,
                "differing_documents": self.differing, "reason": self.reason}


def _engine_version(run: TaskRun) -> str:
    """The engine version the run recorded, as a line may show it."""
    recorded = run.metadata.get("dynbench")
    return one_line(recorded.get("engine_version") if isinstance(recorded, dict) else None)[:40]


def _predates_decoys(run: TaskRun) -> bool:
    """A CRUXEval output run made by another engine whose logged documents carry no decoy field at all:
    made before decoys were (a run of this engine has the field on every document, None where it has none)."""
    from mutators import ENGINE_VERSION

    return (run.benchmark == BENCHMARK and _engine_version(run) != ENGINE_VERSION
            and not any(isinstance(s, dict) and isinstance(s.get("doc"), dict) and "decoy_output" in s["doc"]
                        for s in run.samples))


def _unchecked_reason(run: TaskRun, checked: CheckedDocuments) -> str:
    from mutators import ENGINE_VERSION

    if _predates_decoys(run):
        return (f"it was made with engine {_engine_version(run)}, before decoys (none of its {len(run.samples)} "
                f"logged documents has one), so nothing here can judge it; run it again with this dynbench (engine "
                f"{ENGINE_VERSION}) for a verdict")
    if checked.problems:
        return (f"its documents could not be checked against a rebuild: {'; '.join(checked.problems[:3])} (detect "
                "judges only documents it rebuilds: name the data the run was made on with --data-dir, or run it "
                "again with this dynbench)")
    named = ", ".join(checked.differing[:_NAMED_DOCUMENTS])
    more = f" and {len(checked.differing) - _NAMED_DOCUMENTS} more" if len(checked.differing) > _NAMED_DOCUMENTS else ""
    return (f"{len(checked.differing)} of its documents ({len(run.samples)} logged) differ from the rebuilt ones, "
            f"repeat one or are missing ({named}{more}): a run with doctored documents is judged on none of them")


def checked_runs(runs: list[TaskRun], data_dir: str | None = None,
                 benchmarks: tuple[str, ...] = (BENCHMARK, *WITHOUT_DECOY)) -> tuple[list[TaskRun], list[Unchecked]]:
    """The runs a verdict may rest on, and a line for each one it may not. Only the answer-changing runs with
    logged samples of ``benchmarks`` are checked (no other gives evidence): each one's logged
    documents against those its recorded settings rebuild over ``data_dir`` (else ``$DYNBENCH_DATA_DIR``, else
    the bundled data), as ``dynbench verify`` checks them; a run passes only if every one is the rebuilt one."""
    from dynbench_tasks.analysis.verify import checked_documents
    from dynbench_tasks.settings import MAX_TIMEOUT
    from dynbench_tasks.variants import ANSWER_CHANGING

    kept, unchecked = [], []
    for run in runs:
        if run.benchmark not in benchmarks or run.variant not in ANSWER_CHANGING or not run.samples:
            continue
        # The documents do not depend on the timeout; detect judges under its own (_settings).
        checked = checked_documents(run, data_dir, MAX_TIMEOUT)
        if checked.problems or checked.differing:
            unchecked.append(Unchecked(run.model, run.benchmark, run.task, len(run.samples), checked.differing,
                                       _unchecked_reason(run, checked)))
        else:
            kept.append(run)
    return kept, unchecked


def gather(runs: list[TaskRun], benchmarks: tuple[str, ...] = (BENCHMARK,)) -> dict[tuple[str, str], Evidence]:
    """Evidence per (model, benchmark) from every answer-changing run with samples of ``benchmarks``
    (CRUXEval output, with decoys; input prediction and translation, with stale answers only), judged against
    their logged documents: runs whose documents were checked against a rebuild (:func:`checked_runs`, or
    verify's verdict)."""
    found: dict[tuple[str, str], Evidence] = {}
    for run in runs:
        if run.benchmark not in benchmarks or not run.samples:
            continue
        evidence = found.setdefault((run.model, run.benchmark), Evidence(run.model, run.benchmark))
        if run.benchmark == BENCHMARK:
            with_decoy, stale_only, guessable, paired, unreadable = units_of(run)
        elif run.benchmark == INPUT:
            (stale_only, guessable, paired, unreadable), with_decoy = input_units(run), []
        else:
            (stale_only, paired, unreadable), with_decoy, guessable = translation_units(run), [], []
        if with_decoy or stale_only or guessable:
            evidence.tasks.add(run.task)
        evidence.with_decoy += with_decoy
        evidence.stale_only += stale_only
        evidence.guessable += guessable
        evidence.paired_units += paired
        evidence.unreadable += unreadable
    return {key: evidence for key, evidence in found.items() if evidence.tasks}


def _thresholds(tests: list[tuple[str, str]], scores: dict[str, list[ScorePoint]] | None = None
                ) -> dict[str, float]:
    """Each model's threshold: ALPHA shared out over the tests made of it together (``tests``: a
    benchmark's answers against their decoys or a reference's, one (model, benchmark) each; a benchmark's
    scores against the other models')."""
    count: dict[str, int] = defaultdict(int)
    for model, _ in tests:
        count[model] += 1
    for group in (scores or {}).values():
        for point in group:
            count[point.model] += 1
    return {model: threshold(number) for model, number in count.items()}


def verdicts(evidence: dict[tuple[str, str], Evidence],
             alpha: dict[str, float] | None = None) -> dict[tuple[str, str], Verdict]:
    """Each model's verdict per benchmark with decoys, at the threshold that keeps its false alarms at
    or below ALPHA across the tests made of it together (these, unless ``alpha`` says otherwise)."""
    judged = [key for key in evidence if key[1] == BENCHMARK]
    alpha = alpha or _thresholds(judged)
    return {key: judge(evidence[key].with_decoy, alpha[key[0]]) for key in judged}


def _bases(reference: dict[tuple[str, str], Evidence]) -> dict[str, list[Unit]]:
    """The reference runs' units per benchmark, every reference model pooled as one base."""
    base: dict[str, list[Unit]] = defaultdict(list)
    for (_, benchmark), found in reference.items():
        base[benchmark] += found.paired_units
    return base


def against(evidence: dict[tuple[str, str], Evidence], base: dict[str, list[Unit]], alpha: dict[str, float]
            ) -> dict[tuple[str, str], Verdict]:
    """Each model's stale answers against the reference runs' on the same documents."""
    return {key: paired_against(found.paired_units, base[key[1]], alpha[key[0]])
            for key, found in evidence.items() if base.get(key[1])}


ALPHA_NOTE = "a model is flagged falsely with probability at most 0.05 across the tests made of it"
_NOTHING = ("no logged samples of a CRUXEval (output or input) or translation task with new answers (newinput, "
            "fuvi, fuvio, newoutput, fuvo), nor "
            f"of <benchmark>_orig and <benchmark>_fuv by {MIN_REFERENCES + 1} or more models, in ")


@dataclass
class Finding:
    """One verdict: a model on a benchmark, against the decoy or against the reference runs."""

    model: str
    benchmark: str
    verdict: Verdict
    evidence: Evidence
    compared_with: str  # "decoy" or "reference"

    def row(self) -> dict:
        """The verdict as ``dynbench detect --json`` prints it."""
        verdict, evidence = self.verdict, self.evidence
        stale, samples = evidence.stale_only_counts
        return {"model": self.model, "benchmark": self.benchmark, "compared_with": self.compared_with,
                "verdict": verdict.verdict, "p_value": verdict.p_value, "documents": verdict.documents,
                "stale": verdict.stale, "control": verdict.decoy, "samples": verdict.samples,
                "stale_documents": verdict.stale_documents, "control_documents": verdict.decoy_documents,
                "excess": verdict.excess, "interval": list(verdict.interval), "documents_needed": verdict.needed,
                "tasks": sorted(evidence.tasks), "stale_only_documents": len(evidence.without_decoy),
                "guessable_documents": len(evidence.guessable),
                "stale_only_rate": stale / max(1, samples), "unjudged_documents": evidence.unreadable}


_NAMED_RUNS = 10  # runs a line names


def score_test_runs(runs: list[TaskRun], data_dir: str | None = None) -> tuple[list[TaskRun], list[str]]:
    """The runs the score test may rest on, and a line per benchmark counting and naming the orig and fuv runs
    it may not. A score test compares a model with the others, so a fabricated peer (a per-document pass@1
    and nothing behind it) would move the line a real model is measured against: on a benchmark where more
    than MIN_REFERENCES models would take part, each orig and fuv run takes part only once ``dynbench verify``
    accepts it over ``data_dir`` (its documents rebuilt, every answer and score recomputed)."""
    from dynbench_tasks.analysis.verify import PARTIAL, VERIFIED, verify_task

    meant = {benchmark for benchmark, group in score_points(runs).items() if len(group) > MIN_REFERENCES}
    kept, refused = [], defaultdict(list)
    for run in runs:
        takes_part = run.benchmark in meant and run.variant in (STATIC, DYNAMIC) and run.per_document
        if takes_part and verify_task(run, data_dir).outcome not in (VERIFIED, PARTIAL):
            refused[run.benchmark].append(f"{run.model} {run.task}")
        else:
            kept.append(run)
    lines = []
    for benchmark, named in sorted(refused.items()):
        more = f" and {len(named) - _NAMED_RUNS} more" if len(named) > _NAMED_RUNS else ""
        lines.append(one_line(f"score test on {benchmark}: {len(named)} runs left out, dynbench verify does not accept "
                              f"their documents and answers: {', '.join(named[:_NAMED_RUNS])}{more}"))
    return kept, lines


def findings(runs: list[TaskRun], reference: list[TaskRun] | None = None, where: str = "the runs",
             reference_where: str = "the reference runs", data_dir: str | None = None
             ) -> tuple[list[Finding], dict[tuple[str, str], Evidence], list[ScoreVerdict], list[Unchecked], list[str]]:
    """Every verdict the runs support (against the decoy; against ``reference`` too where given), the
    evidence per (model, benchmark), each model's scores against the other models' where more than
    MIN_REFERENCES ran a benchmark's orig and fuv with runs verify accepts, the runs (of both) whose
    documents a rebuild over ``data_dir`` did not confirm, which give no evidence, and the lines saying what
    takes no part in the score test; a DataError where either holds nothing to judge."""
    from dynbench_tasks.errors import DataError

    checked, unchecked = checked_runs(runs, data_dir)
    evidence = gather(checked, (BENCHMARK, *WITHOUT_DECOY))
    for run in unchecked:
        if (run.model, run.benchmark) in evidence:
            evidence[(run.model, run.benchmark)].unreadable += run.documents
    scored, score_notes = score_test_runs(runs, data_dir)
    score_notes += left_out(scored)
    scores = {benchmark: group for benchmark, group in score_points(scored).items() if len(group) > MIN_REFERENCES}
    if not evidence and not scores and not unchecked:
        raise DataError("; ".join([_NOTHING + where + ": run lm_eval with --log_samples", *score_notes]))
    base: dict[str, list[Unit]] = {}
    if reference is not None:
        checked, unchecked_reference = checked_runs(reference, data_dir)
        unchecked += unchecked_reference
        base = _bases(gather(checked, (BENCHMARK, *WITHOUT_DECOY)))
        if not base and not unchecked_reference:
            raise DataError(_NOTHING + reference_where)
    decoy_tests = [key for key in evidence if key[1] == BENCHMARK]
    alpha = _thresholds(decoy_tests + [key for key in evidence if base.get(key[1])], scores)
    found = [Finding(*key, verdict, evidence[key], "decoy")
             for key, verdict in sorted(verdicts(evidence, alpha).items())]
    found += [Finding(*key, verdict, evidence[key], "reference")
              for key, verdict in sorted(against(evidence, base, alpha).items())]
    return found, evidence, score_verdicts(scores, alpha), unchecked, score_notes


def detect(run_dirs: list[str], against_dirs: list[str] | None = None, data_dir: str | None = None) -> list[dict]:
    """``dynbench detect RUN_DIR… [--against RUN_DIR…] [--data-dir DIR] --json`` from Python: its ``verdicts``,
    one row per verdict (model, benchmark, ``verdict``, ``p_value``, counts, interval, ``documents_needed``…),
    every logged document checked against a rebuild and every answer judged again.
    ``from dynbench_tasks.contamination.detect import detect``."""
    reference = load_runs(against_dirs) if against_dirs else None
    found, *_ = findings(load_runs(run_dirs), reference, ", ".join(run_dirs), ", ".join(against_dirs or []),
                              data_dir)
    return [finding.row() for finding in found]


def rates_without_decoy(evidence: dict[tuple[str, str], Evidence]) -> list[Evidence]:
    """The evidence of benchmarks without a decoy (input prediction, translation: their stale rates), by
    model and benchmark."""
    return [found for key, found in sorted(evidence.items()) if key[1] in WITHOUT_DECOY]


def stale_rates(run_dirs: list[str], data_dir: str | None = None) -> list[dict]:
    """``dynbench detect RUN_DIR… --json``'s ``stale_rates`` from Python: per model and benchmark without a
    decoy, the share of samples that wrote the published answer (input prediction: the published input where
    it answers no more; translation: Java that passes the published program's tests instead of the edited
    one's)."""
    _, evidence, *_ = findings(load_runs(run_dirs), where=", ".join(run_dirs), data_dir=data_dir)
    return [found.rate_row() for found in rates_without_decoy(evidence)]


def score_tests(run_dirs: list[str], data_dir: str | None = None) -> list[dict]:
    """``dynbench detect RUN_DIR… --json``'s ``score_tests`` from Python: each model's orig score against the
    one the other models' orig and fuv scores predict from its fuv score (:mod:`.score_test`)."""
    _, _, scores, *_ = findings(load_runs(run_dirs), where=", ".join(run_dirs), data_dir=data_dir)
    return [verdict.row() for verdict in scores]
