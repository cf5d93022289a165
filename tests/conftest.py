import shutil
from pathlib import Path
from textwrap import dedent

import pytest

from mutators import ProgramKind, mutate
from mutators.execution import Sandbox

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory) -> Path:
    """A data folder holding the bundled benchmark files, uncompressed (what users keep beside a clone)."""
    from dynbench_tasks.benchmarks import BENCHMARKS, WITH_OWN_PROGRAMS
    from dynbench_tasks.benchmarks.records import read_data_file

    folder = tmp_path_factory.mktemp("data")
    for benchmark in (BENCHMARKS[name] for name in WITH_OWN_PROGRAMS):
        (folder / benchmark.filename).write_text(read_data_file(benchmark.filename, None).text, encoding="utf-8")
    return folder


@pytest.fixture(autouse=True)
def _no_data_folder_from_outside(monkeypatch):
    """Tests choose their data themselves: the bundled copy unless they pass a folder."""
    monkeypatch.delenv("DYNBENCH_DATA_DIR", raising=False)


@pytest.fixture(scope="session")
def sandbox():
    with Sandbox(workers=2) as box:
        yield box


def rewrite(chain: str, before: str, seed: int = 0, **kwargs) -> str:
    """Mutate a dedented function program and return the new source."""
    kwargs.setdefault("kind", ProgramKind.FUNCTION)
    kwargs.setdefault("entry_point", "f")
    return mutate(dedent(before), chain, seed, **kwargs).code


def check(chain: str, before: str, after: str, seed: int = 0, **kwargs) -> None:
    assert rewrite(chain, before, seed, **kwargs) == dedent(after)


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> Path:
    from tiny_model import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny-gpt2"))


@pytest.fixture(scope="session")
def small_data(tmp_path_factory, data_dir) -> str:
    """The first 40 CRUXEval problems, so that every variant builds in seconds."""
    folder = tmp_path_factory.mktemp("cruxeval40")
    lines = (data_dir / "cruxeval.jsonl").read_text().splitlines()[:40]
    (folder / "cruxeval.jsonl").write_text("\n".join(lines) + "\n")
    return str(folder)


CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-default-apps", "--disable-extensions"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Headless Chromium (Debian's, with its driver), as the page tests open pages."""
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


def browser_errors(driver) -> list[dict]:
    """The page's console errors."""
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


@pytest.fixture(scope="module")
def seeded_sandboxes():
    """Two sandboxes with different hash seeds, as the answer-changing operators check outputs."""
    from mutators.execution import Sandbox

    with Sandbox(workers=1, hash_seed=1) as first, Sandbox(workers=1, hash_seed=2) as second:
        yield first, second
