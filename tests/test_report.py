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
                                                              "model_name": model}))


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
    assert {p.name for p in paths} >= {"report.md", "report.html", "report.csv", "cruxeval_scores.png"}


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
    assert (out / "cruxeval_scores.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    coverage = (out / "report.md").read_text().split("### Coverage")[1]
    # The tasks were built for 8 (fuv) and 10 (orig) documents; the runs logged 5: what was scored.
    assert "| fuv | A | 8 | 1 | 0 | 1 | 0 | 8 | 5 | logged samples |" in coverage
    assert "| orig | A | — | — | — | — | — | 10 | 5 | logged samples |" in coverage


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
    """One submitter's seeds (one RUN_DIR) pool; another RUN_DIR's runs under the name are another model
    (test_report_trust.py)."""
    write_run(tmp_path / "a" / "s0", "model-a", {"cruxeval_orig": [1, 1, 0, 0], "cruxeval_fuv": [1, 0, 0, 0]}, seed=0)
    write_run(tmp_path / "a" / "s1", "model-a", {"cruxeval_orig": [1, 1, 0, 0], "cruxeval_fuv": [1, 1, 1, 0]}, seed=1,
              stamp="2026-11-30T11-00-00.000000")
    report = Report(load_runs([str(tmp_path / "a")]))
    fuv = report.run("model-a", "cruxeval", "fuv")
    assert fuv.seeds == [0, 1] and fuv.pass_at_1 == pytest.approx(0.5) and fuv.spread == pytest.approx(0.3535534)
    assert fuv.per_document == {"sample_0": 1.0, "sample_1": 0.5, "sample_2": 0.5, "sample_3": 0.0}
    assert report.cell("model-a", "cruxeval", "fuv").text == "50.00 ±35.36 (2 seeds) (+0.00)"


def test_headline_is_the_mean_over_answer_changing_variants_on_shared_documents(tmp_path):
    from dynbench_tasks.analysis.report import HEADLINE, HEADLINE_WHY, ranking_rows

    # model-a memorised the benchmark: it passes orig and the meaning-preserving fuv, nothing with new answers.
    write_run(tmp_path / "a", "model-a", {"cruxeval_orig": [1, 1, 1, 1, 1], "cruxeval_fuv": [1, 1, 1, 1, 1],
                                          "cruxeval_newoutput": [0, 0, 0, 0], "cruxeval_fuvio": [0, 0, 0, 0, 1]})
    write_run(tmp_path / "b", "model-b", {"cruxeval_orig": [1, 0, 1, 0, 1], "cruxeval_newoutput": [1, 0, 1, 0],
                                          "cruxeval_fuvio": [1, 0, 0, 0, 1]})
    report = Report(load_runs([str(tmp_path / "a"), str(tmp_path / "b")]))
    b, a = report.summaries("cruxeval")  # best contamination-resistant score first
    # On the four documents orig, newoutput and fuvio all scored (sample_0 .. sample_3):
    assert (a.static, a.headline, a.drop, a.robustness, a.documents) == (100, 0, 100, 100, 4)
    assert a.headline_variants == ["newoutput", "fuvio"] and a.robustness_variants == ["fuv"]
    assert a.drop_low == a.drop_high == 100
    # model-b: static 1 0 1 0 -> 50; headline per document mean(1 0 1 0, 1 0 0 0) = 1 0 .5 0 -> 37.5
    assert (b.static, b.headline, b.drop, b.robustness) == (50, 37.5, 12.5, None)
    assert b.drop_low <= 12.5 <= b.drop_high
    _, rows = ranking_rows(report, "cruxeval")
    assert [c.text for c in rows[0]] == [HEADLINE, "model-b > model-a", "-1.00"]  # orig ranks them the other way
    paths = write_report(report, tmp_path / "out")
    text = (tmp_path / "out" / "report.md").read_text()
    assert text.index("Headline") < text.index("## cruxeval") and HEADLINE_WHY in text
    # drops past 10 points in bold, past 20 in bold italics
    assert f"| cruxeval | model-b | 37.50 | 50.00 | — | **+12.50 [{b.drop_low:+.2f}, {b.drop_high:+.2f}]** | 4 |" in text
    assert "| cruxeval | model-a | 0.00 | 100.00 | 100.00 | ***+100.00 [+100.00, +100.00]*** | 4 |" in text
    row = next(r for r in csv.DictReader(paths[2].open()) if r["model"] == "model-b" and r["variant"] == HEADLINE)
    assert (row["pass@1"], row["drop"], row["scored_docs"], row["mean_of"]) == ("37.50", "12.50", "4", "newoutput fuvio")


def test_headline_without_samples_and_without_answer_changing_variants(tmp_path):
    write_run(tmp_path / "c", "model-c", {"cruxeval_orig": [1, 1, 0, 0], "cruxeval_newoutput": [0, 0, 0, 0]},
              samples=False)
    write_run(tmp_path / "d", "model-d", {"cruxeval_orig": [1, 0], "cruxeval_fuv": [0, 0]})
    report = Report(load_runs([str(tmp_path / "c"), str(tmp_path / "d")]))
    c, d = report.summaries("cruxeval")
    assert (c.static, c.headline, c.drop, c.documents, c.drop_low) == (50, 0, 50, None, None)
    assert (d.headline, d.drop, d.static, d.robustness) == (None, None, 50, 0)
    write_report(report, tmp_path / "out")
    text = (tmp_path / "out" / "report.md").read_text()
    assert "| cruxeval | model-c | 0.00 | 50.00 | — | ***+50.00*** | each run's own (no logged samples) |" in text
    assert "| cruxeval | model-d | — | 50.00 | 0.00 | — | 2 |" in text  # static alone, on its 2 documents
    assert "run cruxeval_newinput or cruxeval_fuvi or cruxeval_newoutput or cruxeval_fuvio" in text


def test_a_translation_headline_leaves_out_the_copyable_newoutput(tmp_path):
    write_run(tmp_path / "a", "model-a", {"avatar_orig": [1, 1, 1, 1], "avatar_newoutput": [1, 1, 1, 1],
                                          "avatar_fuvo": [0, 1, 0, 0]})
    write_run(tmp_path / "b", "model-b", {"avatar_orig": [1, 1, 0, 0], "avatar_newoutput": [1, 1, 0, 0]})
    report = Report(load_runs([str(tmp_path / "a"), str(tmp_path / "b")]))
    a, b = report.summaries("avatar")
    assert (a.headline_variants, a.headline, a.drop) == (["fuvo"], 25, 75)
    assert b.headline is None  # newoutput alone is no headline on translation
    write_report(report, tmp_path / "out")
    text = (tmp_path / "out" / "report.md").read_text()
    assert "run avatar_fuvo." in text and "run avatar_newoutput" not in text


def test_coverage_counts_what_the_run_scored(tmp_path):
    """A --limit run's task still records the documents it built; the report counts the scored ones:
    logged samples, else lm-eval's own count, and says which."""
    write_run(tmp_path / "x", "m", {"cruxeval_orig": [1, 0], "cruxeval_fuv": [0, 0]}, samples=False)
    results = next((tmp_path / "x").glob("results_*.json"))
    data = json.loads(results.read_text())
    data["n-samples"] = {"cruxeval_fuv": {"original": 8, "effective": 2}}
    results.write_text(json.dumps(data))
    write_report(Report(load_runs([str(tmp_path / "x")])), tmp_path / "out")
    coverage = (tmp_path / "out" / "report.md").read_text().split("### Coverage")[1]
    assert "| fuv | m | 8 | 1 | 0 | 1 | 0 | 8 | 2 | lm-eval's count |" in coverage
    assert "| orig | m | — | — | — | — | — | 10 | 10 | the task's build (the run holds no count) |" in coverage


def test_one_model_gets_a_chart_with_intervals(tmp_path):
    from dynbench_tasks.analysis.report import score_interval

    write_run(tmp_path / "solo", "solo", {"cruxeval_orig": [1, 1, 0, 0], "cruxeval_fuv": [1, 1, 1, 1]})
    report = Report(load_runs([str(tmp_path / "solo")]))
    low, high = score_interval(report.run("solo", "cruxeval", "orig"))
    assert 0 <= low < 50 < high <= 100
    assert score_interval(report.run("solo", "cruxeval", "fuv")) == (100, 100)  # nothing to vary
    paths = write_report(report, tmp_path / "out")
    assert [p.name for p in paths if p.suffix == ".png"] == ["cruxeval_scores.png"]


def test_hostile_model_names_stay_text_in_every_file(tmp_path):
    """Model names come from result files (or --names): no Markdown rows or markup, no HTML, no
    spreadsheet formula, no matplotlib math; the control name shows as it is."""
    names = ["=HYPERLINK(1)|x", "<script>alert(1)</script>", "$\\frac{1}{$", "_under", "plain"]
    folders = []
    for position in range(len(names)):
        write_run(tmp_path / str(position), f"m{position}", {"cruxeval_orig": [1, 0], "cruxeval_newoutput": [0, 0]})
        folders.append(str(tmp_path / str(position)))
    paths = write_report(Report(load_runs(folders, names)), tmp_path / "out")
    text = (tmp_path / "out" / "report.md").read_text()
    table = text.split("## Headline")[1].split("\n\n")[1].splitlines()
    assert len(table) == 2 + len(names) and all(line.count(" | ") == 6 for line in table[2:])
    page = (tmp_path / "out" / "report.html").read_text()
    assert "<script>" not in page and "&lt;script&gt;" in page and "| plain |" in text
    rows = list(csv.reader(paths[2].open()))
    assert {r[0] for r in rows[1:]} >= {"'=HYPERLINK(1)|x", "plain", "_under"}
