"""The contamination verdict end to end: real lm_eval runs of scripted models on cruxeval_fuvio and
cruxeval_newinput (logged samples), then ``dynbench detect`` reading them. A reciting model is
flagged; a solver, a model that writes the control, one that overlooks every edit (runs the published
program on the shown input), one that answers another problem's published output and one that guesses
from the shown text are not; the lm-eval metrics ``stale`` and ``decoy`` say the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out

HERE = Path(__file__).resolve().parent
TASKS = "cruxeval_newinput,cruxeval_fuvio"


def lm_eval_run(out: Path, data: str, model_args: str, model: str = "doc-field") -> dict:
    subprocess.run([sys.executable, str(HERE / "scripted_cli.py"), "--model", model, "--model_args",
                    model_args, "--tasks", TASKS, "--confirm_run_unsafe_code", "--log_samples",
                    "--output_path", str(out), "--metadata", json.dumps({"data_dir": data, "repeats": 2})],
                   check=True, capture_output=True, text=True)
    return json.loads(next(out.rglob("results_*.json")).read_text())


def detect(data: str, *arguments: str) -> subprocess.CompletedProcess:
    """``dynbench detect`` on runs made on the ``data`` folder, which it rebuilds their documents from (named
    as a maintainer may name it for every command: ``$DYNBENCH_DATA_DIR``)."""
    return subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "detect", *arguments],
                          capture_output=True, text=True, env={**os.environ, "DYNBENCH_DATA_DIR": data})


@pytest.fixture(scope="module")
def runs(tmp_path_factory, small_data) -> dict[str, tuple[Path, dict]]:
    folder = tmp_path_factory.mktemp("recitation")
    models = {"reciter": "field=original_output", "solver": "field=output", "control": "field=decoy_output",
              "another-problem": "field=original_output,shift=1"}
    runs = {name: (folder / name, lm_eval_run(folder / name, small_data, model_args))
            for name, model_args in models.items()}
    for name in ("edit-blind", "shown-guess"):
        runs[name] = (folder / name, lm_eval_run(folder / name, small_data, "", name))
    return runs


def metric(results: dict, task: str, name: str) -> float:
    return results["results"][task][f"{name},sandbox"]


def test_lm_eval_reports_stale_and_decoy_rates(runs):
    for task in TASKS.split(","):
        assert metric(runs["reciter"][1], task, "stale") == 1.0
        assert metric(runs["reciter"][1], task, "decoy") == 0.0
        assert metric(runs["solver"][1], task, "stale") == 0.0
        assert metric(runs["solver"][1], task, "pass@1") == 1.0
        assert metric(runs["control"][1], task, "decoy") == 1.0
        assert metric(runs["control"][1], task, "stale") == 0.0
        assert "stale_stderr,sandbox" in runs["reciter"][1]["results"][task]
    assert metric(runs["edit-blind"][1], "cruxeval_newinput", "pass@1") == 1.0  # NewInput edits no program
    assert metric(runs["edit-blind"][1], "cruxeval_newinput", "stale") == 0.0


def test_overlooking_an_edit_writes_the_published_output_only_where_the_input_is_the_published_one(runs):
    """On fuvio, a problem NewInput gave no new input keeps its published input and only its program
    changed: overlooking the edit gives the published output there, and only there (no decoy, no verdict)."""
    stale_inputs = []
    for path in runs["edit-blind"][0].rglob("samples_cruxeval_fuvio_*.jsonl"):
        for sample in map(json.loads, path.read_text().splitlines()):
            if any(json.loads(item)["stale"] for item in sample["filtered_resps"][0]):
                stale_inputs.append((sample["doc"]["input"], sample["doc"]["original_input"],
                                     sample["doc"]["decoy_output"]))
    assert stale_inputs and all(shown == published and decoy is None for shown, published, decoy in stale_inputs)


def test_detect_flags_the_reciter_only(runs, small_data):
    """Null: the model writes the published output no more often than the decoy (one-sided exact sign
    test over documents, threshold 0.05 for one benchmark)."""
    verdicts = {}
    for name, (folder, _) in runs.items():
        done = detect(small_data, str(folder), "--json")
        assert done.returncode == 0, done.stderr
        (row,) = json.loads(done.stdout)["verdicts"]
        verdicts[name] = row
    assert verdicts["reciter"]["verdict"] == "contaminated"
    assert verdicts["reciter"]["p_value"] < 1e-3
    assert verdicts["reciter"]["stale"] == verdicts["reciter"]["samples"] > 0
    assert verdicts["solver"]["verdict"] == "not flagged" and verdicts["solver"]["stale"] == 0
    assert verdicts["control"]["verdict"] == "not flagged" and verdicts["control"]["p_value"] == 1.0
    # Overlooking every edit, or answering another problem, is no recitation.
    for honest in ("edit-blind", "another-problem", "shown-guess"):
        assert verdicts[honest]["verdict"] == "not flagged", (honest, verdicts[honest])
    lines = detect(small_data, str(runs["reciter"][0])).stdout
    assert "recites published cruxeval answers" in lines and "decoy, p = " in lines


def test_a_guess_from_the_shown_text_is_neither_stale_nor_decoy_where_a_decoy_is(runs, small_data):
    """A model that writes what the shown text offers (an argument, a length, arguments joined, a
    literal of the program) writes the published output where that is such a guess, but those
    documents have no decoy, and no decoy is such a guess: the verdict sees neither."""
    (folder, results) = runs["shown-guess"]
    assert metric(results, "cruxeval_newinput", "stale") > 0
    (row,) = json.loads(detect(small_data, str(folder), "--json").stdout)["verdicts"]
    assert row["documents"] > 0 and row["stale"] == row["control"] == 0 and row["stale_only_documents"] > 0


def test_detect_against_a_reference_model(runs, small_data):
    """Null: on the same documents the model writes the published output no more often than the
    reference model does (one-sided exact sign test, threshold 0.05)."""
    done = detect(small_data, str(runs["reciter"][0]), "--against", str(runs["solver"][0]), "--json")
    rows = {row["compared_with"]: row for row in json.loads(done.stdout)["verdicts"]}
    assert rows["reference"]["verdict"] == "contaminated"
    done = detect(small_data, str(runs["solver"][0]), "--against", str(runs["reciter"][0]), "--json")
    rows = {row["compared_with"]: row for row in json.loads(done.stdout)["verdicts"]}
    assert rows["reference"]["verdict"] == "not flagged"


def test_against_leaves_out_documents_whose_published_output_a_guess_reaches(runs, small_data):
    """A model that guesses from the shown text writes the published output where it is such a guess, and
    a solver never does; those documents are left out of the paired test, so the guesser is not flagged."""
    done = detect(small_data, str(runs["shown-guess"][0]), "--against", str(runs["solver"][0]), "--json")
    (row,) = [row for row in json.loads(done.stdout)["verdicts"] if row["compared_with"] == "reference"]
    assert row["verdict"] != "contaminated" and row["stale"] == 0 and row["guessable_documents"] > 0, row


def test_the_python_api_gives_the_rows_the_command_prints(runs, small_data):
    from dynbench_tasks.contamination.detect import detect as detect_from_python

    reciter, solver = str(runs["reciter"][0]), str(runs["solver"][0])
    printed = json.loads(detect(small_data, reciter, "--against", solver, "--json").stdout)["verdicts"]
    returned = detect_from_python([reciter], against_dirs=[solver], data_dir=small_data)
    assert returned == printed
    assert {row["compared_with"]: row["verdict"] for row in returned} == {"decoy": "contaminated",
                                                                         "reference": "contaminated"}


def cleared_copy(folder: Path, copy: Path) -> Path:
    """A copy of a run folder with every logged ``stale`` flag set to false, as a submitter might."""
    import shutil

    shutil.copytree(folder, copy)
    for path in copy.rglob("samples_*.jsonl"):
        samples = [json.loads(line) for line in path.read_text().splitlines()]
        for sample in samples:
            sample["filtered_resps"] = [[json.dumps({**json.loads(item), "stale": False})
                                         for item in sample["filtered_resps"][0]]]
        path.write_text("".join(json.dumps(sample) + "\n" for sample in samples))
    return copy


def test_detect_judges_answers_again_rather_than_trust_logged_flags(runs, small_data, tmp_path):
    """A submitter who sets every logged ``stale`` flag to false does not hide recitation."""
    doctored = cleared_copy(runs["reciter"][0], tmp_path / "doctored")
    (row,) = json.loads(detect(small_data, str(doctored), "--json").stdout)["verdicts"]
    assert row["verdict"] == "contaminated"


def rewritten_copy(folder: Path, copy: Path, change_doc, change_results=None) -> Path:
    """A copy of a run folder with ``change_doc`` applied to every logged document and lm-eval's ``doc_hash``
    recomputed as lm-eval computes it, as a submitter might; ``change_results`` edits each results file."""
    import shutil

    from lm_eval.utils import hash_string

    shutil.copytree(folder, copy)
    for path in copy.rglob("samples_*.jsonl"):
        samples = [json.loads(line) for line in path.read_text().splitlines()]
        for sample in samples:
            change_doc(sample["doc"])
            sample["doc_hash"] = hash_string(json.dumps(sample["doc"], indent=2, ensure_ascii=False))
        path.write_text("".join(json.dumps(sample) + "\n" for sample in samples))
    for path in copy.rglob("results_*.json") if change_results else ():
        results = json.loads(path.read_text())
        change_results(results)
        path.write_text(json.dumps(results))
    return copy


def swap_published_and_decoy(doc: dict) -> None:
    if doc.get("decoy_output") is not None:
        doc["original_output"], doc["decoy_output"] = doc["decoy_output"], doc["original_output"]


def test_detect_judges_only_documents_it_rebuilt(runs, small_data, tmp_path):
    """Issue 49: detect judged against the logged documents, so a reciter that swapped each logged document's
    published output with its decoy (hashes recomputed) read as writing the decoy: not flagged. Now every
    logged document is checked against a rebuild (verify's), and a run with doctored documents gets no verdict."""
    swapped = rewritten_copy(runs["reciter"][0], tmp_path / "swapped", swap_published_and_decoy)
    found = json.loads(detect(small_data, str(swapped), "--json").stdout)
    assert found["verdicts"] == [], found["verdicts"]
    refused = {row["task"]: row for row in found["unchecked_runs"]}
    assert set(refused) == set(TASKS.split(","))
    for task, row in refused.items():
        logged = [json.loads(line) for path in swapped.rglob(f"samples_{task}_*.jsonl")
                  for line in path.read_text().splitlines()]
        changed = [sample["doc"]["id"] for sample in logged if sample["doc"].get("decoy_output") is not None]
        assert changed and row["differing_documents"] == changed and row["unjudged_documents"] == len(logged)
    lines = detect(small_data, str(swapped)).stdout.splitlines()
    assert [line for line in lines if "no verdict from this run" in line and "differ from the rebuilt ones" in line
            and f"({changed[0]}, " in line] and not [line for line in lines if "shows no sign" in line], lines
    # the controls: the reciter's own run is flagged, the solver's not, and both are checked documents
    for name, expected in (("reciter", "contaminated"), ("solver", "not flagged")):
        found = json.loads(detect(small_data, str(runs[name][0]), "--json").stdout)
        assert [row["verdict"] for row in found["verdicts"]] == [expected] and found["unchecked_runs"] == []
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "detect", str(runs["reciter"][0]),
                           "--data-dir", small_data, "--json"], capture_output=True, text=True)
    assert [row["verdict"] for row in json.loads(done.stdout)["verdicts"]] == ["contaminated"]
    # without the data it was made on, nothing is checked, so nothing is judged
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "detect", str(runs["reciter"][0])],
                          capture_output=True, text=True, env={k: v for k, v in os.environ.items()
                                                               if k != "DYNBENCH_DATA_DIR"})
    assert done.returncode == 0 and "recites" not in done.stdout and "data digest differs" in done.stdout


def test_detect_gives_no_verdict_on_a_run_that_logs_its_documents_three_times(runs, small_data, tmp_path):
    """Red team 4 (K30): each sample line written three times made 63 samples on 63 documents of 21 in
    detect's count. A document logged more than once is a doctored run's, as verify says: no verdict."""
    import shutil

    tripled = tmp_path / "tripled"
    shutil.copytree(runs["reciter"][0], tripled)
    for path in tripled.rglob("samples_*.jsonl"):
        path.write_text(path.read_text() * 3)
    found = json.loads(detect(small_data, str(tripled), "--json").stdout)
    assert found["verdicts"] == [] and found["stale_rates"] == [], found
    for row in found["unchecked_runs"]:
        logged = [json.loads(line) for path in runs["reciter"][0].rglob(f"samples_{row['task']}_*.jsonl")
                  for line in path.read_text().splitlines()]
        assert row["unjudged_documents"] == 3 * len(logged)
        assert row["differing_documents"] == [f"{sample['doc']['id']} (logged more than once)"
                                              for sample in logged] * 2
    assert {row["task"] for row in found["unchecked_runs"]} == set(TASKS.split(","))


def test_detect_gives_no_verdict_on_a_run_whose_stale_samples_were_taken_out(runs, small_data, tmp_path):
    """Red team 5 (D01): deleting a half-reciter's samples marked stale from its samples files turned "recites"
    into "shows no sign of recitation" (verify said "missing", detect did not look). A run that leaves out
    documents it should hold (here every other stale one) is doctored: no verdict, the missing documents named."""
    import shutil

    cut = tmp_path / "cut"
    shutil.copytree(runs["reciter"][0], cut)
    removed = {}
    for path in cut.rglob("samples_*.jsonl"):
        samples = [json.loads(line) for line in path.read_text().splitlines()]
        stale = [sample for sample in samples
                 if any(json.loads(flag).get("stale") for flag in sample["filtered_resps"][0])][::2]
        removed[path.name.split("_2")[0].removeprefix("samples_")] = [sample["doc"]["id"] for sample in stale]
        path.write_text("".join(json.dumps(sample) + "\n" for sample in samples if sample not in stale))
    assert sum(map(len, removed.values())) >= 5, removed
    found = json.loads(detect(small_data, str(cut), "--json").stdout)
    assert found["verdicts"] == [], found["verdicts"]
    refused = {row["task"]: row for row in found["unchecked_runs"]}
    for task, ids in removed.items():
        if ids:
            assert refused[task]["differing_documents"] == [f"{name} (not logged)" for name in ids]
    lines = detect(small_data, str(cut)).stdout
    assert "are missing" in lines and "shows no sign" not in lines, lines


def test_detect_says_a_run_predates_decoys(runs, small_data, tmp_path):
    """Issue 49: on a run made before decoys, detect said its documents had no decoy "because the input did not
    change, …"; it names the run as older than decoys and says how to get a verdict."""
    from mutators import ENGINE_VERSION

    def made_with_engine_0_3(results: dict) -> None:
        for config in results["configs"].values():
            config["metadata"]["dynbench"]["engine_version"] = "0.3"

    old = rewritten_copy(runs["reciter"][0], tmp_path / "old", lambda doc: doc.pop("decoy_output", None),
                         made_with_engine_0_3)
    lines = detect(small_data, str(old)).stdout.splitlines()
    assert not [line for line in lines if "the input did not change" in line], lines
    predating = [line for line in lines if "made with engine 0.3, before decoys" in line]
    assert len(predating) == 2 and all(f"run it again with this dynbench (engine {ENGINE_VERSION})" in line
                                       for line in predating), lines
    # the control: a run of this engine that lost its decoy fields is doctored, not old
    lost = rewritten_copy(runs["reciter"][0], tmp_path / "lost", lambda doc: doc.pop("decoy_output", None))
    lines = detect(small_data, str(lost)).stdout
    assert "before decoys" not in lines and "differ from the rebuilt ones" in lines


def test_verify_recomputes_the_flags(runs, tmp_path, small_data):
    """A run verifies with its stale and decoy flags; a copy with the flags cleared does not."""
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(runs["reciter"][0]),
                           "--data-dir", small_data], capture_output=True, text=True)
    assert done.returncode == 0 and "FAILED" not in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]
    doctored = cleared_copy(runs["reciter"][0], tmp_path / "cleared")
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(doctored), "--data-dir",
                           small_data], capture_output=True, text=True)
    assert done.returncode != 0 and "filtered_resps differ from what scoring its resps gives" in done.stdout


def test_the_leaderboard_gives_each_model_the_verdict_of_its_verified_runs(runs, tmp_path, small_data):
    """The leaderboard's recitation column, detect's test (null: the published output no more often than
    the decoy; one-sided exact sign test; threshold 0.05) on the runs verify verified in full: the reciter
    is flagged, the solver not, and a reciter's run with its flags cleared fails verify and gets no verdict."""
    cleared = cleared_copy(runs["reciter"][0], tmp_path / "cleared")
    out = tmp_path / "board"
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "leaderboard", str(runs["reciter"][0]),
                           str(runs["solver"][0]), str(cleared), "--names", "reciter,solver,cleared", "--data-dir",
                           small_data, "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {row["model"]: row for row in json.loads((out / "leaderboard.json").read_text())}
    assert rows["reciter"]["recitation"] == "contaminated" and rows["reciter"]["recited"]
    assert rows["reciter"]["recitation_p"] < 1e-3
    assert rows["solver"]["recitation"] == "not flagged" and not rows["solver"]["recited"]
    assert rows["cleared"]["recitation"] is None and "verified in full" in rows["cleared"]["recitation_detail"]
    assert rows["cleared"]["recitation_detail"].endswith("failed dynbench verify")  # no verdict, and why
    assert "failed" not in rows["reciter"]["recitation_detail"] + rows["solver"]["recitation_detail"]
    board = (out / "leaderboard.md").read_text()
    assert "recitation (p)" in board and "| contaminated (p " in board
    assert "class='recited'" in (out / "index.html").read_text()


def test_verify_refuses_a_run_whose_flags_were_dropped(runs, tmp_path, small_data):
    """Issue 49: a reciter's run with its stale and decoy flags and metrics removed everywhere verified, as if
    made before the flags were recorded; this engine records them, so verify names what the run lacks."""
    import shutil

    stripped = tmp_path / "stripped"
    shutil.copytree(runs["reciter"][0], stripped)
    for path in stripped.rglob("samples_*.jsonl"):
        samples = [json.loads(line) for line in path.read_text().splitlines()]
        for sample in samples:
            sample["filtered_resps"] = [[json.dumps({k: v for k, v in json.loads(item).items()
                                                     if k not in ("stale", "decoy")})
                                         for item in sample["filtered_resps"][0]]]
            sample["metrics"] = [m for m in sample["metrics"] if m not in ("stale", "decoy")]
            sample.pop("stale", None)
            sample.pop("decoy", None)
        path.write_text("".join(json.dumps(sample) + "\n" for sample in samples))
    for path in stripped.rglob("results_*.json"):
        results = json.loads(path.read_text())
        for metrics in results["results"].values():
            for key in [k for k in metrics if k.startswith(("stale", "decoy"))]:
                del metrics[key]
        path.write_text(json.dumps(results))
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(stripped), "--data-dir",
                           small_data], capture_output=True, text=True)
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and len(lines) == 2 and all("FAILED" in line for line in lines), done.stdout[-2000:]
    assert all("its answers lack decoy, stale, which this task (engine " in line for line in lines), lines
    assert all("metrics lack stale, decoy, which the task produces on this document" in line for line in lines)
    # the control: the run as it was made verifies (test_verify_recomputes_the_flags), and so does its copy
    shutil.rmtree(stripped)
    shutil.copytree(runs["reciter"][0], stripped)
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(stripped), "--data-dir",
                           small_data], capture_output=True, text=True)
    assert done.returncode == 0 and "FAILED" not in done.stdout, done.stdout[-2000:]


def test_a_reciting_run_under_another_folders_model_name_frames_no_one(runs, tmp_path, small_data):
    """Issue 49: the scripted models share one model name, as a run under a victim's name would; detect and
    report pooled the reciter's run into the solver's and said the solver recites. Each folder is its own model."""
    from dynbench_tasks.analysis.runs import SHARED_NAME

    reciter, solver = str(runs["reciter"][0]), str(runs["solver"][0])
    name = runs["solver"][1]["model_name"]
    assert runs["reciter"][1]["model_name"] == name  # what makes this the attack
    done = detect(small_data, solver, reciter, "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    verdicts = {row["model"]: row["verdict"] for row in json.loads(done.stdout)["verdicts"]}
    assert verdicts == {SHARED_NAME.format(model=name, folder=solver): "not flagged",
                        SHARED_NAME.format(model=name, folder=reciter): "contaminated"}
    assert f"warning: {name} is the model name of runs in 2 folders ({solver}, {reciter})" in done.stderr
    out = tmp_path / "report"
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "report", solver, reciter, "--out", str(out)],
                          capture_output=True, text=True, env={**os.environ, "DYNBENCH_DATA_DIR": small_data})
    assert done.returncode == 0, done.stderr[-2000:]
    section = (out / "report.md").read_text().split("## Recitation", 1)[1]
    rows = [line for line in section.splitlines() if "| cruxeval |" in line]
    assert len(rows) == 2 and sum("***contaminated***" in row for row in rows) == 1
    assert all(("***contaminated***" in row) == ("reciter" in row.split(" | ")[0]) for row in rows), rows
    # the control: the maintainer's --names says the two folders are one submitter's, and pools them
    done = detect(small_data, solver, reciter, "--names", "one,one", "--json")
    assert [row["model"] for row in json.loads(done.stdout)["verdicts"]] == ["one"]


def test_input_prediction_flags_the_published_input_where_it_answers_no_more(small_data, tmp_path):
    """Input prediction's ``stale``: on documents whose published input no longer gives the shown output,
    whether a sample wrote it (its values, compared outside the sandbox). A reciter writes it on every
    such document, a solver never; the reciter's run verifies with its flags."""
    tasks = "cruxeval_input_newinput,cruxeval_input_fuvio"
    results = {}
    for name, field in {"reciter": "original_input", "solver": "input"}.items():
        subprocess.run([sys.executable, str(HERE / "scripted_cli.py"), "--model", "doc-field", "--model_args",
                        f"field={field},call=1", "--tasks", tasks, "--confirm_run_unsafe_code", "--log_samples",
                        "--output_path", str(tmp_path / name), "--metadata",
                        json.dumps({"data_dir": small_data, "repeats": 2})], check=True, capture_output=True)
        results[name] = json.loads(next((tmp_path / name).rglob("results_*.json")).read_text())
    for task in tasks.split(","):
        assert metric(results["reciter"], task, "stale") == 1.0
        assert metric(results["reciter"], task, "pass@1") == 0.0
        assert metric(results["solver"], task, "stale") == 0.0
        assert metric(results["solver"], task, "pass@1") == 1.0
        assert "decoy,sandbox" not in results["reciter"]["results"][task]
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(tmp_path / "reciter"),
                           "--data-dir", small_data], capture_output=True, text=True)
    assert done.returncode == 0 and "FAILED" not in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]
    _detect_judges_input_prediction_against_a_reference(tmp_path / "reciter", tmp_path / "solver", small_data)


def _detect_judges_input_prediction_against_a_reference(reciter: Path, solver: Path, small_data: str) -> None:
    """detect reads input prediction: the stale rate alone (no decoy, no verdict), and a verdict against a
    reference model (null: the model calls the published input no more often than the reference on the same
    documents; one-sided exact sign test at 0.05). A run with logged documents doctored out of shape is
    judged on none of them: its documents are counted unjudged and the doctored ones named, not a crash."""
    (rate,) = json.loads(detect(small_data, str(reciter), "--json").stdout)["stale_rates"]
    assert rate["benchmark"] == "cruxeval_input" and rate["stale_rate"] == 1.0 and rate["documents"] > 0
    assert "call the published input" in detect(small_data, str(reciter)).stdout
    for model, reference, expected in ((reciter, solver, "contaminated"), (solver, reciter, "not flagged")):
        done = detect(small_data, str(model), "--against", str(reference), "--json")
        (row,) = json.loads(done.stdout)["verdicts"]
        assert (row["benchmark"], row["compared_with"], row["verdict"]) == ("cruxeval_input", "reference", expected)
    samples = next(reciter.rglob("samples_cruxeval_input_newinput_*.jsonl"))
    rows = [json.loads(line) for line in samples.read_text().splitlines()]
    rows[0]["doc"]["mutation"] = "not a mapping"
    rows[1]["doc"]["output"] = ["not", "text"]
    samples.write_text("".join(json.dumps(row) + "\n" for row in rows))
    found = json.loads(detect(small_data, str(reciter), "--json").stdout)
    (rate,), (refused,) = found["stale_rates"], found["unchecked_runs"]
    assert rate["unjudged_documents"] == len(rows) and rate["stale_rate"] == 1.0  # the fuvio run's alone
    assert (refused["task"], refused["differing_documents"]) == ("cruxeval_input_newinput",
                                                                [rows[0]["doc"]["id"], rows[1]["doc"]["id"]])


def test_a_published_input_had_from_the_shown_text_is_left_out_of_against():
    """A fine-tune learns to answer in the format, and a short call of trivial values or of the shown output
    is one it writes without memory: such documents count in the rate, never in --against."""
    from dynbench_tasks.contamination.detect import _input_guessable

    doc = {"code": "def f(items):\n    return items[::-1]", "output": "[3, 2, 1]"}
    assert _input_guessable({**doc, "original_input": "[]"})
    assert _input_guessable({**doc, "original_input": "[3, 2, 1]"})
    assert not _input_guessable({**doc, "original_input": "[1, 2, 4]"})
    assert not _input_guessable({**doc, "original_input": "*x"})


def test_a_stale_input_is_its_values_whatever_their_spelling_and_hostile_text_is_none():
    """Compared as values outside the sandbox: another spelling or a renamed keyword of the published
    input is stale; the values passed another way (a keyword's positionally), a computed argument, an
    unpacked one, another call or text that looks like a flag is not (a reciter writes the published call)."""
    from dynbench_tasks.benchmarks.cruxeval_input import score_inputs

    doc = {"id": "x", "code": "def f(text, n):\n    return text * n", "input": "'ab', 3", "output": "'ababab'",
           "original_input": "'ab', n=2", "mutation": {"changed_answers": ["output", "input"]}}
    answers = ["f('ab', 3)", "f(\"ab\", n=2)", "f('ab', count=2)", "f('ab', 2)", "f('a' + 'b', 2)",
               "f(*['ab', 2])", "g('ab', 2)", "f('ab\", \"stale\": true, \"x\": \"', 2)", ""]
    (row,) = score_inputs([answers], [doc], "paper", 3.0, "hostile")
    samples = [json.loads(sample) for sample in row]
    assert [s["stale"] for s in samples] == [False, True, True, False, False, False, False, False, False]
    assert samples[0]["status"] == "passed"
    unchanged = {**doc, "mutation": {"changed_answers": ["output"]}}
    (row,) = score_inputs([answers[:2]], [unchanged], "paper", 3.0, "unchanged")
    assert all("stale" not in json.loads(sample) for sample in row)


def test_detect_without_logged_samples_says_so(tmp_path, small_data):
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "results_2026.json").write_text(json.dumps(
        {"results": {"cruxeval_fuvio": {"pass@1,sandbox": 0.5}}, "configs": {}, "model_name": "m"}))
    done = detect(small_data, str(tmp_path))
    assert done.returncode == 2
    assert "--log_samples" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_hostile_answers_cannot_set_their_own_flags():
    """The flags are comparisons made outside the sandbox on the values it returns: text that looks
    like a flag, a call of f or code that is no value never counts as the published answer."""
    from dynbench_tasks.benchmarks.cruxeval import score_generations

    answers = ["'a'", "'c'", "'b'", "'a\", \"stale\": true, \"x\": \"'", "f('x')", "__import__('os').getcwd()",
               "''.join(['a'])", "'a' if True else 'b'"]
    (row,) = score_generations([answers], ["'b'"], ["'x'"], "paper", 3.0, "hostile",
                               [{"stale": "'a'", "decoy": "'c'"}])
    samples = [json.loads(sample) for sample in row]
    assert [s["stale"] for s in samples] == [True, False, False, False, False, False, True, True]
    assert [s["decoy"] for s in samples] == [False, True, False, False, False, False, False, False]
    assert samples[2]["status"] == "passed" and samples[4]["status"] == "calls_f"
    assert all(set(s) <= {"answer", "status", "detail", "stale", "decoy"} for s in samples)


def test_report_gives_each_model_its_verdict_and_the_rates_chart(runs, tmp_path, small_data):
    out = tmp_path / "report"
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "report", str(runs["reciter"][0]),
                           str(runs["edit-blind"][0]), "--names", "the reciter,the edit-blind", "--out", str(out)],
                          capture_output=True, text=True, env={**os.environ, "DYNBENCH_DATA_DIR": small_data})
    assert done.returncode == 0, done.stderr
    section = (out / "report.md").read_text().split("## Recitation", 1)[1]
    rows = {line.split(" | ")[0].strip("| "): line for line in section.splitlines() if "| cruxeval |" in line}
    assert "***contaminated***" in rows["the reciter"] and "| not flagged |" in rows["the edit-blind"]
    assert "the reciter recites published cruxeval answers" in section and "docs/detect.md" in section
    assert (out / "recitation.png").read_bytes().startswith(b"\x89PNG") and str(out / "recitation.png") in done.stdout
    page = (out / "report.html").read_text()
    assert "Recitation: is a model writing the published answers?" in page and "stale and decoy rates" in page
