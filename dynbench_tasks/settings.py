"""The settings of one dynamic task, as a plain record: which benchmark, variant, chain and seed, and
how its answers are scored. Reading them from lm-eval's metadata, with every key checked, is
:mod:`dynbench_tasks.lmeval.settings`; the benchmarks, the judge and the analysis only read the record."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from dynbench_tasks.scoring import JUDGING_RULES
from mutators import COUNTING_PYTHON, ENGINE_VERSION

DEFAULT_SEED = 0
FRESH = "fresh"  # --metadata '{"seed": "fresh"}': a seed drawn from the OS, one per run
SCOPES = ("mutated", "all")
# CRUXEval's prompts (docs/chat.md): the paper's, lm-eval's own, one for chat models (the answer asked
# for in [ANSWER] tags) and lm-eval's chain of thought. The chat prompt is the one a chat template gets
# unless --metadata names a prompt.
PAPER_PROMPT, HARNESS_PROMPT, CHAT_PROMPT, COT_PROMPT = "paper", "harness", "chat", "cot"
LOCAL, HUB = "local", "hub"  # data_source: a data folder or the bundled copy; the Hugging Face Hub
DATA_SOURCES = (LOCAL, HUB)
# What --metadata may set (the settings table of docs/evaluating.md).
SETTINGS = ("seed", "chain", "options", "scope", "prompt", "data_dir", "data_source", "verify", "timeout", "ids",
            "repeats", "temperature")
# The longest a scored answer may run (per test run for Java): 6 times the longest default timeout, so a
# slow machine has room, while a run never takes a submitter's hours per answer (verify scores under it too).
MAX_TIMEOUT = 60.0
# What a document holds besides what it is scored on, by version (2: the decoy of a new input's published
# output): part of the cache key, so documents cached before a column was added are built again.
DOCUMENT_COLUMNS = 2


@dataclass(frozen=True)
class TaskSettings:
    benchmark: str
    variant: str
    chain: str | None  # canonical spec such as "F+U+V2"; None for the static benchmark
    seed: int
    scope: str
    prompt: str
    data_dir: str | None  # None: the bundled copy
    options: tuple[tuple[str, Any], ...]
    verify: bool
    timeout: float
    ids: tuple[str, ...] = ()  # only these problems (the benchmark's own ids); empty: all
    repeats: int | None = None  # samples per problem; None: the task's own (5)
    temperature: float | None = None  # None: the task's own (0.2)
    data_source: str = LOCAL
    # The rules its answers are judged under: this dynbench's, or (dynbench verify) those a run recorded.
    judging_rules: int = JUDGING_RULES

    @property
    def changes_answers(self) -> bool:
        """Whether the chain gives problems new answers (NewInput or NewOutput among its operators)."""
        from mutators.chain import parse_chain

        return self.chain is not None and parse_chain(self.chain).changes_answers

    def fingerprint(self, source: str) -> str:
        """Identity of the mutated documents: engine, chain, seed, options, the raw data and the columns."""
        excluded = ("prompt", "timeout", "data_dir", "data_source", "scope", "ids", "repeats", "temperature",
                    "judging_rules")
        identity = {k: v for k, v in asdict(self).items() if k not in excluded}
        identity.update(engine=ENGINE_VERSION, python=COUNTING_PYTHON, source=source, columns=DOCUMENT_COLUMNS)
        return hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()[:32]
