"""What a CRUXEval task shows is what its reference answer was computed from: the shown program run on
the shown input gives the published output, for every program (names the input refers to, like
``thigh_o_two`` in sample_258, keep their names)."""

import json
import subprocess
import sys

import pytest

from conftest import REPO


@pytest.mark.slow
def test_every_shown_program_and_input_give_the_reference_output():
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "check_shown_programs.py"), "--chains", "V1,V2,FUV",
                           "--seeds", "0", "--no-verify"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["chain"] for row in rows] == ["V1", "V2", "FUV"]
    assert all(row["mutated"] == 800 and row["mismatches"] == 0 for row in rows), rows
