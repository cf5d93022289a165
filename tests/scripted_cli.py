"""lm-eval's own command line with two more models whose answers are known without a language model.
``doc-field``: each request is answered with a field of its document (``--model_args
field=original_output`` recites the published output, ``field=output`` solves,
``field=decoy_output`` writes the control; ``shift=1`` takes the field of another document,
e.g. another problem's published output; ``call=1`` answers ``f(<field>)``, for input prediction; ``skill=0.6``
answers right only on the documents a hash of their id and ``salt`` puts below it, ``rewritten_skill`` likewise on
documents whose program was rewritten, and ``recite=1`` answers every unrewritten program right, as a model
whose memory only its published text wakes). ``edit-blind`` (CRUXEval output prediction):
runs the published, unedited program on the input it is shown, in the sandbox, and answers with
what it returns, as a model that overlooks every edit of the program would. ``shown-guess`` (CRUXEval
output prediction): answers each repeat of a document with one of what can be had from the shown text
without running the program (``mutators.shown_guesses``), as an honest model that guesses. ``known-answer``
(any task): answers as a model of ``known_answers.py`` would (``--model_args kind=memorised``: the published
benchmark's answer, for translation its own Java; ``kind=right``: the shown problem's). ``python
tests/scripted_cli.py`` followed by lm_eval's arguments."""

import hashlib

from lm_eval.__main__ import cli_evaluate
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model


def _key(doc: dict) -> tuple:
    return doc["id"], doc.get("code")


@register_model("doc-field")
class DocumentFieldModel(LM):
    def __init__(self, field: str = "output", fallback: str = "output", shift: int = 0, call: int = 0,
                 skill: float = 1.0, rewritten_skill: float | None = None, recite: int = 0, salt: str = "",
                 **kwargs) -> None:
        super().__init__()
        self.field, self.fallback, self.shift, self.call = field, fallback, int(shift), bool(int(call))
        self.skill = float(skill)
        self.rewritten_skill = self.skill if rewritten_skill is None else float(rewritten_skill)
        self.recite, self.salt = bool(int(recite)), str(salt)

    def _knows(self, doc: dict) -> bool:
        published = doc.get("code") == doc.get("original_code", doc.get("code"))
        if published and self.recite:
            return True
        draw = int(hashlib.sha256(f"{self.salt}:{doc['id']}".encode()).hexdigest(), 16) / 2**256
        return draw < (self.skill if published else self.rewritten_skill)

    def generate_until(self, requests, disable_tqdm: bool = False) -> list[str]:
        # Shift by document, not by request: a document's repeats are requests of their own.
        docs = {_key(request.doc): request.doc for request in requests}
        keys = list(docs)
        following = {key: docs[keys[(index + self.shift) % len(keys)]] for index, key in enumerate(keys)}
        answered = [following[_key(request.doc)] for request in requests]
        values = [doc.get(self.field) or doc[self.fallback] if self._knows(doc) else "'not the answer'"
                  for doc in answered]
        return [f"f({value})" for value in values] if self.call else values

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("doc-field answers generation requests only")

    loglikelihood_rolling = loglikelihood


@register_model("edit-blind")
class EditBlindModel(LM):
    def __init__(self, **kwargs) -> None:
        super().__init__()

    def generate_until(self, requests, disable_tqdm: bool = False) -> list[str]:
        from dynbench_tasks.runtime import shared_sandbox
        from mutators.execution.plain import decode

        outcomes = shared_sandbox().run([{"kind": "evaluate", "payload": {
            "program": request.doc["original_code"], "expressions": [f"repr(f({request.doc['input']}))"],
            "seconds": 2}} for request in requests])
        answers = []
        for outcome in outcomes:
            result = outcome.get("result") or {}
            answers.append(decode(result["values"][0]) if result.get("outcome") == "values" else "None")
        return answers

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("edit-blind answers generation requests only")

    loglikelihood_rolling = loglikelihood


@register_model("shown-guess")
class ShownGuessModel(LM):
    def __init__(self, **kwargs) -> None:
        super().__init__()

    def generate_until(self, requests, disable_tqdm: bool = False) -> list[str]:
        from mutators.perturb import to_source
        from mutators.shown_guesses import shown_guesses

        answers, repeats = [], {}
        for request in requests:
            doc, key = request.doc, _key(request.doc)
            repeats[key] = repeats.get(key, -1) + 1
            guesses = shown_guesses(doc["code"], doc["input"])
            draw = int(hashlib.sha256(f"{doc['id']}:{repeats[key]}".encode()).hexdigest(), 16)
            answers.append(to_source(guesses[draw % len(guesses)]) if guesses else "None")
        return answers

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("shown-guess answers generation requests only")

    loglikelihood_rolling = loglikelihood


@register_model("known-answer")
class KnownAnswerModel(LM):
    def __init__(self, kind: str = "right", **kwargs) -> None:
        from known_answers import memorised_answer, right_answer

        super().__init__()
        self.answer = {"memorised": memorised_answer, "right": right_answer}[kind]

    def generate_until(self, requests, disable_tqdm: bool = False) -> list[str]:
        return [self.answer(request.task_name, request.doc) or "" for request in requests]

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("known-answer answers generation requests only")

    loglikelihood_rolling = loglikelihood


if __name__ == "__main__":
    cli_evaluate()
