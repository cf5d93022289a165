"""Mutation chains: parse ``F+U+V2``, ``for2while,constunfold,varnorm2`` or a preset such as ``FUV``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mutators.base import Operator
from mutators.condaug import CondAug
from mutators.constunfold import ConstUnfold
from mutators.errors import DynbenchError
from mutators.for2while import For2While
from mutators.newinput import NewInput
from mutators.newoutput import NewOutput
from mutators.varnorm1 import VarNormI
from mutators.varnorm2 import VarNormII
from mutators.while2for import While2For

# The paper's five operators (Tables 3 and 4 count them), then the ones dynbench adds.
PAPER_OPERATORS: tuple[type[Operator], ...] = (VarNormI, VarNormII, ConstUnfold, For2While, CondAug)
OPERATORS: tuple[type[Operator], ...] = (VarNormI, VarNormII, ConstUnfold, For2While, While2For, CondAug, NewInput,
                                         NewOutput)
# Operators that give a problem a new answer (the others keep every answer).
ANSWER_CHANGING: tuple[type[Operator], ...] = (NewInput, NewOutput)

# The paper's multi-mutation presets (section 3).
PRESETS: dict[str, tuple[str, ...]] = {
    "fuv": ("for2while", "constunfold", "varnorm2"),
    "auv": ("condaug", "constunfold", "varnorm1"),
    "afu": ("condaug", "for2while", "constunfold"),
    "fuvi": ("for2while", "constunfold", "varnorm2", "newinput"),  # FUV with a new input: contamination's test
    "fuvo": ("for2while", "constunfold", "varnorm2", "newoutput"),  # FUV with a new answer from an edited program
    "fuvio": ("for2while", "constunfold", "varnorm2", "newinput", "newoutput"),  # both: the answer-changing preset
}

_BY_SPELLING: dict[str, type[Operator]] = {}
for _operator in OPERATORS:
    for _spelling in (_operator.name, _operator.letter, _operator.title):
        _BY_SPELLING[_spelling.lower()] = _operator


class ChainError(DynbenchError, ValueError):
    """An unknown operator, preset or option."""


@dataclass(frozen=True)
class Chain:
    operators: tuple[type[Operator], ...]
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def spec(self) -> str:
        """Canonical spelling, e.g. ``F+U+V2``."""
        return "+".join(operator.letter for operator in self.operators)

    @property
    def changes_answers(self) -> bool:
        return any(operator in ANSWER_CHANGING for operator in self.operators)

    @property
    def names(self) -> list[str]:
        return [operator.name for operator in self.operators]

    def options_for(self, operator: type[Operator]) -> dict[str, Any]:
        prefix = operator.name + "."
        return {key[len(prefix):]: value for key, value in self.options if key.startswith(prefix)}


def _known() -> str:
    letters = ", ".join(operator.letter for operator in OPERATORS)
    names = ", ".join(operator.name for operator in OPERATORS)
    return f"letters {letters}; names {names}; presets {', '.join(p.upper() for p in PRESETS)}"


def parse_chain(text: str, options: Mapping[str, Any] | None = None) -> Chain:
    """Parse a chain; ``options`` maps ``operator.key`` (e.g. ``varnorm2.length``) to a value."""
    tokens = [token for token in re.split(r"[+,\s]+", text.strip()) if token]
    if not tokens:
        raise ChainError(f"empty mutation chain; use {_known()}")
    operators: list[type[Operator]] = []
    for token in tokens:
        key = token.lower()
        if key in PRESETS:
            operators.extend(_BY_SPELLING[name] for name in PRESETS[key])
        elif key in _BY_SPELLING:
            operators.append(_BY_SPELLING[key])
        else:
            hint = " (V is ambiguous: write V1 for VarNormI or V2 for VarNormII)" if key == "v" else ""
            raise ChainError(f"unknown mutation {token!r} in chain {text!r}{hint}; use {_known()}")
    return Chain(tuple(operators), _check_options(options or {}))


def _check_options(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    checked = []
    for key, value in sorted(options.items()):
        operator_name, _, option = key.partition(".")
        operator = _BY_SPELLING.get(operator_name.lower())
        if operator is None or option not in operator.option_defaults:
            valid = [f"{o.name}.{k}" for o in OPERATORS for k in o.option_defaults]
            raise ChainError(f"unknown mutation option {key!r}; valid options: {', '.join(valid)}")
        default = operator.option_defaults[option]
        try:
            value = type(default)(value)
        except (TypeError, ValueError):
            raise ChainError(f"option {key!r} needs a {type(default).__name__}, got {value!r}") from None
        problem = operator.option_problem(option, value)
        if problem:
            raise ChainError(f"option {key!r} {problem}, got {value!r}")
        checked.append((f"{operator.name}.{option}", value))
    return tuple(checked)
