"""Answers whose scores are known in advance, for scripted models (the tests and scripts/scripted_run.py):
the right answer to a document as it is shown, a wrong one, and the answer of a model that memorised
the published benchmark (it recognises each problem however it is rewritten and never reads the
program: it gives the published output or input, or the benchmark's own Java)."""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize

from dynbench_tasks.benchmarks.new_answers import harness_signature

WRONG_OUTPUT, WRONG_CALL = "'__not the output__'", "f(not_a_parameter_of_f=0)"


def prompt_key(task: str, doc: dict) -> str:
    """Text of the document's prompt that no other document's prompt holds."""
    if task.startswith("cruxeval_input"):
        return f"{doc['code']}\nassert f(??) == {doc['output']}"
    if task.startswith("cruxeval"):
        return f"{doc['code']}\nassert f({doc['input']}) =="
    return f"```python\n{doc['python']}\n```"


def printing_java(tests: list[dict]) -> str:
    """Java that prints each test's expected output for its input: right exactly where the tests are
    (a benchmark may list an input twice: the first test of each input answers it)."""
    first = {t["input"]: t["output"] for t in reversed(tests)}
    cases = "".join(f"        if (in.equals({json.dumps(given)})) {{ System.out.print({json.dumps(wanted)}); return; }}"
                    "\n" for given, wanted in first.items())
    return ("```java\nimport java.util.*;\npublic class Main {\n    public static void main(String[] args) {\n"
            "        Scanner s = new Scanner(System.in).useDelimiter(\"\\\\A\");\n"
            "        String in = s.hasNext() ? s.next() : \"\";\n" + cases + "    }\n}\n```")


_JAVA_ARRAYS = {"int": "int", "long": "long", "boolean": "boolean", "double": "double", "String": "String"}


def returning_java(doc: dict) -> str | None:
    """A method with the harness's f_gold signature that returns, call after call, the values the
    harness expects (the document's recomputed ones); None where the harness wants other kinds."""
    returned = harness_signature(doc["java_harness"])[0]
    if returned.name not in _JAVA_ARRAYS or returned.dimensions or not doc.get("expected_records"):
        return None
    header = doc["java_harness"][doc["java_harness"].index("f_gold"):]
    arguments = header[header.index("(") : header.index(")") + 1]
    values = [json.dumps(r[2:]) if r[0] == "s" else r[2:] for r in doc["expected_records"]]
    # The judge keeps methods only, so the call count lives in a system property of the program's JVM.
    return (f"```java\nstatic {returned.name} {doc['entry_point']}{arguments} {{\n"
            "    int calls = Integer.parseInt(System.getProperty(\"calls\", \"0\"));\n"
            "    System.setProperty(\"calls\", Integer.toString(calls + 1));\n"
            f"    {_JAVA_ARRAYS[returned.name]}[] expected = {{{', '.join(values)}}};\n"
            "    return expected[calls];\n}\n```")


def right_answer(task: str, doc: dict) -> str | None:
    """What a model that works the shown problem out answers (None: no such answer is built here)."""
    if task.startswith("cruxeval_input"):
        return f"f({doc['input']})"
    if task.startswith("cruxeval"):
        return doc["output"]
    if task.startswith("transcoder"):
        return returning_java(doc) if doc.get("expected_records") else f"```java\n{doc['java']}\n```"
    return printing_java(doc["tests"])


def wrong_answer(task: str) -> str:
    if task.startswith("cruxeval_input"):
        return WRONG_CALL
    if task.startswith("cruxeval"):
        return WRONG_OUTPUT
    return "```java\npublic class Main { public static void main(String[] a) { int x = ; } }\n```"


def memorised_answer(task: str, doc: dict) -> str:
    """What a model that memorised the published benchmark answers."""
    if task.startswith("cruxeval_input"):
        return f"f({doc['original_input']})"
    if task.startswith("cruxeval"):
        return doc["original_output"]
    if doc.get("java"):
        return f"```java\n{doc['java']}\n```"
    return printing_java(doc.get("original_tests") or doc["tests"])


_TOKEN_EDIT = re.compile(r"line (\d+): (.+) -> (.+)$")
_JAVA_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)+\'|//[^\n]*|/\*[\s\S]*?\*/|[A-Za-z_$][\w$]*|\d[\w.]*'
                         r"|==|!=|<=|>=|\+=|-=|&&|\|\||\+\+|--|<<|>>|\S")


def _java_spellings(python: str) -> list[str]:
    """How a Python token may be spelled in Java: the same, ``true``, a string or a char literal."""
    if python in ("True", "False"):
        return [python.lower()]
    if python[:1] in "'\"":
        value = ast.literal_eval(python)
        return [json.dumps(value)] + ([f"'{value}'"] if len(value) == 1 and value not in "'\\" else [])
    return [python]


def _occurrences_before(python: str, text: str, line: int) -> int:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(python).readline))
    except (tokenize.TokenError, SyntaxError):
        return 0
    return sum(token.string == text and token.start[0] < line for token in tokens)


def patched_answer(task: str, doc: dict) -> str:
    """What a model that memorised the published Java and patches the shown edits into it answers: it
    recognises the problem, recalls the benchmark's own Java and, for each literal, operator or call edit
    the document's record names, replaces the matching Java token (the k-th occurrence in the Python before
    the edit's line is taken for the k-th in the Java). It cannot patch an added statement or moved loop
    bounds, and it translates nothing new. Without published Java, the memorised answer."""
    java = doc.get("java")
    if not java or task.startswith("cruxeval"):
        return memorised_answer(task, doc)
    for step in (doc.get("mutation") or {}).get("edit", "").split("; "):
        found = _TOKEN_EDIT.match(step)
        if found is None or found.group(2).startswith("range("):
            continue
        line, old, new = int(found.group(1)), found.group(2), found.group(3)
        spellings = _java_spellings(old)
        hits = [m for m in _JAVA_TOKEN.finditer(java) if m.group() in spellings]
        if not hits:
            continue
        hit = hits[min(_occurrences_before(doc["python"], old, line), len(hits) - 1)]
        replacement = _java_spellings(new)
        spelled = replacement[-1] if hit.group().startswith("'") and len(replacement) > 1 else replacement[0]
        java = java[: hit.start()] + spelled + java[hit.end() :]
    return f"```java\n{java}\n```"
