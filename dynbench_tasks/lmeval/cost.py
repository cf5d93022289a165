"""What generating the answers will cost when the model runs on a CPU, said as soon as the run knows.

lm-eval's ``hf`` backend generates every request of a run in one call, longest prompt first, in
batches. In a run with dynbench tasks on a CPU (patched in by the import hook,
:mod:`dynbench_tasks.lmeval.discovery`), the time the first batch took (the longest prompts, so an
upper bound for the others) gives the whole run's: batches * that. Nothing is generated for the
estimate alone, so it costs nothing and holds for the machine as busy as it is. A run of more than
``LONG_SECONDS`` says so as a warning, with what would make it quicker and what each choice gives
up; a shorter one as information. Where the progress bars are off (the output is not a terminal),
progress lines with the time left take their place (:func:`progress_as_lines`).
"""

from __future__ import annotations

import functools
import logging
import math
import sys
import time
from dataclasses import dataclass

logger = logging.getLogger("lm_eval.dynbench")
LONG_SECONDS = 600
# Quicker runs that leave every answer as right as it would have been: fewer answers, never shorter ones
# (a lower max_gen_toks cuts answers off, and a cut-off Java translation does not compile).
FEWER_SAMPLES = ("--metadata '{{\"repeats\": 1, \"temperature\": 0}}' (one greedy answer per problem instead of "
                 "{samples} samples: pass@1 is greedy's, pass@k for k > 1 is not computed)")
FEWER_PROBLEMS = "--limit N (the first N problems only: a wider interval around each score)"
PROGRESS_EVERY_SECONDS = 30
_state = {"lines": False}


def progress_as_lines() -> None:
    """Report generation progress as a line every ``PROGRESS_EVERY_SECONDS`` (for output that is
    not a terminal, where progress bars are off)."""
    _state["lines"] = True


def clock(seconds: float) -> str:
    minutes, seconds = divmod(round(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}" if minutes >= 60 else f"{minutes}:{seconds:02d}"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} seconds"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.1f} hours"


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"


@dataclass
class Plan:
    """The generation a run asks for: its answers, how many problems they answer, the most
    tokens an answer may take, and the model's batch size."""

    answers: int
    problems: int
    max_gen_toks: int
    batch: int

    @property
    def batches(self) -> int:
        return math.ceil(self.answers / self.batch)

    def seconds(self, first_batch_seconds: float) -> float:
        return self.batches * first_batch_seconds

    def message(self, first_batch_seconds: float) -> str:
        seconds = self.seconds(first_batch_seconds)
        samples = self.answers // self.problems if self.answers % self.problems == 0 else None
        shape = f" ({_count(self.problems, 'problem')}, {samples} samples each)" if samples and samples > 1 else ""
        at_once = min(self.batch, self.answers)
        text = (f"generating {_count(self.answers, 'answer')}{shape} of up to {self.max_gen_toks} tokens on the CPU "
                f"takes up to about {_duration(seconds)} (measured on this run's first batch: "
                f"{first_batch_seconds:.1f} s for {_count(at_once, 'answer')}, the longest prompts)")
        if seconds > LONG_SECONDS:
            quicker = [FEWER_SAMPLES.format(samples=samples)] if samples and samples > 1 else []
            text += f"; for a quicker run use {' or '.join([*quicker, FEWER_PROBLEMS])}"
        return text


def plan(lm, requests) -> Plan | None:
    """The generation ``requests`` ask ``lm`` for, if they include a dynbench task's and ``lm`` runs
    on a CPU; None otherwise."""
    from dynbench_tasks.lmeval.task_names import dynbench_entries

    if not str(getattr(lm, "device", "")).startswith("cpu") or getattr(lm, "rank", 0) != 0:
        return None
    ours = dynbench_entries()
    if not requests or not any(request.task_name in ours for request in requests):
        return None
    default = getattr(lm, "max_gen_toks", 256)
    longest = max(int(request.args[1].get("max_gen_toks", default)) for request in requests)
    problems = len({(request.task_name, request.doc_id) for request in requests})
    batch = lm.batch_size if isinstance(lm.batch_size, int) and lm.batch_size > 0 else 1
    return Plan(len(requests), problems, longest, batch)


def say(generation: Plan, first_batch_seconds: float) -> None:
    """The run's cost, once its first batch has been generated."""
    long = generation.seconds(first_batch_seconds) > LONG_SECONDS
    logger.log(logging.WARNING if long else logging.INFO, "%s", generation.message(first_batch_seconds))


class _Progress:
    """Answers generated so far, printed as a line now and then with the time left."""

    def __init__(self, total: int) -> None:
        self.total, self.done = total, 0
        self.started = self.printed = time.monotonic()

    def add(self, answers: int) -> None:
        self.done += answers
        now = time.monotonic()
        if now - self.printed < PROGRESS_EVERY_SECONDS and self.done < self.total:
            return
        self.printed = now
        elapsed = now - self.started
        left = elapsed / self.done * (self.total - self.done)
        print(f"dynbench: {self.done} of {self.total} answers generated in {clock(elapsed)}, "
              f"about {clock(left)} left", file=sys.stderr, flush=True)


_progress: list[_Progress] = []
_pending_estimate: list[Plan] = []  # the generation in progress, until its first batch has said what it costs


def watch_generation(module) -> None:
    model = module.HFLM
    generate_until, model_generate = model.generate_until, model._model_generate

    @functools.wraps(generate_until)
    def watched_generate_until(self, requests, *args, **kwargs):
        try:
            generation = plan(self, requests) if getattr(self, "backend", "causal") == "causal" else None
            _pending_estimate[:] = [generation] if generation is not None and generation.batches > 1 else []
        except Exception as error:  # noqa: BLE001 - an estimate must never stop the run
            logger.debug("no cost estimate: %s", error)
        if _state["lines"] and getattr(self, "rank", 0) == 0:
            _progress[:] = [_Progress(len(requests))]
        try:
            return generate_until(self, requests, *args, **kwargs)
        finally:
            _progress.clear()
            _pending_estimate.clear()

    @functools.wraps(model_generate)
    def counted_model_generate(self, context, *args, **kwargs):
        started = time.perf_counter()
        generated = model_generate(self, context, *args, **kwargs)
        if _pending_estimate:
            generation = _pending_estimate.pop()
            generation.batch = len(context) or generation.batch  # what the backend made of --batch_size (auto)
            say(generation, time.perf_counter() - started)
        if _progress:
            _progress[0].add(len(context))
        return generated

    model.generate_until = watched_generate_until
    model._model_generate = counted_model_generate
