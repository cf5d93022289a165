"""``dynbench verify`` on real lm_eval runs (the CLI, a scripted server): honest runs verify, complete
or partial (``--limit``), and every kind of alteration (an answer, the seed, a claimed score or its
type, a prompt, the engine, the samples, the run's shape: answers dropped, documents missing, counts
rewritten) is a named failure with a non-zero exit, also when the attacker fixes every score the
alteration touches."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from scripted_server import ScriptedServer

pytestmark = pytest.mark.slow

TASKS = "cruxeval_orig,cruxeval_fuv"
IDS = ["sample_0", "sample_1", "sample_2", "sample_3"]  # four problems FUV changes (scope "mutated")
ANSWERS = ["[1, 2]", "'a'", "0", "True", "'hbtofdeiequ'"]


def make_run(out: Path, data: str, *extra: str, metadata: dict | None = None) -> Path:
    """A real lm_eval CLI run of two tasks (seed 3) against a scripted server, in ``out``."""

    def answer(prompt: str, sample: int) -> str:
        return ANSWERS[sample % 5]

    with ScriptedServer(answer) as server:
        done = subprocess.run(
            [sys.executable, "-m", "lm_eval", "--model", "local-completions", "--model_args",
             f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,tokenized_requests=False",
             "--tasks", TASKS, *extra, "--confirm_run_unsafe_code", "--log_samples", "--output_path", str(out),
             "--metadata", json.dumps({"data_dir": data, "seed": 3, **(metadata or {})})],
            capture_output=True, text=True, cwd=out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def honest_run(tmp_path_factory, small_data) -> Path:
    """4 of the 40 documents of each task (lm_eval --limit 4): partial."""
    return make_run(tmp_path_factory.mktemp("run"), small_data, "--limit", "4")


@pytest.fixture(scope="module")
def complete_run(tmp_path_factory, small_data) -> Path:
    """Every document of two tasks restricted to four problems (metadata ids): complete."""
    return make_run(tmp_path_factory.mktemp("complete"), small_data, metadata={"ids": IDS})


def data_of(folder: Path) -> list[str]:
    """``--data-dir`` naming the data these tests' runs are made on, as the maintainer passes it: verify
    never reads the folder a run names."""
    results = json.loads(next(folder.rglob("results_*.json")).read_text())
    return ["--data-dir", next(iter(results["configs"].values()))["metadata"]["dynbench"]["data"]["origin"]]


def verify(folder: Path, *extra: str) -> tuple[int, list[str]]:
    """``dynbench verify`` as a user runs it, on the data the runs were made on."""
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(folder), *data_of(folder), *extra],
                          capture_output=True, text=True)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.returncode, done.stdout.strip().splitlines()


@pytest.fixture
def verify_here(capsys):
    """``dynbench verify`` in this process (the attacks are many; each would pay a process start)."""
    from dynbench_tasks.cli import main

    def run(folder: Path, *extra: str) -> tuple[int, list[str]]:
        capsys.readouterr()
        code = main(["verify", str(folder), *data_of(folder), *extra])
        return code, capsys.readouterr().out.strip().splitlines()

    return run


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


def claim_scores(folder: Path, task: str) -> None:
    """What a careful attacker does after editing answers: every score the edit touches, claimed anew
    from the logged statuses (each document's pass@1, pass@5 and unread, the task's, and their standard
    errors)."""
    from lm_eval.api.metrics import mean_stderr

    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.lmeval.answer_statuses import UNREAD, unread_share
    from dynbench_tasks.scoring import process_results

    earned = {}
    unread = BENCHMARKS[task.split("_")[0]].unread_statuses

    def rescore(samples):
        for sample in samples:
            sample.update(process_results(sample["doc"], sample["filtered_resps"]))
            if UNREAD in sample:
                sample[UNREAD] = unread_share(_statuses(sample), unread)
            for metric in ("pass@1", "pass@5", UNREAD):
                if metric in sample:
                    earned.setdefault(metric, []).append(sample[metric])

    _edit_samples(folder, task, rescore)

    def claim(results):
        for metric, values in earned.items():
            results["results"][task][f"{metric},sandbox"] = sum(values) / len(values)
            results["results"][task][f"{metric}_stderr,sandbox"] = mean_stderr(values) if len(values) > 1 else "N/A"

    _edit_results(folder, claim)


def _claimed_pass_at_1(folder: Path, task: str) -> float:
    return json.loads(next(folder.rglob("results_*.json")).read_text())["results"][task]["pass@1,sandbox"]


def _statuses(sample) -> list[str]:
    return [json.loads(r)["status"] for r in sample["filtered_resps"][0]]


def test_an_honest_run_verifies_and_says_it_is_partial(honest_run):
    code, lines = verify(honest_run)
    assert code == 0 and len(lines) == 2
    assert all(": partial: 4 of 40 documents, all verified, 5 answer(s) each, sampled" in line for line in lines), lines
    code, _ = verify(honest_run, "--require-complete")
    assert code == 1
    code, lines = verify(honest_run, "--json")
    verdicts = [json.loads(line) for line in lines]
    assert code == 0 and {v["outcome"] for v in verdicts} == {"partial"}
    assert {(v["documents"], v["scored"], v["repeats"], v["greedy"]) for v in verdicts} == {(4, 40, 5, False)}


def test_a_complete_run_verifies_even_when_complete_is_required(complete_run):
    code, lines = verify(complete_run, "--require-complete")
    assert code == 0 and len(lines) == 2, lines
    assert all(": verified (4 of 4 documents; only the 4 problem ids the run chose), 5 answer(s) each, sampled" in line for line in lines), lines


def _passing_sample(samples):
    return next(s for s in samples if "passed" in _statuses(s))


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
        engine_version="0.0.1")), "engine version differs (run '0.0.1'"),
    ("the data", lambda f: _edit_results(f, lambda r: r["configs"]["cruxeval_orig"]["metadata"]["dynbench"]["data"]
                                         .update(sha256="0" * 64)), "data digest differs"),
    ("a deleted sample", lambda f: _edit_samples(f, "cruxeval_fuv", lambda s: s.pop()),
     "the samples hold 3 of the task's 40 documents, not the first 4 (lm_eval --limit 4.0)"),
    ("a repeated sample", lambda f: _edit_samples(f, "cruxeval_orig", lambda s: s.__setitem__(-1, s[0])),
     "logged more than once"),
])
def test_an_altered_run_never_verifies(honest_run, tmp_path, verify_here, kind, change, message):
    code, lines = verify_here(altered(honest_run, tmp_path, change))
    assert code == 1, (kind, lines)
    assert any("FAILED" in line and message in line for line in lines), (kind, lines)


def test_documents_that_differ_name_the_cpython_only_where_it_differs(honest_run, tmp_path, verify_here):
    """Step budgets count CPython's line events: a run built on another version says which."""
    from mutators import COUNTING_PYTHON

    for python in ("3.99", COUNTING_PYTHON):
        (tmp_path / python).mkdir()
        copy = altered(honest_run, tmp_path / python, lambda f, python=python: _edit_results(
            f, lambda r: r["configs"]["cruxeval_fuv"]["metadata"]["dynbench"].update(seed=4, python=python)))
        code, lines = verify_here(copy)
        [line] = [line for line in lines if "the documents differ" in line]
        named = f"the documents differ from the ones the recorded seed, chain and data give (built with CPython " \
                f"'3.99', rebuilt with {COUNTING_PYTHON}:"
        assert code == 1 and (named in line) is (python == "3.99"), line


def test_a_run_without_logged_samples_cannot_be_verified(honest_run, tmp_path):
    copy = altered(honest_run, tmp_path, lambda f: [p.unlink() for p in f.rglob("samples_*.jsonl")])
    code, lines = verify(copy)
    assert code == 1 and all("cannot be verified: the run logged no samples" in line for line in lines), lines


# The attacks of issue 18, each on a copy of an honest run whose control above verifies.

def test_cherry_picked_answers_with_their_scores_fixed_never_verify(complete_run, tmp_path, verify_here):
    """Each document keeps only its passing answers (where it has any), and every score is claimed anew."""

    def cherry_pick(samples):
        for sample in samples:
            keep = [i for i, status in enumerate(_statuses(sample)) if status == "passed"]
            if keep:
                for key in ("resps", "filtered_resps"):
                    sample[key] = [[sample[key][0][i] for i in keep]]

    def change(folder):
        _edit_samples(folder, "cruxeval_orig", cherry_pick)
        claim_scores(folder, "cruxeval_orig")

    forged = altered(complete_run, tmp_path, change)
    assert _claimed_pass_at_1(forged, "cruxeval_orig") > _claimed_pass_at_1(complete_run, "cruxeval_orig")
    code, lines = verify_here(forged)
    assert code == 1, lines
    assert any("FAILED" in line and "answers in resps, the task asks 5 (repeats)" in line for line in lines), lines


@pytest.mark.parametrize("claims", [
    {"n-samples": True},
    {"n-samples": True, "scored": True},
    {"n-samples": True, "scored": True, "limit": True},
])
def test_a_truncated_run_claiming_to_be_complete_is_never_verified(honest_run, tmp_path, verify_here, claims):
    """A --limit 4 run whose claims say the task has 4 documents (lm-eval's n-samples, dynbench's
    counts, lm-eval's recorded limit): the rebuilt task has 40."""

    def claim(results):
        for task in TASKS.split(","):
            if "n-samples" in claims:
                results["n-samples"][task] = {"original": 4, "effective": 4}
            if "scored" in claims:
                results["configs"][task]["metadata"]["dynbench"]["counts"]["scored"] = 4
        if "limit" in claims:
            results["config"]["limit"] = None

    code, lines = verify_here(altered(honest_run, tmp_path, lambda f: _edit_results(f, claim)), "--require-complete")
    assert code == 1 and len(lines) == 2, lines
    assert not any("verified (" in line or "partial" in line for line in lines), lines
    assert all("FAILED" in line and ("n-samples" in line or "counts" in line or "not all 40" in line)
               for line in lines), lines


@pytest.mark.parametrize("value", ["0.2", True, float("nan"), 1, -0.5, None])
def test_a_score_of_the_wrong_type_or_range_never_verifies(complete_run, tmp_path, verify_here, value):
    def change(folder):
        _edit_samples(folder, "cruxeval_orig", lambda s: s[0].update({"pass@1": value}))

    code, lines = verify_here(altered(complete_run, tmp_path, change))
    assert code == 1, lines
    assert any("FAILED" in line and "is not a score (a float in [0, 1])" in line for line in lines), (value, lines)


def _first(samples):
    return samples[0]


@pytest.mark.parametrize("kind, change, message", [
    ("the task's score as a string", lambda f: _edit_results(f, lambda r: r["results"]["cruxeval_orig"].update(
        {"pass@1,sandbox": str(r["results"]["cruxeval_orig"]["pass@1,sandbox"])})), "is not a score"),
    ("a standard error", lambda f: _edit_results(f, lambda r: r["results"]["cruxeval_orig"].update(
        {"pass@1_stderr,sandbox": 0.001})), "the task's pass@1_stderr 0.001 claimed"),
    ("the task's pass@5", lambda f: _edit_results(f, lambda r: r["results"]["cruxeval_fuv"].update(
        {"pass@5,sandbox": 1.0})), "the task's pass@5 1 claimed"),
    ("a document's pass@5", lambda f: _edit_samples(f, "cruxeval_fuv", lambda s: s[0].update({"pass@5": 1.0})),
     "pass@5 1.0 claimed"),
    ("a metric the task has not", lambda f: _edit_results(f, lambda r: r["results"]["cruxeval_orig"].update(
        {"pass@10,sandbox": 1.0})), "a metric the task does not produce: 'pass@10,sandbox'"),
    ("sample_len", lambda f: _edit_results(f, lambda r: r["results"]["cruxeval_orig"].update(sample_len=40)),
     "sample_len 40 claimed"),
    ("the scorer's answer", lambda f: _edit_samples(f, "cruxeval_orig", lambda s: _first(s)["filtered_resps"][0]
                                                    .__setitem__(0, json.dumps({"answer": "x", "status": _statuses(
                                                        _first(s))[0]}))), "filtered_resps differ"),
    ("the scorer's output, not JSON", lambda f: _edit_samples(f, "cruxeval_orig", lambda s: _first(s)["filtered_resps"]
                                                              [0].__setitem__(0, "{")), "answers score"),
    ("answers that are not strings", lambda f: _edit_samples(f, "cruxeval_orig", lambda s: _first(s).update(
        resps=[[1, 2, 3, 4, 5]])), "resps is not one list of answers"),
    ("the logged document", lambda f: _edit_samples(f, "cruxeval_fuv", lambda s: _first(s)["doc"].update(
        output="'a'")), "the logged document differs"),
    ("the target", lambda f: _edit_samples(f, "cruxeval_fuv", lambda s: _first(s).update(target="'a'")),
     "target \"'a'\" logged"),
    ("doc_hash", lambda f: _edit_samples(f, "cruxeval_fuv", lambda s: _first(s).update(doc_hash="0" * 64)),
     "doc_hash differs"),
    ("the generation settings", lambda f: _edit_samples(f, "cruxeval_fuv", lambda s: _first(s)["arguments"][
        "gen_args_0"]["arg_1"].update(temperature=0.0)), "generation settings"),
    ("the task's generation settings", lambda f: _edit_results(f, lambda r: r["configs"]["cruxeval_fuv"][
        "generation_kwargs"].update(temperature=0.0)), "generation_kwargs"),
    ("a doc_id", lambda f: _edit_samples(f, "cruxeval_fuv", lambda s: _first(s).update(doc_id=True)),
     "doc_id True is not a document of this task"),
    ("lm-eval's task hash", lambda f: _edit_results(f, lambda r: r["task_hashes"].update(cruxeval_orig="0" * 64)),
     "task hash differs"),
    ("n-samples", lambda f: _edit_results(f, lambda r: r["n-samples"]["cruxeval_orig"].update(original=3)),
     "n-samples"),
    ("the counts", lambda f: _edit_results(f, lambda r: r["configs"]["cruxeval_orig"]["metadata"]["dynbench"][
        "counts"].update(original=3)), "counts"),
    ("the config's repeats", lambda f: _edit_results(f, lambda r: r["configs"]["cruxeval_orig"].update(repeats=1)),
     "repeats 1 in the task's config"),
])
def test_every_claim_verify_can_recompute_is_recomputed(complete_run, tmp_path, verify_here, kind, change, message):
    code, lines = verify_here(altered(complete_run, tmp_path, change))
    assert code == 1, (kind, lines)
    assert any("FAILED" in line and message in line for line in lines), (kind, lines)

