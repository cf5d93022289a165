"""Reference values kept between processes (judge/stored_values.py): read back instead of run again,
failures never kept, a doubtful file ignored, one file per judge build, and out of every sandbox's sight."""

import json
import os
import re
import stat

import pytest

from dynbench_tasks.benchmarks import BENCHMARKS, load_benchmark
from dynbench_tasks.benchmarks import transcoder_harness as harnesses
from dynbench_tasks.judge import stored_values
from dynbench_tasks.judge.pool import JavaJudge
from dynbench_tasks.locations import cache_folder, data_locations

KIND = harnesses._STORED


@pytest.fixture(scope="module")
def judge():
    with JavaJudge(workers=2, hidden=data_locations()) as shared:
        yield shared


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A cache folder of this test's own, and no value remembered in this process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(harnesses, "_REFERENCES", {})
    return tmp_path / "cache" / "dynbench"


def _harnesses(count: int) -> list[str]:
    records = load_benchmark("transcoder", None)
    return [record["java_harness"] for record in records if BENCHMARKS["transcoder"].judgeable(record)][:count]


class _NoRuns:
    """A judge of the same build that must not run anything."""

    def __init__(self, judge) -> None:
        self.identity = judge.identity

    def run_together(self, jobs):
        raise AssertionError(f"ran {len(jobs)} reference programs again")


def test_values_are_kept_and_the_next_process_reads_them_without_running(judge, fresh, monkeypatch):
    chosen = _harnesses(3)
    harnesses.fetch_reference_values(chosen, judge, 10_000)
    computed = [harnesses.reference_values(h) for h in chosen]
    assert all(values for values in computed)
    kept = fresh / KIND / f"{harnesses._stored_identity(judge)}.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(fresh.stat().st_mode) == stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    monkeypatch.setattr(harnesses, "_REFERENCES", {})  # as in a new process
    harnesses.fetch_reference_values(chosen, _NoRuns(judge), 10_000)
    assert [harnesses.reference_values(h) for h in chosen] == computed


def test_a_failed_reference_run_is_not_kept(judge, fresh):
    harness = _harnesses(1)[0]
    body = re.search(r"f_gold\s*\([^)]*\)\s*\{", harness).end()
    broken = harness[:body] + " if (true) throw new IllegalStateException();" + harness[body:]  # f_gold throws
    harnesses.fetch_reference_values([broken], judge, 10_000)
    assert harnesses.reference_values(broken) is None
    assert not (fresh / KIND).exists()  # nothing was written


@pytest.mark.parametrize("content", ["{not json", json.dumps(["a list"]), json.dumps({"k": [1, 2]})])
def test_a_file_that_cannot_be_read_as_values_is_ignored(fresh, content):
    (fresh / KIND).mkdir(parents=True)
    (fresh / KIND / "build.json").write_text(content)
    assert stored_values.stored(KIND, "build") == {}
    stored_values.store(KIND, "build", {"j": ["i:1"]})  # and a run after it keeps its values
    assert stored_values.stored(KIND, "build") == {"j": ["i:1"]}


@pytest.mark.skipif(os.getuid() != 0, reason="giving a file to another user needs root")
def test_a_file_of_another_user_is_ignored(fresh):
    stored_values.store(KIND, "build", {"k": ["i:1"]})
    os.chown(fresh / KIND / "build.json", 65534, 65534)
    assert stored_values.stored(KIND, "build") == {}


def test_each_judge_build_keeps_its_own_values(judge, fresh):
    jvm = judge.workers[0].jvm
    mine = harnesses._stored_identity(judge)
    jvm.heap_mb //= 2  # another command line for the runner
    try:
        other = harnesses._stored_identity(judge)
    finally:
        jvm.heap_mb *= 2
    assert other != mine and harnesses._stored_identity(judge) == mine
    chosen = _harnesses(1)
    stored_values.store(KIND, other, {harnesses._key(chosen[0]): ["i:999"]})
    harnesses.fetch_reference_values(chosen, judge, 10_000)
    assert harnesses.reference_values(chosen[0]) not in (None, ["i:999"])


def test_the_code_that_makes_the_reference_programs_is_part_of_the_key(judge, monkeypatch):
    mine = harnesses._stored_identity(judge)
    monkeypatch.setattr(harnesses, "__file__", stored_values.__file__)  # as if this module had changed
    assert harnesses._stored_identity(judge) != mine


def test_nothing_is_kept_where_judged_programs_run_as_this_user(judge, fresh, monkeypatch):
    jvm = judge.workers[0].jvm
    monkeypatch.setattr(jvm, "isolated", False)
    monkeypatch.setattr(os, "getuid", lambda: 1000)
    assert judge.identity() is None
    harnesses.fetch_reference_values(_harnesses(1), judge, 10_000)
    assert not fresh.exists()


def test_the_cache_folder_is_hidden_from_every_sandbox(fresh):
    assert str(cache_folder()) in data_locations()


class _FirstRunStopped:
    """The judge, but the first ``stopped`` times a reference program runs, a time limit ends it (as on a machine
    too busy to run it in 10 s)."""

    def __init__(self, judge, stopped: int) -> None:
        self.judge, self.identity, self.stopped, self.batches = judge, judge.identity, stopped, []

    def run_together(self, jobs):
        from dynbench_tasks.judge.pool import COMPILED, TIMED_OUT, JobResult, TestRun

        self.batches.append(len(jobs))
        results = self.judge.run_together(jobs)
        if self.stopped:
            self.stopped -= 1
            results[0] = JobResult(COMPILED, "", [TestRun(TIMED_OUT, 0, "", b"", 10_000)])
        return results


def test_a_reference_a_time_limit_stopped_runs_once_more_and_is_counted_if_still_stopped(judge, fresh):
    """Issue 50: a problem whose harness gave no values gets no new outputs, so a time limit must not decide that
    silently. Stopped once, the program runs again alone and its values count; stopped twice, it is counted in the
    build's warning line about runs a time limit decided."""
    from mutators import runaway

    chosen = _harnesses(2)
    harnesses.fetch_reference_values(chosen, judge, 10_000)
    expected = [harnesses.reference_values(h) for h in chosen]
    for stopped, counted in ((1, 0), (2, 1)):
        harnesses._REFERENCES.clear()
        for path in (fresh / KIND).glob("*.json"):
            path.unlink()
        flaky, before = _FirstRunStopped(judge, stopped), runaway.stopped()
        harnesses.fetch_reference_values(chosen, flaky, 10_000)
        assert flaky.batches == [2, 1] and runaway.stopped() - before == counted
        values = [harnesses.reference_values(h) for h in chosen]
        assert values == (expected if counted == 0 else [None, expected[1]]), stopped
