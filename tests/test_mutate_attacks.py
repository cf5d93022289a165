"""Hostile programs at mutate time: ``dynbench mutate --input`` never hangs and never stops on one
program. Each attack gets a named status and the good programs beside it (the controls) are mutated."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time

import pytest

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from mutators import mutate
from mutators.chain import Chain, parse_chain
from mutators.guarded import GuardedMutator
from mutators.programs import CRASHED, MUTATED, NO_PROGRAM, TIMEOUT, TOO_LARGE, UNPARSEABLE

GOOD = "def area(w, h):\n    s = w * h\n    return s\n"
# libcst's parser is quadratic in the length of one chain of binary operators, and CPython compiles
# 1,500 terms: twenty such lines take many seconds to parse (12 s on an idle core) and mutate.
SLOW = "".join(f"x{i} = " + "+".join(["x"] * 1500) + "\n" for i in range(20))
SECONDS = 2  # --program-timeout in these tests

# (name, the JSONL line's bytes, the status it must get, text its reason must hold)
ATTACKS = [
    # The attack of issue 18: one `return x+x+…` of 5,000 terms. CPython 3.11 refuses to compile it
    # (too deep), in milliseconds; where a CPython compiles it, libcst's parse overruns the deadline.
    ("plus_5000", {"code": "def f(x):\n    return " + "+".join(["x"] * 5000) + "\n"}, (UNPARSEABLE, TIMEOUT), ""),
    ("slow_parse", {"code": SLOW}, (TIMEOUT,), f"longer than {SECONDS} s"),
    ("1.2 MB", {"code": "x = 1\n" * 200_000}, (TOO_LARGE,), "1,200,000 bytes"),
    ("not an object", [1, 2, 3], (NO_PROGRAM,), "JSON array, not an object"),
    ("code is a number", {"code": 5}, (NO_PROGRAM,), "is a JSON number, not a string"),
    ("no code field", {"src": GOOD}, (NO_PROGRAM,), "no field 'code'"),
    ("invalid UTF-8", b'{"code": "x = \'\xff\xfe\'\\n"}', (UNPARSEABLE,), "not UTF-8 text"),
    ("lone surrogate", b'{"code": "x = \'\\ud800\'\\n"}', (UNPARSEABLE,), "not UTF-8 text"),
    ("NUL byte", {"code": "x = 1\x00\n"}, (UNPARSEABLE,), "null bytes"),
    # libcst's native parser overflows its stack on this and kills its process (LibCST issue #619);
    # CPython's tokenizer refuses it first.
    ("nested brackets", {"code": "x = " + "[" * 5000 + "]" * 5000 + "\n"}, (UNPARSEABLE,), "too many nested"),
    ("nested unary minus", {"code": "x = " + "-" * 100_000 + "1\n"}, (UNPARSEABLE,), "MemoryError"),
]


def _line(content) -> bytes:
    return content if isinstance(content, bytes) else json.dumps(content, ensure_ascii=False).encode("utf-8")


def dynbench(*args):
    command = [shutil.which("dynbench") or sys.executable, *args]
    if command[0] == sys.executable:
        command[1:1] = ["-m", "dynbench_tasks.cli"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, timeout=600)  # no hang: the run ends, whatever the programs
    return done, time.perf_counter() - started


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """One run over a file of every attack, each between two good programs."""
    folder = tmp_path_factory.mktemp("attacks")
    lines = [_line({"code": GOOD})]
    for _name, content, _statuses, _reason in ATTACKS:
        lines += [_line(content), _line({"code": GOOD})]
    (folder / "in.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    done, seconds = dynbench("mutate", "--input", str(folder / "in.jsonl"), "--code-field", "code", "--chain", "FUV",
                             "--seed", "0", "--program-timeout", str(SECONDS), "--out", str(folder / "out.jsonl"))
    assert done.returncode == 0, done.stderr.decode()
    out = (folder / "out.jsonl").read_bytes().decode("utf-8")  # valid UTF-8, whatever came in
    return [json.loads(line) for line in out.splitlines()], json.loads(done.stderr.decode().splitlines()[-1]), seconds


@pytest.mark.parametrize("index", range(len(ATTACKS)), ids=[attack[0] for attack in ATTACKS])
def test_each_attack_gets_its_status_and_the_programs_around_it_are_mutated(attacked, index):
    lines, _summary, _seconds = attacked
    _name, content, statuses, reason = ATTACKS[index]
    before, line, after = lines[2 * index : 2 * index + 3]
    assert line["mutation"]["status"] in statuses and reason in line["mutation"]["reason"], line["mutation"]
    assert before["mutation"]["status"] == after["mutation"]["status"] == MUTATED  # the controls
    assert after["mutated_code"].startswith("def area(w, h):\n    ") and after["mutated_code"] != GOOD
    if isinstance(content, dict):
        assert {key: line[key] for key in content} == content  # the record comes back as it was
    if statuses == (NO_PROGRAM,):
        assert line["mutated_code"] is None
    if not isinstance(content, dict | bytes):
        assert line["record"] == content


def test_the_summary_counts_every_status_and_the_limits(attacked):
    lines, summary, seconds = attacked
    assert summary["programs"] == len(lines) == 2 * len(ATTACKS) + 1
    assert summary["mutated"] == len(ATTACKS) + 1 and summary["no_program"] == 3 and summary["too_large"] == 1
    assert summary["timeout"] >= 1 and summary["crashed"] == 0
    assert sum(summary[s] for s in ("mutated", "unchanged", "rejected", "unparseable", "too_large", "timeout",
                                    "crashed", "no_program")) == summary["programs"]
    assert summary["limits"] == {"max_program_bytes": 200_000, "program_timeout": SECONDS}
    print(f"{len(lines)} programs, {summary['timeout']} past the deadline: {seconds:.1f} s")


@pytest.fixture
def hostile_operators(tmp_path, monkeypatch):
    """Operators that fail as libcst might: raise what the engine does not expect, kill their process,
    never return. The worker imports them from PYTHONPATH."""
    (tmp_path / "hostile_operators.py").write_text(textwrap.dedent("""
        import os
        import signal
        import time

        from mutators.base import Operator

        class Raises(Operator):
            name, letter, title = "raises", "R", "Raises"

            def apply(self, module, context):
                raise KeyError("nothing the engine expects")

        class Segfaults(Operator):
            name, letter, title = "segfaults", "S", "Segfaults"

            def apply(self, module, context):
                os.kill(os.getpid(), signal.SIGSEGV)

        class Spins(Operator):
            name, letter, title = "spins", "P", "Spins"

            def apply(self, module, context):
                while True:
                    time.sleep(0)
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, (str(tmp_path), os.environ.get("PYTHONPATH")))))
    import hostile_operators

    return hostile_operators


@pytest.mark.parametrize("operator, status, reason", [
    ("Raises", CRASHED, "KeyError: 'nothing the engine expects'"),
    ("Segfaults", CRASHED, "its process died (signal SIGSEGV)"),
    ("Spins", TIMEOUT, "took longer than 1 s"),
])
def test_a_failing_engine_costs_one_program_and_the_next_is_mutated(hostile_operators, operator, status, reason):
    with GuardedMutator(seconds=1) as guard:
        started = time.perf_counter()
        failed = guard(GOOD, Chain((getattr(hostile_operators, operator),)), 0)
        seconds = time.perf_counter() - started
        assert failed.status == status and reason in failed.reason and failed.code == GOOD
        assert guard(GOOD, "FUV", 0).status == MUTATED  # a new worker took over
    print(f"{operator}: {status} in {seconds:.2f} s")


def test_the_size_limit_counts_utf8_bytes():
    program = "s = 'é'\n"  # 9 bytes, 8 characters
    with GuardedMutator(max_bytes=9) as guard:
        assert guard(program, "U", 0).status != TOO_LARGE
        assert guard(program + " ", "U", 0).status == TOO_LARGE


def test_guarded_results_are_the_engines_own():
    """The worker changes where a program is mutated, never how: same code, status and steps."""
    benchmark = BENCHMARKS["cruxeval"]
    programs = [benchmark.program(record) for record in load_benchmark("cruxeval")[:30]]
    chain = parse_chain("FUV")
    with GuardedMutator() as guard:
        for program in programs:
            where = {"kind": program.kind, "entry_point": program.entry_point, "call_arguments": program.call_arguments}
            assert guard(program.code, chain, 5, **where) == mutate(program.code, chain, 5, **where)


def test_a_worker_that_cannot_start_is_one_error_not_a_status_for_each_program(monkeypatch):
    from mutators.guarded import WorkerError

    monkeypatch.setattr(sys, "executable", shutil.which("false"))
    with GuardedMutator() as guard, pytest.raises(WorkerError, match="did not start: exit status 1"):
        guard(GOOD, "FUV", 0)
