"""What every mutation operator is: a named rewrite of a libcst module under a random stream."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import libcst as cst

from mutators.scopes import Interface


@dataclass
class StepContext:
    """Everything one step of a chain may consult or report besides the tree itself."""

    rng: random.Random
    interface: Interface = field(default_factory=Interface)
    options: Mapping[str, Any] = field(default_factory=dict)
    # Renamed parameters that calls from outside pass by keyword: function -> {old: new}.
    keyword_renames: dict[str, dict[str, str]] = field(default_factory=dict)


class Operator:
    """Base class: subclasses set the names and implement :meth:`apply`."""

    name: ClassVar[str]  # canonical lower-case name, e.g. "for2while"
    letter: ClassVar[str]  # chain letter, e.g. "F"
    title: ClassVar[str]  # the paper's name, e.g. "For2While"
    option_defaults: ClassVar[Mapping[str, Any]] = {}
    option_minimums: ClassVar[Mapping[str, int]] = {}  # the smallest value a numeric option may take

    def apply(self, module: cst.Module, context: StepContext) -> tuple[cst.Module, int]:
        """Return the rewritten module and the number of sites rewritten."""
        raise NotImplementedError

    @classmethod
    def option_problem(cls, option: str, value: Any) -> str | None:
        """What is wrong with ``value`` for ``option`` (already of the default's type), or None."""
        minimum = cls.option_minimums.get(option)
        return f"must be at least {minimum}" if minimum is not None and value < minimum else None

    def option(self, context: StepContext, key: str) -> Any:
        return context.options.get(key, self.option_defaults[key])
