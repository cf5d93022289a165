"""``dynbench verify``: check a submitted run without its model.

For every dynbench task in a run folder: the engine and the raw data must be the ones the run
records; its documents are rebuilt from the recorded provenance (seed, chain, options, scope, prompt,
ids) and must have the recorded digest and counts. The rebuilt task, not the run, says how many
documents there are and how many answers each carries: a run holds all of them (verified) or,
made with ``--limit``, exactly the first ones lm-eval's limit gives (partial); anything else is a
mismatch. Every logged sample must be the rebuilt one (document, target, prompt, generation
settings, lm-eval's hashes), its answers are scored again (sandbox, Java judge) and the scorer's
output must be what the run logged, every metric (a document's and the task's, standard errors
included) is recomputed and must have the type and value the task produces, and so must lm-eval's
counts and task hash. Everything read from the run is hostile: a value of the wrong shape is a
named mismatch, never a crash, and never printed unabridged; every line is one line of plain text.

A submission is data, never configuration: the documents are rebuilt from the bundled data (or the
folder the maintainer gives with ``--data-dir``), never from a data folder the run names, so a run
made on doctored data fails on its data digest. A run's answers are judged again under the judging
rules it records where this dynbench still judges by them (``scoring.REJUDGED_RULES``); a run judged
under others (a run that records none was judged under rules 1) fails. A run that claims temperature
0 is certified greedy only if the repeats of at most ``greedy_tolerance`` of its documents differ.
The answers are scored under the run's recorded timeout or the maintainer's cap (``--max-timeout``,
else the benchmark's default), whichever is shorter, and a run recording a longer one fails: a
submission never sets how long verify runs.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dynbench_tasks.analysis.runs import TaskRun, load_runs
from dynbench_tasks.analysis.submitted import read_json_file
from dynbench_tasks.analysis.text import one_line
from dynbench_tasks.errors import DataError
from dynbench_tasks.lmeval.answer_statuses import UNREAD, unread_share
from dynbench_tasks.scoring import RECITATION_METRICS, REJUDGED_RULES, process_results

VERIFIED, PARTIAL, FAILED, UNVERIFIABLE = "verified", "partial", "failed", "unverifiable"
# The recorded settings verify rebuilds with; never the data's location or source, which the maintainer chooses.
_REBUILT_KEYS = ("seed", "chain", "options", "scope", "prompt", "ids", "repeats", "temperature", "timeout", "verify")
# Runs of this engine record the recitation flags wherever a document has them; the unread share came with
# judging rules 3 (a rules-2 run of this engine predates it).
UNREAD_SINCE_RULES = 3
_SHOWN_LIMIT = 40  # characters of a value read from the run that a message may show
# Batched greedy decoding is not bit-exact (padding and batch composition change the order of float
# sums, and a nearly tied token can flip), so an honest temperature-0 run may hold a few documents
# whose repeats differ; answers sampled at any useful temperature differ on most documents. So a run
# claiming temperature 0 is certified greedy while the repeats of at most 2% of its documents (at
# least 1) differ: a run hiding best-of-n behind that claim gains at most those documents.
GREEDY_TOLERANCE_SHARE = 0.02


def greedy_tolerance(documents: int) -> int:
    """How many documents' repeats may differ in a run still certified greedy."""
    return max(1, math.floor(GREEDY_TOLERANCE_SHARE * documents))


@dataclass
class TaskVerdict:
    task: str
    model: str
    outcome: str  # VERIFIED, PARTIAL (the first documents, as --limit takes them, all verified), FAILED, UNVERIFIABLE
    documents: int = 0  # documents the run holds
    scored: int = 0  # documents the rebuilt task scores (never the run's own claim)
    problems: list[str] = field(default_factory=list)
    repeats: int | None = None  # answers per document, as the rebuilt task asks
    greedy: bool | None = None  # certified greedy: temperature 0, and repeats differ within greedy_tolerance
    greedy_claimed: bool | None = None  # the verified generation settings say temperature 0
    differing_repeats: int | None = None  # documents whose answers differ from one repeat to another
    ids: int = 0  # how many problem ids the run restricted its task to (0: none, the whole benchmark)

    def line(self) -> str:
        """The verdict on one line of plain text (the model's name is submitted text)."""
        return one_line(self._text())

    def _made(self) -> str:
        """How the answers were made, as far as the run shows it: a round states what it requires."""
        made = f"{self.repeats} answer(s) each, "
        if self.greedy_claimed and not self.greedy:
            return made + (f"NOT certified greedy: temperature 0 claimed, but the repeats of {self.differing_repeats} "
                           f"of {self.documents} documents differ (at most {greedy_tolerance(self.documents)} may)")
        if self.greedy and self.differing_repeats:
            return made + (f"greedy (the repeats of {self.differing_repeats} of {self.documents} documents differ, "
                           f"within the tolerance of {greedy_tolerance(self.documents)})")
        return made + ("greedy" if self.greedy else "sampled")

    def _text(self) -> str:
        where = f"{self.task} ({self.model})"
        held = f"{self.documents} of {self.scored} documents"
        held += f"; only the {self.ids} problem ids the run chose" if self.ids else ""
        if self.outcome == VERIFIED:
            return f"{where}: verified ({held}), {self._made()}"
        if self.outcome == PARTIAL:
            return f"{where}: partial: {held}, all verified, {self._made()}"
        if self.outcome == UNVERIFIABLE:
            return f"{where}: cannot be verified: {'; '.join(self.problems)}"
        shown = "; ".join(self.problems[:10]) + (f"; and {len(self.problems) - 10} more" if len(self.problems) > 10
                                                  else "")
        return f"{where}: FAILED: {len(self.problems)} problem(s): {shown}"


def require_complete(verdict: TaskVerdict) -> TaskVerdict:
    """``--require-complete``: a partial run (lm_eval --limit) fails, and says why."""
    if verdict.outcome == PARTIAL:
        verdict.outcome = FAILED
        verdict.problems.append(f"--require-complete: the run holds only the first {verdict.documents} of the "
                                f"task's {verdict.scored} documents (lm_eval --limit)")
    return verdict


def shown(value: Any) -> str:
    """A value read from the run, as a message may show it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= _SHOWN_LIMIT else text[:_SHOWN_LIMIT - 3] + "..."


def _plain(value: Any) -> Any:
    """``value`` as it reads back from lm-eval's JSON logs."""
    from lm_eval.utils import handle_non_serializable

    return json.loads(json.dumps(value, default=handle_non_serializable, ensure_ascii=False))


def _hash(text: str) -> str:
    from lm_eval.utils import hash_string

    return hash_string(text)


def _doc_hash(doc: dict) -> str:
    """lm-eval's ``doc_hash`` of a document (evaluator.py: the JSON of the document, indented by 2)."""
    from lm_eval.utils import handle_non_serializable

    return _hash(json.dumps(doc, indent=2, default=handle_non_serializable, ensure_ascii=False))


def _is_score(value: Any) -> bool:
    """A metric value as the task writes it: a finite float in [0, 1] (never a bool, int or string)."""
    return type(value) is float and math.isfinite(value) and 0.0 <= value <= 1.0


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def recorded_settings(provenance: dict, data_dir: str | None, max_timeout: float | None = None) -> dict:
    """The task settings the run recorded, as ``--metadata``, over the data the maintainer chooses:
    ``data_dir`` if given, else ``$DYNBENCH_DATA_DIR``, else the bundled copy; never the data folder or
    source the run names (its digest must then be the recorded one). A recorded timeout over
    ``max_timeout`` is cut to it: the answers are scored under the maintainer's time, never the submitter's."""
    metadata = {key: provenance[key] for key in _REBUILT_KEYS if provenance.get(key) is not None}
    if data_dir:
        metadata["data_dir"] = data_dir
    if max_timeout is not None and _exceeds(metadata.get("timeout"), max_timeout):
        metadata["timeout"] = max_timeout
    return metadata


def _exceeds(timeout: Any, cap: float) -> bool:
    """Whether a recorded timeout is a number over ``cap`` (one of another type or NaN is for the
    settings to refuse, by name)."""
    return type(timeout) in (int, float) and timeout > cap


def timeout_cap(run: TaskRun, max_timeout: float | None) -> float | None:
    """The longest verify lets an answer run: ``--max-timeout``, else the benchmark's default timeout."""
    from dynbench_tasks.benchmarks import BENCHMARKS

    if max_timeout is not None:
        return max_timeout
    spec = BENCHMARKS.get(run.benchmark)
    return spec.default_timeout if spec else None


def rebuild_task(run: TaskRun, data_dir: str | None = None, max_timeout: float | None = None):
    """The lm-eval task object the run's recorded settings give (documents built, requests not), its
    timeout cut to ``max_timeout``."""
    from dynbench_tasks.lmeval import task_manager

    provenance = run.metadata.get("dynbench") or {}
    metadata = recorded_settings(provenance, data_dir, max_timeout)
    task = task_manager(metadata).load([run.task])["tasks"][run.task]
    rules = provenance.get("judging_rules")
    if type(rules) is int and rules in REJUDGED_RULES:  # its answers are judged again as they were judged
        task.settings = replace(task.settings, judging_rules=rules)
    return task


def run_results(run: TaskRun) -> dict:
    """The lm-eval results file the run was read from (its config, counts and hashes), or {}."""
    try:
        results = read_json_file(Path(run.source), "an lm-eval results file", within=run.submission or None)
    except DataError:
        return {}
    return results if isinstance(results, dict) else {}


def section(results: dict, *keys: str) -> dict:
    """``results[key][key…]`` where each is an object, else {} (the files are the submitter's)."""
    for key in keys:
        results = results.get(key) if isinstance(results, dict) else None
    return results if isinstance(results, dict) else {}


def logged_arguments(sample: dict) -> tuple[Any, Any]:
    """(prompt, generation settings) of a logged sample: lm-eval's tracker writes them as
    ``{"gen_args_0": {"arg_0": …, "arg_1": …}}``, ``simple_evaluate``'s own samples as ``[[…, …]]``."""
    arguments = sample.get("arguments")
    if isinstance(arguments, dict) and len(arguments) == 1 and isinstance(arguments.get("gen_args_0"), dict):
        first = arguments["gen_args_0"]
        if set(first) == {"arg_0", "arg_1"}:
            return first["arg_0"], first["arg_1"]
    if isinstance(arguments, list) and len(arguments) == 1 and isinstance(arguments[0], list) and len(
            arguments[0]) == 2:
        return arguments[0][0], arguments[0][1]
    return None, None


def logged_answers(sample: dict, key: str) -> list[str] | None:
    """``resps`` or ``filtered_resps`` of a generation task's sample: one request's answers, all
    strings; None for any other shape."""
    value = sample.get(key)
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], list) and all(
            isinstance(answer, str) for answer in value[0]):
        return value[0]
    return None


def is_greedy(generation: Any) -> bool:
    """Whether lm-eval generation settings decode greedily on every backend: temperature 0 (the API
    and vLLM backends ignore ``do_sample``)."""
    if not isinstance(generation, dict):
        return False
    temperature = generation.get("temperature")
    return (isinstance(temperature, (int, float)) and not isinstance(temperature, bool) and temperature == 0
            and generation.get("do_sample") is not True)


def _limit_documents(limit: Any, total: int) -> int | None:
    """How many documents lm-eval's ``--limit`` takes (evaluator_utils.get_sample_size), from the first."""
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not math.isfinite(limit) or limit <= 0:
        return None
    return min(total, math.ceil(total * limit) if limit < 1.0 else int(limit))


def _check_provenance(provenance: dict, task) -> list[str]:
    from mutators import COUNTING_PYTHON, ENGINE_VERSION

    problems = []
    if provenance.get("engine_version") != ENGINE_VERSION:
        recorded = shown(provenance.get("engine_version"))
        problems.append(f"engine version differs (run {recorded}, here {ENGINE_VERSION})")
    rules = provenance.get("judging_rules", 1)  # recorded since rules 2
    if type(rules) is not int or rules not in REJUDGED_RULES:
        recorded = "none recorded: rules 1" if "judging_rules" not in provenance else shown(rules)
        judged = " or ".join(map(str, REJUDGED_RULES))
        problems.append(f"judged under other judging rules (run {recorded}, here {judged}): its answers would be "
                        "judged differently; run it again with this dynbench")
    rebuilt = task.config.metadata["dynbench"]
    data = provenance.get("data")
    recorded_data = data.get("sha256") if isinstance(data, dict) else None
    if recorded_data != rebuilt["data"]["sha256"]:
        here = rebuilt["data"]
        problems.append(f"data digest differs (run {one_line(recorded_data)[:12]}, here {here['sha256'][:12]} from "
                        f"{here['origin']}: verify reads the bundled data or --data-dir, never the run's own)")
    elif provenance.get("documents_sha256") != rebuilt.get("documents_sha256"):
        built_with = provenance.get("python")
        other = "" if built_with == COUNTING_PYTHON else (
            f" ({'no CPython recorded' if built_with is None else f'built with CPython {shown(built_with)}'}, rebuilt "
            f"with {COUNTING_PYTHON}: the step budgets that decide NewInput's and NewOutput's choices count "
            "CPython's line events, which another version may count apart)")
        problems.append(f"the documents differ from the ones the recorded seed, chain and data give{other}")
    elif provenance.get("counts") != rebuilt.get("counts"):
        problems.append(f"the counts {shown(provenance.get('counts'))} claimed, the rebuilt documents give "
                        f"{rebuilt.get('counts')}")
    return problems


@dataclass
class _Rebuilt:
    """What the rebuilt task says every logged sample must be."""

    documents: list[dict]
    prompts: dict[int, str]
    generation: Any  # the generation settings of every request, as they read back from the log
    repeats: int
    filter_name: str
    metrics: list[str]
    task: Any
    _hashes: dict[int, dict[str, str]] = field(default_factory=dict)

    def target(self, index: int) -> str:
        return str(self.task.doc_to_target(self.documents[index]))

    def hashes(self, index: int) -> dict[str, str]:
        """lm-eval's ``doc_hash``, ``prompt_hash`` and ``target_hash`` of a document's sample."""
        if index not in self._hashes:
            self._hashes[index] = {"doc_hash": _doc_hash(self.documents[index]),
                                   "prompt_hash": _hash(self.prompts[index]), "target_hash": _hash(self.target(index))}
        return self._hashes[index]


def _rebuilt(task, results: dict) -> _Rebuilt:
    overrides = section(results, "config").get("gen_kwargs")
    if isinstance(overrides, dict):  # lm_eval --gen_kwargs, applied as lm-eval applies it
        task.set_config(key="generation_kwargs", value=dict(overrides), update=True)
    task.build_all_requests(limit=None)
    return _Rebuilt(
        documents=list(task.eval_docs),
        prompts={instance.doc_id: instance.arguments[0] for instance in task.instances},
        generation=_plain(task.config.generation_kwargs),
        repeats=int(task.config.repeats or 1),
        filter_name=task.config.filter_list[0]["name"],
        metrics=[entry["metric"] for entry in task.config.metric_list],
        task=task,
    )


def _check_sample(sample: dict, index: int, rebuilt: _Rebuilt) -> list[str]:
    """Everything about one logged sample but its scores; the messages start with the document's id."""
    doc = rebuilt.documents[index]
    name = str(doc["id"])
    problems = []
    if sample.get("doc") != _plain(doc):
        problems.append("the logged document differs from the rebuilt one")
    target = rebuilt.target(index)
    if sample.get("target") != target:
        problems.append(f"target {shown(sample.get('target'))} logged, the document's is {shown(target)}")
    prompt, generation = logged_arguments(sample)
    if prompt != rebuilt.prompts.get(index):
        problems.append("prompt differs from the rebuilt one")
    if generation != rebuilt.generation:
        problems.append(f"generation settings {shown(generation)} logged, the task and the run's --gen_kwargs give "
                        f"{shown(rebuilt.generation)}")
    problems += [f"{key} differs from the rebuilt one's" for key, value in rebuilt.hashes(index).items()
                 if key in sample and sample[key] != value]
    if sample.get("filter") != rebuilt.filter_name:
        problems.append(f"filter {shown(sample.get('filter'))} logged, the task's is {rebuilt.filter_name!r}")
    listed = sample.get("metrics")
    # A document lists the recitation metrics it earns (a decoy only where it has one) and unread under
    # the rules that record it, in the task's order; _check_scores says which it must list.
    if not isinstance(listed, list) or listed != [m for m in rebuilt.metrics if m not in (*RECITATION_METRICS, UNREAD)
                                                  or m in listed]:
        problems.append(f"metrics {shown(sample.get('metrics'))} listed, the task's are {rebuilt.metrics}")
    for key in ("resps", "filtered_resps"):
        answers = logged_answers(sample, key)
        if answers is None:
            problems.append(f"{key} is not one list of answers (strings)")
        elif len(answers) != rebuilt.repeats:
            problems.append(f"{len(answers)} answers in {key}, the task asks {rebuilt.repeats} (repeats)")
    return [f"{name}: {problem}" for problem in problems]


def _check_scores(sample: dict, doc: dict, row: list[str], unread: tuple[str, ...], records_unread: bool
                  ) -> tuple[list[str], dict[str, float]]:
    """The logged scorer output and metrics of one document against its re-scored answers: every field and
    metric the task produces on it (``records_unread``: the run's judging rules record the unread share)
    must be there, so a run cannot drop the recitation flags detect reads."""
    problems = []
    logged = logged_answers(sample, "filtered_resps") or []
    rescored = [json.loads(item) for item in row]
    claimed = []
    for item in logged:
        try:
            claimed.append(json.loads(item))
        except (ValueError, RecursionError):
            claimed.append(None)
    produced = sorted({key for entry in rescored for key in RECITATION_METRICS if key in entry})
    dropped = [key for key in produced if not any(isinstance(entry, dict) and key in entry for entry in claimed)]
    if dropped:
        problems.append(f"its answers lack {', '.join(dropped)}, which this task (engine {_engine()}) records on "
                        "them")
    elif claimed != rescored:
        statuses = [entry.get("status") if isinstance(entry, dict) else None for entry in claimed]
        here = [entry["status"] for entry in rescored]
        if statuses != here:
            problems.append(f"answers score {here} here, {shown(statuses)} in the run")
        else:
            problems.append("filtered_resps differ from what scoring its resps gives (same statuses)")
    earned = process_results(doc, [[json.dumps(entry, ensure_ascii=False) for entry in rescored]])
    listed = sample.get("metrics") if isinstance(sample.get("metrics"), list) else []
    if UNREAD in listed or records_unread:
        earned[UNREAD] = unread_share([entry["status"] for entry in rescored], unread)
    for metric in RECITATION_METRICS:
        if metric in listed and metric not in earned:
            problems.append(f"{metric} listed, but its answers were not checked against a {metric} answer")
    unlisted = [metric for metric in earned if metric not in listed]
    if unlisted:
        problems.append(f"metrics lack {', '.join(unlisted)}, which the task produces on this document")
    for metric, value in earned.items():
        claim = sample.get(metric)
        if not _is_score(claim):
            problems.append(f"{metric} {shown(claim)} is not a score (a float in [0, 1])")
        elif not _close(claim, value):
            problems.append(f"{metric} {claim} claimed, {value:g} earned")
    return [f"{doc['id']}: {problem}" for problem in problems], earned


def _engine() -> str:
    from mutators import ENGINE_VERSION

    return ENGINE_VERSION


def _check_aggregates(claimed: Any, earned: dict[str, list[float]], filter_name: str, task,
                      bootstrap_iters: Any) -> list[str]:
    """The task's metrics and their standard errors, recomputed as lm-eval computes them."""
    from lm_eval.api.metrics import stderr_for_metric

    if not isinstance(claimed, dict):
        return ["the results hold no metrics for the task"]
    problems, expected = [], {}
    iterations = bootstrap_iters if type(bootstrap_iters) is int else None
    if iterations is None:
        problems.append(f"bootstrap_iters {shown(bootstrap_iters)} recorded, not a whole number")
    for metric, values in earned.items():
        aggregate = task.aggregation()[metric]
        expected[f"{metric},{filter_name}"] = aggregate(values)
        stderr = stderr_for_metric(aggregate, iterations) if iterations else None
        expected[f"{metric}_stderr,{filter_name}"] = stderr(values) if stderr and len(values) > 1 else "N/A"
    count = len(next(iter(earned.values()), []))
    if "sample_len" in claimed and claimed["sample_len"] != count:
        problems.append(f"sample_len {shown(claimed['sample_len'])} claimed, the samples hold {count}")
    for key in sorted(set(claimed) - set(expected)):
        if "," in key:
            problems.append(f"the results claim a metric the task does not produce: {shown(key)}")
    for key, value in expected.items():
        claim = claimed.get(key)
        what = f"the task's {key.split(',')[0]}"
        if key not in claimed:
            problems.append(f"{what} is missing from the results")
        elif value == "N/A" or claim == "N/A":
            if claim != value:
                problems.append(f"{what} {shown(claim)} claimed, {value if value == 'N/A' else f'{value:g}'} earned")
        elif not (_is_score(claim) if "_stderr" not in key else type(claim) is float and math.isfinite(claim)):
            problems.append(f"{what} {shown(claim)} is not a score (a float in [0, 1])")
        elif not _close(claim, value):
            problems.append(f"{what} {claim:g} claimed, {value:g} earned by its samples")
    return problems


def _check_coverage(held: set[int], total: int, limit: Any) -> tuple[str | None, list[str], list[int]]:
    """(VERIFIED or PARTIAL, problems, the documents missing): a run holds every document, or the first ones
    --limit takes."""
    if held == set(range(total)):
        return VERIFIED, [], []
    wanted = _limit_documents(limit, total)
    if wanted is not None and held == set(range(wanted)):
        return PARTIAL, [], []
    missing = sorted(set(range(wanted if wanted is not None else total)) - held)
    where = f"the first {wanted} (lm_eval --limit {shown(limit)})" if wanted is not None else f"all {total}"
    return None, [f"the samples hold {len(held)} of the task's {total} documents, not {where}: "
                  f"{len(missing)} missing (document {missing[0] if missing else 'order'} first)"], missing


def checked_rebuild(run: TaskRun, data_dir: str | None = None, max_timeout: float | None = None
                    ) -> tuple[Any, str, list[str]]:
    """Verify's first step, which ``dynbench detect`` shares: (the task the run's recorded settings rebuild
    over the maintainer's data, its documents built or served from the datasets cache; the outcome where the
    run stops here, FAILED or UNVERIFIABLE; what stops it: no samples, no provenance, no rebuild, a timeout
    over ``max_timeout``, another engine, judging rules, data or documents). Never an exception."""
    provenance = run.metadata.get("dynbench") or {}
    if not run.samples:
        return None, UNVERIFIABLE, ["the run logged no samples (run lm_eval with --log_samples)"]
    if not isinstance(provenance, dict) or not provenance.get("engine_version"):
        return None, UNVERIFIABLE, ["the results carry no dynbench provenance"]
    cap = timeout_cap(run, max_timeout)
    try:
        task = rebuild_task(run, data_dir, cap)
    except Exception as error:  # noqa: BLE001 - any failure to rebuild is this task's verdict
        return None, FAILED, [f"its documents could not be rebuilt ({type(error).__name__}: {shown(str(error))})"]
    problems = []
    if cap is not None and _exceeds(provenance.get("timeout"), cap):
        problems.append(f"timeout {shown(provenance['timeout'])} s recorded, over the {cap:g} s verify allows "
                        "(the benchmark's default; a maintainer may allow more with --max-timeout SECONDS)")
    return task, FAILED, problems + _check_provenance(provenance, task)


@dataclass
class CheckedDocuments:
    """A run's logged samples checked against the rebuilt documents, as verify checks each sample's one."""

    samples: list[dict]  # the logged samples whose document is the rebuilt one of their doc_id
    differing: list[str]  # each other logged sample (a document not rebuilt, or one logged again) and each
    # document the run should hold but does not log, by its document's id (or its position), as a message shows it
    problems: list[str]  # what kept every document from being checked (checked_rebuild's)


def checked_documents(run: TaskRun, data_dir: str | None = None, max_timeout: float | None = None
                      ) -> CheckedDocuments:
    """The run's logged samples split by whether their document is the one its recorded settings rebuild
    over the maintainer's data (``checked_rebuild``; the same cache)."""
    checked = CheckedDocuments([], [], [])
    task, _, checked.problems = checked_rebuild(run, data_dir, max_timeout)
    if checked.problems:
        return checked
    documents = [_plain(doc) for doc in task.eval_docs]
    seen, logged = set(), set()
    for position, sample in enumerate(run.samples):
        index = sample.get("doc_id") if isinstance(sample, dict) else None
        logged.add(index)
        if type(index) is int and 0 <= index < len(documents) and sample.get("doc") == documents[index]:
            if index not in seen:
                checked.samples.append(sample)
                seen.add(index)
                continue
            checked.differing.append(f"{one_line(documents[index]['id'])[:_SHOWN_LIMIT]} (logged more than once)")
        else:
            doc = sample.get("doc") if isinstance(sample, dict) else None
            name = doc.get("id") if isinstance(doc, dict) else None
            checked.differing.append(one_line(name)[:_SHOWN_LIMIT] if isinstance(name, str) else f"sample {position}")
    # A run with samples taken out (those that would count against it) holds fewer documents than it claims
    missing = _check_coverage(seen, len(documents), section(run_results(run), "config").get("limit"))[2]
    checked.differing += [f"{one_line(documents[index]['id'])[:_SHOWN_LIMIT]} (not logged)"
                          for index in missing if index not in logged]
    return checked


def verify_task(run: TaskRun, data_dir: str | None = None, max_timeout: float | None = None) -> TaskVerdict:
    """The verdict on one task of a run, its answers scored under at most ``max_timeout`` seconds each
    (default: the benchmark's default timeout). Any failure is the verdict's problem, never an exception."""
    provenance = run.metadata.get("dynbench") or {}
    verdict = TaskVerdict(run.task, run.model, FAILED, len(run.samples))
    task, verdict.outcome, verdict.problems = checked_rebuild(run, data_dir, max_timeout)
    if verdict.problems:
        return verdict
    try:
        _check_run(run, provenance, task, verdict)
    except Exception as error:  # noqa: BLE001 - a run that breaks scoring fails on its own line, never a traceback
        verdict.outcome = FAILED
        verdict.problems.append(f"scoring it failed ({type(error).__name__}: {shown(str(error))})")
    return verdict


def _check_run(run: TaskRun, provenance: dict, task, verdict: TaskVerdict) -> None:
    """Every logged sample, score and count against the rebuilt task, into ``verdict``."""
    from dynbench_tasks.benchmarks import BENCHMARKS

    results = run_results(run)
    rebuilt = _rebuilt(task, results)
    total = len(rebuilt.documents)
    verdict.scored, verdict.repeats = total, rebuilt.repeats
    verdict.greedy_claimed = verdict.greedy = is_greedy(rebuilt.generation)
    ids = provenance.get("ids")
    verdict.ids = len(ids) if isinstance(ids, list) else 0

    held, logged, docs, generations = set(), [], [], []
    for position, sample in enumerate(run.samples):
        if not isinstance(sample, dict):
            verdict.problems.append(f"sample {position}: not a JSON object ({shown(sample)})")
            continue
        index = sample.get("doc_id")
        if type(index) is not int or not 0 <= index < total:
            verdict.problems.append(f"sample {position}: doc_id {shown(index)} is not a document of this task")
            continue
        if index in held:
            verdict.problems.append(f"{rebuilt.documents[index]['id']}: logged more than once")
            continue
        held.add(index)
        found = _check_sample(sample, index, rebuilt)
        verdict.problems += found
        answers = logged_answers(sample, "resps")
        if answers is not None and len(answers) == rebuilt.repeats:
            logged.append(sample)
            docs.append(rebuilt.documents[index])
            generations.append(answers)
    spec = BENCHMARKS[run.benchmark]
    rows = spec.score(generations, docs, task.settings) if docs else []
    earned: dict[str, list[float]] = {}
    records_unread = UNREAD in rebuilt.metrics and task.settings.judging_rules >= UNREAD_SINCE_RULES
    for sample, doc, row in zip(logged, docs, rows, strict=True):
        found, metrics = _check_scores(sample, doc, row, spec.unread_statuses, records_unread)
        verdict.problems += found
        for metric, value in metrics.items():
            earned.setdefault(metric, []).append(value)

    verdict.documents = len(held)
    verdict.differing_repeats = sum(len(set(answers)) > 1 for answers in generations)
    if verdict.greedy_claimed and verdict.differing_repeats > greedy_tolerance(verdict.documents):
        verdict.greedy = False
    configuration = section(results, "config")
    outcome, found, _ = _check_coverage(held, total, configuration.get("limit"))
    verdict.problems += found
    counts = section(results, "n-samples").get(run.task)
    if counts is not None and counts != {"original": total, "effective": len(run.samples)}:
        verdict.problems.append(f"lm-eval's n-samples {shown(counts)} claimed; the task has {total} documents, "
                                f"the samples hold {len(run.samples)}")
    configured = section(results, "configs", run.task)
    if configured.get("repeats") != rebuilt.repeats:
        verdict.problems.append(f"repeats {shown(configured.get('repeats'))} in the task's config, the rebuilt "
                                f"task has {rebuilt.repeats}")
    if configured.get("generation_kwargs") != rebuilt.generation:
        verdict.problems.append(f"generation_kwargs {shown(configured.get('generation_kwargs'))} in the task's "
                                f"config, the task and the run's --gen_kwargs give {shown(rebuilt.generation)}")
    if earned and len(docs) == len(run.samples):
        verdict.problems += _check_aggregates(section(results, "results").get(run.task), earned,
                                              rebuilt.filter_name, task, configuration.get("bootstrap_iters"))
        verdict.problems += _check_task_hash(results, run, rebuilt)
    if not verdict.problems:
        verdict.outcome = outcome


def _check_task_hash(results: dict, run: TaskRun, rebuilt: _Rebuilt) -> list[str]:
    """lm-eval's ``task_hashes`` entry: the hash of every sample's three hashes, in logged order."""
    claimed = section(results, "task_hashes").get(run.task)
    if claimed is None:
        return []
    parts = ["".join(rebuilt.hashes(sample["doc_id"]).values()) for sample in run.samples]
    return [] if claimed == _hash("".join(parts)) else ["lm-eval's task hash differs from the rebuilt samples'"]


def verify_runs(folders: list[str], data_dir: str | None = None, max_timeout: float | None = None
                ) -> list[TaskVerdict]:
    runs = load_runs(folders, keep_all=True)
    if not runs:
        raise DataError("no dynbench task results in " + ", ".join(folders))
    return [verify_task(run, data_dir, max_timeout) for run in runs]
