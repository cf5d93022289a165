"""What a benchmark is to dynbench: one object that knows its data, its programs and how its tasks
prompt and score. Each benchmark module defines one; the registry (:mod:`dynbench_tasks.benchmarks`)
lists them, and the task class, the settings, the YAML generator and the commands ask it rather than
switch on names. Nothing heavy is imported at module level: the command line reads the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from mutators.programs import ProgramKind, Tests

if TYPE_CHECKING:
    from dynbench_tasks.settings import TaskSettings
    from mutators.engine import MutationResult
    from mutators.output_choice import Problem


@dataclass
class Program:
    """One benchmark program as the mutation engine and the equivalence check see it."""

    code: str
    kind: ProgramKind
    entry_point: str | None = None
    call_arguments: str | None = None
    tests: Tests | None = None
    output: str | None = None  # what the benchmark's call returns (a literal), where the problem shows a call
    # NewOutput: the inputs the problem is scored on and how its answers read, for a result's shown program
    # (None where no answer can be recomputed, e.g. no tests).
    answers: Callable[[MutationResult], Problem | None] | None = None


class Benchmark:
    """Subclass per benchmark; the class attributes are its facts, the methods its behaviour."""

    name: ClassVar[str]
    filename: ClassVar[str]  # in a data folder and in the bundled copy
    code_field: ClassVar[str]  # the record field that holds the Python program
    required: ClassVar[tuple[str, ...]]  # fields every record must hold
    hub: ClassVar[tuple[str, str] | None] = None  # (dataset, split) of a Hub copy that carries what scoring needs
    prompts: ClassVar[tuple[str, ...]] = ("paper",)  # prompt styles; the first is the default
    default_timeout: ClassVar[float]  # seconds per scored answer (per test run for Java)
    max_gen_toks: ClassVar[int]
    needs_jdk: ClassVar[bool] = False
    takes_new_inputs: ClassVar[bool] = False  # the call is part of the problem: NewInput may replace its input
    answer_is_input: ClassVar[bool] = False  # the model answers with an input (input prediction)
    answer_is_program: ClassVar[bool] = False  # the model answers with the program itself (translation)
    sample_statuses: ClassVar[tuple[str, ...]]  # every status a scored sample can get
    answered_statuses: ClassVar[tuple[str, ...]]  # those of a sample that gave an answer to compare (right or not)
    unread_statuses: ClassVar[tuple[str, ...]]  # those of a sample whose reply the reader found no answer in
    # The paper's Table 4 (programs, and programs each operator changes) and Table 3 (BLEU).
    paper_programs: ClassVar[int | None] = None
    paper_changed: ClassVar[Mapping[str, int]] = {}
    paper_bleu: ClassVar[Mapping[str, float]] = {}

    def program(self, record: dict) -> Program:
        raise NotImplementedError

    def judgeable(self, record: dict) -> bool:
        """Whether an answer to this problem can be scored at all (e.g. it has tests)."""
        return True

    def document_columns(self, records: list[dict], results: list[MutationResult]) -> dict[str, list]:
        """Columns a task's documents carry besides the program, the original and the mutation record."""
        return {}

    @property
    def variants(self) -> list[str]:
        from dynbench_tasks.variants import variants_of

        return variants_of(self.takes_new_inputs, self.answer_is_input)

    @property
    def headline_variants(self) -> list[str]:
        """The answer-changing variants whose mean is the benchmark's contamination-resistant headline."""
        from dynbench_tasks.variants import headline_variants_of

        return headline_variants_of(self.variants, self.answer_is_program)

    def reference_answer(self, doc: dict) -> str | None:
        """The answer the benchmark itself gives for a document (shown beside a model's, never scored)."""
        return None

    def scored_against(self, doc: dict) -> Any:
        """What a document's answers are scored against (JSON-ready): part of a run's provenance."""
        raise NotImplementedError

    def score(self, resps: list[list[str]], docs: list[dict], settings: TaskSettings) -> list[list[str]]:
        """The scoring filter: one JSON object (with its ``status``) per sample of every document."""
        raise NotImplementedError

    def task_config(self, settings: TaskSettings) -> dict[str, Any]:
        """The lm-eval config keys this benchmark decides: prompt, target, few-shot, scoring filter,
        and ``stop`` (the generation's stop strings)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<benchmark {self.name}>"
