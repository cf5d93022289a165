"""What generating the answers will cost when the model runs on a CPU, said before it is paid.

lm-eval's ``hf`` backend generates every request of a run in one call, longest prompt first, in
batches. Right before that call (patched in by the import hook, :mod:`dynbench_tasks.lmeval.discovery`)
a run with dynbench tasks on a CPU times one batch's prompt and a few generation steps of the model
itself, here and now (four short generations: a few seconds for a small model on an idle
machine), and from those the whole run: batches * (prompt + max_gen_toks * step). A run of more
than ``LONG_SECONDS`` says so as a warning, with the quick settings; a shorter one as information.
The figure is an upper bound: an answer that stops early is cheaper. Where the progress bars are off
(the output is not a terminal), progress lines with the time left take their place
(:func:`progress_as_lines`).
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
QUICK_MAX_GEN_TOKS = 48
QUICK_SETTINGS = ("--metadata '{\"repeats\": 1, \"temperature\": 0}' "
                  f"--gen_kwargs max_gen_toks={QUICK_MAX_GEN_TOKS}")
PROGRESS_EVERY_SECONDS = 30
_TIMED_STEPS = 8
_state = {"announced": False, "lines": False}


def progress_as_lines() -> None:
    """Report generation progress as a line every ``PROGRESS_EVERY_SECONDS`` (for output that is
    not a terminal, where progress bars are off)."""
    _state["lines"] = True


def _clock(seconds: float) -> str:
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

    def seconds(self, prompt_seconds: float, step_seconds: float) -> float:
        return self.batches * (prompt_seconds + self.max_gen_toks * step_seconds)

    def message(self, prompt_seconds: float, step_seconds: float) -> str:
        seconds = self.seconds(prompt_seconds, step_seconds)
        samples = self.answers // self.problems if self.answers % self.problems == 0 else None
        shape = f" ({_count(self.problems, 'problem')}, {samples} samples each)" if samples and samples > 1 else ""
        text = (f"generating {_count(self.answers, 'answer')}{shape} of up to {self.max_gen_toks} tokens on the CPU "
                f"takes up to about {_duration(seconds)} (measured here: {step_seconds:.2f} s a token, "
                f"{_count(min(self.batch, self.answers), 'answer')} at a time)")
        if seconds > LONG_SECONDS and (self.answers > self.problems or self.max_gen_toks > QUICK_MAX_GEN_TOKS):
            text += f"; for a quick look use {QUICK_SETTINGS}"
        elif seconds > LONG_SECONDS:  # already one short answer per problem
            text += "; fewer problems (--limit) or a less busy machine would make it shorter"
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


def measure(lm, context: str, batch: int, max_gen_toks: int) -> tuple[float, float]:
    """Seconds for one batch's prompt (with its first token) and for each token after it, timed on
    ``lm``'s own model through ``generate``: 1 and 1 + ``_TIMED_STEPS`` tokens, twice each, the faster
    of each pair (the first call's warm-up, and a busy machine's pauses, fall on one of them). Should
    the two still not tell the tokens apart, each token is taken to cost its share of the longer
    generation, prompt included: an upper bound."""
    import torch

    tokens = lm.tok_encode(context)[-max(1, lm.max_length - max_gen_toks):]
    prompt = torch.tensor([tokens] * batch, device=lm.device)
    pad = lm.tokenizer.pad_token_id if lm.tokenizer.pad_token_id is not None else lm.tokenizer.eos_token_id

    def seconds(new_tokens: int) -> float:
        started = time.perf_counter()
        with torch.inference_mode():
            lm.model.generate(prompt, attention_mask=torch.ones_like(prompt), max_new_tokens=new_tokens,
                              min_new_tokens=new_tokens, do_sample=False, pad_token_id=pad)
        return time.perf_counter() - started

    first, more = min(seconds(1), seconds(1)), min(seconds(1 + _TIMED_STEPS), seconds(1 + _TIMED_STEPS))
    step = (more - first) / _TIMED_STEPS if more > first else more / (1 + _TIMED_STEPS)
    return first, step


def announce(lm, requests) -> None:
    """Say once, before the first answer is generated, what the answers will cost on this CPU."""
    if _state["announced"]:
        return
    generation = plan(lm, requests)
    if generation is None or getattr(lm, "backend", "causal") != "causal":
        return
    _state["announced"] = True
    longest = max((request.args[0] for request in requests), key=len)
    prompt_seconds, step_seconds = measure(lm, longest, min(generation.batch, generation.answers),
                                           generation.max_gen_toks)
    level = logging.WARNING if generation.seconds(prompt_seconds, step_seconds) > LONG_SECONDS else logging.INFO
    logger.log(level, "%s", generation.message(prompt_seconds, step_seconds))


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
        print(f"dynbench: {self.done} of {self.total} answers generated in {_clock(elapsed)}, "
              f"about {_clock(left)} left", file=sys.stderr, flush=True)


_progress: list[_Progress] = []


def watch_generation(module) -> None:
    model = module.HFLM
    generate_until, model_generate = model.generate_until, model._model_generate

    @functools.wraps(generate_until)
    def watched_generate_until(self, requests, *args, **kwargs):
        try:
            announce(self, requests)
        except Exception as error:  # noqa: BLE001 - an estimate must never stop the run
            logger.debug("no cost estimate: %s", error)
        if _state["lines"] and getattr(self, "rank", 0) == 0:
            _progress[:] = [_Progress(len(requests))]
        try:
            return generate_until(self, requests, *args, **kwargs)
        finally:
            _progress.clear()

    @functools.wraps(model_generate)
    def counted_model_generate(self, context, *args, **kwargs):
        generated = model_generate(self, context, *args, **kwargs)
        if _progress:
            _progress[0].add(len(context))
        return generated

    model.generate_until = watched_generate_until
    model._model_generate = counted_model_generate
