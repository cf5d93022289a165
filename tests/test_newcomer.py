"""A newcomer's mistakes (issue 20), each one line naming the fix, in seconds: a misspelt setting or
task, JSON that is not, a missing JDK, an option no command has; through ``dynbench eval`` and plain
``lm_eval`` alike, before lm-eval indexes its tasks or anything heavy (torch, datasets) is imported.
Also: model arguments, which lm-eval merges into the settings, are not taken for misspelt settings;
progress bars go to a terminal only; a long generation on a CPU says so before it starts."""

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

import dynbench_tasks.lmeval.settings as settings_module
from dynbench_tasks.errors import SettingsError
from dynbench_tasks.lmeval import environment
from dynbench_tasks.lmeval.cost import Plan, plan
from dynbench_tasks.lmeval.settings import settings_from_metadata
from dynbench_tasks.lmeval.task_names import unknown_task_message

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out

HEAVY = ("torch", "transformers", "datasets", "lm_eval.tasks", "lm_eval.evaluator")
# Runs a command line in this process's way (`lm_eval` as `python -m lm_eval` does, or `dynbench`),
# then reports its exit status and which heavy modules it had imported.
PROBE = f"""
import json, runpy, sys
try:
    if sys.argv[1] == "lm_eval":
        sys.argv = sys.argv[1:]
        runpy.run_module("lm_eval", run_name="__main__", alter_sys=True)
    else:
        from dynbench_tasks.cli import main
        sys.exit(main(sys.argv[2:]))
except SystemExit as done:
    print(json.dumps({{"status": done.code, "heavy": [m for m in {HEAVY!r} if m in sys.modules]}}))
"""
COMMANDS = {"dynbench eval": ["dynbench", "eval"], "lm_eval": ["lm_eval"]}
MODEL = ["--model", "hf", "--model_args", "pretrained=/nowhere", "--device", "cpu", "--confirm_run_unsafe_code"]


def probe(tmp_path, command: list[str], env=None) -> tuple[dict, list[str]]:
    done = subprocess.run([sys.executable, "-c", PROBE, *command], capture_output=True, text=True, cwd=tmp_path,
                          env=env, timeout=300)
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr.strip().splitlines()


@pytest.fixture
def model_arguments():
    """Restores the noted model arguments after a test that notes its own."""
    saved = environment.model_argument_names()
    yield environment.note_model_arguments
    environment.note_model_arguments(dict.fromkeys(saved))


@pytest.mark.parametrize("program", COMMANDS)
@pytest.mark.parametrize("metadata", ['{"seeed": 1}', "seeed=1"])
def test_a_misspelt_setting_is_one_line_before_anything_heavy(tmp_path, program, metadata):
    result, stderr = probe(tmp_path, [*COMMANDS[program], *MODEL, "--tasks", "cruxeval_fuv", "--metadata", metadata])
    assert result == {"status": 2, "heavy": []}
    assert stderr == [f"{program}: error: unknown setting 'seeed' in --metadata: did you mean 'seed'? dynbench tasks "
                      "take seed, chain, options, scope, prompt, data_dir, data_source, verify, timeout, ids, repeats, "
                      "temperature"]


@pytest.mark.parametrize("program", COMMANDS)
def test_a_misspelt_task_is_one_line_with_the_nearest_names(tmp_path, program):
    result, stderr = probe(tmp_path, [*COMMANDS[program], *MODEL, "--tasks", "cruxeval_orig,cruxeval_fvu"])
    assert result == {"status": 2, "heavy": []}
    assert stderr == [f"{program}: error: no task 'cruxeval_fvu': did you mean 'cruxeval_fuv' or 'cruxeval_afu' or "
                      "'cruxeval_fuvi'?"]


@pytest.mark.parametrize("program", COMMANDS)
@pytest.mark.parametrize("option", ["--metadata", "--model_args"])
def test_json_that_is_not_is_one_line(tmp_path, program, option):
    arguments = [*COMMANDS[program], "--model", "hf", "--tasks", "cruxeval_fuv", option, '{"seed": 1']
    result, stderr = probe(tmp_path, arguments)
    assert result == {"status": 2, "heavy": []}
    assert stderr == [f"{program}: error: {option} is not JSON (Expecting ',' delimiter at character 11): "
                      '{"seed": 1']


@pytest.mark.parametrize("program", COMMANDS)
def test_a_missing_jdk_is_one_line_before_anything_heavy(tmp_path, program):
    env = {key: value for key, value in os.environ.items() if key != "JAVA_HOME"}
    env["PATH"] = str(Path(sys.executable).parent)  # python and the venv's scripts, no java
    result, stderr = probe(tmp_path, [*COMMANDS[program], *MODEL, "--tasks", "avatar_fuv"], env=env)
    assert result == {"status": 2, "heavy": []}
    assert len(stderr) == 1 and stderr[0].startswith(f"{program}: error: Java translation tasks need a JDK")
    assert "apt-get install default-jdk-headless" in stderr[0]


def test_an_option_no_command_has_names_the_nearest(tmp_path):
    result, stderr = probe(tmp_path, ["dynbench", "demo", "--limt", "2"])
    assert result == {"status": 2, "heavy": []}
    assert stderr == ["dynbench: error: unrecognized arguments: --limt 2 (did you mean --limit?)"]


def test_names_other_task_files_hold_pass_and_dynbench_like_names_are_checked(tmp_path):
    assert unknown_task_message("cruxeval_output", []) is None  # lm-eval's own CRUXEval tasks
    assert unknown_task_message("hellaswag", []) is None  # not dynbench-like: lm-eval decides
    assert unknown_task_message("cruxeval_*", []) is None
    assert unknown_task_message("fuv", []) == ("no task 'fuv': did you mean 'avatar_fuv' or 'codenet_fuv' or "
                                               "'cruxeval_fuv'?")
    (tmp_path / "mine.yaml").write_text("task: cruxeval_mine\n")
    assert unknown_task_message("cruxeval_mine", [str(tmp_path)]) is None
    assert unknown_task_message("cruxeval_mine", []).startswith("no task 'cruxeval_mine'")


def test_model_arguments_are_not_settings_but_misspelt_settings_are(model_arguments, caplog, monkeypatch):
    task = {"benchmark": "cruxeval", "variant": "fuv", "version": 1.0, "config_source": "cruxeval_fuv.yaml"}
    model_arguments({"pretrained": "gpt2", "dtype": "float32"})
    assert settings_from_metadata({**task, "pretrained": "gpt2", "dtype": "float32", "seed": 3}).seed == 3
    with pytest.raises(SettingsError, match=r"unknown setting 'seeed' in --metadata: did you mean 'seed'\?"):
        settings_from_metadata({**task, "pretrained": "gpt2", "seeed": 3})
    model_arguments({})
    monkeypatch.setattr(settings_module, "_warned_keys", set())
    with caplog.at_level("WARNING", logger="lm_eval.dynbench"):
        settings_from_metadata({**task, "pretrained": "gpt2"})
    assert "--metadata 'pretrained' is not a dynbench setting" in caplog.text


@pytest.mark.slow
def test_lm_evals_python_api_merges_model_arguments_and_stays_strict(tiny_model, small_data):
    """simple_evaluate without a task manager merges model_args into the metadata, as the command
    line does: they pass; a misspelt setting stops the task build."""
    import lm_eval

    from dynbench_tasks.lmeval import task_manager

    results = lm_eval.simple_evaluate(
        model="hf", model_args=f"pretrained={tiny_model},dtype=float32", device="cpu", tasks=["cruxeval_orig"],
        limit=1, metadata={"data_dir": small_data, "repeats": 1}, gen_kwargs="max_gen_toks=2",
        confirm_run_unsafe_code=True,
    )
    assert results["configs"]["cruxeval_orig"]["metadata"]["dynbench"]["repeats"] == 1
    with pytest.raises(SettingsError, match="did you mean 'seed'"):
        task_manager({"data_dir": small_data, "seeed": 1}).load(["cruxeval_orig"])


def _bars(stderr) -> subprocess.CompletedProcess:
    script = ("from dynbench_tasks.cli.terminal import progress_bars_only_to_a_terminal as only\n"
              "import sys\nif sys.argv[1] == 'quiet': only()\n"
              "from tqdm import tqdm\nfor _ in tqdm(range(3), disable=False): pass\n")
    return subprocess.run([sys.executable, "-c", script, "quiet"], stderr=stderr, stdout=subprocess.PIPE, timeout=60)


def test_progress_bars_go_to_a_terminal_only():
    assert _bars(subprocess.PIPE).stderr == b""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # tqdm draws nothing in 0 rows
    try:
        _bars(follower)
        os.set_blocking(leader, False)
        assert b"3/3" in os.read(leader, 4096)
    finally:
        os.close(leader)
        os.close(follower)


class _Request:
    def __init__(self, task_name: str, doc_id: int, max_gen_toks: int = 256) -> None:
        self.task_name, self.doc_id, self.args = task_name, doc_id, ("prompt", {"max_gen_toks": max_gen_toks})


class _Model:
    def __init__(self, device: str = "cpu", batch_size=1) -> None:
        self.device, self.batch_size, self.rank, self.max_gen_toks = device, batch_size, 0, 256


def test_a_generation_on_a_cpu_is_planned_for_dynbench_tasks_only():
    requests = [_Request("cruxeval_fuv", doc) for doc in range(5) for _ in range(5)]
    assert plan(_Model(), requests) == Plan(answers=25, problems=5, max_gen_toks=256, batch=1)
    assert plan(_Model(device="cuda:0"), requests) is None  # a GPU: no note
    assert plan(_Model(), [_Request("hellaswag", 0)]) is None  # no dynbench task: not ours to say
