"""Hostile answers, through plain lm-eval with a scripted server: none may forge a pass, crash the
run, escape the sandbox (files, network, processes, signals), start another program (a second
interpreter, a shell, a file it wrote) or put text it chose into the logs.

Each attack is one sample of one document (``repeats`` = the number of attacks); after the run the
test checks every sample's status, that the run finished and wrote its logs, and that nothing the
answers tried is visible outside: files in /tmp, /dev/shm and the home folder, connections to a
listener on 127.0.0.1, processes left running, and the secret in this process's environment and
command line, which must not appear in the logged samples.
"""

import json
import os
import socket
import subprocess
import threading
import time
import uuid
from pathlib import Path
from textwrap import dedent

import lm_eval
import pytest
from scripted_server import ScriptedServer

from dynbench_tasks.benchmarks.records import BUNDLED
from dynbench_tasks.lmeval import task_manager

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
        (method.format(f"try {{ return java.nio.file.Files.readAllBytes(java.nio.file.Path.of({json.dumps(data_file)}))"
                       ".length; } catch (Exception e) { throw new RuntimeException(e); }"), "reading the data"),
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


def _answer_of(process: str) -> str:
    """Java statements returning the number a started process prints (the attacks above compute x + 1 so)."""
    return (f"try {{ Process p = {process}; return Integer.parseInt(new String(p.getInputStream().readAllBytes())"
            ".trim()); } catch (java.io.IOException e) { throw new RuntimeException(e); }")


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
