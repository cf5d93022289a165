"""Java extraction and the judge, on hand-written programs (CodeNet has no Java references) and
on the hazards a model reply brings: chatter, broken code, loops forever, System.exit, forks."""

import os
import subprocess
import sys
import time
from pathlib import Path
from textwrap import dedent

import pytest

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.benchmarks.transcoder_harness import function_job
from dynbench_tasks.benchmarks.translation import same_output
from dynbench_tasks.errors import JdkMissing
from dynbench_tasks.judge import java_source as js
from dynbench_tasks.judge import pool
from dynbench_tasks.judge.jdk import find_jdk
from dynbench_tasks.judge.jobs import program_job
from dynbench_tasks.judge.pool import JavaJudge, JudgeBroken, JudgeWorker, _channel_root
from dynbench_tasks.locations import data_locations

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out

SUM_TWO = dedent("""
    import java.util.*;

    public class Solution {
        public static void main(String[] args) {
            Scanner in = new Scanner(System.in);
            long a = in.nextLong(), b = in.nextLong();
            System.out.println(Helper.add(a, b));
        }
    }

    public class Helper {
        static long add(long a, long b) { return a + b; }
    }
""")
HARNESS = dedent("""
    import java.util.*;
    public class ADD_ONE {
    static int f_gold(int x) { return x + 1; }
    //TOFILL
    public static void main(String args[]) {
        int n_success = 0;
        List<Integer> param0 = new ArrayList<>();
        param0.add(1);
        param0.add(5);
        param0.add(-3);
        for(int i = 0; i < param0.size(); ++i)
        {
            if(f_filled(param0.get(i)) == f_gold(param0.get(i)))
            {
                n_success+=1;
            }
        }
        System.out.println("#Results:" + n_success + ", " + param0.size());
    }
    }
""")


@pytest.fixture(scope="module")
def judge():
    with JavaJudge(workers=2, hidden=data_locations()) as pool:
        yield pool


def stdin_doc(*pairs):
    return {"tests": [{"input": i, "output": o} for i, o in pairs]}


def harness_doc():
    return {"java_harness": HARNESS, "entry_point": "addOne"}


def test_code_in_reply_prefers_java_fences_and_accepts_bare_code():
    reply = "Here you go:\n```python\nprint(1)\n```\n```java\nclass A { }\n```\nThanks!"
    assert js.code_in_reply(reply) == "class A { }"
    assert js.code_in_reply("static int f(int x) { return x; }") == "static int f(int x) { return x; }"
    assert js.code_in_reply("I cannot translate this.") is None


def test_program_job_keeps_helpers_and_strips_public():
    code = "package foo.bar;\n" + SUM_TWO
    job = program_job(code, "7", [b"1 2\n"], 1000)
    source = next(iter(job.sources.values()))
    assert job.main_class == "dynbench.j7.Solution" and list(job.sources) == ["dynbench/j7/Solution.java"]
    assert source.startswith("package dynbench.j7;") and "package foo.bar" not in source
    assert "public class Solution" in source and "public class Helper" not in source and "class Helper" in source


def test_every_spelling_of_exit_is_redirected_and_nothing_else():
    redirected = {
        "System.exit(0);": "dynbench.Exit.exit(0);",
        "java.lang.System.exit(1);": "dynbench.Exit.exit(1);",
        "System /* why */ . exit (2);": "dynbench.Exit.exit (2);",
        "Runtime.getRuntime().exit(3);": "dynbench.Exit.exit(3);",
        "Runtime.getRuntime().halt(4);": "dynbench.Exit.halt(4);",  # a halt runs no shutdown hook
        "java.lang.Runtime.getRuntime().halt(5);": "dynbench.Exit.halt(5);",
        "IntConsumer c = java.lang.System::exit;": "IntConsumer c = dynbench.Exit::exit;",
        "import static java.lang.System.exit;\nclass A { void f() { exit(6); } }":
            "import static dynbench.Exit.exit;\nclass A { void f() { exit(6); } }",
        "import static java.lang.System.*;\nclass A { void f() { out.print(1); exit(7); } }":
            "import static java.lang.System.*; import static dynbench.Exit.exit;\n"
            "class A { void f() { out.print(1); exit(7); } }",
    }
    for before, after in redirected.items():
        assert js.judge_rewrites(before) == after, before
    for untouched in ('String s = "System.exit(0)"; // System.exit(0)', "my.System.exit(0);",
                      "Runtime.getRuntime().gc();", "class A { void exit(int c) {} void f() { exit(1); } }"):
        assert js.judge_rewrites(untouched) == untouched


def test_the_fast_output_idiom_and_every_other_fd_1_write_to_the_tests_stdout():
    """The JVM's fd 1 goes to /dev/null (the runner replies elsewhere): ``new FileOutputStream(FileDescriptor.out)``
    becomes a FileOutputStream that writes where System.out does (red team 6's honest misjudge), and any other
    ``FileDescriptor.out`` a descriptor whose bytes go there too (red team 8's five honest forms)."""
    redirected = {
        "new PrintWriter(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)));":
            "new PrintWriter(new BufferedOutputStream(new dynbench.Stdout()));",
        "FileOutputStream o = new java.io.FileOutputStream( java.io.FileDescriptor . out );":
            "FileOutputStream o = new dynbench.Stdout();",
        "new FileOutputStream(/* fd 1 */ FileDescriptor.out)": "new dynbench.Stdout()",
        # javac ends a // comment at a CR too, and ignores U+0085 inside a name (red team 8)
        "// fast\rnew FileOutputStream(FileDescriptor.out)": "// fast\rnew dynbench.Stdout()",
        "new FileOutputStream(File\u0085Descriptor.out)": "new dynbench.Stdout()",
    }
    for before, after in redirected.items():
        assert js.judge_rewrites(before) == after, before
    descriptor = "dynbench.Stdout.descriptor()"
    for before, after in {
        "FileDescriptor d = FileDescriptor.out;": f"FileDescriptor d = {descriptor};",
        "new FileWriter(java.io.FileDescriptor.out)": f"new FileWriter({descriptor})",
        "new FileOutputStream((FileDescriptor.out))": f"new FileOutputStream(({descriptor}))",
        "new FileOutputStream(FileDescriptor.out, true)": f"new FileOutputStream({descriptor}, true)",
        "x.new FileOutputStream(FileDescriptor.out)": f"x.new FileOutputStream({descriptor})",
        "import java.io.FileDescriptor; class A { Object o = FileDescriptor.out; }":
            f"import java.io.FileDescriptor; class A {{ Object o = {descriptor}; }}",
    }.items():
        assert js.judge_rewrites(before) == after, before
    for before, after in {  # as the exit's static imports are rewritten (red team 9: h13)
        "import static java.io.FileDescriptor.out;\nclass A { Object o = out; }":
            "import static dynbench.Stdout.Imported.out;\nclass A { Object o = out; }",
        "import static java.io.FileDescriptor.*;": "import static java.io.FileDescriptor.*; import static dynbench.Stdout.Imported.out;",
    }.items():
        assert js.judge_rewrites(before) == after, before
    for before, after in {  # red team 10: the fast-input idiom read the JVM's own stdin, the runner's request
        "new DataInputStream(new FileInputStream(FileDescriptor.in))": "new DataInputStream(new dynbench.Stdin())",
        "new java.io.FileInputStream(java.io.FileDescriptor.in)": "new dynbench.Stdin()",
        # ... another single-static-import of an out shadows FileDescriptor.* in java too: no second one added
        "import static java.lang.System.out;\nimport static java.io.FileDescriptor.*;":
            "import static java.lang.System.out;\nimport static java.io.FileDescriptor.*;",
        # ... and a modifier before an array type is no declaration of a variable named FileDescriptor
        "static final FileDescriptor[] STREAMS = {FileDescriptor.out};":
            f"static final FileDescriptor[] STREAMS = {{{descriptor}}};",
    }.items():
        assert js.judge_rewrites(before) == after, before
    for untouched in ('String s = "new FileOutputStream(FileDescriptor.out)";', "new FileOutputStream(FileDescriptor.err)",
                      "new FileOutputStream(my.FileDescriptor.out)", "import static java.io.FileDescriptor.err;",
                      "FileDescriptor.outer"):
        assert js.judge_rewrites(untouched) == untouched, untouched


def test_a_name_the_program_declares_itself_is_its_own_and_not_rewritten():
    """Red team 8: a variable ``FileDescriptor`` whose field ``out`` is fd 2, a class ``FileOutputStream`` of the
    program's that drops what it is given, a nested class ``FileDescriptor``: the rewrite made each java.io's, so
    text plain java never prints reached the test's stdout. Where the program declares the name (a type, a
    variable, field or parameter; a variable does not hide a type after ``new``), only the qualified spelling is
    java's; the same holds for the exit's ``System`` and ``Runtime``."""
    descriptor = "dynbench.Stdout.descriptor()"
    for before, after in {
        "Fd FileDescriptor = new Fd(); new PrintWriter(new FileOutputStream(FileDescriptor.out));":
            "Fd FileDescriptor = new Fd(); new PrintWriter(new FileOutputStream(FileDescriptor.out));",
        "static class FileOutputStream extends OutputStream { } new FileOutputStream(FileDescriptor.out);":
            f"static class FileOutputStream extends OutputStream {{ }} new FileOutputStream({descriptor});",
        "class FileDescriptor { } Object o = FileDescriptor.out, p = java.io.FileDescriptor.out;":
            f"class FileDescriptor {{ }} Object o = FileDescriptor.out, p = {descriptor};",
        "for (Fd FileDescriptor : all) use(FileDescriptor.out);": "for (Fd FileDescriptor : all) use(FileDescriptor.out);",
        "catch (IOException FileOutputStream) { new FileOutputStream(FileDescriptor.out); }":
            "catch (IOException FileOutputStream) { new dynbench.Stdout(); }",
        "class System { static void exit(int c) { } } System.exit(1); java.lang.System.exit(2);":
            "class System { static void exit(int c) { } } System.exit(1); dynbench.Exit.exit(2);",
        "int[] Runtime = {0}; Runtime.getRuntime().halt(3);": "int[] Runtime = {0}; Runtime.getRuntime().halt(3);",
        # naming java's type is no declaration: a type, a cast, a test, a generic argument
        "FileDescriptor d = FileDescriptor.out; if (o instanceof FileDescriptor) { } List<FileDescriptor> l;":
            f"FileDescriptor d = {descriptor}; if (o instanceof FileDescriptor) {{ }} List<FileDescriptor> l;",
        "static FileOutputStream o = new FileOutputStream(FileDescriptor.out); System.exit(0);":
            "static FileOutputStream o = new dynbench.Stdout(); dynbench.Exit.exit(0);",
    }.items():
        assert js.judge_rewrites(before) == after, before


def test_a_programs_own_dynbench_is_renamed_before_the_judge_names_its_package():
    """Red team 5's JV24: a variable, field or type the program names ``dynbench`` hides the package the judge's
    rewrites and harnesses name (``dynbench.Exit.exit``), and an honest program did not compile. Each becomes a
    name the program does not use; strings and comments keep theirs."""
    def renamed(code: str) -> str:
        return js.package_unobscured(code, js.tokenize(code))[0]

    for before, after in {
        "int dynbench = 1; System.exit(dynbench);": "int dynbench_ = 1; System.exit(dynbench_);",
        "class dynbench { int dynbench_; } dynbench d = new dynbench(); d.dynbench_ = 2;":
            "class dynbench__ { int dynbench_; } dynbench__ d = new dynbench__(); d.dynbench_ = 2;",
        'int dyn\\u0062ench = 1; // dynbench\nString s = "dynbench";': 'int dynbench_ = 1; // dynbench\nString s = "dynbench";',
    }.items():
        assert renamed(before) == after, before
    for untouched in ("int dynbench_ = 1; System.exit(dynbench_);", "dynbench.Record.value(1); import dynbench.Exit;"):
        assert renamed(untouched) == untouched  # the second names the package itself: the judge's boundary decides


def _sum_program(body: str) -> str:
    return ("import java.io.*;\nimport java.util.*;\npublic class Main {\n    public static void main(String[] args) "
            "throws Exception {\n        Scanner in = new Scanner(System.in);\n        long a = in.nextLong(), "
            f"b = in.nextLong();\n        {body}\n    }}\n}}\n")


def test_the_idiom_behaves_as_fd_1_does_in_a_jvm_of_its_own(judge):
    """Red team 8: closing the idiom's stream closes the test's stdout (a line printed after it is not seen, as in
    plain java), System.out.close() closes the idiom's, a subclass of it compiles, bad arguments throw; each
    program's verdict as plain java gives it. A JVM runs several tests: what one closed the next has open."""
    idiom = "new FileOutputStream(FileDescriptor.out)"
    programs = {
        "closed, then a debug line on System.out": (
            f"PrintWriter out = new PrintWriter({idiom});\n out.println(a + b);\n out.close();\n"
            'System.out.println("debug: done");', [b"3\n", b"42\n"], 0),
        "System.out closed, then the idiom": (
            f'System.out.println(a + b);\n System.out.close();\n {idiom}.write("junk".getBytes());', [b"3\n", b"42\n"],
            1),
        "an anonymous subclass": (
            f"OutputStream out = {idiom} {{ }};\n out.write((a + b + \"\\n\").getBytes());", [b"3\n", b"42\n"], 0),
        "a write out of bounds": (f"System.out.println(a + b);\n {idiom}.write(new byte[1], -1, 0);",
                                  [b"3\n", b"42\n"], 1),
    }
    jobs = [program_job(_sum_program(body), str(i), [b"1 2\n", b"40 2\n"], 5000)
            for i, (body, _, _) in enumerate(programs.values())]
    for (name, (_, printed, outcome)), result in zip(programs.items(), judge.run(jobs), strict=True):
        assert result.status == 0, (name, result.diagnostics)
        assert [run.stdout for run in result.runs] == printed, name
        assert {run.outcome for run in result.runs} == {outcome}, name  # 0 returned, 1 threw


def test_fd_1_reached_any_way_a_source_spells_it_is_the_tests_stdout(judge):
    """Red team 8's five honest forms, judged ``wrong_output`` before: each printed its answer through fd 1 another way
    than the idiom's stream (that stream's channel or descriptor, a FileWriter, the descriptor held in a variable or
    in parentheses), and it went to /dev/null. Each is now the test's stdout, in order with System.out's lines; a
    program that closes the descriptor closes its test's stdout, as in plain java, and its later tests get a fresh
    JVM; a byte System.out.write(int) writes alone waits for a flush, as in java's System.out (red team 8's h17,
    printed first before). Red team 9's: the descriptor imported statically, a FileWriter flushed by a shutdown hook
    or before an exit the rewrite does not see (the JVM ends: the judge reads the rest of the descriptor file), and
    a subclass of the idiom's stream whose close() declares what FileOutputStream's does. Every test prints what
    plain java prints, and ends as it does there."""
    answer = '(a + b + "\\n").getBytes()'
    writer = 'Writer w = new FileWriter(FileDescriptor.out); w.write(a + b + "\\n");'
    sums, returned, exited = [b"3\n", b"42\n", b"11\n"], 0, 2
    forms = {
        "the idiom's channel": ("new FileOutputStream(FileDescriptor.out).getChannel().write("
                                f"java.nio.ByteBuffer.wrap({answer}));", sums, returned),
        "the idiom's descriptor": ("new FileOutputStream(new FileOutputStream(FileDescriptor.out).getFD()).write("
                                   f"{answer});", sums, returned),
        "a FileWriter": (f"{writer} w.flush();", sums, returned),
        "a variable": (f"FileDescriptor fd = FileDescriptor.out; new FileOutputStream(fd).write({answer});", sums,
                       returned),
        "parentheses": (f"new FileOutputStream((FileDescriptor.out)).write({answer});", sums, returned),
        "in order with System.out": ('System.out.print("="); Writer w = new FileWriter(java.io.FileDescriptor.out); '
                                     'w.write(a + b + ""); w.flush(); System.out.println("=");',
                                     [b"=3=\n", b"=42=\n", b"=11=\n"], returned),
        "closed, then System.out": (f'{writer} w.close(); System.out.println("after the close");', sums, returned),
        # java's System.out keeps a byte written alone until a flush (red team 8: h17)
        "System.out.write(int), flushed last": (f"System.out.write('='); new FileOutputStream(FileDescriptor.out).write("
                                                f"{answer}); System.out.flush();", [b"3\n=", b"42\n=", b"11\n="],
                                                returned),
        "imported statically": ("new PrintStream(new FileOutputStream(out), true).println(a + b);", sums, returned),
        "flushed by a shutdown hook": ("PrintWriter p = new PrintWriter(new FileWriter(FileDescriptor.out)); "
                                       "Runtime.getRuntime().addShutdownHook(new Thread(p::flush)); p.println(a + b);",
                                       sums, exited),
        "flushed, then an exit the rewrite does not see": (f"Runtime rt = Runtime.getRuntime(); {writer} w.flush(); "
                                                           "rt.exit(0);", sums, exited),
        "a subclass whose close() throws": ("OutputStream o = new FileOutputStream(FileDescriptor.out) { @Override "
                                            "public void close() throws IOException { super.close(); } }; "
                                            f"o.write({answer}); o.close();", sums, returned),
        # red team 5's JV24: a name of the program's own hid the package the rewrite names (compile_error before)
        "a variable named dynbench": ("long dynbench = a + b; new PrintStream(new FileOutputStream(FileDescriptor.out), "
                                      "true).println(dynbench); System.exit(0);", sums, exited),
    }
    tests = [b"1 2\n", b"40 2\n", b"5 6\n"]
    programs = [_sum_program(body) for body, _, _ in forms.values()]
    programs = [program.replace("import java.util.*;", "import java.util.*;\nimport static java.io.FileDescriptor.out;")
                if "statically" in name else program for name, program in zip(forms, programs, strict=True)]
    results = judge.run([program_job(program, str(i), tests, 5000) for i, program in enumerate(programs)])
    for (name, (_, printed, outcome)), result in zip(forms.items(), results, strict=True):
        assert result.status == 0, (name, result.diagnostics)
        assert [run.stdout for run in result.runs] == printed, name
        assert {(run.outcome, run.exit_status) for run in result.runs} == {(outcome, 0)}, name


@pytest.mark.parametrize("enlarged", [True, False], ids=["a pipe that holds the output cap", "a 64 KiB pipe"])
def test_more_than_a_pipe_holds_through_the_descriptor_alone_arrives_whole_and_in_order(judge, monkeypatch, enlarged):
    """The descriptor is a pipe, as java's fd 1: a program that writes about 600 KB through a FileWriter on it and
    never touches System.out arrives whole and in order, in a pipe made to hold the output cap and in one the
    machine refused to enlarge (ten times what it holds: the runner takes it in as it fills, and the program is not
    left waiting for a reader); so does a program that then ends its JVM by a route the rewrite does not see (the
    judge reads what the pipe still holds)."""
    if not enlarged:
        def refused(*args):
            raise PermissionError("pipe-user-pages-soft")
        monkeypatch.setattr(pool.fcntl, "fcntl", refused)
    lines = 'Writer w = new BufferedWriter(new FileWriter(FileDescriptor.out)); for (int i = 0; i < 100000; i++) ' \
            'w.write(i + "\\n"); w.write(a + b + "\\n"); w.flush();'
    tests = [b"1 2\n", b"40 2\n"]
    padding = "".join(f"{i}\n" for i in range(100_000)).encode()
    returns, exits = (program_job(_sum_program(body), str(i), tests, 10_000) for i, body in enumerate(
        [lines, f"Runtime rt = Runtime.getRuntime(); {lines} rt.halt(0);"]))
    for result, outcome in zip(judge.run([returns, exits]), [0, 2], strict=True):
        assert result.status == 0, result.diagnostics
        assert [run.stdout for run in result.runs] == [padding + b"3\n", padding + b"42\n"]
        assert {(run.outcome, run.exit_status) for run in result.runs} == {(outcome, 0)}


LEFT_IN_THE_JVM = {  # name -> (program, its tests, what plain java prints for each)
    "a stream of an earlier test, closed with this one's": ("""import java.io.*;
import java.util.*;
public class Main {
    static class Tap extends FileOutputStream {
        final int n;
        Tap(FileDescriptor fd, int n) { super(fd); this.n = n; }
        @Override public void close() throws IOException { System.out.println("closed " + n); super.close(); }
    }
    public static void main(String[] args) throws Exception {
        Scanner in = new Scanner(System.in); int n = in.nextInt(); String mode = in.next();
        Tap tap = new Tap(FileDescriptor.out, n);
        if (mode.equals("close")) tap.close(); else System.out.println("kept " + n);
    }
}
""", [b"1 keep\n", b"2 keep\n", b"3 close\n"], [b"kept 1\n", b"kept 2\n", b"closed 3\nclosed 3\n"]),  # twice, as in
    # java: closing a descriptor closes every stream on it, the one being closed again
    "a finalizer the program's class inherits": ("""import java.awt.*;
import java.util.*;
public class Main {
    static class Job extends PrintJob {  // PrintJob.finalize() calls end()
        final int n;
        Job(int n) { this.n = n; }
        public Graphics getGraphics() { return null; }
        public Dimension getPageDimension() { return null; }
        public int getPageResolution() { return 0; }
        public boolean lastPageFirst() { return false; }
        public void end() { System.out.println("seen " + n); }
    }
    static Object sink;
    public static void main(String[] args) throws Exception {
        int n = new Scanner(System.in).nextInt();
        for (int i = 0; i < 4; i++) { System.gc(); Thread.sleep(40); }
        System.out.println("answer " + n);
        sink = new Job(n);
        sink = null;
    }
}
""", [b"5\n", b"6\n", b"7\n"], [b"answer 5\n", b"answer 6\n", b"answer 7\n"]),
    "the JVM's CookieHandler": ("""import java.net.*;
import java.util.*;
public class Main {
    static class Jar extends CookieHandler {
        final String seen;
        Jar(String seen) { this.seen = seen; }
        public Map<String, List<String>> get(URI u, Map<String, List<String>> h) {
            return Collections.singletonMap("seen", Collections.singletonList(seen));
        }
        public void put(URI u, Map<String, List<String>> h) { }
    }
    public static void main(String[] args) throws Exception {
        int n = new Scanner(System.in).nextInt();
        CookieHandler before = CookieHandler.getDefault();
        String seen = before == null ? "" : before.get(new URI("http://x/"), new HashMap<>()).get("seen").get(0);
        CookieHandler.setDefault(new Jar(seen + n));
        System.out.println(seen + n);
    }
}
""", [b"5\n", b"6\n", b"7\n"], [b"5\n", b"6\n", b"7\n"]),
    "a JVM thread's name": ("""import java.util.*;
public class Main {
    public static void main(String[] args) {
        int n = new Scanner(System.in).nextInt();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("Reference Handler")) {
                System.out.println(t.getName().substring(17) + " " + n);
                t.setName("Reference Handler " + n);
            }
        }
    }
}
""", [b"5\n", b"6\n", b"7\n"], [b" 5\n", b" 6\n", b" 7\n"]),
}


def test_what_one_test_leaves_in_the_jvm_reaches_no_later_test(judge):
    """Red team 10: a runner JVM runs several tests of a program, where plain java starts each in a JVM of its own,
    and each of these printed an earlier test's input into a later test's stdout: a stream an earlier test attached
    to fd 1, closed with the later test's (java closes every stream on a descriptor with it; each test now has a
    descriptor of its own), a finalizer the program's class inherits from the JDK (``java.awt.PrintJob``'s calls
    ``end()``; such a program now runs each test in a JVM of its own), an object of the program's made the JVM's
    CookieHandler and a value kept in a JVM thread's name (both put back as each test starts). Each test prints
    what plain java prints for it."""
    jobs = [program_job(program, str(i), tests, 5000) for i, (program, tests, _) in enumerate(LEFT_IN_THE_JVM.values())]
    for (name, (_, _, printed)), result in zip(LEFT_IN_THE_JVM.items(), judge.run(jobs), strict=True):
        assert result.status == 0, (name, result.diagnostics)
        assert [run.stdout for run in result.runs] == printed, name


def test_main_s_throwable_goes_to_the_handler_the_program_set_and_each_test_has_its_own_stderr(judge):
    """Red team 9: java's launcher hands what main threw to the uncaught-exception handler a program set (a search
    that unwinds with its result, printed and exited by the handler: ``passed`` in plain java, ``runtime_error``
    before), and with none set the test threw; a program that made System.err its System.out in one test printed
    the next test's debug line into that test's stdout."""
    handled = ("Thread.setDefaultUncaughtExceptionHandler((t, e) -> { System.out.println(e.getMessage()); "
               "System.exit(0); });\n throw new IllegalStateException(String.valueOf(a + b));")
    own = ("Thread.currentThread().setUncaughtExceptionHandler((t, e) -> System.out.println(e.getMessage()));\n"
           " throw new IllegalStateException(String.valueOf(a + b));")
    unhandled = "System.out.println(a + b);\n throw new IllegalStateException();"
    debug = 'System.err.println("debug");\n System.setErr(System.out);\n System.out.println(a + b);'
    tests = [b"1 2\n", b"40 2\n"]
    results = judge.run([program_job(_sum_program(body), str(i), tests, 5000)
                         for i, body in enumerate([handled, own, unhandled, debug])])
    expected = [(2, 0), (1, 0), (1, 0), (0, 0)]  # exited with 0; threw (java: status 1) after its handler; threw
    for result, (outcome, status) in zip(results, expected, strict=True):
        assert [run.stdout for run in result.runs] == [b"3\n", b"42\n"]
        assert {(run.outcome, run.exit_status) for run in result.runs} == {(outcome, status)}


def test_a_source_is_read_as_javac_reads_it_unicode_escapes_first():
    """JLS 3.3: javac translates every unicode escape before it reads a string, comment or char, and the
    rewrite reads what javac reads (red team 4's J20: a \\u0022 closed a string for javac only, and the exit
    rewritten inside that string lengthened it). A backslash is escaped only after an even run of them."""
    exit_as_code = {  # javac reads the exit as code
        "// \\u000a System.exit(0);": "// \\u000a dynbench.Exit.exit(0);",
        "System.\\u0065xit(1);": "dynbench.Exit.exit(1);",
        "\\u0053ystem.exit(2);": "dynbench.Exit.exit(2);",
        "String s = \"\\\\\\u0022; System.exit(3);": "String s = \"\\\\\\u0022; dynbench.Exit.exit(3);",
        "char c = '\\u0022'; System.exit(4);": "char c = '\\u0022'; dynbench.Exit.exit(4);",
    }
    for before, after in exit_as_code.items():
        assert js.judge_rewrites(before) == after, before
    in_text = ['String p = "\\u0022 + " System.exit(0) ";',  # J20: "" + " System.exit(0) "
               'String p = "\\uuuu0022 + " System.exit(0) ";',
               'String p = "\\\\u0022 System.exit(0) ";',  # an escaped backslash, then u0022: no escape
               "/* *\\u002f String p = \" System.exit(0) \";",
               'String p = "\\u005c" System.exit(0) \\u005c"";']  # javac's own reading after \\u005c is unsure
    for untouched in in_text:
        assert js.judge_rewrites(untouched) == untouched, untouched
    tokens = js.tokenize("int \\u0061b = 1;")
    assert [(t.text, t.start, t.end) for t in tokens[:2]] == [("int", 0, 3), ("ab", 4, 11)]
    with pytest.raises(js.EscapedBackslash):
        js.tokenize('String p = "\\u005c";')
    assert program_job('class Main { public static void main(String[] a) { String p = "\\u005c"; } }',
                       "1", [b""], 1000) is None


def test_a_text_block_ends_at_its_first_unescaped_delimiter():
    """Red team 5 (JV32): the scanner ended a text block at an escaped delimiter, \\\"\"\", so the exit rewrite
    edited text inside the string, which a program could read to tell it was judged."""
    source = 'class A { String t = """\n  q\\""" System.exit(0); \\"""\n  """; void g() { System.exit(1); } }'
    assert js.judge_rewrites(source) == source.replace("System.exit(1)", "dynbench.Exit.exit(1)")
    assert [t.kind for t in js.tokenize('String s = """\n a""""; int x;') if t.kind == "textblock"] == ["textblock"]


def test_function_job_renames_the_entry_point_and_keeps_helpers():
    reply = dedent("""
        ```java
        import java.util.function.*;
        public class Translation {
            public static int addOne(int x) { return plus(x, 1); }
            static int plus(int a, int b) { return a + b; }
            public static void main(String[] args) { System.out.println(addOne(1)); }
        }
        ```""")
    job = function_job(reply, "3", "addOne", HARNESS, 1000)
    source = next(iter(job.sources.values()))
    assert "static int f_filled(int x) { return plus(x, 1); }" in source
    assert "static int plus(int a, int b)" in source and "import java.util.function.*;" in source
    assert source.count("public static void main") == 1 and job.main_class == "dynbench.j3.ADD_ONE"
    single = function_job("int increment(int x) { return x + 1; }", "4", "addOne", HARNESS, 1000)
    assert "static int f_filled(int x)" in next(iter(single.sources.values()))
    assert function_job("no code here", "5", "addOne", HARNESS, 1000) is None
    own = function_job("static int addOne(int x) { int dynbench = 1; return x + dynbench; }", "6", "addOne", HARNESS,
                       1000)  # red team 5's JV24, as in a stdin program
    assert "static int f_filled(int x) { int dynbench_ = 1; return x + dynbench_; }" in next(iter(own.sources.values()))


def test_statuses_of_stdin_programs(judge):
    doc = stdin_doc(("1 2\n", "3\n"), ("40 2\n", "42\n"))
    replies = {
        "passed": SUM_TWO,
        "wrong_output": SUM_TWO.replace("a + b", "a - b"),
        "compile_error": SUM_TWO.replace("return a + b;", "return a + b"),
        "runtime_error": SUM_TWO.replace("return a + b;", "return a / 0;"),
        "timeout": SUM_TWO.replace("return a + b;", "while (true) {}"),
        "no_code": "Sorry, I can only translate to Kotlin.",
    }
    exits = SUM_TWO.replace("System.out.println(Helper.add(a, b));",
                            "System.out.println(Helper.add(a, b)); System.exit(0);")
    nonzero = SUM_TWO.replace("System.out.println(Helper.add(a, b));", "System.exit(3);")
    threaded = dedent("""
        import java.util.*;
        class Main implements Runnable {
            public void run() { Scanner s = new Scanner(System.in); System.out.println(s.nextInt() + s.nextInt()); }
            public static void main(String[] a) { new Thread(null, new Main(), "", 1 << 26).start(); }
        }""")
    forks = SUM_TWO.replace("return a + b;", "try { new ProcessBuilder(\"true\").start(); } catch (Exception e) "
                            "{ throw new RuntimeException(e); } return a + b;")
    items = [(reply, doc) for reply in replies.values()] + [(exits, doc), (nonzero, doc), (threaded, doc)]
    statuses = BENCHMARKS["codenet"].judge_replies(items, judge, 2000)
    assert statuses == [*replies, "passed", "runtime_error", "passed"]
    assert BENCHMARKS["codenet"].judge_replies([(forks, doc)], judge, 2000) == ["runtime_error"]  # no `true` there



def test_threads_outside_the_programs_group_and_throwables_that_lie_about_their_cause(judge):
    """A program thread started in a group above the program's own (or the JVM's root group) is still the
    program's: the JVM waits for it (``timeout``); its uncaught throwable ends that thread alone, as in Java
    (plain ``java`` prints the sum and exits with 0: red team 4's H30); a throwable of main whose
    ``getCause()`` throws or never ends its chain is still a throw. Each printed the right sum first; the
    timeout and the throws passed on 5781c42 (a fresh attack suite's R77, R105-R107)."""
    doc = stdin_doc(("1 2\n", "3\n"), ("40 2\n", "42\n"))
    printed = "System.out.println(Helper.add(a, b));"
    above = "Thread.currentThread().getThreadGroup().getParent()"
    root = "rootGroup()"
    attacks = {
        "timeout": f"new Thread({above}, new Runnable() {{ public void run() {{ while (true) {{ }} }} }}).start();",
        "passed": [
            f"Thread t = new Thread({above}, new Runnable() {{ public void run() {{ throw new RuntimeException(); }} }}); "
            "t.start(); t.join();",
            f"Thread t = new Thread({root}, new Runnable() {{ public void run() {{ throw new RuntimeException(); }} }}); "
            "t.start(); t.join();",
        ],
        "runtime_error": [
            "throw new java.lang.reflect.InvocationTargetException(null) { public Throwable getCause() { "
            "throw new IllegalStateException(); } };",
            "throw new java.lang.reflect.InvocationTargetException(null) { public Throwable getCause() { "
            "return new java.lang.reflect.InvocationTargetException(null) { public Throwable getCause() { return this; } }; } };",
        ],
    }
    helpers = ("static ThreadGroup rootGroup() { ThreadGroup g = Thread.currentThread().getThreadGroup(); "
               "while (g.getParent() != null) g = g.getParent(); return g; }")
    program = SUM_TWO.replace("public static void main(String[] args) {",
                              f"{helpers}\n        public static void main(String[] args) throws Throwable {{")
    items, expected = [(program, doc)], ["passed"]  # the honest control
    for status, bodies in attacks.items():
        for body in [bodies] if isinstance(bodies, str) else bodies:
            items.append((program.replace(printed, f"{printed} {body}"), doc))
            expected.append(status)
    assert BENCHMARKS["codenet"].judge_replies(items, judge, 2000) == expected

def test_each_test_starts_from_the_jvms_defaults_and_no_thread_of_a_program_outlives_its_test(judge):
    """A JVM runs several tests, where plain ``java`` starts each in a JVM of its own. Red team 5 (JV14): a system
    property one test set was read by the next; so could a default locale, time zone or uncaught-exception handler
    be. Red team 8 (a11): a daemon thread started in the JVM's root group outlived its test and printed the next
    test's answer from that test's stdin, while the next test's own main printed nothing. Each program prints what
    it sees, then changes it; every test must see what the first saw, and the ghost's tests their own silence."""
    seen = ('System.out.println(System.getProperty("judged.seen", "fresh") + " " + String.format("%.1f", 1.5) + " "'
            ' + TimeZone.getDefault().getID() + " " + (Thread.getDefaultUncaughtExceptionHandler() == null));')
    changes = ('System.setProperty("judged.seen", "set"); Locale.setDefault(Locale.GERMANY); '
               'TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo")); '
               'Thread.setDefaultUncaughtExceptionHandler((t, e) -> System.out.println("handled"));')
    ghost = ('for (Thread t : Thread.getAllStackTraces().keySet()) if (t.getName().equals("ghost")) return;\n'
             'ThreadGroup top = Thread.currentThread().getThreadGroup(); while (top.getParent() != null) '
             'top = top.getParent();\n final PrintStream o = System.out;\n'
             'Thread g = new Thread(top, () -> { InputStream was = System.in; while (true) { '
             'try { Thread.sleep(1); if (System.in != was) { was = System.in; Thread.sleep(30); '
             'Scanner s = new Scanner(was); o.println(s.nextLong() + s.nextLong()); } } catch (Exception e) { } } }, '
             '"ghost");\n g.setDaemon(true); g.start();\n if (a == 1) System.out.println(a + b);')
    bodies = [f"{seen}\n {changes}\n System.out.println(a + b);",
              f"{seen}\n System.setProperties(new Properties());\n System.out.println(a + b);", ghost]
    tests = [b"1 2\n", b"40 2\n", b"5 6\n"]
    leaking, replaced, haunted = judge.run([program_job(_sum_program(body), str(i), tests, 5000)
                                            for i, body in enumerate(bodies)])
    for result in (leaking, replaced):
        firsts = [run.stdout.split(b"\n")[0] for run in result.runs]
        assert len(firsts) == 3 and firsts[0].startswith(b"fresh 1.5 ") and firsts[0].endswith(b" true"), firsts
        assert set(firsts) == {firsts[0]}, firsts
    assert [run.stdout for run in haunted.runs] == [b"3\n", b"", b""]


def test_a_program_that_may_act_in_a_later_test_gets_a_jvm_per_test(judge):
    """Red team 9: an object's finalize() runs on the JVM's own finalizer thread, whenever it runs, so code of one test
    ran in the next (it held the runner's thread group while it solved that test, before the test's clock started:
    tests plain java times out on passed): such a program's tests run one per JVM. A program's subclass of the idiom's
    stream stayed attached to the descriptor every test shared, with its test's classes (200 MB of them, out of
    memory by the fourth test): each test now has a descriptor of its own, which goes with the test, so such a program
    shares its JVM between tests, as one with neither does, and its fifth test has the heap to itself; so does an enum,
    whose inherited finalizer runs nothing. The JVM's n-th thread has the same id in every fresh JVM."""
    main_thread = "System.out.println(Thread.currentThread().getId());"
    programs = {
        "a finalizer": f"new Object() {{ protected void finalize() {{ }} }};\n {main_thread}",
        "a subclass of the idiom's stream": ("OutputStream kept = new FileOutputStream(FileDescriptor.out) { final byte[] "
                                             f"heavy = new byte[200 << 20]; }};\n {main_thread}"),
        "neither": main_thread,
        "an enum (java.lang.Enum's finalize() is final and runs nothing)": f"enum Op {{ ADD }}\n Op op = Op.ADD;\n "
                                                                             f"{main_thread}",
    }
    tests = [b"1 2\n", b"40 2\n", b"5 6\n", b"7 8\n", b"9 10\n"]
    results = judge.run([program_job(_sum_program(body), str(i), tests, 5000) for i, body in enumerate(programs.values())])
    ids = {name: [run.stdout for run in result.runs] for name, result in zip(programs, results, strict=True)}
    assert len(set(ids["a finalizer"])) == 1, ids
    assert all(len(set(printed)) == len(tests) for name, printed in ids.items() if name != "a finalizer"), ids


def test_a_test_ends_when_another_thread_exits_while_main_waits(judge):
    """Red team 9 (h10): a worker prints the answer and calls System.exit(0) while main waits on a latch; java ends
    at once, and the test took its whole time limit here."""
    body = ("java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);\n"
            "new Thread(() -> { System.out.println(a + b); System.exit(0); }).start();\n never.await();")
    result, = judge.run([program_job(_sum_program(body), "0", [b"1 2\n", b"40 2\n"], 5000)])
    assert [(run.outcome, run.exit_status, run.stdout) for run in result.runs] == [(2, 0, b"3\n"), (2, 0, b"42\n")]
    assert max(run.millis for run in result.runs) < 2500, [run.millis for run in result.runs]


def test_statuses_of_transcoder_functions(judge):
    replies = {
        "passed": "static int addOne(int x) { return x + 1; }",
        "wrong_output": "static int addOne(int x) { return x + 2; }",
        "compile_error": "static int addOne(int x) { return x + ; }",
        "runtime_error": "static int addOne(int x) { return x / 0; }",
        "timeout": "static int addOne(int x) { while (true) { x++; } }",
        "no_code": "The answer is to add one.",
    }
    statuses = BENCHMARKS["transcoder"].judge_replies([(r, harness_doc()) for r in replies.values()], judge, 2000)
    assert statuses == list(replies)


def test_one_bad_reply_does_not_spoil_its_batch(judge):
    doc = stdin_doc(("1 2\n", "3\n"))
    bad = [SUM_TWO.replace("return a + b;", "while (true) {}"), SUM_TWO.replace("return a + b", "return a +"),
           SUM_TWO.replace("return a + b;", "long[] m = new long[Integer.MAX_VALUE - 8]; return m.length;")]
    items = [(SUM_TWO, doc)] * 3 + [(bad[0], doc), (SUM_TWO, doc), (bad[1], doc), (SUM_TWO, doc), (bad[2], doc),
                                    (SUM_TWO, doc)]
    statuses = BENCHMARKS["codenet"].judge_replies(items, judge, 1500)
    assert statuses == ["passed"] * 3 + ["timeout", "passed", "compile_error", "passed", "runtime_error", "passed"]


def test_output_comparison_as_the_original_projects_do():
    assert same_output(" 42 \n", "42", numeric=False)
    assert not same_output("42.0", "42", numeric=False)
    assert same_output("42.0", "42", numeric=True) and same_output("1.380000000038E8", "138000000.0038", numeric=True)
    assert same_output("3.14159", "3.14", numeric=True) and not same_output("3.15", "3.14", numeric=True)


def _java_users_below(pid: int) -> set[int]:
    """The real user ids of the ``java`` processes among ``pid``'s descendants, as this machine's /proc shows
    them (a judged JVM has no /proc of its own to read its user from)."""
    parents, users = {}, {}
    for entry in os.listdir("/proc"):
        try:
            text = Path(f"/proc/{entry}/status").read_text()
            status = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
            parents[int(entry)] = int(status["PPid"])
            if status["Name"].strip() == "java":
                users[int(entry)] = int(status["Uid"].split()[0])
        except (ValueError, OSError, KeyError):
            continue
    found = set()
    for child, user in users.items():
        ancestor = parents.get(child)
        while ancestor and ancestor != pid:
            ancestor = parents.get(ancestor)
        if ancestor == pid:
            found.add(user)
    return found


def test_judge_jvms_run_unprivileged_and_leave_nothing_behind(judge, tmp_path):
    import tempfile
    import threading

    def left() -> set[str]:  # the scratch folders of JVMs, and the folders of their reply pipes and recorders
        return ({n for n in os.listdir(tempfile.gettempdir()) if n.startswith("dynbench-java-")}
                | {n for n in os.listdir(_channel_root()) if n.startswith("dynbench-channel-")})

    before = left()
    probe = ("public class P { public static void main(String[] a) throws Exception { Thread.sleep(1500); "
             "System.out.println(new java.io.File(\".\").getAbsolutePath()); } }")
    users: set[int] = set()
    running = threading.Event()

    def watch() -> None:
        while not running.wait(0.1):
            users.update(_java_users_below(os.getpid()))

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with JavaJudge(workers=1, hidden=data_locations()) as fresh:
            statuses = BENCHMARKS["codenet"].judge_replies([(probe, stdin_doc(("", "x\n")))], fresh, 4000)
            job = program_job(probe, "0", [b""], 4000)
            output = fresh.run([job])[0].runs[0].stdout.decode()
    finally:
        running.set()
        watcher.join()
    assert statuses == ["wrong_output"]
    assert users == {65534 if os.getuid() == 0 else os.getuid()}, users
    assert output.strip().startswith(tempfile.gettempdir())
    # Another test process's JVMs may hold folders of their own for a while (a test of up to 10 s): wait
    # for those to go; a folder this judge left behind stays.
    deadline = time.monotonic() + 30
    while not left() <= before and time.monotonic() < deadline:
        time.sleep(0.5)
    assert left() <= before, left() - before


def test_missing_jdk_names_the_package(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("JAVA_HOME", raising=False)
    with pytest.raises(JdkMissing, match="default-jdk-headless"):
        find_jdk()


def test_reported_values_are_compared_as_the_harness_compares_them():
    from dynbench_tasks.benchmarks.transcoder_harness import TOLERANCE, VALUE, same_record

    # longs exactly, even past 2**53; an int against a double as Java promotes it
    assert not same_record("i:-74672883336209219", "i:-74672883336209220", VALUE, 0.001)
    assert same_record("i:3", "d:3.0", VALUE, 0.001) and not same_record("d:nan", "d:nan", VALUE, 0.001)
    assert same_record("d:1.0004", "d:1.0", TOLERANCE, 0.001) and not same_record("d:1.01", "d:1.0", TOLERANCE, 0.001)
    assert same_record("a:[i:1,i:2]", "a:[i:1,i:2]", VALUE, 0.001) and not same_record("s:1", "i:1", VALUE, 0.001)


SLOW_DOUBLE = dedent("""
    import java.util.*;

    public class Main {
        public static void main(String[] args) throws Exception {
            long n = new Scanner(System.in).nextLong();
            Thread.sleep(150);
            while (n == LOOPS_ON) {}
            System.out.println(2 * n);
        }
    }
""")


def test_a_slow_program_leaves_its_later_tests_to_other_jvms_with_the_same_verdicts(monkeypatch):
    """Past ``share_after`` a program's remaining tests are spread over fresh JVMs: each runs, in order,
    and the first failing test (one that times out, prints a wrong answer, or halts its JVM) still
    decides, as when one JVM runs them all."""
    from dynbench_tasks.judge import pool

    executions = []
    execute = pool.JudgeWorker.execute

    def counted(self, job, classes, share_after=None):
        executions.append(len(job.tests))
        return execute(self, job, classes, share_after)

    monkeypatch.setattr(pool.JudgeWorker, "execute", counted)
    doc = stdin_doc(*((f"{n}\n", f"{2 * n}\n") for n in range(1, 9)))
    halts = SLOW_DOUBLE.replace("while (n == LOOPS_ON) {}", "if (n == 6) Runtime.getRuntime().halt(3);")
    items = [(SLOW_DOUBLE.replace("LOOPS_ON", "-1"), doc), (SLOW_DOUBLE.replace("LOOPS_ON", "5"), doc),
             (SLOW_DOUBLE.replace("LOOPS_ON", "-1").replace("2 * n", "n == 7 ? 0 : 2 * n"), doc), (halts, doc)]
    statuses, counts = {}, {}
    for share_after in (0.3, 1e9):
        executions.clear()
        with JavaJudge(workers=2, hidden=data_locations(), share_after=share_after) as judge:
            statuses[share_after] = BENCHMARKS["codenet"].judge_replies(items, judge, 1000)
        counts[share_after] = len(executions)
    assert statuses[0.3] == statuses[1e9] == ["passed", "timeout", "wrong_output", "runtime_error"]
    assert counts[1e9] == 4 and counts[0.3] > 4  # unshared: one execution a program
    executions.clear()
    with JavaJudge(workers=2, hidden=data_locations(), share_after=0.3) as judge:
        (result,) = judge.run([BENCHMARKS["codenet"].build_job(items[0][0], doc, "0", 1000)])
    assert executions[0] == 8 and len(executions) > 1
    assert [run.stdout for run in result.runs] == [f"{2 * n}\n".encode() for n in range(1, 9)]
    assert result.left is None


def test_a_test_that_times_out_runs_once_more_in_a_fresh_jvm_before_it_counts(monkeypatch):
    """A time limit is wall time, which a busy machine can use up: the first test of a program to time out
    (here made to, as a machine that kept the JVM waiting would) runs again in a fresh JVM, once a program,
    so a fast program still passes and one that loops for ever still times out, in two JVMs, not more."""
    from dynbench_tasks.judge import pool

    starts, starved = [], []
    in_one_jvm = pool.JudgeWorker._execute_in_one_jvm

    def busy_machine(self, job, classes, tests, cut_at=None):
        starts.append(len(tests))
        runs, go_on = in_one_jvm(self, job, classes, tests, cut_at)
        if not starved and len(tests) == 3:
            starved.append(runs[1])
            return [runs[0], pool.TestRun(pool.TIMED_OUT, 0, "", b"", job.time_limit_ms)], False
        return runs, go_on

    monkeypatch.setattr(pool.JudgeWorker, "_execute_in_one_jvm", busy_machine)
    doc = stdin_doc(("1 2\n", "3\n"), ("40 2\n", "42\n"), ("5 5\n", "10\n"))
    with JavaJudge(workers=1, hidden=data_locations(), share_after=1e9) as judge:
        assert BENCHMARKS["codenet"].judge_replies([(SUM_TWO, doc)], judge, 2000) == ["passed"]
        assert starts == [3, 2] and starved[0].outcome == pool.RETURNED
        starts.clear()
        looping = SUM_TWO.replace("return a + b;", "while (true) {}")
        assert BENCHMARKS["codenet"].judge_replies([(looping, doc)], judge, 500) == ["timeout"]
        assert starts == [3, 3]


def test_a_compiler_that_cannot_compile_anything_stops_the_judge_rather_than_failing_every_answer():
    worker = JudgeWorker(data_locations(), heap_mb=1)  # a JVM that cannot start: no compiler at all
    try:
        with pytest.raises(JudgeBroken, match="no answer can be judged here"):
            worker.compile([("0", program_job(SUM_TWO, "0", [b"1 2\n"], 2000))])
    finally:
        worker.close()


def test_a_private_temporary_folder_still_gets_bubblewrap_and_a_working_judge(tmp_path):
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    script = dedent("""
        from dynbench_tasks.benchmarks import BENCHMARKS
        from dynbench_tasks.judge.pool import JavaJudge
        from dynbench_tasks.locations import data_locations
        import sys
        doc = {"tests": [{"input": "1 2\\n", "output": "3\\n"}]}
        with JavaJudge(workers=1, hidden=data_locations()) as judge:
            print(BENCHMARKS["codenet"].judge_replies([(sys.stdin.read(), doc)], judge, 2000))
    """)
    done = subprocess.run([sys.executable, "-c", script], input=SUM_TWO, capture_output=True, text=True,
                          env=dict(os.environ, TMPDIR=str(private)), timeout=600)
    assert done.stdout.strip() == "['passed']", done.stderr[-2000:]
    assert "WITHOUT bubblewrap" not in done.stderr
