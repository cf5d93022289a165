"""Just enough Java structure to lift a translation out of a model's reply and fit it to a judge.

A token scanner that reads a source as javac does (unicode escapes first) and knows strings, text blocks,
char literals and comments, and on top of it: the
code in a reply (fenced or bare), top-level type declarations, the methods declared at one level,
and token-level rewrites (rename a method, drop a package line, redirect ``System.exit`` and its kin, which
only spares the JVM: an exit this misses ends the JVM, and the judge reads it from the process; send the
fast-output idiom's ``FileOutputStream(FileDescriptor.out)`` to the test's stdout). It does
not parse Java; whatever it lets through that is not Java, javac rejects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

# Every literal and comment ends where Java ends it or, left open, at the end of its line (a string, a char)
# or of the text (a text block, a block comment): each match succeeds where it starts, so scanning is linear
# in the text (an unclosed ``/*`` rescanned to the end from every later ``/*`` was quadratic). What is left
# open is not Java, and javac rejects it.
# Characters javac ignores inside an identifier (Character.isIdentifierIgnorable: controls that are no whitespace,
# and the format characters): "File\u0085Descriptor" is FileDescriptor to it.
_IGNORABLE = ("\x00-\x08\x0e-\x1b\x7f-\x9f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u180e\u200b-\u200f"
              "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb")
_IGNORED = re.compile(f"[{_IGNORABLE}]")
# A line ends at LF, CR or both (JLS 3.4): a // comment, and a string or char left open, end there.
_TOKEN = re.compile(
    r'(?P<textblock>"""(?:[^"\\]|\\[\s\S]|"(?!""))*(?:"""|\Z))'
    r'|(?P<string>"(?:[^"\\\r\n]|\\[^\r\n])*"?)'
    r"|(?P<char>'(?:[^'\\\r\n]|\\[^\r\n])*'?)"
    r"|(?P<comment>//[^\r\n]*|/\*[\s\S]*?(?:\*/|\Z))"
    rf"|(?P<ident>[A-Za-z_$][\w${_IGNORABLE}]*)"
    r"|(?P<number>\d[\w.]*)"
    r"|(?P<space>\s+)"
    r"|(?P<other>.)",
)
_TYPE_KEYWORDS = {"class", "interface", "enum", "record"}
_NOT_RETURN_TYPES = {"new", "return", "throw", "else", "case", "yield"}
# A fence's first line ends at a newline or the text's end, so a match never fails after scanning a line
# (a line of many fences was quadratic).
_FENCE = re.compile(r"```[ \t]*([\w+#-]*)[^\n]*(?:\n|\Z)([\s\S]*?)(?:```|\Z)")


class Token(NamedTuple):  # a tuple: the judge tokenizes every source it compiles
    kind: str
    text: str
    start: int
    end: int


# A backslash run and the ``u``s after it: its last backslash begins a unicode escape when the run is odd
# (JLS 3.3: preceded by an even number of backslashes), and that escape is well formed with four hex digits.
_UNICODE_ESCAPE = re.compile(r"(?<!\\)(\\+)u+([0-9A-Fa-f]{4})?")


class EscapedBackslash(ValueError):
    """A source spelling a backslash as a unicode escape (``\\u005c``): whether a backslash after it begins
    another escape is left open by JLS 3.3 (JDK 17's javac reads ``"\\u005c\\\\u0041"`` as ``\\\\A``, where
    counting only the backslashes written reads ``\\\\\\u0041``), so no reading of it is sure to be javac's."""


def javac_view(code: str) -> tuple[str, list[int] | None]:
    """``code`` as javac reads it, every unicode escape translated first (JLS 3.3): a ``\\u0022`` is a
    quote, a ``\\u000a`` ends a ``//`` comment, in strings, comments and code alike; and where each of its
    characters starts in ``code`` (None where nothing was translated; one more entry, ``len(code)``, ends it).
    A malformed escape is left as it is written: javac rejects the source. Raises :class:`EscapedBackslash`."""
    if "\\u" not in code:
        return code, None
    view, starts, done = [], [], 0
    for escape in _UNICODE_ESCAPE.finditer(code):
        backslashes, digits = escape.group(1), escape.group(2)
        if len(backslashes) % 2 == 0 or digits is None:
            continue
        character = chr(int(digits, 16))
        if character == "\\":
            raise EscapedBackslash("a unicode escape of a backslash (\\u005c)")
        at = escape.end(1) - 1
        view += [code[done:at], character]
        starts += [*range(done, at), at]
        done = escape.end()
    view.append(code[done:])
    starts += [*range(done, len(code) + 1)]
    return "".join(view), starts


def tokenize(code: str) -> list[Token]:
    """Significant tokens (no whitespace, no comments) of ``code`` as javac reads it (:func:`javac_view`):
    each token's text is javac's, its ``start`` and ``end`` are offsets into ``code``. Raises
    :class:`EscapedBackslash`."""
    view, starts = javac_view(code)
    return [Token(m.lastgroup, _IGNORED.sub("", m.group()) if m.lastgroup == "ident" else m.group(),
                  *(m.span() if starts is None else (starts[m.start()], starts[m.end()])))
            for m in _TOKEN.finditer(view) if m.lastgroup != "space" and m.lastgroup != "comment"]


def code_in_reply(reply: str) -> str | None:
    """The Java in a model's reply: the first fenced block that looks like Java (``java`` blocks
    first), else the reply itself when it looks like Java; None when there is none."""
    blocks = [(language.lower(), body) for language, body in _FENCE.findall(reply)]
    ordered = [b for lang, b in blocks if lang == "java"] + [b for lang, b in blocks if lang != "java"]
    for body in ordered:
        if _looks_like_java(body):
            return body.strip("\n")
    if not blocks and _looks_like_java(reply):
        return reply.strip()
    return None


def _looks_like_java(text: str) -> bool:
    return "{" in text and "}" in text and ("(" in text or "class" in text)


def _matching(tokens: list[Token], index: int) -> int:
    """Index of the bracket closing the one at ``index`` (or the last token if unbalanced)."""
    pairs = {"{": "}", "(": ")", "[": "]"}
    opener, closer, depth = tokens[index].text, pairs[tokens[index].text], 0
    for position in range(index, len(tokens)):
        text = tokens[position].text
        if text == opener:
            depth += 1
        elif text == closer:
            depth -= 1
            if depth == 0:
                return position
    return len(tokens) - 1


@dataclass(frozen=True)
class Declaration:
    name: str
    start: int  # character offsets into the source, modifiers and annotations included
    end: int
    tokens: tuple[int, int]  # token index range [first, last]


def _members(tokens: list[Token], first: int, last: int) -> list[tuple[int, int]]:
    """Token ranges of the declarations between ``first`` and ``last`` at one nesting level."""
    spans, start, position = [], first, first
    while position <= last:
        text = tokens[position].text
        if text in "([":
            position = _matching(tokens, position)
        elif text == "{":
            position = _matching(tokens, position)
            spans.append((start, position))
            start = position + 1
        elif text == ";":
            spans.append((start, position))
            start = position + 1
        position += 1
    if start <= last:
        spans.append((start, last))
    return spans


def type_declarations(code: str, tokens: list[Token] | None = None) -> list[Declaration]:
    """Top-level classes, interfaces, enums and records."""
    tokens = tokens if tokens is not None else tokenize(code)
    found = []
    for first, last in _members(tokens, 0, len(tokens) - 1):
        words = [i for i in range(first, last + 1) if tokens[i].text in _TYPE_KEYWORDS]
        if words and words[0] + 1 <= last and tokens[words[0] + 1].kind == "ident" and tokens[last].text == "}":
            found.append(Declaration(tokens[words[0] + 1].text, tokens[first].start, tokens[last].end, (first, last)))
    return found


def methods(code: str, first: int, last: int, tokens: list[Token]) -> list[Declaration]:
    """Methods declared between token ``first`` and ``last`` at one level (with bodies)."""
    found = []
    for start, end in _members(tokens, first, last):
        if tokens[end].text != "}":
            continue
        for i in range(start, end):
            if tokens[i].text == "(" and i > start and tokens[i - 1].kind == "ident":
                before = tokens[i - 2] if i - 2 >= start else None
                if before is not None and (before.kind == "ident" or before.text in (">", "]")) and \
                        before.text not in _NOT_RETURN_TYPES and tokens[i - 1].text not in _TYPE_KEYWORDS:
                    found.append(Declaration(tokens[i - 1].text, tokens[start].start, tokens[end].end, (start, end)))
                break
    return found


def body_range(declaration: Declaration, tokens: list[Token]) -> tuple[int, int]:
    """Token indices just inside the braces of a type declaration."""
    first, last = declaration.tokens
    opening = next(i for i in range(first, last + 1) if tokens[i].text == "{")
    return opening + 1, last - 1


def has_main(code: str, declaration: Declaration, tokens: list[Token]) -> bool:
    first, last = body_range(declaration, tokens)
    return any(
        m.name == "main" and "static" in code[m.start:m.end].split("(")[0].split()
        for m in methods(code, first, last, tokens)
    )


def imports_and_package(code: str, tokens: list[Token]) -> tuple[list[str], tuple[int, int] | None]:
    """The import statements' text and the character span of a package statement, if any."""
    imports, package = [], None
    for first, last in _members(tokens, 0, len(tokens) - 1):
        head = tokens[first].text
        if head == "import":
            imports.append(code[tokens[first].start:tokens[last].end])
        elif head == "package":
            package = (tokens[first].start, tokens[last].end)
    return imports, package


def rewrite(code: str, replacements: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping (start, end, text) character replacements (in one pass: a reply may ask for many)."""
    pieces, done = [], 0
    for start, end, text in sorted(replacements):
        pieces += [code[done:start], text]
        done = end
    return "".join([*pieces, code[done:]])


_PACKAGE = "dynbench"  # the judge's classes', which its rewrites and harnesses name


def package_unobscured(code: str, tokens: list[Token]) -> tuple[str, list[Token]]:
    """A model's ``code`` (its ``tokens``) with each of its own names ``dynbench`` (a variable, a field, a type)
    made one it does not use, and the tokens of that: in its scope, what the judge adds (``dynbench.Exit.exit``,
    the TransCoder harness's ``dynbench.Record``) would name a member of it, not the judge's package (JLS 6.4.2,
    obscuring), and an honest program would not compile (red team 5's JV24). A program whose every ``dynbench`` is
    followed by a dot names the package itself (``dynbench.Record``) and is left as it is."""
    named = [i for i, token in enumerate(tokens) if token.kind == "ident" and token.text == _PACKAGE]
    if all(i + 1 < len(tokens) and tokens[i + 1].text == "." for i in named):
        return code, tokens
    names = {token.text for token in tokens if token.kind == "ident"}
    fresh = next(name for name in (f"{_PACKAGE}{'_' * n}" for n in range(1, len(names) + 2)) if name not in names)
    code = rewrite(code, [(token.start, token.end, fresh) for token in tokens
                          if token.kind == "ident" and token.text == _PACKAGE])
    return code, tokenize(code)


# Words after which a name is an expression or a type being named, never one being declared: a modifier comes
# before a declaration's type (red team 10: ``static final FileDescriptor[] STREAMS``).
_NOT_DECLARING = _NOT_RETURN_TYPES | {"assert", "instanceof", "extends", "implements", "permits", "throws", "import",
                                      "package", "break", "continue", "default", "public", "protected", "private",
                                      "static", "final", "abstract", "transient", "volatile", "synchronized",
                                      "native", "strictfp", "sealed"}
# What may follow a variable's, field's or parameter's name where it is declared (not ``[``: ``Type[] name``).
_AFTER_DECLARED = {"=", ";", ",", ")", ":"}


def own_names(tokens: list[Token], names: set[str], variables: bool = True) -> set[str]:
    """Those of ``names`` a program (its ``tokens``) declares itself: a type (``class FileDescriptor``), or, with
    ``variables``, a variable, field or parameter (``Fd FileDescriptor = ...``, which obscures the type where a name
    is qualified, JLS 6.4.2). There its simple name is the program's, not java.lang's or java.io's, and the judge
    rewrites only the qualified spelling: a rewrite would make the program print what it never prints (red team 8:
    a field ``FileDescriptor.out`` that is fd 2, a class ``FileOutputStream`` that drops what it is given)."""
    own = set()
    for i in range(1, len(tokens) - 1):
        token, before, after = tokens[i], tokens[i - 1], tokens[i + 1].text
        if token.kind != "ident" or token.text not in names or before.text == ".":
            continue
        declared_type = before.text in _TYPE_KEYWORDS
        declared_variable = variables and after in _AFTER_DECLARED and (
            before.text in ("]", ">") or (before.kind == "ident" and before.text not in _NOT_DECLARING))
        if declared_type or declared_variable:
            own.add(token.text)
    return own


_QUALIFIER = ["java", ".", "lang", "."]
_EXIT_TARGET, _HALT_TARGET = f"{_PACKAGE}.Exit.exit", f"{_PACKAGE}.Exit.halt"


def _after_qualifier(tokens: list[Token], i: int) -> int | None:
    """Where the simple name starts if a name starting at token ``i`` (not itself after a dot) is
    ``java.lang.X`` or ``X``; None if ``i`` continues a longer name."""
    if i > 0 and tokens[i - 1].text == ".":
        return None
    words = [t.text for t in tokens[i:i + 4]]
    return i + 4 if words == _QUALIFIER else i


def exit_redirections(tokens: list[Token]) -> list[tuple[int, int, str]]:
    """Replacements sending every spelling of ``System.exit`` and ``Runtime.getRuntime().exit`` to
    ``dynbench.Exit.exit``, and of ``Runtime.getRuntime().halt`` to ``dynbench.Exit.halt`` (a halt runs no
    shutdown hook): ``System.exit(`` and ``Runtime.getRuntime().exit(`` or ``.halt(``, each also
    qualified as ``java.lang.``, the method reference ``System::exit``, and ``exit(`` made
    ``System.exit`` by ``import static java.lang.System.exit;`` or ``import static java.lang.System.*;``
    (the import is rewritten to import ``dynbench.Exit.exit``, so Java's own scoping decides which ``exit(``
    it reaches, exactly as before). Both take an ``int`` like ``System.exit``. A ``System`` or ``Runtime`` the
    program declares itself (:func:`own_names`) is its own where it is not qualified."""
    found = []
    texts = [t.text for t in tokens]
    own = own_names(tokens, {"System", "Runtime"})
    static_import = ["import", "static", *_QUALIFIER, "System", "."]
    on_demand_at = None
    imported = False
    for i in range(len(tokens)):
        if texts[i:i + len(static_import)] == static_import and (i == 0 or texts[i - 1] in (";", "}")):
            member = i + len(static_import)
            if texts[member:member + 2] == ["exit", ";"]:
                found.append((tokens[i].start, tokens[member + 1].end, f"import static {_EXIT_TARGET};"))
                imported = True
            elif texts[member:member + 2] == ["*", ";"]:
                on_demand_at = member + 1
            continue
        name = _after_qualifier(tokens, i)
        if name is None or (name != i and texts[name] not in ("System", "Runtime")) or (name == i and texts[i] in own):
            continue
        if texts[name:name + 4] == ["System", ".", "exit", "("]:
            found.append((tokens[i].start, tokens[name + 2].end, _EXIT_TARGET))
        elif texts[name:name + 4] == ["System", ":", ":", "exit"]:
            found.append((tokens[i].start, tokens[name].end, _EXIT_TARGET.rsplit(".", 1)[0]))
        elif texts[name:name + 5] == ["Runtime", ".", "getRuntime", "(", ")"] and \
                texts[name + 5:name + 6] == ["."] and texts[name + 6:name + 7] in (["exit"], ["halt"]) and \
                texts[name + 7:name + 8] == ["("]:
            found.append((tokens[i].start, tokens[name + 6].end,
                          _HALT_TARGET if texts[name + 6] == "halt" else _EXIT_TARGET))
    if on_demand_at is not None and not imported:  # a single-static-import shadows the on-demand one
        found.append((tokens[on_demand_at].end, tokens[on_demand_at].end, f" import static {_EXIT_TARGET};"))
    return found


# The idioms rewritten whole: the stream's class -> the FileDescriptor member it is opened on, and what it becomes.
_IDIOMS = {"FileOutputStream": ("out", f"new {_PACKAGE}.Stdout()"),
           "FileInputStream": ("in", f"new {_PACKAGE}.Stdin()")}
_DESCRIPTOR_TARGET, _DESCRIPTOR_IMPORT = f"{_PACKAGE}.Stdout.descriptor()", f"{_PACKAGE}.Stdout.Imported.out"
_JAVA_IO = ["java", ".", "io", "."]


def _after_java_io(texts: list[str], i: int) -> int:
    """Where the simple name starts in a name at token ``i`` written ``java.io.X`` or ``X``."""
    return i + 4 if texts[i:i + 4] == _JAVA_IO else i


def _standard_output_at(texts: list[str], i: int, own: set[str], stream: str = "out") -> int | None:
    """The last token of ``FileDescriptor.out`` (or another ``stream``; also ``java.io.``-qualified) if one starts at
    token ``i``, not itself after a dot nor a ``FileDescriptor`` of the program's ``own``; else None."""
    if i > 0 and texts[i - 1] == ".":
        return None
    name = _after_java_io(texts, i)
    if name == i and "FileDescriptor" in own:
        return None
    return name + 2 if texts[name:name + 3] == ["FileDescriptor", ".", stream] else None


def _imports_another_out(texts: list[str]) -> bool:
    """Whether a source (its tokens' ``texts``) imports a static member ``out`` of a type other than
    FileDescriptor by name (``import static java.lang.System.out;``, red team 10)."""
    for i in range(len(texts) - 1):
        if texts[i:i + 2] == ["import", "static"] and (i == 0 or texts[i - 1] in (";", "}")):
            end = i + 2
            while end < len(texts) and texts[end] != ";":
                end += 1
            if texts[end - 2:end] == [".", "out"] and texts[end - 3] != "FileDescriptor":
                return True
    return False


def stdout_redirections(tokens: list[Token]) -> list[tuple[int, int, str]]:
    """Replacements sending ``new FileOutputStream(FileDescriptor.out)`` (either name also as ``java.io.``) to
    ``new dynbench.Stdout()``, a FileOutputStream writing where System.out writes, the fast-input idiom
    ``new FileInputStream(FileDescriptor.in)`` to ``new dynbench.Stdin()``, which reads the test's stdin (the JVM's
    own is the runner's request, read to its end: red team 10), and every other
    ``FileDescriptor.out`` (outside an import) to ``dynbench.Stdout.descriptor()``, a descriptor whose bytes go
    there too (``Runner.DescriptorPipe``); ``import static java.io.FileDescriptor.out;`` (or ``.*``) imports
    ``dynbench.Stdout.Imported.out``, that descriptor, instead (as the exit's import is rewritten; not beside another
    single-static-import of an ``out``, which shadows the on-demand one in java too). The JVM's real standard
    output goes to /dev/null (the runner replies elsewhere), and a program would otherwise print nothing;
    ``FileDescriptor.out`` reached by reflection still goes there. A ``FileDescriptor``, ``FileOutputStream`` or
    ``FileInputStream`` the program declares itself (:func:`own_names`) is its own where it is not qualified."""
    found = []
    texts = [t.text for t in tokens]
    own = own_names(tokens, {"FileDescriptor"}) | own_names(tokens, {"FileOutputStream", "FileInputStream"},
                                                           variables=False)
    in_import = False
    static_import = ["import", "static", *_JAVA_IO, "FileDescriptor", "."]
    imports_another_out = _imports_another_out(texts)
    i = 0
    while i < len(tokens):
        if texts[i:i + len(static_import)] == static_import and (i == 0 or texts[i - 1] in (";", "}")):
            member = i + len(static_import)
            if texts[member:member + 2] == ["out", ";"]:
                found.append((tokens[i].start, tokens[member + 1].end, f"import static {_DESCRIPTOR_IMPORT};"))
            elif texts[member:member + 2] == ["*", ";"] and not imports_another_out:
                # a single-static-import shadows the on-demand one
                found.append((tokens[member + 1].end, tokens[member + 1].end, f" import static {_DESCRIPTOR_IMPORT};"))
            i = member + 2
            continue
        if texts[i] in ("import", ";") and (i == 0 or texts[i - 1] != "."):
            in_import = texts[i] == "import"
        stream = _after_java_io(texts, i + 1) if texts[i] == "new" and (i == 0 or texts[i - 1] != ".") else None
        if stream == i + 1 and stream < len(texts) and texts[stream] in own:
            stream = None
        idiom = _IDIOMS.get(texts[stream] if stream is not None and texts[stream + 1:stream + 2] == ["("] else "")
        if idiom is not None:
            descriptor_end = _standard_output_at(texts, stream + 2, own, idiom[0])
            if descriptor_end is not None and texts[descriptor_end + 1:descriptor_end + 2] == [")"]:
                found.append((tokens[i].start, tokens[descriptor_end + 1].end, idiom[1]))
                i = descriptor_end + 2
                continue
        descriptor_end = None if in_import else _standard_output_at(texts, i, own)
        if descriptor_end is not None:
            found.append((tokens[i].start, tokens[descriptor_end].end, _DESCRIPTOR_TARGET))
            i = descriptor_end + 1
            continue
        i += 1
    return found


def judge_rewrites(code: str) -> str:
    """``code`` with :func:`exit_redirections` and :func:`stdout_redirections` applied (none where no token
    can be ``exit``, ``halt`` or ``FileDescriptor``). A source with an escaped backslash
    (:class:`EscapedBackslash`) is left as it is: an exit the rewrite does not redirect still ends its test,
    by ending the JVM, and a rewrite of a source misread would change the program (text javac reads as a
    string, rewritten as code)."""
    words = ("exit", "halt", "FileDescriptor")
    if not any(word in code for word in words) and "\\u" not in code and not _IGNORED.search(code):
        return code
    try:
        view, _ = javac_view(code)
        if not any(word in _IGNORED.sub("", view) for word in words):
            return code
        tokens = tokenize(code)
        return rewrite(code, exit_redirections(tokens) + stdout_redirections(tokens))
    except EscapedBackslash:
        return code


def call_renames(tokens: list[Token], old: str, new: str) -> list[tuple[int, int, str]]:
    """Replacements renaming every ``old(`` (declaration and calls) to ``new``."""
    return [
        (token.start, token.end, new)
        for i, token in enumerate(tokens[:-1])
        if token.kind == "ident" and token.text == old and tokens[i + 1].text == "("
        and (i == 0 or tokens[i - 1].text != ".")
    ]
