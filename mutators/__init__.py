"""dynbench's mutation engine: semantics-preserving rewrites of Python programs.

Knows nothing of lm-eval, datasets or models: source text in, mutated source text and a record of
what changed out. ``mutate(code, "FUV", seed=0, kind="function", entry_point="f")``.
"""

from mutators.chain import OPERATORS, PRESETS, Chain, ChainError, parse_chain
from mutators.engine import (
    FUNCTION,
    MODULE,
    MUTATED,
    PROGRAM_KINDS,
    REJECTED,
    SCRIPT,
    STATUSES,
    UNCHANGED,
    UNPARSEABLE,
    MutationResult,
    mutate,
)
from mutators.version import ENGINE_VERSION

__all__ = [
    "ENGINE_VERSION",
    "FUNCTION",
    "MODULE",
    "MUTATED",
    "OPERATORS",
    "PRESETS",
    "PROGRAM_KINDS",
    "REJECTED",
    "SCRIPT",
    "STATUSES",
    "UNCHANGED",
    "UNPARSEABLE",
    "Chain",
    "ChainError",
    "MutationResult",
    "mutate",
    "parse_chain",
]
