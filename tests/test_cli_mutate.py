"""``dynbench mutate`` end to end, as a user runs it."""

import argparse
import json
import os
import shutil
import subprocess
import sys

import pytest

from dynbench_tasks.benchmarks import BENCHMARKS, WITH_OWN_PROGRAMS, load_benchmark
from mutators import mutate
from mutators.equivalence import check_equivalence

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out


def dynbench(*args, env=None):
    command = [shutil.which("dynbench") or sys.executable, *args]
    if command[0] == sys.executable:
        command[1:1] = ["-m", "dynbench_tasks.cli"]
    return subprocess.run(command, capture_output=True, text=True, env=env)


@pytest.mark.slow
@pytest.mark.parametrize("benchmark", WITH_OWN_PROGRAMS)
def test_mutate_and_verify_each_benchmark(benchmark, data_dir, tmp_path):
    out = tmp_path / "out.jsonl"
    done = dynbench("mutate", "--benchmark", benchmark, "--chain", "FUV", "--seed", "3", "--verify",
                    "--limit", "25", "--out", str(out))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stderr.strip().splitlines()[-1])
    assert summary["programs"] == 25 and summary["rejected"] == 0 and summary["mutated"] >= 20
    assert summary["chain"] == "F+U+V2" and summary["seed"] == 3
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    original = load_benchmark(benchmark, str(data_dir))[:25]
    assert [line["id"] for line in lines] == [record["id"] for record in original]
    for line in lines:
        assert line["mutation"]["status"] in ("mutated", "unchanged")
        assert line["mutation"]["chain"] == "F+U+V2" and line["mutation"]["seed"] == 3
        assert "mutated_code" in line
    if benchmark != "avatar":  # the first 25 Avatar programs include some without tests
        assert summary["checked_inputs"] >= summary["mutated"]


def test_same_seed_same_file_other_seed_other_file(tmp_path):
    paths = []
    for seed, hash_seed in ((1, "0"), (1, "99"), (2, "0")):
        path = tmp_path / f"{seed}-{hash_seed}.jsonl"
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        assert dynbench("mutate", "--benchmark", "cruxeval", "--chain", "AUV", "--seed", str(seed), "--limit", "60",
                        "--out", str(path), env=env).returncode == 0
        paths.append(path.read_bytes())
    assert paths[0] == paths[1] and paths[0] != paths[2]


def test_any_jsonl_of_programs_keeps_top_level_names(tmp_path):
    source = tmp_path / "programs.jsonl"
    source.write_text(json.dumps({"name": "a", "src": "def area(w, h):\n    s = w * h\n    return s\n"}) + "\n")
    out = tmp_path / "out.jsonl"
    done = dynbench("mutate", "--input", str(source), "--code-field", "src", "--chain", "V1+U", "--seed", "0",
                    "--out", str(out))
    assert done.returncode == 0, done.stderr
    line = json.loads(out.read_text())
    assert line["name"] == "a" and line["mutated_code"].startswith("def area(w, h):\n    var1 = w * h")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--benchmark", "cruxeval", "--chain", "F+Q"], "unknown mutation 'Q'"),
        (["--benchmark", "cruxeval", "--chain", "F", "--data-dir", "/nonexistent"], "does not exist"),
        (["--input", "missing.jsonl", "--code-field", "x", "--chain", "F"], "file not found"),
        (["--input", "BAD", "--code-field", "x", "--chain", "F"], "not valid JSON"),
        (["--input", "GOOD", "--chain", "F"], "--code-field"),
        (["--input", "GOOD", "--code-field", "nope", "--chain", "F"], "no record has a field 'nope'"),
        (["--benchmark", "cruxeval", "--chain", "U", "--option", "constunfold.max=3"], "unknown mutation option"),
        (["--benchmark", "nope", "--chain", "F"], "invalid choice"),
        (["--benchmark", "cruxeval", "--chain", "U", "--option", "constunfold.max_offset=0"], "must be at least 1"),
        (["--benchmark", "cruxeval", "--chain", "F", "--limit", "-3"], "argument --limit: must be at least 1"),
        (["--input", "GOOD", "--code-field", "x", "--chain", "F", "--verify"], "give --input-field NAME"),
        (["--input", "GOOD", "--code-field", "x", "--chain", "FUVO"], "newoutput (O) run each program on its inputs"),
        (["--input", "GOOD", "--code-field", "x", "--input-field", "x", "--chain", "I"], "give --entry-point NAME and"),
        (["--input", "GOOD", "--code-field", "x", "--entry-point", "f", "--chain", "F"], "give --input-field NAME too"),
        (["--input", "GOOD", "--code-field", "x", "--input-field", "x", "--entry-point", "1f", "--chain", "F"],
         "argument --entry-point: '1f' is not a Python function name"),
        (["--input", "GOOD", "--code-field", "x", "--input-field", "tests", "--chain", "F"],
         "no record has a field 'tests' (--input-field)"),
        (["--benchmark", "cruxeval", "--chain", "F", "--input-field", "x"], "--input-field describe the programs of"),
        (["--input", "GOOD", "--code-field", "xx", "--chain", "F"], "no record has a field 'xx' (--code-field); did you mean 'x'?"),
        (["--benchmark", "cruxeval", "--chain", "F", "--program-timeout", "5"], "describe the programs of an --input"),
        (["--benchmark", "cruxeval", "--chain", "F", "--max-program-bytes", "9"], "describe the programs of an --input"),
        (["--input", "GOOD", "--code-field", "x", "--chain", "F", "--program-timeout", "0"], "must be more than 0"),
        (["--input", "GOOD", "--code-field", "x", "--chain", "F", "--program-timeout", "nan"], "must be more than 0"),
        (["--input", "GOOD", "--code-field", "x", "--chain", "F", "--program-timeout", "soon"], "not a number of"),
        (["--input", "GOOD", "--code-field", "x", "--chain", "F", "--max-program-bytes", "0"], "must be at least 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(args, message, tmp_path):
    (tmp_path / "BAD").write_text('{"x": 1}\nnot json\n')
    (tmp_path / "GOOD").write_text('{"x": "print(1)"}\n')
    args = [str(tmp_path / a) if a in ("BAD", "GOOD", "missing.jsonl") else a for a in args]
    done = dynbench("mutate", *args, "--seed", "0", "--out", str(tmp_path / "o.jsonl"))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr, done.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["mutate", "--benchmark", "cruxeval", "--chain", "F", "--seed", "0", "--out", "NOWHERE/o.jsonl"],
         "argument --out: folder"),
        (["mutate", "--benchmark", "cruxeval", "--chain", "F", "--seed", "0", "--out", "TMP"], "is a folder"),
        (["stats", "--benchmarks", "cruxeval,foo"], "unknown 'foo'; choose from cruxeval"),
        # view creates the folders --out names; a run folder without results is its one-line error
        (["view", "TMP", "--variant", "cruxeval_fuv", "--out", "NOWHERE/v.html"], "no lm-eval results_*.json inside"),
        (["report", "TMP", "TMP", "--names", "A", "--out", "TMP"], "--names gives 1 names for 2 run folders"),
        (["probe", "--model-args", "x", "--trained-on", "NOWHERE/c.json", "--out", "TMP/p.jsonl"], "no such file"),
        (["contaminate", "--demo", "--out", "TMP", "--eval-metadata", "{nope"], "--eval-metadata is not JSON"),
        (["contaminate", "--demo", "--out", "TMP", "--eval-metadata", '{"scope": "x"}'], "scope must be one of"),
        (["contaminate", "--demo", "--out", "TMP", "--ids", "sample_1,nope"], "ids not in cruxeval: nope"),
    ],
)
def test_bad_values_stop_every_command_before_any_work(args, message, tmp_path):
    args = [a.replace("NOWHERE", str(tmp_path / "missing")).replace("TMP", str(tmp_path)) for a in args]
    done = dynbench(*args)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr, done.stderr


def test_limit_takes_the_records_before_any_program_is_built(monkeypatch):
    """Building a TransCoder program parses its harness: --limit 1 builds one, not 568."""
    from dynbench_tasks.cli.mutate import _programs

    built = []
    transcoder = BENCHMARKS["transcoder"]
    monkeypatch.setattr(transcoder, "program", lambda record: built.append(record) or "program")
    args = argparse.Namespace(input=None, benchmark="transcoder", limit=1, data_dir=None, max_program_bytes=None,
                              program_timeout=None, input_field=None, entry_point=None, output_field=None)
    records, programs, _ = _programs(args)
    assert len(records) == len(programs) == len(built) == 1


def test_limit_reads_an_input_file_no_further(tmp_path):
    source = tmp_path / "programs.jsonl"
    source.write_text(json.dumps({"src": "x = 1\n"}) + "\n\n" + json.dumps({"src": "y = 2\n"}) + "\nnot json\n")
    out = tmp_path / "out.jsonl"
    done = dynbench("mutate", "--input", str(source), "--code-field", "src", "--chain", "U", "--seed", "0",
                    "--limit", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["src"] for line in out.read_text().splitlines()] == ["x = 1\n", "y = 2\n"]


@pytest.mark.slow
def test_without_a_data_folder_the_bundled_copy_is_used(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DYNBENCH_DATA_DIR"}
    done = dynbench("mutate", "--benchmark", "transcoder", "--chain", "U", "--seed", "0", "--out",
                    str(tmp_path / "o.jsonl"), env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stderr.strip().splitlines()[-1])["programs"] == 568


def test_a_data_folder_that_is_not_there_is_one_line_naming_the_way_back(tmp_path):
    env = dict(os.environ, DYNBENCH_DATA_DIR=str(tmp_path / "nowhere"))
    done = dynbench("mutate", "--benchmark", "cruxeval", "--chain", "F", "--seed", "0", "--out",
                    str(tmp_path / "o.jsonl"), env=env)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "nowhere" in done.stderr and "unset DYNBENCH_DATA_DIR to use the copy bundled" in done.stderr


HARD_CASES = {
    "cruxeval": ["sample_56", "sample_104", "sample_97", "sample_497", "sample_666", "sample_67", "sample_114",
                 "sample_47", "sample_1", "sample_545", "sample_230"],
    "codenet": ["s908812767", "s636719275", "s554858080"],
}


@pytest.mark.parametrize("benchmark", sorted(HARD_CASES))
def test_known_hard_cases_survive_every_chain(benchmark, data_dir, sandbox):
    spec = BENCHMARKS[benchmark]
    records = {r["id"]: r for r in load_benchmark(benchmark, str(data_dir))}
    items = []
    for identifier in HARD_CASES[benchmark]:
        program = spec.program(records[identifier])
        for chain in ("V1", "V2", "U", "F", "W", "A", "FUV", "AUV", "AFU"):
            result = mutate(program.code, chain, 0, kind=program.kind, entry_point=program.entry_point,
                            call_arguments=program.call_arguments)
            items.append((program.code, result, program.tests))
    check_equivalence(items, sandbox)
    rejected = [(r.chain, r.reason) for _, r, _ in items if r.status not in ("mutated", "unchanged")]
    assert not rejected
