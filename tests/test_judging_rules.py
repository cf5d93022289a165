"""The comparison rules of docs/judging.md, clause by clause, each with a counter-example that the
rules before them (judging rules 1) passed, judged through lm-eval on a scripted model; and judging
rules 3 beside rules 2: the same chat replies judged under each, a run recording rules 2 verified
under rules 2.

The problems are written here, in a data folder of their own: a CodeNet problem whose expected
output is empty (as NewOutput leaves some), one whose output replies pad with Unicode whitespace, Avatar problems whose output is one number, and a
TransCoder problem whose harness compares floating-point values with its relative tolerance."""

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from textwrap import dedent

import lm_eval
import pytest
from lm_eval.tasks import TaskManager
from scripted_server import ScriptedServer

from dynbench_tasks.lmeval.environment import task_directory

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out


def stdin_java(body: str) -> str:
    return f"```java\npublic class Main {{\n    public static void main(String[] args) throws Exception {{\n" \
           f"        {body}\n    }}\n}}\n```"


def prints(text: str) -> str:
    return stdin_java(f"System.out.println({json.dumps(text)});")


# CodeNet: the program prints nothing; the reply -> its status
SILENT = "x = input()\n"
SILENT_REPLIES = {
    stdin_java("throw new IllegalStateException();"): "runtime_error",
    stdin_java("int[] a = new int[1]; a[2] = 1;"): "runtime_error",
    stdin_java("System.exit(3);"): "runtime_error",
    stdin_java("System.out.flush();"): "passed",
    stdin_java("System.exit(0);"): "passed",
}
# CodeNet: trimmed of ASCII whitespace only, not of Unicode spaces, separators or control characters
PADDED = "print(217)\n"
PADDED_REPLIES = {prints("217\u3000\x1c"): "wrong_output", prints("\u2028217\x85"): "wrong_output",
                  prints("\xa0217\x1f"): "wrong_output", prints(" 217\t\r"): "passed", prints("217"): "passed"}
# Avatar: each program prints one number; the replies and their statuses
NUMBERS = {
    "print(-1)\n": ("-1", {prints("-\uff11"): "wrong_output", prints("-\u0661"): "wrong_output",
                           prints("-\u0967.\u0966"): "wrong_output", prints("-1\u3000"): "wrong_output",
                           prints("-1.0\f"): "passed"}),
    "print(17 / 5)\n": ("3.4", {prints("3"): "wrong_output", prints("3.4"): "passed", prints("3.40"): "passed",
                                prints("34e-1"): "passed", prints("3.5"): "wrong_output"}),
    "print(22 / 7)\n": ("3.142857142857143", {prints("3.14"): "wrong_output", prints("3.1428571428571"): "wrong_output",
                                             stdin_java("System.out.println(22.0 / 7);"): "passed",
                                             prints("3"): "wrong_output", prints("3.142857142857143"): "passed"}),
    "print(12345678901234567891)\n": ("12345678901234567891", {
        prints("12345678901234567890"): "wrong_output", prints("12345678901234567891.0"): "passed",
        prints("1.2345678901234567891E19"): "passed", prints("12345678901234567892"): "wrong_output",
        prints("12345678901234567891"): "passed"}),
    "print(10)\n": ("10", {prints("1_0"): "wrong_output", prints("10.0"): "passed", prints("1.0E1"): "passed",
                           prints(" 10 "): "passed", prints("+10"): "passed"}),
    "print(1 / 100000)\n": ("1e-05", {stdin_java("System.out.println(1.0 / 100000);"): "passed",
                                      prints("0.0000100"): "passed", prints("0"): "wrong_output",
                                      prints("1e-5 "): "passed", prints("1E-6"): "wrong_output"}),
}
# TransCoder: the harness compares doubles within its relative tolerance, of absolute values
HALF_PYTHON = "def half(x):\n    return x / 2\n"
HALF_HARNESS = dedent("""
    import java.util.*;
    public class HALF {
    static double f_gold(double x) { return x / 2; }
    //TOFILL
    public static void main(String args[]) {
        int n_success = 0;
        List<Double> param0 = new ArrayList<>();
        param0.add(3.0);
        param0.add(-5.5);
        param0.add(0.0);
        for(int i = 0; i < param0.size(); ++i)
        {
            if(Math.abs(1 - (0.0000001 + Math.abs(f_gold(param0.get(i))) )/ (Math.abs(f_filled(param0.get(i))) + 0.0000001)) < 0.001)
            {
                n_success+=1;
            }
        }
        System.out.println("#Results:" + n_success + ", " + param0.size());
    }
    }
""")
HALF_PYTHON_HARNESS = ("def f_gold(x):\n    return x / 2\n\n#TOFILL\n\nif __name__ == '__main__':\n"
                       "    param = [(3.0,), (-5.5,), (0.0,)]\n")
HALF_REPLIES = {
    "static double half(double x) { return -x / 2; }": "wrong_output",
    "static double half(double x) { return Math.abs(x) / 2; }": "wrong_output",
    "static double half(double x) { return x / 2; }": "passed",
    "static double half(double x) { return x / 2 * 1.0001; }": "passed",
    "static double half(double x) { return x / 2 * 1.01; }": "wrong_output",
}


@pytest.fixture(scope="module")
def judged(tmp_path_factory) -> dict:
    """Every task run once through lm-eval: {task: {reply: status}}, and the results."""
    folder = tmp_path_factory.mktemp("judging-rules")
    codenet = [{"id": "s000000001", "python": SILENT, "tests": [{"input": "5\n", "output": ""},
                                                                {"input": "6\n", "output": "\n"}]},
               {"id": "s000000002", "python": PADDED, "tests": [{"input": "", "output": "217\n"}]}]
    avatar = [{"id": f"number_{i}", "python": code, "java": "", "tests": [{"input": "", "output": output + "\n"}]}
              for i, (code, (output, _)) in enumerate(NUMBERS.items())]
    transcoder = [{"id": "HALF", "python": HALF_PYTHON, "java": "static double f_gold(double x) { return x / 2; }",
                   "java_harness": HALF_HARNESS, "python_harness": HALF_PYTHON_HARNESS}]
    for name, records in (("codenet_py2java.jsonl", codenet), ("avatar_py2java.jsonl", avatar),
                          ("transcoder_py2java.jsonl", transcoder)):
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in records))
    replies = {SILENT: list(SILENT_REPLIES), PADDED: list(PADDED_REPLIES), HALF_PYTHON: [f"```java\n{r}\n```" for r in HALF_REPLIES],
               **{code: list(cases) for code, (_, cases) in NUMBERS.items()}}

    def answer(prompt: str, sample: int) -> str:
        code = next(code for code in replies if f"```python\n{code}\n```" in prompt)
        return replies[code][sample % 5]

    tasks = ["codenet_orig", "avatar_orig", "transcoder_orig"]
    tm = TaskManager(include_path=task_directory(), include_defaults=False,
                     metadata={"data_dir": str(folder), "timeout": 5})
    with ScriptedServer(answer) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=tasks, task_manager=tm, confirm_run_unsafe_code=True, log_samples=True,
        )
    statuses = defaultdict(dict)
    for task in tasks:
        for sample in results["samples"][task]:
            for reply, status in zip(sample["resps"][0], sample["filtered_resps"][0], strict=True):
                statuses[task][reply] = json.loads(status)["status"]
    return {"statuses": statuses, "results": results}


def test_a_run_that_throws_or_exits_nonzero_fails_whatever_it_printed(judged):
    assert {reply: judged["statuses"]["codenet_orig"][reply] for reply in SILENT_REPLIES} == SILENT_REPLIES


def test_output_is_trimmed_of_ascii_whitespace_only(judged):
    assert {reply: judged["statuses"]["codenet_orig"][reply] for reply in PADDED_REPLIES} == PADDED_REPLIES


@pytest.mark.parametrize("program", list(NUMBERS))
def test_avatar_numbers_pass_only_at_exactly_the_same_decimal_value(judged, program):
    assert {reply: judged["statuses"]["avatar_orig"][reply] for reply in NUMBERS[program][1]} == NUMBERS[program][1]


def test_transcoder_tolerance_never_passes_the_wrong_sign(judged):
    assert judged["statuses"]["transcoder_orig"] == {f"```java\n{r}\n```": s for r, s in HALF_REPLIES.items()}


def test_every_result_names_the_judging_rules(judged):
    from dynbench_tasks.scoring import JUDGING_RULES

    for task in ("codenet_orig", "avatar_orig", "transcoder_orig"):
        assert judged["results"]["configs"][task]["metadata"]["dynbench"]["judging_rules"] == JUDGING_RULES == 3


def test_avatar_numbers_read_only_as_decimals():
    from dynbench_tasks.benchmarks.translation import judged_output

    assert judged_output("1.0E-5\n", "1e-05", numeric=True) and not judged_output("1.0E-5", "1e-05", numeric=False)
    for actual, expected in (("inf", "Infinity"), ("nan", "NaN"), ("0x10", "16"), ("1e" + "9" * 100, "1e" + "9" * 100 + "0"),
                             ("1e999999999", "1"), ("1 2", "12"), ("--1", "1"), ("", "0"),
                             ("\uff11\uff10", "10"), ("1e\u0661", "10"), ("\u0967", "1")):
        assert not judged_output(actual, expected, numeric=True), (actual, expected)


# CRUXEval: one document's five replies, and the status each gets under rules 2 and under rules 3
def chat_replies(doc: dict) -> list[tuple[str, str, str]]:
    call, output = f"f({doc['input']})", doc["output"]
    return [
        (f"Here is the completed assertion:\n```python\nassert {call} == {output}\n```", "unparseable", "passed"),
        (f"[ANSWER]\nassert {call} == {output}\n[/ANSWER]", "not_a_value", "passed"),
        (f"{output} # done", "passed", "passed"),
        (f"'__not it__'\nThe output is {output}.", "wrong", "ambiguous"),
        (f"<think>The output is {output}.</think>", "unparseable", "empty"),
    ]


# lm_eval as a dynbench of judging rules 2 ran it: its reader (kept in this one) and its recorded rules
RULES_2_LM_EVAL = """
import sys
from dataclasses import replace

import dynbench_tasks.lmeval.task as task
from lm_eval.__main__ import cli_evaluate

made = task.settings_from_metadata
task.settings_from_metadata = lambda metadata: replace(made(metadata), judging_rules=2)
sys.argv = ["lm_eval", *sys.argv[1:]]
cli_evaluate()
"""


def chat_run(out: Path, data: str, rules: int) -> Path:
    """A real lm_eval CLI run of cruxeval_orig (its first 4 documents) judged under ``rules``."""
    records = [json.loads(line) for line in (Path(data) / "cruxeval.jsonl").read_text().splitlines()[:4]]
    by_prompt = {f"{doc['code']}\nassert f({doc['input']}) ==": doc for doc in records}  # cruxeval_orig shows them as they are

    def answer(prompt: str, sample: int) -> str:
        doc = next(doc for key, doc in by_prompt.items() if key in prompt)
        return chat_replies(doc)[sample % 5][0]

    launcher = ["-c", RULES_2_LM_EVAL] if rules == 2 else ["-m", "lm_eval"]
    with ScriptedServer(answer) as server:
        done = subprocess.run(
            [sys.executable, *launcher, "--model", "local-completions", "--model_args",
             f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,tokenized_requests=False",
             "--tasks", "cruxeval_orig", "--limit", "4", "--confirm_run_unsafe_code", "--log_samples",
             "--output_path", str(out), "--metadata", json.dumps({"data_dir": data})],
            capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def logged_statuses(folder: Path) -> list[list[str]]:
    samples = [json.loads(line) for line in next(folder.rglob("samples_cruxeval_orig_*.jsonl")).read_text().splitlines()]
    return [[json.loads(item)["status"] for item in sample["filtered_resps"][0]] for sample in samples]


def verify(folder: Path, data: str) -> tuple[int, list[str]]:
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(folder), "--data-dir", data],
                          capture_output=True, text=True)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.returncode, done.stdout.splitlines()


def recorded_rules(folder: Path, rules: int | None) -> None:
    path = next(folder.rglob("results_*.json"))
    results = json.loads(path.read_text())
    provenance = results["configs"]["cruxeval_orig"]["metadata"]["dynbench"]
    provenance.pop("judging_rules")
    if rules is not None:
        provenance["judging_rules"] = rules
    path.write_text(json.dumps(results))


def test_a_run_judged_under_rules_2_is_judged_again_under_rules_2(small_data, tmp_path):
    """The same chat replies judged under each rules; each run verifies under the rules it records,
    and claiming the other rules (or none: rules 1) fails."""
    expected = {rules: [[reply[rules - 1] for reply in chat_replies({"input": "x", "output": "y"})]] * 4
                for rules in (2, 3)}
    for rules in (2, 3):
        folder = chat_run(tmp_path / f"rules{rules}", small_data, rules)
        assert logged_statuses(folder) == expected[rules]
        code, lines = verify(folder, small_data)
        assert code == 0 and len(lines) == 1 and ": partial: 4 of 40 documents, all verified" in lines[0], lines
        recorded_rules(folder, 5 - rules)  # the other rules: its answers score otherwise there
        code, lines = verify(folder, small_data)
        assert code == 1 and "answers score" in lines[0], lines
        recorded_rules(folder, None)
        code, lines = verify(folder, small_data)
        assert code == 1 and "judged under other judging rules (run none recorded: rules 1, here 2 or 3)" in lines[0]
