"""The score-based contamination test (ConStat's way, the meaning-preserving variant as the reference
benchmark): a model whose orig score stands above what the other models' orig and fuv scores predict from
its fuv score is flagged. Null: the model stands on the others' line as they do; one-sided (an excess on
orig); threshold 0.05 for a model tested once. Its false alarms are measured by
scripts/score_test_null_rates.py, not here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dynbench_tasks.contamination.score_test import ScorePoint, score_points, score_test
from dynbench_tasks.contamination.verdict import CONTAMINATED, NOT_FLAGGED

HERE = Path(__file__).resolve().parent
# Honest models: each solves the rewritten programs a little less often than the published ones.
HONEST = {f"honest-{round(skill * 100)}": f"skill={skill},rewritten_skill={skill - 0.1:.2f},salt={index}"
          for index, skill in enumerate((0.3, 0.45, 0.6, 0.75, 0.9))}
# Its memory wakes only on the published text: every published program right, a third of the rewritten ones.
TEXT_BOUND = "recite=1,rewritten_skill=0.33,salt=m"


def points(*scores: tuple[float, float]) -> list[ScorePoint]:
    return [ScorePoint(f"m{index}", static, dynamic, 800, 800) for index, (static, dynamic) in enumerate(scores)]


def test_a_model_far_above_the_others_line_is_flagged_and_one_on_it_is_not():
    references = points((0.30, 0.15), (0.40, 0.22), (0.50, 0.30), (0.58, 0.38), (0.70, 0.50), (0.78, 0.60))
    above = score_test(ScorePoint("above", 0.75, 0.30, 800, 800), references, 0.05, "cruxeval")
    assert above.verdict == CONTAMINATED and above.p_value < 0.01 and above.interval[0] > 0
    on_line = score_test(ScorePoint("on", 0.50, 0.30, 800, 800), references, 0.05, "cruxeval")
    assert on_line.verdict == NOT_FLAGGED and abs(on_line.excess) < 0.03
    below = score_test(ScorePoint("below", 0.30, 0.30, 800, 800), references, 0.05, "cruxeval")
    assert below.verdict == NOT_FLAGGED and below.p_value > 0.9  # one-sided: a deficit is no memory


def test_a_model_with_few_documents_needs_a_larger_excess():
    references = points((0.30, 0.15), (0.40, 0.22), (0.50, 0.30), (0.58, 0.38), (0.70, 0.50), (0.78, 0.60))
    many = score_test(ScorePoint("many", 0.60, 0.30, 800, 800), references, 0.05, "cruxeval")
    few = score_test(ScorePoint("few", 0.60, 0.30, 20, 20), references, 0.05, "cruxeval")
    assert few.p_value > many.p_value
    assert few.verdict == NOT_FLAGGED


def test_fewer_than_five_other_models_is_an_error():
    with pytest.raises(ValueError, match="at least 5 other models"):
        score_test(ScorePoint("t", 0.5, 0.3, 800, 800), points((0.3, 0.1), (0.4, 0.2), (0.5, 0.3), (0.6, 0.4)),
                   0.05, "cruxeval")


def test_scores_are_compared_on_the_documents_every_model_scored():
    from dynbench_tasks.analysis.runs import TaskRun

    def run(model: str, variant: str, scores: dict[str, float]) -> TaskRun:
        return TaskRun(model, f"cruxeval_{variant}", "cruxeval", variant, None, {}, per_document=scores)

    runs = [run("full", "orig", {"a": 1.0, "b": 0.0, "c": 1.0}), run("full", "fuv", {"a": 1.0, "b": 0.0}),
            run("limited", "orig", {"a": 0.0, "b": 1.0}), run("limited", "fuv", {"a": 1.0, "b": 1.0, "c": 0.0}),
            run("orig-only", "orig", {"a": 1.0, "b": 1.0})]
    (group,) = score_points(runs).values()
    assert [(p.model, p.static, p.dynamic, p.static_documents) for p in group] == [
        ("full", 0.5, 0.5, 2), ("limited", 0.5, 1.0, 2)]


def test_what_takes_no_part_in_the_score_test_is_said():
    from dynbench_tasks.analysis.runs import TaskRun
    from dynbench_tasks.contamination.score_test import left_out

    def run(model: str, task: str, logged: bool = True) -> TaskRun:
        benchmark, variant = task.split("_")
        return TaskRun(model, task, benchmark, variant, 0.5, {}, per_document={"a": 1.0} if logged else {})

    runs = [run("m1", "cruxeval_orig"), run("m1", "cruxeval_fuv"), run("m2", "cruxeval_orig"),
            run("m3", "cruxeval_orig"), run("m3", "cruxeval_fuv", logged=False),
            run("m1", "codenet_orig"), run("m1", "cruxeval_newinput")]
    assert left_out(runs) == [
        "score test on cruxeval: m2, m3 left out: no logged samples of both cruxeval_orig and cruxeval_fuv "
        "(lm_eval --log_samples)",
        "score test on cruxeval: 1 models ran cruxeval_orig and cruxeval_fuv with logged samples; it needs 6"]
    apart = [TaskRun(f"m{i}", f"cruxeval_{variant}", "cruxeval", variant, 0.5, {}, per_document={f"doc{i}": 1.0})
             for i in range(6) for variant in ("orig", "fuv")]
    assert score_points(apart) == {}
    assert left_out(apart) == ["score test on cruxeval: no document of cruxeval_orig and cruxeval_fuv that all 6 "
                               "models scored (run them on the same problems)"]


@pytest.fixture(scope="module")
def scripted_models(tmp_path_factory, small_data) -> dict[str, Path]:
    """Six models through real lm_eval on cruxeval_orig and cruxeval_fuv: five honest, one text-bound."""
    folders = {}
    for name, model_args in {**HONEST, "text-bound": TEXT_BOUND}.items():
        folders[name] = tmp_path_factory.mktemp(name)
        subprocess.run([sys.executable, str(HERE / "scripted_cli.py"), "--model", "doc-field", "--model_args",
                        model_args, "--tasks", "cruxeval_orig,cruxeval_fuv", "--confirm_run_unsafe_code",
                        "--log_samples", "--output_path", str(folders[name]),
                        "--metadata", json.dumps({"data_dir": small_data, "repeats": 1})],
                       check=True, capture_output=True, text=True)
    return folders


def detect(folders: list[Path], names: list[str], small_data: str, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "detect", *map(str, folders), "--names",
                           ",".join(names), "--data-dir", small_data, *options], capture_output=True, text=True)


@pytest.mark.slow
def test_detect_flags_a_model_whose_memory_only_the_published_text_wakes(scripted_models, small_data):
    """``dynbench detect`` on the six models: the text-bound memoriser is flagged against the five honest models,
    no honest model against the other five."""
    names = list(scripted_models)
    folders = list(scripted_models.values())
    done = detect(folders, names, small_data, "--json")
    assert done.returncode == 0, done.stderr
    rows = {row["model"]: row for row in json.loads(done.stdout)["score_tests"]}
    assert json.loads(done.stdout)["verdicts"] == []  # no answer-changing task ran: no decoy verdict
    assert rows["text-bound"]["verdict"] == CONTAMINATED and rows["text-bound"]["p_value"] < 0.05
    assert rows["text-bound"]["static"] == 1.0
    for name in HONEST:
        assert rows[name]["verdict"] == NOT_FLAGGED, rows[name]
        assert len(rows[name]["references"]) == 5
    assert "left out" not in done.stderr, done.stderr  # every run verified: all take part
    assert "text-bound scores above its dynamic score on the published programs" in detect(
        folders, names, small_data).stdout
    too_few = detect(folders[1:], names[1:], small_data)
    assert too_few.returncode != 0 and "by 6 or more models" in too_few.stderr


def fabricated_peer(real: Path, folder: Path, static: float, dynamic: float) -> Path:
    """What issue 49's attack submitted: a real run's results, each document's logged pass@1 and nothing else
    (no document, no answer), at the rates chosen."""
    results_file = next(real.rglob("results_*.json"))
    results = json.loads(results_file.read_text())
    folder.mkdir()
    for task, rate in (("cruxeval_orig", static), ("cruxeval_fuv", dynamic)):
        results["results"][task]["pass@1,sandbox"] = rate
        (samples,) = real.rglob(f"samples_{task}_*.jsonl")
        ids = [json.loads(line)["doc"]["id"] for line in samples.read_text().splitlines()]
        (folder / samples.name).write_text("".join(json.dumps({"doc_id": index, "doc": {"id": doc_id}, "pass@1": float(
            index < rate * len(ids))}) + "\n" for index, doc_id in enumerate(ids)))
    (folder / results_file.name).write_text(json.dumps(results))
    return folder


@pytest.mark.slow
def test_fabricated_peers_move_no_line(scripted_models, small_data, tmp_path):
    """Issue 49: six folders of fabricated per-document scores made detect call a real model's orig score
    inflated. Only runs verify accepts take part; the others are counted and named in one line."""
    honest = scripted_models["honest-90"]
    peers = [fabricated_peer(honest, tmp_path / f"peer{i}", 0.1 * i, 0.1 * i + 0.4) for i in range(1, 6)]
    done = detect([honest, *peers], ["honest-90", *(p.name for p in peers)], small_data)
    assert "scores above" not in done.stdout and "Traceback" not in done.stderr, done.stdout + done.stderr[-2000:]
    (line,) = [line for line in done.stderr.splitlines() if "left out" in line]
    assert "score test on cruxeval: 10 runs left out, dynbench verify does not accept their documents and answers: " \
        "peer1 cruxeval_orig, peer1 cruxeval_fuv, peer2" in line and "honest-90 cruxeval" not in line, line
    assert done.returncode == 2  # nothing else to judge
    # the control: the same real run among the five other real models is tested, and not flagged
    done = detect(list(scripted_models.values()), list(scripted_models), small_data, "--json")
    rows = {row["model"]: row for row in json.loads(done.stdout)["score_tests"]}
    assert rows["honest-90"]["verdict"] == NOT_FLAGGED


def test_a_model_tested_both_ways_shares_its_false_alarm_rate_between_the_tests():
    from dynbench_tasks.contamination.detect import Evidence, _thresholds

    evidence = {("m0", "cruxeval"): Evidence("m0", "cruxeval"), ("b", "cruxeval"): Evidence("b", "cruxeval")}
    scores = {"cruxeval": points((0.3, 0.2)), "codenet": points((0.3, 0.2), (0.4, 0.3))}
    assert _thresholds(evidence, scores) == {"m0": 0.05 / 3, "b": 0.05, "m1": 0.05}
