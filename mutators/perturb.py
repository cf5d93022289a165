"""Extra inputs for the equivalence check, made by type-aware perturbation of a benchmark's input.

In the spirit of EvalPlus' type-aware mutation: neighbouring and sign-flipped ints, strings with a
character inserted, deleted, replaced or re-cased, lists with an element dropped, duplicated,
swapped or perturbed, dicts with a key dropped or a value perturbed, and so on. Only inputs made of
Python literals are perturbed; source text is rendered deterministically (sets sorted) so the same
seed always yields the same inputs.
"""

from __future__ import annotations

import ast
import contextlib
import random
import string
from typing import Any

from mutators import thread_safe_ast

_CHARACTERS = string.ascii_letters + string.digits + " .,-_!?#"


def parse_arguments(arguments: str) -> tuple[list[Any], dict[str, Any]] | None:
    """Positional and keyword values of a call's argument text, or None if not all literals."""
    try:
        call = thread_safe_ast.parse(f"f({arguments})", mode="eval").body
        if any(isinstance(arg, ast.Starred) for arg in call.args) or any(k.arg is None for k in call.keywords):
            return None
        values = thread_safe_ast.literal_eval
        return [values(arg) for arg in call.args], {k.arg: values(k.value) for k in call.keywords}
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None


def to_source(value: Any) -> str:
    """Python source for a literal value; set elements are sorted so the text is reproducible."""
    if isinstance(value, list):
        return "[" + ", ".join(to_source(item) for item in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(to_source(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{to_source(k)}: {to_source(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (set, frozenset)):
        if not value:
            return "set()" if isinstance(value, set) else "frozenset()"
        inner = "{" + ", ".join(sorted(to_source(item) for item in value)) + "}"
        return inner if isinstance(value, set) else f"frozenset({inner})"
    return repr(value)


def render_arguments(args: list[Any], kwargs: dict[str, Any]) -> str:
    return ", ".join([to_source(a) for a in args] + [f"{k}={to_source(v)}" for k, v in kwargs.items()])


def _perturb_str(text: str, rng: random.Random) -> str:
    if not text:
        return rng.choice(_CHARACTERS)
    i = rng.randrange(len(text))
    choice = rng.randrange(6)
    if choice == 0:
        return text[:i] + text[i + 1 :]
    if choice == 1:
        return text[:i] + rng.choice(text + _CHARACTERS) + text[i:]
    if choice == 2:
        return text[:i] + rng.choice(_CHARACTERS) + text[i + 1 :]
    if choice == 3:
        return text[:i] + text[i].swapcase() + text[i + 1 :]
    if choice == 4:
        return text + text[i:]
    return text[::-1]


def _perturb_sequence(items: list, rng: random.Random, depth: int) -> list:
    items = list(items)
    if not items:
        return items
    i = rng.randrange(len(items))
    choice = rng.randrange(5)
    if choice == 0:
        del items[i]
    elif choice == 1:
        items.insert(i, items[i])
    elif choice == 2:
        j = rng.randrange(len(items))
        items[i], items[j] = items[j], items[i]
    elif choice == 3:
        items.reverse()
    else:
        items[i] = perturb_value(items[i], rng, depth + 1)
    return items


def perturb_value(value: Any, rng: random.Random, depth: int = 0) -> Any:
    """A nearby value of the same type."""
    if depth > 4:
        return value
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, -value, value * 2, 0, value + rng.randint(-10, 10)])
    if isinstance(value, float):
        return rng.choice([value + 0.5, value - 0.5, -value, value * 2, 0.0])
    if isinstance(value, str):
        return _perturb_str(value, rng)
    if isinstance(value, bytes):
        return _perturb_str(value.decode("latin-1"), rng).encode("latin-1")
    if isinstance(value, list):
        return _perturb_sequence(value, rng, depth)
    if isinstance(value, tuple):
        if not value:
            return value
        i = rng.randrange(len(value))
        return (*value[:i], perturb_value(value[i], rng, depth + 1), *value[i + 1 :])
    if isinstance(value, dict):
        return _perturb_dict(value, rng, depth)
    if isinstance(value, (set, frozenset)):
        ordered = sorted(value, key=to_source)
        changed = _perturb_sequence(ordered, rng, depth)
        try:
            return type(value)(changed)
        except TypeError:
            return value
    return value


def _perturb_dict(value: dict, rng: random.Random, depth: int) -> dict:
    if not value:
        return value
    result = dict(value)
    key = rng.choice(list(result))
    choice = rng.randrange(3)
    if choice == 0:
        del result[key]
    elif choice == 1:
        result[key] = perturb_value(result[key], rng, depth + 1)
    else:
        new_key = perturb_value(key, rng, depth + 1)
        with contextlib.suppress(TypeError):  # an unhashable perturbed key
            result.setdefault(new_key, result[key])
    return result


def perturbed_inputs(arguments: list[str], rng: random.Random, count: int) -> list[tuple[list, dict]]:
    """Up to ``count`` distinct perturbations of the given argument texts (never the originals)."""
    parsed = [p for p in (parse_arguments(text) for text in arguments) if p is not None]
    if not parsed or count <= 0:
        return []
    seen = {render_arguments(*p) for p in parsed}
    made: list[tuple[list, dict]] = []
    for _ in range(count * 10):
        if len(made) >= count:
            break
        args, kwargs = rng.choice(parsed)
        args, kwargs = list(args), dict(kwargs)
        slots = [("args", i) for i in range(len(args))] + [("kwargs", k) for k in kwargs]
        if not slots:
            break
        for _ in range(rng.choice((1, 1, 2))):
            where, key = rng.choice(slots)
            target = args if where == "args" else kwargs
            target[key] = perturb_value(target[key], rng)
        text = render_arguments(args, kwargs)
        if len(text) <= 10_000 and text not in seen:
            seen.add(text)
            made.append((args, kwargs))
    return made
