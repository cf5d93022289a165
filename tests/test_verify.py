"""``dynbench verify`` on a real lm_eval run (the CLI, a scripted server): the honest run verifies, and
every kind of alteration (an answer, the seed, a claimed score, a prompt, the engine, the samples)
is a named failure with a non-zero exit."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from scripted_server import ScriptedServer

TASKS = "cruxeval_orig,cruxeval_fuv"


def make_run(out: Path, data: str) -> Path:
    """A real lm_eval CLI run (4 documents of two tasks, seed 3) against a scripted server, in ``out``."""

    def answer(prompt: str, sample: int) -> str:
        return ["[1, 2]", "'a'", "0", "True", "'hbtofdeiequ'"][sample % 5]

    with ScriptedServer(answer) as server:
        done = subprocess.run(
            [sys.executable, "-m", "lm_eval", "--model", "local-completions", "--model_args",
             f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,tokenized_requests=False",
             "--tasks", TASKS, "--limit", "4", "--confirm_run_unsafe_code", "--log_samples", "--output_path", str(out),
             "--metadata", json.dumps({"data_dir": data, "seed": 3})],
            capture_output=True, text=True, cwd=out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def honest_run(tmp_path_factory, small_data) -> Path:
    return make_run(tmp_path_factory.mktemp("run"), small_data)


def verify(folder: Path, *extra: str) -> tuple[int, list[str]]:
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(folder), *extra],
                          capture_output=True, text=True)
    return done.returncode, done.stdout.strip().splitlines()


def altered(honest: Path, tmp_path: Path, change) -> Path:
    copy = tmp_path / "altered"
    shutil.copytree(honest, copy)
    change(copy)
    return copy


def _edit_samples(folder: Path, task: str, edit) -> None:
    path = next(folder.rglob(f"samples_{task}_*.jsonl"))
    samples = [json.loads(line) for line in path.read_text().splitlines()]
    edit(samples)
    path.write_text("".join(json.dumps(s) + "\n" for s in samples))


def _edit_results(folder: Path, edit) -> None:
    path = next(folder.rglob("results_*.json"))
    results = json.loads(path.read_text())
    edit(results)
    path.write_text(json.dumps(results))


def test_an_honest_run_verifies_and_says_it_is_partial(honest_run):
    code, lines = verify(honest_run)
    assert code == 0 and len(lines) == 2
    assert all(": partial: 4 of " in line and "all verified" in line for line in lines), lines
    code, _ = verify(honest_run, "--require-complete")
    assert code == 1
    code, lines = verify(honest_run, "--json")
    assert code == 0 and {json.loads(line)["outcome"] for line in lines} == {"partial"}


def _passing_sample(samples):
    return next(s for s in samples if any(json.loads(r)["status"] == "passed" for r in s["filtered_resps"][0]))


@pytest.mark.parametrize("kind, change, message", [
    ("an answer", lambda f: _edit_samples(f, "cruxeval_orig", lambda s: _passing_sample(s)["resps"][0].__setitem__(
        slice(None), ["'not it'"] * 5)), "answers score"),
    ("the seed", lambda f: _edit_results(f, lambda r: r["configs"]["cruxeval_fuv"]["metadata"]["dynbench"].update(
        seed=4)), "the documents differ"),
    ("a claimed score", lambda f: _edit_samples(f, "cruxeval_fuv", lambda s: s[0].update({"pass@1": 1.0})),
     "pass@1 1.0 claimed"),
    ("the task's score", lambda f: _edit_results(f, lambda r: r["results"]["cruxeval_orig"].update(
        {"pass@1,sandbox": 0.99})), "the task's pass@1 0.99 claimed"),
    ("a prompt", lambda f: _edit_samples(f, "cruxeval_fuv", lambda s: s[1]["arguments"]["gen_args_0"].update(
        arg_0="an easier question")), "prompt differs"),
    ("the engine", lambda f: _edit_results(f, lambda r: r["configs"]["cruxeval_orig"]["metadata"]["dynbench"].update(
        engine_version="0.0.1")), "engine version differs (run 0.0.1"),
    ("the data", lambda f: _edit_results(f, lambda r: r["configs"]["cruxeval_orig"]["metadata"]["dynbench"]["data"]
                                         .update(sha256="0" * 64)), "data digest differs"),
    ("a deleted sample", lambda f: _edit_samples(f, "cruxeval_fuv", lambda s: s.pop()),
     "the results claim 4 documents, the samples hold 3"),
    ("a repeated sample", lambda f: _edit_samples(f, "cruxeval_orig", lambda s: s.__setitem__(-1, s[0])),
     "logged more than once"),
])
def test_an_altered_run_never_verifies(honest_run, tmp_path, kind, change, message):
    code, lines = verify(altered(honest_run, tmp_path, change))
    assert code == 1, (kind, lines)
    assert any("FAILED" in line and message in line for line in lines), (kind, lines)


def test_a_run_without_logged_samples_cannot_be_verified(honest_run, tmp_path):
    copy = altered(honest_run, tmp_path, lambda f: [p.unlink() for p in f.rglob("samples_*.jsonl")])
    code, lines = verify(copy)
    assert code == 1 and all("cannot be verified: the run logged no samples" in line for line in lines), lines
