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

The benchmark says how one statement reads (a :class:`Reading`); this module finds the statements.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache, partial

from dynbench_tasks.benchmarks.execution import Check
from mutators import thread_safe_ast

AMBIGUOUS = "ambiguous"
EMPTY, UNPARSEABLE = "empty", "unparseable"
DONE = "# done"  # the paper prompt's end of answer: a mark, never the end of what is read
MAX_REPLY_CHARS = 2_000_000  # a longer reply is not read at all (its reasoning included)
MAX_STATEMENTS = 64  # distinct statements read in one reply; past them the reply is ambiguous
_SHOWN_CHARS = 200  # of an ambiguous reply's statements, as the sample logs them
_STATEMENT_LINES = 20  # lines an assert statement may span
_SENTENCE_CUTS = 16  # places of each kind a sentence's value may end, tried from the first
_VALUE_BELOW = 2  # lines below "The output is:" its value may stand on (a blank one between)

# Opening and closing tags of a reasoning block: <think>, </thinking>, <seed:think>, [THOUGHT], [/THOUGHT], ...
_REASONING = re.compile(
    r"<(/?)(?:seed:)?(?:think|thinking|thoughts?|reasoning|reflection|scratchpad)\s*>"
    r"|\[(/?)(?:THOUGHTS?|THINK|THINKING|REASONING)\]", re.IGNORECASE)
_TAGGED = re.compile(r"\[ANSWER\](.*?)(?:\[/ANSWER\]|(?=\[ANSWER\])|\Z)", re.IGNORECASE | re.DOTALL)
_CLOSING_TAG = re.compile(r"\[/ANSWER\]", re.IGNORECASE)
_FENCED = re.compile(r"^[ \t]*```[^\n]*\n(.*?)(?:^[ \t]*```[^\n]*$|\Z)", re.MULTILINE | re.DOTALL)
_ASSERT_LINE = re.compile(r"^[ \t]*assert\b", re.MULTILINE)
_ENDS_BLOCK = re.compile(r"^[ \t]*```|\[/?ANSWER\]", re.IGNORECASE)
# A call of f as prose writes it: its parentheses balanced (two levels deep inside it, strings aside), so that
# finding one is linear in the text ("f()" written 6,000 times, or "f(" unclosed, cost quadratic time with a
# lazy match to the line's end)
_ARGUMENT = r"(?:'[^'\n]*'|\"[^\"\n]*\"|[^\n()'\"])"
_CALL = rf"f\((?:{_ARGUMENT}|\((?:{_ARGUMENT}|\({_ARGUMENT}*\))*\))*\)"
# Where a sentence that names the answer may start: a line's start (after list markers, quotes and
# emphasis), a sentence's end, or a clause's after a comma, colon or semicolon ("Wait, no: the answer is
# W" states W beside the answer it takes back).
_START = (r"(?:^[ \t>*_#-]*+(?:\d+[.)][ \t]*)?|(?<=[.!?])[ \t]+|(?<=[,;:])[ \t]+|(?<=:\*\*)[ \t]+)"
          r"(?:(?:so|thus|therefore|hence)\b,?[ \t]*)?"
          r"(?:I[ \t]+(?:think|believe|guess|would[ \t]+say|'d[ \t]+say)(?:[ \t]+that)?[ \t]+)?[*_]*")
# Words that say a value is the answer's ("the true output", "the final result")
_ADJECTIVE = r"(?:final|expected|correct|actual|resulting|true|real|right|exact|proper|ultimate|definitive)"
_OUTPUT_NOUN = (rf"(?:the[ \t]+)?(?:(?:{_ADJECTIVE}[ \t]+){{0,2}}(?:output|answer|return(?:ed)?[ \t]+value"
                r"|value[ \t]+returned)"
                rf"|(?:{_ADJECTIVE}[ \t]+){{1,2}}result)")
_INPUT_NOUN = (rf"(?:(?:the|an?|one)[ \t]+)?(?:(?:possible|valid|suitable|{_ADJECTIVE})[ \t]+)?"
               r"(?:input|answer)")
_OF_THE_CALL = (r"(?:[ \t]+(?:of|for)[ \t]+(?:the[ \t]+)?(?:function(?:[ \t]+call)?|call|code|program|given[ \t]+"
                rf"input|`?{_CALL}`?))?")
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
    rf"{_START}(?:the[ \t]+call[ \t]+)?`?({_CALL})`?[ \t]+(?:returns|will[ \t]+return|would[ \t]+return|"
    r"evaluates[ \t]+to|gives|outputs|is)[ \t]*:?[*_]*[ \t]*", re.IGNORECASE | re.MULTILINE)
# "The function returns X.", "So f returns X.", where X is the whole rest of the sentence (:func:`_sentences`)
_FUNCTION_RETURNS = re.compile(
    rf"{_START}(?:(?:(?:the[ \t]+)?(?:function|call|code|program)(?:[ \t]+`?f`?)?|`?f`?|it)[ \t]+|(?<![^\n]))(?:returns"
    r"|will[ \t]+return|would[ \t]+return|evaluates[ \t]+to|outputs)[ \t]*:?[ \t]*", re.IGNORECASE | re.MULTILINE)
# A line that is the call asked about, a sign and its value, LaTeX's delimiters aside: "$$f([3, 1]) = 4$$"
_COMMENT = re.compile(r"[ \t]+#[^\n]*$")
_CALL_LINE = re.compile(rf"^[ \t>*_-]*+(?i:(?:so|thus|therefore|hence),?[ \t]+)?(?:(?:\$\$?|\\\[|\\\()[ \t]*+)?"
                        rf"`?(?P<call>{_CALL})`?[ \t]*(?:==?|\u2192|->|=>)[ \t]*",
                        re.MULTILINE)
# Verbs of a function's returning a value
_RETURNING = (r"(?:returns?|returned|(?:gives?|gave)(?:[ \t]+back)?|(?:hands?|handed)[ \t]+back|yields?|produces?"
              r"|outputs?|prints?|printed|equals?|evaluates[ \t]+to)")
_OUTPUT_VERB = (rf"(?:{_RETURNING}|ends[ \t]+up(?:[ \t]+(?:as|being|with|at))?|comes[ \t]+out(?:[ \t]+(?:as|to))?"
                r"|results[ \t]+in)")
# Right before a value, words that make it an output, never an input ("let me trace again: it ends up as 'abab'")
_AN_OUTPUT_AHEAD = re.compile(rf"(?:\b{_OUTPUT_VERB}|==|->|=>)[ \t]*$", re.IGNORECASE)
_VERB_CHARS = 40  # of the text before a value, read for such words
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
    rf"(?<![\w.])`?({_CALL})`?[ \t]*(?:(?P<not>!=|\u2260|\\neq?\b)|==?|\u2192|->|=>|\u21d2|\|)[ \t]*")
# A Python prompt's call of f, and the line it prints below it
_REPL_CALL = re.compile(rf"[ \t]*>>>[ \t]*({_CALL})[ \t]*$", re.MULTILINE)
_REPL = re.compile(rf"^{_REPL_CALL.pattern[:-1]}\n[ \t]*(?!>>>|```|\.\.\.)([^\n]*\S[^\n]*)$", re.MULTILINE)
_MATH_END = re.compile(r"(?<![ \t])[ \t]*+(?:\$+|\\[\])])[ \t]*$")
# "0 is what it returns", "0 is the true output": the value before words that say it is the answer
_VALUE_SAID_BEFORE = {kind: re.compile(
    rf"(?<![ \t])[ \t]++(?:is|was|will[ \t]+be)[ \t]+(?:the[ \t]+)?(?:{_ADJECTIVE}[ \t]+){{0,2}}{nouns}"
    r"(?=[ \t]*(?:[.!;]|$))",
    re.IGNORECASE | re.MULTILINE) for kind, nouns in (
        ("output", rf"(?:output|answer|result|return[ \t]+value|what[ \t]+(?:it|f|this|the[ \t]+(?:function|call|code))"
                   rf"[ \t]+(?:\w+[ \t]+)?{_OUTPUT_VERB})"),
        ("input", r"(?:input|answer|call|arguments?)"))}
_SENTENCE_STARTS = re.compile(r"(?:^|(?<=[.!?:;]))[ \t>*_#-]*+", re.MULTILINE)
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
_CLAUSE_OR_LINE_END = re.compile(r"[.!?;](?=\s|$)|\n")
# What may follow the value in its sentence without changing it: "It returns 0 in the end.", "It is 0, not 'ab'."
_SAID_ASIDE = re.compile(r"(?:,|(?<![ \t]))[ \t]++(?:(?:in|at)[ \t]+the[ \t]+end|after[ \t]+all|in[ \t]+fact|finally"
                         r"|eventually|ultimately|overall|here|then|now|instead|too|anyway|though|actually|really|indeed"
                         r"|in[ \t]+total|in[ \t]+all|altogether)[ \t]*$",
                         re.IGNORECASE)
_REJECTED = re.compile(r",[ \t]*(?:(?:and|but)[ \t]+)?not[ \t]", re.IGNORECASE)
# LaTeX's \boxed{X}, as reasoning models end with it: X runs to the line's last closing brace
_BOXED = re.compile(r"\\boxed\{([^\n]*)\}")
_LATEX_OR = re.compile(r"\\text\{[^}]*\bor\b|\\(?:lor|vee)\b")
_SENTENCE_END = re.compile(r"[.!?;](?=[ \t]+[A-Z(\[]|[ \t]*$)")
_WORD_END = re.compile(r"[,;:]?[ \t]+")
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
# Where a value may start in prose: a number, a string, a bracket, a constant or a call of f (not a
# quote inside a word: "it's"), with the signs written right before it ("-(3)" is not (3)); a sign after a
# space is a list's bullet ("- 'ab'")
_VALUE_START = re.compile(r"(?<![0-9A-Za-z_\u00c0-\u024f\u0370-\u04ff'\"\\+~-])"  # CJK glued on ("\u662f5") is no name
                          r"[-+~]*+(?:\.?\d|[bBrRuU]?['\"]|[\[{(]|(?:True|False|None)\b|f\()")
_MAX_CORRECTION_VALUES = 64  # places a value may start after a correction; past them the reply is ambiguous
_PROSE_VALUE_CHARS = 1_000  # of the line from such a place, read for its value (a longer value: its items are read)
# Markdown emphasis around a value ("**0**", "*0*."): stars that open a word or close one, never an operator
# between spaces or values ("'q' * 2", "2**3")
_EMPHASIS = re.compile(r"(?<![^\s(\[{:,])\*++(?=\S)|(?<=[^\s*])\*++(?![^\s.,;:!?)\]}])")
# Prose after the answer spells values as prose does: typographic quotes (\u201cabc\u201d, \u2018abc\u2019) delimit
# strings, and a value in words right after a verb or a label's colon, ending its clause, is that value ("it
# returns an empty list.", "it's zero,", "Final value: nothing"); "true"/"false" only after a verb of returning
# ("that is true" is no value).
_QUOTES = str.maketrans({**dict.fromkeys("\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033\uff02", '"'),
                         **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\uff07", "'")})
_EMPTY_VALUES = {"list": "[]", "array": "[]", "string": "''", "str": "''", "dict": "{}", "dictionary": "{}",
                 "map": "{}", "tuple": "()", "set": "set()", "bytes": "b''"}
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
_WORD_VALUES = {**{word: str(number) for number, word in enumerate(_NUMBER_WORDS)},
                "nothing": "None", "none": "None", "null": "None", "true": "True", "false": "False"}
_IDEOGRAPHIC_STOP = re.compile(r"\u3002(?=\s|$)")
_SPELLED = re.compile(
    rf"\b(?P<verb>(?P<returning>{_RETURNING})|is|are|was|were|be|been|being|becomes?|became|as|to|at|with|'s|:)[ \t]+"
    r"(?:(?:just|simply|only|actually|really|now|then|instead|still)[ \t]+)?"
    rf"(?:(?:an?|the)[ \t]+(?=empty)|(?P<sign>minus|negative)[ \t]+)?"
    rf"(?:empty[ \t]+(?P<empty>{'|'.join(_EMPTY_VALUES)})|(?P<word>{'|'.join(_WORD_VALUES)})|(?<=[ \t])(?P<digits>\d+))"
    r"\b(?=[ \t]*(?:[.,;:!?)]|$))", re.IGNORECASE | re.MULTILINE)


# Where a clause ends for a value that stands as its whole rest (:func:`_standing`): a sentence's stop, an
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
_SAYS_RETURNED = re.compile(rf"\b(?:{_OUTPUT_VERB}|reads?)\b", re.IGNORECASE)
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
_OPERATIONS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)
_MAX_OPERATIONS, _MAX_OPERAND = 8, 10**12
# Right after a value, the reply's own opinion of it, which makes it an answer: "5, I think", "5 for sure", "5 maybe"
_OPINION = re.compile(
    r"[ \t,;:)\]\u2013\u2014-]*(?:(?:I|we)[ \t]+(?:think|believe|guess|reckon|suppose|bet|feel|know)"
    r"|(?:(?:also|just)[ \t]+)?(?:works?|fits?|would[ \t]+(?:also[ \t]+)?do|could[ \t]+(?:also[ \t]+)?work"
    r"|is[ \t]+(?:also[ \t]+)?(?:fine|valid|ok|okay|possible))|also|too|as[ \t]+well|that'?s[ \t]+(?:final|it)"
    r"|is[ \t]+what|is[ \t]+(?:f'?s|its)[ \t]+(?:value|output|result|answer)|<=?[ \t]*(?:output|answer|result)"
    r"|I'?m[ \t]+(?:pretty[ \t]+)?(?:sure|certain|confident)|in[ \t]+my[ \t]+(?:view|opinion)|for[ \t]+(?:sure|certain)"
    r"|honestly|in[ \t]+reality|in[ \t]+fact|probably|maybe|perhaps|likely"
    r"|(?:seems|looks|feels)[ \t]+(?:\w+[ \t]+)?(?:right|correct|likely|better|plausible)"
    rf"|is[ \t]+(?:the[ \t]+)?(?:{_ADJECTIVE}[ \t]+)?(?:correct|right|final|it|one|value|answer"
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
_ANSWER_NOUN = {kind: re.compile(rf"\b(?:{nouns}|{_ADJECTIVE}|answer|result|value|guess|pick|tally|verdict"
                                 r"|conclusion|solution|reply|prediction|predicted|choice)s?\b", re.IGNORECASE)
                for kind, nouns in (("output", r"output|outcome|return(?:ed)?"),
                                    ("input", r"input|argument|args|parameter|call"))}
# A variable named as the answer: its value is the answer's ("final_answer = 0")
_ANSWER_NAME = re.compile(r"(?:^|_)(?:answer|ans|output|final|prediction|predicted)(?:_|$)", re.IGNORECASE)
# Names that are no variable of a trace: the function, pronouns, one-letter words. A variable named "result" is one
# (CRUXEval's programs name theirs so): "result = 'ab'" is a step, and only the reply's last value concludes
# (:func:`_concluded`)
_NOT_VARIABLES = {"f", "final", "it", "this", "that", "which", "what", "there", "here", "a", "an", "we", "you"}
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
    :func:`_literal_key` gives it, or None where they are not known."""

    read: Callable[[str], Check]
    named: Callable[[str], str]
    returned: Callable[[str, str], str | None]
    same: Callable[[Check, Check], bool]
    kind: str
    unstated: tuple[str, ...] = ()
    arguments: frozenset[str] | None = None


class _TooManyStatements(Exception):
    """More distinct statements than :data:`MAX_STATEMENTS` in one reply."""


def visible_text(reply: str) -> str | None:
    """The reply without its reasoning blocks; None when one is left open."""
    pieces, depth, position = [], 0, 0
    for tag in _REASONING.finditer(reply):
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
    for block in _FENCED.finditer(text):
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


def _masked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the given spans blanked out (line ends kept), so sentences are read outside them."""
    pieces, position = [], 0
    for start, end in sorted(spans):
        if start < position:
            continue
        pieces += [text[position:start], re.sub(r"[^\n]", " ", text[start:end])]
        position = end
    return "".join([*pieces, text[position:]])


_EMPHASIS_CLOSED = re.compile(r"([^*_\n]+?)(?<=\S)[*_]{1,2}(?=[\s.,;:!?)]|$)")


def _value_texts(rest: str) -> Iterator[tuple[str, int]]:
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
    for end in list(_SENTENCE_END.finditer(rest))[:_SENTENCE_CUTS]:
        if rest[end.start()] == "?":  # "The output is 3? No, 4.": a question states no answer
            continue
        yield rest[:end.start()], lead + end.start()
    yield rest, lead + len(rest)
    for cut in list(_WORD_END.finditer(rest))[:_SENTENCE_CUTS]:
        if cut.start() > 0:
            yield rest[:cut.start()], lead + cut.start()


def _sentences(text: str, reading: Reading) -> Iterator[tuple[int, int, Check]]:
    """(start, end, read statement) of every sentence that names the answer, outside tags and fences;
    ``end`` is where its value ends."""
    for named in _NAMED[reading.kind].finditer(text):
        start, rest = _value_line(text, named.end())
        if stated := _first_stated(rest, reading, reading.named):
            yield named.start(), start + stated[1], stated[0]
    for boxed in _BOXED.finditer(text):
        if _LATEX_OR.search(boxed.group(1)):  # "\\boxed{4 \\text{ or } 5}": two answers offered
            yield boxed.start(), boxed.end(), Check(boxed.group(1)[:_SHOWN_CHARS], AMBIGUOUS)
        elif stated := _first_stated(boxed.group(1), reading, reading.named):
            yield boxed.start(), boxed.end(), stated[0]
    for returns in _RETURNS.finditer(text):
        start, rest = _value_line(text, returns.end())
        if stated := _first_stated(rest, reading, partial(reading.returned, returns.group(1))):
            yield returns.start(), start + stated[1], stated[0]
    # what the function returns is the answer only of output prediction; for input prediction it is the output shown
    for said in [*(_FUNCTION_RETURNS.finditer(text) if reading.kind == "output" else ()), *_CALL_LINE.finditer(text)]:
        rest = _MATH_END.sub("", text[said.end():said.end() + _PROSE_VALUE_CHARS].split("\n", 1)[0])
        value = _whole_sentence_value(_prose_spelled(_COMMENT.sub("", rest))) or _evaluated(rest.strip())
        stated = value and (reading.returned(said["call"], value) if said.re is _CALL_LINE else reading.named(value))
        if stated and not _conditional(text, said.start()):
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
    if words.startswith("empty ") and words[6:] in _EMPTY_VALUES:
        return _EMPTY_VALUES[words[6:]]
    return _WORD_VALUES.get(words, value)


def _first_stated(rest: str, reading: Reading, statement: Callable[[str], str | None]) -> tuple[Check, int] | None:
    """The first value a sentence's ``rest`` may end at that states an answer, and where it ends in
    ``rest``; a value joined by ``or`` or ``and`` ("3 or 4") hedges between answers and is ambiguous."""
    for value, end in _value_texts(rest):
        value = _in_digits(value[:rejected.start()] if (rejected := _REJECTED.search(value)) else value)
        text = statement(value) if value and not _a_word(value) else None
        check = reading.read(text) if text else None
        if check is not None and _states(check, reading.unstated):
            return (Check(value, AMBIGUOUS) if _hedged(value) else check), end
    return None


def _correction(tail: str, answer: Check, reading: Reading) -> Check | None:
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
    scope = _prose_spelled(scope)
    position, places = 0, 0
    for start in _VALUE_START.finditer(scope):
        if start.start() < position:
            continue  # inside a value read already
        if places == _MAX_CORRECTION_VALUES:
            return Check(scope[:_SHOWN_CHARS], AMBIGUOUS)
        places += 1
        rest = scope[start.start():start.start() + _PROSE_VALUE_CHARS].split("\n", 1)[0]
        stated = _shown_call(rest, reading) or _prose_value(rest, reading)
        if stated is None:
            continue
        if stated[0] is None or _the_shown_output(rest[:stated[1]], scope[:start.start()], reading):
            position = start.start() + stated[1]  # the call the output is asked of, or the output shown: no answer
            continue
        if not reading.same(answer, stated[0]):
            return stated[0]
        position = start.start() + stated[1]
    return None


def _prose_spelled(text: str) -> str:
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
    value = _EMPTY_VALUES[found.group("empty").lower()] if found.group("empty") else _WORD_VALUES.get(word, "")
    return f"{found.group('verb')} {sign}{value or found.group('digits')}"


def _standing(tail: str, answer: Check, reading: Reading) -> Check | None:
    """A value other than ``answer`` that stands as the whole rest of its clause anywhere in ``tail``, the text
    after the reply's last statement, whatever words come before it ("Scrap that \u2014 0.", "Updated: 0", "I'd go
    with 0.", "Es ist 0.", "TL;DR 0", "0 \u2705", a value alone on a line, a heading, a table's cell, a comment):
    once an answer is stated, a later value that ends its clause is a second answer unless the reader can tell it
    is not one (:func:`_not_an_answer`). A clause ends at a sentence's stop, a line's end, an HTML-like tag or
    LaTeX's dollar ("<final>0</final> is my pick", "$f(x)=0$ holds"); what follows the value in it may be marks,
    closing brackets and letters of scripts the reader does not read ("0\u3067\u3059"), nothing else."""
    tail = "".join(char for char in tail if unicodedata.category(char) != "Cf")
    prose = _prose_spelled(_masked(tail, [block.span(1) for block in _FENCED.finditer(tail)]))
    read: dict[str, Check | None] = {}  # each value, read once: what it states where that is not the answer
    seen: set[tuple[str | None, str]] = set()  # a model that says one clause again and again says it once
    header: list[str] | None = None
    prompted = False
    for line in prose.split("\n"):
        if prompted:  # what a Python prompt's call of f prints: another call's output, or the asked one's (read apart)
            prompted = False
            continue
        prompted = (repl := _REPL_CALL.match(line)) is not None and (
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
                    if len(read) == _MAX_CORRECTION_VALUES:
                        return Check(clause.strip()[:_SHOWN_CHARS], AMBIGUOUS)
                    check = reading.read(reading.named(value))
                    other = _states(check, reading.unstated) and not reading.same(answer, check)
                    read[value] = check if other else None
                if read[value] is not None:
                    return read[value]
    return None


def _value_led(clause: str, reading: Reading) -> list[tuple[str, str, bool]]:
    """A clause that opens with a value and says a few words of it, none of a part or a step ("5 lol", "5 (this one)",
    "> 5 pops out"): [(the marks before it, the value, False)]; else nothing."""
    lead = _LEADING_MARKS.match(clause).end()
    if not _VALUE_START.match(clause, lead):
        return []
    rest = clause[lead:lead + _PROSE_VALUE_CHARS]
    stated = _prose_value(rest, reading)
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
    return _states(check, reading.unstated) and reading.same(answer, check)


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
    an expression with more than :data:`_MAX_OPERATIONS` operations or numbers past :data:`_MAX_OPERAND`."""
    found = _ARITHMETIC_END.search(_TRAILING_MARKS.sub("", clause))
    if found is None:
        return None
    before = clause[:found.start()]
    region = _last_clause(before[-_VERB_CHARS * 2:])
    label = _CODE_LABEL.search(before)
    if not (_says_the_answer(region, reading) or (label and _ANSWER_NOUN[reading.kind].search(label.group("code")))):
        return None
    value = _evaluated(found.group().strip())
    return None if value is None else (before, value)


def _says_the_answer(region: str, reading: Reading) -> bool:
    """Whether the words ``region`` say a value after them is the answer: a verb of returning, a noun of the answer or
    the reply's own choice ("I'd go with")."""
    return any(words.search(region) for words in (_SAYS_RETURNED, _ANSWER_NOUN[reading.kind], _SAYS_CHOSEN,
                                                  _RUN_SHOWS)) or _GUESSED_BEFORE.search(region) is not None


def _evaluated(expression: str) -> str | None:
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


def _said_before_words(clause: str, reading: Reading) -> Iterator[tuple[str, str, bool]]:
    """(the text before it, the value, whether words after it make it the answer) of each value in ``clause`` that
    words follow and that the clause says is the answer: after words of returning, a noun of the answer or a choice
    of the reply's own ("it returns 0 for sure", "the true output is rather 0 than 3", "I'd use f(0) in fact",
    "Either 3 or 0, I am not sure"), or before words that make it the answer ("0 as my prediction"). A value that
    an operator follows is an operand ("0 + 1"), and one that a condition about another case follows is that case's
    ("it returns 0 for an empty list")."""
    shown, cued, covered = _strings_masked(clause), 0, 0
    for start in _VALUE_START.finditer(shown):
        if cued == _SENTENCE_CUTS:
            return
        if start.start() < covered:
            continue  # inside a value read already ("'ab', 2" is no 2)
        near = clause[max(0, start.start() - _VERB_CHARS * 2):start.start()]
        region = _last_clause(near)
        rest = clause[start.start():start.start() + _PROSE_VALUE_CHARS]
        said_before = _says_the_answer(region, reading) or _HEDGED_BEFORE.search(near) or _JOINED_END.search(near)
        if not (said_before or _MADE_THE_ANSWER.match(rest[:_VERB_CHARS * 4])
                or _OPINION.search(rest[:_VERB_CHARS * 2])):
            continue
        cued += 1
        before = clause[:start.start()]
        stated = _prose_value(rest, reading)
        if stated is None:
            continue
        covered = start.start() + stated[1]
        after = rest[stated[1]:]
        if not (said_before or _MADE_THE_ANSWER.match(rest[:_VERB_CHARS * 4]) or _OPINION.match(after)):
            continue
        if not _TRAILING_MARKS.sub("", after).strip() or (_OPERATOR_AFTER.match(after) and not _OPINION.match(after)):
            continue  # the clause's ending value, read as such; or an operand
        if _CONDITION_AFTER.match(after) and (_OTHER_CASE_WORDS.search(after) or _another_case(after, reading)):
            continue
        yield before, rest[:stated[1]].strip(), _MADE_THE_ANSWER.match(rest[:_VERB_CHARS * 4]) is not None


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
    only those where the brackets after them balance are read, at most :data:`_SENTENCE_CUTS` of them, so that a
    clause is read in time linear in its length."""
    clause = _TRAILING_MARKS.sub("", clause)
    clause = _SAID_ASIDE.sub("", clause[:rejected.start()] if (rejected := _REJECTED.search(clause)) else clause)
    for stripped in range(4):  # the clause itself, then without each closing bracket it ends in
        if not clause:
            return None
        depth, tried, found = 0, 0, None
        starts = {start.start() for start in _VALUE_START.finditer(clause)}
        for position in range(len(clause) - 1, -1, -1):
            depth += (clause[position] in ")]}") - (clause[position] in "([{")
            if depth < 0 or tried == _SENTENCE_CUTS:
                break
            if depth == 0 and position in starts:
                tried += 1
                if _literal(clause[position:]):
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
    a table's column of its own); its clause opens with a condition or says what would be (:func:`_conditional`,
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
                                                                   or _AN_OUTPUT_AHEAD.search(before[-_VERB_CHARS:])):
        return True
    if reading.kind == "output" and any(_another_call(call.group(), reading)
                                        and not _CONTRASTED.search(before, 0, call.start())
                                        for call in re.finditer(_CALL, before)):
        return True
    subject = _CONNECTIVES.sub("", region)
    if (arrow := _ARROW_END.search(before)) and _a_variable(_last_clause(before[:arrow.start()]), True, reading):
        return True  # a step's new state: "result += s -> 'ab'"
    if (_MEASURED_BEFORE.search(before) or _PART_LABEL.search(before) or _WORKED_ON_BEFORE.search(before)
            or _a_state_change(subject, reading)
            or (_conditional(before, len(before)) and _another_case(before, reading))):
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


def _restated(tail: str, answer: Check, reading: Reading) -> Check | None:
    """A value other than ``answer`` that ``tail``, the text after the reply's last statement, says the answer is
    though no value of :func:`_standing` ends the clause: a value before words that say it is the answer ("0 is
    what it returns", :data:`_VALUE_SAID_BEFORE`), the call asked about said not to return the answer
    (:func:`_denied`), else the reply's last value after words of a conclusion (:func:`_concluded`). A sentence
    that opens with a condition ("If n were 0, 0 is what it returns") says none."""
    tail = "".join(char for char in tail if unicodedata.category(char) != "Cf")
    prose = _prose_spelled(_masked(tail, [block.span(1) for block in _FENCED.finditer(tail)]))
    tail = _prose_spelled(tail)
    read: set[str] = set()  # a model that says one sentence again and again says it once
    for said in _VALUE_SAID_BEFORE[reading.kind].finditer(tail):
        line = tail[max(tail.rfind("\n", 0, said.start()) + 1, said.start() - _PROSE_VALUE_CHARS):said.start()]
        if line in read:
            continue
        if len(read) == _MAX_CORRECTION_VALUES:
            return Check(line[:_SHOWN_CHARS], AMBIGUOUS)
        read.add(line)
        for start in [*(found.end() for found in _SENTENCE_STARTS.finditer(line))][::-1][:_SENTENCE_CUTS]:
            value = line[start:].strip()
            if value and _literal(value.lstrip("-+~ \t")):
                check = reading.read(reading.named(value))
                if (_states(check, reading.unstated) and not reading.same(answer, check)
                        and not _conditional(tail, said.start() - len(line) + start)):
                    return check
                break
    return _denied(tail, answer, reading) or _concluded(prose, answer, reading)


def _denied(tail: str, answer: Check, reading: Reading) -> Check | None:
    """A sentence of ``tail`` that says the call asked about does not return ``answer`` ("f([1, 2]) != 3",
    LaTeX's "\\ne"), which takes the answer back (:data:`_CALL_SAID`)."""
    denied = [cue for cue in _CALL_SAID.finditer(tail) if cue.group("not")]
    for cue in denied[:_MAX_CORRECTION_VALUES]:
        value = _whole_sentence_value(_MATH_END.sub("", tail[cue.end():cue.end() + _PROSE_VALUE_CHARS].split("\n")[0]))
        stated = value and reading.returned(cue.group(1), value)
        if stated and _states(check := reading.read(stated), reading.unstated) and reading.same(answer, check):
            return Check(f"{cue.group().strip()} {value}", AMBIGUOUS)
    if len(denied) > _MAX_CORRECTION_VALUES:
        return Check(denied[_MAX_CORRECTION_VALUES].group()[:_SHOWN_CHARS], AMBIGUOUS)
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
        rest = prose[end:end + _PROSE_VALUE_CHARS].split("\n", 1)[0]
        if call is not None and call.group().rstrip().endswith("|"):
            rest = rest.split("|", 1)[0]  # a table's cell
        rest = _MATH_END.sub("", rest)
        if not _VALUE_START.match(rest):
            continue
        # the last value said after such words decides
        value = _whole_sentence_value(rest)
        if not value or _conditional(prose, start) or (call is None and _a_part(value, reading, cue)):
            return None
        stated = reading.returned(call.group(1), value) if call else reading.named(value)
        check = reading.read(stated) if stated else None
        after = prose[end + rest.index(value) + len(value):]
        over = _CLAUSE_OR_LINE_END.search(after)
        if (check is None or not _states(check, reading.unstated) or reading.same(answer, check)
                or (over and _VALUE_START.search(after, over.end()))):
            return None
        return check
    return None


def _conditional(tail: str, position: int) -> bool:
    """Whether the clause of ``tail`` that goes on at ``position`` opened with a condition or one step of many
    (:data:`_CONDITION`); a ", but" after the condition opens a clause of its own."""
    opening = tail[max(tail.rfind("\n", 0, position) + 1, position - _PROSE_VALUE_CHARS):position]
    return _CONDITION.search(_BUT.split(_SENTENCE_END_SPLIT.split(opening)[-1])[-1]) is not None


def _a_part(value: str, reading: Reading, cue: re.Match) -> bool:
    """Whether ``value``, said after the words of a conclusion ``cue``, may be what the prompt shows (the call
    asked about, for input prediction its output) or, for input prediction, arguments without a call of f ("so
    'ab'": one argument, maybe; after words of calling, "call it with 'ab', 2", they are the call): no answer."""
    if reading.kind == "output":
        return reading.returned(value, "None") is not None
    return reading.returned("", value) is not None or not (value.startswith("f(") or cue.group("calling"))


def _whole_sentence_value(rest: str) -> str | None:
    """The value ``rest`` is up to its sentence's end, when all of it is one (a literal, signed or not, or a
    call of f with literal arguments); None when it is more, or a question ("It returns 0?")."""
    for end in [*list(_CLAUSE_END.finditer(rest))[:_SENTENCE_CUTS], None]:
        if end is not None and rest[end.start()] == "?":
            return None
        value = rest[:end.start()] if end else rest
        value = _SAID_ASIDE.sub("", value[:rejected.start()] if (rejected := _REJECTED.search(value)) else value)
        value = value.strip().rstrip(".!;:,")
        if value and _literal(value.lstrip("-+~ \t")):
            return value
    return None


def _the_shown_output(value: str, before: str, reading: Reading) -> bool:
    """Whether ``value``, after the text ``before`` it, is the output an input is asked for, said as one ("let me
    trace it again: it ends up as 'abab'"), which names no input."""
    return (reading.kind == "input" and reading.returned("", value) is not None
            and _AN_OUTPUT_AHEAD.search(before[-_VERB_CHARS:]) is not None)


def _shown_call(rest: str, reading: Reading) -> tuple[None, int] | None:
    """(None, where it ends) when ``rest`` starts with the call an output is asked of ("let me recheck
    f(2): ..."), which names no answer."""
    if reading.kind != "output" or not rest.startswith("f("):
        return None
    for call, end in sorted(dict.fromkeys(_value_texts(rest)), key=lambda cut: -cut[1]):
        if reading.returned(call, "None") is not None:
            return None, end
    return None


def _prose_value(rest: str, reading: Reading) -> tuple[Check, int] | None:
    """The value prose gives from the start of ``rest``, and where it ends: the longest literal that
    states an answer ("'ab', 2 is right" gives 'ab', 2; "'ab' * 2" gives 'ab'), else the longest text
    that states one ("f(3), sorry")."""
    other, rest = None, rest.rstrip().rstrip(".!?;:,")  # the sentence's stop: "0." reads 0, not 0.0
    for value, end in sorted(dict.fromkeys(_value_texts(rest)), key=lambda cut: -cut[1]):
        check = reading.read(reading.named(value)) if value and not _a_word(value) else None
        if check is not None and _states(check, reading.unstated):
            if _literal(value):
                return check, end
            other = other or (check, end)
    return other


def _literal(text: str) -> bool:
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


def _hedged(value: str) -> bool:
    try:
        return isinstance(thread_safe_ast.parse(value.strip(), mode="eval").body, ast.BoolOp)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def _states(check: Check, unstated: tuple[str, ...] = ()) -> bool:
    """Whether a read statement states an answer (right, wrong or refused), not a word of prose nor a
    block of the benchmark's ``unstated`` kind (such as a restated program)."""
    return check.status not in (EMPTY, UNPARSEABLE, *unstated) and not _a_word(check.answer)


def _a_word(text: str) -> bool:
    """A word of prose ("easy", "empty"), never an answer, though Python reads it as a name."""
    return text.strip().isidentifier() and text.strip() not in ("True", "False", "None")


def final_answer(reply: str, reading: Reading, max_chars: int) -> Check:
    """The one answer ``reply`` states, read with ``reading``; ``max_chars``: the longest text, reasoning
    set aside, that is read. Never raises on any text."""
    if len(reply) > MAX_REPLY_CHARS:
        return Check(reply[:_SHOWN_CHARS], UNPARSEABLE)
    text = visible_text(reply.replace("\r\n", "\n").replace("\r", "\n"))
    if text is None:
        return Check(reply[:_SHOWN_CHARS], UNPARSEABLE)  # the reasoning never ended: no answer came after it
    text = text.replace(DONE, "").strip()
    if not text:
        return Check("", EMPTY)
    if len(text) > max_chars:
        return Check(text[:_SHOWN_CHARS], UNPARSEABLE)
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
            corrected = (_correction(after, answer, reading) or _restated(after, answer, reading)
                         or _standing(after, answer, reading))
            if corrected is None:
                return answer
            statements.append((len(text), len(text), corrected))
    except _TooManyStatements:
        return Check(text[:_SHOWN_CHARS], AMBIGUOUS)
    shown = " | ".join(dict.fromkeys(check.answer for _, _, check in statements))
    return Check(shown[:_SHOWN_CHARS], AMBIGUOUS)


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
    found += [(*sentence, None, "") for sentence in _sentences(_masked(text, [block[:2] for block in blocks]),
                                                                counted)]
    found.sort(key=lambda statement: statement[0])
    statements, asides = [], []
    for start, end, check, opened, source in found:
        if not _states(check, reading.unstated):
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
    if statements and _states(completion, reading.unstated):
        return [(0, first_start, completion), *statements], asides
    if statements:
        return statements, asides
    if _states(completion, reading.unstated):
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
        if not _states(stated, reading.unstated):
            return further, [*asides, rest]
        further.append(stated)
        source = rest
    raise _TooManyStatements


def _unfenced(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not line.strip().startswith("```"))


def _untagged(text: str) -> str:
    return re.sub(r"\[/?ANSWER\]", "", text, flags=re.IGNORECASE).strip()
