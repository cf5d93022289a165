"""What makes judge JVMs start quickly, and what it must not change: trusted programs sharing a JVM
(each in a class loader of its own), the runtime linked for the runner (the JDK runner's modules,
``java`` alone), and the startup archive the sandboxed runner maps."""

import logging
import os
import subprocess
from pathlib import Path
from textwrap import dedent

import pytest

from dynbench_tasks.judge import pool
from dynbench_tasks.judge.jdk import find_jdk, judge_classes
from dynbench_tasks.judge.jobs import program_job
from dynbench_tasks.judge.pool import COMPILE_ERROR, COMPILED, EXITED, RETURNED, THREW, TIMED_OUT, JavaJudge
from dynbench_tasks.judge.runtime_image import runtime_image
from dynbench_tasks.locations import data_locations
from mutators.execution.isolation import BUBBLEWRAP, isolation

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out


def program(body: str) -> str:
    return dedent(f"""
        public class Main {{
            static int calls = 0;
            public static void main(String[] args) throws Exception {{
        {body}
            }}
        }}
    """)


RECORDS = program("calls++; dynbench.Record.value(calls); dynbench.Record.value(6 * 7); System.out.print(\"ok\");")
THROWS = program("throw new IllegalStateException(\"no\");")
EXITS = program("System.out.print(\"bye\"); System.exit(3);")
HALTS = program("Runtime.getRuntime().halt(0);")
LOOPS = program("while (true) { calls++; }")
BROKEN = program("int x = ;")


@pytest.fixture(scope="module")
def judge():
    with JavaJudge(workers=2, hidden=data_locations()) as shared:
        yield shared


def outcome(result):
    run = result.runs[0] if result.runs else None
    return result.status, run and (run.outcome, run.exit_status, run.stdout, run.records)


def test_trusted_programs_run_together_as_each_runs_alone(judge):
    # A program that loops, throws, exits or ends its JVM takes nothing from those after it, and each
    # starts from its own static state (every RECORDS reports its first call).
    sources = [RECORDS, THROWS, RECORDS, EXITS, LOOPS, RECORDS, HALTS, BROKEN, RECORDS]
    jobs = [program_job(source, f"t{index}", [b""], 1500) for index, source in enumerate(sources)]
    together = judge.run_together(jobs)
    alone = judge.run(jobs)
    assert [outcome(r) for r in together] == [outcome(r) for r in alone]
    statuses = [(r.status, r.runs[0].outcome if r.runs else None) for r in together]
    assert statuses == [(COMPILED, RETURNED), (COMPILED, THREW), (COMPILED, RETURNED), (COMPILED, EXITED),
                       (COMPILED, TIMED_OUT), (COMPILED, RETURNED), (COMPILED, EXITED), (COMPILE_ERROR, None),
                       (COMPILED, RETURNED)]
    assert {tuple(together[i].runs[0].records) for i in (0, 2, 5, 8)} == {("i:1", "i:42")}
    assert together[3].runs[0].exit_status == 3 and together[3].runs[0].stdout == b"bye"


def test_only_programs_without_input_run_together(judge):
    with pytest.raises(ValueError, match="no input"):
        judge.run_together([program_job(RECORDS, "0", [b"1\n"], 1000)])


def _modules(java: str, *arguments: str) -> set[str]:
    """The modules a runner JVM resolves (it ends at once: no request)."""
    shown = subprocess.run([java, "--show-module-resolution", *arguments], capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, timeout=60)
    lines = [line.split() for line in (shown.stdout + shown.stderr).splitlines()]
    return {w[1] for w in lines if len(w) > 1 and w[0] == "root"} | {
        name for w in lines if len(w) > 2 and w[1] in ("requires", "binds") for name in (w[0], w[2])}


def test_the_runner_sees_the_same_java_linked_or_not():
    java = os.path.realpath(find_jdk()[0])
    jdk_runner = pool._Launch(pool.RUNNER, java, str(judge_classes()), str(judge_classes() / "dynbench.jar"))
    linked = runtime_image(java, judge_classes(), jdk_runner.argv([])[1:])
    home = Path(java).parent.parent
    assert (linked is not None) == ((home / "bin" / "jlink").is_file() and (home / "jmods").is_dir())
    on_the_jdk = _modules(*jdk_runner.argv([]))
    assert "dynbench" in on_the_jdk and "java.sql" in on_the_jdk and "jdk.unsupported" not in on_the_jdk
    if linked is not None:
        image_runner = pool._Launch(pool.RUNNER, str(linked), str(judge_classes()), None)
        assert _modules(*image_runner.argv([])) == on_the_jdk
        assert sorted(os.listdir(linked.parent)) == ["java"]  # no other launcher to start
        listed = subprocess.run([str(linked), "--list-modules"], capture_output=True, text=True, timeout=60).stdout
        assert {line.split("@")[0] for line in listed.split()} == on_the_jdk


def test_a_jdk_without_jlink_runs_the_runner_from_the_jdk(tmp_path, caplog):
    home = tmp_path / "jdk"
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "java").write_text(f"#!/bin/sh\nexec {os.path.realpath(find_jdk()[0])} \"$@\"\n")
    (home / "bin" / "java").chmod(0o755)  # a JRE's java: no jlink, no jmods beside it
    folder = tmp_path / "judge"
    folder.mkdir()
    with caplog.at_level(logging.INFO):
        assert runtime_image(str(home / "bin" / "java"), folder, ["-version"]) is None
    assert "no jlink or jmods" in caplog.text and not (folder / "runtime").exists()


def test_sandboxed_runner_jvms_map_the_startup_archive(judge):
    launch = judge.workers[0].jvm.launches[pool.RUNNER]
    assert launch.archive is not None and Path(launch.archive).is_file()
    assert oct(Path(launch.archive).stat().st_mode & 0o777) == "0o644"
    if isolation().kind == BUBBLEWRAP:
        process, staging, why = pool._start_whitelisted(launch, ["-Xlog:cds=info:stderr", *pool._JVM_FLAGS],
                                                        stderr=subprocess.PIPE)
    else:
        process = subprocess.Popen(launch.argv(["-Xlog:cds=info:stderr", *pool._JVM_FLAGS]), stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        staging = why = None
    _, log = process.communicate(timeout=60)
    pool._stop(process, staging)
    assert not why
    text = log.decode("utf-8", "replace")
    assert "Opened archive" in text and os.path.basename(launch.archive) in text
    assert "Unable to map" not in text and "Mapped static" in text


def test_runners_that_read_no_shutdown_hooks_start_without_module_options(judge):
    """TransCoder's runner (no shutdown hooks read) keeps the archive's optimized module handling and maps
    the runner's own classes; the runner that reads them is the one with java.lang opened."""
    jvm = judge.workers[0].jvm
    hooks, hookless = jvm.launches[pool.RUNNER], jvm.hookless_runner
    assert "--add-opens" in hooks.argv([]) and "-m" in hooks.argv([])
    if hookless.jar is not None:  # no runtime linked for the runner: it runs as a module of the JDK
        assert hookless.argv([]) == hooks.argv([])
        return
    assert not {"--add-opens", "-m", "-p", "--add-modules"} & set(hookless.argv([]))
    flags = ["-Xlog:cds=info:stderr", "-Xlog:class+load=info:stderr", *pool._JVM_FLAGS]
    if isolation().kind == BUBBLEWRAP:
        process, staging, why = pool._start_whitelisted(hookless, flags, stderr=subprocess.PIPE)
    else:
        process = subprocess.Popen(hookless.argv(flags), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
        staging = why = None
    _, log = process.communicate(timeout=60)
    pool._stop(process, staging)
    text = log.decode("utf-8", "replace")
    assert not why and process.returncode == 0, text[-2000:]
    assert "optimized module handling: enabled" in text
    assert "dynbench.Runner source: shared objects file" in text


def test_a_harness_job_starts_the_hookless_runner_and_a_stdin_job_the_other(judge, monkeypatch):
    started = []
    original = pool._Jvm.start

    def spy(self, main, channel=None, reads_shutdown_hooks=True):
        started.append((main, reads_shutdown_hooks))
        return original(self, main, channel, reads_shutdown_hooks)

    monkeypatch.setattr(pool._Jvm, "start", spy)
    stdin_job = program_job("public class Main { public static void main(String[] a) { System.out.println(1); } }",
                            "p0", [b""], 5_000)
    harness_job = pool.JavaJob("dynbench.p1", "dynbench.p1.Main", {
        "dynbench/p1/Main.java": "package dynbench.p1; public class Main { public static void main(String[] a) "
                                 "{ System.out.println(2); } }"}, [b""], 5_000)
    results = judge.run([stdin_job, harness_job])
    assert [r.runs[0].stdout for r in results] == [b"1\n", b"2\n"]
    assert sorted(hooks for main, hooks in started if main == pool.RUNNER) == [False, True]


def test_a_judge_whose_workers_start_together_without_bubblewrap_warns_once(monkeypatch, caplog):
    """Its workers ask for the boundary at once (one warning line per process, not one per worker)."""
    from mutators.execution import isolation as module

    monkeypatch.setattr(module, "_bubblewrap_missing", lambda: "bubblewrap is not installed (pretended)")
    module.isolation.cache_clear()
    try:
        with caplog.at_level(logging.WARNING), JavaJudge(workers=3, hidden=data_locations()) as judge:
            assert len(judge.workers) == 3 and not judge.workers[0].jvm.isolated
    finally:
        module.isolation.cache_clear()
    assert caplog.text.count("sandboxed code runs WITHOUT bubblewrap (bubblewrap is not installed (pretended))") == 1
