"""Answers that are not read are said to be so: lm-eval's results carry the ``unread`` share and the
breakdown of the samples by status, a run warns once per task naming the form of the replies, and
``dynbench report`` and ``dynbench view`` show the same; runs made before the breakdown still report,
view and verify. Real lm_eval runs (Python API and command line) against the scripted server."""

import json
import logging
import math
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import lm_eval
import pytest
from lm_eval.tasks import TaskManager
from scripted_server import ScriptedServer
from test_verify import data_of

from conftest import browser_errors
from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.lmeval.answer_statuses import (
    ANSWER_TAGS,
    CHAT_GUIDE,
    EMPTY,
    FENCE_WITHOUT_ASSERT,
    PROGRAM_WITHOUT_ASSERT,
    PROSE,
    SEVERAL_ANSWERS,
    THINKING_ONLY,
    UNTERMINATED_THINKING,
    Breakdown,
    UnreadShare,
    breakdown_of_shares,
    reply_form,
)
from dynbench_tasks.lmeval.environment import task_directory

TASKS = ["cruxeval_orig", "cruxeval_fuv"]
LIMIT = 3
UNREAD_METRIC = "unread,sandbox"
PROSE_REPLY = "Let me trace the loop. The function keeps every second element, so it returns the list reversed."
HOSTILE = ("\x1b[2J\x1b]0;pwned\x07<script>alert(1)</script>\u202e" + "A" * 1_000_000)


def manager(data: str) -> TaskManager:
    return TaskManager(include_path=task_directory(), include_defaults=False,
                       metadata={"data_dir": data, "timeout": 0.5})


def python_api_run(data: str, answer) -> tuple[dict, list[str]]:
    """lm_eval.simple_evaluate against the scripted server; the dynbench warnings it logged."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger("lm_eval.dynbench")
    logger.addHandler(handler)
    try:
        with ScriptedServer(lambda prompt, sample: answer(prompt, sample)) as server:
            results = lm_eval.simple_evaluate(
                model="local-completions",
                model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
                "tokenized_requests=False,max_retries=1",
                tasks=TASKS, limit=LIMIT, task_manager=manager(data), confirm_run_unsafe_code=True, log_samples=True)
    finally:
        logger.removeHandler(handler)
    return results, [r.getMessage() for r in records if r.levelno == logging.WARNING]


# ---------------------------------------------------------------------------------- reply forms
@pytest.mark.parametrize(("reply", "form"), [
    ("", EMPTY),
    ("  \n\t", EMPTY),
    ("<think>The loop runs twice, so the list", UNTERMINATED_THINKING),
    ("<think>It returns [1].</think>\n", THINKING_ONLY),
    ("<think>hmm</think>The answer is [1].", PROSE),
    ("[ANSWER]f([1]) == [1][/ANSWER]", ANSWER_TAGS),
    ("```python\nprint(f([1]))\n```", FENCE_WITHOUT_ASSERT),
    ("def f(nums):\n    return nums[::-1]\n", PROGRAM_WITHOUT_ASSERT),
    (PROSE_REPLY, PROSE),
    ("<think>x</think>```\n[1]\n```", FENCE_WITHOUT_ASSERT),
    ("<reasoning>the loop", UNTERMINATED_THINKING),
    ("<think>a</think>So: <think>the loop runs", UNTERMINATED_THINKING),
    ("The prompt opened it.</think>\nThe output is a list.", PROSE),
    ("[THOUGHT]x[/THOUGHT]", THINKING_ONLY),
    ("[ANSWER]1[/ANSWER] or maybe [ANSWER]2[/ANSWER]", SEVERAL_ANSWERS),
    ("assert f(1) == 1\nassert f(1) == 2", SEVERAL_ANSWERS),
    ("Note: `assert` is how I'd check it; the result is a list.", PROSE),
])
def test_a_reply_is_summed_up_by_its_form(reply, form):
    assert reply_form(reply) == form


def test_a_hostile_reply_gives_one_of_our_forms_only():
    assert reply_form(HOSTILE) == PROSE
    assert reply_form(None) == EMPTY


def test_the_warning_names_counts_and_forms_only():
    breakdown = Breakdown.counted("cruxeval", {"unparseable": 7, "empty": 1, "passed": 2, "\x1b[31mevil": 3},
                                  {PROSE: 5, EMPTY: 1, UNTERMINATED_THINKING: 2, "<b>evil</b>": 9})
    assert breakdown.statuses["other"] == 3 and "<b>evil</b>" not in breakdown.forms
    line = breakdown.warning("cruxeval_orig")
    assert line.startswith("cruxeval_orig: 62% of the samples (8 of 13: empty 1, unparseable 7)")
    assert f"most often {PROSE} (5 of them)" in line and CHAT_GUIDE in line
    assert "\x1b" not in line and "evil" not in line
    assert Breakdown.counted("cruxeval", {"passed": 4, "empty": 1}, {EMPTY: 1}).warning("t") is None  # a fifth


def test_a_documents_share_carries_its_breakdown_between_processes():
    """lm-eval gathers per-document metrics from every process by pickling them: the breakdown survives."""
    share = UnreadShare(["passed", "unparseable", "empty", "unparseable"], ["1", "<think>x", "", PROSE_REPLY],
                        BENCHMARKS["cruxeval"].unread_statuses)
    received = pickle.loads(pickle.dumps([share]))[0]
    assert received == 0.75 and json.dumps(received) == "0.75"
    breakdown = breakdown_of_shares("cruxeval", [received, 0.5])  # a plain float carries nothing
    assert breakdown.statuses["unparseable"] == 2 and breakdown.samples == 4
    assert breakdown.forms == {UNTERMINATED_THINKING: 1, EMPTY: 1, PROSE: 1}


def test_a_submitted_breakdown_is_read_as_counts_of_our_names_only():
    assert Breakdown.from_record("cruxeval", {"statuses": {"passed": "9"}}) is None
    assert Breakdown.from_record("cruxeval", {"statuses": {"passed": -1}}) is None
    assert Breakdown.from_record("cruxeval", {"statuses": {"passed": True}}) is None
    assert Breakdown.from_record("cruxeval", ["statuses"]) is None
    read = Breakdown.from_record("cruxeval", {"statuses": {"empty": 2, "\x1b[2J": 1}, "unread_forms": {
        EMPTY: 2, "<script>": 5}})
    assert read.statuses["empty"] == 2 and read.statuses["other"] == 1 and read.forms == {EMPTY: 2}


def test_a_hostile_model_name_in_the_warning_is_escaped_everywhere(tmp_path):
    """A synthetic run (a hostile model name, every reply unread) through ``dynbench report``."""
    model = "evil\x1b[31m\n<b>bold</b>|cell"
    doc = {"id": "sample_0", "code": "def f(x):\n    return x\n", "original_code": "def f(x):\n    return x\n",
           "input": "1", "output": "1"}
    sample = {"doc_id": 0, "doc": doc, "pass@1": 0.0, "resps": [[HOSTILE[:5000], "", PROSE_REPLY]],
              "filtered_resps": [[json.dumps({"answer": "", "status": s}) for s in ("unparseable", "empty", "unparseable")]]}
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "samples_cruxeval_orig_2026-12-01T09-00-00.jsonl").write_text(json.dumps(sample) + "\n")
    (tmp_path / "run" / "results_2026-12-01T09-00-00.json").write_text(json.dumps({
        "results": {"cruxeval_orig": {"pass@1,sandbox": 0.0}}, "model_name": model,
        "configs": {"cruxeval_orig": {"metadata": {"dynbench": {"seed": 0, "counts": {"scored": 1}}}}}}))
    done = subprocess.run([*CLI, "report", str(tmp_path / "run"), "--out", str(tmp_path / "report")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (warned,) = [line for line in done.stderr.splitlines() if WARNED in line]
    assert "\x1b" not in done.stderr and f"most often {PROSE} (2 of them)" in warned and "empty 1" in warned
    markdown = (tmp_path / "report" / "report.md").read_text()
    assert "&lt;b&gt;bold&lt;/b&gt;\\|cell cruxeval\\_orig: 100% of the samples" in markdown
    page = (tmp_path / "report" / "report.html").read_text()
    assert "<b>bold" not in page and "&lt;b&gt;bold&lt;/b&gt;|cell cruxeval_orig: 100% of the samples" in page
    for written in (markdown, page):
        assert "\x1b" not in written and "<script>" not in written and "AAAAAAAAAA" not in written


def test_every_benchmark_names_its_unread_statuses_among_its_statuses():
    for benchmark in BENCHMARKS.values():
        assert benchmark.unread_statuses
        assert set(benchmark.unread_statuses) <= set(benchmark.sample_statuses), benchmark
        assert not set(benchmark.unread_statuses) & set(benchmark.answered_statuses), benchmark


# ---------------------------------------------------------------------------------- lm_eval runs
def test_unread_answers_are_shared_recorded_and_warned_about_once_per_task(small_data):
    results, warnings = python_api_run(small_data, lambda prompt, sample: PROSE_REPLY)
    statuses = BENCHMARKS["cruxeval"].sample_statuses
    for task in TASKS:
        assert results["results"][task]["pass@1,sandbox"] == 0.0
        assert results["results"][task][UNREAD_METRIC] == 1.0
        answers = results["configs"][task]["metadata"]["dynbench"]["answers"]
        assert answers["samples"] == LIMIT * 5 and answers["unread"] == 1.0
        assert answers["statuses"] == {s: LIMIT * 5 if s == "unparseable" else 0 for s in statuses}
        assert answers["unread_forms"] == {PROSE: LIMIT * 5}
        for sample in results["samples"][task]:
            assert sample["unread"] == 1.0
        assert "unread" in results["higher_is_better"][task] and not results["higher_is_better"][task]["unread"]
    for task in TASKS:
        mine = [line for line in warnings if line.startswith(f"{task}: ")]
        assert len(mine) == 1, warnings
        assert f"100% of the samples ({LIMIT * 5} of {LIMIT * 5}: unparseable {LIMIT * 5})" in mine[0]
        assert f"most often {PROSE}" in mine[0] and "docs/chat.md" in mine[0]
    json.dumps(results["results"])


def test_readable_answers_get_no_warning_and_pass_at_1_is_unchanged(small_data):
    docs = {}
    for task in TASKS:
        for doc in list(manager(small_data).load([task])["tasks"][task].test_docs())[:LIMIT]:
            docs[f"{doc['code']}\nassert f({doc['input']}) =="] = doc

    def answer(prompt: str, sample: int) -> str:
        doc = next(d for key, d in docs.items() if key in prompt)
        return [doc["output"], "'__wrong__'", doc["output"], "", doc["output"]][sample % 5]

    results, warnings = python_api_run(small_data, answer)
    for task in TASKS:
        assert math.isclose(results["results"][task]["pass@1,sandbox"], 0.6)
        assert math.isclose(results["results"][task][UNREAD_METRIC], 0.2)  # the empty one: a fifth, no warning
        answers = results["configs"][task]["metadata"]["dynbench"]["answers"]
        assert answers["statuses"]["passed"] == 3 * LIMIT and answers["unread_forms"] == {EMPTY: LIMIT}
    assert warnings == []


# ---------------------------------------------------------------------------------- the command line, report, view
CLI = [sys.executable, "-m", "dynbench_tasks.cli"]
THINKING = "<think>The loop walks the list from the end, so the first element it keeps is"
CLI_LIMIT = 2
WARNED = "were not read as an answer"


def unread_replies(prompt: str, sample: int) -> str:
    """A hostile reply first, then a reasoning model cut off while thinking, then prose."""
    return [HOSTILE, THINKING, PROSE_REPLY, PROSE_REPLY, PROSE_REPLY][sample % 5]


@pytest.fixture(scope="module")
def unread_run(tmp_path_factory, small_data) -> tuple[Path, str, str]:
    """A real lm_eval command-line run (--log_samples) whose replies the reader cannot read; its stderr
    and stdout."""
    out = tmp_path_factory.mktemp("unread")
    with ScriptedServer(unread_replies) as server:
        done = subprocess.run(
            [sys.executable, "-m", "lm_eval", "--model", "local-completions", "--model_args",
             f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,tokenized_requests=False",
             "--tasks", ",".join(TASKS), "--limit", str(CLI_LIMIT), "--confirm_run_unsafe_code", "--log_samples",
             "--output_path", str(out), "--metadata", json.dumps({"data_dir": small_data, "seed": 3})],
            capture_output=True, text=True, cwd=out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out, done.stderr, done.stdout


def _results(folder: Path) -> dict:
    return json.loads(next(folder.rglob("results_*.json")).read_text())


def _status_row(task_variant: str, samples: int) -> str:
    """The report's Markdown row of a run whose replies were all unparseable, most of them prose."""
    shares = " | ".join("100%" if status == "unparseable" else "0%"
                        for status in BENCHMARKS["cruxeval"].sample_statuses)
    return f"| {task_variant} | scripted | {samples} | ***100%*** | {shares} | {PROSE} | "


@pytest.mark.slow
def test_a_command_line_run_warns_once_per_task_naming_the_form(unread_run):
    folder, stderr, stdout = unread_run
    samples = CLI_LIMIT * 5
    for task in TASKS:
        warned = [line for line in stderr.splitlines() if f"{task}: " in line and WARNED in line]
        assert len(warned) == 1, stderr[-3000:]
        assert f"100% of the samples ({samples} of {samples}: unparseable {samples})" in warned[0]
        assert f"most often {PROSE} ({samples - CLI_LIMIT * 2 + CLI_LIMIT} of them)" in warned[0]
        assert "docs/chat.md" in warned[0] and len(warned[0]) < 600
        results = _results(folder)
        assert results["results"][task][UNREAD_METRIC] == 1.0 and results["results"][task]["pass@1,sandbox"] == 0.0
        answers = results["configs"][task]["metadata"]["dynbench"]["answers"]
        assert answers["unread_forms"] == {UNTERMINATED_THINKING: CLI_LIMIT, PROSE: samples - CLI_LIMIT}
    assert "\x1b" not in stderr and "<script>" not in stderr and "AAAAAAAAAA" not in stderr
    assert len(re.findall(r"\|unread\|↓ *\| *1\|", stdout)) == 2, stdout  # lm-eval's table: one row a task


@pytest.mark.slow
def test_report_and_view_show_the_breakdown_and_the_warning(unread_run, tmp_path, browser):
    folder, _, _ = unread_run
    done = subprocess.run([*CLI, "report", str(folder), "--out", str(tmp_path / "report")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if WARNED in line]
    assert [line.split(": ")[2] for line in warned] == ["scripted cruxeval_orig", "scripted cruxeval_fuv"]
    markdown = (tmp_path / "report" / "report.md").read_text()
    table = markdown.split("### Answers by status")[1]
    for variant in ("orig", "fuv"):
        assert _status_row(variant, CLI_LIMIT * 5) + "logged samples |" in table
    assert markdown.count("* Answers not read: scripted cruxeval\\_") == 2  # escaped for Markdown
    page = (tmp_path / "report" / "report.html").read_text()
    for written in (markdown, page, (tmp_path / "report" / "report.csv").read_text()):
        assert "\x1b" not in written and "<script>alert" not in written and "AAAAAAAAAA" not in written

    done = subprocess.run([*CLI, "view", str(folder), "--variant", "fuv", "--out", str(tmp_path / "views")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert sum(WARNED in line for line in done.stderr.splitlines()) == 2  # orig's and fuv's
    view = tmp_path / "views" / "cruxeval_fuv.html"
    assert "<script>alert" not in view.read_text() and view.stat().st_size < 200_000  # replies cut, escaped
    browser.set_window_size(1280, 1000)
    browser.get(view.as_uri())
    assert browser_errors(browser) == []
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    rows = browser.execute_script(
        "return [...document.querySelectorAll('table.statuses tr')].map(r => [...r.cells].map(c => c.textContent))")
    samples = CLI_LIMIT * 5
    assert rows[0] == ["status", "on orig", "on cruxeval_fuv"]
    assert ["unparseable", f"{samples} (100%)", f"{samples} (100%)"] in rows
    assert [f"unread: {PROSE}", f"{samples - CLI_LIMIT} (80%)", f"{samples - CLI_LIMIT} (80%)"] in rows
    notes = [n.text for n in browser.find_elements("css selector", "p.unread") if n.is_displayed()]
    assert len(notes) == 2 and all(WARNED in note for note in notes)


def _as_before_the_breakdown(folder: Path) -> None:
    """What a run made before this change holds: no unread metric, no breakdown."""
    path = next(folder.rglob("results_*.json"))
    results = json.loads(path.read_text())
    for task in TASKS:
        for key in ("unread,sandbox", "unread_stderr,sandbox"):
            del results["results"][task][key]
        del results["higher_is_better"][task]["unread"]
        config = results["configs"][task]
        config["metric_list"] = [m for m in config["metric_list"] if m["metric"] != "unread"]
        del config["metadata"]["dynbench"]["answers"]
    path.write_text(json.dumps(results))
    for samples_file in folder.rglob("samples_*.jsonl"):
        samples = [json.loads(line) for line in samples_file.read_text().splitlines()]
        for sample in samples:
            del sample["unread"]
            sample["metrics"].remove("unread")
        samples_file.write_text("".join(json.dumps(s) + "\n" for s in samples))


def _report(folder: Path, out: Path) -> str:
    done = subprocess.run([*CLI, "report", str(folder), "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return (out / "report.md").read_text().split("### Answers by status")[1]


def _verify(folder: Path) -> tuple[int, str]:
    done = subprocess.run([*CLI, "verify", str(folder), *data_of(folder)], capture_output=True, text=True)
    return done.returncode, done.stdout


@pytest.mark.slow
def test_runs_with_and_without_the_breakdown_verify_report_and_view(unread_run, tmp_path):
    folder, _, _ = unread_run
    code, out = _verify(folder)
    assert code == 0 and out.count("partial: 2 of 40 documents, all verified") == 2, out
    tampered = tmp_path / "tampered"
    shutil.copytree(folder, tampered)
    path = next(tampered.rglob("results_*.json"))
    results = json.loads(path.read_text())
    results["results"]["cruxeval_orig"]["unread,sandbox"] = 0.0  # hiding that the answers went unread
    path.write_text(json.dumps(results))
    code, out = _verify(tampered)
    assert code == 1 and "the task's unread 0 claimed, 1 earned by its samples" in out, out

    before = tmp_path / "before"
    shutil.copytree(folder, before)
    _as_before_the_breakdown(before)
    code, out = _verify(before)  # every rules-3 run records unread: one without it hides it, and fails
    assert code == 1 and out.count("the task's unread is missing from the results") == 2, out
    assert _status_row("orig", CLI_LIMIT * 5) + "logged samples |" in _report(before, tmp_path / "r1")
    done = subprocess.run([*CLI, "view", str(before), "--variant", "fuv", "--out", str(tmp_path / "v1")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and sum(WARNED in line for line in done.stderr.splitlines()) == 2, done.stderr

    for samples_file in before.rglob("samples_*.jsonl"):
        samples_file.unlink()
    table = _report(before, tmp_path / "r2")
    assert "| orig | scripted | — |" in table and table.count("| not recorded |") == 2
    recorded = tmp_path / "recorded"
    shutil.copytree(folder, recorded)
    for samples_file in recorded.rglob("samples_*.jsonl"):
        samples_file.unlink()
    assert _status_row("fuv", CLI_LIMIT * 5) + "the run's record |" in _report(recorded, tmp_path / "r3")
