"""Plain data: the one form in which a value leaves sandboxed code.

A sandboxed child encodes what it computed with :func:`encode`: built-in types only, checked with
``type(x) is …`` so no subclass (and no ``__eq__`` of its own) gets through, recursively, with NaN and
the infinities spelled out, within fixed bounds of depth and size. The caller rebuilds the value
with :func:`decode`, which trusts nothing it is given: every tag, shape and bound is checked again,
and anything else raises :class:`PlainDataError`. Comparisons with a reference then happen in the
caller, on ordinary Python values it built itself.

Standard library only: the fork server imports this file by name.
"""

import builtins
import math

MAX_DEPTH = 64
MAX_NODES = 100_000
MAX_CHARACTERS = 2_000_000  # str, bytes and int digits together
MAX_INT_DIGITS = 4000  # below the interpreter's own int/str limit (4300), so no conversion can refuse
_COLLISION_CHECK = 64  # sets and dicts this large must not hash most of their members alike

_ATOMS = ("int", "float", "complex", "str", "bytes", "bool", "none")
_SEQUENCES = {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}
# Exception names that may appear in a detail: the built-in ones (a sandboxed program can name its
# own exception class anything, e.g. the text of a file it read).
_BUILTIN_EXCEPTIONS = frozenset(
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
)


class PlainDataError(ValueError):
    """A value that is not plain data, or an encoding that is not well formed."""


def exception_name(name):
    """``name`` if it is a built-in exception class, else ``"exception"``."""
    return name if type(name) is str and name in _BUILTIN_EXCEPTIONS else "exception"


class _Budget:
    def __init__(self):
        self.nodes = 0
        self.characters = 0

    def take(self, nodes=1, characters=0):
        self.nodes += nodes
        self.characters += characters
        if self.nodes > MAX_NODES or self.characters > MAX_CHARACTERS:
            raise PlainDataError("too large")


def _float_text(value):
    if math.isnan(value):
        return "nan"
    return repr(value)  # "inf", "-inf" and every finite float round-trip through float()


def decode_all(values):
    """Several encoded values under one shared budget (a result cannot multiply the bounds)."""
    if type(values) is not list:
        raise PlainDataError("not a list of values")
    budget = _Budget()
    return [decode(value, 0, budget) for value in values]


def encode(value, _depth=0, _budget=None):
    """A JSON-ready encoding of ``value``; raises PlainDataError for anything but plain data."""
    budget = _budget if _budget is not None else _Budget()
    if _depth > MAX_DEPTH:
        raise PlainDataError("too deep")
    kind = type(value)
    if kind is bool:
        budget.take()
        return ["bool", value]
    if kind is int:
        text = str(value)  # bounded by the interpreter's own int/str digit limit
        budget.take(characters=len(text))
        return ["int", text]
    if kind is float:
        budget.take()
        return ["float", _float_text(value)]
    if kind is complex:
        budget.take()
        return ["complex", _float_text(value.real), _float_text(value.imag)]
    if kind is str:
        budget.take(characters=len(value))
        return ["str", value]
    if kind is bytes:
        budget.take(characters=len(value))
        return ["bytes", value.decode("latin-1")]
    if value is None:
        budget.take()
        return ["none"]
    for name, sequence in _SEQUENCES.items():
        if kind is sequence:
            budget.take()
            return [name, [encode(item, _depth + 1, budget) for item in value]]
    if kind is dict:
        budget.take()
        return ["dict", [[encode(k, _depth + 1, budget), encode(v, _depth + 1, budget)] for k, v in value.items()]]
    raise PlainDataError("not plain data")


def _float(text):
    if type(text) is not str or len(text) > 40:
        raise PlainDataError("bad float")
    try:
        return float(text)
    except ValueError:
        raise PlainDataError("bad float") from None


def _hashable_apart(items):
    """Members that mostly share one hash (crafted ints or tuples) would make building the set take
    quadratic time here, outside the sandbox: refuse them."""
    if len(items) >= _COLLISION_CHECK:
        try:
            hashes = {hash(item) for item in items}
        except TypeError:
            raise PlainDataError("unhashable member") from None
        if len(hashes) < len(items) // 2:
            raise PlainDataError("degenerate hashes")


def decode(data, _depth=0, _budget=None):
    """The value an :func:`encode` result stands for; raises PlainDataError if it is not one.
    Values decoded with one ``_budget`` share its bounds."""
    budget = _budget if _budget is not None else _Budget()
    if _depth > MAX_DEPTH:
        raise PlainDataError("too deep")
    if type(data) is not list or not data or type(data[0]) is not str:
        raise PlainDataError("not an encoded value")
    tag, rest = data[0], data[1:]
    budget.take()
    if tag == "none" and not rest:
        return None
    if tag in _ATOMS and len(rest) == 1:
        (item,) = rest
        if tag == "bool" and type(item) is bool:
            return item
        if tag == "int" and type(item) is str and len(item) <= MAX_INT_DIGITS and item.isascii() and \
                item.removeprefix("-").isdigit():
            budget.take(characters=len(item))
            return int(item)
        if tag == "float":
            return _float(item)
        if tag in ("str", "bytes") and type(item) is str:
            budget.take(characters=len(item))
            if tag == "str":
                return item
            try:
                return item.encode("latin-1")
            except UnicodeEncodeError:
                raise PlainDataError("bad bytes") from None
    if tag == "complex" and len(rest) == 2:
        return complex(_float(rest[0]), _float(rest[1]))
    if tag in _SEQUENCES and len(rest) == 1 and type(rest[0]) is list:
        items = [decode(item, _depth + 1, budget) for item in rest[0]]
        if tag in ("set", "frozenset"):
            _hashable_apart(items)
        try:
            return _SEQUENCES[tag](items)
        except TypeError:  # an unhashable member of a set
            raise PlainDataError("bad set") from None
    if tag == "dict" and len(rest) == 1 and type(rest[0]) is list:
        pairs = []
        for pair in rest[0]:
            if type(pair) is not list or len(pair) != 2:
                raise PlainDataError("bad dict")
            pairs.append((decode(pair[0], _depth + 1, budget), decode(pair[1], _depth + 1, budget)))
        _hashable_apart([key for key, _ in pairs])
        try:
            return dict(pairs)
        except TypeError:
            raise PlainDataError("bad dict key") from None
    raise PlainDataError("not an encoded value")
