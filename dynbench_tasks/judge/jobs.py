"""Jobs for the judge made from a model's reply: the Java in it, fitted to run as a program."""

from __future__ import annotations

from dynbench_tasks.judge import java_source as js
from dynbench_tasks.judge.pool import JavaJob


def job_package(key: str) -> str:
    """Every job compiles in its own package, so the sources of one batch never clash."""
    return f"dynbench.j{key}"


def program_job(reply: str, key: str, tests: list[bytes], time_limit_ms: int) -> JavaJob | None:
    """A stdin/stdout program: the class with ``main`` becomes the file's class. None where the reply holds
    no Java, or Java whose reading may not be javac's (:class:`java_source.EscapedBackslash`)."""
    code = js.code_in_reply(reply)
    if code is None:
        return None
    try:
        code, tokens = js.package_unobscured(code, js.tokenize(code))
    except js.EscapedBackslash:  # not read: every reading of it could be other than javac's
        return None
    types = js.type_declarations(code, tokens)
    if not types:
        if not any(m.name == "main" for m in js.methods(code, 0, len(tokens) - 1, tokens)):
            return None
        code = f"public class Main {{\n{code}\n}}\n"  # a reply of bare methods around a main
        tokens = js.tokenize(code)
        types = js.type_declarations(code, tokens)
    main = next((t for t in types if js.has_main(code, t, tokens)), types[0])
    _, package_span = js.imports_and_package(code, tokens)
    replacements = [(*package_span, "")] if package_span else []  # the judge redirects System.exit itself
    for declaration in types:  # only the file's own class may stay public
        first, _ = declaration.tokens
        keyword = next(i for i in range(first, declaration.tokens[1]) if tokens[i].text in ("class", "interface",
                                                                                              "enum", "record"))
        replacements += [(tokens[i].start, tokens[i].end, "") for i in range(first, keyword)
                         if tokens[i].text == "public" and declaration is not main]
    package = job_package(key)
    source = f"package {package};\n" + js.rewrite(code, replacements)
    path = f"{package.replace('.', '/')}/{main.name}.java"
    return JavaJob(package, f"{package}.{main.name}", {path: source}, tests, time_limit_ms, runs_shutdown_hooks=True)
