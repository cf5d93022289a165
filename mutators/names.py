"""New identifiers that cannot collide with anything a program already spells or Python reserves."""

from __future__ import annotations

import random
import string
from collections.abc import Iterable

from mutators.scopes import RESERVED_NAMES

_FIRST = string.ascii_lowercase
_REST = string.ascii_lowercase + string.digits


class NamePool:
    """Hands out identifiers unused by the program, builtins and keywords, never the same twice."""

    def __init__(self, taken: Iterable[str]) -> None:
        self.taken = set(taken) | RESERVED_NAMES
        # Where numbered() may resume, by (prefix, start): every number below it is taken (``taken``
        # only grows), so a program with thousands of names costs a scan each, not a scan per name.
        self._resume: dict[tuple[str, int], int] = {}
        self._drawable: dict[int, int] = {}  # random(): taken names of each length it could draw

    def claim(self, name: str) -> str:
        if name not in self.taken:
            self.taken.add(name)
            for length in self._drawable:
                self._drawable[length] += _drawable(name, length)
        return name

    def numbered(self, prefix: str, start: int = 1) -> str:
        """``prefix`` followed by the smallest free number from ``start``: var1, var2, …"""
        number = self._resume.get((prefix, start), start)
        while f"{prefix}{number}" in self.taken:
            number += 1
        self._resume[prefix, start] = number + 1
        return self.claim(f"{prefix}{number}")

    def fresh(self, base: str) -> str:
        """``base`` itself when free, else ``base2``, ``base3``, …"""
        return self.claim(base) if base not in self.taken else self.numbered(base, 2)

    def random(self, rng: random.Random, length: int) -> str:
        """A random lowercase identifier of exactly ``length`` characters."""
        if length < 1:
            raise ValueError("random names need a length of at least 1")
        capacity = len(_FIRST) * len(_REST) ** (length - 1)
        for _ in range(100_000):
            name = rng.choice(_FIRST) + "".join(rng.choice(_REST) for _ in range(length - 1))
            if name not in self.taken:
                return self.claim(name)
            if self._drawable_taken(length) >= capacity:
                break
        raise ValueError(f"no unused identifier of length {length} is left for this program")

    def _drawable_taken(self, length: int) -> int:
        """How many taken names ``random`` could have drawn at this length (counted once, then kept)."""
        if length not in self._drawable:
            self._drawable[length] = sum(_drawable(name, length) for name in self.taken)
        return self._drawable[length]


def _drawable(name: str, length: int) -> bool:
    return len(name) == length and name[0] in _FIRST and all(c in _REST for c in name[1:])
