"""Text that submitted files control (model names above all, read from lm-eval results), made safe
for each format dynbench writes it into: one line for terminals and tables, Markdown table cells,
CSV values a spreadsheet will not run, and HTML. The leaderboard, the report and the view pages all
go through these."""

from __future__ import annotations

import html
import re

_LINE_BREAKS = re.compile(r"\r\n|[\t\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")
# Control characters, the bidirectional overrides that make text display as something else, and the
# characters that display as nothing (a name with a zero-width space looks like another's).
# Control and bidi characters, and lone surrogates (which no UTF-8 file can hold: a logged answer may carry one)
_HIDDEN = re.compile(r"[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff"
                     r"\ud800-\udfff]")
_MARKDOWN_SYNTAX = re.compile(r"([\\`*_\[\]|~$])")  # "$": GitHub's math
# What GitHub-flavoured Markdown links by itself (its extended autolinks): a scheme's "://", "www." and an
# e-mail address (whose "mailto:" and "xmpp:" forms rest on its "@"). A backslash before the ":" or the "."
# stops the first two; an e-mail address is found in text whatever its escapes, so its "@" is set apart in
# an element of its own.
_AUTOLINK_COLON = re.compile(r"(?<=[A-Za-z]):(?=//)")
_AUTOLINK_WWW = re.compile(r"(?i)(?<=www)\.")
_AUTOLINK_AT = re.compile(r"(?<=[A-Za-z0-9.+_-])@(?=[\\A-Za-z0-9_-]+\.[A-Za-z0-9_-])")
# What GitHub shows as something else in text, set apart the same way: a mention ("@octocat") and an emoji's
# shortcode (":warning:", the look of the table's own marks)
_MENTION = re.compile(r"(?<![A-Za-z0-9_`])@(?=[A-Za-z0-9])")
_SHORTCODE = re.compile(r":(?=[A-Za-z0-9_+-]+:)")
_FORMULA_START = tuple("=+-@")


def one_line(text: object) -> str:
    """``text`` as one line of plain characters: line breaks become spaces, control and bidi
    characters the replacement character. What terminals, tables and every format below start from."""
    return _HIDDEN.sub("\ufffd", _LINE_BREAKS.sub(" ", str(text)))


def visible_lines(text: object) -> str:
    """``text`` with its lines kept and its control and bidi characters made the replacement character
    (HTML's escaping keeps them: a right-to-left override shows an answer as another, an escape sequence
    rewrites a terminal that shows the page's source)."""
    return _HIDDEN.sub("\ufffd", str(text))


def markdown_cell(text: object) -> str:
    """Text for a Markdown table cell: one line, HTML as entities, pipes and inline syntax escaped (math's ``$``
    too), and nothing GitHub would turn into a link (a URL, ``www.``, an e-mail address, a mention) or an emoji
    (``:warning:``)."""
    escaped = _MARKDOWN_SYNTAX.sub(r"\\\1", html.escape(one_line(text), quote=False))
    escaped = _AUTOLINK_WWW.sub(r"\\.", _AUTOLINK_COLON.sub(r"\\:", escaped))
    escaped = _SHORTCODE.sub("<span>:</span>", escaped)
    return _MENTION.sub("<span>@</span>", _AUTOLINK_AT.sub("<span>@</span>", escaped))


def csv_cell(value: object) -> object:
    """A CSV value: numbers as they are, text on one line and never read as a spreadsheet formula."""
    if value is None:
        return ""
    if isinstance(value, (bool, int, float)):
        return value
    text = one_line(" ".join(map(str, value)) if isinstance(value, list) else value)
    return "'" + text if text.lstrip().startswith(_FORMULA_START) else text


def html_text(text: object) -> str:
    """Text for HTML, in element content or a quoted attribute."""
    return html.escape(one_line(text), quote=True)
