"""The report page and the view pages opened in headless Chromium at 1280 px: no console errors, no
sideways scroll, every link resolves, the flips switch works. The runs are synthetic but their programs
are real: benchmark programs mutated by the engine, answers in the benchmarks' own formats. With
DYNBENCH_SCREENSHOTS=DIR set, each page's first screen is saved there (report.png, view_cruxeval.png,
view_translation.png)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import browser_errors
from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.benchmarks.records import read_data_file
from mutators import mutate

pytestmark = pytest.mark.slow

STAMP = "2026-12-01T09-00-00.000000"
WIDTH = 1280
# Which documents each model passes (by position), per task: enough flips both ways to read.
CRUXEVAL_IDS = range(6)
AVATAR_IDS = (12, 0, 1, 2)  # avatar 12 has a 134-character line


def _records(benchmark: str, positions) -> list[dict]:
    lines = read_data_file(BENCHMARKS[benchmark].filename, None).text.splitlines()
    return [json.loads(lines[i]) for i in positions]


def _first_number_edited(code: str) -> tuple[str, str]:
    """A stand-in for NewOutput's edit: the first integer literal plus one, and its description."""
    lines = code.splitlines(keepends=True)
    for number, line in enumerate(lines, 1):
        match = re.search(r"(?<![\w.])(\d+)(?![\w.])", line)
        if match:
            new = str(int(match.group(1)) + 1)
            lines[number - 1] = line[:match.start()] + new + line[match.end():]
            return "".join(lines), f"line {number}: {match.group(1)} -> {new}"
    return code, ""


def _sample(doc: dict, answers: list[str], statuses: list[str], raw: bool) -> dict:
    passed = sum(status == "passed" for status in statuses) / len(statuses)
    if raw:  # translation: the score keeps the status, the answer is the model's response
        return {"doc": doc, "resps": [answers], "filtered_resps": [[json.dumps({"status": s}) for s in statuses]],
                "pass@1": passed}
    return {"doc": doc, "filtered_resps": [[json.dumps({"answer": a, "status": s}) for a, s in
                                            zip(answers, statuses, strict=True)]], "pass@1": passed}


def _cruxeval(variant: str, passes: list[bool]) -> list[dict]:
    spec, samples = BENCHMARKS["cruxeval"], []
    for record, passed in zip(_records("cruxeval", CRUXEVAL_IDS), passes, strict=True):
        program = spec.program(record)
        doc = {"id": record["id"], "code": record["code"], "original_code": record["code"], "input": record["input"],
               "original_input": record["input"], "output": record["output"], "original_output": record["output"],
               "mutation": {"status": "original", "chain": "", "seed": 0, "changed_answers": []}}
        if variant != "orig":
            result = mutate(program.code, "F+U+V2", 0, kind=program.kind, entry_point=program.entry_point,
                            call_arguments=program.call_arguments)
            doc.update(code=result.code, input=result.call_arguments or record["input"],
                       mutation={"status": result.status, "chain": "F+U+V2", "seed": 0, "changed_answers": []})
        wrong = "'a'" if record["output"] != "'a'" else "0"
        samples.append(_sample(doc, [doc["output"] if passed else wrong, wrong], ["passed" if passed else "wrong",
                                                                                 "wrong"], raw=False))
    return samples


def _avatar(variant: str, passes: list[bool]) -> list[dict]:
    spec, samples = BENCHMARKS["avatar"], []
    for record, passed in zip(_records("avatar", AVATAR_IDS), passes, strict=True):
        program = spec.program(record)
        doc = {"id": record["id"], "python": record["python"], "original_python": record["python"],
               "java": record["java"], "mutation": {"status": "original", "chain": "", "seed": 0}}
        if variant != "orig":
            code = mutate(program.code, "F+U+V2", 0, kind=program.kind).code
            mutation = {"status": "mutated", "chain": "F+U+V2", "seed": 0}
            if variant == "fuvo":  # the answer changes: the reference Java no longer applies
                code, edit = _first_number_edited(code)
                mutation.update(chain="F+U+V2+O", edit=edit, changed_answers=["output"])
            doc.update(python=code, mutation=mutation)
        answers = [record["java"], record["java"].replace("{", "{ // " + "a very long comment " * 8, 1)]
        samples.append(_sample(doc, answers, ["passed" if passed else "wrong_output", "compile_error"], raw=True))
    return samples


def write_page_run(folder: Path, model: str, tasks: dict[str, list[dict]]) -> Path:
    """An lm-eval output folder holding ``tasks`` (name -> logged samples)."""
    folder.mkdir(parents=True, exist_ok=True)
    results, configs = {}, {}
    for task, samples in tasks.items():
        for position, sample in enumerate(samples):
            sample["doc_id"] = position
        (folder / f"samples_{task}_{STAMP}.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
        results[task] = {"pass@1,sandbox": sum(s["pass@1"] for s in samples) / len(samples)}
        built = 800 if task.startswith("cruxeval") else 250  # the task's size: these runs used --limit
        configs[task] = {"metadata": {"dynbench": {"seed": 0, "counts": {"mutated": built - 10, "unchanged": 10,
                                                                           "scored": built - 10}}}}
    (folder / f"results_{STAMP}.json").write_text(json.dumps({"results": results, "configs": configs,
                                                              "model_name": f"/models/{model}"}))
    return folder


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("pages")
    yes, no = True, False
    write_page_run(root / "a", "model-a", {
        "cruxeval_orig": _cruxeval("orig", [yes, yes, yes, no, yes, no]),
        "cruxeval_fuv": _cruxeval("fuv", [yes, no, yes, no, no, yes]),
        "cruxeval_newoutput": _cruxeval("orig", [no, yes, no, no, yes, no])[:5],  # scores only (not viewed)
        "avatar_orig": _avatar("orig", [yes, yes, no, yes]),
        "avatar_fuv": _avatar("fuv", [yes, no, no, yes]),
        "avatar_fuvo": _avatar("fuvo", [no, no, no, yes]),
    })
    write_page_run(root / "b", "model-b", {
        "cruxeval_orig": _cruxeval("orig", [yes, no, yes, no, no, no]),
        "cruxeval_fuv": _cruxeval("fuv", [yes, no, no, no, no, no]),
        "cruxeval_newoutput": _cruxeval("orig", [no, no, no, no, yes, no])[:5],
    })
    cli = [sys.executable, "-m", "dynbench_tasks.cli"]
    commands = [
        [*cli, "report", str(root / "a"), str(root / "b"), "--out", str(root / "report")],
        [*cli, "view", str(root / "a"), "--variant", "cruxeval_fuv", "--out", str(root / "views" / "new")],
        [*cli, "view", str(root / "a"), "--variant", "avatar_fuvo", "--out", str(root / "views" / "avatar.html")],
    ]
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    return {"report": root / "report" / "report.html", "view_cruxeval": root / "views" / "new" / "cruxeval_fuv.html",
            "view_translation": root / "views" / "avatar.html"}


def _links_resolve(driver, page: Path) -> list[str]:
    """Every link's target: an element of this page, or a file beside it."""
    broken = []
    for link in driver.execute_script("return [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))"):
        if link.startswith("#"):
            if not driver.execute_script("return document.getElementById(arguments[0]) !== null", link[1:]):
                broken.append(link)
        elif not (page.parent / link.split("#")[0]).exists():
            broken.append(link)
    return broken


@pytest.mark.parametrize("name", ["report", "view_cruxeval", "view_translation"])
def test_the_page_reads_at_1280_px(browser, pages, name):
    browser.set_window_size(WIDTH, 1000)
    browser.get(pages[name].as_uri())
    assert browser_errors(browser) == []
    assert browser.execute_script("return window.innerWidth") == WIDTH
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    assert _links_resolve(browser, pages[name]) == []
    if os.environ.get("DYNBENCH_SCREENSHOTS"):
        folder = Path(os.environ["DYNBENCH_SCREENSHOTS"])
        folder.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(folder / f"{name}.png"))


def test_pages_of_a_real_lm_eval_run(browser, tmp_path, small_data):
    """A real run (the lm_eval CLI against a scripted server, --limit 4 of the 40 documents): the report
    counts the 4 scored documents, not the task's size; the view takes the variant alone, creates its
    folder, and its page reads at 1280 px."""
    from test_verify import make_run

    (tmp_path / "run").mkdir()
    run = make_run(tmp_path / "run", small_data, "--limit", "4")
    cli = [sys.executable, "-m", "dynbench_tasks.cli"]
    done = subprocess.run([*cli, "report", str(run), "--out", str(tmp_path / "report")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    coverage = (tmp_path / "report" / "report.md").read_text().split("### Coverage")[1]
    assert "| orig | scripted | — | — | — | — | — | 40 | 4 | logged samples |" in coverage
    done = subprocess.run([*cli, "view", str(run), "--variant", "fuv", "--out", str(tmp_path / "views")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    page = tmp_path / "views" / "cruxeval_fuv.html"
    assert done.stdout.strip() == str(page)
    for shown in (page, tmp_path / "report" / "report.html"):
        browser.set_window_size(WIDTH, 1000)
        browser.get(shown.as_uri())
        assert browser_errors(browser) == []
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), shown
        assert _links_resolve(browser, shown) == []
    browser.get(page.as_uri())
    sections = lambda: [s for s in browser.find_elements("css selector", "section") if s.is_displayed()]  # noqa: E731
    assert len(sections()) == 4
    browser.find_element("css selector", "input[type=checkbox]").click()  # only the outcome flips
    flips = browser.execute_script("return document.querySelectorAll(\"section[data-flip='1']\").length")
    assert len(sections()) == flips and browser_errors(browser) == []


def test_pages_that_leave_samples_out_say_so_and_still_read_at_1280_px(browser, tmp_path):
    """A run with samples of the wrong shape, in a folder with a long name: the view and the report name
    the samples left out, in lines that wrap rather than widen the page."""
    folder = tmp_path / ("a-folder-with-a-long-name-" * 8) / "run"
    write_page_run(folder, "model-a", {"cruxeval_orig": _cruxeval("orig", [True] * 6),
                                       "cruxeval_fuv": _cruxeval("fuv", [True, False] * 3)})
    samples = folder / f"samples_cruxeval_fuv_{STAMP}.jsonl"
    lines = samples.read_text().splitlines()
    samples.write_text("\n".join(["[]", '{"doc": 5}', *lines[2:]]) + "\n")
    cli = [sys.executable, "-m", "dynbench_tasks.cli"]
    for command in (["view", str(folder), "--variant", "fuv", "--out", str(tmp_path / "view.html")],
                    ["report", str(folder), "--out", str(tmp_path / "report")]):
        done = subprocess.run([*cli, *command], capture_output=True, text=True)
        assert done.returncode == 0 and "2 of 6 logged samples left out" in done.stderr, done.stderr
    for page in (tmp_path / "view.html", tmp_path / "report" / "report.html"):
        browser.set_window_size(WIDTH, 1000)
        browser.get(page.as_uri())
        assert browser_errors(browser) == []
        assert "2 of 6 logged samples left out" in browser.find_element("tag name", "body").text
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), page
