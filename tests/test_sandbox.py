"""The sandbox contains what it runs: time, memory, processes, files, environment, privileges."""

import os
import time

from mutators.execution import Sandbox, WorkerPool


def _script(box: Sandbox, source: str, seconds: float = 2.0, **limits) -> dict:
    task = {"kind": "run_script", "payload": {"source": source, "stdin": "", "seconds": seconds}}
    if limits:
        task["limits"] = limits
    return box.run([task])[0]


def test_output_exit_and_exceptions(sandbox):
    ok = _script(sandbox, "print(input.__name__)\nimport sys\nsys.exit(3)")
    assert ok["result"] == {"outcome": "exit:3", "stdout": "input\n", "seconds": ok["result"]["seconds"]}
    assert _script(sandbox, "raise KeyError(1)")["result"]["outcome"] == "raise:KeyError"


def test_infinite_loop_costs_only_its_own_task(sandbox):
    results = sandbox.run([
        {"kind": "run_script", "payload": {"source": "while True: pass", "stdin": "", "seconds": 0.5}},
        {"kind": "run_script", "payload": {"source": "print(1)", "stdin": "", "seconds": 0.5}},
    ])
    assert results[0]["result"]["outcome"] == "timeout"
    assert results[1]["result"]["stdout"] == "1\n"


def test_a_loop_that_swallows_the_timeout_still_times_out(sandbox):
    source = "while True:\n    try:\n        while True: pass\n    except BaseException:\n        pass\n"
    assert _script(sandbox, source, seconds=0.3, wall_seconds=2)["result"]["outcome"] == "timeout"


def test_a_program_that_ignores_the_alarm_is_killed_at_the_wall_clock_limit(sandbox):
    source = "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True: pass\n"
    assert _script(sandbox, source, seconds=0.3, wall_seconds=1.5)["status"] == "timeout"


def test_memory_is_capped(sandbox):
    result = _script(sandbox, "x = bytearray(3 * 1024**3)\nprint('allocated')", memory_mb=512)
    assert result["result"]["outcome"] == "raise:MemoryError"


def test_fork_is_refused_and_hard_exit_is_reported(sandbox):
    forked = _script(sandbox, "import os\ntry:\n    os.fork()\n    print('forked')\nexcept OSError:\n    print('refused')")
    assert forked["result"]["stdout"] == "refused\n"
    assert _script(sandbox, "import os\nos._exit(7)")["status"] == "died"


def test_file_size_environment_and_working_directory(sandbox):
    source = (
        "import os\n"
        "print(sorted(os.environ))\n"
        "open('big', 'wb').write(b'x' * (3 * 1024 * 1024))\n"
    )
    result = _script(sandbox, source, fsize_mb=1)
    lines = result["result"]["stdout"].splitlines()
    assert lines[0] == "['HOME', 'LANG', 'MKL_NUM_THREADS', 'OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'PATH', 'TMPDIR']"
    assert result["result"]["outcome"] in ("raise:OSError", "died") or "SIGXFSZ" in str(result)


def test_privileges_are_dropped_when_started_as_root(sandbox):
    uid = _script(sandbox, "import os\nprint(os.getuid())")["result"]["stdout"].strip()
    assert uid == ("65534" if os.getuid() == 0 else str(os.getuid()))
    home = os.path.expanduser("~")
    denied = _script(sandbox, f"open({home!r} + '/.dynbench-probe', 'w')")
    assert denied["result"]["outcome"] in ("raise:PermissionError", "raise:OSError", "raise:FileNotFoundError")
    assert not os.path.exists(os.path.join(home, ".dynbench-probe"))


def test_workdirs_are_removed(sandbox):
    import tempfile
    before = {n for n in os.listdir(tempfile.gettempdir()) if n.startswith("dynbench-sandbox-")}
    _script(sandbox, "open('scratch', 'w').write('x')")
    after = {n for n in os.listdir(tempfile.gettempdir()) if n.startswith("dynbench-sandbox-")}
    assert after <= before


def test_a_small_job_is_spread_over_every_worker():
    used = []

    def work(worker, batch):
        used.append(worker)
        time.sleep(0.05)  # long enough for the batches to overlap
        return [(worker, item) for item in batch]

    pool = WorkerPool(["first", "second"], batch_size=48)
    results = pool.map(work, list(range(16)))
    assert [item for _, item in results] == list(range(16))
    assert set(used) == {"first", "second"}
