"""dynbench's mutation engine: semantics-preserving rewrites of Python programs.

Knows nothing of lm-eval, datasets or models: source text in, mutated source text and a record of
what changed out. ``mutate(code, "FUV", seed=0, kind="function", entry_point="f")``.

Importing the package is cheap: the engine (and libcst with it) loads when one of its names is
first used, so the command line can list benchmarks and operators without it.
"""

from __future__ import annotations

import importlib

from mutators.errors import DynbenchError
from mutators.programs import MUTATED, REJECTED, STATUSES, UNCHANGED, UNPARSEABLE, ProgramKind
from mutators.version import COUNTING_PYTHON, ENGINE_VERSION

_LAZY = {
    "OPERATORS": "mutators.chain",
    "PAPER_OPERATORS": "mutators.chain",
    "PRESETS": "mutators.chain",
    "Chain": "mutators.chain",
    "ChainError": "mutators.chain",
    "parse_chain": "mutators.chain",
    "MutationResult": "mutators.engine",
    "mutate": "mutators.engine",
}

__all__ = [
    "COUNTING_PYTHON",
    "ENGINE_VERSION",
    "MUTATED",
    "REJECTED",
    "STATUSES",
    "UNCHANGED",
    "UNPARSEABLE",
    "DynbenchError",
    "ProgramKind",
    *_LAZY,
]


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mutators' has no attribute {name!r}")
