"""Settings a run's scoring cannot live with (issue 30): a timeout of NaN or Infinity (JSON as lm-eval
reads it allows both) or of hours, or a temperature of NaN, is one line from the real ``lm_eval``
before any model loads, never a traceback in scoring."""

import subprocess
import sys

import pytest

from dynbench_tasks.errors import SettingsError
from dynbench_tasks.lmeval.settings import MAX_TIMEOUT, settings_from_metadata

MODEL = ["--model", "hf", "--model_args", "pretrained=/nowhere", "--device", "cpu", "--confirm_run_unsafe_code"]
TIMEOUT_LINE = f"metadata timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT:g} (the default is 3)"


def lm_eval(tmp_path, metadata: str) -> tuple[int, list[str]]:
    done = subprocess.run([sys.executable, "-m", "lm_eval", *MODEL, "--tasks", "cruxeval_fuv", "--metadata", metadata],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    return done.returncode, done.stderr.strip().splitlines()


@pytest.mark.parametrize(("metadata", "line"), [
    ('{"timeout": NaN}', f"{TIMEOUT_LINE}, got nan"),
    ('{"timeout": Infinity}', f"{TIMEOUT_LINE}, got inf"),
    ('{"timeout": 100000}', f"{TIMEOUT_LINE}, got 100000.0"),
    ('{"temperature": NaN}', "metadata temperature must be a finite number, 0 or more, got nan"),
])
def test_a_setting_scoring_cannot_use_is_one_line_from_lm_eval(tmp_path, metadata, line):
    code, stderr = lm_eval(tmp_path, metadata)
    assert (code, stderr) == (2, [f"lm_eval: error: {line}"])


def test_the_timeout_bound_is_inclusive():
    base = {"benchmark": "cruxeval", "variant": "fuv"}
    assert settings_from_metadata({**base, "timeout": MAX_TIMEOUT}).timeout == MAX_TIMEOUT
    for value in (MAX_TIMEOUT + 0.5, 0, float("-inf")):
        with pytest.raises(SettingsError, match=r"^metadata timeout must be a number of seconds above 0"):
            settings_from_metadata({**base, "timeout": value})
    with pytest.raises(SettingsError, match=r"^metadata temperature must be a finite number"):
        settings_from_metadata({**base, "temperature": float("inf")})
