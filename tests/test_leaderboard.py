"""The leaderboard on synthetic runs whose figures are worked out by hand, and on a real verified run;
its page and the report's opened in headless Chromium; and submitted text (a model name) that tries
to forge rows or markup in every file the leaderboard writes, each attack beside a control."""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_report import write_run

from conftest import browser_errors
from dynbench_tasks.analysis.leaderboard import COLUMNS, build_rows, write_leaderboard
from dynbench_tasks.analysis.runs import load_runs
from dynbench_tasks.analysis.text import one_line

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out


@pytest.fixture
def board_runs(tmp_path) -> list[str]:
    # model-a's submission, seed 0: headline mean(newinput 0, fuvio 50) = 25; seed 1: mean(75, 75) = 75.
    write_run(tmp_path / "a" / "0", "model-a", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_newinput": [0, 0, 0, 0],
                                                  "cruxeval_fuvio": [1, 1, 0, 0], "cruxeval_fuv": [1, 1, 1, 1],
                                                  "cruxeval_output": [1, 0, 0, 0]}, seed=0)
    write_run(tmp_path / "a" / "1", "model-a", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_newinput": [1, 1, 1, 0],
                                                  "cruxeval_fuvio": [1, 1, 1, 0], "cruxeval_fuv": [1, 1, 1, 0]},
              seed=1, stamp="2026-11-30T11-00-00.000000")
    write_run(tmp_path / "b", "model-b", {"cruxeval_orig": [1, 0, 0, 0], "cruxeval_newinput": [1, 1, 1, 1]})
    # model-c ran only the meaning-preserving fuv: a memoriser passes it, so it earns no headline.
    write_run(tmp_path / "c", "model-c", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_fuv": [1, 1, 1, 1]})
    return [str(tmp_path / d) for d in ("a", "b", "c")]


def test_rows_rank_by_the_contamination_resistant_score(board_runs):
    rows = {row.model: row for row in build_rows(load_runs(board_runs), {})}
    a, b = rows["model-a"], rows["model-b"]
    assert a.headline == pytest.approx(50.0) and a.headline_sd == pytest.approx(35.355, abs=1e-3)
    assert a.seeds == [0, 1] and a.headline_variants == ["newinput", "fuvio"]
    assert a.static == pytest.approx(100.0) and a.harness == pytest.approx(25.0) and a.documents == 4
    # per document: static 1; dynamic the mean over seeds of each seed's mean over its variants
    assert a.drop == pytest.approx(100 - (0.75 + 0.75 + 0.5 + 0) / 4 * 100) == pytest.approx(a.static - a.headline)
    assert a.drop_low <= a.drop <= a.drop_high
    assert a.robustness == pytest.approx((100 + 75) / 2) and a.robustness_variants == ["fuv"]
    assert (b.rank, a.rank) == (1, 2) and b.headline == pytest.approx(100.0) and b.drop == pytest.approx(-75.0)
    assert a.verification == "unverified"  # synthetic runs carry no provenance to verify
    assert not a.run_sizes and not a.greedy  # the synthetic runs record no temperature


def test_a_benchmark_without_an_answer_changing_variant_is_listed_apart_and_says_why(board_runs, tmp_path):
    rows, _ = write_leaderboard(load_runs(board_runs), {}, tmp_path / "site")
    c = next(row for row in rows if row.model == "model-c")
    assert c.rank is None and c.headline is None and c.drop is None
    assert c.static == pytest.approx(100.0) and c.robustness == pytest.approx(100.0)  # shown, never ranked by
    assert c.not_ranked.startswith("no answer-changing variant") and "orig, fuv" in c.not_ranked
    text = (tmp_path / "site" / "leaderboard.md").read_text()
    ranked, apart = text.split("Not ranked on cruxeval:")
    assert "model-c" not in ranked and "model\\-c" not in ranked and "no answer\\-changing variant" not in ranked
    assert "model-c" in apart and "no answer-changing variant" in apart
    assert "Why this headline" in text


def test_on_translation_the_headline_counts_only_answer_changes_under_rewrites(tmp_path):
    """A fine-tuned model copies newoutput's one changed literal into the Java it memorised, so on
    translation newoutput is shown but not counted; fuvo alone makes the headline."""
    write_run(tmp_path / "t", "model-t", {"transcoder_orig": [1, 1, 1, 1], "transcoder_newoutput": [1, 1, 1, 0],
                                           "transcoder_fuvo": [1, 0, 0, 0]})
    write_run(tmp_path / "u", "model-u", {"transcoder_orig": [1, 1, 1, 1], "transcoder_newoutput": [1, 1, 1, 1]})
    write_run(tmp_path / "c", "model-c", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_newoutput": [1, 1, 1, 0]})
    rows = {row.model: row for row in build_rows(load_runs([str(tmp_path / d) for d in "tuc"]), {})}
    t, u, c = rows["model-t"], rows["model-u"], rows["model-c"]
    assert t.headline_variants == ["fuvo"] and t.headline == pytest.approx(25.0) and t.drop == pytest.approx(75.0)
    assert u.headline is None and u.rank is None and "(fuvo)" in u.not_ranked and "newoutput" in u.not_ranked
    assert c.headline_variants == ["newoutput"] and c.headline == pytest.approx(75.0)  # CRUXEval counts it


def test_the_site_is_written_whole(board_runs, tmp_path):
    _, written = write_leaderboard(load_runs(board_runs), {}, tmp_path / "site")
    assert [p.name for p in written] == ["index.html", "leaderboard.json", "leaderboard.csv", "leaderboard.md"]
    page = (tmp_path / "site" / "index.html").read_text()
    assert "<script>" in page and "http" not in page.replace("http-equiv", "")  # nothing fetched from anywhere
    table = json.loads((tmp_path / "site" / "leaderboard.json").read_text())
    assert [(row["model"], row["rank"]) for row in table] == [("model-b", 1), ("model-a", 2), ("model-c", None)]
    assert all((tmp_path / "site" / row["view"]).is_file() for row in table)
    assert "lm-eval's own task" in (tmp_path / "site" / "leaderboard.md").read_text()
    with (tmp_path / "site" / "leaderboard.csv").open() as handle:
        records = list(csv.DictReader(handle))
    assert [r["model"] for r in records] == ["model-b", "model-a", "model-c"]
    assert float(records[0]["drop"]) == pytest.approx(-75.0)  # a number stays a number


# ---------------------------------------------------------------------------------- hostile names
# Issue 18: a model_name holding "|" and a newline added a forged "verified" row and raw HTML to leaderboard.md.
FORGED_ROW = ("evil | 99.00 | 0.00 | +0.00 [+0.00, +0.00] | — | 4 | — | verified |\n"
              "| 1 | forged-model | 100.00 | 100.00 | +0.00 [+0.00, +0.00] | — | 4 | — | verified |\n"
              "<img src=x onerror=alert(1)>")
QUOTES = "q'\" onmouseover='alert(2)' data-x=\"<script>alert(3)</script>"
FORMULA = "=HYPERLINK(\"http://attacker.example\",\"click\")"


def hostile_runs(tmp_path, names: list[str]) -> list[str]:
    """One run per name, written into lm-eval's own model_name field, after a control named "model-b".
    The leaderboard keeps only a path's last part of that field, so names with slashes come in through
    ``--names`` (load_runs' ``names``) instead."""
    folders = []
    for position, name in enumerate(["model-b", *names]):
        folder = tmp_path / f"run{position}"
        write_run(folder, "placeholder", {"cruxeval_orig": [1, 0, 0, 0], "cruxeval_newinput": [1, 1, 0, 0]})
        results = next(folder.glob("results_*.json"))
        content = json.loads(results.read_text())
        content["model_name"] = name
        results.write_text(json.dumps(content))
        folders.append(str(folder))
    return folders


def named_runs(tmp_path, names: list[str]) -> list:
    return load_runs(hostile_runs(tmp_path, ["placeholder"] * len(names)), ["model-b", *names])


def test_a_model_name_cannot_add_rows_or_markup_to_the_markdown(tmp_path):
    from markdown_it import MarkdownIt

    runs = load_runs(hostile_runs(tmp_path, [FORGED_ROW]))
    # the attack reaches the leaderboard intact, but for its letters outside ASCII (a dash) and its line breaks,
    # shown escaped
    assert {r.model for r in runs} == {"model-b", FORGED_ROW.encode("ascii", "backslashreplace").decode()
                                       .replace("\n", "\\x0a")}
    write_leaderboard(runs, {}, tmp_path / "site")
    text = (tmp_path / "site" / "leaderboard.md").read_text()
    table = [line for line in text.splitlines() if line.startswith("|")]
    assert len(table) == 2 + 2  # header, rule, the control and the attacker: no forged row
    assert all(line.replace("\\|", "").count("|") == len(COLUMNS) + 1 for line in table)  # a cell per column
    assert "<img" not in text and sum("forged-model" in line for line in table) == 1
    # Rendered as a Markdown renderer that passes raw HTML through would render it: still two rows, no image.
    rendered = MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    assert "<img" not in rendered and rendered.count("<tr>") == 1 + 2
    assert "&lt;img src=x onerror=alert(1)&gt;" in rendered  # shown as text
    assert "| model-b | 50.00 (seed 0; newinput) |" in text  # the control: an ordinary name is written as it is


def test_spreadsheet_formulas_in_names_are_written_as_text(tmp_path):
    names = [FORMULA, "@SUM(1+1)", "+cmd|' /C calc'!A0", "-2+3", "\t=1+1"]
    write_leaderboard(named_runs(tmp_path, names), {}, tmp_path / "site")
    with (tmp_path / "site" / "leaderboard.csv").open(newline="") as handle:
        records = list(csv.DictReader(handle))
    models = {r["model"] for r in records}
    assert models == {"model-b", *("'" + one_line(name) for name in names)}
    assert all("\n" not in value for r in records for value in r.values())
    assert [r["drop"] for r in records] == ["-25.0"] * len(records)  # a negative number is not taken for a formula


def test_a_model_name_cannot_choose_or_overwrite_a_view_page(tmp_path):
    names = ["../../../evil", "evil a", "evil_a", "x" * 400]
    rows, _ = write_leaderboard(named_runs(tmp_path, names), {}, tmp_path / "site")
    views = {row.model: row.view for row in rows}
    assert len(set(views.values())) == len(views)  # "evil a" and "evil_a" do not share a page
    for model, view in views.items():
        page = (tmp_path / "site" / view).resolve()
        assert page.parent == (tmp_path / "site" / "views").resolve() and len(page.name) < 120
        assert one_line(model)[:40].replace("&", "&amp;") in page.read_text()  # each page shows its own model


def test_malformed_submitted_files_cost_their_own_figures_not_the_board(tmp_path):
    folders = hostile_runs(tmp_path, ["malformed"])
    results_path = next(Path(folders[1]).glob("results_*.json"))
    results = json.loads(results_path.read_text())
    results["configs"]["cruxeval_orig"].update(metadata=["not", "an", "object"], generation_kwargs="hot")
    results["configs"]["cruxeval_newinput"]["metadata"]["dynbench"].update(seed={"x": 1}, counts="many")
    results["n-samples"] = {"cruxeval_orig": {"effective": "4"}, "cruxeval_newinput": []}
    results["results"]["cruxeval_newinput"]["pass@1,sandbox"] = True
    results_path.write_text(json.dumps(results))
    samples_path = next(Path(folders[1]).glob("samples_cruxeval_newinput_*.jsonl"))
    lines = samples_path.read_text().splitlines()
    forged = [json.loads(line) for line in lines]
    for sample, value in zip(forged, [None, "1.0", 5.0, [1]], strict=True):
        sample["pass@1"] = value
    samples_path.write_text("".join(json.dumps(s) + "\n" for s in forged) + "{not json\n" + json.dumps(
        {"doc": "not an object", "pass@1": 1.0}) + "\n" + json.dumps([1, 2]) + "\n")
    runs = load_runs(folders)
    bad = next(r for r in runs if r.model == "malformed" and r.variant == "newinput")
    assert bad.per_document == {} and bad.pass_at_1 is None and len(bad.samples) == 7  # all kept for verify
    rows, _ = write_leaderboard(runs, {}, tmp_path / "site")
    assert [(r.model, r.rank) for r in rows] == [("model-b", 1), ("malformed", None)]  # the control still ranks
    assert rows[1].static == pytest.approx(25.0)
    assert rows[1].not_ranked == "its answer-changing tasks have no score (newinput: failed, or a score out of range)"


def _models(browser, table: str) -> list[str]:
    from selenium.webdriver.common.by import By

    return [row.find_elements(By.TAG_NAME, "td")[1].text
            for row in browser.find_elements(By.CSS_SELECTOR, f"table#{table} tbody tr")]


@pytest.mark.slow
def test_the_leaderboard_page_works_in_a_real_browser(browser, board_runs, tmp_path):
    from selenium.webdriver.common.by import By

    write_leaderboard(load_runs(board_runs), {}, tmp_path / "site")
    browser.get((tmp_path / "site" / "index.html").as_uri())
    assert browser_errors(browser) == []
    assert _models(browser, "cruxeval") == ["model-b", "model-a"]
    assert _models(browser, "cruxeval-not-ranked") == ["model-c"]
    headers = browser.find_elements(By.CSS_SELECTOR, "table#cruxeval th")
    assert headers[2].text == "contamination-resistant score" and headers[4].text.startswith("drop (static - headline)")
    headers[3].click()  # static pass@1: descending first, so model-a (100) moves to the top
    assert _models(browser, "cruxeval") == ["model-a", "model-b"]
    headers[3].click()
    assert _models(browser, "cruxeval") == ["model-b", "model-a"]
    headers[5].click()  # robustness: model-a has 87.50, model-b none (sorted last)
    assert _models(browser, "cruxeval") == ["model-a", "model-b"]
    headers[2].click()
    assert _models(browser, "cruxeval") == ["model-b", "model-a"]
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "table a")]
    assert len(links) == 3
    for link in links:
        browser.get(link)
        assert browser_errors(browser) == [] and browser.find_elements(By.TAG_NAME, "section"), link
        browser.find_element(By.CSS_SELECTOR, "input[type=checkbox]").click()  # the flips-only switch runs
        assert browser_errors(browser) == []


def test_hostile_names_stay_text_on_the_page_and_it_fits_1280_pixels(browser, tmp_path):
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    names = [FORGED_ROW, QUOTES, "a" * 300]
    write_leaderboard(named_runs(tmp_path, names), {}, tmp_path / "site")
    browser.set_window_size(1280, 900)
    browser.get((tmp_path / "site" / "index.html").as_uri())
    assert browser_errors(browser) == []
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 - reading it is the check
    assert browser.find_elements(By.CSS_SELECTOR, "img") == [] and len(browser.find_elements(By.TAG_NAME, "script")) == 1
    handlers = "[onerror],[onmouseover],[onclick],[data-x]"
    assert browser.execute_script(f"return document.querySelectorAll('{handlers}').length") == 0
    shown = sorted(_models(browser, "cruxeval"))
    assert shown == sorted(["model-b", *(one_line(n) for n in names)])  # each name, whole, as text
    assert len(browser.find_elements(By.CSS_SELECTOR, "table#cruxeval tbody tr")) == 4
    assert browser.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    for link in [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "table a")]:
        assert link.startswith((tmp_path / "site" / "views").as_uri() + "/"), link


def test_screenshot_of_the_leaderboard_at_1280_pixels(browser, tmp_path):
    """The page a reader opens: a round, a model without a headline, runs of different sizes. With
    DYNBENCH_SCREENSHOTS=DIR set, the whole page is saved there as leaderboard.png."""
    from selenium.webdriver.common.by import By

    write_run(tmp_path / "a", "model-a", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_newinput": [0, 1, 0, 0],
                                           "cruxeval_fuvio": [1, 0, 0, 0], "cruxeval_fuv": [1, 1, 1, 0],
                                           "cruxeval_output": [1, 0, 0, 0]}, seed=0)
    write_run(tmp_path / "b", "model-b", {"cruxeval_orig": [1, 1, 0, 0], "cruxeval_newinput": [1, 1, 1, 0],
                                           "cruxeval_fuvio": [1, 0]}, seed=0)  # fuvio cut at 2 documents
    write_run(tmp_path / "c", "model-c", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_fuv": [1, 1, 1, 1]}, seed=0)
    write_run(tmp_path / "d", "model-d", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_newinput": [1, 1, 1, 1]}, seed=7)
    write_run(tmp_path / "t", "model-a", {"transcoder_orig": [1, 1, 0, 0], "transcoder_newoutput": [1, 0, 0, 0],
                                           "transcoder_fuvo": [0, 1, 0, 0]}, seed=0)
    for samples in (tmp_path / "t").glob("samples_*.jsonl"):  # a translation's program is its doc's "python"
        lines = [json.loads(line) for line in samples.read_text().splitlines()]
        for line in lines:
            line["doc"]["python"] = line["doc"]["original_python"] = line["doc"]["code"]
        samples.write_text("".join(json.dumps(line) + "\n" for line in lines))
    from test_leaderboard_rounds import GREEDY_ROUND, all_verified, in_round

    from dynbench_tasks.analysis.leaderboard import Round

    for folder in ("a", "b", "c", "d", "t"):
        in_round(tmp_path / folder)
    runs = load_runs([str(tmp_path / d) for d in ("a", "b", "c", "d", "t")])
    write_leaderboard(runs, all_verified(runs), tmp_path / "site", game=Round(0, GREEDY_ROUND))
    browser.set_window_size(1280, 900)
    browser.get((tmp_path / "site" / "index.html").as_uri())
    assert browser_errors(browser) == []
    assert browser.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert browser.find_elements(By.CSS_SELECTOR, "table#transcoder tbody tr")
    if os.environ.get("DYNBENCH_SCREENSHOTS"):  # as in tests/test_pages.py
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(1280, min(height + 140, 2400))
        browser.save_screenshot(str(Path(os.environ["DYNBENCH_SCREENSHOTS"]) / "leaderboard.png"))


@pytest.mark.slow
def test_the_report_page_loads_in_a_real_browser(browser, board_runs, tmp_path):
    from selenium.webdriver.common.by import By

    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "report", *board_runs, "--out",
                           str(tmp_path / "report")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    browser.get((tmp_path / "report" / "report.html").as_uri())
    assert browser_errors(browser) == []
    assert browser.find_elements(By.TAG_NAME, "table") and browser.find_element(By.TAG_NAME, "img").size["width"] > 0
    assert "(2 seeds)" in browser.page_source


@pytest.mark.slow
def test_a_hostile_name_reaches_no_terminal(tmp_path):
    """The command prints each run's verdict, which names the model: escape sequences stay out."""
    folders = hostile_runs(tmp_path, ["evil\x1b[2J\x1b]0;pwned\x07\u202eeman"])
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "leaderboard", *folders, "--out",
                           str(tmp_path / "site")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "\x1b" not in done.stdout + done.stderr and "\u202e" not in done.stdout
    assert "model-b" in done.stdout and "evil" in done.stdout  # the control and the attacker are both listed


@pytest.mark.slow
def test_a_leaderboard_of_a_real_run_is_verified(tmp_path, small_data):
    """A real run (the lm_eval CLI against a scripted server, as in tests/test_verify): it verifies, and
    as a --limit run its row says partial."""
    from test_verify import make_run

    (tmp_path / "run").mkdir()
    run = make_run(tmp_path / "run", small_data, "--limit", "4")
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "leaderboard", str(run), "--out",
                           str(tmp_path / "site"), "--data-dir", small_data], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = json.loads(Path(tmp_path / "site" / "leaderboard.json").read_text())
    assert [r["verification"] for r in rows] == ["partial"]
