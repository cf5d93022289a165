"""Replies built to cost the judge's host time rather than to pass (issue 49): text the Java scanner once
rescanned from every opening of an unclosed comment or literal (quadratic, in the scoring process), and a
few hundred bytes that keep javac busy for minutes (each conditional nested in a generic call's argument
doubles its overload resolution). Each costs about what one reply may cost, and its batch is judged as
without it."""

import json

import lm_eval
import pytest
from known_answers import printing_java, prompt_key
from lm_eval.tasks import TaskManager
from scripted_server import ScriptedServer

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.judge import java_source as js
from dynbench_tasks.judge import pool
from dynbench_tasks.judge.jobs import program_job
from dynbench_tasks.judge.pool import COMPILE_ERROR, COMPILED, JavaJudge
from dynbench_tasks.lmeval.environment import task_directory
from dynbench_tasks.locations import data_locations

PRINTS_SUM = ("import java.util.*;\npublic class Main { public static void main(String[] a) { "
              "Scanner s = new Scanner(System.in); System.out.println(s.nextLong() + s.nextLong()); } }")
OPEN_TEXT = {  # what a reply may leave open, repeated to the end of a megabyte
    "block comment": "/* ",
    "string escaping its quote": '"\\',
    "char escaping its quote": "'\\",
}


def javac_bomb(depth: int = 14) -> str:
    """A program javac takes minutes to compile (depth 12: about 45 s on one idle core; each level doubles it)."""
    expression = "1"
    for _ in range(depth):
        expression = f"id(b ? {expression} : id(1))"
    return ("```java\npublic class Main {\n    static <T> T id(T t) { return t; }\n"
            "    static String id(String s) { return s; }\n    public static void main(String[] args) {\n"
            f"        boolean b = args.length > 0; System.out.println({expression});\n    }}\n}}\n```")


@pytest.mark.parametrize("opening", list(OPEN_TEXT.values()), ids=list(OPEN_TEXT))
def test_what_a_reply_leaves_open_is_one_token_to_its_end(opening):
    """Scanned once: the program's tokens and nothing after them (the open comment or literal runs to the end
    of its line or text); before, every opening was scanned again to the end and fell apart into symbols."""
    tail = opening * ((1 << 20) // len(opening)) + " "
    code = PRINTS_SUM + "\n" + tail
    tokens = js.tokenize(code)
    kept = js.tokenize(PRINTS_SUM)
    assert tokens[:len(kept)] == kept
    assert [(t.start, t.end) for t in tokens[len(kept):]] in ([], [(len(PRINTS_SUM) + 1, len(code))])
    assert js.code_in_reply("```" * (1 << 18)) is None  # a line of fences, each once read to the line's end


def test_many_rewrites_cost_one_pass():
    """Every ``System.exit`` of a long reply redirected, each once (a copy of the source per rewrite was
    quadratic)."""
    exits = "System.exit(0);" * 20_000
    redirected = js.judge_rewrites(f"class A {{ void f() {{ {exits} }} }}")
    assert redirected.count("dynbench.Exit.exit(0);") == 20_000 and "System" not in redirected


@pytest.mark.slow
def test_a_megabyte_of_unclosed_comments_is_a_compile_error_and_spares_its_batch():
    doc = {"tests": [{"input": "1 2\n", "output": "3\n"}]}
    hostile = f"```java\n{PRINTS_SUM}\n{'/* ' * (1 << 18)}\n```"
    with JavaJudge(workers=1, hidden=data_locations()) as judge:
        statuses = BENCHMARKS["codenet"].judge_replies([(PRINTS_SUM, doc), (hostile, doc), (PRINTS_SUM, doc)],
                                                       judge, 5000)
    assert statuses == ["passed", "compile_error", "passed"]


@pytest.mark.slow
def test_a_javac_bomb_costs_one_replys_compile_time_and_spares_its_batch(monkeypatch):
    """The compiler reports each job it turns to; the one it spends over the limit on is that job's compile
    error, and the others compile again without it: two compiler runs, where halving the batch took five, three
    of them waiting out a timer of 20 s + 10 s a job (120 s in all here; for a batch of 48, over 500 s)."""
    runs = []
    compile_batch = pool.JudgeWorker._compile

    def counted(worker, jobs):
        runs.append([key for key, _ in jobs])
        return compile_batch(worker, jobs)

    monkeypatch.setattr(pool.JudgeWorker, "_compile", counted)
    jobs = [(str(index), program_job(reply, str(index), [b"1 2\n"], 5000))
            for index, reply in enumerate([PRINTS_SUM, javac_bomb(), PRINTS_SUM])]
    worker = pool.JudgeWorker(data_locations())  # one batch, as a judge's worker is given it
    try:
        results = worker.judge(jobs)
    finally:
        worker.close()
    assert [r.status for r in results] == [COMPILED, COMPILE_ERROR, COMPILED]
    assert results[1].diagnostics == f"the compiler spent over {pool.COMPILE_SECONDS_PER_JOB:g} s on this source"
    assert [run.stdout for r in (results[0], results[2]) for run in r.runs] == [b"3\n", b"3\n"]
    assert runs == [["0", "1", "2"], ["0", "2"]]


@pytest.mark.slow
def test_a_javac_bomb_through_lm_eval_fails_alone(tmp_path, data_dir):
    """Through lm_eval: the document answered with the bomb is a compile error, and the others, answered
    with Java printing their expected outputs in the same batch, pass."""
    task = "codenet_orig"
    (tmp_path / "codenet_py2java.jsonl").write_text(
        "\n".join((data_dir / "codenet_py2java.jsonl").read_text().splitlines()[:4]) + "\n")
    metadata = {"data_dir": str(tmp_path), "repeats": 1, "timeout": 5}
    manager = TaskManager(include_path=task_directory(), include_defaults=False, metadata=metadata)
    docs = list(manager.load([task])["tasks"][task].test_docs())
    bombed = prompt_key(task, docs[1])

    def reply(prompt: str, sample: int) -> str:
        if bombed in prompt:
            return javac_bomb()
        return printing_java(next(doc for doc in docs if prompt_key(task, doc) in prompt)["tests"])

    with ScriptedServer(reply) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=[task], task_manager=manager, confirm_run_unsafe_code=True, log_samples=True)
    samples = sorted(results["samples"][task], key=lambda sample: sample["doc_id"])
    statuses = [json.loads(sample["filtered_resps"][0][0])["status"] for sample in samples]
    assert statuses == ["passed", "compile_error", "passed", "passed"]
