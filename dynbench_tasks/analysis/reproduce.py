"""Spot checks of generation (``dynbench verify RUN_DIR --reproduce K``): the one cheat re-scoring
cannot see is an answer written by hand instead of by the model.

For each task of a run that verifies, K of the documents it holds are drawn at random (the seed is
recorded; by default a fresh one, so a submitter cannot know which documents will be drawn), and
the claimed model generates them again through lm-eval (``simple_evaluate``), greedy, on the run's
own task settings (rebuilt from its provenance, as ``verify`` does, restricted to the drawn ids)
and its own generation settings (the task's and the run's ``--gen_kwargs``). For a greedy run every
logged answer of a document must equal the regenerated one; a run that sampled cannot agree exactly,
so it is inconclusive and only the scores are compared. A spot check passes when at least
``min_agreement`` of the drawn documents agree exactly.
"""

from __future__ import annotations

import json
import random
import statistics
from dataclasses import asdict, dataclass, field

from dynbench_tasks.analysis.runs import TaskRun
from dynbench_tasks.analysis.text import one_line
from dynbench_tasks.analysis.verify import (
    is_greedy,
    logged_answers,
    logged_arguments,
    recorded_settings,
    run_results,
    section,
    shown,
    timeout_cap,
)
from dynbench_tasks.scoring import PASSED

REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE = "reproduced", "not reproduced", "inconclusive"
# Greedy SmolLM2-135M on CPU agreed exactly on every document measured (docs/leaderboards.md, "Spot checks of
# generation": batch sizes 1 and 8, the float32 copy and the GGUF backend, crossed), so by default
# every drawn document must agree. Other hardware or another precision (a GPU in bfloat16) can change
# a token where two are nearly tied: a leaderboard that accepts such runs sets a lower share.
MIN_AGREEMENT = 1.0


@dataclass
class DocumentCheck:
    id: str
    logged: list[str]  # the run's answers to the document
    regenerated: str  # the model's greedy answer now
    agrees: bool  # every logged answer is the regenerated one, character for character
    logged_pass_at_1: float  # the run's pass@1 for the document (verify has re-scored it)
    regenerated_pass_at_1: float  # 1.0 when the regenerated answer passes, else 0.0


@dataclass
class SpotCheck:
    task: str
    model: str  # the run's model name
    outcome: str  # REPRODUCED, NOT_REPRODUCED or INCONCLUSIVE
    seed: int  # the draw's seed
    drawn: list[str]  # ids of the drawn documents, in the order drawn
    greedy: bool  # the run's answers were generated greedily
    min_agreement: float
    documents: list[DocumentCheck] = field(default_factory=list)
    generation: dict = field(default_factory=dict)  # the settings the documents were regenerated with
    problems: list[str] = field(default_factory=list)

    @property
    def agreeing(self) -> int:
        return sum(check.agrees for check in self.documents)

    @property
    def scores(self) -> tuple[float, float]:
        """(the run's, the regeneration's) mean pass@1 over the drawn documents."""
        if not self.documents:
            return 0.0, 0.0
        return (statistics.fmean(c.logged_pass_at_1 for c in self.documents),
                statistics.fmean(c.regenerated_pass_at_1 for c in self.documents))

    @property
    def score_agreement(self) -> int:
        """Drawn documents whose regenerated answer scores what the run's answers score."""
        return sum(c.logged_pass_at_1 == c.regenerated_pass_at_1 for c in self.documents)

    def record(self) -> dict:
        """Everything about the check, the figures derived from it included (``--json``)."""
        logged, regenerated = self.scores
        return {**asdict(self), "agreeing": self.agreeing, "score_agreement": self.score_agreement,
                "logged_pass_at_1": logged, "regenerated_pass_at_1": regenerated}

    def line(self) -> str:
        """The check on one line of plain text (names and answers are submitted text)."""
        return one_line(self._text())

    def _text(self) -> str:
        where = f"{self.task} ({self.model})"
        drawn = len(self.drawn)
        draw = f"seed {self.seed}: {', '.join(self.drawn[:8])}{' …' if drawn > 8 else ''}"
        logged, regenerated = self.scores
        scores = (f"pass@1 on them {logged:.2f} logged, {regenerated:.2f} regenerated "
                  f"({self.score_agreement} of {drawn} documents score alike)")
        if self.problems:
            return f"{where}: spot check failed: {'; '.join(self.problems)} ({draw})"
        if self.outcome == INCONCLUSIVE:
            return (f"{where}: spot check inconclusive: the run sampled its answers, so they cannot agree exactly "
                    f"with a greedy regeneration; {scores}; {self.agreeing} of {drawn} agree anyway ({draw})")
        agreement = f"{self.agreeing} of {drawn} drawn documents regenerate the logged answers exactly"
        if self.outcome == REPRODUCED:
            return f"{where}: spot check reproduced: {agreement}; {scores} ({draw})"
        differing = [c for c in self.documents if not c.agrees]
        shown_ones = "; ".join(f"{c.id}: logged {shown(c.logged[0] if c.logged else '')}, regenerated "
                               f"{shown(c.regenerated)}" for c in differing[:5])
        needed = -(-int(self.min_agreement * drawn * 1000) // 1000)
        return (f"{where}: spot check NOT REPRODUCED: {agreement} (at least {needed} required); {scores}; "
                f"{shown_ones} ({draw})")


def draw(run: TaskRun, k: int, seed: int) -> list[str]:
    """``k`` ids of the documents the run holds, drawn with ``seed`` (all of them when it holds fewer)."""
    held = sorted({s["doc_id"]: str(s["doc"]["id"]) for s in run.samples}.items())
    return random.Random(seed).sample([identifier for _, identifier in held], min(k, len(held)))


def fresh_seed() -> int:
    import secrets

    return secrets.randbits(31)


def load_model(model: str, model_args: str, batch_size: str | int = 1, device: str | None = None):
    """An lm-eval model object, made as ``lm_eval --model … --model_args …`` makes it."""
    import lm_eval.api.registry

    extra = {"batch_size": batch_size, "device": device}
    return lm_eval.api.registry.get_model(model).create_from_arg_string(
        model_args, {key: value for key, value in extra.items() if value is not None})


def _regeneration_settings(run: TaskRun, results: dict, data_dir: str | None) -> tuple[dict, dict]:
    """(--metadata, --gen_kwargs) that rebuild the run's task and decode as the run did, greedily."""
    settings = recorded_settings(run.provenance, data_dir, timeout_cap(run, None))
    settings["repeats"] = 1  # greedy: one answer is every answer
    generation = dict(section(results, "config", "gen_kwargs"))
    if not is_greedy(logged_arguments(run.samples[0])[1]):
        generation.update(temperature=0, do_sample=False)
    return settings, generation


def regenerate(run: TaskRun, ids: list[str], lm, data_dir: str | None = None) -> tuple[dict[str, tuple[str, bool]],
                                                                                         dict]:
    """{id: (the greedy answer, whether it passes)} for the documents ``ids`` of the run's task,
    generated by ``lm`` through lm-eval; and the generation settings it used."""
    import lm_eval

    from dynbench_tasks.lmeval import task_manager

    results = run_results(run)
    settings, generation = _regeneration_settings(run, results, data_dir)
    settings["ids"] = list(ids)
    output = lm_eval.simple_evaluate(
        model=lm, tasks=[run.task], task_manager=task_manager(settings), gen_kwargs=generation or None,
        confirm_run_unsafe_code=True, log_samples=True, bootstrap_iters=0)
    answers = {}
    for sample in output["samples"][run.task]:
        status = json.loads(sample["filtered_resps"][0][0])["status"]
        answers[str(sample["doc"]["id"])] = (sample["resps"][0][0], status == PASSED)
    return answers, dict(output["configs"][run.task]["generation_kwargs"])


def spot_check(run: TaskRun, lm, k: int, seed: int, *, min_agreement: float = MIN_AGREEMENT,
               data_dir: str | None = None) -> SpotCheck:
    """Regenerate ``k`` documents of one run (already verified: its samples are the rebuilt ones)
    with ``lm`` and compare them with the logged answers."""
    ids = draw(run, k, seed)
    greedy = is_greedy(logged_arguments(run.samples[0])[1])
    check = SpotCheck(run.task, run.model, NOT_REPRODUCED, seed, ids, greedy, min_agreement)
    try:
        answers, check.generation = regenerate(run, ids, lm, data_dir)
    except Exception as error:  # noqa: BLE001 - a model that cannot answer is this check's verdict
        check.problems.append(f"the documents could not be regenerated ({type(error).__name__}: {shown(str(error))})")
        return check
    missing = [identifier for identifier in ids if identifier not in answers]
    if missing:
        check.problems.append(f"lm-eval returned no answer for {', '.join(missing)}")
        return check
    by_id = {str(s["doc"]["id"]): s for s in run.samples}
    for identifier in ids:
        sample = by_id[identifier]
        logged = logged_answers(sample, "resps") or []
        answer, passed = answers[identifier]
        agrees = bool(logged) and all(a == answer for a in logged)
        check.documents.append(DocumentCheck(identifier, logged, answer, agrees, float(sample["pass@1"]),
                                             1.0 if passed else 0.0))
    if not greedy:
        check.outcome = INCONCLUSIVE
    elif check.agreeing >= min_agreement * len(ids) - 1e-9:
        check.outcome = REPRODUCED
    return check


def spot_check_runs(runs: list[TaskRun], k: int, model: str, model_args: str, *, seed: int | None = None,
                    batch_size: str | int = 1, device: str | None = None, min_agreement: float = MIN_AGREEMENT,
                    data_dir: str | None = None) -> list[SpotCheck]:
    """A spot check of every run (each must already verify): the model is loaded once; each run's
    ``k`` documents are drawn with ``seed`` (default: a fresh one, recorded in every SpotCheck)."""
    if not runs:
        return []
    seed = fresh_seed() if seed is None else seed
    lm = load_model(model, model_args, batch_size, device)
    return [spot_check(run, lm, k, seed, min_agreement=min_agreement, data_dir=data_dir) for run in runs]
