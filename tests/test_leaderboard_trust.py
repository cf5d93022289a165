"""``dynbench leaderboard`` steered by the submitter (issues 30, 31): a model's identity is its whole
name (and revision), the same model and seed twice is reported and resolved alike in any order, ties
share a rank, a round fixes everything that decides documents and judging, and JSON nested past any
stack costs one line. Each through the real command, beside a control."""

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_report import write_run
from test_verify import _edit_results

from dynbench_tasks.analysis.text import markdown_cell
from dynbench_tasks.scoring import JUDGING_RULES

pytestmark = pytest.mark.slow

LATER = "2026-11-30T11-00-00.000000"


def leaderboard(*arguments: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "leaderboard", *arguments],
                          capture_output=True, text=True)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done


def board(site: Path) -> list[dict]:
    return json.loads((site / "leaderboard.json").read_text())


def warnings_in(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.startswith("dynbench leaderboard: warning:")]


def named(folder: Path, model_name: str, scores: list[int], model_args: str | None = None, **options) -> str:
    write_run(folder, "placeholder", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_newinput": scores}, **options)
    _edit_results(folder, lambda r: r.update(model_name=model_name, **(
        {"config": {"model_args": model_args}} if model_args else {})))
    return str(folder)


def test_models_that_share_a_last_name_keep_their_own_rows(tmp_path):
    folders = [named(tmp_path / "victim", "victimorg/victim-model", [1, 0, 0, 0]),
               named(tmp_path / "evil", "evilorg/victim-model", [1, 1, 1, 1])]
    done = leaderboard(*folders, "--out", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert [(r["model"], r["rank"], r["headline"]) for r in board(tmp_path / "site")] == [
        ("evilorg/victim-model", 1, 100.0), ("victimorg/victim-model", 2, 25.0)]


def test_revisions_of_one_model_are_two_models(tmp_path):
    folders = [named(tmp_path / "one", "org/m", [1, 0, 0, 0], "pretrained=org/m,revision=v1"),
               named(tmp_path / "two", "org/m", [1, 1, 0, 0], "pretrained=org/m,revision=v2")]
    done = leaderboard(*folders, "--out", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert [(r["model"], r["rank"]) for r in board(tmp_path / "site")] == [("org/m@v2", 1), ("org/m@v1", 2)]


def test_the_same_model_and_seed_twice_in_one_submission_is_reported_and_resolved_in_any_order(tmp_path):
    earlier = named(tmp_path / "one" / "earlier", "org/m", [1, 1, 1, 1])
    later = named(tmp_path / "one" / "later", "org/m", [1, 0, 0, 0], stamp=LATER)
    results = {}
    for order in ((earlier, later), (later, earlier)):
        done = leaderboard(str(tmp_path / "one"), "--out", str(tmp_path / "site"))
        assert done.returncode == 0, done.stderr[-2000:]
        results[order] = [(r["model"], r["headline"], r["rank"]) for r in board(tmp_path / "site")]
        warned = [line for line in warnings_in(done) if "left out" in line]
        assert len(warned) == 2 and all("1 other results file(s) of the same model, task and seed, left out: "
                                        f"{earlier}/results_" in line and f"the latest, {later}/" in line
                                        for line in warned), warned
    assert list(results.values()) == [[("org/m", 25.0, 1)]] * 2


def shared(name: str, folder: str) -> str:
    from dynbench_tasks.analysis.runs import SHARED_NAME

    return SHARED_NAME.format(model=name, folder=folder)


def shared_name_warning(done: subprocess.CompletedProcess, name: str, *folders: str) -> list[str]:
    return [line for line in warnings_in(done) if line.startswith(f"dynbench leaderboard: warning: {name} is the model "
                                                                  f"name of runs in {len(folders)} folders")
            and all(folder in line for folder in folders)]


def test_a_submission_under_another_ones_model_name_supersedes_nothing(tmp_path):
    """Issue 30: a later run under the victim's model name replaced the victim's (a warning alone said so).
    Issue 49: then both were listed apart, unranked; now each folder's row is ranked, labelled with its folder."""
    victim = named(tmp_path / "victim", "org/m", [1, 0, 0, 0])
    impostor = named(tmp_path / "impostor", "org/m", [1, 1, 1, 1], stamp=LATER)
    done = leaderboard(victim, impostor, "--out", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert [(r["model"], r["headline"], r["rank"], r["not_ranked"]) for r in board(tmp_path / "site")] == [
        (shared("org/m", impostor), 100.0, 1, ""), (shared("org/m", victim), 25.0, 2, "")]
    assert not [line for line in warnings_in(done) if "left out" in line]
    assert len(shared_name_warning(done, "org/m", impostor, victim)) == 1, warnings_in(done)
    # the control: a maintainer's name is the identity, so the later run of that name is the one used
    done = leaderboard(victim, impostor, "--names", "org/m,org/m", "--out", str(tmp_path / "named"))
    assert [(r["model"], r["headline"], r["rank"]) for r in board(tmp_path / "named")] == [("org/m", 100.0, 1)]
    assert not shared_name_warning(done, "org/m", impostor, victim)


def test_a_submission_under_another_ones_model_name_with_another_seed_is_pooled_with_nothing(tmp_path):
    """Issue 49: outside a round, a second RUN_DIR under the victim's model name with another seed was pooled
    into the victim's row as that model's other seed (its headline 100 became 50); then both were listed apart,
    unranked. A row is one submitter's: each folder's stays ranked with its own seeds."""
    victim = named(tmp_path / "victim", "org/m", [1, 1, 1, 1])
    impostor = named(tmp_path / "impostor", "org/m", [0, 0, 0, 0], seed=1, stamp=LATER)
    site = tmp_path / "site"
    done = leaderboard(victim, impostor, "--out", str(site))
    assert done.returncode == 0, done.stderr[-2000:]
    assert [(r["model"], r["headline"], r["seeds"], r["rank"]) for r in board(site)] == [
        (shared("org/m", victim), 100.0, [0], 1), (shared("org/m", impostor), 0.0, [1], 2)]
    assert len(shared_name_warning(done, "org/m", impostor, victim)) == 1, warnings_in(done)
    # the controls: one submitter's two seeds (one RUN_DIR) are pooled, and so are the runs a maintainer names alike
    mine = tmp_path / "mine"
    named(mine / "seed0", "org/m", [1, 1, 1, 1])
    named(mine / "seed1", "org/m", [0, 0, 0, 0], seed=1, stamp=LATER)
    for folders in ((str(mine),), (victim, impostor, "--names", "org/m,org/m")):
        done = leaderboard(*folders, "--out", str(tmp_path / "pooled"))
        assert done.returncode == 0, done.stderr[-2000:]
        assert [(r["headline"], r["seeds"], r["rank"]) for r in board(tmp_path / "pooled")] == [(50.0, [0, 1], 1)]


def test_a_submitted_name_that_reads_like_anothers_label_is_labelled_again(tmp_path):
    """A name may itself read like the label a shared name gets: no two folders ever share a row."""
    victim = named(tmp_path / "victim", "org/m", [1, 1, 1, 1])
    impostor = named(tmp_path / "impostor", "org/m", [0, 0, 0, 0])
    mimic = named(tmp_path / "mimic", shared("org/m", victim), [0, 0, 0, 0])
    done = leaderboard(victim, impostor, mimic, "--out", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    rows = board(tmp_path / "site")
    assert len({r["model"] for r in rows}) == 3 and [r["rank"] for r in rows] == [1, 2, 2]
    assert rows[0]["model"] == shared("org/m", victim) and rows[0]["headline"] == 100.0
    assert shared(shared("org/m", victim), mimic) in {r["model"] for r in rows}
    # alone beside the victim (no name shared), the label-like name still shows whose it is
    done = leaderboard(named(tmp_path / "alone", "org/m", [1, 1, 1, 1]), mimic, "--out", str(tmp_path / "two"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert [r["model"] for r in board(tmp_path / "two")] == ["org/m", shared(shared("org/m", victim), mimic)]


def test_a_look_alike_letter_in_a_model_name_shows_escaped(tmp_path):
    """A hub's model names are ASCII: a Cyrillic letter o (U+043E) for the Latin one made a row that read as
    the victim's."""
    victim = named(tmp_path / "victim", "org/model", [1, 1, 1, 1])
    impostor = named(tmp_path / "impostor", "org/m\u043edel", [0, 0, 0, 0])
    done = leaderboard(victim, impostor, "--out", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert [r["model"] for r in board(tmp_path / "site")] == ["org/model", "org/m\\u043edel"]


def test_ascii_names_that_look_alike_are_named_in_one_warning_line(tmp_path):
    """Red team 6: "meta-IIama/m" (two capital I) beside "meta-llama/m" made a row that read as the victim's; a hub's
    names are ASCII, so no escape shows it. The rows stay apart, and one warning line names both with their folders;
    names that merely share a prefix, or one folder's own runs, give none."""
    victim = named(tmp_path / "victim", "meta-llama/m", [1, 1, 1, 1])
    impostor = named(tmp_path / "impostor", "META-IIama/rn", [0, 0, 0, 0])
    other = named(tmp_path / "other", "meta-llama/m2", [0, 0, 0, 0])
    done = leaderboard(victim, impostor, other, "--out", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert [r["model"] for r in board(tmp_path / "site")] == ["meta-llama/m", "META-IIama/rn", "meta-llama/m2"]
    alike = [line for line in warnings_in(done) if "look alike" in line]
    assert alike == [f"dynbench leaderboard: warning: the model names META-IIama/rn (in {impostor}) and meta-llama/m "
                     f"(in {victim}) look alike: each is its own row; check who submitted each"], warnings_in(done)
    done = leaderboard(victim, other, "--out", str(tmp_path / "apart"))  # the control: alike only in a prefix
    assert done.returncode == 0 and not [line for line in warnings_in(done) if "look alike" in line], done.stderr


def test_a_folder_named_to_read_as_anothers_gets_a_warning_line(tmp_path):
    """Runs of one model name from two folders are two rows, each labelled with its folder: a folder named to read
    as the victim's ("wiIliam", a capital I, beside "william") made two labels that read as one, and the submitted
    names are equal, so no look-alike line named them. One line names both labels; folders that differ plainly
    give none."""
    victim = named(tmp_path / "william", "org/m", [1, 1, 1, 1])
    impostor = named(tmp_path / "wiIliam", "org/m", [0, 0, 0, 0])
    done = leaderboard(victim, impostor, "--out", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(r["model"] for r in board(tmp_path / "site")) == [f"org/m (in {impostor})", f"org/m (in {victim})"]
    alike = [line for line in warnings_in(done) if "look alike" in line]
    assert alike == [f"dynbench leaderboard: warning: the row labels org/m (in {impostor}) and org/m (in {victim}) "
                     "look alike: each is its own submitter's row; check who submitted each"], warnings_in(done)
    other = named(tmp_path / "walter", "org/m", [0, 0, 0, 0])
    done = leaderboard(victim, other, "--out", str(tmp_path / "apart"))  # the control
    assert done.returncode == 0 and not [line for line in warnings_in(done) if "look alike" in line], done.stderr


def test_a_space_no_one_sees_in_a_model_name_shows_escaped(tmp_path):
    """Red team 4: "org/model " (a space at the end), " org/model" and "org/model\t" showed as "org/model" in
    Markdown and HTML, which trim them; "org/mo  del" showed as "org/mo del" in HTML, which collapses them."""
    victim = named(tmp_path / "victim", "org/model", [1, 1, 1, 1])
    spaced = ["org/model ", " org/model", "org/model\t", "org/mo  del", "org/my model"]
    folders = [named(tmp_path / f"spaced{i}", name, [0, 0, 0, 0]) for i, name in enumerate(spaced)]
    done = leaderboard(victim, *folders, "--out", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    shown = [r["model"] for r in board(tmp_path / "site")]
    assert shown[0] == "org/model"
    assert sorted(shown[1:]) == sorted(["org/model\\x20", "\\x20org/model", "org/model\\x09",
                                        "org/mo\\x20\\x20del", "org/my model"])
    page = (tmp_path / "site" / "index.html").read_text()
    assert page.count(">org/model<") == 1, "a look-alike of the victim's name on the page"


# GitHub-flavoured Markdown's extended autolinks, as its spec finds them in text: a scheme's "://", "www." and
# an e-mail address.
# Red team 6: a mention, an emoji's shortcode (the look of the table's own marks) and GitHub's math.
AUTOLINKED = re.compile(r"(?i)\b(?:https?|ftp)://|\bwww\.|[\w.+-]+@[\w-]+\.[\w-]|(?<![\w`>])@\w|:\w+:|(?<!\\)\$")


def test_a_url_in_a_model_name_is_no_link_in_markdown(tmp_path):
    """Issue 49: a bare URL in a model name was a link in leaderboard.md as GitHub shows it; red team 6: so were a
    mention, and an emoji's shortcode and math showed as something else."""
    hostile = ["https://evil.example/login", "see www.evil.example", "admin@evil.example", "HTTP://evil.example",
               "@octocat", ":warning: unverified", "$x^{99}$"]
    assert all(AUTOLINKED.search(name) for name in hostile)  # what the check finds, unescaped
    folders = [named(tmp_path / f"hostile{i}", name, [1, 0, 0, 0]) for i, name in enumerate(hostile)]
    done = leaderboard(*folders, named(tmp_path / "plain", "org/plain-model@v2", [1, 1, 0, 0]), "--out",
                       str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    text = (tmp_path / "site" / "leaderboard.md").read_text()
    assert AUTOLINKED.findall(text) == []
    # the control: every name is in its row, as written once the escapes are read
    rows = [line for line in text.splitlines() if line.startswith("| 1 | ") or line.startswith("| 2 | ")]
    shown = {re.sub(r"\\(.)|<span>([@:])</span>", r"\1\2", row.split(" | ")[1]) for row in rows}
    assert shown == {*hostile, "org/plain-model@v2"}, rows


def test_tied_models_share_a_rank_in_every_file(tmp_path):
    folders = [named(tmp_path / "a", "model-a", [1, 1, 0, 0]), named(tmp_path / "b", "model-b", [1, 1, 0, 0]),
               named(tmp_path / "c", "model-c", [1, 0, 0, 0])]
    done = leaderboard(*folders, "--out", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert [(r["model"], r["rank"]) for r in board(tmp_path / "site")] == [("model-a", 1), ("model-b", 1),
                                                                          ("model-c", 3)]
    with (tmp_path / "site" / "leaderboard.csv").open(newline="") as handle:
        assert [row["rank"] for row in csv.DictReader(handle)] == ["1", "1", "3"]
    page = (tmp_path / "site" / "index.html").read_text()
    assert page.count("<tr><td data-sort='1.0'>1</td>") == 2 and "<td data-sort='3.0'>3</td>" in page
    assert "| 1 | model-b |" in (tmp_path / "site" / "leaderboard.md").read_text()


DEEP = "{\"a\": " * 200_000 + "1" + "}" * 200_000


def test_json_nested_past_any_stack_is_one_line_per_file(tmp_path):
    control = named(tmp_path / "control", "model-b", [1, 0, 0, 0])
    deep_results = named(tmp_path / "deep", "model-d", [1, 1, 0, 0])
    results = next(Path(deep_results).glob("results_*.json"))
    results.write_text(results.read_text()[:-1] + f', "deep": {DEEP}}}')
    done = leaderboard(control, deep_results, "--out", str(tmp_path / "site"))
    assert done.returncode == 2 and done.stderr.splitlines() == [
        f"dynbench leaderboard: error: {results}: not an lm-eval results file (nested deeper than 64 levels)"]

    deep_sample = named(tmp_path / "sample", "model-s", [1, 1, 0, 0])
    samples = next(Path(deep_sample).glob("samples_cruxeval_newinput_*.jsonl"))
    samples.write_text(samples.read_text() + DEEP + "\n")
    done = leaderboard(control, deep_sample, "--out", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert {r["model"]: r["headline"] for r in board(tmp_path / "site")} == {"model-b": 25.0, "model-s": 50.0}


# ---------------------------------------------------------------------------------- rounds
def scripted_run(out: Path, data: str) -> Path:
    """A real lm_eval CLI run of orig and newinput, seed 3, dynbench's default settings otherwise, every
    document (a round ranks no partial run), against a scripted server."""
    from scripted_server import ScriptedServer

    with ScriptedServer(lambda prompt, sample: "[1, 2]") as server:
        done = subprocess.run(
            [sys.executable, "-m", "lm_eval", "--model", "local-completions", "--model_args",
             f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,tokenized_requests=False",
             "--tasks", "cruxeval_orig,cruxeval_newinput", "--confirm_run_unsafe_code",
             "--log_samples", "--output_path", str(out), "--metadata", json.dumps({"data_dir": data, "seed": 3})],
            capture_output=True, text=True, cwd=out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def round_runs(tmp_path_factory, small_data) -> dict[str, str]:
    """The real run, and copies of it whose provenance claims other settings than the round's."""
    import shutil

    honest = scripted_run(tmp_path_factory.mktemp("honest"), small_data)
    changes = {
        "ids": lambda p: p.update(ids=["sample_0", "sample_1"]),
        "timeout": lambda p: p.update(timeout=30.0),
        "rules": lambda p: p.pop("judging_rules", None),
        "data": lambda p: p["data"].update(sha256="0" * 64),
    }
    folders = {"honest": str(honest)}
    for name, change in changes.items():
        copy = tmp_path_factory.mktemp(name)
        shutil.copytree(honest, copy, dirs_exist_ok=True)
        _edit_results(copy, lambda r, change=change: [change(c["metadata"]["dynbench"]) for c in r["configs"].values()])
        folders[name] = str(copy)
    max_tokens = tmp_path_factory.mktemp("tokens")
    shutil.copytree(honest, max_tokens, dirs_exist_ok=True)
    _edit_results(max_tokens, lambda r: [c["generation_kwargs"].update(max_gen_toks=4096) for c in r["configs"].values()])
    folders["tokens"] = str(max_tokens)
    return folders


@pytest.mark.slow
def test_a_round_ranks_only_runs_made_with_all_of_it(round_runs, small_data, tmp_path):
    names = list(round_runs)
    done = leaderboard(*round_runs.values(), "--names", ",".join(names), "--out", str(tmp_path / "site"), "--seed",
                       "3", "--data-dir", small_data)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {r["model"]: r for r in board(tmp_path / "site")}
    assert rows["honest"]["rank"] == 1 and rows["honest"]["verification"] == "verified"  # the control
    expected = {"ids": "ids [\"sample_0\", \"sample_1\"] (the round's: [])", "timeout": "timeout 30.0 (the round's: 3.0)",
                "rules": f"judging rules 1 (the round's: {JUDGING_RULES})", "data": "data digest " + "0" * 21 + "... (the round's:",
                "tokens": "generation settings max_gen_toks 4096 (the round's: 256)"}
    for name, reason in expected.items():
        assert rows[name]["rank"] is None and reason in rows[name]["not_ranked"], (name, rows[name]["not_ranked"])
        assert "\n" not in rows[name]["not_ranked"]
    # Outside a round every run is compared, and each one not made with dynbench's defaults is warned about.
    done = leaderboard(*round_runs.values(), "--names", ",".join(names), "--out", str(tmp_path / "open"),
                       "--data-dir", small_data)
    warned = [line for line in warnings_in(done) if "not made with dynbench's default settings" in line]
    assert done.returncode == 0 and len(warned) == 2 * 5, warned
    assert sum(line.startswith("dynbench leaderboard: warning: ids, cruxeval_") and "ids [" in line
               for line in warned) == 2, warned


def doctored(samples_and_results_of: Path, folder: Path) -> str:
    """A copy of a real run whose every answer stands, but whose results and samples claim pass@1 = 1."""
    import shutil

    shutil.copytree(samples_and_results_of, folder)
    for samples in folder.rglob("samples_*.jsonl"):
        lines = [json.loads(line) for line in samples.read_text().splitlines()]
        samples.write_text("".join(json.dumps({**line, "pass@1": 1.0}) + "\n" for line in lines))
    _edit_results(folder, lambda r: [metrics.update({"pass@1,sandbox": 1.0}) for metrics in r["results"].values()])
    return str(folder)


@pytest.mark.slow
def test_a_round_ranks_no_doctored_run(round_runs, small_data, tmp_path):
    """Issue 30: a run whose files claim 100 though its answers are wrong ranked #1, marked unverified."""
    folders = [round_runs["honest"], doctored(Path(round_runs["honest"]), tmp_path / "doctored")]
    done = leaderboard(*folders, "--names", "honest,doctored", "--out", str(tmp_path / "open"), "--data-dir",
                       small_data)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {r["model"]: r for r in board(tmp_path / "open")}
    # the control: outside a round every row is ranked, and the doctored one is marked unverified
    assert (rows["doctored"]["rank"], rows["doctored"]["headline"], rows["doctored"]["verification"]) == (
        1, 100.0, "unverified")
    done = leaderboard(*folders, "--names", "honest,doctored", "--out", str(tmp_path / "round"), "--seed", "3",
                       "--data-dir", small_data)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {r["model"]: r for r in board(tmp_path / "round")}
    assert (rows["honest"]["rank"], rows["honest"]["verification"]) == (1, "verified")
    assert rows["doctored"]["rank"] is None and rows["doctored"]["not_ranked"].startswith("cruxeval_")
    assert ": failed: " in rows["doctored"]["not_ranked"] and "\n" not in rows["doctored"]["not_ranked"]
    apart = (tmp_path / "round" / "leaderboard.md").read_text().split("Not ranked on cruxeval:")[1]
    assert f"| {markdown_cell(rows['doctored']['not_ranked'])} | doctored |" in apart


@pytest.mark.slow
def test_a_run_under_the_victims_name_and_seed_leaves_the_victim_ranked_in_a_round(round_runs, small_data, tmp_path):
    """Issue 49: in a round, a doctored copy under the victim's model name and seed in another folder listed the
    victim apart, "claimed by 2 submissions", unranked. Each folder is its own row: the victim keeps rank 1."""
    victim = round_runs["honest"]
    impostor = doctored(Path(victim), tmp_path / "impostor")
    done = leaderboard(victim, impostor, "--out", str(tmp_path / "round"), "--seed", "3", "--data-dir", small_data)
    assert done.returncode == 0, done.stderr[-2000:]
    name = json.loads(next(Path(victim).rglob("results_*.json")).read_text())["model_name"]
    rows = {r["model"]: r for r in board(tmp_path / "round")}
    mine = rows[shared(name, victim)]
    assert (mine["rank"], mine["verification"], mine["not_ranked"]) == (1, "verified", "")
    theirs = rows[shared(name, impostor)]
    assert theirs["rank"] is None and ": failed: " in theirs["not_ranked"]
    assert len(shared_name_warning(done, name, victim, impostor)) == 1, warnings_in(done)
