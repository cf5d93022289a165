"""``dynbench verify --reproduce`` end to end through lm-eval with a real (tiny) model: an honest greedy
run reproduces; the same run with one answer written by hand, every score fixed so that re-scoring
accepts it, is caught; a sampled run is inconclusive, never "reproduced"."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_verify import _edit_samples, altered, claim_scores, data_of

pytestmark = pytest.mark.slow

TASK = "cruxeval_orig"


def lm_eval_run(out: Path, model: Path, data: str, metadata: dict) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "lm_eval", "--model", "hf", "--model_args", f"pretrained={model}", "--device", "cpu",
         "--batch_size", "1", "--tasks", TASK, "--limit", "3", "--gen_kwargs", "max_gen_toks=8",
         "--confirm_run_unsafe_code", "--log_samples", "--output_path", str(out),
         "--metadata", json.dumps({"data_dir": data, **metadata})],
        capture_output=True, text=True, cwd=out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def greedy_run(tmp_path_factory, tiny_model, small_data) -> Path:
    return lm_eval_run(tmp_path_factory.mktemp("greedy"), tiny_model, small_data, {"repeats": 1, "temperature": 0})


def reproduce(folder: Path, model: Path, *extra: str) -> tuple[int, list[str]]:
    done = subprocess.run(
        [sys.executable, "-m", "dynbench_tasks.cli", "verify", str(folder), "--reproduce", "3", "--model", "hf",
         "--model-args", f"pretrained={model}", "--device", "cpu", *data_of(folder), *extra],
        capture_output=True, text=True)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.returncode, done.stdout.strip().splitlines()


def test_an_honest_greedy_run_reproduces(greedy_run, tiny_model):
    code, lines = reproduce(greedy_run, tiny_model, "--reproduce-seed", "5")
    assert code == 0, lines
    assert "partial: 3 of 40 documents, all verified, 1 answer(s) each, greedy" in lines[0], lines
    assert "spot check reproduced: 3 of 3 drawn documents regenerate the logged answers exactly" in lines[1], lines
    assert "(seed 5: sample_" in lines[1], lines


def _forge_one_answer(folder: Path) -> None:
    """The first document's answer replaced by the right one, scored by dynbench's own scorer, and
    every score the change touches claimed anew: re-scoring cannot tell."""
    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.lmeval.settings import settings_from_metadata

    def forge(samples):
        doc = samples[0]["doc"]
        settings = settings_from_metadata({"benchmark": "cruxeval", "variant": "orig"})
        samples[0]["resps"] = [[doc["output"]]]
        samples[0]["filtered_resps"] = BENCHMARKS["cruxeval"].score([[doc["output"]]], [doc], settings)

    _edit_samples(folder, TASK, forge)
    claim_scores(folder, TASK)


def test_an_answer_written_by_hand_is_caught(greedy_run, tiny_model, tmp_path):
    forged = altered(greedy_run, tmp_path, _forge_one_answer)
    code, lines = reproduce(forged, tiny_model, "--json")
    verdict, check = (json.loads(line) for line in lines)
    assert verdict["outcome"] == "partial", verdict  # re-scoring accepts the forgery: only the spot check sees it
    assert code == 1
    assert check["outcome"] == "not reproduced" and len(check["drawn"]) == 3 and isinstance(check["seed"], int)
    assert check["agreeing"] == 2 and check["logged_pass_at_1"] > check["regenerated_pass_at_1"]
    differing = [d for d in check["documents"] if not d["agrees"]]
    assert len(differing) == 1 and differing[0]["logged_pass_at_1"] == 1.0, check
    code, lines = reproduce(forged, tiny_model)
    assert code == 1 and "spot check NOT REPRODUCED: 2 of 3 drawn documents" in lines[1], lines


def test_a_sampled_run_is_inconclusive(tmp_path, tiny_model, small_data):
    sampled = lm_eval_run(tmp_path, tiny_model, small_data, {"repeats": 2, "temperature": 0.7})
    code, lines = reproduce(sampled, tiny_model, "--reproduce-seed", "0")
    assert code == 1, lines
    assert "spot check inconclusive: the run sampled its answers" in lines[1], lines
