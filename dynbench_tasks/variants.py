"""The variants every benchmark's tasks come in: ``<benchmark>_<variant>``, each a mutation chain."""

STATIC = "orig"  # the benchmark as published
CUSTOM = "custom"  # takes its chain from --metadata

# Variant name -> chain; the static benchmark and the custom variant have none of their own.
VARIANTS: dict[str, str | None] = {
    STATIC: None,
    "varnorm1": "V1",
    "varnorm2": "V2",
    "constunfold": "U",
    "for2while": "F",
    "condaug": "A",
    "fuv": "FUV",
    "auv": "AUV",
    "afu": "AFU",
    "newinput": "I",
    "fuvi": "FUVI",
    "newoutput": "O",
    "fuvo": "FUVO",
    "fuvio": "FUVIO",
    CUSTOM: None,
}
# The paper's rewrites: the text changes, every answer stays (a model that memorised it still passes).
MEANING_PRESERVING = ("varnorm1", "varnorm2", "constunfold", "for2while", "condaug", "fuv", "auv", "afu")
# Every problem these variants score has a new answer, so memorising the published one earns nothing.
ANSWER_CHANGING = ("newinput", "fuvi", "newoutput", "fuvo", "fuvio")
# On translation the answer is the program itself, in Java: where nothing but a literal changed, a model that
# memorised the published Java copies the new literal into it (docs/contamination.md, RQ3: fine-tuning on
# TransCoder gained 80 points on transcoder_newoutput against 95 on orig). There the headline counts only the
# answer changes hidden under the paper's rewrites.
COPYABLE_ANSWER_CHANGES = ("newoutput",)
# Variants that give the problem a new input: only for benchmarks whose problems show a call.
NEW_INPUT_VARIANTS = ("newinput", "fuvi", "fuvio")
# Where a benchmark takes new inputs, its everything-preset is fuvio, so it has no fuvo.
WITHOUT_NEW_INPUT_ONLY = ("fuvo",)
# A new program with the published input keeps the published input a right answer to input prediction.
NEW_PROGRAM_ONLY = ("newoutput",)

# Variants with a chain of their own: what a group aggregates besides STATIC, what a probe compares.
NAMED_DYNAMIC = [name for name, chain in VARIANTS.items() if chain is not None]


def variants_of(takes_new_inputs: bool, answer_is_input: bool = False) -> list[str]:
    """The variants a benchmark's tasks come in."""
    excluded = set(WITHOUT_NEW_INPUT_ONLY if takes_new_inputs else NEW_INPUT_VARIANTS)
    if answer_is_input:
        excluded |= set(NEW_PROGRAM_ONLY)
    return [name for name in VARIANTS if name not in excluded]


def headline_variants_of(variants: list[str], answer_is_program: bool) -> list[str]:
    """The variants, of those a benchmark offers, whose mean is its contamination-resistant headline."""
    copyable = set(COPYABLE_ANSWER_CHANGES) if answer_is_program else set()
    return [name for name in variants if name in ANSWER_CHANGING and name not in copyable]
