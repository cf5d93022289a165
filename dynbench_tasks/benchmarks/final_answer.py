"""Where a reply states its final answer (judging rules 3), for CRUXEval output and input prediction
under every prompt: what a chat, instruct or reasoning model writes around its answer is set aside,
and only the answer's explicit statements count.

Reasoning blocks (``<think>…</think>``, ``<thinking>``, ``<reasoning>``, ``[THOUGHT]…[/THOUGHT]`` and
the like) are removed first; a closing tag with no opening one closes a block the prompt or the chat
template opened, so everything before it is reasoning; a block left open is ``unparseable``. What
is left states the answer in any of these forms: ``[ANSWER]…[/ANSWER]`` tags (the closing tag may be
cut off by a stop sequence), a fenced block, an ``assert`` line (up to the end of its statement), a
sentence that names it ("The output is X", "**Answer:** X", "So f(x) returns X", "The function returns X.",
"The input is X", LaTeX's ``\\boxed{X}``), a line "f(x) = X", a Python prompt's ``>>> f(x)`` and the line below
it, or, before any of those, the reply itself read as the completion of the prompt's last line. Every
statement must give the same answer; two different ones are ``ambiguous``, never the better of
them. Numbers in prose are never answers: only these forms are. An answer that the text after
it takes back ("Actually, I made a mistake: it returns 0") is no answer either: words of correction
there, then a value other than the answer, make the reply ``ambiguous``; a statement's own comment, and
the lines of a closed block after its first statement, are such text too. So does, whatever the words before
it, any value after the last statement that stands as the whole rest of its clause ("Scrap that \u2014 0.", "Es
ist 0.", "It returns 0.", a value alone on a line or in a table's cell) unless the reader can tell it is no
answer (another call's, a named part's or a variable's value, an operand, a condition's); and "0 is what it
returns", the reply's last value when words of a conclusion come right before it ("so 0", "giving 0", "result =
0", "f(x) = 0"), "f(x) != X" of the answer X, and a value that words follow where its clause says it is the
answer ("it returns 0 for sure", "I'd go with 0", "Either X or 0", "0 as my prediction"). ``# done`` ends
nothing: what follows it is read.

The benchmark says how one statement reads (a :class:`~reply_values.Reading`); this module finds the
statements. What the text after the answer does to it is read by :mod:`taken_back` (words of correction, a
value said to be the answer) and :mod:`later_values` (a value that stands as a second answer).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import lru_cache, partial

from dynbench_tasks.benchmarks.execution import Check
from dynbench_tasks.benchmarks.later_values import standing
from dynbench_tasks.benchmarks.reply_values import (
    ADJECTIVE,
    AMBIGUOUS,
    CALL,
    EMPTY,
    EMPTY_VALUES,
    FENCED,
    MATH_END,
    PROSE_VALUE_CHARS,
    REJECTED,
    REPL_CALL,
    SHOWN_CHARS,
    UNPARSEABLE,
    WORD_VALUES,
    Reading,
    a_word,
    conditional,
    evaluated,
    hedged,
    masked,
    prose_spelled,
    states,
    value_texts,
    whole_sentence_value,
)
from dynbench_tasks.benchmarks.taken_back import correction, restated

DONE = "# done"  # the paper prompt's end of answer: a mark, never the end of what is read
MAX_REPLY_CHARS = 2_000_000  # a longer reply is not read at all (its reasoning included)
MAX_STATEMENTS = 64  # distinct statements read in one reply; past them the reply is ambiguous
_STATEMENT_LINES = 20  # lines an assert statement may span
_VALUE_BELOW = 2  # lines below "The output is:" its value may stand on (a blank one between)

# Opening and closing tags of a reasoning block: <think>, </thinking>, <seed:think>, [THOUGHT], [/THOUGHT], ...
REASONING_TAG = re.compile(
    r"<(/?)(?:seed:)?(?:think|thinking|thoughts?|reasoning|reflection|scratchpad)\s*>"
    r"|\[(/?)(?:THOUGHTS?|THINK|THINKING|REASONING)\]", re.IGNORECASE)
_TAGGED = re.compile(r"\[ANSWER\](.*?)(?:\[/ANSWER\]|(?=\[ANSWER\])|\Z)", re.IGNORECASE | re.DOTALL)
_CLOSING_TAG = re.compile(r"\[/ANSWER\]", re.IGNORECASE)
_ASSERT_LINE = re.compile(r"^[ \t]*assert\b", re.MULTILINE)
_ENDS_BLOCK = re.compile(r"^[ \t]*```|\[/?ANSWER\]", re.IGNORECASE)
# Where a sentence that names the answer may start: a line's start (after list markers, quotes and
# emphasis), a sentence's end, or a clause's after a comma, colon or semicolon ("Wait, no: the answer is
# W" states W beside the answer it takes back).
_START = (r"(?:^[ \t>*_#-]*+(?:\d+[.)][ \t]*)?|(?<=[.!?])[ \t]+|(?<=[,;:])[ \t]+|(?<=:\*\*)[ \t]+)"
          r"(?:(?:so|thus|therefore|hence)\b,?[ \t]*)?"
          r"(?:I[ \t]+(?:think|believe|guess|would[ \t]+say|'d[ \t]+say)(?:[ \t]+that)?[ \t]+)?[*_]*")
_OUTPUT_NOUN = (rf"(?:the[ \t]+)?(?:(?:{ADJECTIVE}[ \t]+){{0,2}}(?:output|answer|return(?:ed)?[ \t]+value"
                r"|value[ \t]+returned)"
                rf"|(?:{ADJECTIVE}[ \t]+){{1,2}}result)")
_INPUT_NOUN = (rf"(?:(?:the|an?|one)[ \t]+)?(?:(?:possible|valid|suitable|{ADJECTIVE})[ \t]+)?"
               r"(?:input|answer)")
_OF_THE_CALL = (r"(?:[ \t]+(?:of|for)[ \t]+(?:the[ \t]+)?(?:function(?:[ \t]+call)?|call|code|program|given[ \t]+"
                rf"input|`?{CALL}`?))?")
_VERB = (r"[ \t]+(?:is|will[ \t]+be|would[ \t]+be|should[ \t]+be|must[ \t]+be)"
         r"(?:[ \t]+(?:therefore|thus|then|simply|just|clearly|indeed))?[ \t]*:?")
_LABEL = r"[ \t]*(?::|\u2192|->|=>)"
_NAMED = {
    "output": re.compile(rf"{_START}{_OUTPUT_NOUN}(?:{_OF_THE_CALL}{_VERB}[*_]*[ \t]*|[*_]*{_LABEL}[*_]*)",
                         re.IGNORECASE | re.MULTILINE),
    "input": re.compile(rf"{_START}{_INPUT_NOUN}(?:{_OF_THE_CALL}{_VERB}[*_]*[ \t]*|[*_]*{_LABEL}[*_]*)",
                        re.IGNORECASE | re.MULTILINE),
}
# "f(x) returns X", "`f(x)` evaluates to X", "so f(x) is X" in a sentence
_RETURNS = re.compile(
    rf"{_START}(?:the[ \t]+call[ \t]+)?`?({CALL})`?[ \t]+(?:returns|will[ \t]+return|would[ \t]+return|"
    r"evaluates[ \t]+to|gives|outputs|is)[ \t]*:?[*_]*[ \t]*", re.IGNORECASE | re.MULTILINE)
# "The function returns X.", "So f returns X.", where X is the whole rest of the sentence (:func:`_sentences`)
_FUNCTION_RETURNS = re.compile(
    rf"{_START}(?:(?:(?:the[ \t]+)?(?:function|call|code|program)(?:[ \t]+`?f`?)?|`?f`?|it)[ \t]+|(?<![^\n]))(?:returns"
    r"|will[ \t]+return|would[ \t]+return|evaluates[ \t]+to|outputs)[ \t]*:?[ \t]*", re.IGNORECASE | re.MULTILINE)
# A line that is the call asked about, a sign and its value, LaTeX's delimiters aside: "$$f([3, 1]) = 4$$"
_COMMENT = re.compile(r"[ \t]+#[^\n]*$")
_CALL_LINE = re.compile(rf"^[ \t>*_-]*+(?i:(?:so|thus|therefore|hence),?[ \t]+)?(?:(?:\$\$?|\\\[|\\\()[ \t]*+)?"
                        rf"`?(?P<call>{CALL})`?[ \t]*(?:==?|\u2192|->|=>)[ \t]*",
                        re.MULTILINE)
_REPL = re.compile(rf"^{REPL_CALL.pattern[:-1]}\n[ \t]*(?!>>>|```|\.\.\.)([^\n]*\S[^\n]*)$", re.MULTILINE)
# LaTeX's \boxed{X}, as reasoning models end with it: X runs to the line's last closing brace
_BOXED = re.compile(r"\\boxed\{([^\n]*)\}")
_LATEX_OR = re.compile(r"\\text\{[^}]*\bor\b|\\(?:lor|vee)\b")


class _TooManyStatements(Exception):
    """More distinct statements than :data:`MAX_STATEMENTS` in one reply."""


def visible_text(reply: str) -> str | None:
    """The reply without its reasoning blocks; None when one is left open."""
    pieces, depth, position = [], 0, 0
    for tag in REASONING_TAG.finditer(reply):
        if depth == 0:
            pieces.append(reply[position:tag.start()])
        if tag.group(1) or tag.group(2):  # a closing tag
            if depth == 0:
                pieces = []  # it closes a block the prompt or the chat template opened: all before it was reasoning
            else:
                depth -= 1
        else:
            depth += 1
        position = tag.end()
    if depth:
        return None
    pieces.append(reply[position:])
    return "".join(pieces)


def _tagged(text: str) -> Iterator[tuple[int, int, str, int | None]]:
    """(start, end, content, where the content starts when no closing tag ends it) of every ``[ANSWER]``
    block; text before a closing tag that no opening tag precedes is one too (the prompt ended with the
    opening tag)."""
    first_close, first_open = _CLOSING_TAG.search(text), text.upper().find("[ANSWER]")
    if first_close and (first_open < 0 or first_close.start() < first_open):
        yield 0, first_close.end(), text[:first_close.start()], None
    for block in _TAGGED.finditer(text):
        yield block.start(), block.end(), block.group(1), None if block.end(1) < block.end() else block.start(1)


def _fenced(text: str) -> Iterator[tuple[int, int, str, int | None]]:
    """(start, end, content, where the content starts when no closing fence ends it) of every fenced block."""
    for block in FENCED.finditer(text):
        yield block.start(), block.end(), block.group(1), None if block.end(1) < block.end() else block.start(1)


def _asserted(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, statement) of every ``assert`` line: it and the lines after it, up to a fence or a tag
    (``end``: where those lines end; the statement may end before them, :func:`_first_statement`)."""
    for line in _ASSERT_LINE.finditer(text):
        lines = []
        for following in text[line.start():].split("\n", _STATEMENT_LINES)[:_STATEMENT_LINES]:
            if lines and _ENDS_BLOCK.search(following):
                break
            lines.append(_ENDS_BLOCK.split(following, 1)[0] if not lines else following)
        spanned = "\n".join(lines)
        yield line.start(), line.start() + len(spanned), spanned.strip()


@lru_cache(maxsize=1024)  # an assert flood spans the same lines again and again
def _first_statement(source: str) -> tuple[int, int, tuple[str, ...]]:
    """Where the first complete Python statement of ``source`` ends (at its ``;``, else its last line's
    end), where what follows it starts, and its comments (``assert f(2) == 4  # wrong, it is 0`` takes
    the answer back as text after it would), so that the prose or the next statement after an ``assert``,
    or in a block, is not read as part of it; the first line's end when none completes within
    :data:`_STATEMENT_LINES` lines."""
    lines = source.split("\n", _STATEMENT_LINES)[:_STATEMENT_LINES]
    comments = []
    try:
        for token in tokenize.generate_tokens(io.StringIO("\n".join(lines)).readline):
            if token.type == tokenize.COMMENT:
                comments.append(token.string)
            elif token.type == tokenize.NEWLINE or (token.type == tokenize.OP and token.string == ";"):
                end = sum(len(line) + 1 for line in lines[:token.start[0] - 1]) + token.start[1]
                end = min(len(source), end)
                return end, min(len(source), end + 1), tuple(comments)
    except (tokenize.TokenError, SyntaxError):
        pass
    return len(lines[0]), len(lines[0]) + 1, ()


def _sentences(text: str, reading: Reading) -> Iterator[tuple[int, int, Check]]:
    """(start, end, read statement) of every sentence that names the answer, outside tags and fences;
    ``end`` is where its value ends."""
    for named in _NAMED[reading.kind].finditer(text):
        start, rest = _value_line(text, named.end())
        if stated := _first_stated(rest, reading, reading.named):
            yield named.start(), start + stated[1], stated[0]
    for boxed in _BOXED.finditer(text):
        if _LATEX_OR.search(boxed.group(1)):  # "\\boxed{4 \\text{ or } 5}": two answers offered
            yield boxed.start(), boxed.end(), Check(boxed.group(1)[:SHOWN_CHARS], AMBIGUOUS)
        elif stated := _first_stated(boxed.group(1), reading, reading.named):
            yield boxed.start(), boxed.end(), stated[0]
    for returns in _RETURNS.finditer(text):
        start, rest = _value_line(text, returns.end())
        if stated := _first_stated(rest, reading, partial(reading.returned, returns.group(1))):
            yield returns.start(), start + stated[1], stated[0]
    # what the function returns is the answer only of output prediction; for input prediction it is the output shown
    for said in [*(_FUNCTION_RETURNS.finditer(text) if reading.kind == "output" else ()), *_CALL_LINE.finditer(text)]:
        rest = MATH_END.sub("", text[said.end():said.end() + PROSE_VALUE_CHARS].split("\n", 1)[0])
        value = whole_sentence_value(prose_spelled(_COMMENT.sub("", rest))) or evaluated(rest.strip())
        stated = value and (reading.returned(said["call"], value) if said.re is _CALL_LINE else reading.named(value))
        if stated and not conditional(text, said.start()):
            yield said.start(), said.end() + len(rest), reading.read(stated)


def _value_line(text: str, position: int) -> tuple[int, str]:
    """Where it starts, and the rest of the line from ``position``; when nothing follows there ("The
    output is:"), the next line that holds anything, if it comes within :data:`_VALUE_BELOW` lines."""
    start, end = position, text.find("\n", position)
    rest = text[position:] if end < 0 else text[position:end]
    for _ in range(_VALUE_BELOW):
        if rest.strip() or end < 0:
            break
        start, end = end + 1, text.find("\n", end + 1)
        rest = text[start:] if end < 0 else text[start:end]
    return start, rest


def _in_digits(value: str) -> str:
    """A value a sentence spells in words as Python spells it ("four", "an empty list"); any other as it is."""
    words = re.sub(r"^(?:(?:an?|the)[ \t]+)?", "", value.strip().rstrip(".!").lower())
    if words.startswith("empty ") and words[6:] in EMPTY_VALUES:
        return EMPTY_VALUES[words[6:]]
    return WORD_VALUES.get(words, value)


def _first_stated(rest: str, reading: Reading, statement: Callable[[str], str | None]) -> tuple[Check, int] | None:
    """The first value a sentence's ``rest`` may end at that states an answer, and where it ends in
    ``rest``; a value joined by ``or`` or ``and`` ("3 or 4") hedges between answers and is ambiguous."""
    for value, end in value_texts(rest):
        value = _in_digits(value[:rejected.start()] if (rejected := REJECTED.search(value)) else value)
        text = statement(value) if value and not a_word(value) else None
        check = reading.read(text) if text else None
        if check is not None and states(check, reading.unstated):
            return (Check(value, AMBIGUOUS) if hedged(value) else check), end
    return None


def final_answer(reply: str, reading: Reading, max_chars: int) -> Check:
    """The one answer ``reply`` states, read with ``reading``; ``max_chars``: the longest text, reasoning
    set aside, that is read. Never raises on any text."""
    if len(reply) > MAX_REPLY_CHARS:
        return Check(reply[:SHOWN_CHARS], UNPARSEABLE)
    text = visible_text(reply.replace("\r\n", "\n").replace("\r", "\n"))
    if text is None:
        return Check(reply[:SHOWN_CHARS], UNPARSEABLE)  # the reasoning never ended: no answer came after it
    text = text.replace(DONE, "").strip()
    if not text:
        return Check("", EMPTY)
    if len(text) > max_chars:
        return Check(text[:SHOWN_CHARS], UNPARSEABLE)
    read_once: dict[str, Check] = {}

    def read(statement: str) -> Check:
        if statement not in read_once:
            if len(read_once) >= MAX_STATEMENTS:
                raise _TooManyStatements
            read_once[statement] = reading.read(statement)
        return read_once[statement]

    counted = replace(reading, read=read)
    try:
        found = _statements(text, reading, counted)
        if isinstance(found, Check):
            return found
        statements, asides = found
        answer = statements[0][2]
        if all(reading.same(answer, check) for _, _, check in statements[1:]):
            after = "\n".join([*asides, text[max(end for _, end, _ in statements):]])
            corrected = (correction(after, answer, reading) or restated(after, answer, reading)
                         or standing(after, answer, reading))
            if corrected is None:
                return answer
            statements.append((len(text), len(text), corrected))
    except _TooManyStatements:
        return Check(text[:SHOWN_CHARS], AMBIGUOUS)
    shown = " | ".join(dict.fromkeys(check.answer for _, _, check in statements))
    return Check(shown[:SHOWN_CHARS], AMBIGUOUS)


_WRAPPED = re.compile(r"(\*\*|__|`+)([^*_`\n]+)\1")


def _statements(text: str, reading: Reading,
                counted: Reading) -> tuple[list[tuple[int, int, Check]], list[str]] | Check:
    """(start, end, read statement) of every statement of an answer in ``text``, in order, the reply read
    as the completion of the prompt's last line first where it states one, and the text inside those
    statements that may take their answer back (:func:`_within`); when none states one, what the reply
    is read as. ``counted`` reads with the reply's budget of statements."""
    blocks = [*_tagged(text), *_fenced(text)]
    # (start, end, read statement, where the Python its answer is the first statement of starts, if it may end
    # early, what was read)
    found = [(start, end, counted.read(source), opened, source)
             for start, end, content, opened in blocks for source in [_unfenced(content).strip()]]
    found += [(start, end, counted.read(statement), start, statement) for start, end, statement in _asserted(text)]
    found += [(*shown, None, "") for shown in _repl_shown(text, counted)]
    found += [(*sentence, None, "") for sentence in _sentences(masked(text, [block[:2] for block in blocks]),
                                                                counted)]
    found.sort(key=lambda statement: statement[0])
    statements, asides = [], []
    for start, end, check, opened, source in found:
        if not states(check, reading.unstated):
            continue
        if opened is not None:
            end = opened + _first_statement(text[opened:end])[0]
        statements.append((start, end, check))
        if source:
            further, taken_back = _within(source, opened is None, counted, reading)
            statements += [(start, end, stated) for stated in further]
            asides += taken_back
    first_start = statements[0][0] if statements else len(text)
    opening = text[:first_start].strip() if statements else _untagged(text)
    wrapped = _WRAPPED.fullmatch(opening)  # "**4**", "`4`": a whole reply in emphasis or backticks
    completion = reading.read(wrapped.group(2) if wrapped else _unfenced(opening)) if opening else Check("", EMPTY)
    if statements and states(completion, reading.unstated):
        return [(0, first_start, completion), *statements], asides
    if statements:
        return statements, asides
    if states(completion, reading.unstated):
        # the reply read whole, as rules 2 read it, else its first lines: what follows those may take it back
        found_at = text.find(completion.answer)
        return [(0, found_at + len(completion.answer) if found_at >= 0 else len(text), completion)], []
    # No answer stated: what a block of the reply refused, else what the reply read whole is.
    refused = [check for _, _, check, _, _ in found if check.status in reading.unstated]
    return refused[0] if refused and completion.status in (EMPTY, UNPARSEABLE) else completion


def _repl_shown(text: str, reading: Reading) -> Iterator[tuple[int, int, Check]]:
    """(start, end, read statement) of every call asked about that a Python prompt shows with what it prints
    (">>> f([3, 1])" and the line below it), fenced or not."""
    for shown in _REPL.finditer(text):
        stated = reading.returned(shown.group(1), shown.group(2).strip())
        if stated is not None:
            yield shown.start(), shown.end(), reading.read(stated)


def _within(source: str, whole: bool, counted: Reading, reading: Reading) -> tuple[list[Check], list[str]]:
    """The answers a statement's ``source`` states after its first Python statement (``whole``, a closed
    block: all of the block's rest, "```\n3\n4\n```" states 3 and 4; else the rest of the line after
    its ``;``: "assert f(2) == 3; assert f(2) == 4"), and the text there that is said after the answer,
    for the correction rule: the comments, and a rest that states no answer ("[ANSWER]3\nSorry: 4[/ANSWER]")."""
    further, asides = [], []
    for _ in range(MAX_STATEMENTS):
        end, after, comments = _first_statement(source)
        asides += comments
        if whole:
            rest = source[after:].strip()
        else:
            rest = source[after:].split("\n", 1)[0].strip() if source[end:after] == ";" else ""
        if not rest:
            return further, asides
        stated = counted.read(rest[:_first_statement(rest)[0]].strip())  # read alone: the rest may be long
        if not states(stated, reading.unstated):
            return further, [*asides, rest]
        further.append(stated)
        source = rest
    raise _TooManyStatements


def _unfenced(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not line.strip().startswith("```"))


def _untagged(text: str) -> str:
    return re.sub(r"\[/?ANSWER\]", "", text, flags=re.IGNORECASE).strip()
