"""A second answer after the first: a value that stands as the whole rest of its clause in the text after a
reply's last statement (:func:`standing`), whatever words come before it, unless the reader can tell it is
no answer (another call's, a named part's or a variable's value, an operand, a condition's, a step's).
"""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Iterator

from dynbench_tasks.benchmarks.execution import Check
from dynbench_tasks.benchmarks.reply_values import (
    ADJECTIVE,
    AMBIGUOUS,
    AN_OUTPUT_AHEAD,
    CALL,
    FENCED,
    MAX_CORRECTION_VALUES,
    OUTPUT_VERB,
    PROSE_VALUE_CHARS,
    REJECTED,
    REPL_CALL,
    SAID_ASIDE,
    SENTENCE_CUTS,
    SHOWN_CHARS,
    VALUE_START,
    VERB_CHARS,
    Reading,
    conditional,
    evaluated,
    literal,
    masked,
    prose_spelled,
    prose_value,
    states,
)
from mutators import thread_safe_ast

# Where a clause ends for a value that stands as its whole rest (:func:`standing`): a sentence's stop, an
# HTML-like tag, LaTeX's dollar; and what may follow the value in its clause: marks, emoji, letters of scripts
# other than Latin, Greek and Cyrillic ("0\u3067\u3059"), not words the reader reads
_CLAUSE_BOUNDARY = re.compile(r"[.!?](?=\s|$)|</?[A-Za-z][\w-]{0,20}>|\[/?[A-Za-z][\w-]{0,20}\]|\$+")
_TRAILING_MARKS = re.compile(r"[^0-9A-Za-z\u00c0-\u024f\u0370-\u04ff'\"\])}]+$")
_LIST_MARK = re.compile(r"^[ \t>]*(?:\d{1,3}[.)]|[-*+])[ \t]+(?=\S)")
_TABLE_RULE = re.compile(r"^\|?[ \t:|-]*$")
# Before a value: an operator that makes it one operand ("2 * 3"; " - " between spaces is a dash)
_OPERAND_BEFORE = re.compile(r"(?<=[\w'\")\]}])(?:[ \t]*(?:[+*/%^&|<>@]|\*\*|//)|-)[ \t]*$")
# Where the words that may name what the value is the value of start: after a comma, semicolon, colon, opening
# bracket or dash; then words that join clauses, set aside
_CLAUSE_OPENER = re.compile(r"[,;:\u2013\u2014\u2192]|(?<=[ \t])-[ \t]|[-=]>")
_CONNECTIVES = re.compile(r"^(?:[ \t>*_#-]|\b(?:and|but|so|then|thus|hence|therefore|now|here|where|which|while"
                          r"|since|because|whereas|i\.e\.|e\.g\.)\b)*+", re.IGNORECASE)
# Words that say what the function gives back: after them a value is the answer's, whatever the subject
_SAYS_RETURNED = re.compile(rf"\b(?:{OUTPUT_VERB}|reads?)\b", re.IGNORECASE)
_HYPOTHETICAL = re.compile(r"\b(?:would|could|might)\b", re.IGNORECASE)
# What would be, said of the program ("without the repetition it would be 'ab'"), not a guess of the reply's own
# ("I would say 'ab'", "it might be 'ab'", "it could also be 'ab'"), which only a case of its own makes no answer
_COUNTERFACTUAL = re.compile(r"(?<!\bI )(?<!\bwe )\bwould\b(?![ \t]+(?:say|guess|go|pick|answer|think|bet))",
                             re.IGNORECASE)
# A part that has a name of its own: "the first element", "its length", "each item", "the variable i"
_NAMED_PART = re.compile(r"^[ \t]*(?:the|its|each|every|both|all)[ \t]+(?P<words>[^\W\d]+(?:[ \t]+[^\W\d]+){0,3})",
                         re.IGNORECASE)
# A variable or an expression, then a verb ("i goes from 0 to 1", "len(s) is 3")
_CODE_SUBJECT = re.compile(r"^[ \t]*(?P<code>[A-Za-z_][\w.]*(?:\[[^\]\n]*\]|\([^)\n]*\))*)[ \t]+[a-z]")
_COPULA = (r"(?:is|are|was|were|equals|becomes|became|comes[ \t]+to|will[ \t]+be|must[ \t]+be|should[ \t]+be"
           r"|(?P<sign>==?|\u2192|->))")
_COPULA_END = re.compile(rf"[ \t]*{_COPULA}[ \t]*$", re.IGNORECASE)
# A value right after a noun that says what it measures: "a string of length 2", "at index 3"
_MEASURED_BEFORE = re.compile(r"\b(?:length|size|index|indices|position|line|step|iteration|round|pass|depth|level"
                              r"|row|column|width|height|offset|count|(?<!the )(?<!a )number|element|item|character"
                              r"|digit)[ \t]*$",
                              re.IGNORECASE)
# Words before another call that set the call asked about against it: what follows is said of the asked one
_CONTRASTED = re.compile(r"\b(?:unlike|than|versus|vs\.?|contrary[ \t]+to|as[ \t]+opposed[ \t]+to)[ \t]*`?$",
                         re.IGNORECASE)
# Where the run ends, and a variable named as the answer's: its value there is the answer ("At the end, ret_val is 0")
_END_OF_RUN = re.compile(r"\b(?:(?:at|in)[ \t]+the[ \t]+end|finally|eventually|ultimately|at[ \t]+last"
                         r"|after[ \t]+the[ \t]+(?:loop|last)"
                         r"|when[ \t]+the[ \t]+loop[ \t]+(?:ends|finishes|is[ \t]+done))\b", re.IGNORECASE)
_ANSWER_VARIABLE = re.compile(r"[ \t`]*(?:ret\w*|return\w*|result\w*|res|out|output\w*|ans|answer\w*)`?[ \t]*"
                              r"(?:is\b|==?|equals\b|becomes\b|will[ \t]+be\b)", re.IGNORECASE)
# Words of looking at the whole run again, not at one step of it: "passing through the loop once more"
_SECOND_LOOK = re.compile(r"\b(?:once[ \t]+more|again|anew|more[ \t]+carefully|closer)\b", re.IGNORECASE)
# A value, then what it gives: one step ("How: 3 gives 3, then adding 1 gives 4")
_VALUE_SUBJECT = re.compile(r"[ \t]*(?:-?\d+(?:\.\d+)?|'[^'\n]*'|\"[^\"\n]*\")[ \t]+(?:gives|becomes|yields"
                            r"|goes[ \t]+to|maps[ \t]+to|turns[ \t]+into|leads[ \t]+to)[ \t]*$", re.IGNORECASE)
# Words of the reply's own choice of a value: "I'd go with", "I get", "I believe it returns"
_SAYS_CHOSEN = re.compile(r"\b(?:I|we)(?:'d|'ll|[ \t]+(?:would|will|now))?[ \t]+(?:\w+[ \t]+)?(?:say|get|got|use"
                          r"|pick|choose|go[ \t]+with|believe|think|predict|answer|settle[ \t]+on)\b"
                          r"|\bgo(?:ing)?[ \t]+with\b", re.IGNORECASE)
# Right before a value, the reply's own guess ("Probably 0"); what a run of the program shows ("the console shows 0")
_GUESSED_BEFORE = re.compile(r"\b(?:probably|maybe|perhaps|likely|possibly|definitely|surely|honestly)[ \t,]*$",
                             re.IGNORECASE)
_RUN_SHOWS = re.compile(r"\b(?:console|terminal|interpreter|machine|screen|repl|python|shell|run)[ \t]+(?:says|shows"
                        r"|displays|prints|outputs|gives)\b", re.IGNORECASE)
# A value offered beside another: "either 3 or 0", "3 (or possibly 0)"
_HEDGED_BEFORE = re.compile(r"\b(?:or|either)[ \t]+(?:(?:possibly|maybe|perhaps|rather|else|even)[ \t]+)?$",
                            re.IGNORECASE)
# Right after a value (a few characters on at most), words that make it the answer: "0 as my prediction", "0 is my
# final answer", "0, so that's what gets returned"
_MADE_THE_ANSWER = re.compile(
    r"^[^\n]{0,24}?[ \t,]+(?:(?:as|is|was|would[ \t]+be|will[ \t]+be)[ \t]+(?:my|the|our)[ \t]+(?:\w+[ \t]+)?(?:answer"
    r"|prediction|pick|guess|output|result|choice|reply|submission)\b(?=[ \t]*(?:[.!?,;:)]|$))"
    r"|(?:so|and|which)[ \t]+(?:that's|that[ \t]+is|this[ \t]+is|it's|is)[ \t]+what[ \t]+(?:\w+[ \t]+){0,2}"
    r"(?:gets?[ \t]+returned|is[ \t]+returned|returns|comes[ \t]+out|is[ \t]+printed))",
    re.IGNORECASE)
# Arithmetic on numbers a clause may end in, and how much of it is worked out
_ARITHMETIC_END = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[ \t]*(?://|[-+*/%])[ \t]*-?\d+(?:\.\d+)?)+$")
# Right after a value, the reply's own opinion of it, which makes it an answer: "5, I think", "5 for sure", "5 maybe"
_OPINION = re.compile(
    r"[ \t,;:)\]\u2013\u2014-]*(?:(?:I|we)[ \t]+(?:think|believe|guess|reckon|suppose|bet|feel|know)"
    r"|(?:(?:also|just)[ \t]+)?(?:works?|fits?|would[ \t]+(?:also[ \t]+)?do|could[ \t]+(?:also[ \t]+)?work"
    r"|is[ \t]+(?:also[ \t]+)?(?:fine|valid|ok|okay|possible))|also|too|as[ \t]+well|that'?s[ \t]+(?:final|it)"
    r"|is[ \t]+what|is[ \t]+(?:f'?s|its)[ \t]+(?:value|output|result|answer)|<=?[ \t]*(?:output|answer|result)"
    r"|I'?m[ \t]+(?:pretty[ \t]+)?(?:sure|certain|confident)|in[ \t]+my[ \t]+(?:view|opinion)|for[ \t]+(?:sure|certain)"
    r"|honestly|in[ \t]+reality|in[ \t]+fact|probably|maybe|perhaps|likely"
    r"|(?:seems|looks|feels)[ \t]+(?:\w+[ \t]+)?(?:right|correct|likely|better|plausible)"
    rf"|is[ \t]+(?:the[ \t]+)?(?:{ADJECTIVE}[ \t]+)?(?:correct|right|final|it|one|value|answer"
    r"|output|result)"
    r"|(?:is|gets|was|will[ \t]+be)[ \t]+(?:returned|printed|produced|output)|comes[ \t]+out"
    r"|[(\[]?(?:final|answer)[)\]]?"
    r"|=[ \t]*(?:output|answer|result)|(?:<-+|\u2190)[ \t]*this|wins|gets[ \t]+my[ \t]+vote|imo|of[ \t]+course)\b",
    re.IGNORECASE)
_LEADING_MARKS = re.compile(r"[ \t>=/#<!~*_`-]*")
_FEW_WORDS = 3
_PART_WORDS = re.compile(r"\b(?:times|once|twice|thrice|elements?|items?|characters?|chars?|letters?|digits?|words?"
                         r"|more|less|fewer|left|remaining|total|each|apiece|so[ \t]+far|then|first|last|next|copies"
                         r"|occurrences?|entries|keys?|values?|pairs?|rows?|columns?|spaces?|bits?|bytes?|lines?|nodes?"
                         r"|calls?|min(?:imum)?|max(?:imum)?|smallest|largest|sum|length|count|index)\b", re.IGNORECASE)
_JOINED_END = re.compile(r"[ \t]*,?[ \t]*\b(?:and|or|vs\.?|versus)[ \t]*(?:(?:possibly|maybe|perhaps|even)[ \t]+)?$",
                         re.IGNORECASE)
_ARROW_END = re.compile(r"(?:->|=>|\u2192)[ \t]*$")
_SIGN_BEFORE_CALL = re.compile(r"[ \t]*(?:==?|\bis|\bequals)[ \t]*`?$", re.IGNORECASE)
_OPERATOR_AFTER = re.compile(r"[ \t]*(?:[-+*/%^&|<>@]|plus\b|minus\b|times\b|divided\b|multiplied\b|mod\b)",
                             re.IGNORECASE)
# After a value, a condition: the value is that case's when it names another ("for an empty list", "when n is 0")
_CONDITION_AFTER = re.compile(r"[ \t,]*(?:(?:only|just)[ \t]+)?(?:if|when|whenever|unless|for|with|in[ \t]+case|given"
                              r"|once|after|on)\b",
                              re.IGNORECASE)
# Words of a condition that make it another case than the call asked about: "If the list is empty, ..."; after a
# value ("0 for an empty list, 3 otherwise") also words of any or no value
_ANOTHER_CASE = "empty|other|another|different|negative|odd|even|larger|smaller|longer|shorter"
_CASE_WORDS = re.compile(rf"\b(?:{_ANOTHER_CASE})\b", re.IGNORECASE)
_OTHER_CASE_WORDS = re.compile(rf"\b(?:{_ANOTHER_CASE}|positive|any|every|each|nothing|none|missing|absent|zero)\b",
                               re.IGNORECASE)
# A label of a part of the computation, not of the answer: "Length of the list:", "Elements:", "Second value:"
_PART_LABEL = re.compile(
    r"(?:^|[,;(\u2013\u2014])[ \t>*_#-]*(?:(?:the|its)[ \t]+)?(?:(?:(?:first|second|third|fourth|fifth|last|next"
    r"|previous|\d+(?:st|nd|rd|th))[ \t]+(?:\w+[ \t]+)?(?:values?|elements?|items?))|(?:elements?|items?|characters?"
    r"|chars?|letters?|words?|keys?|entries|digits?|count|length|size|len|max(?:imum)?|min(?:imum)?|index|indices|position"
    r"|number[ \t]+of|inputs?|arguments?|parameters?)\b)[^:\n]{0,40}?[*_ \t]*:[*_ \t]*$", re.IGNORECASE)
# Before a value, what the program does with it, not what it gives: "add 3", "it iterates over [3, 1]"
_WORKED_ON_BEFORE = re.compile(
    r"\b(?:add(?:s|ed|ing)?|subtract\w*|multipl\w*(?:[ \t]+by)?|divid\w*(?:[ \t]+by)?|append\w*|prepend\w*|insert\w*"
    r"|remov\w*|push\w*|increment\w*(?:[ \t]+by)?|decrement\w*(?:[ \t]+by)?|iterat\w*[ \t]+(?:over|through)|loops?"
    r"[ \t]+(?:over|through)|goes[ \t]+through|takes|receives|called[ \t]+with|applied[ \t]+to)[ \t]*$", re.IGNORECASE)
# A variable's new value in a trace: "total becomes 3" (not "it becomes", nor "the result becomes")
_STATE_CHANGE = re.compile(r"[ \t]*`?(?P<name>[a-z_]\w*)`?[ \t]+(?:becomes|became|is[ \t]+now|changes[ \t]+to"
                           r"|is[ \t]+updated[ \t]+to)[ \t]*$")
# The last of values listed together: "adds 1, 2 and 3"
_LISTED_BEFORE = re.compile(r"(?:\d|['\")\]])[ \t]*,?[ \t]*and[ \t]*$", re.IGNORECASE)
# One step of many, which a condition may name ("after the second iteration", "for each element")
_A_STEP = re.compile(r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|next|each|every"
                     r"|\d+(?:st|nd|rd|th))\b(?![ \t]+(?:thoughts?|looks?|glance|try|tries|attempt|reading|check"
                     r"|inspection|opinion|pass))", re.IGNORECASE)
_NUMBER_AT = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
# Where a trace starts, not where it ends: "total starts at 0", "it is set to 0", ", starting from 0"
_INITIAL_STATE = re.compile(r"\b(?:start(?:s|ed|ing)?|begin(?:s|ning)?|began|initiali[sz]ed|set)[ \t]+"
                            r"(?:at|from|with|to|as)[ \t]*$|\b(?:initiali[sz]e|set)[ \t]+`?\w+`?[ \t]+to[ \t]*$",
                            re.IGNORECASE)
# A trace's step, which the value is the state after: "Iteration 1: 3", "after the first iteration: 3"
_TRACE_STEP = re.compile(r"\b(?:iterations?|steps?|rounds?|loops?|intermediate)\b", re.IGNORECASE)
# A label of code before a value: "x[0]: 3", "s.count('a'): 2"; not a REPL's output, "Out[1]: 3"
_CODE_LABEL = re.compile(r"(?:^|[,;(\u2013\u2014])[ \t>*_#-]*`?(?P<code>[^\s:`]+)`?[ \t]*:[ \t]*$")
_PROSE_WORDS = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+")  # "Double-checked", no subtraction
_ANSWER_LABEL = re.compile(r"[`*_#-]*(?:out|in|output|result|answer|ans)\b", re.IGNORECASE)
# Words that may name the answer itself: a value said of them is the answer's
_ANSWER_NOUN = {kind: re.compile(rf"\b(?:{nouns}|{ADJECTIVE}|answer|result|value|guess|pick|tally|verdict"
                                 r"|conclusion|solution|reply|prediction|predicted|choice)s?\b", re.IGNORECASE)
                for kind, nouns in (("output", r"output|outcome|return(?:ed)?"),
                                    ("input", r"input|argument|args|parameter|call"))}
# A variable named as the answer: its value is the answer's ("final_answer = 0")
_ANSWER_NAME = re.compile(r"(?:^|_)(?:answer|ans|output|final|prediction|predicted)(?:_|$)", re.IGNORECASE)
# Names that are no variable of a trace: the function, pronouns, one-letter words. A variable named "result" is one
# (CRUXEval's programs name theirs so): "result = 'ab'" is a step, and only the reply's last value concludes
# (:func:`taken_back._concluded`)
_NOT_VARIABLES = {"f", "final", "it", "this", "that", "which", "what", "there", "here", "a", "an", "we", "you"}


def standing(tail: str, answer: Check, reading: Reading) -> Check | None:
    """A value other than ``answer`` that stands as the whole rest of its clause anywhere in ``tail``, the text
    after the reply's last statement, whatever words come before it ("Scrap that \u2014 0.", "Updated: 0", "I'd go
    with 0.", "Es ist 0.", "TL;DR 0", "0 \u2705", a value alone on a line, a heading, a table's cell, a comment):
    once an answer is stated, a later value that ends its clause is a second answer unless the reader can tell it
    is not one (:func:`_not_an_answer`). A clause ends at a sentence's stop, a line's end, an HTML-like tag or
    LaTeX's dollar ("<final>0</final> is my pick", "$f(x)=0$ holds"); what follows the value in it may be marks,
    closing brackets and letters of scripts the reader does not read ("0\u3067\u3059"), nothing else."""
    tail = "".join(char for char in tail if unicodedata.category(char) != "Cf")
    prose = prose_spelled(masked(tail, [block.span(1) for block in FENCED.finditer(tail)]))
    read: dict[str, Check | None] = {}  # each value, read once: what it states where that is not the answer
    seen: set[tuple[str | None, str]] = set()  # a model that says one clause again and again says it once
    header: list[str] | None = None
    prompted = False
    for line in prose.split("\n"):
        if prompted:  # what a Python prompt's call of f prints: another call's output, or the asked one's (read apart)
            prompted = False
            continue
        prompted = (repl := REPL_CALL.match(line)) is not None and (
            reading.kind == "input" or _another_call(repl.group(1), reading))
        line = _LIST_MARK.sub("", line)  # "1. 0" is the value 0 in a numbered list
        row = line.strip()
        if not row.startswith("|"):
            header, clauses = None, [(None, clause) for clause in _clauses(line)]
        elif _TABLE_RULE.match(row):
            continue
        else:  # a table's row: its cells are clauses, each named by its column's header
            cells = row.strip("|").split("|")
            clauses = [(header[at] if header and at < len(header) else None, cell) for at, cell in enumerate(cells)]
            header = header or [cell.strip() for cell in cells]
        for column, clause in clauses:
            if (column, clause) in seen:
                continue
            seen.add((column, clause))
            if column and re.search("[^\\W\\d_]", column) and not _ANSWER_NOUN[reading.kind].search(column):
                continue  # a column of its own ("| i | total |"), not the answer's
            ending = _ending_value(clause)
            if ending and _OPERAND_BEFORE.search(ending[0]):
                ending = _arithmetic_ending(clause, reading)
            reversed_call = _said_of_the_call(ending, reading)
            for before, value, made in [*([(*ending, False)] if ending else []), *reversed_call,
                                        *_value_led(clause, reading), *_said_before_words(clause, reading)]:
                if not _beside_the_answer(before, answer, reading) and (
                        _another_value(before, reading) if made else _not_an_answer(before, value, reading)):
                    continue
                if value not in read:
                    if len(read) == MAX_CORRECTION_VALUES:
                        return Check(clause.strip()[:SHOWN_CHARS], AMBIGUOUS)
                    check = reading.read(reading.named(value))
                    other = states(check, reading.unstated) and not reading.same(answer, check)
                    read[value] = check if other else None
                if read[value] is not None:
                    return read[value]
    return None


def _value_led(clause: str, reading: Reading) -> list[tuple[str, str, bool]]:
    """A clause that opens with a value and says a few words of it, none of a part or a step ("5 lol", "5 (this one)",
    "> 5 pops out"): [(the marks before it, the value, False)]; else nothing."""
    lead = _LEADING_MARKS.match(clause).end()
    if not VALUE_START.match(clause, lead):
        return []
    rest = clause[lead:lead + PROSE_VALUE_CHARS]
    stated = prose_value(rest, reading)
    if stated is None:
        return []
    after = rest[stated[1]:]
    words = re.findall(r"[^\W\d_]+", after)
    if (not words or len(words) > _FEW_WORDS or re.search(r"[\d'\"\[{]", after) or _OPERATOR_AFTER.match(after)
            or _PART_WORDS.search(after) or _A_STEP.search(after) or _TRACE_STEP.search(after)):
        return []
    return [(clause[:lead], rest[:stated[1]].strip(), False)]


def _beside_the_answer(before: str, answer: Check, reading: Reading) -> bool:
    """Whether ``before`` ends in the answer and a word that sets another value beside it ("4 and 5", "between 4
    or 5", "4 vs 5"): the value after it is offered as an answer too."""
    joined = _JOINED_END.search(before)
    offered = _ending_value(before[:joined.start()]) if joined else None
    if offered is None:
        return False
    check = reading.read(reading.named(offered[1]))
    return states(check, reading.unstated) and reading.same(answer, check)


def _said_of_the_call(ending: tuple[str, str] | None, reading: Reading) -> list[tuple[str, str, bool]]:
    """Where a clause ends in the call asked about after a value and a sign ("5 == f([3, 1])", "5 is f([3, 1])"):
    (the text before the value, the value, True), the value said to be the call's; else nothing."""
    if ending is None or reading.kind != "output" or reading.returned(ending[1], "None") is None:
        return []
    sign = _SIGN_BEFORE_CALL.search(ending[0])
    said = _ending_value(ending[0][:sign.start()]) if sign else None
    return [(*said, True)] if said else []


def _arithmetic_ending(clause: str, reading: Reading) -> tuple[str, str] | None:
    """(the text before it, its value) where ``clause`` ends in arithmetic on numbers that words of returning, a
    noun of the answer or a choice say is the answer ("it equals 2 + 3", "Final: 5 * 1"); None otherwise, and for
    arithmetic :func:`reply_values.evaluated` refuses (too many operations, too large numbers)."""
    found = _ARITHMETIC_END.search(_TRAILING_MARKS.sub("", clause))
    if found is None:
        return None
    before = clause[:found.start()]
    region = _last_clause(before[-VERB_CHARS * 2:])
    label = _CODE_LABEL.search(before)
    if not (_says_the_answer(region, reading) or (label and _ANSWER_NOUN[reading.kind].search(label.group("code")))):
        return None
    value = evaluated(found.group().strip())
    return None if value is None else (before, value)


def _says_the_answer(region: str, reading: Reading) -> bool:
    """Whether the words ``region`` say a value after them is the answer: a verb of returning, a noun of the answer or
    the reply's own choice ("I'd go with")."""
    return any(words.search(region) for words in (_SAYS_RETURNED, _ANSWER_NOUN[reading.kind], _SAYS_CHOSEN,
                                                  _RUN_SHOWS)) or _GUESSED_BEFORE.search(region) is not None


def _said_before_words(clause: str, reading: Reading) -> Iterator[tuple[str, str, bool]]:
    """(the text before it, the value, whether words after it make it the answer) of each value in ``clause`` that
    words follow and that the clause says is the answer: after words of returning, a noun of the answer or a choice
    of the reply's own ("it returns 0 for sure", "the true output is rather 0 than 3", "I'd use f(0) in fact",
    "Either 3 or 0, I am not sure"), or before words that make it the answer ("0 as my prediction"). A value that
    an operator follows is an operand ("0 + 1"), and one that a condition about another case follows is that case's
    ("it returns 0 for an empty list")."""
    shown, cued, covered = _strings_masked(clause), 0, 0
    cues_of: dict[tuple[str, str], tuple[bool, bool, bool]] = {}  # a reply that loops repeats its windows
    for start in VALUE_START.finditer(shown):
        if cued == SENTENCE_CUTS:
            return
        if start.start() < covered:
            continue  # inside a value read already ("'ab', 2" is no 2)
        near = clause[max(0, start.start() - VERB_CHARS * 2):start.start()]
        rest = clause[start.start():start.start() + PROSE_VALUE_CHARS]
        window = (near, rest[:VERB_CHARS * 4])
        if window not in cues_of:
            cues_of[window] = _cues(*window, reading)
        said_before, made_the_answer, opinion_near = cues_of[window]
        if not (said_before or made_the_answer or opinion_near):
            continue
        cued += 1
        before = clause[:start.start()]
        stated = prose_value(rest, reading)
        if stated is None:
            continue
        covered = start.start() + stated[1]
        after = rest[stated[1]:]
        if not (said_before or made_the_answer or _OPINION.match(after)):
            continue
        if not _TRAILING_MARKS.sub("", after).strip() or (_OPERATOR_AFTER.match(after) and not _OPINION.match(after)):
            continue  # the clause's ending value, read as such; or an operand
        if _CONDITION_AFTER.match(after) and (_OTHER_CASE_WORDS.search(after) or _another_case(after, reading)):
            continue
        yield before, rest[:stated[1]].strip(), made_the_answer


def _cues(near: str, ahead: str, reading: Reading) -> tuple[bool, bool, bool]:
    """Whether the words ``near`` before a value say it is the answer, whether the words ``ahead`` from it make it
    the answer ("0 as my prediction"), and whether an opinion stands in their first part."""
    said_before = (_says_the_answer(_last_clause(near), reading) or _HEDGED_BEFORE.search(near) is not None
                   or _JOINED_END.search(near) is not None)
    return (said_before, _MADE_THE_ANSWER.match(ahead) is not None,
            _OPINION.search(ahead[:VERB_CHARS * 2]) is not None)


def _clauses(line: str) -> list[str]:
    """The clauses of ``line`` (:data:`_CLAUSE_BOUNDARY`), strings in it kept whole ("'Hi! Bob'")."""
    shown = _strings_masked(line)
    clauses, start = [], 0
    for boundary in _CLAUSE_BOUNDARY.finditer(shown):
        clauses.append(line[start:boundary.start()])
        start = boundary.end()
    return [*clauses, line[start:]]


def _strings_masked(line: str) -> str:
    """``line`` with the inside of each string it holds made quotes: a string opens at a quote that no letter,
    digit or quote precedes and closes at the next same quote that no letter or digit follows (an apostrophe
    inside a word, "it's", closes none). Linear: where each quote's string would close is found beforehand."""
    def a_word_char(char: str) -> bool:
        return char.isalnum() or char == "_"

    closes: dict[str, list[int]] = {quote: [-1] * (len(line) + 1) for quote in "'\""}
    following = {"'": -1, '"': -1}
    for position in range(len(line) - 1, -1, -1):
        if line[position] in following and not (position + 1 < len(line) and a_word_char(line[position + 1])):
            following[line[position]] = position
        for quote, positions in closes.items():
            positions[position] = following[quote]
    pieces, position, start = [], 0, 0
    while position < len(line):
        quote = line[position]
        if quote in following and not (position and (a_word_char(line[position - 1]) or line[position - 1] in "'\"\\")):
            end = closes[quote][position + 1]
            if end > position:
                pieces += [line[start:position], "'" * (end + 1 - position)]
                position = start = end + 1
                continue
        position += 1
    return "".join([*pieces, line[start:]])


def _ending_value(clause: str) -> tuple[str, str] | None:
    """(the text before it, the value) where ``clause`` ends in a value: the longest literal (or call of f with
    literal arguments) it ends in, marks and closing brackets after it aside ("(or rather 0)."); None when words
    follow the last value, or it is an item of a bracket left open ("f([1, "). Of the places a value may start,
    only those where the brackets after them balance are read, at most :data:`SENTENCE_CUTS` of them, so that a
    clause is read in time linear in its length."""
    clause = _TRAILING_MARKS.sub("", clause)
    clause = SAID_ASIDE.sub("", clause[:rejected.start()] if (rejected := REJECTED.search(clause)) else clause)
    for stripped in range(4):  # the clause itself, then without each closing bracket it ends in
        if not clause:
            return None
        depth, tried, found = 0, 0, None
        starts = {start.start() for start in VALUE_START.finditer(clause)}
        for position in range(len(clause) - 1, -1, -1):
            depth += (clause[position] in ")]}") - (clause[position] in "([{")
            if depth < 0 or tried == SENTENCE_CUTS:
                break
            if depth == 0 and position in starts:
                tried += 1
                if literal(clause[position:]):
                    found = position
        if found is not None:
            # inside a bracket that no closing one it ends in closes, the value is an item of an unfinished one
            # ("assert f([1, " cut off by the token limit), not a value standing alone
            return None if depth < 0 and not stripped else (clause[:found], clause[found:].strip())
        if clause[-1] not in ")]}":
            return None
        clause = _TRAILING_MARKS.sub("", clause[:-1])
    return None


def _not_an_answer(before: str, value: str, reading: Reading) -> bool:
    """Whether ``value``, which ends its clause after the text ``before`` it, is known to be no answer: it is one
    operand of an expression ("2 * 3"); another call than the one asked about says it ("the output of f([5]) is
    5", "f([1]) = 1"; for input prediction any call of f is the reply's trying inputs out, unless the value is a
    call itself); it is the value of something named other than the answer, a part or a variable ("the first
    element is 2", "the length comes to 4", "x = 3", "len(s) is 3", "1 + 2 = 3", "a string of length 2",
    a table's column of its own); its clause opens with a condition or says what would be (:func:`conditional`,
    "the result would be 'ab'"); for output prediction it is a call of f, which names no output, and for input
    prediction the output shown, a value said as an output ("It returns 0."), or one argument after words of a
    conclusion alone ("so 'ab'")."""
    region = _last_clause(before)
    if _OPERAND_BEFORE.search(before) or (_LISTED_BEFORE.search(before) and not _SAYS_RETURNED.search(region)):
        return True
    if reading.kind == "output" and value.startswith("f("):
        return True
    if reading.kind == "input" and not value.startswith("f(") and (reading.returned("", value) is not None
                                                                   or "f(" in before
                                                                   or AN_OUTPUT_AHEAD.search(before[-VERB_CHARS:])):
        return True
    if reading.kind == "output" and any(_another_call(call.group(), reading)
                                        and not _CONTRASTED.search(before, 0, call.start())
                                        for call in re.finditer(CALL, before)):
        return True
    subject = _CONNECTIVES.sub("", region)
    if (arrow := _ARROW_END.search(before)) and _a_variable(_last_clause(before[:arrow.start()]), True, reading):
        return True  # a step's new state: "result += s -> 'ab'"
    if (_MEASURED_BEFORE.search(before) or _PART_LABEL.search(before) or _WORKED_ON_BEFORE.search(before)
            or _a_state_change(subject, reading)
            or (conditional(before, len(before)) and _another_case(before, reading))):
        return True
    if ((_A_STEP.search(before) or _TRACE_STEP.search(before)) and not _ANSWER_NOUN[reading.kind].search(before)
            and not _SECOND_LOOK.search(before)) or _VALUE_SUBJECT.match(subject):
        return True
    label = _CODE_LABEL.search(before)
    if label and not _ANSWER_LABEL.match(label.group("code")) and not _PROSE_WORDS.fullmatch(label.group("code")) and (
            _a_variable(label.group("code").lstrip("`*_-# "), False, reading)):
        return True
    if (_HYPOTHETICAL.search(region) and (_COUNTERFACTUAL.search(region) or _another_case(before, reading))) or (
            _INITIAL_STATE.search(region) and not _ANSWER_NOUN[reading.kind].search(region)):
        return True
    if reading.kind == "input" and not subject.strip() and region.strip() and not value.startswith("f("):
        return True  # "so 'ab'": maybe one argument of several
    if _END_OF_RUN.search(before) and _ANSWER_VARIABLE.match(subject):
        return False
    if not (_SAYS_RETURNED.search(region) or _RUN_SHOWS.search(region)):
        named, code = _NAMED_PART.match(subject), _CODE_SUBJECT.match(subject)
        if named and not _ANSWER_NOUN[reading.kind].search(named.group("words")):
            return True
        if code and _a_variable(code.group("code"), False, reading):
            return True
    copula = _COPULA_END.search(subject)
    return copula is not None and _a_variable(subject[:copula.start()], copula.group("sign") is not None, reading)


def _a_state_change(subject: str, reading: Reading) -> bool:
    """Whether ``subject`` is a variable of a trace and a verb of its changing ("total becomes"), not the answer's."""
    change = _STATE_CHANGE.match(subject)
    return change is not None and _a_variable_name(change["name"]) and not (
        _ANSWER_NOUN[reading.kind].search(change["name"]) or _ANSWER_VARIABLE.match(f"{change['name']} is"))


def _literal_key(text: str) -> str | None:
    """A Python literal's value as a key that spelling does not change (``[3,1]`` and ``[3, 1]``); None if not one."""
    try:
        return ast.dump(thread_safe_ast.parse(text.strip(), mode="eval").body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _literals(text: str) -> Iterator[str]:
    """The literals ``text`` spells, outermost brackets whole ("[[1, 2], [3]]", not "[1, 2]"), quoted strings and
    numbers."""
    position = 0
    while position < len(text):
        char = text[position]
        if char in "[({":
            depth, end = 0, position
            for end in range(position, len(text)):
                depth += (text[end] in "[({") - (text[end] in "])}")
                if depth == 0:
                    break
            yield text[position:end + 1]
            position = end + 1
        elif char in "'\"":
            end = text.find(char, position + 1)
            if end < 0:
                return
            yield text[position:end + 1]
            position = end + 1
        elif (number := _NUMBER_AT.match(text, position)) and not (position and (text[position - 1].isalnum()
                                                                                 or text[position - 1] == "_")):
            yield number.group()
            position = number.end()
        else:
            position += 1


def _another_case(before: str, reading: Reading) -> bool:
    """Whether a condition or a hypothetical, the words ``before`` a value, is about another case than the call
    asked about: it names one step of many ("after the second iteration", "for each element") or a value that is
    none of the call's arguments ("If n were 0", "For n = 1"). Not "Assuming I traced it right, …", "If we trace
    it more carefully, …", "On closer inspection I would say …", nor "For [3, 1], …" of f([3, 1]): a model taking
    its answer back in words of a condition. For input prediction, whose call is the answer (``arguments`` is
    empty), any value the condition names makes it another case."""
    return (reading.arguments is None or _A_STEP.search(before) is not None or _CASE_WORDS.search(before) is not None
            or _another_value(before, reading))


def _another_value(before: str, reading: Reading) -> bool:
    """Whether ``before`` names a literal that is none of the call's arguments (for input prediction, any): the
    only case that a value said to be the answer ("…, so that's what gets returned") can be of."""
    return reading.arguments is None or any((key := _literal_key(literal)) is not None and key not in reading.arguments
                                            for literal in _literals(before))


def _an_assignment(text: str) -> bool:
    """Whether ``text`` is one assignment of Python to variables other than the answer's ("total += 1")."""
    try:
        (statement,) = thread_safe_ast.parse(text.strip()).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    targets = statement.targets if isinstance(statement, ast.Assign) else (
        [statement.target] if isinstance(statement, ast.AugAssign) else [])
    return bool(targets) and all(isinstance(target, ast.Name) and _a_variable_name(target.id)
                                 for target in targets)


def _a_variable_name(name: str) -> bool:
    return name != "I" and name.lower() not in _NOT_VARIABLES


def _last_clause(before: str) -> str:
    """The words of ``before`` after its last opening of a clause outside brackets (:data:`_CLAUSE_OPENER`):
    "len([1, 2]) is" of "and len([1, 2]) is"."""
    depth = 0
    for position in range(len(before) - 1, -1, -1):
        if before[position] in ")]}":
            depth += 1
        elif before[position] in "([{":
            depth -= 1
            if depth < 0:
                return before[position + 1:]
        elif depth == 0 and _CLAUSE_OPENER.match(before, position):
            return before[position + 1:]
    return before


def _a_variable(text: str, assigned: bool, reading: Reading) -> bool:
    """Whether ``text`` is Python that names a part of the computation, not the answer: an expression ("len(s)",
    "s[0]", "1 + 2", "'ab' * 2") or a variable's name that looks like code ("x", "n", "new_text", any name before
    "=" or "==", "result" too), not a pronoun nor f."""
    try:
        node = thread_safe_ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _an_assignment(text)
    if isinstance(node, ast.Constant):
        return False
    if isinstance(node, ast.Name):
        name = node.id
        return _a_variable_name(name) and not _ANSWER_NAME.search(name) and (assigned or len(name) == 1 or "_" in name
                                                      or any(char.isdigit() for char in name))
    calls = [call for call in ast.walk(node) if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
             and call.func.id == "f"]
    return not (calls and reading.kind == "output" and not all(
        _another_call(ast.get_source_segment(text.strip(), call) or "", reading) for call in calls))


def _another_call(call: str, reading: Reading) -> bool:
    """Whether ``call`` is a call of f other than the one asked about, as far as the reader can tell: one with
    arguments by keyword or unpacked ("f(x=[3, 1])", "f(*[[3, 1]])") may be the asked one, spelt otherwise."""
    try:
        node = thread_safe_ast.parse(call.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return (isinstance(node, ast.Call) and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args)
            and reading.returned(call, "None") is None)
