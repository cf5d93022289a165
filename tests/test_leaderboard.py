"""The leaderboard on synthetic runs whose figures are worked out by hand, and on a real verified run;
then its page and the report's opened in headless Chromium."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_report import write_run

from dynbench_tasks.analysis.leaderboard import build_rows, write_leaderboard
from dynbench_tasks.analysis.runs import load_runs


@pytest.fixture
def board_runs(tmp_path) -> list[str]:
    # model-a: two seeds; its dynamic pass@1 is 25 (fuv 0, auv 50) with seed 0 and 75 with seed 1.
    write_run(tmp_path / "a0", "model-a", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_fuv": [0, 0, 0, 0],
                                            "cruxeval_auv": [1, 1, 0, 0], "cruxeval_output": [1, 0, 0, 0]}, seed=0)
    write_run(tmp_path / "a1", "model-a", {"cruxeval_orig": [1, 1, 1, 1], "cruxeval_fuv": [1, 1, 1, 0],
                                            "cruxeval_auv": [1, 1, 1, 0]}, seed=1, stamp="2026-11-30T11-00-00.000000")
    write_run(tmp_path / "b", "model-b", {"cruxeval_orig": [1, 0, 0, 0], "cruxeval_fuv": [1, 1, 1, 1]})
    return [str(tmp_path / d) for d in ("a0", "a1", "b")]


def test_rows_rank_by_dynamic_pass_pool_seeds_and_show_the_gap(board_runs):
    rows = {row.model: row for row in build_rows(load_runs(board_runs), {}, {})}
    a, b = rows["model-a"], rows["model-b"]
    assert a.dynamic == pytest.approx(50.0) and a.dynamic_sd == pytest.approx(35.355, abs=1e-3) and a.seeds == [0, 1]
    assert a.static == pytest.approx(100.0) and a.harness == pytest.approx(25.0)
    # per document: static 1 everywhere, dynamic the mean over the four variant runs that scored it
    assert a.gap == pytest.approx(100 - (0.75 + 0.75 + 0.5 + 0) / 4 * 100)
    assert a.gap_low <= a.gap <= a.gap_high
    assert (b.rank, a.rank) == (1, 2) and b.dynamic == pytest.approx(100.0) and b.gap == pytest.approx(-75.0)
    assert a.verification == "unverified"  # synthetic runs carry no provenance to verify


def test_the_site_is_written_whole(board_runs, tmp_path):
    written = write_leaderboard(load_runs(board_runs), {}, tmp_path / "site")
    assert [p.name for p in written] == ["index.html", "leaderboard.json", "leaderboard.csv", "leaderboard.md"]
    page = (tmp_path / "site" / "index.html").read_text()
    assert "<script>" in page and "http" not in page.replace("http-equiv", "")  # nothing fetched from anywhere
    table = json.loads((tmp_path / "site" / "leaderboard.json").read_text())
    assert [row["model"] for row in table] == ["model-b", "model-a"]
    assert all((tmp_path / "site" / row["view"]).is_file() for row in table)
    assert "lm-eval's own task" in (tmp_path / "site" / "leaderboard.md").read_text()


CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-default-apps", "--disable-extensions"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    yield driver
    driver.quit()


def _errors(driver) -> list[dict]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def test_the_leaderboard_page_works_in_a_real_browser(browser, board_runs, tmp_path):
    from selenium.webdriver.common.by import By

    write_leaderboard(load_runs(board_runs), {}, tmp_path / "site")
    browser.get((tmp_path / "site" / "index.html").as_uri())
    assert _errors(browser) == []
    models = lambda: [row.find_elements(By.TAG_NAME, "td")[1].text  # noqa: E731
                      for row in browser.find_elements(By.CSS_SELECTOR, "table#cruxeval tbody tr")]
    assert models() == ["model-b", "model-a"]
    headers = browser.find_elements(By.CSS_SELECTOR, "table#cruxeval th")
    headers[3].click()  # static pass@1: descending first, so model-a (100) moves to the top
    assert models() == ["model-a", "model-b"]
    headers[3].click()
    assert models() == ["model-b", "model-a"]
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "table#cruxeval a")]
    assert len(links) == 2
    for link in links:
        browser.get(link)
        assert _errors(browser) == [] and browser.find_elements(By.TAG_NAME, "section"), link
        browser.find_element(By.CSS_SELECTOR, "input[type=checkbox]").click()  # the flips-only switch runs
        assert _errors(browser) == []


def test_the_report_page_loads_in_a_real_browser(browser, board_runs, tmp_path):
    from selenium.webdriver.common.by import By

    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "report", *board_runs, "--out",
                           str(tmp_path / "report")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    browser.get((tmp_path / "report" / "report.html").as_uri())
    assert _errors(browser) == []
    assert browser.find_elements(By.TAG_NAME, "table") and browser.find_element(By.TAG_NAME, "img").size["width"] > 0
    assert "(2 seeds)" in browser.page_source


def test_a_leaderboard_of_a_real_run_is_verified(tmp_path, small_data):
    """A real run (the lm_eval CLI against a scripted server, as in tests/test_verify): it verifies, and
    as a --limit run its row says partial."""
    from test_verify import make_run

    (tmp_path / "run").mkdir()
    run = make_run(tmp_path / "run", small_data)
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "leaderboard", str(run), "--out",
                           str(tmp_path / "site")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = json.loads(Path(tmp_path / "site" / "leaderboard.json").read_text())
    assert [r["verification"] for r in rows] == ["partial"]
