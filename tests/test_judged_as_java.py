"""A judged Java program is judged by what Java itself does with it (red team 4, issue 49): each attack
below prints the right sum only where the judge ran it otherwise than ``javac`` and ``java`` would, and each
passed on 8f700ae; plain ``java`` prints a wrong answer, or never ends, for every one of them.

- a ``\\u0022`` that closes a string for javac alone: the exit rewrite read the rest of the string as code and
  lengthened it (``javac`` translates unicode escapes before anything else, JLS 3.3);
- a ``\\u005c`` (an escaped backslash), after which even javac versions may read on differently: not read;
- ``Runtime.getRuntime().halt(0)`` after registering a shutdown hook that prints the answer: the rewritten
  halt ran the hook, Java's runs none;
- ``System.exit`` inside a shutdown hook: it blocks for ever in Java (the JVM is already ending), and was
  taken for an exit with 0.

Red teams 8 and 9 found more, each passing on 9e3568a: text printed through ``FileDescriptor.out`` then
truncated, a sum written at a position or followed by a rewind (java's fd 1 is a pipe, which refuses all
three; the descriptor was a file), a write after fd 1 was closed (java throws; it was dropped), and names the
program declares itself (``FileDescriptor``, ``FileOutputStream``) rewritten as java.io's.

And honest misreadings: a worker thread's uncaught exception failed the test, where Java prints its trace to
stderr and the program goes on (exit status 0 when main returns); a URL stream handler factory, which java
lets each run set once, failed every test after a JVM's first. Each beside honest controls, through the
real judge, a real lm_eval run (the CLI, a scripted model) and ``dynbench verify``."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from scripted_server import ScriptedServer
from test_reply_channel import AVATAR_CONTROLS, _claim_passed, _verify
from test_verify import altered

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.judge.pool import JavaJudge
from dynbench_tasks.locations import data_locations

pytestmark = pytest.mark.slow  # real JVMs, a real lm_eval run and two verify runs

SUM = "a, b = map(int, input().split())\nprint(a + b)\n"
SUM_TESTS = [{"input": "1 2\n", "output": "3\n"}, {"input": "40 2\n", "output": "42\n"}]


def adds(after_reading: str) -> str:
    return ("```java\nimport java.util.*;\npublic class Main {\n    public static void main(String[] args) throws "
            "Exception {\n        Scanner in = new Scanner(System.in);\n        long a = in.nextLong(), b = "
            f"in.nextLong();\n        {after_reading}\n    }}\n}}\n```")


HOOK = "Runtime.getRuntime().addShutdownHook(new Thread(() -> {{ {}; }}));"
DESCRIPTOR = "java.io.FileDescriptor fd = java.io.FileDescriptor.out; java.io.FileOutputStream o = new " \
             "java.io.FileOutputStream(fd);"
IDIOM = "java.io.FileOutputStream(java.io.FileDescriptor.out)"
# name -> (reply, its status now, its status before its fix: on 8f700ae, or where the comment says)
ANSWERS = {
    "a \\u0022 closes a string for javac alone": (adds(
        'String probe = "\\u0022 + " System.exit(0) "; System.out.println(probe.length() == 23 ? a + b : 0);'),
        "wrong_output", "passed"),
    "a \\u005c, then a string the rewrite reads as code": (adds(
        'String probe = "\\u005c" System.exit(0) \\u005c""; System.out.println(probe.length() == 25 ? a + b : 0);'),
        "no_code", "passed"),
    "halt(0) after a shutdown hook that prints the sum": (adds(
        "final long sum = a + b; " + HOOK.format("System.out.print(sum)") + " Runtime.getRuntime().halt(0);"),
        "wrong_output", "passed"),
    "System.exit(0) in a shutdown hook": (adds(
        "System.out.println(a + b); " + HOOK.format("System.exit(0)")), "timeout", "passed"),
    # the rewritten halt in a hook that a JVM ending by an exit the rewrite does not see runs: halts
    "exit by reflection, then halt(7) in a shutdown hook": (adds(
        HOOK.format("Runtime.getRuntime().halt(7)") + ' System.out.println(a + b); '
        'System.class.getMethod("exit", int.class).invoke(null, 0);'), "runtime_error", "runtime_error"),
    "honest: a worker thread throws": (adds(
        'Thread worker = new Thread(() -> { throw new IllegalStateException("worker"); }); worker.start(); '
        "worker.join(); System.out.println(a + b);"), "passed", "runtime_error"),
    "honest: escapes and an exit": (adds(
        "char plus = '\\u002b'; System.out.println(a \\u002b b); System.\\u0065xit(0);"), "passed", "passed"),
    "honest: halt(0) after a shutdown hook": (adds(
        HOOK.format("") + " System.out.println(a + b); Runtime.getRuntime().halt(0);"), "passed", "passed"),
    # red team 9 (passed on 9e3568a): the descriptor was a file, where java's fd 1 is a pipe
    "truncates what it wrote through the descriptor": (adds(
        f"{DESCRIPTOR} o.write(\"WRONG\\n\".getBytes()); try {{ o.getChannel().truncate(0); }} "
        "catch (java.io.IOException refused) { } System.out.println(a + b);"), "wrong_output", "passed"),
    "writes the sum at a position": (adds(
        f"{DESCRIPTOR} o.getChannel().write(java.nio.ByteBuffer.wrap((a + b + \"\\n\").getBytes()), 0);"),
        "runtime_error", "passed"),
    "rewinds the descriptor": (adds(
        f"{DESCRIPTOR} o.write((a + b + \"\\n\").getBytes()); o.getChannel().position(0);"), "runtime_error", "passed"),
    # ... and a write after fd 1 was closed was dropped, where java throws
    "System.out closed, then a FileWriter": (adds(
        "System.out.println(a + b); System.out.close(); java.io.Writer w = new java.io.FileWriter("
        'java.io.FileDescriptor.out); w.write("junk"); w.flush();'), "runtime_error", "passed"),
    "the idiom closed, then the descriptor": (adds(
        f"System.out.println(a + b); new {IDIOM}.close(); new java.io.FileOutputStream("
        '(java.io.FileDescriptor.out)).write("junk".getBytes());'), "runtime_error", "passed"),
    "the descriptor closed, then the idiom": (adds(
        f'System.out.println(a + b); {DESCRIPTOR} o.close(); new {IDIOM}.write("junk".getBytes());'),
        "runtime_error", "passed"),
    # red team 8 (passed on 9e3568a): the program's own names, rewritten as java's
    "a variable FileDescriptor whose out is fd 2": (adds(
        "Fd FileDescriptor = new Fd(); new java.io.PrintStream(new java.io.FileOutputStream(FileDescriptor.out), "
        "true).println(a + b); } static class Fd { java.io.FileDescriptor out = java.io.FileDescriptor.err;"),
        "wrong_output", "passed"),
    "a class FileOutputStream that drops its bytes": (adds(
        "java.io.OutputStream o = new FileOutputStream(java.io.FileDescriptor.out); o.write((a + b + \"\\n\")"
        ".getBytes()); } static class FileOutputStream extends java.io.OutputStream { FileOutputStream("
        "java.io.FileDescriptor fd) { } @Override public void write(int c) { }"), "wrong_output", "passed"),
    "a class FileDescriptor whose out is fd 2": (adds(
        "new java.io.PrintStream(new java.io.FileOutputStream(FileDescriptor.out), true).println(a + b); } "
        "static class FileDescriptor { static final java.io.FileDescriptor out = java.io.FileDescriptor.err;"),
        "wrong_output", "passed"),
    # red team 9's h05 (runtime_error on 9e3568a): java lets each run set the factory once
    "honest: a URL stream handler factory set as it starts": (adds(
        "java.net.URL.setURLStreamHandlerFactory(protocol -> null); System.out.println(a + b);"), "passed",
        "runtime_error"),
    # red team 10 (on 462c6c5, the pipe's first version): text written after the close, read from the pipe as
    # the JVM ended; a position on a pipe opened for appending
    "the sum written after System.out.close(), then an unseen halt": (adds(
        "java.io.FileOutputStream raw = new java.io.FileOutputStream((java.io.FileDescriptor.out)); "
        "System.out.close(); Thread ticker = new Thread(() -> { while (true) { try { raw.write('\\n'); } "
        "catch (java.io.IOException closed) { return; } } }); ticker.setDaemon(true); ticker.start(); "
        "try { raw.write((a + b + \"\\n\").getBytes()); } catch (java.io.IOException closed) { } "
        "Thread.sleep(3); Runtime rt = Runtime.getRuntime(); rt.halt(0);"), "wrong_output", "passed"),
    "position() on the idiom's channel": (adds(
        f"System.out.println(a + b); System.out.flush(); new {IDIOM}.getChannel().position();"), "runtime_error",
        "passed"),
    "honest: the idiom's channel written, then closed": (adds(
        f"java.nio.channels.FileChannel ch = new {IDIOM}.getChannel(); "
        "ch.write(java.nio.ByteBuffer.wrap((a + b + \"\\n\").getBytes())); ch.close();"), "passed", "wrong_output"),
    "honest: fast input through FileInputStream(FileDescriptor.in)": (adds(
        "java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(new java.io."
        "FileInputStream(java.io.FileDescriptor.in))); String rest = r.readLine(); System.out.println(a + b);")
        .replace("Scanner in = new Scanner(System.in);\n        long a = in.nextLong(), b = in.nextLong();",
                 "long a, b; { java.io.DataInputStream d = new java.io.DataInputStream(new java.io.FileInputStream("
                 "java.io.FileDescriptor.in)); String[] w = new String(d.readAllBytes()).trim().split(\" \"); "
                 "a = Long.parseLong(w[0]); b = Long.parseLong(w[1]); }"), "passed", "runtime_error"),
    "honest: an array of descriptors in a static final field": (adds(
        "new java.io.PrintStream(new java.io.FileOutputStream(STREAMS[0]), true).println(a + b); } "
        "private static final java.io.FileDescriptor[] STREAMS = {java.io.FileDescriptor.out};"
        " static void unused() {").replace("java.io.FileDescriptor[] STREAMS = {java.io.FileDescriptor.out}",
                                           "FileDescriptor[] STREAMS = {FileDescriptor.out}")
        .replace("import java.util.*;", "import java.util.*;\nimport java.io.FileDescriptor;"), "passed", "wrong_output"),
    "honest right": (adds("System.out.println(a + b);"), "passed", "passed"),
    "honest wrong": (adds("System.out.println(a - b);"), "wrong_output", "wrong_output"),
}


def test_each_answer_is_judged_as_java_runs_it():
    """Through the judge itself: the statuses plain ``javac``/``java`` give (the sums printed or not, a hang a
    timeout), and no answer judged otherwise than its twin without the attack would be."""
    doc = {"tests": SUM_TESTS}
    with JavaJudge(workers=1, hidden=data_locations()) as judge:
        statuses = BENCHMARKS["avatar"].judge_replies([(reply, doc) for reply, _, _ in ANSWERS.values()], judge, 3000)
    assert dict(zip(ANSWERS, statuses, strict=True)) == {name: now for name, (_, now, _) in ANSWERS.items()}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, Path]:
    """A real lm_eval CLI run of avatar_orig on SUM, answered with every reply in turn: (its folder, data)."""
    data = tmp_path_factory.mktemp("judged-as-java-data")
    avatar = {"id": "atcoder_ABC999_A", "python": SUM, "java": AVATAR_CONTROLS["honest right"][0], "tests": SUM_TESTS}
    (data / "avatar_py2java.jsonl").write_text(json.dumps(avatar) + "\n")
    out = tmp_path_factory.mktemp("judged-as-java-run")
    replies = [reply for reply, _, _ in ANSWERS.values()]
    with ScriptedServer(lambda prompt, sample: replies[sample % len(replies)]) as server:
        done = subprocess.run(
            [sys.executable, "-m", "lm_eval", "--model", "local-completions", "--model_args",
             f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,tokenized_requests=False",
             "--tasks", "avatar_orig", "--confirm_run_unsafe_code", "--log_samples", "--output_path", str(out),
             "--metadata", json.dumps({"data_dir": str(data), "seed": 3, "repeats": len(replies), "timeout": 3})],
            capture_output=True, text=True, cwd=out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out, data


def test_lm_eval_and_verify_judge_each_answer_as_java_runs_it(run, tmp_path):
    """lm_eval logs each answer's status as Java runs it; verify rejudges the run and agrees, and a copy
    claiming what the judge gave before each fix (the attacks passed, the honest worker thread failed) fails."""
    folder, data = run
    (sample,) = [json.loads(line) for line in next(folder.rglob("samples_avatar_orig_*.jsonl")).read_text().splitlines()]
    statuses = [json.loads(status)["status"] for status in sample["filtered_resps"][0]]
    assert dict(zip(ANSWERS, statuses, strict=True)) == {name: now for name, (_, now, _) in ANSWERS.items()}
    code, lines = _verify(folder, data)
    assert code == 0 and len(lines) == 1 and "FAILED" not in lines[0], lines

    def claim_what_was_given_before(copy: Path) -> None:
        _claim_passed(copy, "avatar_orig", [before == "passed" and now != "passed"
                                            for _, now, before in ANSWERS.values()])

    code, lines = _verify(altered(folder, tmp_path, claim_what_was_given_before), data)
    assert code == 1 and len(lines) == 1 and "FAILED" in lines[0], lines
    assert f"answers score {[now for _, now, _ in ANSWERS.values()]} here" in lines[0], lines
