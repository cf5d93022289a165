"""Leaderboard rounds (only the round's seed is ranked; a round may require greedy runs), and runs of
different sizes: compared on the documents they share, marked and warned about, so that static,
headline and drop on a row add up. Synthetic runs with figures worked out by hand, then real lm_eval
runs of a memorising model."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_report import write_run

from dynbench_tasks.analysis.leaderboard import Round, _reference, build_rows, markdown, warnings
from dynbench_tasks.analysis.runs import BUILTIN_TASKS, load_runs

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out

LATER = "2026-11-30T11-00-00.000000"
GREEDY_ROUND = '{"temperature": 0}'  # the synthetic rounds' settings: dynbench's defaults, greedy


def in_round(folder: Path) -> None:
    """Give every task of the synthetic run in ``folder`` the provenance and generation settings a run
    made with ``GREEDY_ROUND``'s settings records (its seed and counts kept)."""
    path = next(folder.glob("results_*.json"))
    results = json.loads(path.read_text())
    for task, config in results["configs"].items():
        if task in BUILTIN_TASKS:
            continue
        provenance, generation = _reference(task, GREEDY_ROUND, False, None)
        recorded = config["metadata"]["dynbench"]
        recorded.update({**provenance, "data": {"sha256": provenance["data"]}})
        config["generation_kwargs"] = {**generation, "until": ["\n"]}
    path.write_text(json.dumps(results))


def all_verified(runs) -> dict:
    """``dynbench verify``'s verdicts accepting every run: a round ranks only verified runs."""
    from dynbench_tasks.analysis.verify import VERIFIED, TaskVerdict

    return {id(r): TaskVerdict(r.task, r.model, VERIFIED) for r in runs}


def generated_with(folder: Path, **generation) -> None:
    """Record lm-eval's generation settings for every task of the run in ``folder``, as lm-eval does."""
    path = next(folder.glob("results_*.json"))
    results = json.loads(path.read_text())
    for config in results["configs"].values():
        config["generation_kwargs"] = dict(generation)
    path.write_text(json.dumps(results))


@pytest.fixture
def round_runs(tmp_path) -> list[str]:
    # model-a's submission: the round's seed 0 (headline 25), and seed 5, where it happens to do better (100).
    write_run(tmp_path / "a" / "0", "model-a", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_newinput": [1, 0, 0, 0]},
              seed=0)
    write_run(tmp_path / "a" / "5", "model-a", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_newinput": [1, 1, 1, 1]},
              seed=5, stamp=LATER)
    write_run(tmp_path / "b0", "model-b", {"cruxeval_orig": [1, 1, 0, 0], "cruxeval_newinput": [1, 1, 0, 0]}, seed=0)
    for folder in ("a/0", "a/5", "b0"):
        in_round(tmp_path / folder)
    return [str(tmp_path / d) for d in ("a", "b0")]


def test_a_round_ranks_only_runs_made_with_its_seed(round_runs):
    pooled = {row.model: row for row in build_rows(load_runs(round_runs), {})}
    assert pooled["model-a"].headline == pytest.approx(62.5) and pooled["model-a"].rank == 1  # the control
    runs = load_runs(round_runs)
    rows = build_rows(runs, all_verified(runs), game=Round(0, GREEDY_ROUND))
    ranked = [(r.model, r.rank, r.headline) for r in rows if r.rank]
    assert ranked == [("model-b", 1, pytest.approx(50.0)), ("model-a", 2, pytest.approx(25.0))]
    [apart] = [r for r in rows if r.rank is None]
    assert (apart.model, apart.seeds, apart.headline) == ("model-a", [5], pytest.approx(100.0))
    assert apart.not_ranked == "made with seed 5, not this round's seed 0"
    text = markdown(rows, game=Round(0, GREEDY_ROUND))
    assert "Round with seed 0: only runs made with seed 0, the settings {\"temperature\": 0}" in text
    assert "| made with seed 5, not this round's seed 0 | model-a |" in text.split("Not ranked on cruxeval:")[1]
    assert warnings(rows, 0) == []


def test_a_round_nobody_ran_is_said_so(round_runs):
    rows = build_rows(load_runs(round_runs), {}, game=Round(9, GREEDY_ROUND))
    assert all(r.rank is None and "not this round's seed 9" in r.not_ranked for r in rows)
    assert warnings(rows, 9) == ["no run was made and verified with this round's seed 9 and settings: nothing is "
                                 "ranked"]


def test_a_round_can_require_greedy_runs(round_runs, tmp_path):
    write_run(tmp_path / "c0", "model-c", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_newinput": [1, 1, 1, 1]}, seed=0)
    in_round(tmp_path / "c0")
    generated_with(tmp_path / "c0", temperature=0.2, do_sample=True)
    runs = load_runs([*round_runs, str(tmp_path / "c0")])
    plain = {r.model: r for r in build_rows(runs, {}) if r.rank}
    assert plain["model-c"].rank == 1 and not plain["model-c"].greedy and plain["model-a"].greedy  # the control
    rows = build_rows(runs, all_verified(runs), round_seed=0, require_greedy=True)
    assert [(r.model, r.rank) for r in rows if r.rank] == [("model-b", 1), ("model-a", 2)]
    c = next(r for r in rows if r.model == "model-c")
    assert c.rank is None and "temperature 0.2 (the round's: 0.0)" in c.not_ranked


@pytest.mark.parametrize(("generation", "recorded", "greedy"), [
    ({"temperature": 0.0, "do_sample": False, "until": ["\n"]}, 0.2, True),  # lm-eval's settings are what ran
    ({"temperature": 0.8}, 0, False),  # dynbench recorded 0, but --gen_kwargs temperature=0.8 overrode it
    ({"temperature": 0, "do_sample": True}, 0, False),
    ({"do_sample": False}, 0, False),  # vLLM and the API backends sample at their default temperature then
    ({"temperature": "0"}, 0, False),
])
def test_greedy_is_what_lm_eval_ran_with_or_what_verify_found(tmp_path, generation, recorded, greedy):
    from dynbench_tasks.analysis.verify import VERIFIED, TaskVerdict

    write_run(tmp_path / "r", "m", {"cruxeval_orig": [1], "cruxeval_newinput": [1]})
    path = next((tmp_path / "r").glob("results_*.json"))
    results = json.loads(path.read_text())
    for config in results["configs"].values():
        config["generation_kwargs"] = generation
        config["metadata"]["dynbench"]["temperature"] = recorded
    path.write_text(json.dumps(results))
    runs = load_runs([str(tmp_path / "r")])
    [row] = build_rows(runs, {}, require_greedy=True)
    assert row.greedy is greedy and (row.rank == 1) is greedy
    # verify's finding (from the settings it rebuilt and checked against the samples) outranks the claim
    found = {id(r): TaskVerdict(r.task, r.model, VERIFIED, greedy=not greedy) for r in runs}
    [row] = build_rows(runs, found, require_greedy=True)
    assert row.greedy is not greedy


def test_a_forged_seed_that_is_not_a_number_joins_no_round(tmp_path):
    write_run(tmp_path / "r", "m", {"cruxeval_orig": [1], "cruxeval_newinput": [1]}, seed=0)
    in_round(tmp_path / "r")
    path = next((tmp_path / "r").glob("results_*.json"))
    results = json.loads(path.read_text())
    results["configs"]["cruxeval_newinput"]["metadata"]["dynbench"]["seed"] = ["0"]
    path.write_text(json.dumps(results))
    runs = load_runs([str(tmp_path / "r")])
    rows = build_rows(runs, all_verified(runs), game=Round(0, GREEDY_ROUND))
    assert [(r.not_ranked, r.headline is None) for r in rows] == [
        ("made with no recorded seed, not this round's seed 0", False),
        ("no answer-changing variant its headline counts (newinput, fuvi, newoutput, fuvio), so no "
         "contamination-resistant score; its runs hold: orig", True)]


# ---------------------------------------------------------------------------------- sizes
def test_runs_of_different_sizes_are_compared_on_the_documents_they_share(tmp_path):
    """Issue 20: seed 0 on 100 problems pooled with seed 1 on 10 read dynamic 9.00, static 11.00, gap +4.00."""
    orig0, new0 = [1] * 11 + [0] * 89, [1] * 9 + [0] * 91  # 11.00 and 9.00 on their 100 problems
    orig1, new1 = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    write_run(tmp_path / "m" / "s0", "model-a", {"cruxeval_orig": orig0, "cruxeval_newinput": new0}, seed=0)
    write_run(tmp_path / "m" / "s1", "model-a", {"cruxeval_orig": orig1, "cruxeval_newinput": new1}, seed=1,
              stamp=LATER)
    for folder in ("m/s0", "m/s1"):  # --limit runs of tasks with 800 documents
        path = next((tmp_path / folder).glob("results_*.json"))
        results = json.loads(path.read_text())
        for config in results["configs"].values():
            config["metadata"]["dynbench"]["counts"]["scored"] = 800
        path.write_text(json.dumps(results))
    [row] = build_rows(load_runs([str(tmp_path / "m")]), {})
    assert row.documents == 10
    assert row.static == pytest.approx((100 + 50) / 2)  # orig on the 10 shared problems, pooled over the seeds
    assert row.headline == pytest.approx((90 + 20) / 2)
    assert row.drop == pytest.approx(row.static - row.headline) == pytest.approx(20.0)
    assert row.drop_low <= row.drop <= row.drop_high
    assert row.run_sizes == "seed 0: 100 documents; seed 1: 10 documents"
    assert warnings([row]) == ["model-a on cruxeval: runs of different sizes (seed 0: 100 documents; seed 1: 10 "
                               "documents); its row is computed on the 10 documents they all scored"]
    assert "| 10 ⚠ (runs of different sizes: seed 0: 100 documents; seed 1: 10 documents) |" in markdown([row])


def test_pooled_runs_of_different_sizes_weigh_each_shared_document_once_and_the_report_agrees(tmp_path):
    from dynbench_tasks.analysis.report import Report
    from dynbench_tasks.analysis.runs import pool_runs

    write_run(tmp_path / "m" / "s0", "model-a", {"cruxeval_orig": [1, 1, 0, 0], "cruxeval_newinput": [1, 0, 0, 0]},
              seed=0)
    write_run(tmp_path / "m" / "s1", "model-a", {"cruxeval_orig": [1, 0], "cruxeval_newinput": [1, 1]}, seed=1,
              stamp=LATER)
    runs = load_runs([str(tmp_path / "m")])
    pooled = {r.variant: r for r in pool_runs(runs)}
    assert pooled["newinput"].per_document == {"sample_0": 1.0, "sample_1": 0.5}  # sample_2, 3: seed 0 alone
    assert pooled["newinput"].pass_at_1 == pytest.approx(0.75) and pooled["newinput"].seeds == [0, 1]
    [row] = build_rows(runs, {})
    summary = Report(runs).summary("model-a", "cruxeval")
    assert (row.static, row.headline, row.drop, row.documents) == (75.0, 75.0, 0.0, 2)
    assert (summary.static, summary.headline, summary.drop, summary.documents) == (75.0, 75.0, 0.0, 2)


def test_one_seeds_runs_of_different_sizes_are_named_each(tmp_path):
    write_run(tmp_path / "r", "model-a", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_newinput": [1, 0, 1, 0],
                                           "cruxeval_fuvio": [0, 1]})
    [row] = build_rows(load_runs([str(tmp_path / "r")]), {})
    assert row.run_sizes == "seed 0: 4 documents (orig, newinput), 2 documents (fuvio)"
    assert (row.documents, row.static, row.headline, row.drop) == (2, 100.0, 50.0, 50.0)


def test_runs_of_one_size_raise_no_warning(tmp_path):
    write_run(tmp_path / "r", "model-a", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_newinput": [1, 0, 1, 0]})
    [row] = build_rows(load_runs([str(tmp_path / "r")]), {})
    assert (row.documents, row.run_sizes, warnings([row])) == (4, "", [])


def test_runs_without_samples_are_ranked_only_when_their_sizes_agree(tmp_path):
    write_run(tmp_path / "same", "model-a", {"cruxeval_orig": [1, 1, 1, 0], "cruxeval_newinput": [1, 0, 0, 0]},
              samples=False)
    [row] = build_rows(load_runs([str(tmp_path / "same")]), {})
    assert (row.rank, row.static, row.headline, row.drop, row.drop_low, row.documents) == (1, 75.0, 25.0, 50.0, None,
                                                                                           None)
    assert "+50.00 (no samples logged: no interval)" in markdown([row])
    write_run(tmp_path / "b" / "0", "model-b", {"cruxeval_orig": [1, 1, 1, 0], "cruxeval_newinput": [1, 0, 0, 0]},
              samples=False)
    write_run(tmp_path / "b" / "1", "model-b", {"cruxeval_newinput": [1, 1]}, samples=False, seed=1, stamp=LATER)
    for folder, count in (("b/0", 4), ("b/1", 2)):  # lm-eval's own count of what it scored
        path = next((tmp_path / folder).glob("results_*.json"))
        results = json.loads(path.read_text())
        results["n-samples"] = {task: {"original": 800, "effective": count} for task in results["results"]}
        path.write_text(json.dumps(results))
    [row] = build_rows(load_runs([str(tmp_path / "b")]), {})
    assert row.rank is None and row.headline is None and "logged no samples" in row.not_ranked
    assert warnings([row]) == ["model-b on cruxeval: runs of different sizes (seed 0: 4 documents; seed 1: 2 "
                               "documents); they logged no samples, so nothing shows which documents they share"]


# ---------------------------------------------------------------------------------- real runs
TASKS = "cruxeval_orig,cruxeval_newinput"


def memoriser_run(out: Path, data: str, seed: int, limit: int) -> Path:
    """A real, greedy lm_eval CLI run against a scripted model that answers every problem with its
    published output (it recognises the program); newinput's new inputs make those answers wrong."""
    from scripted_server import ScriptedServer

    from dynbench_tasks.lmeval import task_manager

    metadata = {"data_dir": data, "seed": seed, "repeats": 1, "temperature": 0}
    loaded = task_manager(metadata).load(TASKS.split(","))["tasks"]
    published = {doc["code"]: doc["output"] for doc in loaded["cruxeval_orig"].test_docs()}

    def answer(prompt: str, sample: int) -> str:
        return next(output for code, output in published.items() if f"{code}\nassert f(" in prompt)

    out.mkdir(parents=True)
    with ScriptedServer(answer) as server:
        done = subprocess.run(
            [sys.executable, "-m", "lm_eval", "--model", "local-completions", "--model_args",
             f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,tokenized_requests=False",
             "--tasks", TASKS, "--limit", str(limit), "--confirm_run_unsafe_code", "--log_samples", "--output_path",
             str(out), "--metadata", json.dumps(metadata)], capture_output=True, text=True, cwd=out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def leaderboard(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "leaderboard", *arguments],
                          capture_output=True, text=True)


def warnings_in(done: subprocess.CompletedProcess) -> list[str]:
    """The leaderboard's own warnings (lm-eval and the libraries it loads may log theirs)."""
    return [line for line in done.stderr.splitlines() if line.startswith("dynbench leaderboard: warning:")]


@pytest.mark.slow
def test_real_runs_of_different_sizes_and_a_round(tmp_path, small_data):
    """Seed 0 on 4 problems and seed 1 on 2, through lm_eval: pooled, the row is computed on the shared
    documents with one warning; as a round of seed 0, seed 1's runs are listed apart. The memoriser's
    static score is 100 and its contamination-resistant score 0."""
    memoriser_run(tmp_path / "m" / "s0", small_data, 0, 4)
    memoriser_run(tmp_path / "m" / "s1", small_data, 1, 2)
    runs = [str(tmp_path / "m")]  # one submitter's runs of two seeds
    done = leaderboard(*runs, "--out", str(tmp_path / "pooled"), "--data-dir", small_data)
    assert done.returncode == 0, done.stderr[-2000:]
    warned = [line for line in warnings_in(done) if "not made with dynbench's default settings" not in line]
    assert len(warned) == 1 and "runs of different sizes (seed 0: 4 documents; seed 1: 2 documents)" in warned[0]
    [row] = json.loads((tmp_path / "pooled" / "leaderboard.json").read_text())
    shared = set.intersection(*(set(r.per_document) for r in load_runs(runs)))
    assert row["documents"] == len(shared) and 1 <= len(shared) <= 2
    assert (row["static"], row["headline"], row["drop"]) == (100.0, 0.0, 100.0)
    assert row["verification"] == "partial" and row["greedy"] and row["seeds"] == [0, 1]

    done = leaderboard(*runs, "--out", str(tmp_path / "round"), "--seed", "0", "--require-greedy", "--round-metadata",
                       '{"repeats": 1}', "--data-dir", small_data)
    assert done.returncode == 0, done.stderr[-2000:]
    # Issue 30: a partial run (--limit) steered a round; now the round's seed-0 run is listed apart for it.
    assert warnings_in(done) == ["dynbench leaderboard: warning: no run was made and verified with this round's seed 0 "
                                 "and settings: nothing is ranked"]
    partial, apart = json.loads((tmp_path / "round" / "leaderboard.json").read_text())
    assert (partial["rank"], partial["seeds"], partial["static"], partial["headline"]) == (None, [0], 100.0, 0.0)
    assert partial["documents"] >= 3 and partial["verification"] == "partial"
    assert partial["not_ranked"] == "cruxeval_orig: only the first 4 of 40 documents (lm_eval --limit)"
    assert (apart["rank"], apart["seeds"], apart["not_ranked"]) == (None, [1], "made with seed 1, not this round's seed 0")
    assert (tmp_path / "round" / partial["view"]).is_file() and (tmp_path / "round" / apart["view"]).is_file()


def test_a_round_shows_no_unverified_score_of_lm_evals_own_task(tmp_path):
    """Issue 30: lm-eval's own cruxeval_output score, which verify never checks, showed on rows a round
    marked verified; a round leaves it out."""
    write_run(tmp_path / "r", "model-a", {"cruxeval_orig": [1, 1], "cruxeval_newinput": [1, 0],
                                           "cruxeval_output": [1, 0]})
    in_round(tmp_path / "r")
    done = leaderboard(str(tmp_path / "r"), "--out", str(tmp_path / "open"))
    assert done.returncode == 0, done.stderr[-2000:]
    [row] = json.loads((tmp_path / "open" / "leaderboard.json").read_text())
    assert row["harness"] == 50.0  # the control: outside a round it shows, marked and explained
    done = leaderboard(str(tmp_path / "r"), "--out", str(tmp_path / "round"), "--seed", "0", "--round-metadata",
                       GREEDY_ROUND)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = json.loads((tmp_path / "round" / "leaderboard.json").read_text())
    assert rows and all(r["harness"] is None for r in rows)
    assert "lm-eval's own task, scored" not in (tmp_path / "round" / "index.html").read_text()
