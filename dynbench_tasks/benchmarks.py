"""The four benchmarks: where their files are, what each record must hold, and how each program is
called (for mutation and for the equivalence check). No lm-eval import here."""

from __future__ import annotations

import ast
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mutators import FUNCTION, SCRIPT
from mutators.equivalence import CallTests, StdinTests, Tests
from mutators.perturb import render_arguments

DATA_DIR_VARIABLE = "DYNBENCH_DATA_DIR"


class DataError(ValueError):
    """Benchmark data missing or malformed; the message says which file and what is wrong."""


@dataclass(frozen=True)
class Benchmark:
    name: str
    filename: str
    code_field: str
    required: tuple[str, ...]
    kind: str

    def program(self, record: dict) -> Program:
        return _PROGRAMS[self.name](record)

    def judgeable(self, record: dict) -> bool:
        """Whether a translation of this problem can be judged (Avatar needs tests, TransCoder a
        Java harness); CRUXEval and CodeNet problems always can."""
        if self.name == "avatar":
            return bool(record["tests"])
        if self.name == "transcoder":
            return bool(record["java_harness"])
        return True


@dataclass
class Program:
    code: str
    kind: str
    entry_point: str | None = None
    call_arguments: str | None = None
    tests: Tests | None = None


BENCHMARKS = {
    "cruxeval": Benchmark(
        "cruxeval", "cruxeval.jsonl", "code", ("id", "code", "input", "output"), FUNCTION
    ),
    "avatar": Benchmark(
        "avatar", "avatar_py2java.jsonl", "python", ("id", "python", "java", "tests"), SCRIPT
    ),
    "codenet": Benchmark(
        "codenet", "codenet_py2java.jsonl", "python", ("id", "python", "tests"), SCRIPT
    ),
    "transcoder": Benchmark(
        "transcoder", "transcoder_py2java.jsonl", "python", ("id", "python", "java", "java_harness", "python_harness"),
        FUNCTION,
    ),
}


def resolve_data_dir(explicit: str | None = None) -> Path:
    """``explicit`` if given, else ``$DYNBENCH_DATA_DIR``; a clear error when neither is usable."""
    chosen = explicit or os.environ.get(DATA_DIR_VARIABLE)
    if not chosen:
        raise DataError(f"no benchmark data folder: pass --data-dir DIR or set {DATA_DIR_VARIABLE}")
    path = Path(chosen).expanduser()
    if not path.is_dir():
        source = "--data-dir" if explicit else DATA_DIR_VARIABLE
        raise DataError(f"benchmark data folder {str(path)!r} (from {source}) does not exist")
    return path


def read_jsonl(path: Path, required: tuple[str, ...] = ()) -> list[dict]:
    if not path.is_file():
        raise DataError(f"{path}: file not found")
    records = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise DataError(f"{path}:{number}: not valid JSON ({error.msg})") from None
            if not isinstance(record, dict):
                raise DataError(f"{path}:{number}: expected a JSON object, got {type(record).__name__}")
            missing = [name for name in required if name not in record]
            if missing:
                raise DataError(f"{path}:{number}: record lacks field(s) {', '.join(missing)}")
            records.append(record)
    return records


def load_benchmark(name: str, data_dir: str | None = None) -> list[dict]:
    benchmark = BENCHMARKS[name]
    return read_jsonl(resolve_data_dir(data_dir) / benchmark.filename, benchmark.required)


def _cruxeval(record: dict) -> Program:
    return Program(record["code"], FUNCTION, "f", record["input"], CallTests("f", [record["input"]]))


def _stdin_program(record: dict) -> Program:
    return Program(record["python"], SCRIPT, tests=StdinTests([test["input"] for test in record["tests"]]))


def harness_parameters(python_harness: str | None) -> list[str]:
    """Argument texts of every call the TransCoder Python harness makes (its ``param`` list)."""
    if not python_harness:
        return []
    try:
        module = ast.parse(python_harness)
    except SyntaxError:
        return []
    for node in ast.walk(module):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "param" for t in node.targets):
            try:
                sets = ast.literal_eval(node.value)
            except ValueError:
                return []
            return [render_arguments(list(params), {}) for params in sets]
    return []


def transcoder_entry_point(code: str) -> str | None:
    try:
        names = [node.name for node in ast.parse(code).body if isinstance(node, ast.FunctionDef)]
    except SyntaxError:
        return None
    return names[-1] if names else None


def _transcoder(record: dict) -> Program:
    entry = transcoder_entry_point(record["python"])
    tests = CallTests(entry, harness_parameters(record.get("python_harness"))) if entry else None
    return Program(record["python"], FUNCTION, entry, None, tests)


_PROGRAMS: dict[str, Callable[[dict], Program]] = {
    "cruxeval": _cruxeval,
    "avatar": _stdin_program,
    "codenet": _stdin_program,
    "transcoder": _transcoder,
}
