"""Avatar (Code Lingua's subset, Python → Java): stdin/stdout programs with tests for 100 of 250."""

from collections.abc import Mapping
from typing import ClassVar

from dynbench_tasks.benchmarks.translation import StdinTranslation
from mutators.derived_inputs import DERIVED_TESTS


class Avatar(StdinTranslation):
    name = "avatar"
    filename = "avatar_py2java.jsonl"
    required = ("id", "python", "java", "tests")
    # Python and Java spell some numbers differently (42.0 / 42, 1e-05 / 1.0E-5); Code Lingua's own Avatar
    # evaluation normalised single numbers too, more loosely (translation.same_output).
    numeric_outputs = True
    derived_tests = DERIVED_TESTS  # each kept only where the reference Java agrees with the Python
    paper_programs = 250
    paper_changed: ClassVar[Mapping[str, int]] = {
        "varnorm1": 131, "varnorm2": 131, "constunfold": 239, "for2while": 181, "condaug": 191}
    paper_bleu: ClassVar[Mapping[str, float]] = {
        "varnorm1": 50.28, "varnorm2": 50.22, "constunfold": 70.36, "for2while": 63.19, "condaug": 72.43}

    def judgeable(self, record: dict) -> bool:
        return bool(record["tests"])  # 150 problems have no tests anyone can retrieve


AVATAR = Avatar()
