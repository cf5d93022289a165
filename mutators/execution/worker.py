"""Fork server that runs untrusted Python, one forked child per task. Standard library only.

Run as ``python -I -S worker.py CONFIG`` (no site: a smaller process forks faster) with the clean
environment children inherit; CONFIG is JSON: ``user`` (the uid children take when started as root,
or null), ``init`` (this process is PID 1 of its own sandbox, see below), ``site`` (folders of
installed packages children may import from) and ``deny_exec`` (children install the exec filter
below, and refuse their task if they cannot). It reads one JSON request per line on stdin,
``{"tasks": [{"kind": ..., "payload": ..., "limits": ...}, ...]}`` (every limit of
:mod:`mutators.execution.limits` given), and answers one JSON line, ``{"results": [...]}``, in the
same order. Each task runs in a fresh child forked from this small process: its own session (so the
whole process group can be killed), a throwaway working directory, stdio away from the protocol
pipes, CPU/memory/process/file-size/open-file limits and a wall-clock deadline enforced from here.
``python -I -S worker.py --probe`` instead prints one JSON line, ``{"pid": ..., "exec_filter": ...}``,
the filter's entry "" where a child here is refused exec under it, else the reason it is not.

Before it runs anything of its task, each child sets ``no_new_privs`` and installs a seccomp filter
under which ``execve`` and ``execveat`` fail with EPERM, so no answer can start a second interpreter,
a shell or any other program (nor a file it wrote, nor one in memory); ``ptrace`` and
``process_vm_writev`` fail too, so it cannot borrow a process without the filter. Syscalls of another
ABI than the interpreter's (i386 through ``int 0x80``, x32) all fail. A filter cannot be undone, and
forks inherit it. This process itself is not dumpable: no child can trace it or write its memory
through ``/proc``.

Inside a sandbox (``init``) this process is PID 1 of a PID namespace: no child can signal it (PID 1
ignores every signal it has no handler for), and after each task it kills every other process of the
namespace and empties the private ``/tmp`` and ``/dev/shm``, so nothing one task leaves behind
reaches the next.

What a child computes leaves it as plain data (:mod:`plain`); the caller judges it.

Steps: a payload with ``steps`` has the executed lines of the program's own code counted (code compiled
under the payload's ``filename``, ``<program>`` unless it names another) by a trace function, per call or
run, and each run reports its ``steps``; where ``steps`` is a number, it is a budget: a run that would
take more ends as ``over_budget``. Every machine counts the same, so a budget, unlike a timer, decides
the same everywhere; the timers then only stop runaways (work done in C, which no line counts). A
payload with ``trace`` also reports the numbers of the lines it ran of that code.
"""

import builtins
import contextlib
import errno
import functools
import gc
import io
import json
import os
import random
import resource
import select
import shutil
import signal
import struct
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves the script's folder out
import plain

RESULT_CAP = 8 * 1024 * 1024
# Marks a run or a task its wall-clock deadline stopped, where neither its CPU limit nor its step budget did: a
# stall of the machine can do that, and the client may run it again (mutators.runaway.stalled)
WALL_CLOCK_STOP = {"clock": "wall"}
TEXT_CAP = 1024 * 1024


class CallTimeout(BaseException):
    """Raised inside a task when one call overruns; BaseException so ``except Exception`` misses it."""


class OverBudget(BaseException):
    """Raised inside a task when one call runs more lines than its step budget."""


def _on_alarm(signum, frame):
    raise CallTimeout()


# (timer, its signal, the clock it counts): wall time, or the CPU time this child spends, which a busy
# machine does not stretch (a limit far above what the code needs then gives the same verdict anywhere).
_CLOCKS = {"wall": (signal.ITIMER_REAL, signal.SIGALRM, time.perf_counter),
           "cpu": (signal.ITIMER_PROF, signal.SIGPROF, time.process_time)}


def _timed(function, seconds, clock="wall", counter=None):
    """Run ``function()``; return (kind, value, elapsed) with kind in return/raise/exit/timeout, or
    over_budget where ``counter`` (a :class:`_Counter`) ran out, whatever the program did after."""
    timer, alarm, now = _CLOCKS[clock]
    signal.signal(alarm, _on_alarm)
    start = now()
    signal.setitimer(timer, seconds, 0.05)
    try:
        try:
            value = function() if counter is None else counter.run(function)
            kind = "return"
        finally:
            signal.setitimer(timer, 0)
    except CallTimeout:
        kind, value = "timeout", None
    except SystemExit as stop:
        code = stop.code
        kind, value = "exit", code if isinstance(code, int) else (0 if code is None else 1)
    except BaseException as error:  # the program's own exception is data here
        kind, value = "raise", type(error).__qualname__
    elapsed = now() - start
    if counter is not None and counter.over:  # first: a program may catch OverBudget and go on
        return "over_budget", None, elapsed
    if kind == "return" and elapsed > seconds:
        return "timeout", None, elapsed
    return kind, value, elapsed


class _Counter:
    """Counts the lines run of code compiled as ``filename`` (a program's own: the interpreter's code
    and the caller's are not counted), adds their numbers to ``lines`` where given, and stops the run
    once more than ``budget`` have run (None: no budget). ``steps`` accumulates over the runs made."""

    def __init__(self, filename, budget=None, lines=None):
        self.filename, self.budget, self.lines = filename, budget, lines
        self.steps, self.over = 0, False

    def run(self, function):
        filename, lines, steps = self.filename, self.lines, self.steps
        budget = float("inf") if self.budget is None else self.budget

        # A trace function runs at every line of the program: the count is a local of this closure and each
        # function tests one thing (a loop of 3 million counted lines: ~20% less time than with the count an
        # attribute and the lines tested for at every line; TransCoder's heaviest calls run 1-3 million).
        def counting(frame, event, arg):
            nonlocal steps
            if event == "line":
                steps += 1
                if steps > budget:
                    self.over = True
                    raise OverBudget()  # CPython also stops tracing here: a program that catches it runs on unseen
            return counting

        def counting_lines(frame, event, arg):
            nonlocal steps
            if event == "line":
                steps += 1
                lines.add(frame.f_lineno)
                if steps > budget:
                    self.over = True
                    raise OverBudget()
            return counting_lines

        local = counting if lines is None else counting_lines

        def trace(frame, event, arg):  # a frame's "call" event: nothing to count yet
            return local if frame.f_code.co_filename == filename else None

        sys.settrace(trace)
        try:
            return function()
        finally:
            sys.settrace(None)
            self.steps = steps


def _short(value, limit=200):
    try:
        text = repr(value)
    except BaseException:
        text = "<unprintable %s>" % type(value).__qualname__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _same_value(a, b):
    if type(a) is not type(b):
        return False
    try:
        if a == b:
            return True
    except BaseException:
        pass
    try:
        return repr(a) == repr(b)
    except BaseException:
        return False


def _collect(*args, **kwargs):
    return args, kwargs


class _Capture:
    """Swap sys.stdout for a string buffer."""

    def __enter__(self):
        self.saved, self.buffer = sys.stdout, io.StringIO()
        sys.stdout = self.buffer
        return self

    def __exit__(self, *exc):
        sys.stdout = self.saved
        self.text = self.buffer.getvalue()[:TEXT_CAP]


def _run_call(namespace, function_name, args_text, seconds, steps=None):
    """One call, timed in CPU time (which a busy machine does not stretch), and where ``steps`` is a
    budget, its program's lines counted."""
    def call():
        # As in ``assert f(<input>) == ...`` appended to the program: the input sees its names.
        args, kwargs = eval("__collect__(%s)" % args_text, dict(namespace, __collect__=_collect))
        random.seed(0)
        return namespace[function_name](*args, **kwargs)

    counter = None if steps is None else _Counter(PROGRAM_FILENAME, steps)
    with _Capture() as capture:
        outcome = _timed(call, seconds, "cpu", counter)
    return outcome, capture.text


def _describe(outcome, text):
    kind, value, _ = outcome
    if kind == "return":
        described = "returned " + _short(value)
    elif kind == "raise":
        described = "raised " + value
    elif kind == "timeout":
        described = "timed out"
    elif kind == "over_budget":
        described = "ran past its step budget"
    else:
        described = "exited with " + _short(value)
    return described + (" and printed " + _short(text, 80) if text else "")


def _agree(original, mutant):
    (o_kind, o_value, _), o_text = original
    (m_kind, m_value, _), m_text = mutant
    if o_kind != m_kind or o_text != m_text:
        return False
    if o_kind == "return":
        return _same_value(o_value, m_value)
    return o_value == m_value


_compiled = {}  # filled only in a task's child, which is forked afresh for every task
PROGRAM_FILENAME = "<program>"  # what a task's program is compiled as, unless its payload names a ``filename``


def _executor(source, namespace):
    def execute():
        if source not in _compiled:
            _compiled[source] = compile(source, PROGRAM_FILENAME, "exec")
        exec(_compiled[source], namespace)

    return execute


def _define(payload, source):
    """A fresh namespace holding ``source`` run after the preamble: (namespace, (outcome, printed))."""
    namespace = {"__name__": "__dynbench_program__", "__builtins__": builtins}
    with _Capture() as capture:
        outcome = _timed(_executor(payload.get("preamble", "") + "\n" + source, namespace), payload["seconds"], "cpu")
    return namespace, (outcome, capture.text)


def _run_original(payload, sequence):
    """The original defined afresh and called on every input of one sequence, in order."""
    namespace, definition = _define(payload, payload["original"])
    if definition[0][0] != "return":
        return definition, None
    return definition, [_run_call(namespace, payload["function"], text, seconds, steps)
                        for text, seconds, steps in sequence]


def _compare_mutant(payload, mutant, original):
    """One mutant, defined afresh and called on its spelling of each input the original finished."""
    definition, calls = original
    if calls is None:
        return {"definition": "original failed: " + _describe(*definition), "inputs": []}
    namespace, own_definition = _define(payload, mutant["source"])
    if not _agree(definition, own_definition):
        differs = "module body differs: %s vs %s" % (_describe(*definition), _describe(*own_definition))
        return {"definition": differs, "inputs": []}
    sequence = payload["sequences"][mutant["sequence"]]
    results = []
    for (_, seconds, steps), text, before in zip(sequence, mutant["inputs"], calls, strict=True):
        if before[0][0] in ("timeout", "over_budget"):
            results.append({"original": before[0][0]})
            continue
        after = _run_call(namespace, payload["function"], text, seconds * 3, None if steps is None else steps * 3)
        entry = {"original": before[0][0], "agree": _agree(before, after)}
        if not entry["agree"]:
            entry["mutant"] = after[0][0]
            entry["why"] = "original %s; mutant %s" % (_describe(*before), _describe(*after))
        results.append(entry)
    return {"definition": "ok", "inputs": results}


def task_compare_calls(payload):
    """Compare mutants of one program with it, call by call. The original runs once per distinct
    sequence of inputs (its spelling, CPU seconds, step budget or None); each mutant (given three
    times as much of both) names its sequence and spells each input its own way. Original and mutant
    each start from a fresh namespace and take the inputs in order, so a sequence that begins another
    takes the first calls of the longer one's run."""
    sequences = payload["sequences"]
    originals = [None] * len(sequences)
    for index in sorted(range(len(sequences)), key=lambda i: -len(sequences[i])):
        sequence = sequences[index]
        longer = next((i for i, run in enumerate(originals) if run is not None
                       and sequences[i][:len(sequence)] == sequence), None)
        if longer is None:
            originals[index] = _run_original(payload, sequence)
        else:
            definition, calls = originals[longer]
            originals[index] = (definition, None if calls is None else calls[:len(sequence)])
    return {"mutants": [_compare_mutant(payload, mutant, originals[mutant["sequence"]])
                        for mutant in payload["mutants"]]}


def _install_quit_builtins():
    """``exit()``/``quit()`` as the site module would define them (the worker runs without site)."""
    import _sitebuiltins

    builtins.exit = _sitebuiltins.Quitter("exit", "Ctrl-D (i.e. EOF)")
    builtins.quit = _sitebuiltins.Quitter("quit", "Ctrl-D (i.e. EOF)")


def task_run_script(payload):
    """Run a stdin → stdout program as ``__main__``; report its exit, what it printed and the CPU time it took."""
    _install_quit_builtins()
    with open("stdin.txt", "w", encoding="utf-8") as handle:
        handle.write(payload["stdin"])
    for path, flags, fd in (("stdin.txt", os.O_RDONLY, 0), ("stdout.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 1)):
        opened = os.open(path, flags)
        if opened != fd:  # fd 0 is free where the run before closed it (open(0) does, as it ends)
            os.dup2(opened, fd)
            os.close(opened)
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    counter = _counter(payload)
    kind, value, elapsed = _timed(_executor(payload["source"], namespace), payload["seconds"], "cpu", counter)
    with contextlib.suppress(BaseException):  # the program may have closed or replaced stdout
        sys.stdout.flush()
    if kind == "return":
        kind, value = "exit", 0
    with open("stdout.txt", "rb") as handle:
        printed = handle.read(TEXT_CAP).decode("utf-8", "replace")
    result = {"outcome": kind if kind in ("timeout", "over_budget") else "%s:%s" % (kind, value), "stdout": printed,
              "seconds": round(elapsed, 4)}
    return dict(result, **_counted(counter))


def _preload(name):
    """Import ``name`` once here, so that every run forked after finds it imported: numpy costs a run that
    imports it afresh about 0.1 s of CPU. The client names only modules whose import defines things and does
    nothing else (a module that printed would print once, not in each run). One that fails to import is left
    for the runs to fail on, as they would have."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            __import__(name)
    except BaseException:
        pass


def _compile_ahead(source):
    """Compile ``source`` here, once, for every run forked after: a run compiling it afresh pays about a
    millisecond of CPU, more than forking it. A source that does not compile is left for each run to fail on."""
    with contextlib.suppress(Exception):
        _compiled[source] = compile(source, PROGRAM_FILENAME, "exec")


# CPU seconds a process running a program's tests one after another may have used and still start another: so
# no run there gets less of the process's CPU limit than a process of its own would give it.
_SHARED_CPU_SECONDS = 1.0
_REST = {"rest": True}  # a process running tests one after another leaves the rest to a fresh one


def _last_needed(result, payload, reached):
    """Whether ``result`` is the last run of a program's tests that ``task_run_scripts`` needs: a run that
    did not exit cleanly (unless ``every``), or, traced with ``enough``, the run after which all but
    ``missing`` of those lines have run (``reached``: the lines run so far, updated here)."""
    if result.get("outcome") != "exit:0":
        return not payload.get("every")
    enough = payload.get("enough") if payload.get("trace") else None
    if enough:
        reached.update(result.get("lines") or ())
        return len(set(enough["lines"]) - reached) <= enough["missing"]
    return False


def _send(write_fd, message):
    data = json.dumps(message).encode()[:RESULT_CAP]  # cut, it no longer reads: the run reports nothing
    view = memoryview(struct.pack("!I", len(data)) + data)
    while view:
        view = view[os.write(write_fd, view):]


def _run_tests(payload, first, count, write_fd):
    """In a process forked for them: tests ``first`` to ``first + count`` of the payload, one after another,
    one message each, until one is the last needed or this process has used ``_SHARED_CPU_SECONDS``."""
    steps, reached = payload.get("steps"), set()
    recursion = sys.getrecursionlimit()
    digits = getattr(sys, "get_int_max_str_digits", lambda: None)()
    gc.freeze()  # what is here already: each run's collection then looks at what the runs made only
    for index in range(first, first + count):
        if index > first and time.process_time() > _SHARED_CPU_SECONDS:
            _send(write_fd, _REST)
            break
        sys.setrecursionlimit(recursion)  # what the run before may have set
        if digits is not None:
            sys.set_int_max_str_digits(digits)
        try:
            run = dict(payload, stdin=payload["stdins"][index])
            if isinstance(steps, list):
                run["steps"] = steps[index]
            result = task_run_script(run)
        except BaseException as error:
            result = {"outcome": "error:%s" % type(error).__name__, "stdout": ""}
        _send(write_fd, result)
        if _last_needed(result, payload, reached):
            break
        if result.get("outcome") != "exit:0":  # stopped anywhere: what it left half done stays with this process
            _send(write_fd, _REST)
            break
        # The run's namespace goes now, not in a later run: its finalizers (a file on fd 0 closing, a print)
        # act on this run's stdin and stdout, which no one reads any more.
        gc.collect()
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
    os._exit(0)


def _next_message(read_fd, buffer, deadline):
    """The next message in ``buffer`` (filled from ``read_fd``): a dict, or None where none came by
    ``deadline``, or none that reads came before the run ended (the pipe closed, or what came is no
    message); and whether the run ended so."""
    while len(buffer) < 4 or len(buffer) < 4 + struct.unpack("!I", bytes(buffer[:4]))[0]:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([read_fd], [], [], remaining)[0]:
            return None, False
        chunk = os.read(read_fd, 1 << 16)
        if not chunk:
            return None, True
        buffer += chunk
    size = 4 + struct.unpack("!I", bytes(buffer[:4]))[0]
    data = bytes(buffer[4:size])
    del buffer[:size]
    try:
        message = json.loads(data)
    except ValueError:
        return None, True
    return (message, False) if isinstance(message, dict) else (None, True)


def task_run_scripts(payload):
    """``run_script`` on each of ``stdins`` in turn, until a run does not exit cleanly (unless ``every``): a
    program is judged on all its tests for the price of one task, and one that fails the first test costs no
    more. Each run is in a process forked from this one; with ``shared`` (the client's word that the program
    keeps no state between runs that a later run could see: :func:`mutators.execution.limits.shares_a_process`),
    one forked process runs the tests one after another, each from a fresh namespace, until it has used
    ``_SHARED_CPU_SECONDS`` (a fork costs a run more CPU than most Avatar programs take), and a fresh one
    goes on from the test after the last it reported. ``seconds`` is a budget per run (of CPU time, which a
    busy machine does not stretch; ``run_wall_seconds`` stops a run that sleeps), as is ``steps`` (one for
    every run, or a list of one per stdin). The modules ``preload`` names are imported before the first run
    (:func:`_preload`), and the program compiled. Traced runs with ``enough`` (``lines``, ``missing``) stop
    once all but ``missing`` of those lines have run: what the remaining tests reach could only lower that
    count."""
    results, reached = [], set()
    for name in payload.get("preload", ()):
        _preload(name)
    _install_quit_builtins()
    _compile_ahead(payload["source"])
    stdins, done = payload["stdins"], False
    while len(results) < len(stdins) and not done:
        first = len(results)
        count = len(stdins) - first if payload.get("shared") else 1
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            _run_tests(payload, first, count, write_fd)
        os.close(write_fd)
        buffer = bytearray()
        while len(results) < first + count:
            message, ended = _next_message(read_fd, buffer, time.monotonic() + payload["run_wall_seconds"])
            if message == _REST:
                break
            if message is None:
                status = _ended(pid)
                pid = None
                # no report (``ended`` says why, as a task of its own would: "timeout", or "died" where the run
                # ended early, killed by a signal other than the CPU limit's or exiting without a word; a run
                # its wall-clock deadline stopped says so, as a stalled machine stops one)
                died = ended and not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU)
                message = {"outcome": "timeout", "stdout": "", "ended": "died" if died else "timeout",
                           **({} if ended else WALL_CLOCK_STOP)}
            results.append(message)
            if _last_needed(message, payload, reached):
                done = True
            if done or pid is None:
                break
        os.close(read_fd)
        if pid is not None:
            _ended(pid)
    return {"results": results}


def _ended(pid):
    """Kill the process ``pid`` runs tests in, if it still runs, and its wait status."""
    _kill_group(pid)
    with contextlib.suppress(ChildProcessError):
        return os.waitpid(pid, 0)[1]
    return 0


def _counter(payload):
    """The step counter a payload asks for (its ``steps``, a budget or None for none, or ``trace``), else None."""
    if "steps" not in payload and not payload.get("trace"):
        return None
    return _Counter(payload.get("filename", PROGRAM_FILENAME), payload.get("steps"),
                    set() if payload.get("trace") else None)


def _counted(counter):
    """What a run reports of its counter: the steps it ran, and its lines where traced."""
    if counter is None:
        return {}
    return {"steps": counter.steps, **({"lines": sorted(counter.lines)} if counter.lines is not None else {})}


def task_evaluate(payload):
    """Run ``program`` (if any), then evaluate each of ``expressions`` in its namespace, in order, and
    hand back their values as plain data. Nothing is compared here. The program gets ``seconds``, and so
    do the expressions together; one step budget covers them all, the program's own run included."""
    namespace = {"__name__": "__dynbench_program__", "__builtins__": builtins}
    clock = payload.get("clock", "wall")
    counter = _counter(payload)
    lines = None if counter is None else counter.lines
    if payload.get("program") is not None:
        if counter is not None:
            counter.lines = None  # the lines reported are those the expressions run
        kind, value, _ = _timed(_executor(payload["program"], namespace), payload["seconds"], clock, counter)
        if kind != "return":
            return {"outcome": "program_" + kind, "exception": value if kind == "raise" else None,
                    **_counted(counter)}
        if counter is not None:
            counter.lines = lines
    values = []
    now = _CLOCKS[clock][2]
    deadline = now() + payload["seconds"]  # one time budget for all the expressions
    for expression in payload["expressions"]:
        def evaluate(expression=expression):
            random.seed(0)
            return eval(expression, namespace)

        kind, value, _ = _timed(evaluate, max(0.001, deadline - now()), clock, counter)
        if kind != "return":
            return {"outcome": kind, "exception": value if kind == "raise" else None, **_counted(counter)}
        values.append(value)
    try:
        return {"outcome": "values", "values": [plain.encode(value) for value in values], **_counted(counter)}
    except plain.PlainDataError as error:
        return {"outcome": "not_plain", "why": str(error)}
    except BaseException as error:  # a hostile value can make even encoding fail: say so, plainly
        return {"outcome": "not_plain", "why": type(error).__name__}


def task_evaluate_each(payload):
    """``evaluate`` once per expression, each in a fresh namespace with its own time and step budgets: many
    independent calls of one program for the price of one child."""
    return {"outcome": "each", "results": [
        task_evaluate(dict(payload, expressions=[expression])) for expression in payload["expressions"]]}


TASKS = {"compare_calls": task_compare_calls, "run_script": task_run_script, "run_scripts": task_run_scripts,
         "evaluate": task_evaluate,
         "evaluate_each": task_evaluate_each}


# The exec filter: classic BPF over struct seccomp_data {int nr; u32 arch; ...} (linux/seccomp.h).
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2
_LOAD_WORD, _JUMP_IF_EQUAL, _JUMP_IF_AT_LEAST, _RETURN = 0x20, 0x15, 0x35, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|K, ...
_ALLOW, _FAIL_EPERM = 0x7FFF0000, 0x00050000 | errno.EPERM  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO
_X32_SYSCALL_BIT = 0x40000000
# machine: (AUDIT_ARCH, syscalls that fail: execve, execveat, ptrace, process_vm_writev; whether x32 exists)
_FILTERED = {
    "x86_64": (0xC000003E, (59, 322, 101, 311), True),
    "aarch64": (0xC00000B7, (221, 281, 117, 271), False),
}


def _filter_rows(arch, denied, x32):
    """(code, jt, jf, k) rows: another ABI or a denied syscall returns EPERM, everything else runs."""
    rows = [(_LOAD_WORD, 0, 0, 4), (_JUMP_IF_EQUAL, 0, None, arch), (_LOAD_WORD, 0, 0, 0)]
    if x32:
        rows.append((_JUMP_IF_AT_LEAST, None, 0, _X32_SYSCALL_BIT))
    rows += [(_JUMP_IF_EQUAL, None, 0, number) for number in denied]
    rows += [(_RETURN, 0, 0, _ALLOW), (_RETURN, 0, 0, _FAIL_EPERM)]
    fail = len(rows) - 1
    return [(code, fail - i - 1 if jt is None else jt, fail - i - 1 if jf is None else jf, k)
            for i, (code, jt, jf, k) in enumerate(rows)]


@functools.lru_cache(maxsize=1)
def _exec_filter():
    """(prctl, program) ready for children to install (built once, in this process), or why there is none."""
    machine = os.uname().machine
    if not sys.platform.startswith("linux"):
        return "seccomp needs Linux (this is %s)" % sys.platform
    if machine not in _FILTERED or struct.calcsize("P") != 8:
        return "no exec filter for %s with a %d-bit Python" % (machine, 8 * struct.calcsize("P"))
    try:
        import ctypes
    except ImportError as error:
        return "ctypes is missing (%s)" % error

    class Instruction(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint32)]

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Instruction))]

    rows = _filter_rows(*_FILTERED[machine])
    instructions = (Instruction * len(rows))(*rows)
    program = Program(len(rows), instructions)  # holds a reference to its instructions
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError) as error:
        return "prctl is not reachable (%s)" % error
    prctl.restype = ctypes.c_int
    prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
    return prctl, program


def _deny_exec():
    """From here on this process and its forks cannot exec (see the module's docstring); raises if not."""
    import ctypes

    exec_filter = _exec_filter()
    if isinstance(exec_filter, str):
        raise OSError(errno.ENOSYS, "no exec filter: " + exec_filter)
    prctl, program = exec_filter
    if prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
            prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(program), 0, 0) != 0:
        number = ctypes.get_errno()
        raise OSError(number, "the exec filter could not be installed: " + os.strerror(number))


def _probe_exec_filter():
    """"" when a child here installs the exec filter and is then refused exec, else why not."""
    exec_filter = _exec_filter()
    if isinstance(exec_filter, str):
        return exec_filter
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            _deny_exec()
            os.execv(sys.executable, [sys.executable, "-I", "-S", "-c", "pass"])
        except PermissionError:
            answer = b"refused"
        except BaseException as error:
            answer = ("%s: %s" % (type(error).__name__, error)).encode()[:300]
        os.write(write_fd, answer)
        os._exit(0)
    os.close(write_fd)
    answer = b""
    while True:
        chunk = os.read(read_fd, 4096)
        if not chunk:
            break
        answer += chunk
    os.close(read_fd)
    os.waitpid(pid, 0)
    if answer == b"refused":
        return ""
    return answer.decode("utf-8", "replace") or "exec still works under the filter"


def _limit(which, value, grace=0):
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard - grace)
    resource.setrlimit(which, (value, value + grace))


def _kill_group(pid):
    for kill in (os.killpg, os.kill):  # the group takes any grandchildren with it
        with contextlib.suppress(ProcessLookupError, PermissionError):
            kill(pid, signal.SIGKILL)


def _enter_sandbox(workdir, limits, keep_fd, config):
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.closerange(3, keep_fd)
    os.closerange(keep_fd + 1, 65536)
    user = config["user"]
    if user is not None and os.getuid() == 0:
        os.chown(workdir, user, user)
        os.setgroups([])
        os.setgid(user)
        os.setuid(user)
    os.chdir(workdir)
    os.environ.update({"HOME": workdir, "TMPDIR": workdir})
    sys.path.extend(config["site"])
    # A second of grace between SIGXCPU (reported as a timeout) and the hard limit's SIGKILL.
    _limit(resource.RLIMIT_CPU, int(limits["cpu_seconds"]), grace=1)
    _limit(resource.RLIMIT_AS, int(limits["memory_mb"]) * 1024 * 1024)
    _limit(resource.RLIMIT_FSIZE, int(limits["fsize_mb"]) * 1024 * 1024)
    _limit(resource.RLIMIT_NOFILE, int(limits["nofile"]))
    _limit(resource.RLIMIT_NPROC, int(limits["nproc"]))
    _limit(resource.RLIMIT_CORE, 0)
    if config["deny_exec"]:
        _deny_exec()


def _child(task, workdir, write_fd, config):
    try:
        _enter_sandbox(workdir, task["limits"], write_fd, config)
        result = TASKS[task["kind"]](task["payload"])
        data = json.dumps({"status": "ok", "result": result}).encode()
        if len(data) > RESULT_CAP:
            data = json.dumps({"status": "error", "error": "result too large"}).encode()
    except BaseException as error:
        data = json.dumps({"status": "error", "error": "%s: %s" % (type(error).__name__, _short(error))}).encode()
    message = struct.pack("!I", len(data)) + data
    view = memoryview(message)
    while view:
        view = view[os.write(write_fd, view):]
    os.close(write_fd)
    os._exit(0)


def _read_message(read_fd, deadline):
    """The child's length-prefixed result; b"" if it closed the pipe first, None past the deadline."""
    buffer = bytearray()
    expected = None
    while expected is None or len(buffer) < expected:
        if expected is not None and expected > RESULT_CAP + 4:
            return b"{}"  # no result of ours is that large: a child is writing its own
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        ready, _, _ = select.select([read_fd], [], [], remaining)
        if not ready:
            return None
        chunk = os.read(read_fd, 1 << 16)
        if not chunk:
            return b""
        buffer += chunk
        if expected is None and len(buffer) >= 4:
            expected = 4 + struct.unpack("!I", buffer[:4])[0]
    return bytes(buffer[4:expected])


class _Reaper:
    """Children are killed as soon as their result is in and reaped later, so the worker never waits
    for a process to be torn down."""

    def __init__(self):
        self.pending = []

    def kill(self, pid, workdir):
        _kill_group(pid)
        self.pending.append((pid, workdir))

    def reap(self, block=False):
        still = []
        for pid, workdir in self.pending:
            try:
                done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
            except ChildProcessError:  # already reaped while the namespace was cleared
                done = pid
            if done:
                shutil.rmtree(workdir, ignore_errors=True)
            else:
                still.append((pid, workdir))
        self.pending = still

    def status_of(self, pid):
        _, status = os.waitpid(pid, 0)
        return status


_WORKDIR_BASE = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


def _depth(value, limit):
    """Whether ``value`` nests no deeper than ``limit`` (iteratively: a child chose its shape)."""
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if level > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return True


def _checked_message(data):
    """A child's message as the caller may read it; a garbled, deep or huge one becomes an error."""
    try:
        message = json.loads(data)
    except (ValueError, RecursionError, MemoryError):
        return {"status": "error", "error": "garbled result"}
    if not isinstance(message, dict) or not _depth(message, 2 * plain.MAX_DEPTH + 8):
        return {"status": "error", "error": "garbled result"}
    return message


def run_task(task, reaper, config):
    limits = task["limits"]
    workdir = tempfile.mkdtemp(prefix="dynbench-sandbox-", dir=_WORKDIR_BASE)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(task, workdir, write_fd, config)
    os.close(write_fd)
    data = _read_message(read_fd, time.monotonic() + float(limits["wall_seconds"]))
    os.close(read_fd)
    if data:
        reaper.kill(pid, workdir)
        return _checked_message(data)
    _kill_group(pid)
    status = reaper.status_of(pid)
    shutil.rmtree(workdir, ignore_errors=True)
    if data is None:
        return {"status": "timeout", **WALL_CLOCK_STOP}
    if os.WIFSIGNALED(status):
        signal_name = signal.Signals(os.WTERMSIG(status)).name
        return {"status": "timeout" if signal_name == "SIGXCPU" else "died", "error": signal_name}
    return {"status": "died", "error": "exit status %d" % os.WEXITSTATUS(status)}


def _undumpable():
    """Untraceable, and its memory closed to /proc/PID/mem of a child running as the same user: this
    process has no exec filter, so a child must not be able to borrow it."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0


@functools.lru_cache(maxsize=1)
def _libc():
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except (ImportError, OSError):
        return None


def _clear_ipc():
    """Remove the System V shared memory, semaphores and message queues a task left in this sandbox's
    IPC namespace (POSIX ones live in /dev/shm)."""
    libc = _libc()
    if libc is None:
        return
    removers = {"shm": lambda i: libc.shmctl(i, 0, None), "sem": lambda i: libc.semctl(i, 0, 0),
                "msg": lambda i: libc.msgctl(i, 0, None)}  # 0: IPC_RMID
    for kind, remove in removers.items():
        with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/sysvipc/" + kind) as table:
            for line in list(table)[1:]:
                remove(int(line.split()[1]))


def _clear_namespace():
    """Kill every other process of this PID namespace and empty the private scratch folders."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(-1, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):  # wait for them all: the next task starts alone
        while True:
            os.waitpid(-1, 0)
    for folder in ("/tmp", "/dev/shm"):
        with contextlib.suppress(OSError):
            for name in os.listdir(folder):
                path = os.path.join(folder, name)
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    with contextlib.suppress(OSError):
                        os.unlink(path)


def main():
    if sys.argv[1] == "--probe":
        print(json.dumps({"pid": os.getpid(), "exec_filter": _probe_exec_filter()}))
        return
    config = json.loads(sys.argv[1])
    os.environ.pop("PWD", None)  # bubblewrap's --chdir sets it; children get the clean environment only
    _undumpable()
    if config["init"]:  # PID 1 ignores every signal it has no handler for; Python's own would let a child in
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    if config["deny_exec"]:
        _exec_filter()  # built once here, so that children only install it
    os.chdir(tempfile.gettempdir())
    client = os.getppid()
    reaper = _Reaper()
    sys.stdout.write('{"ready": true}\n')
    sys.stdout.flush()
    for line in sys.stdin:
        request = json.loads(line)
        results = []
        for task in request["tasks"]:
            if os.getppid() != client:
                return  # the client is gone: stop rather than finish its work for nobody
            results.append(run_task(task, reaper, config))
            if config["init"]:
                _clear_namespace()
                _clear_ipc()
            reaper.reap()
        sys.stdout.write(json.dumps({"results": results}) + "\n")
        sys.stdout.flush()
    reaper.reap(block=True)


if __name__ == "__main__":
    main()
