"""lm-eval's own command line with one more model, ``doc-field``: each request is answered with a
field of its document (``--model_args field=original_output`` recites the published output,
``field=output`` solves, ``field=decoy_output`` writes the control), so a run's answers are known
without a language model. ``python tests/scripted_cli.py`` followed by lm_eval's arguments."""

from lm_eval.__main__ import cli_evaluate
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model


@register_model("doc-field")
class DocumentFieldModel(LM):
    def __init__(self, field: str = "output", fallback: str = "output", **kwargs) -> None:
        super().__init__()
        self.field, self.fallback = field, fallback

    def generate_until(self, requests, disable_tqdm: bool = False) -> list[str]:
        return [request.doc.get(self.field) or request.doc[self.fallback] for request in requests]

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("doc-field answers generation requests only")

    loglikelihood_rolling = loglikelihood


if __name__ == "__main__":
    cli_evaluate()
