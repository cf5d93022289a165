"""The exec boundary: sandboxed Python cannot start any program (a seccomp filter in every child), and
a judged Java program can start no program but ``java`` and write nothing (a mount whitelist with no
writable mount), so no answer reaches a second interpreter. Each attack comes with a control that
passes in the same run; in the weaker rlimits mode the Python filter still holds, and the Java
attacks that the whitelist stops are shown to work there, so that the tests here are not vacuous."""

import json
import os
import shutil
import subprocess
from textwrap import dedent

import pytest
from test_hostile import CODENET_ID, CODENET_JAVA, python_through_java

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.judge.jobs import program_job
from dynbench_tasks.judge.pool import JavaJudge
from dynbench_tasks.locations import data_locations
from mutators.execution import Sandbox

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out

# ---------------------------------------------------------------------------------------------- Python

EXEC_ATTEMPTS = dedent("""
    import ctypes, os, sys
    try:
        import subprocess
    except ImportError:  # rlimits mode as root with a Python nobody cannot read: the standard library is out of reach
        subprocess = None
    libc = ctypes.CDLL(None, use_errno=True)

    def raw(number, *arguments):
        result = libc.syscall(number, *arguments)
        return "returned %d, errno %d" % (result, ctypes.get_errno())

    def spawned(path, *arguments):
        return os.waitpid(os.posix_spawn(path, [path, *arguments], {}), 0)[1]

    def written_then_run(folder):
        path = os.path.join(folder, "run-%d.sh" % os.getpid())
        try:
            with open(path, "w") as handle:
                handle.write("#!/bin/sh\\necho ran\\n")
            os.chmod(path, 0o755)
            return spawned(path)
        finally:
            os.unlink(path)

    def from_memory():
        fd = os.memfd_create("program")
        os.write(fd, b"#!/bin/sh\\necho ran\\n")
        os.execve(fd, ["program"], {})

    def run(*argv):
        if subprocess is None:
            return "no subprocess module"
        return subprocess.run(list(argv), capture_output=True).stdout

    EXECVE, EXECVEAT = {"x86_64": (59, 322), "aarch64": (221, 281)}[os.uname().machine]
    attempts = {
        "os.execv": lambda: os.execv("/bin/sh", ["sh", "-c", "echo ran"]),
        "os.system": lambda: os.system("echo ran"),
        "subprocess python3": lambda: run("python3", "-c", "print('ran')"),
        "subprocess /bin/sh": lambda: run("/bin/sh", "-c", "echo ran"),
        "subprocess /usr/bin/env": lambda: run("/usr/bin/env"),
        "os.posix_spawn": lambda: spawned("/bin/sh", "-c", "exit 3"),
        "raw execve": lambda: raw(EXECVE, b"/bin/sh", None, None),
        "raw execveat": lambda: raw(EXECVEAT, -100, b"/bin/sh", None, None, 0),
        "written in the working folder": lambda: written_then_run("."),
        "written in /tmp": lambda: written_then_run("/tmp"),
        "a program in memory (memfd)": from_memory,
    }
    for name, attempt in attempts.items():
        try:
            print(name, "->", repr(attempt()))
        except OSError as error:
            print(name, "-> OSError", error.errno)
    print("control", sum(range(10)))
""")


def _attempt_lines(box: Sandbox) -> dict[str, str]:
    """What each exec attempt ended with, run with processes allowed (so that only the filter stops them)."""
    task = {"kind": "run_script", "payload": {"source": EXEC_ATTEMPTS, "stdin": "", "seconds": 20.0},
            "limits": {"nproc": 64, "wall_seconds": 30.0, "cpu_seconds": 20}}
    result = box.run([task])[0]
    assert result["status"] == "ok", result
    lines = result["result"]["stdout"].splitlines()
    assert result["result"]["outcome"] == "exit:0", (result, lines)
    return dict(line.split(" -> ", 1) if " -> " in line else line.rsplit(" ", 1) for line in lines)


def _assert_nothing_ran(outcomes: dict[str, str], subprocess_importable: bool = True) -> None:
    assert outcomes.pop("control") == "45"  # the same program computes what it computes
    assert len(outcomes) == 11, outcomes
    for name, outcome in outcomes.items():
        if name == "os.system":  # system(3) reports the shell that could not start as status 127
            assert outcome == str(127 << 8), outcome
        elif name.startswith("raw"):
            assert outcome == "'returned -1, errno 1'", (name, outcome)
        elif name.startswith("subprocess") and not subprocess_importable:
            assert outcome == "'no subprocess module'"
        elif name == "os.posix_spawn" or name.startswith("written in"):
            # These must create a process before it can exec: where the sandbox user's processes on this
            # machine already reach the process limit (tests running side by side), that fails first
            # (EAGAIN). Nothing runs either way, and os.execv's EPERM shows the filter.
            assert outcome in ("OSError 1", "OSError 11"), (name, outcome)
        else:
            assert outcome == "OSError 1", (name, outcome)  # EPERM: the filter, not a missing file


def test_python_children_cannot_exec(sandbox):
    assert sandbox.isolation.denies_exec, sandbox.isolation.describe()
    _assert_nothing_ran(_attempt_lines(sandbox))


def test_python_children_cannot_exec_without_bubblewrap_either(monkeypatch):
    from mutators.execution import isolation as module

    monkeypatch.setenv("DYNBENCH_ISOLATION", "rlimits")
    module.isolation.cache_clear()
    try:
        with Sandbox(workers=1) as weak:
            assert weak.isolation.describe() == ("rlimits (DYNBENCH_ISOLATION=rlimits); Java can start any program "
                                                 "on this machine; Python cannot exec (seccomp)")
            outcomes = _attempt_lines(weak)
    finally:
        module.isolation.cache_clear()
    _assert_nothing_ran(outcomes, os.getuid() != 0 or module._reachable_by_others(subprocess.__file__))


def _run_filter(rows: list[tuple[int, int, int, int]], arch: int, number: int) -> int:
    """What a classic BPF seccomp program of ``rows`` returns for one syscall (the few instructions it uses)."""
    data = {0: number, 4: arch}
    accumulator, position = 0, 0
    while True:
        code, jt, jf, k = rows[position]
        if code == 0x20:  # load a word of seccomp_data
            accumulator, position = data[k], position + 1
        elif code in (0x15, 0x35):  # jump if equal / at least
            taken = accumulator == k if code == 0x15 else accumulator >= k
            position += 1 + (jt if taken else jf)
        else:
            assert code == 0x06
            return k


def test_the_exec_filter_denies_exec_in_every_abi_and_nothing_else(monkeypatch):
    from mutators.execution.isolation import EXECUTION_FOLDER

    monkeypatch.syspath_prepend(EXECUTION_FOLDER)
    import worker

    allow, eperm = 0x7FFF0000, 0x00050001
    for machine, (arch, denied, x32) in worker._FILTERED.items():
        rows = worker._filter_rows(arch, denied, x32)
        for number in denied:
            assert _run_filter(rows, arch, number) == eperm, (machine, number)
        for number in (0, 1, 2, 3, 57, 60, 231):  # read, write, open, close, fork, exit, exit_group (x86_64)
            if number not in denied:
                assert _run_filter(rows, arch, number) == allow, (machine, number)
        assert _run_filter(rows, 0x40000003, 11) == eperm  # i386's execve through int 0x80: another ABI
        assert _run_filter(rows, arch, 0x40000000 + 59) == (eperm if x32 else allow)  # x32's execve


# ------------------------------------------------------------------------------------------------ Java

@pytest.fixture(scope="module")
def judge():
    with JavaJudge(workers=2, hidden=data_locations()) as pool:
        yield pool


LOOK_AROUND = dedent("""
    import java.io.*;
    import java.nio.file.*;
    import java.util.*;

    public class Main {
        static final Set<String> SKIPPED = Set.of("/proc", "/sys", "/dev");

        public static void main(String[] args) throws Exception {
            Files.walkFileTree(Path.of("/"), new SimpleFileVisitor<Path>() {
                public FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes a) {
                    if (SKIPPED.contains(dir.toString())) return FileVisitResult.SKIP_SUBTREE;
                    if (Files.isWritable(dir)) System.out.println("writable " + dir);
                    return FileVisitResult.CONTINUE;
                }
                public FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes a) {
                    String name = file.getFileName().toString();
                    if (a.isRegularFile() && Files.isExecutable(file) && !name.contains(".so"))
                        System.out.println("program " + file);
                    if (a.isRegularFile() && Files.isWritable(file)) System.out.println("writable " + file);
                    return FileVisitResult.CONTINUE;
                }
                public FileVisitResult visitFileFailed(Path file, IOException e) { return FileVisitResult.CONTINUE; }
            });
            for (String folder : new String[] {"/dev", "/dev/shm", "/proc/self", "/proc/self/fd"})
                if (Files.isWritable(Path.of(folder))) System.out.println("writable " + folder);
            try (RandomAccessFile memory = new RandomAccessFile("/proc/self/mem", "rw")) {
                System.out.println("writable /proc/self/mem");
            } catch (IOException refused) { }
            String[][] programs = {{"python3", "-c", "print(1)"}, {"/usr/bin/python3", "-c", "print(1)"},
                                   {"/bin/sh", "-c", "echo 1"}, {"sh", "-c", "echo 1"}, {"/usr/bin/env"}, {"ls"}};
            for (String[] program : programs) {
                try {
                    new ProcessBuilder(program).start().waitFor();
                    System.out.println("started " + program[0]);
                } catch (IOException refused) { }
            }
            try {
                Runtime.getRuntime().exec(new String[] {"/bin/sh", "-c", "true"}).waitFor();
                System.out.println("started Runtime.exec");
            } catch (IOException refused) { }
            for (String folder : new String[] {"/tmp", "/dev/shm", ".", System.getProperty("java.io.tmpdir"),
                                               System.getProperty("user.home"), "/var/tmp", "/run"}) {
                try {
                    Path script = Path.of(folder, "run.sh");
                    Files.writeString(script, "#!/bin/sh\\necho 1\\n");
                    script.toFile().setExecutable(true);
                    System.out.println("wrote " + script);
                    new ProcessBuilder(script.toString()).start().waitFor();
                    System.out.println("started " + script);
                } catch (IOException refused) { }
                try {  // an ELF: a copy of the launcher this JVM runs from
                    Path elf = Files.copy(Path.of("/proc/self/exe"), Path.of(folder, "run"));
                    elf.toFile().setExecutable(true);
                    System.out.println("wrote " + elf);
                    new ProcessBuilder(elf.toString(), "-version").start().waitFor();
                    System.out.println("started " + elf);
                } catch (IOException refused) { }
            }
            System.out.println("done " + (6 * 7));
        }
    }
""")


def test_a_judged_java_program_sees_no_program_but_the_jdk_and_can_write_nothing(judge):
    from mutators.execution.isolation import BUBBLEWRAP, isolation

    assert isolation().kind == BUBBLEWRAP, isolation().describe()
    java_home = _runner_home_as_seen(judge)
    result = judge.run([program_job(LOOK_AROUND, "0", [b""], 60_000)])[0]
    assert result.status == 0, result.diagnostics
    lines = result.runs[0].stdout.decode().splitlines()
    assert lines[-1] == "done 42", lines[-20:]  # the control: it ran to its end
    programs = {line.split(" ", 1)[1] for line in lines if line.startswith("program ")}
    # The JDK's own: its launcher, and the two helpers it starts processes and jars with.
    assert programs <= {f"{java_home}/bin/java", f"{java_home}/lib/jspawnhelper", f"{java_home}/lib/jexec"}, programs
    assert f"{java_home}/bin/java" in programs
    assert [line for line in lines if not line.startswith("program ")] == ["done 42"], lines


def _runner_home_as_seen(judge) -> str:
    """The home of the java that runs judged programs (the JDK's, or the runtime linked for the runner),
    where the sandbox shows it."""
    from dynbench_tasks.judge.jdk import sandbox_mounts
    from dynbench_tasks.judge.pool import RUNNER
    from mutators.execution.isolation import inside, sandbox_paths

    launch = judge.workers[0].jvm.launches[RUNNER]
    readable, _ = sandbox_mounts(launch.java)
    return inside(os.path.dirname(os.path.dirname(launch.java)), sandbox_paths([*readable, launch.judge], system=False))


def _codenet_doc(data_dir) -> dict:
    records = [json.loads(line) for line in (data_dir / "codenet_py2java.jsonl").read_text().splitlines()]
    return next(record for record in records if record["id"] == CODENET_ID)


@pytest.mark.skipif(shutil.which("python3", path="/usr/bin:/bin") is None, reason="no python3 to start here")
def test_python_through_java_passes_only_where_java_is_not_whitelisted(judge, data_dir, monkeypatch):
    """The forged translation and its wrappers fail in the whitelist; without it (rlimits mode, which
    says so in its isolation string) the same replies pass, so the attack is real."""
    from mutators.execution import isolation as module

    doc = _codenet_doc(data_dir)
    attacks = python_through_java(doc["python"])
    replies = [(reply, doc) for reply, _ in attacks] + [(CODENET_JAVA, doc)]
    statuses = BENCHMARKS["codenet"].judge_replies(replies, judge, 10_000)
    assert statuses[-1] == "passed"
    for (_, wrapper), status in zip(attacks, statuses, strict=False):
        assert status == "runtime_error", (wrapper, status)
    monkeypatch.setenv("DYNBENCH_ISOLATION", "rlimits")
    module.isolation.cache_clear()
    try:
        with JavaJudge(workers=2, hidden=data_locations()) as weak:
            weak_statuses = BENCHMARKS["codenet"].judge_replies(replies, weak, 10_000)
    finally:
        module.isolation.cache_clear()
    assert weak_statuses == ["passed"] * len(replies), list(zip([w for _, w in attacks], weak_statuses, strict=False))


EXITS = {
    "System.exit": "System.exit(0);",
    "java.lang.System.exit": "java.lang.System.exit(0);",
    "Runtime.getRuntime().exit": "Runtime.getRuntime().exit(0);",
    "Runtime.getRuntime().halt": "Runtime.getRuntime().halt(0);",
    "java.lang.Runtime.getRuntime().exit": "java.lang.Runtime.getRuntime().exit(0);",
    "java.lang.Runtime.getRuntime().halt": "java.lang.Runtime.getRuntime().halt(0);",
    "import static java.lang.System.exit": "exit(0);",
    "import static java.lang.System.*": "exit(0);",
    "System::exit": "java.util.function.IntConsumer end = System::exit; end.accept(0);",
}


def test_a_correct_program_passes_whichever_way_it_exits(judge, data_dir):
    doc = _codenet_doc(data_dir)
    replies = []
    for spelling, call in EXITS.items():
        reply = CODENET_JAVA.replace("System.out.println(a * b / 100);", f"System.out.println(a * b / 100); {call}")
        if spelling.startswith("import static"):
            reply = reply.replace("import java.util.*;", f"import java.util.*;\n{spelling};")
        replies.append(reply)
    nonzero = CODENET_JAVA.replace("System.out.println(a * b / 100);", "java.lang.System.exit(2);")
    statuses = BENCHMARKS["codenet"].judge_replies([(reply, doc) for reply in [*replies, nonzero]], judge, 10_000)
    assert statuses == ["passed"] * len(EXITS) + ["runtime_error"], dict(zip([*EXITS, "nonzero"], statuses,
                                                                              strict=True))
