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
    CUSTOM: None,
}
# Variants that give the problem a new input: only for benchmarks whose problems show a call.
NEW_INPUT_VARIANTS = ("newinput", "fuvi")

# Variants with a chain of their own: what a group aggregates besides STATIC, what a probe compares.
NAMED_DYNAMIC = [name for name, chain in VARIANTS.items() if chain is not None]


def variants_of(takes_new_inputs: bool) -> list[str]:
    """The variants a benchmark's tasks come in."""
    return [name for name in VARIANTS if takes_new_inputs or name not in NEW_INPUT_VARIANTS]
