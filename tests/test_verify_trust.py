"""``dynbench verify`` steered by the submitter (issue 30): data the run points at, best-of-n behind a
temperature-0 claim, other judging rules, ``--require-complete``, forged terminal lines and JSON
nested past any stack. Each attack goes through the real command on a real lm_eval run (or a copy
of one, doctored), beside a control that verifies."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_report import write_run
from test_verify import TASKS, _edit_results, _edit_samples, altered, claim_scores, make_run

pytestmark = pytest.mark.slow  # each module fixture is a real lm_eval run


def verify(folder: Path, *extra: str, cwd: Path | None = None) -> tuple[int, list[str], str]:
    """``dynbench verify`` as a user runs it: (exit status, stdout lines, stderr)."""
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(folder), *extra],
                          capture_output=True, text=True, cwd=cwd)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.returncode, done.stdout.splitlines(), done.stderr


@pytest.fixture(scope="module")
def doctored_run(tmp_path_factory, small_data) -> Path:
    """A run made on a doctored copy of the data that travels inside the submission, named by a
    relative data_dir: sample_0's recorded output is the scripted model's first answer."""
    out = tmp_path_factory.mktemp("doctored")
    (out / "data").mkdir()
    lines = (Path(small_data) / "cruxeval.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["output"] = "[1, 2]"
    (out / "data" / "cruxeval.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    return make_run(out, "data", "--limit", "4")


def test_a_run_on_data_it_points_at_never_verifies(doctored_run, small_data):
    code, lines, _ = verify(doctored_run, cwd=doctored_run)  # where the run's relative data folder resolves
    assert code == 1 and len(lines) == 2, lines
    assert all("FAILED" in line and "data digest differs" in line and "never the run's own" in line
               for line in lines), lines
    code, lines, _ = verify(doctored_run, "--data-dir", small_data, cwd=doctored_run)  # the maintainer's data
    assert code == 1 and all("data digest differs" in line for line in lines), lines


@pytest.fixture(scope="module")
def greedy_claim(tmp_path_factory, small_data) -> Path:
    """Temperature 0 claimed (--metadata), but the scripted model answers each repeat differently:
    best-of-5 behind a greedy claim. The first 4 documents of 40 (--limit 4)."""
    return make_run(tmp_path_factory.mktemp("greedy"), small_data, "--limit", "4", metadata={"temperature": 0})


def _keep_first_answer(keep_varied: int):
    """Every document's repeats made equal to its first answer, but the first ``keep_varied`` documents'."""

    def edit(samples):
        for sample in samples[keep_varied:]:
            for key in ("resps", "filtered_resps"):
                sample[key] = [[sample[key][0][0]] * len(sample[key][0])]

    return edit


def test_a_greedy_claim_with_repeats_that_differ_is_not_certified(greedy_claim, small_data, tmp_path):
    code, lines, _ = verify(greedy_claim, "--data-dir", small_data)
    assert code == 0 and len(lines) == 2, lines  # every answer and score is what the run logged
    assert all("NOT certified greedy: temperature 0 claimed, but the repeats of 4 of 4 documents differ (at most 1 "
               "may)" in line for line in lines), lines
    code, lines, _ = verify(greedy_claim, "--data-dir", small_data, "--json")
    assert {(v["greedy"], v["greedy_claimed"], v["differing_repeats"]) for v in map(json.loads, lines)} == {
        (False, True, 4)}

    def agreeing(varied: int):
        def change(folder):
            for task in TASKS.split(","):
                _edit_samples(folder, task, _keep_first_answer(varied))
                claim_scores(folder, task)

        return change

    control = altered(greedy_claim, tmp_path / "one", agreeing(0))  # repeats that agree: greedy
    code, lines, _ = verify(control, "--data-dir", small_data)
    assert code == 0 and all(line.endswith("5 answer(s) each, greedy") for line in lines), lines
    within = altered(greedy_claim, tmp_path / "two", agreeing(1))  # one document of 4: within the tolerance
    code, lines, _ = verify(within, "--data-dir", small_data)
    assert code == 0 and all("greedy (the repeats of 1 of 4 documents differ, within the tolerance of 1)" in line
                             for line in lines), lines


def test_a_run_judged_under_other_rules_says_so(greedy_claim, small_data, tmp_path):
    def judged_under_rules_1(folder):
        _edit_results(folder, lambda r: [c["metadata"]["dynbench"].pop("judging_rules", None)
                                         for c in r["configs"].values()])

    code, lines, _ = verify(altered(greedy_claim, tmp_path, judged_under_rules_1), "--data-dir", small_data)
    assert code == 1 and len(lines) == 2, lines
    assert all("FAILED" in line and "judged under other judging rules (run none recorded: rules 1, here 2 or 3)" in line
               for line in lines), lines


def test_require_complete_says_why_a_partial_run_fails(greedy_claim, small_data):
    code, lines, _ = verify(greedy_claim, "--data-dir", small_data, "--require-complete")
    assert code == 1 and len(lines) == 2, lines
    assert all("FAILED" in line and "--require-complete: the run holds only the first 4 of the task's 40 documents"
               in line and "all verified" not in line for line in lines), lines
    code, lines, _ = verify(greedy_claim, "--data-dir", small_data, "--require-complete", "--json")
    verdicts = [json.loads(line) for line in lines]
    assert code == 1 and all(v["outcome"] == "failed" and v["problems"] for v in verdicts), verdicts


FORGED = "x\ncruxeval_orig (victim): verified (40 of 40 documents), 5 answer(s) each, greedy\x1b[2K\x1b]0;t\x07\u202e"


def test_a_model_name_cannot_forge_verify_lines(greedy_claim, small_data, tmp_path):
    def rename(folder):
        _edit_results(folder, lambda r: r.update(model_name=FORGED))

    code, lines, _ = verify(altered(greedy_claim, tmp_path, rename), "--data-dir", small_data)
    assert code == 0 and len(lines) == 2, lines  # one line per task: the name's newline added none
    assert not any(line.startswith("cruxeval_orig (victim)") for line in lines), lines
    assert all("\x1b" not in line and "\x07" not in line and "\u202e" not in line for line in lines), lines


DEEP = "[" * 200_000 + "]" * 200_000


def test_json_nested_past_any_stack_is_one_line_per_file(tmp_path):
    write_run(tmp_path / "results", "m", {"cruxeval_orig": [1, 0], "cruxeval_newinput": [1, 1]})
    results = next((tmp_path / "results").glob("results_*.json"))
    results.write_text(results.read_text()[:-1] + f', "deep": {DEEP}}}')
    code, lines, errors = verify(tmp_path / "results")
    assert code == 2 and lines == [], lines
    assert errors.splitlines() == [f"dynbench verify: error: {results}: not an lm-eval results file (nested deeper "
                                   "than 64 levels)"]

    write_run(tmp_path / "samples", "m", {"cruxeval_orig": [1, 0], "cruxeval_newinput": [1, 1]})
    samples = next((tmp_path / "samples").glob("samples_cruxeval_orig_*.jsonl"))
    samples.write_text(samples.read_text() + DEEP + "\n")
    code, lines, _ = verify(tmp_path / "samples")
    assert code == 1 and len(lines) == 2, lines  # every task answers, the deep line costs its own
    assert all("cannot be verified" in line for line in lines), lines


def test_the_greedy_tolerance_is_two_percent_and_at_least_one():
    from dynbench_tasks.analysis.verify import greedy_tolerance

    assert [greedy_tolerance(n) for n in (1, 4, 40, 99, 100, 800)] == [1, 1, 1, 1, 2, 16]



def _recorded_timeout(value):
    def change(folder):
        _edit_results(folder, lambda r: [c["metadata"]["dynbench"].update(timeout=value)
                                         for c in r["configs"].values()])

    return change


def _verify_within(folder: Path, *extra: str, seconds: int = 120) -> tuple[int, list[str]]:
    """``dynbench verify`` that must end within ``seconds`` (an answer the run's timeout lets spin would not)."""
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(folder), *extra],
                          capture_output=True, text=True, timeout=seconds)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.returncode, done.stdout.splitlines()


@pytest.mark.parametrize(("recorded", "problem"), [
    (float("nan"), "could not be rebuilt (SettingsError: 'metadata timeout must be a number of"),  # the settings' line,
    (float("inf"), "timeout inf s recorded, over the 3 s verify allows"),  # shortened as every value read from a run
])
def test_a_recorded_timeout_scoring_cannot_use_is_a_failed_line(greedy_claim, small_data, tmp_path, recorded, problem):
    code, lines = _verify_within(altered(greedy_claim, tmp_path, _recorded_timeout(recorded)), "--data-dir",
                                 small_data)
    assert code == 1 and len(lines) == 2, lines
    assert all("FAILED" in line and problem in line for line in lines), lines


def test_verify_scores_under_its_own_timeout_not_the_runs(greedy_claim, small_data, tmp_path):
    """A run recording a timeout of a day, whose answers spin for longer: verify names the timeout and ends."""
    def spin(folder):
        _recorded_timeout(100_000)(folder)
        for task in TASKS.split(","):
            _edit_samples(folder, task, lambda samples: samples[0]["resps"][0].__setitem__(0, "sum(range(10**15))"))

    doctored = altered(greedy_claim, tmp_path, spin)
    code, lines = _verify_within(doctored, "--data-dir", small_data)
    assert code == 1 and len(lines) == 2, lines
    assert all("FAILED" in line and "timeout 100000 s recorded, over the 3 s verify allows (the benchmark's default; "
               "a maintainer may allow more with --max-timeout SECONDS)" in line for line in lines), lines
    code, lines = _verify_within(doctored, "--data-dir", small_data, "--max-timeout", "1")
    assert code == 1 and all("timeout 100000 s recorded, over the 1 s verify allows" in line for line in lines), lines
    code, lines = _verify_within(greedy_claim, "--data-dir", small_data, "--max-timeout", "10")
    assert code == 0 and len(lines) == 2, lines  # the honest run records the default, 3 s: within the cap


def test_max_timeout_must_be_a_sane_number_of_seconds(tmp_path):
    for value in ("nan", "inf", "0", "61", "soon"):
        done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(tmp_path), "--max-timeout",
                               value], capture_output=True, text=True)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "argument --max-timeout:" in done.stderr.strip().splitlines()[-1], done.stderr


def test_a_scorer_that_raises_is_the_tasks_failed_line(greedy_claim, small_data, monkeypatch):
    from dynbench_tasks.analysis.runs import load_runs
    from dynbench_tasks.analysis.verify import FAILED, verify_task
    from dynbench_tasks.benchmarks import BENCHMARKS

    def broken(*_):
        raise OverflowError("cannot convert float infinity to integer")

    monkeypatch.setattr(type(BENCHMARKS["cruxeval"]), "score", broken)
    verdicts = [verify_task(run, small_data) for run in load_runs([str(greedy_claim)], keep_all=True)]
    assert len(verdicts) == 2 and all(v.outcome == FAILED for v in verdicts), verdicts
    assert all("scoring it failed (OverflowError: 'cannot convert float infinity to" in v.line()
               for v in verdicts), [v.line() for v in verdicts]
