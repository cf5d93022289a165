"""The Java boundary, through lm-eval on a scripted model: a program that ends its JVM, by a route the
judge's source rewrite does not see (reflection, unicode escapes, method references), ends its test
with its exit status and what it printed, and its later tests still run; an exit cannot be caught;
a program's shutdown hooks run as it ends, and what they print and a halt in them count; and no judged
program reaches what the runner keeps of a test (module ``dynbench`` is never opened)."""

import json
from collections import defaultdict

import lm_eval
import pytest
from lm_eval.tasks import TaskManager
from scripted_server import ScriptedServer

from dynbench_tasks.lmeval.environment import task_directory

pytestmark = pytest.mark.slow  # the fast subset (README) leaves this module out


def adds(after_reading: str) -> str:
    return ("```java\nimport java.util.*;\npublic class Main {\n    public static void main(String[] args) throws "
            "Exception {\n        Scanner in = new Scanner(System.in);\n        long a = in.nextLong(), b = "
            f"in.nextLong();\n        {after_reading}\n    }}\n}}\n```")


EXIT_BY_REFLECTION = 'System.class.getMethod("exit", int.class).invoke(null, {});'
HALT_BY_REFLECTION = 'Runtime.class.getMethod("halt", int.class).invoke(Runtime.getRuntime(), {});'
SUM = "a, b = map(int, input().split())\nprint(a + b)\n"
SUM_TESTS = [{"input": "1 2\n", "output": "3\n"}, {"input": "40 2\n", "output": "42\n"}]
EXITS = {  # each prints the right sum on both tests, then ends its JVM
    adds("System.out.println(a + b); " + EXIT_BY_REFLECTION.format(0)): "passed",
    adds("System.out.println(a + b); System.\\u0065xit(0);"): "passed",
    adds("java.util.function.IntConsumer halt = Runtime.getRuntime()::halt; System.out.print(a + b); halt.accept(0);"):
        "passed",
    adds("System.out.println(a + b); " + HALT_BY_REFLECTION.format(3)): "runtime_error",
    adds("System.out.println(a + b); " + EXIT_BY_REFLECTION.format("a == 40 ? 1 : 0")): "runtime_error",
}
SUM_AGAIN = "a, b = map(int, input().split())\nprint(b + a)\n"
AFTER_AN_EXIT = {
    # right on the first test, which it ends with its JVM; wrong on the second, which must still run
    adds("if (a == 1) { System.out.println(a + b); " + HALT_BY_REFLECTION.format(0) + " } "
         "System.out.println(a + b + 1);"): "wrong_output",
    adds("try { System.exit(1); } catch (Throwable caught) { } System.out.println(a + b);"): "runtime_error",
    adds("new Thread(() -> { try { Thread.sleep(60_000); } catch (InterruptedException e) { } }).start(); "
         "System.out.println(a + b); System.exit(0);"): "passed",
    adds("System.out.println(a + b); " + EXIT_BY_REFLECTION.format(0) + " System.out.println(0);"): "passed",
    adds("java.io.PrintWriter out = new java.io.PrintWriter(System.out); out.println(a + b); out.close();"): "passed",
}
SUM_ONCE_MORE = "a, b = map(int, input().split())\ntotal = a + b\nprint(total)\n"
HOOK = "Runtime.getRuntime().addShutdownHook(new Thread(() -> {{ {}; }}));"
SHUTDOWN_HOOKS = {  # each prints the right sum on both tests, with a shutdown hook that Java runs as it ends
    adds(HOOK.format("Runtime.getRuntime().halt(7)") + " System.out.println(a + b); System.exit(0);"): "runtime_error",
    adds(HOOK.format("Runtime.getRuntime().halt(7)") + " System.out.println(a + b);"): "runtime_error",
    adds(HOOK.format('System.out.println("late")') + " System.out.println(a + b); System.exit(0);"): "wrong_output",
    adds(HOOK.format("") + " System.out.println(a + b); System.exit(0);"): "passed",
    adds(HOOK.format("System.out.flush()") + " System.out.println(a + b);"): "passed",
}
SEALED = 'print("sealed")\n'
REACHES = """
        String reached = "";
        try {
            ThreadGroup test = Thread.currentThread().getThreadGroup();
            java.lang.reflect.Field ended = test.getClass().getDeclaredField("ended");
            ended.setAccessible(true);
            ended.setBoolean(test, true);
            reached += "its test ";
        } catch (Throwable sealed) { }
        try {
            java.lang.reflect.Field values = dynbench.Record.class.getDeclaredField("values");
            values.setAccessible(true);
            reached += "the records ";
        } catch (Throwable sealed) { }
        try {
            java.lang.invoke.MethodHandles.privateLookupIn(dynbench.Record.class, java.lang.invoke.MethodHandles.lookup());
            reached += "a private lookup ";
        } catch (Throwable sealed) { }
        try {
            Class.forName("java.lang.ApplicationShutdownHooks").getDeclaredField("hooks").setAccessible(true);
            reached += "java.lang ";
        } catch (Throwable sealed) { }
        try {
            Class.forName("sun.misc.Unsafe");
            reached += "Unsafe ";
        } catch (Throwable sealed) { }
        System.out.println(reached.isEmpty() ? "sealed" : reached);
        throw new IllegalStateException("ended, if its test is open");"""
PROBES = {
    f"```java\npublic class Main {{\n    public static void main(String[] args) {{{REACHES}\n    }}\n}}\n```":
        "runtime_error",
    f"```java\npublic class Main {{\n    public static void main(String[] args) {{{REACHES.rsplit('throw', 1)[0]}}}\n"
    "}\n```": "passed",
}


@pytest.fixture(scope="module")
def statuses(tmp_path_factory) -> dict[str, str]:
    """Every reply's status, from one lm-eval run of codenet_orig on problems written here."""
    folder = tmp_path_factory.mktemp("java-boundary")
    records = [{"id": "s000000011", "python": SUM, "tests": SUM_TESTS},
               {"id": "s000000012", "python": SUM_AGAIN, "tests": SUM_TESTS},
               {"id": "s000000013", "python": SEALED, "tests": [{"input": "", "output": "sealed\n"}]},
               {"id": "s000000014", "python": SUM_ONCE_MORE, "tests": SUM_TESTS}]
    (folder / "codenet_py2java.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    replies = {SUM: list(EXITS), SUM_AGAIN: list(AFTER_AN_EXIT), SUM_ONCE_MORE: list(SHUTDOWN_HOOKS), SEALED: [*PROBES, *PROBES, *PROBES][:5]}

    def answer(prompt: str, sample: int) -> str:
        code = next(code for code in replies if f"```python\n{code}\n```" in prompt)
        return replies[code][sample % 5]

    tm = TaskManager(include_path=task_directory(), include_defaults=False,
                     metadata={"data_dir": str(folder), "timeout": 5})
    with ScriptedServer(answer) as server:
        results = lm_eval.simple_evaluate(
            model="local-completions",
            model_args=f"model=scripted,base_url={server.url}/completions,tokenizer_backend=none,"
            "tokenized_requests=False,max_retries=1",
            tasks=["codenet_orig"], task_manager=tm, confirm_run_unsafe_code=True, log_samples=True,
        )
    found = defaultdict(set)
    for sample in results["samples"]["codenet_orig"]:
        for reply, status in zip(sample["resps"][0], sample["filtered_resps"][0], strict=True):
            found[reply].add(json.loads(status)["status"])
    return {reply: status for reply, (status,) in found.items()}


def test_an_exit_by_any_route_ends_the_test_with_its_status_and_output(statuses):
    assert {reply: statuses[reply] for reply in EXITS} == EXITS


def test_an_exit_cannot_be_caught_and_the_tests_after_it_still_run(statuses):
    assert {reply: statuses[reply] for reply in AFTER_AN_EXIT} == AFTER_AN_EXIT


def test_no_program_reaches_what_the_runner_keeps_of_its_test(statuses):
    assert {reply: statuses[reply] for reply in PROBES} == PROBES


def test_a_shutdown_hook_runs_as_the_program_ends_and_its_halt_or_output_counts(statuses):
    assert {reply: statuses[reply] for reply in SHUTDOWN_HOOKS} == SHUTDOWN_HOOKS
