"""Reports on synthetic lm-eval output folders whose statistics are worked out by hand here."""

import csv
import json
import subprocess
import sys

import pytest

from dynbench_tasks.analysis.report import Report, write_report
from dynbench_tasks.analysis.runs import load_runs

STAMP = "2026-11-30T10-00-00.000000"


def write_run(folder, model, tasks, samples=True, failed=(), seed=0, stamp=STAMP):
    """tasks: {task: [per-document pass@1 ...]} for documents sample_0, sample_1, ...; a task not
    named like a dynbench task (lm-eval's own cruxeval_output) is written as lm-eval writes it."""
    folder.mkdir(parents=True, exist_ok=True)
    results, configs = {}, {}
    for task, scores in tasks.items():
        metrics = {"name": task}
        metric = "pass_at_k,create_test" if task == "cruxeval_output" else "pass@1,sandbox"
        if task not in failed:
            metrics.update({metric: sum(scores) / len(scores), "pass@1_stderr,sandbox": 0.0})
        results[task] = metrics
        counts = {"original": 10, "scored": 10} if task.endswith("_orig") else \
            {"mutated": 8, "unchanged": 1, "rejected": 0, "unparseable": 1, "scored": 8}
        configs[task] = {"metadata": {"dynbench": {"chain": "F+U+V2", "seed": seed, "counts": counts}}}
        if samples:
            with (folder / f"samples_{task}_{stamp}.jsonl").open("w") as handle:
                for i, score in enumerate(scores):
                    doc = {"id": f"sample_{i}", "code": f"def f(v{i}):\n    return v{i}\n",
                           "original_code": "def f(x):\n    return x\n", "output": str(i)}
                    resp = [json.dumps({"answer": str(i), "status": "passed" if score >= 0.5 else "wrong"})]
                    handle.write(json.dumps({"doc_id": 99 - i, "doc": doc, "filtered_resps": [resp],
                                             "pass@1": score}) + "\n")
    (folder / f"results_{stamp}.json").write_text(json.dumps({"results": results, "configs": configs,
                                                              "model_name": f"/models/{model}"}))


@pytest.fixture
def runs(tmp_path):
    # Five documents. Orig: A passes 5, B 3, C 1. fuv reverses the order; auv keeps it.
    write_run(tmp_path / "a", "model-a", {
        "cruxeval_orig": [1, 1, 1, 1, 1], "cruxeval_fuv": [0, 0, 0, 0, 0], "cruxeval_auv": [1, 1, 1, 1, 0.6],
    })
    write_run(tmp_path / "b", "model-b", {
        "cruxeval_orig": [1, 1, 1, 0, 0], "cruxeval_fuv": [1, 1, 1, 0, 0], "cruxeval_auv": [1, 1, 0.8, 0, 0],
    })
    write_run(tmp_path / "c", "model-c", {
        "cruxeval_orig": [1, 0, 0, 0, 0], "cruxeval_fuv": [1, 1, 1, 1, 1],
    })
    return tmp_path


def test_table_drops_highlights_and_failed_or_missing_cells(runs, tmp_path):
    write_run(tmp_path / "d", "model-d", {"cruxeval_orig": [1, 1, 0, 0, 0], "cruxeval_fuv": [0, 0, 0, 0, 0]},
              failed=("cruxeval_fuv",))
    report = Report(load_runs([str(runs / d) for d in "abcd"]))
    assert report.models == ["model-a", "model-b", "model-c", "model-d"]
    a = report.cell("model-a", "cruxeval", "fuv")
    assert (a.text, a.level) == ("0.00 (+100.00)", 2)
    auv = report.cell("model-a", "cruxeval", "auv")  # (4 + 0.6) / 5 = 92 %, a drop of 8 points
    assert (auv.text, auv.level) == ("92.00 (+8.00)", 0)
    b = report.cell("model-b", "cruxeval", "auv")  # (2.8 / 5 = 56 %) against 60 %
    assert (b.text, b.level) == ("56.00 (+4.00)", 0)
    assert report.cell("model-c", "cruxeval", "auv").text == "—"
    assert report.cell("model-d", "cruxeval", "fuv").text == "failed"


def test_rankings_and_kendall_tau(runs):
    from dynbench_tasks.analysis.report import ranking_rows

    report = Report(load_runs([str(runs / d) for d in "abc"]))
    _, rows = ranking_rows(report, "cruxeval")
    table = {row[0].text: (row[1].text, row[2].text) for row in rows}
    assert table["orig"] == ("model-a > model-b > model-c", "—")
    assert table["fuv"] == ("model-c > model-b > model-a", "-1.00")  # every pair swapped
    assert table["auv"] == ("model-a > model-b", "1.00")  # model-c has no auv: two models, same order


def test_paired_comparison_on_benchmark_ids(runs):
    report = Report(load_runs([str(runs / d) for d in "abc"]))
    a = report.paired("model-a", "cruxeval", "fuv")
    # Five discordant documents, all passed on orig only: exact two-sided p = 2 * 0.5**5.
    assert (a.shared, a.orig_only, a.variant_only) == (5, 5, 0)
    assert a.p_value == pytest.approx(2 * 0.5 ** 5) and a.drop == pytest.approx(100)
    assert a.ci_low == a.ci_high == pytest.approx(100)  # no variation, no interval
    c = report.paired("model-c", "cruxeval", "fuv")
    assert (c.orig_only, c.variant_only) == (0, 4) and c.p_value == pytest.approx(2 * 0.5 ** 4)
    auv = report.paired("model-a", "cruxeval", "auv")
    # Drops (points): 0, 0, 0, 0, 40 -> mean 8; a percentile bootstrap stays within them.
    assert auv.drop == pytest.approx(8) and 0 <= auv.ci_low <= 8 <= auv.ci_high <= 40
    assert (auv.orig_only, auv.variant_only, auv.p_value) == (0, 0, 1.0)


def test_documents_are_joined_on_the_benchmark_id_not_lm_evals_position(tmp_path):
    write_run(tmp_path / "x", "m", {"cruxeval_orig": [1, 0], "cruxeval_fuv": [1, 0]})
    fuv = tmp_path / "x" / f"samples_cruxeval_fuv_{STAMP}.jsonl"
    fuv.write_text("\n".join(reversed(fuv.read_text().splitlines())) + "\n")  # other positions
    result = Report(load_runs([str(tmp_path / "x")])).paired("m", "cruxeval", "fuv")
    assert (result.shared, result.drop, result.orig_only, result.variant_only) == (2, 0, 0, 0)


def test_one_model_without_samples(tmp_path):
    write_run(tmp_path / "solo", "solo", {"cruxeval_orig": [1, 0], "cruxeval_condaug": [0, 0]}, samples=False)
    report = Report(load_runs([str(tmp_path / "solo")]))
    assert report.paired("solo", "cruxeval", "condaug") is None
    paths = write_report(report, tmp_path / "out")
    text = (tmp_path / "out" / "report.md").read_text()
    assert "no shared logged samples" in text and "| condaug | solo | — |" in text
    assert {p.name for p in paths} >= {"report.md", "report.html", "report.csv", "cruxeval_boxplot.png"}


def test_written_files(runs, tmp_path):
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "report", *(str(runs / d) for d in "abc"),
                           "--out", str(out), "--names", "A,B,C"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader((out / "report.csv").open()))
    row = next(r for r in rows if r["model"] == "A" and r["variant"] == "fuv")
    assert (row["pass@1"], row["drop"], row["shared_docs"], row["mcnemar_p"]) == ("0.00", "100.00", "5", "0.0625")
    page = (out / "report.html").read_text()
    assert "data:image/png;base64," in page and "class='l2'" in page and "Kendall" in page
    assert (out / "cruxeval_boxplot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    coverage = (out / "report.md").read_text().split("### Coverage")[1]
    assert "| fuv | 8 | 1 | 0 | 1 | 0 | 8 |" in coverage and "| orig | 0 | 0 | 0 | 0 | 0 | 10 |" in coverage


def test_viewer_marks_outcome_flips(runs, tmp_path):
    from dynbench_tasks.analysis.viewer import write_viewer

    out = tmp_path / "view.html"
    assert write_viewer(str(runs / "a"), "cruxeval_fuv", out) == 5  # all five passed on orig, none on fuv
    assert write_viewer(str(runs / "c"), "cruxeval_fuv", tmp_path / "c.html") == 0
    page = out.read_text()
    assert page.count("data-flip='1'") == 5 and "diff_chg" in page and "only outcome flips" in page


def test_viewer_shows_translation_answers_and_reference_java(tmp_path):
    from dynbench_tasks.analysis.viewer import write_viewer

    folder = tmp_path / "t"
    folder.mkdir()
    for task, status in (("avatar_orig", "passed"), ("avatar_fuv", "compile_error")):
        doc = {"id": "atcoder_X", "python": "n = int(input())\nprint(n)\n", "original_python": "x = 1\n",
               "java": "public class Main { /* reference */ }"}
        sample = {"doc_id": 0, "doc": doc, "resps": [[f"class Main {{ /* {task} answer */ }}"]],
                  "filtered_resps": [[json.dumps({"status": status})]], "pass@1": float(status == "passed")}
        (folder / f"samples_{task}_{STAMP}.jsonl").write_text(json.dumps(sample) + "\n")
    (folder / f"results_{STAMP}.json").write_text(json.dumps({
        "results": {t: {"pass@1,sandbox": 0.0} for t in ("avatar_orig", "avatar_fuv")}, "configs": {},
        "model_name": "m"}))
    out = tmp_path / "t.html"
    assert write_viewer(str(folder), "avatar_fuv", out) == 1
    page = out.read_text()
    assert "/* avatar_fuv answer */" in page and "/* avatar_orig answer */" in page
    assert "reference Java" in page and "/* reference */" in page and "compile_error" in page


def test_stats_counts_bleu_and_edit_distance(tmp_path):
    from dynbench_tasks.analysis.stats import benchmark_stats

    records = [
        {"id": "sample_0", "code": "def f(x):\n    return x\n", "input": "1", "output": "1"},
        {"id": "sample_1", "code": "def f(xs):\n    for x in xs:\n        return x\n", "input": "[1]", "output": "1"},
        {"id": "sample_2", "code": "def f():\n    return 'a'\n", "input": "", "output": "'a'"},
    ]
    (tmp_path / "cruxeval.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    row, distances = benchmark_stats("cruxeval", str(tmp_path), seed=0)
    assert row["programs"] == 3
    assert row["varnorm1"]["changed"] == 2 and row["for2while"]["changed"] == 1
    assert row["constunfold"]["changed"] == 0 and row["constunfold"]["bleu"] is None
    # def f ( x ) : return x  ->  def f ( var1 ) : return var1: two token substitutions.
    assert distances["varnorm1"][0] == 2
    assert 0 < row["varnorm1"]["bleu"] < 100


def test_runs_of_one_model_with_several_seeds_are_pooled(tmp_path):
    write_run(tmp_path / "s0", "model-a", {"cruxeval_orig": [1, 1, 0, 0], "cruxeval_fuv": [1, 0, 0, 0]}, seed=0)
    write_run(tmp_path / "s1", "model-a", {"cruxeval_orig": [1, 1, 0, 0], "cruxeval_fuv": [1, 1, 1, 0]}, seed=1,
              stamp="2026-11-30T11-00-00.000000")
    report = Report(load_runs([str(tmp_path / "s0"), str(tmp_path / "s1")]))
    fuv = report.run("model-a", "cruxeval", "fuv")
    assert fuv.seeds == [0, 1] and fuv.pass_at_1 == pytest.approx(0.5) and fuv.spread == pytest.approx(0.3535534)
    assert fuv.per_document == {"sample_0": 1.0, "sample_1": 0.5, "sample_2": 0.5, "sample_3": 0.0}
    assert report.cell("model-a", "cruxeval", "fuv").text == "50.00 ±35.36 (2 seeds) (+0.00)"
