"""Stale answers on translation end to end: real lm_eval runs of a model that memorised the published Java
(CodeNet: its published test outputs printed) and of one that translates the shown program, on
transcoder_newoutput and codenet_newoutput (logged samples), then ``dynbench detect`` reading them. The
metric ``stale`` counts Java that fails the edited program's tests and passes the published program's;
detect reports its rate and gives a verdict only against a reference model's runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

HERE = Path(__file__).resolve().parent
TASKS = ("transcoder_newoutput", "codenet_newoutput")
PROBLEMS = 12


@pytest.fixture(scope="module")
def translation_data(tmp_path_factory, data_dir) -> str:
    folder = tmp_path_factory.mktemp("translation-recitation")
    for name in ("transcoder_py2java.jsonl", "codenet_py2java.jsonl"):
        lines = (data_dir / name).read_text().splitlines()[:PROBLEMS]
        (folder / name).write_text("\n".join(lines) + "\n")
    return str(folder)


@pytest.fixture(scope="module")
def runs(tmp_path_factory, translation_data) -> dict[str, tuple[Path, dict]]:
    folder = tmp_path_factory.mktemp("translation-runs")
    found = {}
    for kind in ("memorised", "right"):
        out = folder / kind
        subprocess.run([sys.executable, str(HERE / "scripted_cli.py"), "--model", "known-answer", "--model_args",
                        f"kind={kind}", "--tasks", ",".join(TASKS), "--confirm_run_unsafe_code", "--log_samples",
                        "--output_path", str(out), "--metadata",
                        json.dumps({"data_dir": translation_data, "repeats": 2, "timeout": 3})],
                       check=True, capture_output=True, text=True)
        found[kind] = (out, json.loads(next(out.rglob("results_*.json")).read_text()))
    return found


def detect(data: str, *arguments: str) -> subprocess.CompletedProcess:
    """``dynbench detect`` on runs made on ``data``, which it rebuilds their documents from."""
    return subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "detect", "--data-dir", data, *arguments],
                          capture_output=True, text=True)


def logged(folder: Path, task: str) -> list[dict]:
    (path,) = folder.rglob(f"samples_{task}_*.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_lm_eval_reports_the_stale_rate_of_translations(runs):
    for task in TASKS:
        memorised, right = runs["memorised"][1]["results"][task], runs["right"][1]["results"][task]
        assert memorised["stale,judge"] >= 0.9 and memorised["pass@1,judge"] == 0.0, memorised
        # known_answers builds no returning Java for a few TransCoder signatures: those go unanswered
        assert right["stale,judge"] == 0.0 and right["pass@1,judge"] >= 0.9, right
        assert "stale_stderr,judge" in memorised


def test_detect_reports_the_rate_and_judges_only_against_a_reference(runs, translation_data):
    """Null of the paired test: on the same documents the model writes stale Java no more often than
    the reference model does (one-sided exact sign test; threshold 0.05 over the two benchmarks
    tested together, 0.025 each)."""
    done = detect(translation_data, str(runs["memorised"][0]), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["verdicts"] == []  # no decoy on translation: no verdict without a reference
    rates = {row["benchmark"]: row for row in report["stale_rates"]}
    assert set(rates) == {"transcoder", "codenet"}
    assert all(row["stale_rate"] >= 0.9 and row["documents"] >= 8 for row in rates.values()), rates
    lines = detect(translation_data, str(runs["memorised"][0])).stdout
    assert "only --against a reference model's runs tells apart" in lines
    from dynbench_tasks.contamination.detect import stale_rates

    assert stale_rates([str(runs["memorised"][0])], translation_data) == report["stale_rates"]

    done = detect(translation_data, str(runs["memorised"][0]), "--against", str(runs["right"][0]), "--json")
    rows = {row["benchmark"]: row for row in json.loads(done.stdout)["verdicts"]}
    assert {row["verdict"] for row in rows.values()} == {"contaminated"}, rows
    assert all(row["p_value"] <= 0.025 and row["compared_with"] == "reference" for row in rows.values())
    done = detect(translation_data, str(runs["right"][0]), "--against", str(runs["memorised"][0]), "--json")
    assert {row["verdict"] for row in json.loads(done.stdout)["verdicts"]} == {"not flagged"}


def test_a_reply_must_end_normally_on_every_published_test_to_be_stale(runs):
    """Hostile or broken Java that prints the published outputs and then fails, or prints them on some
    tests only, is not stale; a doctored logged document is counted unjudged, not a crash."""
    from known_answers import printing_java

    from dynbench_tasks.benchmarks import BENCHMARKS
    from dynbench_tasks.runtime import shared_java_judge

    doc = next(sample["doc"] for sample in logged(runs["memorised"][0], "codenet_newoutput"))
    published = printing_java(doc["original_tests"])
    replies = [published, published.replace("return; }", "System.out.flush(); System.exit(3); }"),
               published.replace("return; }", "throw new IllegalStateException(); }"),
               "```java\npublic class Main { public static void main(String[] a) {"
               " System.out.write(new byte[]{(byte) 0xff, (byte) 0xfe}, 0, 2); System.out.flush(); } }\n```",
               "```java\npublic class Main { public static void main(String[] a) throws Exception {"
               " while (true) Thread.sleep(10); } }\n```"]
    flags = BENCHMARKS["codenet"].judge_with_stale([(reply, doc) for reply in replies], shared_java_judge(), 2000)
    assert flags == [{"status": "wrong_output", "stale": True}, {"status": "runtime_error", "stale": False},
                     {"status": "runtime_error", "stale": False}, {"status": "wrong_output", "stale": False},
                     {"status": "timeout", "stale": False}]


def test_a_doctored_logged_document_is_unjudged_not_a_crash(runs, tmp_path, translation_data):
    import shutil

    copy = tmp_path / "doctored"
    shutil.copytree(runs["memorised"][0], copy)
    (path,) = copy.rglob("samples_codenet_newoutput_*.jsonl")
    samples = [json.loads(line) for line in path.read_text().splitlines()]
    del samples[0]["doc"]["tests"]
    path.write_text("".join(json.dumps(sample) + "\n" for sample in samples))
    done = detect(translation_data, str(copy), "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    rates = {row["benchmark"]: row for row in found["stale_rates"]}
    (refused,) = found["unchecked_runs"]  # a run with a doctored document is judged on none of them
    assert (refused["task"], refused["differing_documents"]) == ("codenet_newoutput", [samples[0]["doc"]["id"]])
    assert set(rates) == {"transcoder"} and rates["transcoder"]["stale_rate"] >= 0.9


def test_verify_and_detect_recompute_stale_flags_a_submitter_cleared(runs, tmp_path, translation_data):
    """A submitter who sets every logged ``stale`` flag to false: verify rejects the run, and detect,
    which judges the Java again, still finds it stale."""
    from test_recitation import cleared_copy

    verify = [sys.executable, "-m", "dynbench_tasks.cli", "verify", "--data-dir", translation_data]
    done = subprocess.run([*verify, str(runs["memorised"][0])], capture_output=True, text=True)
    assert done.returncode == 0 and "FAILED" not in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]
    doctored = cleared_copy(runs["memorised"][0], tmp_path / "cleared")
    done = subprocess.run([*verify, str(doctored)], capture_output=True, text=True)
    assert done.returncode != 0 and "filtered_resps differ from what scoring its resps gives" in done.stdout
    rates = json.loads(detect(translation_data, str(doctored), "--json").stdout)["stale_rates"]
    assert rates and all(row["stale_rate"] >= 0.9 for row in rates), rates
