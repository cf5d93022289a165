"""How a reply spells a value, for every part of the reader (:mod:`final_answer`): the :class:`Reading` a
benchmark gives it, the statuses of a reply that states no one answer, and prose's ways of writing a value
(Markdown emphasis and backticks, typographic quotes, numbers and empty containers in words, arithmetic),
read as Python writes it.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from dynbench_tasks.benchmarks.execution import Check
from mutators import thread_safe_ast

AMBIGUOUS = "ambiguous"
EMPTY, UNPARSEABLE = "empty", "unparseable"
SHOWN_CHARS = 200  # of an ambiguous reply's statements, as the sample logs them
SENTENCE_CUTS = 16  # places of each kind a sentence's value may end, tried from the first
FENCED = re.compile(r"^[ \t]*```[^\n]*\n(.*?)(?:^[ \t]*```[^\n]*$|\Z)", re.MULTILINE | re.DOTALL)
# A call of f as prose writes it: its parentheses balanced (two levels deep inside it, strings aside), so that
# finding one is linear in the text ("f()" written 6,000 times, or "f(" unclosed, cost quadratic time with a
# lazy match to the line's end)
_ARGUMENT = r"(?:'[^'\n]*'|\"[^\"\n]*\"|[^\n()'\"])"
CALL = rf"f\((?:{_ARGUMENT}|\((?:{_ARGUMENT}|\({_ARGUMENT}*\))*\))*\)"
# Words that say a value is the answer's ("the true output", "the final result")
ADJECTIVE = r"(?:final|expected|correct|actual|resulting|true|real|right|exact|proper|ultimate|definitive)"
# Verbs of a function's returning a value
_RETURNING = (r"(?:returns?|returned|(?:gives?|gave)(?:[ \t]+back)?|(?:hands?|handed)[ \t]+back|yields?|produces?"
              r"|outputs?|prints?|printed|equals?|evaluates[ \t]+to)")
OUTPUT_VERB = (rf"(?:{_RETURNING}|ends[ \t]+up(?:[ \t]+(?:as|being|with|at))?|comes[ \t]+out(?:[ \t]+(?:as|to))?"
                r"|results[ \t]+in)")
# Right before a value, words that make it an output, never an input ("let me trace again: it ends up as 'abab'")
AN_OUTPUT_AHEAD = re.compile(rf"(?:\b{OUTPUT_VERB}|==|->|=>)[ \t]*$", re.IGNORECASE)
VERB_CHARS = 40  # of the text before a value, read for such words
# A Python prompt's call of f, and the line it prints below it
REPL_CALL = re.compile(rf"[ \t]*>>>[ \t]*({CALL})[ \t]*$", re.MULTILINE)
MATH_END = re.compile(r"(?<![ \t])[ \t]*+(?:\$+|\\[\])])[ \t]*$")
# A clause that opens with a condition or one step of many says what happens then, not what the answer is; so
# does one that opens with a value or a variable's ("For 3 we get (2, 3)", "At i = 1, result = [1]", "When n is 0,
# ...", "Step 2: ..."). "When the loop finishes" and "after the last iteration" say where the run ends: no condition
_CONDITION = re.compile(
    r"\b(?:if|unless|otherwise|else|suppose|supposing|assuming|for[ \t]+(?:each|every|any|an?)"
    r"|(?:for|in|on|at|after)[ \t]+(?:each|every|the[ \t]+(?:first|second|third|next|\w+th)))\b"
    r"|(?:^|[,;:])[ \t]*(?:for|with|at|on|after|in|when|whenever|once)[ \t]+(?:[-+\d'\"\[({]|\w+[ \t]*=(?!=)"
    r"|\w+[ \t]+(?:is|are|was|were)\b|(?:step|iteration|round|pass|index|position)\b)|\bstep[ \t]+\d+",
    re.IGNORECASE)
_SENTENCE_END_SPLIT = re.compile(r"[.!?](?:[ \t]|$)")
_BUT = re.compile(r",[ \t]*but\b", re.IGNORECASE)  # "if it were sorted it would be 3, but it is not, so it returns 0"
_CLAUSE_END = re.compile(r"[.!?;](?=\s|$)")
# What may follow the value in its sentence without changing it: "It returns 0 in the end.", "It is 0, not 'ab'."
SAID_ASIDE = re.compile(r"(?:,|(?<![ \t]))[ \t]++(?:(?:in|at)[ \t]+the[ \t]+end|after[ \t]+all|in[ \t]+fact|finally"
                         r"|eventually|ultimately|overall|here|then|now|instead|too|anyway|though|actually|really|indeed"
                         r"|in[ \t]+total|in[ \t]+all|altogether)[ \t]*$",
                         re.IGNORECASE)
REJECTED = re.compile(r",[ \t]*(?:(?:and|but)[ \t]+)?not[ \t]", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?;](?=[ \t]+[A-Z(\[]|[ \t]*$)")
_WORD_END = re.compile(r"[,;:]?[ \t]+")
# Where a value may start in prose: a number, a string, a bracket, a constant or a call of f (not a
# quote inside a word: "it's"), with the signs written right before it ("-(3)" is not (3)); a sign after a
# space is a list's bullet ("- 'ab'")
VALUE_START = re.compile(r"(?<![0-9A-Za-z_\u00c0-\u024f\u0370-\u04ff'\"\\+~-])"  # CJK glued on ("\u662f5") is no name
                          r"[-+~]*+(?:\.?\d|[bBrRuU]?['\"]|[\[{(]|(?:True|False|None)\b|f\()")
MAX_CORRECTION_VALUES = 64  # places a value may start after a correction; past them the reply is ambiguous
PROSE_VALUE_CHARS = 1_000  # of the line from such a place, read for its value (a longer value: its items are read)
# Markdown emphasis around a value ("**0**", "*0*."): stars that open a word or close one, never an operator
# between spaces or values ("'q' * 2", "2**3")
_EMPHASIS = re.compile(r"(?<![^\s(\[{:,])\*++(?=\S)|(?<=[^\s*])\*++(?![^\s.,;:!?)\]}])")
# Prose after the answer spells values as prose does: typographic quotes (\u201cabc\u201d, \u2018abc\u2019) delimit
# strings, and a value in words right after a verb or a label's colon, ending its clause, is that value ("it
# returns an empty list.", "it's zero,", "Final value: nothing"); "true"/"false" only after a verb of returning
# ("that is true" is no value).
_QUOTES = str.maketrans({**dict.fromkeys("\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033\uff02", '"'),
                         **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\uff07", "'")})
EMPTY_VALUES = {"list": "[]", "array": "[]", "string": "''", "str": "''", "dict": "{}", "dictionary": "{}",
                 "map": "{}", "tuple": "()", "set": "set()", "bytes": "b''"}
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
WORD_VALUES = {**{word: str(number) for number, word in enumerate(_NUMBER_WORDS)},
                "nothing": "None", "none": "None", "null": "None", "true": "True", "false": "False"}
_IDEOGRAPHIC_STOP = re.compile(r"\u3002(?=\s|$)")
_SPELLED = re.compile(
    rf"\b(?P<verb>(?P<returning>{_RETURNING})|is|are|was|were|be|been|being|becomes?|became|as|to|at|with|'s|:)[ \t]+"
    r"(?:(?:just|simply|only|actually|really|now|then|instead|still)[ \t]+)?"
    rf"(?:(?:an?|the)[ \t]+(?=empty)|(?P<sign>minus|negative)[ \t]+)?"
    rf"(?:empty[ \t]+(?P<empty>{'|'.join(EMPTY_VALUES)})|(?P<word>{'|'.join(WORD_VALUES)})|(?<=[ \t])(?P<digits>\d+))"
    r"\b(?=[ \t]*(?:[.,;:!?)]|$))", re.IGNORECASE | re.MULTILINE)
_OPERATIONS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)
_MAX_OPERATIONS, _MAX_OPERAND = 8, 10**12
# Digits of other scripts ("\uff14", "\u0664") read as the ASCII ones
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")


@dataclass(frozen=True)
class Reading:
    """How a benchmark reads its answers. ``read``: one statement's text to a Check (``unparseable``
    or ``empty`` when it states nothing); ``named``: a value a sentence names ("The output is X") to
    the text ``read`` takes; ``returned``: a sentence's ``f(…) returns X`` to that text, or None when
    the sentence is about another call; ``same``: whether two read statements give the same answer;
    ``kind``: which nouns name the answer (``output`` or ``input``); ``unstated``: statuses of a block
    that is Python but states no answer (a restated program), unless nothing else is found; ``arguments``:
    the arguments of the call asked about (for output prediction; none for input prediction), each as
    ``ast.dump`` gives it, or None where they are not known."""

    read: Callable[[str], Check]
    named: Callable[[str], str]
    returned: Callable[[str, str], str | None]
    same: Callable[[Check, Check], bool]
    kind: str
    unstated: tuple[str, ...] = ()
    arguments: frozenset[str] | None = None


def masked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the given spans blanked out (line ends kept), so sentences are read outside them."""
    pieces, position = [], 0
    for start, end in sorted(spans):
        if start < position:
            continue
        pieces += [text[position:start], re.sub(r"[^\n]", " ", text[start:end])]
        position = end
    return "".join([*pieces, text[position:]])


_EMPHASIS_CLOSED = re.compile(r"([^*_\n]+?)(?<=\S)[*_]{1,2}(?=[\s.,;:!?)]|$)")


def value_texts(rest: str) -> Iterator[tuple[str, int]]:
    """What a sentence's value may be, from the text after its naming words, each with where it ends in
    ``rest``: a value in backticks or emphasis; else the text up to each place a sentence ends (a full
    stop before a capital or the line's end), the whole rest, then the text up to each space or comma
    after it."""
    lead = len(rest) - len(rest.lstrip())
    rest = rest.strip()
    for mark, closing_mark in (*((mark, mark) for mark in ("```", "``", "`", "**", "__", "$$", "$")),
                               ("\\(", "\\)"), ("\\[", "\\]")):
        if rest.startswith(mark) and len(rest) > len(mark):
            closing = rest.find(closing_mark, len(mark))
            if closing > 0:
                yield rest[len(mark):closing].strip(), lead + closing + len(closing_mark)
                return
    if closed := _EMPHASIS_CLOSED.match(rest):  # "The output is **4**.": the opening stars went with the words
        yield closed.group(1), lead + closed.end(1)
    for end in list(_SENTENCE_END.finditer(rest))[:SENTENCE_CUTS]:
        if rest[end.start()] == "?":  # "The output is 3? No, 4.": a question states no answer
            continue
        yield rest[:end.start()], lead + end.start()
    yield rest, lead + len(rest)
    for cut in list(_WORD_END.finditer(rest))[:SENTENCE_CUTS]:
        if cut.start() > 0:
            yield rest[:cut.start()], lead + cut.start()


def prose_spelled(text: str) -> str:
    """``text`` with its values spelt as Python spells them: Markdown emphasis and backticks set aside ("it is
    **0**", "`0`"), typographic quotes made quotes, a Chinese full stop that ends a sentence made a full stop
    ("\u662f 0\u3002"), values in words made values (:data:`_SPELLED`)."""
    text = _EMPHASIS.sub(lambda stars: " " * len(stars.group()), text.replace("`", " ")).translate(_QUOTES)
    text = _IDEOGRAPHIC_STOP.sub(".", _OTHER_DIGIT.sub(lambda digit: str(unicodedata.decimal(digit.group())), text))
    return _SPELLED.sub(_spelled_value, text)


def _spelled_value(found: re.Match) -> str:
    word, sign = (found.group("word") or "").lower(), "-" if found.group("sign") else ""
    if (word in ("true", "false") and not found.group("returning")) or (found.group("digits") and not sign):
        return found.group()
    value = EMPTY_VALUES[found.group("empty").lower()] if found.group("empty") else WORD_VALUES.get(word, "")
    return f"{found.group('verb')} {sign}{value or found.group('digits')}"


def evaluated(expression: str) -> str | None:
    """The value of arithmetic on numbers, as Python writes it; None when it is not such arithmetic or too big."""
    try:
        tree = thread_safe_ast.parse(expression, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    nodes = list(ast.walk(tree.body))
    allowed = (ast.BinOp, ast.UnaryOp, ast.Constant, *_OPERATIONS, ast.USub, ast.UAdd)
    if sum(isinstance(node, ast.BinOp) for node in nodes) > _MAX_OPERATIONS or not all(
            isinstance(node, allowed) for node in nodes):
        return None
    if not all(type(node.value) in (int, float) and abs(node.value) <= _MAX_OPERAND
               for node in nodes if isinstance(node, ast.Constant)):
        return None
    try:
        return repr(eval(compile(tree, "<arithmetic>", "eval"), {"__builtins__": {}}))  # numbers and + - * / % only
    except ArithmeticError:
        return None


def conditional(tail: str, position: int) -> bool:
    """Whether the clause of ``tail`` that goes on at ``position`` opened with a condition or one step of many
    (:data:`_CONDITION`); a ", but" after the condition opens a clause of its own."""
    opening = tail[max(tail.rfind("\n", 0, position) + 1, position - PROSE_VALUE_CHARS):position]
    return _CONDITION.search(_BUT.split(_SENTENCE_END_SPLIT.split(opening)[-1])[-1]) is not None


def whole_sentence_value(rest: str) -> str | None:
    """The value ``rest`` is up to its sentence's end, when all of it is one (a literal, signed or not, or a
    call of f with literal arguments); None when it is more, or a question ("It returns 0?")."""
    for end in [*list(_CLAUSE_END.finditer(rest))[:SENTENCE_CUTS], None]:
        if end is not None and rest[end.start()] == "?":
            return None
        value = rest[:end.start()] if end else rest
        value = SAID_ASIDE.sub("", value[:rejected.start()] if (rejected := REJECTED.search(value)) else value)
        value = value.strip().rstrip(".!;:,")
        if value and literal(value.lstrip("-+~ \t")):
            return value
    return None


def prose_value(rest: str, reading: Reading) -> tuple[Check, int] | None:
    """The value prose gives from the start of ``rest``, and where it ends: the longest literal that
    states an answer ("'ab', 2 is right" gives 'ab', 2; "'ab' * 2" gives 'ab'), else the longest text
    that states one ("f(3), sorry")."""
    other, rest = None, rest.rstrip().rstrip(".!?;:,")  # the sentence's stop: "0." reads 0, not 0.0
    for value, end in sorted(dict.fromkeys(value_texts(rest)), key=lambda cut: -cut[1]):
        check = reading.read(reading.named(value)) if value and not a_word(value) else None
        if check is not None and states(check, reading.unstated):
            if literal(value):
                return check, end
            other = other or (check, end)
    return other


def literal(text: str) -> bool:
    """Whether ``text`` is a Python literal, or a call of ``f`` with literal arguments."""
    try:
        node = thread_safe_ast.parse(text.strip(), mode="eval").body
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "f":
            for argument in [*node.args, *(keyword.value for keyword in node.keywords)]:
                thread_safe_ast.literal_eval(argument)
        else:
            thread_safe_ast.literal_eval(node)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return False
    return True


def hedged(value: str) -> bool:
    try:
        return isinstance(thread_safe_ast.parse(value.strip(), mode="eval").body, ast.BoolOp)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def states(check: Check, unstated: tuple[str, ...] = ()) -> bool:
    """Whether a read statement states an answer (right, wrong or refused), not a word of prose nor a
    block of the benchmark's ``unstated`` kind (such as a restated program)."""
    return check.status not in (EMPTY, UNPARSEABLE, *unstated) and not a_word(check.answer)


def a_word(text: str) -> bool:
    """A word of prose ("easy", "empty"), never an answer, though Python reads it as a name."""
    return text.strip().isidentifier() and text.strip() not in ("True", "False", "None")
