"""Hostile answers, through plain lm-eval with a scripted server: none may forge a pass, crash the
run, escape the sandbox (files, network, processes, signals), start another program (a second
interpreter, a shell, a file it wrote) or put text it chose into the logs.

Each attack is one sample of one document (``repeats`` = the number of attacks); after the run the
test checks every sample's status, that the run finished and wrote its logs, and that nothing the
answers tried is visible outside: files in /tmp, /dev/shm and the home folder, connections to a
listener on 127.0.0.1, processes left running, and the secret in this process's environment and
command line, which must not appear in the logged samples.

Also here: answers that try to be read as something they are not (an assertion about another call,
a computed input-prediction argument), each with the status it gets and a right answer that passes;
and hostile programs given to ``dynbench mutate --input`` (too large, too slow to parse, not a
program), each with its status while the good programs beside them are mutated. Submissions that
cheat after the run are the other tests' subject: a cherry-picked, truncated or re-typed run
(tests/test_verify.py), answers written by hand (tests/test_reproduce.py), a model name that writes
into the leaderboard's files (tests/test_leaderboard.py).
"""

import ast
import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from pathlib import Path
from textwrap import dedent

import lm_eval
import pytest
from scripted_server import ScriptedServer

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from dynbench_tasks.benchmarks.records import BUNDLED
from dynbench_tasks.lmeval import task_manager
from dynbench_tasks.locations import cache_folder
from mutators import mutate
from mutators.chain import Chain, parse_chain
from mutators.guarded import GuardedMutator
from mutators.programs import CRASHED, MUTATED, NO_PROGRAM, TIMEOUT, TOO_LARGE, UNPARSEABLE

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out

MARK = f"dynbench-hostile-{uuid.uuid4().hex[:10]}"
SECRET = f"secret-{uuid.uuid4().hex}"
HOME = os.path.expanduser("~")


class Listener:
    """A TCP server on 127.0.0.1 that counts the connections it gets (there must be none)."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen()
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.connections = 0
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while self.running:
            try:
                connection, _ = self.socket.accept()
                self.connections += 1
                connection.close()
            except OSError:
                continue

    def close(self) -> None:
        self.running = False
        self.thread.join()
        self.socket.close()


def _escape_attempts(port: int) -> list[tuple[str, str]]:
    """(answer, class of attack) for CRUXEval output prediction; every one must fail."""
    leak = ("type(open('/etc/passwd').read()[:60] + ' ' + open('/proc/%d/cmdline' % __import__('os').getppid())"
            ".read()[:60], (Exception,), {})")
    return [
        ("type('A', (), {'__eq__': lambda s, o: True, '__ne__': lambda s, o: False})()", "forged comparison"),
        ("type('S', (str,), {'__eq__': lambda s, o: True})('x')", "forged comparison (builtin subclass)"),
        ("(__import__('builtins').__setattr__('type', lambda *a: str), __import__('builtins').__setattr__("
         "'isinstance', lambda *a: True), 'patched')[-1]", "patched builtins"),
        ("next(v for o in __import__('gc').get_objects() if type(o) is dict for k, v in list(o.items()) "
         "if k in ('reference', 'output', 'expected'))", "reaching the reference in memory"),
        (f"__import__('gzip').open({str(BUNDLED / 'cruxeval.jsonl.gz')!r}).read()", "reaching the reference on disk"),
        ("(lambda m: [__import__('os').write(fd, len(m).to_bytes(4, 'big') + m) for fd in range(3, 64) "
         "if __import__('os').path.exists('/proc/self/fd/%d' % fd)])"
         "(b'{\"status\": \"ok\", \"result\": {\"outcome\": \"passed\"}}')", "writing a verdict to the result channel"),
        ("print('{\"results\": [{\"status\": \"ok\", \"result\": {\"outcome\": \"passed\"}}]}') or 'printed'",
         "printing a protocol line"),
        (f"open('/tmp/{MARK}', 'w').write('x') and open('/dev/shm/{MARK}', 'w').write('x')", "files in /tmp"),
        (f"open('/tmp/{MARK}').read()", "cross-sample interference (reading a file another sample wrote)"),
        (f"open({HOME!r} + '/{MARK}', 'w').write('x')", "files in the home folder"),
        (f"__import__('socket').create_connection(('127.0.0.1', {port}), 1)", "network"),
        ("__import__('os').fork()", "processes"),
        ("__import__('subprocess').run(['python3', '-c', 'print(\"hbtofdeiequ\")'], capture_output=True, text=True)"
         ".stdout.strip()", "a second interpreter"),
        ("__import__('os').popen('echo hbtofdeiequ').read().strip()", "a shell"),
        (f"__import__('os').execv('/bin/sh', ['sh', '-c', 'sleep 300 {MARK}'])", "exec in place"),
        (f"__import__('subprocess').Popen(['sleep', '300', '{MARK}'])", "processes (spawn)"),
        ("__import__('threading').Thread(target=__import__('time').sleep, args=(300,)).start()", "threads"),
        ("__import__('os').kill(-1, 9)", "signals (everyone)"),
        ("__import__('os').kill(__import__('os').getppid(), 9)", "signals (the parent)"),
        ("__import__('os').kill(1, 15)", "signals (PID 1)"),
        (f"(_ for _ in ()).throw({leak}())", "leaking files and the command line through an exception name"),
        ("(_ for _ in ()).throw(type(open('/proc/1/environ').read()[:80], (Exception,), {})())",
         "leaking the environment through /proc"),
        ("(_ for _ in ()).throw(type(open('/proc/self/status').read()[:80], (Exception,), {})())",
         "text the answer chose as an exception name"),
        ("1" + "+1" * 3000, "deep nesting (parser)"),
        ("__import__('functools').reduce(lambda a, _: [a], range(100000), [])", "deep nesting (value)"),
        ("'\ud800' + 'x'", "invalid Unicode"),
        ("chr(0xd800) * 3", "invalid Unicode (value)"),
        ("'x' * (10 ** 10)", "memory"),
        ("sum(iter(int, 1))", "endless loop"),
        ("__import__('signal').signal(14, __import__('signal').SIG_IGN) or sum(iter(int, 1))", "ignoring the alarm"),
        ("__import__('sys').exit(0)", "exiting"),
    ]


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory, small_data):
    listener = Listener()
    attacks = _escape_attempts(listener.port)
    out = tmp_path_factory.mktemp("hostile")
    os.environ["DYNBENCH_TEST_SECRET"] = SECRET
    manager = task_manager({"data_dir": small_data, "repeats": len(attacks) + 1, "timeout": 1.0,
                            "ids": ["sample_2"]})
    docs = list(manager.load(["cruxeval_orig"])["tasks"]["cruxeval_orig"].test_docs())
    answers = [answer for answer, _ in attacks] + [docs[0]["output"]]  # the last one is right: the control
    try:
        with ScriptedServer(lambda prompt, sample: answers[sample % len(answers)]) as server:
            results = lm_eval.simple_evaluate(
                model="local-completions",
                model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
                "tokenized_requests=False,max_retries=1",
                tasks=["cruxeval_orig"], task_manager=manager, confirm_run_unsafe_code=True, log_samples=True)
        logged = out / "samples.jsonl"
        with logged.open("w", encoding="utf-8") as handle:  # what lm-eval itself writes, the same way
            for sample in results["samples"]["cruxeval_orig"]:
                handle.write(json.dumps(sample, ensure_ascii=False, default=str) + "\n")
    finally:
        del os.environ["DYNBENCH_TEST_SECRET"]
        listener.close()
    statuses = [json.loads(s) for s in results["samples"]["cruxeval_orig"][0]["filtered_resps"][0]]
    return attacks, statuses, logged.read_text(encoding="utf-8"), listener


def test_no_hostile_answer_passes_and_the_control_does(hostile_run):
    attacks, statuses, _, _ = hostile_run
    assert len(statuses) == len(attacks) + 1
    for (answer, kind), sample in zip(attacks, statuses, strict=False):
        assert sample["status"] != "passed", (kind, answer, sample)
        assert sample["status"] in ("not_a_value", "wrong", "error", "timeout", "unparseable"), (kind, sample)
    assert statuses[-1]["status"] == "passed"


def test_nothing_escaped(hostile_run):
    from mutators.execution.isolation import BUBBLEWRAP, isolation

    assert isolation().kind == BUBBLEWRAP, f"no sandbox boundary here: {isolation().describe()}"
    _, _, _, listener = hostile_run
    assert listener.connections == 0
    for folder in ("/tmp", "/dev/shm", HOME):
        assert not (Path(folder) / MARK).exists(), folder
    left = subprocess.run(["pgrep", "-f", MARK], capture_output=True, text=True)
    assert left.stdout.strip() == "", left.stdout


def test_nothing_the_answers_read_reaches_the_logs(hostile_run):
    attacks, statuses, logged, _ = hostile_run
    assert SECRET not in logged
    assert "root:x:0:0" not in logged and "lm_eval" not in logged.replace("lm_eval.dynbench", "")
    details = {sample.get("detail") for sample in statuses} - {None}
    from mutators.execution.plain import _BUILTIN_EXCEPTIONS

    allowed = {"exception", "not plain data", "value too large", "sandbox", "undecodable", "comparison", "judge"}
    assert details <= allowed | _BUILTIN_EXCEPTIONS, details
    refused = [kind for (_, kind), sample in zip(attacks, statuses, strict=False) if sample["status"] != "not_a_value"]
    assert refused == ["deep nesting (parser)", "invalid Unicode", "invalid Unicode (value)", "memory"], refused


def _java_attacks(port: int) -> list[tuple[str, str]]:
    """(reply, class of attack) for TransCoder's ADD_1_TO_A_GIVEN_NUMBER; every one must fail."""
    data_file = str(BUNDLED / "transcoder_py2java.jsonl.gz")
    kept = str(cache_folder())  # where reference values are kept for the next run (0700, hidden)
    method = "static int addOne(int x) {{ {} }}"
    return [
        (method.format('System.out.println("#Results: 10, 10"); System.exit(0); return 0;'), "printing a verdict"),
        (method.format('System.out.println("#Results: 10, 10"); Runtime.getRuntime().halt(0); return 0;'),
         "printing a verdict and halting"),
        (method.format("return f_gold(x);"), "calling the reference"),
        (method.format("try { java.lang.reflect.Method m = Class.forName(\"dynbench.Runner\").getDeclaredMethod("
                       "\"main\", String[].class); } catch (Exception e) { } dynbench.Record.value(x); return x;"),
         "writing to the record channel"),
        (method.format("new Thread(() -> { while (true) { } }).start(); return x + 1;"), "a thread left running"),
        # TransCoder's runner starts without module options: its module stays closed, java.lang too
        (method.format(_if_it_opens('Thread.currentThread().getThreadGroup().getClass().getDeclaredField("ended")')),
         "opening what the runner keeps of its test"),
        (method.format(_if_it_opens('dynbench.Record.class.getDeclaredField("values")')), "opening the records"),
        (method.format(_if_it_opens('Class.forName("java.lang.ApplicationShutdownHooks").getDeclaredField("hooks")')),
         "opening java.lang"),
        (method.format(f"try {{ return java.nio.file.Files.readAllBytes(java.nio.file.Path.of({json.dumps(data_file)}))"
                       ".length; } catch (Exception e) { throw new RuntimeException(e); }"), "reading the data"),
        (method.format(f"try {{ java.nio.file.Files.list(java.nio.file.Path.of({json.dumps(kept)})).count(); return "
                       "x + 1; } catch (Exception e) { return x + 2; }"), "reading the kept reference values"),
        (method.format(f"try {{ new java.net.Socket(\"127.0.0.1\", {port}).close(); }} catch (Exception e) {{ "
                       "throw new RuntimeException(e); } return x + 1;"), "network"),
        (method.format(f"try {{ java.nio.file.Files.writeString(java.nio.file.Path.of(\"/tmp/{MARK}-java\"), \"x\"); "
                       "} catch (Exception e) { } return x + 1;").replace("return x + 1;", "return x + 2;"),
         "files in /tmp"),
        (method.format(f"try {{ new ProcessBuilder(\"sleep\", \"300\", \"{MARK}\").start(); }} catch (Exception e) "
                       "{ } return x + 2;"), "a process left behind"),
        (method.format("ProcessHandle.allProcesses().forEach(p -> p.destroyForcibly()); return x + 2;"),
         "killing every process"),
        (method.format("try { Runtime.class.getMethod(\"halt\", int.class).invoke(Runtime.getRuntime(), 0); } "
                       "catch (Exception e) { } return x + 1;"), "halting the JVM through reflection"),
        (method.format('System.out.println("#Results: 10, 10"); java.lang.System.exit(0); return 0;'),
         "printing a verdict and exiting (fully qualified)"),
        (method.format(_answer_of('new ProcessBuilder("/bin/sh", "-c", "echo $((" + x + " + 1))").start()')),
         "a shell computes it"),
        (method.format(_answer_of('new ProcessBuilder("python3", "-c", "print(" + x + " + 1)").start()')),
         "python3 computes it"),
        (method.format(_answer_of('new ProcessBuilder("/usr/bin/env", "python3", "-c", "print(" + x + " + 1)")'
                                  '.start()')), "python3 through env computes it"),
        (method.format(_answer_of('Runtime.getRuntime().exec(new String[] {"sh", "-c", "expr " + x + " + 1"})')),
         "Runtime.exec computes it"),
        (method.format('for (String folder : new String[] {"/tmp", "/dev/shm", ".", System.getProperty('
                       '"java.io.tmpdir")}) { try { java.nio.file.Path script = java.nio.file.Path.of(folder, '
                       f'"{MARK}-add.sh"); java.nio.file.Files.writeString(script, "#!/bin/sh\\nexpr $1 + 1\\n"); '
                       'script.toFile().setExecutable(true); '
                       + _answer_of("new ProcessBuilder(script.toString(), String.valueOf(x)).start()")
                       + ' } catch (Exception e) { } } throw new RuntimeException("nothing ran");'),
         "a script written, then run"),
    ]


def _if_it_opens(field: str) -> str:
    """Java statements returning the right answer (x + 1) only where reflection opens ``field`` (or where
    the field is gone: then the attack tests nothing, and the test fails)."""
    return (f"try {{ {field}.setAccessible(true); return x + 1; }} catch (java.lang.reflect.InaccessibleObjectException"
            " sealed) { return x + 2; } catch (ReflectiveOperationException gone) { return x + 1; }")


def _answer_of(process: str) -> str:
    """Java statements returning the number a started process prints (the attacks above compute x + 1 so)."""
    return (f"try {{ Process p = {process}; return Integer.parseInt(new String(p.getInputStream().readAllBytes())"
            ".trim()); } catch (java.io.IOException e) { throw new RuntimeException(e); }")


@pytest.mark.slow
def test_hostile_java_cannot_pass_or_escape(data_dir):
    listener = Listener()
    attacks = _java_attacks(listener.port)
    control = "static int addOne(int x) { return x + 1; }"
    replies = [reply for reply, _ in attacks] + [control]
    manager = task_manager({"data_dir": str(data_dir), "repeats": len(replies), "timeout": 3.0,
                            "ids": ["ADD_1_TO_A_GIVEN_NUMBER"]})
    try:
        with ScriptedServer(lambda prompt, sample: replies[sample % len(replies)]) as server:
            results = lm_eval.simple_evaluate(
                model="local-completions",
                model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
                "tokenized_requests=False,max_retries=1",
                tasks=["transcoder_orig"], task_manager=manager, confirm_run_unsafe_code=True, log_samples=True)
    finally:
        listener.close()
    statuses = [json.loads(s)["status"] for s in results["samples"]["transcoder_orig"][0]["filtered_resps"][0]]
    for (reply, kind), status in zip(attacks, statuses, strict=False):
        assert status != "passed", (kind, reply)
    assert cache_folder().is_dir()  # the kept reference values were there to be read
    assert statuses[-1] == "passed"
    assert listener.connections == 0
    assert not Path(f"/tmp/{MARK}-java").exists() and not Path(f"/tmp/{MARK}-add.sh").exists()
    assert subprocess.run(["pgrep", "-f", MARK], capture_output=True, text=True).stdout.strip() == ""


_PYTHON_FROM_JAVA = """
    static void run() throws Exception {
        Process p = new ProcessBuilder("python3", "-c", CODE).redirectErrorStream(true).start();
        p.getOutputStream().write(System.in.readAllBytes());
        p.getOutputStream().close();
        System.out.print(new String(p.getInputStream().readAllBytes()));
        p.waitFor();
    }
"""


def python_through_java(python: str) -> list[tuple[str, str]]:
    """(reply, wrapper): a Java "translation" that runs the prompt's Python with ``python3``, piping
    stdin through and printing what it prints, plain and in the seven wrappers a fresh attack used."""
    code = f"static final String CODE = {json.dumps(python)};"
    run = _PYTHON_FROM_JAVA
    main = "public static void main(String[] args) throws Exception { run(); }"
    plain = f"import java.io.*;\n\npublic class Main {{\n    {code}\n    {main}\n{run}}}\n"
    fenced = f"```java\n{plain}```"
    return [
        (fenced, "plain"),
        (plain, "no fence"),
        (f"```java\npublic interface Main {{\n    {code}\n    static void main(String[] args) throws Exception "
         f"{{ run(); }}\n{run}}}\n```", "interface Main"),
        (f"```java\npublic enum Main {{\n    ;\n    {code}\n    {main}\n{run}}}\n```", "enum Main {;}"),
        (f"```java\npackage attack.translation;\n\n{plain}```", "a package line"),
        (fenced.replace("{ run(); }", "{ Runtime.getRuntime().addShutdownHook(new Thread(() -> { })); run(); }"),
         "a shutdown hook"),
        (fenced.replace(main, "static { try { run(); } catch (Exception e) { throw new RuntimeException(e); } }\n"
                        "    public static void main(String[] args) { }"), "a static initialiser"),
        (fenced.replace("public class Main", "public class Record"), "a class named Record"),
    ]


CODENET_ID = "s199418121"  # A, B = input().split(); print(A * int(B without its dot) // 100)
CODENET_JAVA = dedent("""
    ```java
    import java.util.*;

    public class Main {
        public static void main(String[] args) {
            Scanner in = new Scanner(System.in);
            long a = in.nextLong();
            long b = Long.parseLong(in.next().replace(".", ""));
            System.out.println(a * b / 100);
        }
    }
    ```""")


AVATAR_ID = "atcoder_ABC150_C"


@pytest.fixture(scope="module")
def one_problem_each(tmp_path_factory, data_dir) -> tuple[str, dict[str, dict]]:
    """A data folder holding one CodeNet and one Avatar problem (13 tests), and those problems."""
    folder = tmp_path_factory.mktemp("translation-attacks")
    chosen = {}
    for benchmark, wanted in (("codenet", CODENET_ID), ("avatar", AVATAR_ID)):
        name = f"{benchmark}_py2java.jsonl"
        records = [json.loads(line) for line in (data_dir / name).read_text().splitlines()]
        chosen[benchmark] = next(record for record in records if record["id"] == wanted)
        (folder / name).write_text(json.dumps(chosen[benchmark]) + "\n")
    return str(folder), chosen


@pytest.mark.slow
def test_python_run_from_a_java_translation_cannot_pass(one_problem_each):
    """A "translation" that runs the prompt's own Python with python3, plain and in seven wrappers,
    on CodeNet and Avatar; a correct translation of the same problem passes in the same run."""
    folder, problems = one_problem_each
    controls = {"codenet": CODENET_JAVA, "avatar": f"```java\n{problems['avatar']['java']}\n```"}
    wrappers = [wrapper for _, wrapper in python_through_java("")]

    def answer(prompt: str, sample: int) -> str:
        benchmark = next(b for b, doc in problems.items() if f"```python\n{doc['python']}\n```" in prompt)
        replies = [reply for reply, _ in python_through_java(problems[benchmark]["python"])] + [controls[benchmark]]
        return replies[sample % len(replies)]

    manager = task_manager({"data_dir": folder, "repeats": len(wrappers) + 1, "timeout": 5.0})
    with ScriptedServer(answer) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=["codenet_orig", "avatar_orig"], task_manager=manager, confirm_run_unsafe_code=True,
            log_samples=True)
    for task in ("codenet_orig", "avatar_orig"):
        samples = results["samples"][task]
        assert len(samples) == 1, task
        statuses = [json.loads(s)["status"] for s in samples[0]["filtered_resps"][0]]
        assert statuses[-1] == "passed", (task, statuses)
        assert dict(zip(wrappers, statuses, strict=False)) == dict.fromkeys(wrappers, "runtime_error"), task


def _forged(payload: bytes) -> str:
    """An expression that writes ``payload`` into the child's result pipe as its message, then leaves."""
    return ("(lambda o, m: [o.write(fd, len(m).to_bytes(4, 'big') + m) for fd in range(3, 64) "
            "if o.path.exists('/proc/self/fd/%d' % fd) and __import__('stat').S_ISFIFO(o.fstat(fd).st_mode)] "
            f"and o._exit(0))(__import__('os'), {payload!r})")


def test_the_sandbox_holds_even_for_code_the_reader_refuses(sandbox):
    """The answer reader refuses anything but a stated value; behind it, the sandbox and the verdict
    must still hold for arbitrary code: forged messages, resource bombs, leftovers between tasks."""
    import ast

    from dynbench_tasks.benchmarks.execution import Check, sandbox_task, verdict

    listener = Listener()
    collide = ", ".join(str((2**61 - 1) * k) for k in range(1, 3000))
    expressions = [answer for answer, _ in _escape_attempts(listener.port)] + [
        _forged(b'{"status": "ok", "result": ' + b"[" * 990 + b"]" * 990 + b"}"),
        _forged(b"[" * 100_000 + b"]" * 100_000),
        _forged(b'{"status": "ok", "result": {"outcome": "values", "values": [["set", ['
                + b", ".join(b'["int", "%d"]' % ((2**61 - 1) * k) for k in range(1, 20000)) + b"]]]}}"),
        f"{{{collide}}}",
        "(__import__('sys').set_int_max_str_digits(0), 10 ** 4400)[1]",
        "open('/dev/note', 'w').write('left')",
        "(lambda c: c.shmget(4242, 1 << 20, 0o1600))(__import__('ctypes').CDLL(None))",
    ]
    later = ["open('/dev/note').read()", "open('/proc/sysvipc/shm').read().splitlines()[1:]"]
    reference = "hbtofdeiequ"
    checks = [Check(e, expressions=[e]) for e in expressions + later]
    started = time.monotonic()
    outcomes = sandbox.run([sandbox_task(check, 1.0) for check in checks])
    verdicts = [verdict(check, outcome, reference) for check, outcome in zip(checks, outcomes, strict=True)]
    listener.close()
    assert time.monotonic() - started < 120
    assert all(status != "passed" for status, _ in verdicts), list(zip(expressions, verdicts, strict=False))
    note, segments = verdicts[-2], outcomes[-1]
    assert note[0] == "error"  # /dev is read-only: the note was never written
    assert segments["result"]["values"] == [["list", []]], segments  # no System V segment is left
    assert listener.connections == 0 and not (Path("/tmp") / MARK).exists()
    probe = Check("x", expressions=[f"({reference!r})"])  # the sandbox still answers, and right
    assert verdict(probe, sandbox.run([sandbox_task(probe, 1.0)])[0], reference) == ("passed", "")
    assert ast.literal_eval(repr(reference)) == reference


# ---------------------------------------------------------------------------------- CRUXEval answers read exactly
REPEATS = 16
IDS = ("sample_3", "sample_152", "sample_258")


@pytest.fixture(scope="module")
def attack_data(tmp_path_factory, data_dir) -> str:
    """The three CRUXEval problems these tests attack, so that every task builds in seconds."""
    folder = tmp_path_factory.mktemp("cruxeval3")
    lines = (data_dir / "cruxeval.jsonl").read_text(encoding="utf-8").splitlines()
    (folder / "cruxeval.jsonl").write_text("\n".join(line for line in lines if json.loads(line)["id"] in IDS) + "\n",
                                           encoding="utf-8")
    return str(folder)


def _keyword_call(code: str, arguments: str) -> str:
    """``f(<arguments>)`` with its positional arguments passed by keyword, under the names ``code`` gives."""
    function = next(n for n in ast.parse(code).body if isinstance(n, ast.FunctionDef) and n.name == "f")
    values = ast.parse(f"f({arguments})", mode="eval").body.args
    return "f(" + ", ".join(f"{p.arg}={ast.unparse(v)}" for p, v in zip(function.args.args, values, strict=True)) + ")"


def output_attacks(doc: dict) -> list[tuple[str, str]]:
    """(answer, status) for output prediction on one document."""
    call, right = f"f({doc['input']})", doc["output"]
    return [
        (f"assert [{call}] == {right}", "wrong_call"),
        (f"assert {call} + f(0) == {right}", "wrong_call"),
        (f"assert f(0) == {right}", "wrong_call"),
        (f"assert {call} == {right} or True", "wrong_call"),
        (f"assert {right} == {right}", "wrong_call"),
        (f"assert {_keyword_call(doc['original_code'], doc['input'])} == {right}", "wrong_call"),
        (f"assert {_keyword_call(doc['code'], doc['input'])} == {right}", "wrong_call"),
        (f"{right} == {call}", "calls_f"),  # no left side: a value, and it calls f
        (f"{call} == {right} == {right}", "passed"),  # as Python reads it: holds exactly when f(x) == right
        (f"{call} == {right} == 'not it'", "wrong"),
        (f"assert ({call}) == {right}", "passed"),
        (f"( f( {doc['input']} ) ) == {right}", "passed"),
        (f"assert {call} == ({right})", "passed"),
        (f"assert (({call}) == ({right}))", "passed"),
        (f"assert {call} == {right}", "passed"),
        (f" {right}", "passed"),
    ]


def input_attacks(doc: dict) -> list[tuple[str, str]]:
    """(answer, status) for input prediction on the documents the run holds (sample_3, sample_152, sample_258)."""
    right = f"assert f({doc['input']}) == {doc['output']}"
    renamed = doc["code"] != doc["original_code"]
    attacks = {
        "sample_3": [  # f(text, value) on 'bcksrut', 'q'
            ("f(''.join(['bck', 'srut']), 'q')", "not_a_value"),
            ("f('BCKSRUT'.lower(), 'q')", "not_a_value"),
            ("f('bck' + 'srut', 'q')", "not_a_value"),
            ("f(str('bcksrut'), 'q')", "not_a_value"),
            ("f(*['bcksrut', 'q'][:])", "not_a_value"),
            ("f(*(lambda: ['bcksrut', 'q'])())", "not_a_value"),
            (_keyword_call(doc["original_code"], doc["input"]), "error" if renamed else "passed"),
            (_keyword_call(doc["code"], doc["input"]), "passed"),
            ("f(*('bcksrut', 'q'))", "passed"),
            ("f('bcksrut', 'q')", "passed"),
        ],
        "sample_152": [  # CRUXEval's own input is ''.join(['A'] * 20): that spelling, and no other computed one
            ("f(''.join(['A'] * 20))", "passed"),
            ("f(( ''.join( ['A']*20 ) ))", "passed"),
            ("f('A' * 20)", "not_a_value"),
            ("f(''.join(['A'] * 10) + 'A' * 10)", "not_a_value"),
            ("f(''.join(['A'] * 21))", "not_a_value"),
            ("f('AAAAAAAAAAAAAAAAAAAA')", "passed"),
        ],
        "sample_258": [  # its own input passes thigh_o_two[:], a list the program binds
            ("f(thigh_o_two[:], 3, 3, 2)", "passed"),
            ("f(thigh_o_two, 3, 3, 2)", "passed"),
            ("f([1, 2, 7, 9], 3, 3, 2)", "passed"),
            ("f(thigh_o_two.copy(), 3, 3, 2)", "not_a_value"),
            ("f(thigh_o_one.clear() or thigh_o_two, 3, 3, 2)", "not_a_value"),
            ("f(thigh_o_one[:2] + [7, 9], 3, 3, 2)", "not_a_value"),
        ],
    }[doc["id"]]
    return [(f"assert {answer} == {doc['output']}", status) for answer, status in attacks] + [(right, "passed")]


def padded(attacks: list[tuple[str, str]]) -> list[tuple[str, str]]:
    assert len(attacks) <= REPEATS
    return attacks + [attacks[-1]] * (REPEATS - len(attacks))  # the last one is the control


def _run(manager, tasks: list[str], attacks_of, marker: str) -> dict:
    docs = [doc for loaded in manager.load(tasks)["tasks"].values() for doc in loaded.test_docs()]

    def answer(prompt: str, sample: int) -> str:
        doc = next(d for d in docs if f"{d['code']}\n{marker(d)}" in prompt)
        return padded(attacks_of(doc))[sample][0]

    with ScriptedServer(answer) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=tasks, task_manager=manager, confirm_run_unsafe_code=True, log_samples=True)
    return results


def _statuses(results: dict, task: str) -> dict[str, list[dict]]:
    return {s["doc"]["id"]: [json.loads(x) for x in s["filtered_resps"][0]] for s in results["samples"][task]}


@pytest.fixture(scope="module")
def output_run(attack_data):
    manager = task_manager({"data_dir": attack_data, "repeats": REPEATS, "timeout": 1.0, "ids": ["sample_3"]})
    return _run(manager, ["cruxeval_orig", "cruxeval_varnorm1"], output_attacks,
                lambda doc: f"assert f({doc['input']}) ==")


@pytest.mark.parametrize("task", ["cruxeval_orig", "cruxeval_varnorm1"])
def test_output_answers_assert_about_the_shown_call(output_run, task):
    samples = output_run["samples"][task]
    assert [s["doc"]["id"] for s in samples] == ["sample_3"]
    doc = samples[0]["doc"]
    for (answer, expected), got in zip(padded(output_attacks(doc)), _statuses(output_run, task)["sample_3"],
                                       strict=True):
        assert got["status"] == expected, (task, answer, got)
    if task == "cruxeval_varnorm1":  # the rename is real: the original keyword names are not the shown ones
        assert doc["code"] != doc["original_code"]


@pytest.fixture(scope="module")
def input_run(attack_data):
    manager = task_manager({"data_dir": attack_data, "repeats": REPEATS, "timeout": 1.0})
    return _run(manager, ["cruxeval_input_orig", "cruxeval_input_varnorm1"], input_attacks,
                lambda doc: f"assert f(??) == {doc['output']}")


@pytest.mark.parametrize("task", ["cruxeval_input_orig", "cruxeval_input_varnorm1"])
def test_input_arguments_are_literal_values(input_run, task):
    by_id = {s["doc"]["id"]: s["doc"] for s in input_run["samples"][task]}
    assert set(by_id) == set(IDS)
    for identifier, statuses in _statuses(input_run, task).items():
        for (answer, expected), got in zip(padded(input_attacks(by_id[identifier])), statuses, strict=True):
            assert got["status"] == expected, (task, identifier, answer, got)


# ---------------------------------------------------------------------------------- hostile programs at mutate time
GOOD = "def area(w, h):\n    s = w * h\n    return s\n"
# libcst's parser is quadratic in the length of one chain of binary operators, and CPython compiles
# 1,500 terms: twenty such lines take many seconds to parse (12 s on an idle core) and mutate.
SLOW = "".join(f"x{i} = " + "+".join(["x"] * 1500) + "\n" for i in range(20))
SECONDS = 2  # --program-timeout in these tests

# (name, the JSONL line's bytes, the status it must get, text its reason must hold)
ATTACKS = [
    # The attack of issue 18: one `return x+x+…` of 5,000 terms. CPython 3.11 refuses to compile it
    # (too deep), in milliseconds; where a CPython compiles it, libcst's parse overruns the deadline.
    ("plus_5000", {"code": "def f(x):\n    return " + "+".join(["x"] * 5000) + "\n"}, (UNPARSEABLE, TIMEOUT), ""),
    ("slow_parse", {"code": SLOW}, (TIMEOUT,), f"longer than {SECONDS} s"),
    ("1.2 MB", {"code": "x = 1\n" * 200_000}, (TOO_LARGE,), "1,200,000 bytes"),
    ("not an object", [1, 2, 3], (NO_PROGRAM,), "JSON array, not an object"),
    ("code is a number", {"code": 5}, (NO_PROGRAM,), "is a JSON number, not a string"),
    ("no code field", {"src": GOOD}, (NO_PROGRAM,), "no field 'code'"),
    ("invalid UTF-8", b'{"code": "x = \'\xff\xfe\'\\n"}', (UNPARSEABLE,), "not UTF-8 text"),
    ("lone surrogate", b'{"code": "x = \'\\ud800\'\\n"}', (UNPARSEABLE,), "not UTF-8 text"),
    ("NUL byte", {"code": "x = 1\x00\n"}, (UNPARSEABLE,), "null bytes"),
    # libcst's native parser overflows its stack on this and kills its process (LibCST issue #619);
    # CPython's tokenizer refuses it first.
    ("nested brackets", {"code": "x = " + "[" * 5000 + "]" * 5000 + "\n"}, (UNPARSEABLE,), "too many nested"),
    ("nested unary minus", {"code": "x = " + "-" * 100_000 + "1\n"}, (UNPARSEABLE,), "MemoryError"),
]


def _line(content) -> bytes:
    return content if isinstance(content, bytes) else json.dumps(content, ensure_ascii=False).encode("utf-8")


def dynbench(*args):
    command = [shutil.which("dynbench") or sys.executable, *args]
    if command[0] == sys.executable:
        command[1:1] = ["-m", "dynbench_tasks.cli"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, timeout=600)  # no hang: the run ends, whatever the programs
    return done, time.perf_counter() - started


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """One run over a file of every attack, each between two good programs."""
    folder = tmp_path_factory.mktemp("attacks")
    lines = [_line({"code": GOOD})]
    for _name, content, _statuses, _reason in ATTACKS:
        lines += [_line(content), _line({"code": GOOD})]
    (folder / "in.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    done, seconds = dynbench("mutate", "--input", str(folder / "in.jsonl"), "--code-field", "code", "--chain", "FUV",
                             "--seed", "0", "--program-timeout", str(SECONDS), "--out", str(folder / "out.jsonl"))
    assert done.returncode == 0, done.stderr.decode()
    out = (folder / "out.jsonl").read_bytes().decode("utf-8")  # valid UTF-8, whatever came in
    return [json.loads(line) for line in out.splitlines()], json.loads(done.stderr.decode().splitlines()[-1]), seconds


@pytest.mark.parametrize("index", range(len(ATTACKS)), ids=[attack[0] for attack in ATTACKS])
def test_each_attack_gets_its_status_and_the_programs_around_it_are_mutated(attacked, index):
    lines, _summary, _seconds = attacked
    _name, content, statuses, reason = ATTACKS[index]
    before, line, after = lines[2 * index : 2 * index + 3]
    assert line["mutation"]["status"] in statuses and reason in line["mutation"]["reason"], line["mutation"]
    assert before["mutation"]["status"] == after["mutation"]["status"] == MUTATED  # the controls
    assert after["mutated_code"].startswith("def area(w, h):\n    ") and after["mutated_code"] != GOOD
    if isinstance(content, dict):
        assert {key: line[key] for key in content} == content  # the record comes back as it was
    if statuses == (NO_PROGRAM,):
        assert line["mutated_code"] is None
    if not isinstance(content, dict | bytes):
        assert line["record"] == content


def test_the_summary_counts_every_status_and_the_limits(attacked):
    lines, summary, seconds = attacked
    assert summary["programs"] == len(lines) == 2 * len(ATTACKS) + 1
    assert summary["mutated"] == len(ATTACKS) + 1 and summary["no_program"] == 3 and summary["too_large"] == 1
    assert summary["timeout"] >= 1 and summary["crashed"] == 0
    assert sum(summary[s] for s in ("mutated", "unchanged", "rejected", "unparseable", "too_large", "timeout",
                                    "crashed", "no_program")) == summary["programs"]
    assert summary["limits"] == {"max_program_bytes": 200_000, "program_timeout": SECONDS}
    print(f"{len(lines)} programs, {summary['timeout']} past the deadline: {seconds:.1f} s")


@pytest.fixture
def hostile_operators(tmp_path, monkeypatch):
    """Operators that fail as libcst might: raise what the engine does not expect, kill their process,
    never return. The worker imports them from PYTHONPATH."""
    (tmp_path / "hostile_operators.py").write_text(textwrap.dedent("""
        import os
        import signal
        import time

        from mutators.base import Operator

        class Raises(Operator):
            name, letter, title = "raises", "R", "Raises"

            def apply(self, module, context):
                raise KeyError("nothing the engine expects")

        class Segfaults(Operator):
            name, letter, title = "segfaults", "S", "Segfaults"

            def apply(self, module, context):
                os.kill(os.getpid(), signal.SIGSEGV)

        class Spins(Operator):
            name, letter, title = "spins", "P", "Spins"

            def apply(self, module, context):
                while True:
                    time.sleep(0)
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, (str(tmp_path), os.environ.get("PYTHONPATH")))))
    import hostile_operators

    return hostile_operators


@pytest.mark.parametrize("operator, status, reason", [
    ("Raises", CRASHED, "KeyError: 'nothing the engine expects'"),
    ("Segfaults", CRASHED, "its process died (signal SIGSEGV)"),
    ("Spins", TIMEOUT, "took longer than 1 s"),
])
def test_a_failing_engine_costs_one_program_and_the_next_is_mutated(hostile_operators, operator, status, reason):
    with GuardedMutator(seconds=1) as guard:
        started = time.perf_counter()
        failed = guard(GOOD, Chain((getattr(hostile_operators, operator),)), 0)
        seconds = time.perf_counter() - started
        assert failed.status == status and reason in failed.reason and failed.code == GOOD
        assert guard(GOOD, "FUV", 0).status == MUTATED  # a new worker took over
    print(f"{operator}: {status} in {seconds:.2f} s")


def test_the_size_limit_counts_utf8_bytes():
    program = "s = 'é'\n"  # 9 bytes, 8 characters
    with GuardedMutator(max_bytes=9) as guard:
        assert guard(program, "U", 0).status != TOO_LARGE
        assert guard(program + " ", "U", 0).status == TOO_LARGE


def test_guarded_results_are_the_engines_own():
    """The worker changes where a program is mutated, never how: same code, status and steps."""
    benchmark = BENCHMARKS["cruxeval"]
    programs = [benchmark.program(record) for record in load_benchmark("cruxeval")[:30]]
    chain = parse_chain("FUV")
    with GuardedMutator() as guard:
        for program in programs:
            where = {"kind": program.kind, "entry_point": program.entry_point, "call_arguments": program.call_arguments}
            assert guard(program.code, chain, 5, **where) == mutate(program.code, chain, 5, **where)


def test_a_worker_that_cannot_start_is_one_error_not_a_status_for_each_program(monkeypatch):
    from mutators.guarded import WorkerError

    monkeypatch.setattr(sys, "executable", shutil.which("false"))
    with GuardedMutator() as guard, pytest.raises(WorkerError, match="did not start: exit status 1"):
        guard(GOOD, "FUV", 0)
