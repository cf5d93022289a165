"""What the engine knows about a program besides its text: who may call it, what the equivalence
check runs it on, and the status a mutation ends in. Standard library only, so the command line and
the benchmark registry can use it without loading libcst."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum


class ProgramKind(str, Enum):
    """Who outside the program sees its names."""

    FUNCTION = "function"  # called only through its entry point (CRUXEval's f, TransCoder's function)
    SCRIPT = "script"  # a stdin -> stdout program run as __main__ (Avatar, CodeNet)
    MODULE = "module"  # an importable module: top-level names and their signatures are public

    def __str__(self) -> str:
        return self.value


MUTATED, UNCHANGED, REJECTED, UNPARSEABLE = "mutated", "unchanged", "rejected", "unparseable"
STATUSES = (MUTATED, UNCHANGED, REJECTED, UNPARSEABLE)  # the engine's: every task document has one of these
# Only a program read from a file nobody vouches for (``dynbench mutate --input``) ends in one of these:
# over the size limit (never parsed), past the deadline (its process killed), the engine failed on it
# unexpectedly or its process died, or the record holds no usable problem (no program, or inputs/answers
# of the wrong shape).
TOO_LARGE, TIMEOUT, CRASHED, NO_PROGRAM = "too_large", "timeout", "crashed", "no_program"
UNTRUSTED_STATUSES = (TOO_LARGE, TIMEOUT, CRASHED, NO_PROGRAM)


@dataclass
class CallTests:
    """Calls of ``function``; each argument text is spelled as the benchmark calls the original.
    ``preamble`` runs before the program, as the benchmark's own test runs it (its imports)."""

    function: str
    arguments: list[str]
    extra_inputs: int = 10
    preamble: str = ""


def same_trimmed(actual: str, expected: str) -> bool:
    return actual.strip() == expected.strip()


@dataclass
class StdinTests:
    """Runs of a stdin program: each input, and the output the benchmark expects for it (None: not
    known), judged by ``matches`` (the benchmark's own comparison). ``preamble`` runs before the
    script, as the Python it was written for would have it (an API since removed)."""

    inputs: list[str] = field(default_factory=list)
    expected: list[str] | None = None
    matches: Callable[[str, str], bool] = same_trimmed
    preamble: str = ""

    def script(self, code: str) -> str:
        """What runs for ``code``."""
        return f"{self.preamble}\n{code}" if self.preamble else code


Tests = CallTests | StdinTests
