"""What became of a task's answers: how many samples got each status, how many replies the reader
found no answer in (the benchmark's ``unread_statuses``), and what those replies looked like. A chat
or reasoning model that answers in a form the reader does not take scores 0 without this; with it,
lm-eval's results carry the ``unread`` share, ``metadata.dynbench.answers`` the whole breakdown, and
a run, ``dynbench report`` and ``dynbench view`` warn past :data:`WARN_SHARE`.

Nothing here repeats a reply's text: a reply is summed up by its form (:data:`FORMS`), one of our
own phrases, so hostile text never reaches a terminal or a page through these counts."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.benchmarks.final_answer import REASONING_TAG  # the tags the reader sets aside

UNREAD = "unread"  # the lm-eval metric: the share of samples whose reply gave no answer to read
UNREAD_METRIC = {"metric": UNREAD, "aggregation": "mean", "higher_is_better": False}
RECORD = "answers"  # the breakdown's key in metadata.dynbench
WARN_SHARE = 0.2  # a task warns when more than this share of its samples went unread
CHAT_GUIDE = "docs/chat.md (Chat and reasoning models)"
OTHER_STATUS = "other"  # a logged status that is none of the benchmark's: counted, never repeated

# The forms of a reply in which the reader found no answer, the most telling first.
EMPTY = "empty"
UNTERMINATED_THINKING = "unterminated think block"
THINKING_ONLY = "think block with nothing after it"
SEVERAL_ANSWERS = "several stated answers"
ANSWER_TAGS = "[ANSWER] tags"
FENCE_WITHOUT_ASSERT = "fenced block without an assert"
PROGRAM_WITHOUT_ASSERT = "restated program without an assert"
PROSE = "prose without a stated answer"
FORMS = (EMPTY, UNTERMINATED_THINKING, THINKING_ONLY, SEVERAL_ANSWERS, ANSWER_TAGS, FENCE_WITHOUT_ASSERT,
         PROGRAM_WITHOUT_ASSERT, PROSE)
_INSPECTED = 200_000  # characters of a reply its form is read from: a form shows in its start
_DEFINITION = re.compile(r"^[ \t]*(?:def|class)[ \t]+\w", re.MULTILINE)
_ASSERT = re.compile(r"^[ \t]*assert\b", re.MULTILINE)
_FENCE = re.compile(r"^[ \t]*```", re.MULTILINE)


def reply_form(reply: object) -> str:
    """The form of a reply the reader found no answer in, one of :data:`FORMS`."""
    text = reply[:_INSPECTED] if isinstance(reply, str) else ""
    if not text.strip():
        return EMPTY
    closes = [tag for tag in REASONING_TAG.finditer(text) if "/" in tag.group(0)]
    if closes:
        text = text[closes[-1].end():]  # what follows the thinking is the reply
        if not text.strip():
            return THINKING_ONLY
    if REASONING_TAG.search(text):  # after the last closing tag, only opening ones are left
        return UNTERMINATED_THINKING
    tags, asserts, fences = text.upper().count("[ANSWER]"), len(_ASSERT.findall(text)), len(_FENCE.findall(text))
    if tags > 1 or asserts > 1 or fences > 2:
        return SEVERAL_ANSWERS
    if tags:
        return ANSWER_TAGS
    if not asserts:
        if fences:
            return FENCE_WITHOUT_ASSERT
        if _DEFINITION.search(text):
            return PROGRAM_WITHOUT_ASSERT
    return PROSE


def unread_statuses(benchmark: str) -> tuple[str, ...]:
    return BENCHMARKS[benchmark].unread_statuses


def unread_share(statuses: list[str], unread: tuple[str, ...]) -> float:
    """A document's ``unread`` metric: the share of its samples whose status is one of ``unread``."""
    return sum(status in unread for status in statuses) / len(statuses) if statuses else 0.0


class UnreadShare(float):
    """A document's ``unread`` metric (the share of its samples that went unread) that also carries
    its samples' statuses and the forms of its unread replies: lm-eval hands only per-document metric
    values from every process to the one that aggregates, so the task's breakdown travels with them."""

    statuses: Counter
    forms: Counter

    def __new__(cls, statuses: Iterable[str], replies: list, unread: tuple[str, ...]) -> UnreadShare:
        statuses = list(statuses)
        missed = [index for index, status in enumerate(statuses) if status in unread]
        share = super().__new__(cls, unread_share(statuses, unread))
        share.statuses = Counter(statuses)
        share.forms = Counter(reply_form(replies[index]) for index in missed if index < len(replies))
        return share

    def __reduce__(self):
        return _rebuilt_share, (float(self), dict(self.statuses), dict(self.forms))


def _rebuilt_share(value: float, statuses: dict, forms: dict) -> UnreadShare:
    share = float.__new__(UnreadShare, value)
    share.statuses, share.forms = Counter(statuses), Counter(forms)
    return share


@dataclass
class Breakdown:
    """A task's samples by status (every status of its benchmark, in the benchmark's order; a logged
    status that is none of them counts under :data:`OTHER_STATUS`) and its unread replies by form."""

    benchmark: str
    statuses: dict[str, int]
    forms: dict[str, int] = field(default_factory=dict)

    @classmethod
    def counted(cls, benchmark: str, statuses: Mapping[str, int], forms: Mapping[str, int]) -> Breakdown:
        known = BENCHMARKS[benchmark].sample_statuses
        counts = {status: int(statuses.get(status, 0)) for status in known}
        other = sum(int(count) for status, count in statuses.items() if status not in known)
        if other:
            counts[OTHER_STATUS] = other
        return cls(benchmark, counts, {form: int(forms[form]) for form in FORMS if forms.get(form)})

    @property
    def samples(self) -> int:
        return sum(self.statuses.values())

    @property
    def unread(self) -> int:
        return sum(self.statuses.get(status, 0) for status in unread_statuses(self.benchmark))

    @property
    def unread_share(self) -> float:
        return self.unread / self.samples if self.samples else 0.0

    def share(self, status: str) -> float:
        return self.statuses.get(status, 0) / self.samples if self.samples else 0.0

    @property
    def commonest_form(self) -> str | None:
        return max(self.forms, key=lambda form: (self.forms[form], -FORMS.index(form))) if self.forms else None

    def record(self) -> dict:
        """The breakdown as ``metadata.dynbench.answers`` keeps it."""
        return {"samples": self.samples, "statuses": dict(self.statuses), UNREAD: self.unread_share,
                "unread_forms": dict(self.forms)}

    @classmethod
    def from_record(cls, benchmark: str, record: object) -> Breakdown | None:
        """A recorded breakdown read from a submitted results file: counts of the benchmark's statuses
        and our forms only, each a whole number; None when it is not one."""
        if not isinstance(record, dict) or not isinstance(record.get("statuses"), dict):
            return None
        statuses, forms = record["statuses"], record.get("unread_forms")
        forms = forms if isinstance(forms, dict) else {}
        if not all(_count(value) for value in (*statuses.values(), *forms.values())):
            return None
        return cls.counted(benchmark, statuses, forms)

    def warning(self, task: str) -> str | None:
        """One line when more than :data:`WARN_SHARE` of the samples went unread, naming the form most of
        them took (None below it)."""
        if not self.samples or self.unread_share <= WARN_SHARE:
            return None
        listed = ", ".join(f"{status} {self.statuses[status]}" for status in unread_statuses(self.benchmark)
                           if self.statuses.get(status))
        form = self.commonest_form
        commonest = f"; most often {form} ({self.forms[form]} of them)" if form else ""
        return (f"{task}: {self.unread_share:.0%} of the samples ({self.unread} of {self.samples}: {listed}) were not "
                f"read as an answer{commonest}; they score as failed. How the reader reads a reply, and how to "
                f"prompt chat and reasoning models: {CHAT_GUIDE}")


def _count(value: object) -> bool:
    return type(value) is int and value >= 0


def breakdown_of_shares(benchmark: str, shares: Iterable[object]) -> Breakdown | None:
    """A task's breakdown from its documents' ``unread`` values (None when none carries one)."""
    carried = [share for share in shares if isinstance(share, UnreadShare)]
    if not carried:
        return None
    return Breakdown.counted(benchmark, sum((share.statuses for share in carried), Counter()),
                             sum((share.forms for share in carried), Counter()))
