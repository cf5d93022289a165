"""The forms in which chat, instruct and reasoning models write a CRUXEval answer, for scripted models
(tests/test_chat_reply_forms.py and scripts/chat_reply_forms.py). Each form writes a given answer: the
right one (tests/known_answers.py: the document's answer as shown), a wrong one, or two different ones
in one reply (``ambiguous``: the right one among them). A reasoning form's thinking holds the other
answer, so that a reader that read the thinking would be caught out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from known_answers import WRONG_CALL, WRONG_OUTPUT, right_answer

MODES = ("right", "wrong", "ambiguous")


@dataclass(frozen=True)
class Stated:
    """One answer to one document, in every spelling a form needs: ``call`` the shown call (output
    prediction) or the answer's call (input prediction), ``value`` the output it claims, ``named``
    what a sentence names ("The output is <named>" / "The input is <named>")."""

    call: str
    value: str
    named: str


def stated(task: str, doc: dict, right: bool) -> Stated:
    if task.startswith("cruxeval_input"):
        call = right_answer(task, doc) if right else WRONG_CALL
        return Stated(call, doc["output"], call[2:-1])
    value = right_answer(task, doc) if right else WRONG_OUTPUT
    return Stated(f"f({doc['input']})", value, value)


def _noun(task: str) -> str:
    return "input" if task.startswith("cruxeval_input") else "output"


# name -> the reply, from (task, doc, the answer, the other answer)
FORMS: dict[str, Callable[[str, dict, Stated, Stated], str]] = {
    "sentence then fenced assert": lambda task, doc, a, other: (
        f"Here is the completed assertion:\n```python\nassert {a.call} == {a.value}\n```"),
    "reasoning then 'The X is'": lambda task, doc, a, other: (
        "Let me trace the function step by step. It goes through its argument once, 2 or 3 times at most, and "
        f"builds the result as it goes.\nThe {_noun(task)} is {a.named}."),
    "[ANSWER] tags": lambda task, doc, a, other: f"[ANSWER]\nassert {a.call} == {a.value}\n[/ANSWER]",
    "think block then assert": lambda task, doc, a, other: (
        f"<think>\nA first guess: assert {other.call} == {other.value}\nThe {_noun(task)} is {other.named}.\n"
        f"Let me check it again.\n</think>\nassert {a.call} == {a.value}"),
    "restated program then assert": lambda task, doc, a, other: (
        f"The program is:\n```python\n{doc['code']}\n```\nCompleted:\nassert {a.call} == {a.value}"),
    "bold Answer label": lambda task, doc, a, other: (
        f"Working through the loop gives the result below.\n\n**Answer:** `{a.named}`"),
    "Output/Input label": lambda task, doc, a, other: f"{_noun(task).capitalize()}: {a.named}",
    "'So f(...) returns'": lambda task, doc, a, other: (
        f"Each step keeps the state described above.\nSo {a.call} returns {a.value}."),
    "chain of thought tags": lambda task, doc, a, other: (
        f"[THOUGHT]\nLet's execute the code step by step: assert {other.call} == {other.value}?\n[/THOUGHT]\n"
        f"[ANSWER]\nassert {a.call} == {a.value}\n[/ANSWER]"),
    "think opened by the template": lambda task, doc, a, other: (
        f"Okay, maybe it is {other.named}. The {_noun(task)} is {other.named}.\n</think>\n\n"
        f"The answer is `{a.named}`."),
    "sentence and fence agreeing": lambda task, doc, a, other: (
        f"The {_noun(task)} is {a.named}.\n\n```python\nassert {a.call} == {a.value}\n```"),
    "thinking tag then Final answer": lambda task, doc, a, other: (
        f"<thinking>\nassert {other.call} == {other.value}\n</thinking>\nFinal answer: {a.named}"),
    "boxed": lambda task, doc, a, other: (
        f"<think>\n\\boxed{{{other.named}}}?\n</think>\n**Final Answer**\n\\[\n\\boxed{{{a.named}}}\n\\]"),
}
# Replies that state two different answers, the right one among them: the answer is ambiguous.
AMBIGUOUS_FORMS: dict[str, Callable[[str, dict, Stated, Stated], str]] = {
    "sentence against fence": lambda task, doc, a, other: (
        f"The {_noun(task)} is {other.named}.\n\n```python\nassert {a.call} == {a.value}\n```"),
    "two tagged answers": lambda task, doc, a, other: (
        f"[ANSWER]\nassert {a.call} == {a.value}\n[/ANSWER]\n[ANSWER]\nassert {other.call} == {other.value}\n[/ANSWER]"),
    "two asserts": lambda task, doc, a, other: f"assert {other.call} == {other.value}\nassert {a.call} == {a.value}",
}


def replies(task: str, doc: dict, mode: str) -> list[tuple[str, str]]:
    """(form, reply) of every form for ``mode``: ``right`` and ``wrong`` in every form of FORMS,
    ``ambiguous`` in every form of AMBIGUOUS_FORMS with the right answer and a wrong one."""
    right, wrong = stated(task, doc, True), stated(task, doc, False)
    if mode == "ambiguous":
        return [(name, form(task, doc, right, wrong)) for name, form in AMBIGUOUS_FORMS.items()]
    answer, other = (right, wrong) if mode == "right" else (wrong, right)
    return [(name, form(task, doc, answer, other)) for name, form in FORMS.items()]


def scripted_replies(docs_by_task: dict[str, list[dict]], mode: str):
    """(answer(prompt, sample) for tests/scripted_server.py, {reply: form}): the documents of each task
    answered in ``mode``, the forms taken in turn across documents and samples, so that every form
    appears once there are as many samples as forms."""
    from known_answers import prompt_key

    by_key, form_of = {}, {}
    for task, docs in docs_by_task.items():
        for number, doc in enumerate(docs):
            written = replies(task, doc, mode)
            by_key[prompt_key(task, doc)] = (number, written)
            form_of.update({text: name for name, text in written})

    def answer(prompt: str, sample: int) -> str:
        number, written = next(entry for key, entry in by_key.items() if key in prompt)
        return written[(number * 5 + sample) % len(written)][1]

    return answer, form_of
