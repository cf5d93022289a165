"""The sandbox contains what it runs: time, memory, processes, files, environment, privileges."""

import contextlib
import os
import threading
import time
import uuid
from pathlib import Path

from mutators.execution import Sandbox, WorkerPool
from mutators.execution.limits import preloaded, shares_a_process
from mutators.runaway import stalled, stopped_runs


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
    source = "import signal\nsignal.signal(signal.SIGPROF, signal.SIG_IGN)\nwhile True: pass\n"  # a script's CPU timer
    assert _script(sandbox, source, seconds=0.3, wall_seconds=1.5)["status"] == "timeout"


def test_a_cpu_clock_counts_what_the_call_computes_not_how_long_it_waits(sandbox):
    """NewOutput times its candidates on the CPU clock, which a busy machine does not stretch."""
    def evaluate(expression: str, clock: str) -> str:
        payload = {"program": "import time", "expressions": [expression], "seconds": 0.2, "clock": clock}
        task = {"kind": "evaluate_each", "payload": payload, "limits": {"wall_seconds": 10}}
        return sandbox.run([task])[0]["result"]["results"][0]["outcome"]

    spin = "next(x for x in iter(int, 1) if x)"  # never ends, allocates nothing
    assert evaluate(spin, "cpu") == evaluate(spin, "wall") == "timeout"
    assert evaluate("time.sleep(0.4)", "wall") == "timeout"
    assert evaluate("time.sleep(0.4)", "cpu") == "values"  # waiting spends no CPU
    assert evaluate("sum(range(10))", "cpu") == "values"


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


def test_the_isolation_string_says_what_each_language_can_start(sandbox):
    assert sandbox.isolation.describe() == ("bubblewrap; Java sees only the JDK, nothing writable; "
                                            "Python cannot exec (seccomp)")


def test_a_missing_exec_filter_is_said_and_recorded_never_assumed(monkeypatch, caplog):
    """Where the filter cannot hold (here: pretended by the probe), the string and a warning say so, and
    the workers are not told to install it (they would refuse every task)."""
    from mutators.execution import isolation as module

    monkeypatch.setattr(module, "_probe_worker", lambda bubblewrap: ({"pid": 1, "exec_filter": "no seccomp here"}, ""))
    module.isolation.cache_clear()
    try:
        with caplog.at_level("WARNING"):
            found = module.isolation()
    finally:
        module.isolation.cache_clear()
    assert not found.denies_exec
    assert found.describe().endswith("; Python CAN exec (no seccomp here)")
    assert "sandboxed Python code CAN start other programs" in caplog.text


def test_a_child_that_cannot_install_the_filter_refuses_its_task(monkeypatch, tmp_path):
    """The worker fails closed: told to deny exec, a child that cannot does not run its task."""
    from mutators.execution.isolation import EXECUTION_FOLDER

    monkeypatch.syspath_prepend(EXECUTION_FOLDER)
    import worker

    monkeypatch.setattr(worker, "_exec_filter", lambda: "no filter for this machine")
    config = {"user": None, "init": False, "site": [], "deny_exec": True}
    task = {"kind": "run_script", "payload": {"source": "print(1)", "stdin": "", "seconds": 1.0},
            "limits": {"wall_seconds": 5.0, "cpu_seconds": 2, "memory_mb": 512, "nproc": 1, "fsize_mb": 1,
                       "nofile": 64}}
    reaper = worker._Reaper()
    result = worker.run_task(task, reaper, config)
    reaper.reap(block=True)
    assert result["status"] == "error" and "no exec filter" in result["error"], result


def test_the_boundary_holds(sandbox):
    """Under bubblewrap: no network, only its own processes, nothing of the home or data folders,
    a read-only root, and the standard library and installed packages all importable."""
    from dynbench_tasks.benchmarks.records import BUNDLED
    from mutators.execution.isolation import BUBBLEWRAP

    assert sandbox.isolation.kind == BUBBLEWRAP, sandbox.isolation.describe()
    marker = Path.home() / f".dynbench-visible-{uuid.uuid4().hex}"
    marker.write_text("x")
    try:
        probe = (
            "import os, socket, heapq, fractions, copy, string, numpy\n"
            "print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()) == [1, os.getpid()])\n"
            f"print(os.path.exists({str(marker)!r}), os.path.exists({str(BUNDLED / 'MANIFEST.json')!r}))\n"
            "try:\n    socket.create_connection(('1.1.1.1', 53), 1)\nexcept OSError as e:\n    print(type(e).__name__)\n"
            "try:\n    open('/usr/dynbench-probe', 'w')\nexcept OSError as e:\n    print(type(e).__name__)\n"
        )
        result = _script(sandbox, probe, nproc=64, memory_mb=4096)
    finally:
        marker.unlink()
    lines = result["result"]["stdout"].splitlines()
    assert lines[0] == "True", result  # the fork server and this program: no other process is visible
    assert lines[1] == "False False"
    assert lines[2] == "OSError" and lines[3] == "OSError"


def test_without_bubblewrap_it_says_so_and_records_it(monkeypatch, caplog, small_data):
    from dynbench_tasks.lmeval import task_manager
    from mutators.execution import isolation as module

    monkeypatch.setenv("DYNBENCH_ISOLATION", "rlimits")
    module.isolation.cache_clear()
    try:
        with caplog.at_level("WARNING"):
            task = task_manager({"data_dir": small_data}).load(["cruxeval_orig"])["tasks"]["cruxeval_orig"]
        assert "WITHOUT bubblewrap (DYNBENCH_ISOLATION=rlimits)" in caplog.text
        assert "judged Java programs can start any program on this machine" in caplog.text  # no whitelist
        assert task.config.metadata["dynbench"]["isolation"] == (
            "rlimits (DYNBENCH_ISOLATION=rlimits); Java can start any program on this machine; "
            "Python cannot exec (seccomp)")
        with Sandbox(workers=1) as weak:
            assert _script(weak, "print(6 * 7)")["result"]["stdout"] == "42\n"  # limits only, but it runs
    finally:
        module.isolation.cache_clear()


def _scripts(box: Sandbox, source: str, stdins: list[str], **payload) -> list[dict]:
    task = {"kind": "run_scripts", "payload": {"source": source, "stdins": stdins, "seconds": 2.0, "every": True,
                                               "run_wall_seconds": 20, **payload},
            "limits": {"wall_seconds": 60, "cpu_seconds": 10, "nproc": 64}}
    return box.run([task])[0]["result"]["results"]


def test_a_program_s_tests_share_its_imports_and_nothing_else(sandbox):
    probe = "import sys\nprint(sorted(m for m in ('fractions', 'statistics') if m in sys.modules))\nimport fractions"
    # the program imports fractions; its runs find it imported before they start, each run afresh from there
    preload = preloaded(probe)
    assert preload == ("fractions",)
    assert [run["stdout"] for run in _scripts(sandbox, probe, ["", ""], preload=preload)] == ["['fractions']\n"] * 2
    assert [run["stdout"] for run in _scripts(sandbox, probe, ["", ""])] == ["[]\n"] * 2
    # a run changes only its own copy
    spoil = "import fractions\nprint(hasattr(fractions, 'spoilt'))\nfractions.spoilt = True"
    assert [run["stdout"] for run in _scripts(sandbox, spoil, ["", ""], preload=["fractions"])] == ["False\n"] * 2
    # a module that does not import is the program's to fail on
    runs = _scripts(sandbox, "import fractions.nothing_here", [""], preload=["fractions.nothing_here"])
    assert runs[0]["outcome"] == "raise:ModuleNotFoundError"


def test_only_modules_whose_import_does_nothing_else_are_preloaded():
    # this prints at import (each run must print it itself); antigravity starts a browser
    assert preloaded("import this, antigravity, os\nfrom numpy import linalg\nimport scipy.misc as m\n"
                     "from . import fractions") == ("numpy", "scipy.misc")
    assert preloaded("def (") == ()


def test_each_test_of_a_script_may_have_its_own_step_budget(sandbox):
    runs = _scripts(sandbox, "for i in range(int(input())): pass", ["50", "50", "5"], steps=[200, 20, 20])
    assert [run["outcome"] for run in runs] == ["exit:0", "over_budget", "exit:0"]


def test_a_test_that_ends_without_a_word_is_told_from_one_out_of_time(sandbox):
    runs = _scripts(sandbox, "import os, time\nif input() == 'die': os._exit(3)\ntime.sleep(30)", ["die", "sleep"],
                    run_wall_seconds=1)
    assert [(run["outcome"], run["ended"]) for run in runs] == [("timeout", "died"), ("timeout", "timeout")]


def test_only_programs_that_keep_nothing_a_later_run_could_see_share_a_process():
    shared = ["import sys\ninput = sys.stdin.readline\nsys.setrecursionlimit(10 ** 6)\nprint(int(input()))",
              "from collections import deque\nimport math, heapq as h\nprint(*open(0).read().split())",
              "from sys import stdin\nprint(stdin.readline())",
              "from collections import Counter\nc = Counter(input())\nc['a'] += 1\nc.x = 1\nprint(c.most_common(1))",
              "import itertools, datetime\nprint(list(itertools.chain.from_iterable([[1]])), datetime.date.today())"]
    alone = ["import random\nprint(random.random())",  # the generator's state
             "import os\nos.write(1, b'x')", "import numpy", "import decimal", "import threading",
             "import sys as s\nprint(s.stdin.read())",  # a name for sys that is not sys
             "import sys\nsys.stdout = sys.stderr", "import math\nmath.pi = 3", "import sys\nprint(sys.modules)",
             "from sys import modules", "print(open('data.txt').read())", "open(1, 'w').write('x')",
             "__builtins__.input = print", "globals()['x'] = 1", "setattr(print, 'x', 1)", "def (",
             # a class taken from a module, data of a module, through a chain or a private name
             "from collections import Counter\nCounter.total = len", "from fractions import Fraction as F\ndel F.x",
             "import collections\ncollections.Counter.total = len", "import copy\ncopy._deepcopy_dispatch[int] = 0",
             "import copy\ncopy._deepcopy_dispatch.clear()", "import sys\nsys.argv.append('x')",
             "from heapq import *\nheappush.x = 1", "import re\nre.Pattern.x += 1"]
    assert [shares_a_process(source) for source in shared] == [True] * len(shared)
    assert [source for source in alone if shares_a_process(source)] == []


def _without_seconds(runs: list[dict]) -> list[dict]:
    return [{key: value for key, value in run.items() if key != "seconds"} for run in runs]


def test_tests_that_share_a_process_answer_as_each_would_in_a_process_of_its_own(sandbox):
    program = ("import sys\n"
               "reader = open(0)\n"  # closes fd 0 when the run's namespace goes, a cycle through f's globals
               "def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n"
               "class Late:\n    def __del__(self):\n        print('late')\n"
               "late = Late()\nlate.me = late\n"
               "word, number = reader.read().split()\n"
               "if word == 'limit':\n    sys.setrecursionlimit(60)\n"
               "if word == 'digits':\n    sys.set_int_max_str_digits(0)\n"
               "if word == 'raise':\n    raise KeyError(number)\n"
               "if word == 'exit':\n    sys.exit(int(number))\n"
               "if word == 'loop':\n    while True:\n        number = 0\n"
               "print(word, f(int(number)), len(str(10 ** 5000)) if word in ('digits', 'huge') else '')\n")
    stdins = ["plain 5", "limit 10", "deep 200", "digits 3", "huge 3", "raise 1", "deep 100", "exit 3", "plain 2",
              "loop 0", "plain 1"]
    alone = _scripts(sandbox, program, stdins, steps=5_000)
    together = _scripts(sandbox, program, stdins, steps=5_000, shared=True)
    assert _without_seconds(together) == _without_seconds(alone)
    assert [run["outcome"] for run in alone] == ["exit:0", "exit:0", "exit:0", "exit:0", "raise:ValueError",
                                                 "raise:KeyError", "exit:0", "exit:3", "exit:0", "over_budget",
                                                 "exit:0"]
    assert alone[2]["stdout"] == "deep 200 \n"  # the limit the run before set is not this run's
    assert alone[3]["stdout"] == "digits 3 5001\n" and alone[8]["stdout"] == "plain 2 \n"  # nothing printed late


def test_tests_that_share_a_process_go_on_in_a_fresh_one_where_it_ends(sandbox):
    probe = "import os, time\nword = input()\nprint(os.getpid())\n" \
            "if word == 'die': os._exit(3)\nif word == 'sleep': time.sleep(30)\n" \
            "if word == 'spin':\n    end = time.process_time() + 1.1\n    while time.process_time() < end: pass\n"
    words = ["a", "b", "die", "c", "d", "spin", "e", "sleep", "f"]
    runs = _scripts(sandbox, probe, words, shared=True, run_wall_seconds=3)
    ended = [(run["outcome"], run.get("ended")) for run in runs]
    assert ended == [("exit:0", None)] * 2 + [("timeout", "died")] + [("exit:0", None)] * 4 + [
        ("timeout", "timeout"), ("exit:0", None)]
    pids = [run["stdout"] for run in runs]
    assert pids[0] == pids[1] and pids[3] == pids[4] == pids[5]  # one process for the tests in a row
    assert pids[1] != pids[3]  # the run that died took its process with it
    assert pids[6] != pids[5]  # the spin used up the CPU a process may have used before it starts a test
    assert pids[8] != pids[6]  # the one out of time too


def test_a_worker_that_ends_costs_its_batch_nothing_each_task_runs_again_alone():
    """A worker that ends mid-batch (here killed from outside, as a machine's out-of-memory killer would) cost
    every task of its batch an error, and which tasks share a batch depends on the core count: so a build's
    documents could differ by machine. Each runs once more alone and gives its own result."""
    import signal

    tasks = [{"kind": "run_script", "payload": {"source": f"import time\ntime.sleep({pause})\nprint({n})",
                                                "stdin": "", "seconds": 5.0}}
             for n, pause in enumerate([0.0, 1.5, 0.0])]
    with Sandbox(workers=1) as box:
        worker = box.workers[0]
        killer = threading.Timer(0.7, lambda: os.kill(worker.process.pid, signal.SIGKILL))
        killer.start()
        first = worker.process.pid
        results = box.run(tasks)
        killer.join()
        assert worker.process.pid != first  # it did end, and was started afresh
    assert [result["result"]["stdout"] for result in results] == ["0\n", "1\n", "2\n"], results


def _descendants(pid: int) -> set[int]:
    """The processes below ``pid`` now (read from /proc: a sandbox's processes are this machine's too)."""
    parents = {}
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                parents[int(entry)] = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (ValueError, OSError, IndexError):
            continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _stall_the_first_task(box: Sandbox, seconds: float) -> threading.Thread:
    """Stop the processes the box's worker starts first from now on, for ``seconds``, as a stalled machine would."""
    import signal

    root = box.workers[0].process.pid
    before = _descendants(root)

    def stall() -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            started = _descendants(root) - before
            if started:
                for pid in started:
                    os.kill(pid, signal.SIGSTOP)
                time.sleep(seconds)
                for pid in started:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGCONT)
                return
            time.sleep(0.01)

    staller = threading.Thread(target=stall)
    staller.start()
    return staller


def test_a_builds_task_a_stall_stopped_runs_again_and_that_run_decides():
    """A task stopped by its wall-clock limit because the machine stalled it (here stopped from outside, as a
    busy or swapping host stops a process for seconds) would decide a build's document by the clock. A build's
    sandbox runs it once more alone, and that run's result stands; a sandbox that does not (scoring's) keeps the
    stop, which is what the first run gives."""
    task = {"kind": "run_script", "payload": {"source": "import time\ntime.sleep(0.3)\nprint(7)", "stdin": "",
                                              "seconds": 2.0}, "limits": {"wall_seconds": 1.5}}
    for rerun_stalled, expected in ((False, None), (True, "7\n")):
        with Sandbox(workers=1, rerun_stalled=rerun_stalled) as box:
            staller = _stall_the_first_task(box, 3.0)
            result = box.run([task])[0]
            staller.join()
        assert result.get("result", {}).get("stdout") == expected, (rerun_stalled, result)
        assert stalled(result) is (expected is None) and stopped_runs(result) == (expected is None), result


def test_a_run_of_many_a_stall_stopped_marks_its_task_stalled():
    """Within a task that runs a program on many stdins, a run kept past its wall-clock deadline (here by sleeping, as
    a stall would keep it) is marked, and the task then runs again in a build's sandbox; a run its CPU limit stopped
    is not: a stall spends no CPU."""
    runs = [{"outcome": "exit:0", "stdout": "1\n"}, {"outcome": "timeout", "stdout": "", "ended": "timeout"}]
    spun = {"status": "ok", "result": {"results": runs}}
    assert stopped_runs(spun) == 1 and not stalled(spun)
    with Sandbox(workers=1) as box:
        outcome = box.run([{"kind": "run_scripts", "payload": {
            "source": "import time\nif input() == 'sleep':\n    time.sleep(30)\nprint(1)", "stdins": ["a", "sleep"],
            "seconds": 1.0, "every": True, "run_wall_seconds": 1}, "limits": {"wall_seconds": 20, "nproc": 64}}])[0]
    assert [run["outcome"] for run in outcome["result"]["results"]] == ["exit:0", "timeout"]
    assert stalled(outcome) and stopped_runs(outcome) == 1, outcome


def test_a_runaway_its_cpu_limit_stopped_runs_once():
    """A task that loops for ever is stopped by its CPU limit, which a stall does not reach: it runs once, in a
    build's sandbox too, and counts one stopped run."""
    task = {"kind": "run_script", "payload": {"source": "while True: pass", "stdin": "", "seconds": 0.3}}
    with Sandbox(workers=1, rerun_stalled=True) as box:
        worker, batches = box.workers[0], []
        real_run = worker.run
        worker.run = lambda batch: batches.append(len(batch)) or real_run(batch)
        result = box.run([task])[0]
    assert result["result"]["outcome"] == "timeout" and stopped_runs(result) == 1 and not stalled(result), result
    assert batches == [1]
