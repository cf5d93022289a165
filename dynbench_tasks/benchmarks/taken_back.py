"""An answer the text after it takes back: words of correction, then another value (:func:`correction`);
or that text saying another value is the answer (:func:`restated`): "0 is what it returns", the call asked
about said not to return the answer, the reply's last value after words of a conclusion.
"""

from __future__ import annotations

import re
import unicodedata

from dynbench_tasks.benchmarks.execution import Check
from dynbench_tasks.benchmarks.reply_values import (
    ADJECTIVE,
    AMBIGUOUS,
    AN_OUTPUT_AHEAD,
    CALL,
    FENCED,
    MATH_END,
    MAX_CORRECTION_VALUES,
    OUTPUT_VERB,
    PROSE_VALUE_CHARS,
    SENTENCE_CUTS,
    SHOWN_CHARS,
    VALUE_START,
    VERB_CHARS,
    Reading,
    conditional,
    literal,
    masked,
    prose_spelled,
    prose_value,
    states,
    value_texts,
    whole_sentence_value,
)

# Words of a conclusion where a clause starts, which also end a step of a trace: the value right after them,
# read after the reply's last statement, says the answer only where it is the reply's last value
# (:func:`_concluded`): "so 0", "hence 0", ", giving 0", ", i.e. 0", "more precisely, 0", "so we get 0", "it
# comes to 0", "# should be 0", "so the printed value would be 0", "result = 0", "Result \u2192 0"; for input
# prediction "so call it with f(0)" too
_CLAUSE_OPENS = r"(?:^[ \t>*_#-]*+|(?<=[.!?,;:\u2013\u2014])[ \t]*)"
_CONCLUDING = (r"(?:(?:the[ \t]+)?(?:\w+[ \t]+)?(?:output|answer|result|value|res|ans)[ \t]*(?:==?|\u2192|->|=>|\u21d2)"
               r"|(?:(?:so|thus|therefore|hence),?[ \t]+(?:it|this|that|f|the[ \t]+(?:\w+[ \t]+)?(?:output|answer"
               r"|result|value|function|call))[ \t]+would[ \t]+(?:be|return|give)"
               r"|(?:so[ \t]+)?we[ \t]+(?:get|obtain|end[ \t]+up[ \t]+with|are[ \t]+left[ \t]+with|arrive[ \t]+at)"
               r"|(?:it|this|that|the[ \t]+(?:output|answer|result|total|sum))[ \t]+(?:all[ \t]+)?(?:comes|amounts"
               r"|adds[ \t]+up)[ \t]+to"
               r"|so|hence|thus|therefore|namely|giving|yielding|resulting[ \t]+in|which[ \t]+(?:gives|yields)"
               r"|that[ \t]+is|more[ \t]+precisely|to[ \t]+be[ \t]+precise|in[ \t]+other[ \t]+words|should[ \t]+be)\b"
               r"|i\.e\.)")
_CONCLUDED = {
    "output": re.compile(rf"{_CLAUSE_OPENS}{_CONCLUDING}[*_]*[ \t]*[,:]?[ \t]*", re.IGNORECASE | re.MULTILINE),
    "input": re.compile(rf"{_CLAUSE_OPENS}(?:(?P<calling>(?:so[ \t]+)?call(?:ing)?[ \t]+(?:it|f|the[ \t]+function)"
                        rf"[ \t]+(?:with|as|on)\b)|{_CONCLUDING})[*_]*[ \t]*[,:]?[ \t]*", re.IGNORECASE | re.MULTILINE),
}
# The call asked about, then a sign that says what it returns ("f([1, 2]) = 0", "f(x) \u2192 0", a table's
# "| f([1, 2]) | 0 |") or what it does not ("f(x) != 3", LaTeX's "\\ne"); a sentence about another call says none
_CALL_SAID = re.compile(
    rf"(?<![\w.])`?({CALL})`?[ \t]*(?:(?P<not>!=|\u2260|\\neq?\b)|==?|\u2192|->|=>|\u21d2|\|)[ \t]*")
# "0 is what it returns", "0 is the true output": the value before words that say it is the answer
_VALUE_SAID_BEFORE = {kind: re.compile(
    rf"(?<![ \t])[ \t]++(?:is|was|will[ \t]+be)[ \t]+(?:the[ \t]+)?(?:{ADJECTIVE}[ \t]+){{0,2}}{nouns}"
    r"(?=[ \t]*(?:[.!;]|$))",
    re.IGNORECASE | re.MULTILINE) for kind, nouns in (
        ("output", rf"(?:output|answer|result|return[ \t]+value|what[ \t]+(?:it|f|this|the[ \t]+(?:function|call|code))"
                   rf"[ \t]+(?:\w+[ \t]+)?{OUTPUT_VERB})"),
        ("input", r"(?:input|answer|call|arguments?)"))}
_SENTENCE_STARTS = re.compile(r"(?:^|(?<=[.!?:;]))[ \t>*_#-]*+", re.MULTILINE)
_CLAUSE_OR_LINE_END = re.compile(r"[.!?;](?=\s|$)|\n")
# Words that take back or replace what was said before them. Those that also open honest remarks count
# only where a clause starts ("Actually, ...", "Instead, ...") or right beside a value ("it actually returns
# 0", "0 instead"): "this is actually because", "instead of doing arithmetic" never count, nor does checking
# that keeps the answer ("let me double-check", "verify").
_VALUE_AHEAD = r"(?=[-+\d'\"\[{(`*]|f\()"
_VALUE_BEHIND = r"(?<=[\d'\"\]})`*])"
_CLAUSE_STARTS = (r"(?:^|(?<=[.!?,;:\u2013\u2014-]))[ \t>*_#-]{0,16}+"  # bounded: a long run of marks is linear
                  r"(?:actually|wait|hold[ \t]+(?:on|up)|hang[ \t]+on|just[ \t]+a[ \t]+(?:sec|second|moment|minute)"
                  r"|oops|whoops|sorry|nope|nah|no[ \t]+wait|no(?=[ \t]*[,.!:;\u2013\u2014-])"
                  r"|non(?=[ \t]*[,.!:;\u2013\u2014])"  # French
                  r"|I[ \t]+mean|rather|instead|(?:update|edit)(?=[ \t]*:))\b")
_BESIDE_A_VALUE = (rf"(?:\b(?:is|be|returns?|gives?)[ \t]+|'s[ \t]+)?\bactually[ \t]+(?:(?:is|be|returns?|gives?|"
                   rf"equals?|evaluates[ \t]+to|outputs?)[ \t]+)?{_VALUE_AHEAD}"
                   rf"|{_VALUE_BEHIND}[ \t]+(?:instead|rather[ \t]+than)\b"
                   rf"|\b(?:instead[ \t]+of|rather[ \t]+than)[ \t]+{_VALUE_AHEAD}")
_ANYWHERE = (r"\b(?:mistake[ns]?|mistaken|miscalculat\w*|misread\w*|correction|corrected|correcting|incorrect\w*"
             r"|wrong|not[ \t]+(?:right|correct)|or[ \t]+rather|scratch[ \t]+that"
             r"|on[ \t]+(?:second|further)[ \t]+thought|on[ \t]+reflection|let[ \t]+me[ \t]+(?:fix|correct)"
             r"|my[ \t]+(?:bad|error)|apolog\w*|never[ \t]?mind|nvm|disregard\w*"
             r"|ignore[ \t]+(?:that|this|the[ \t]+above)"
             r"|I[ \t]+take[ \t]+(?:it|that)[ \t]+back|strike[ \t]+that|not[ \t]+quite|typo|erratum|errata"
             r"|misspoke|misstat\w*|revised|revision|should[ \t]+have[ \t]+been"
             r"|made[ \t]+(?:an?[ \t]+|some[ \t]+)?(?:\w+[ \t]+)?(?:errors?|slip|blunder)|erred|in[ \t]+error|oversight"
             r"|messed[ \t]+up|I[ \t]+(?:forgot|overlooked|missed)"
             r"|re-?(?:check|consider|calculat|comput|count|evaluat|examin|trac|think|do|visit|run)\w*)\b"
             r"|\u4e0d\u5bf9|\u9519\u4e86|\u66f4\u6b63")  # Chinese: "not right", "wrong", "correction"
_CORRECTION = re.compile(rf"{_CLAUSE_STARTS}|{_BESIDE_A_VALUE}|{_ANYWHERE}", re.IGNORECASE | re.MULTILINE)
# A word whose letters mix Latin with Cyrillic or Greek ("\u0410ctually" with a Cyrillic A) hides a word of
# correction from the list, so it counts as one; values may mix them (a CRUXEval output starts with a Cyrillic C).
_MIXED_SCRIPTS = re.compile(r"(?<![^\W\d_])(?=[^\W\d_]*[A-Za-z])(?=[^\W\d_]*[\u0370-\u03ff\u0400-\u04ff])[^\W\d_]+")


def correction(tail: str, answer: Check, reading: Reading) -> Check | None:
    """A value other than ``answer`` that ``tail``, the text after the reply's last statement, gives in
    place of the answer: one from the line where the first word of correction stands onwards (a line, not
    a sentence: "It is 0. Sorry." takes the answer back, and a value's own full stop, 'x. Y', ends no
    sentence). None when no such word is there, or every value there is the answer ("Let me recheck:
    ... yes, 'abab'")."""
    # words are matched with format characters taken out ("Ac\u200btually"); line ends stay where they were
    shown = "".join(char for char in tail if unicodedata.category(char) != "Cf")
    words = [word for word in (_CORRECTION.search(shown), _MIXED_SCRIPTS.search(shown)) if word is not None]
    if not words:
        return None
    word = min(words, key=lambda found: found.start())
    line = word.string.count("\n", 0, word.start())
    scope = tail.split("\n", line)[-1] if line else tail
    scope = prose_spelled(scope)
    position, places = 0, 0
    for start in VALUE_START.finditer(scope):
        if start.start() < position:
            continue  # inside a value read already
        if places == MAX_CORRECTION_VALUES:
            return Check(scope[:SHOWN_CHARS], AMBIGUOUS)
        places += 1
        rest = scope[start.start():start.start() + PROSE_VALUE_CHARS].split("\n", 1)[0]
        stated = _shown_call(rest, reading) or prose_value(rest, reading)
        if stated is None:
            continue
        if stated[0] is None or _the_shown_output(rest[:stated[1]], scope[:start.start()], reading):
            position = start.start() + stated[1]  # the call the output is asked of, or the output shown: no answer
            continue
        if not reading.same(answer, stated[0]):
            return stated[0]
        position = start.start() + stated[1]
    return None


def restated(tail: str, answer: Check, reading: Reading) -> Check | None:
    """A value other than ``answer`` that ``tail``, the text after the reply's last statement, says the answer is
    though no value of :func:`later_values.standing` ends the clause: a value before words that say it is the
    answer ("0 is what it returns", :data:`_VALUE_SAID_BEFORE`), the call asked about said not to return the answer
    (:func:`_denied`), else the reply's last value after words of a conclusion (:func:`_concluded`). A sentence
    that opens with a condition ("If n were 0, 0 is what it returns") says none."""
    tail = "".join(char for char in tail if unicodedata.category(char) != "Cf")
    prose = prose_spelled(masked(tail, [block.span(1) for block in FENCED.finditer(tail)]))
    tail = prose_spelled(tail)
    read: set[str] = set()  # a model that says one sentence again and again says it once
    for said in _VALUE_SAID_BEFORE[reading.kind].finditer(tail):
        line = tail[max(tail.rfind("\n", 0, said.start()) + 1, said.start() - PROSE_VALUE_CHARS):said.start()]
        if line in read:
            continue
        if len(read) == MAX_CORRECTION_VALUES:
            return Check(line[:SHOWN_CHARS], AMBIGUOUS)
        read.add(line)
        for start in [*(found.end() for found in _SENTENCE_STARTS.finditer(line))][::-1][:SENTENCE_CUTS]:
            value = line[start:].strip()
            if value and literal(value.lstrip("-+~ \t")):
                check = reading.read(reading.named(value))
                if (states(check, reading.unstated) and not reading.same(answer, check)
                        and not conditional(tail, said.start() - len(line) + start)):
                    return check
                break
    return _denied(tail, answer, reading) or _concluded(prose, answer, reading)


def _denied(tail: str, answer: Check, reading: Reading) -> Check | None:
    """A sentence of ``tail`` that says the call asked about does not return ``answer`` ("f([1, 2]) != 3",
    LaTeX's "\\ne"), which takes the answer back (:data:`_CALL_SAID`)."""
    denied = [cue for cue in _CALL_SAID.finditer(tail) if cue.group("not")]
    for cue in denied[:MAX_CORRECTION_VALUES]:
        value = whole_sentence_value(MATH_END.sub("", tail[cue.end():cue.end() + PROSE_VALUE_CHARS].split("\n")[0]))
        stated = value and reading.returned(cue.group(1), value)
        if stated and states(check := reading.read(stated), reading.unstated) and reading.same(answer, check):
            return Check(f"{cue.group().strip()} {value}", AMBIGUOUS)
    if len(denied) > MAX_CORRECTION_VALUES:
        return Check(denied[MAX_CORRECTION_VALUES].group()[:SHOWN_CHARS], AMBIGUOUS)
    return None


def _concluded(prose: str, answer: Check, reading: Reading) -> Check | None:
    """A value other than ``answer`` that ``prose`` (the text after the reply's last statement, its fenced code
    blanked out and its spelling made Python's) ends in: its last value, when words of a conclusion come right
    before it ("so 0", "giving 0", "result = 0", :data:`_CONCLUDED`) or the call asked about and a sign ("f([1,
    2]) = 0", :data:`_CALL_SAID`), and it is the whole rest of its sentence. A value that more values follow is
    a step on the way ("add 1, giving 1; add 2, giving 3"). A sentence that opens with a condition says no such
    value, nor does one whose value is what the prompt shows (the call asked about, or for input prediction its
    output: "hence 'abab'"), nor, for input prediction, a value other than a call of f ("so 'ab'")."""
    found = sorted([*((cue, None) for cue in _CONCLUDED[reading.kind].finditer(prose)),
                    *((cue, cue) for cue in _CALL_SAID.finditer(prose) if not cue.group("not"))],
                   key=lambda cue: cue[0].start(), reverse=True)
    for cue, call in found:
        start, end = cue.span()
        rest = prose[end:end + PROSE_VALUE_CHARS].split("\n", 1)[0]
        if call is not None and call.group().rstrip().endswith("|"):
            rest = rest.split("|", 1)[0]  # a table's cell
        rest = MATH_END.sub("", rest)
        if not VALUE_START.match(rest):
            continue
        # the last value said after such words decides
        value = whole_sentence_value(rest)
        if not value or conditional(prose, start) or (call is None and _a_part(value, reading, cue)):
            return None
        stated = reading.returned(call.group(1), value) if call else reading.named(value)
        check = reading.read(stated) if stated else None
        after = prose[end + rest.index(value) + len(value):]
        over = _CLAUSE_OR_LINE_END.search(after)
        if (check is None or not states(check, reading.unstated) or reading.same(answer, check)
                or (over and VALUE_START.search(after, over.end()))):
            return None
        return check
    return None


def _a_part(value: str, reading: Reading, cue: re.Match) -> bool:
    """Whether ``value``, said after the words of a conclusion ``cue``, may be what the prompt shows (the call
    asked about, for input prediction its output) or, for input prediction, arguments without a call of f ("so
    'ab'": one argument, maybe; after words of calling, "call it with 'ab', 2", they are the call): no answer."""
    if reading.kind == "output":
        return reading.returned(value, "None") is not None
    return reading.returned("", value) is not None or not (value.startswith("f(") or cue.group("calling"))


def _the_shown_output(value: str, before: str, reading: Reading) -> bool:
    """Whether ``value``, after the text ``before`` it, is the output an input is asked for, said as one ("let me
    trace it again: it ends up as 'abab'"), which names no input."""
    return (reading.kind == "input" and reading.returned("", value) is not None
            and AN_OUTPUT_AHEAD.search(before[-VERB_CHARS:]) is not None)


def _shown_call(rest: str, reading: Reading) -> tuple[None, int] | None:
    """(None, where it ends) when ``rest`` starts with the call an output is asked of ("let me recheck
    f(2): ..."), which names no answer."""
    if reading.kind != "output" or not rest.startswith("f("):
        return None
    for call, end in sorted(dict.fromkeys(value_texts(rest)), key=lambda cut: -cut[1]):
        if reading.returned(call, "None") is not None:
            return None, end
    return None
