"""CodeNet (Code Lingua's subset, Python → Java): stdin/stdout programs with one test each."""

from collections.abc import Mapping
from typing import ClassVar

from dynbench_tasks.benchmarks.translation import StdinTranslation
from mutators.derived_inputs import DERIVED_TESTS


class CodeNet(StdinTranslation):
    name = "codenet"
    filename = "codenet_py2java.jsonl"
    reference_field = None
    no_reference_reason = "CodeNet has no Java reference translations (its Java subset is other submissions)"
    paper_programs = 200
    derived_tests = DERIVED_TESTS  # one published test each: a program that ignores its input would pass it
    paper_changed: ClassVar[Mapping[str, int]] = {
        "varnorm1": 150, "varnorm2": 150, "constunfold": 169, "for2while": 100, "condaug": 134}
    paper_bleu: ClassVar[Mapping[str, float]] = {
        "varnorm1": 56.46, "varnorm2": 56.91, "constunfold": 69.55, "for2while": 59.92, "condaug": 67.45}


CODENET = CodeNet()
