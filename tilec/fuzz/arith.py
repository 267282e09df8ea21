"""The spec language's number rule, as the reference applies it (docs/spec-language.md).

A number spelled without a point or an exponent (``2``) is an integer, and so is a const whose
definition folds to one exactly from integers (``const G = 4``, ``const C = 8 / 2``); an index
or a parameter is an index expression. ``+ - * /`` with an index expression on one side and an
index expression or an integer on the other is integer arithmetic, ``/`` floor division; all
else is f32 arithmetic: ``1.0 / N`` and ``2e0 / N`` divide, ``1 / N`` is 0 for N > 1.

    integer_form(("bin", "/", ("num", 1), ("ix", ("param", "N"))), {})
    # ("idx", ("/", ("int", 1), ("param", "N"))): floor division
    integer_form(("bin", "/", ("num", 1.0), ("ix", ("param", "N"))), {})   # None: f32 division
"""

from __future__ import annotations

import torch


class ReferenceError(Exception):
    """The spec is outside what the reference can evaluate (a bug in the generator), e.g. a read
    out of bounds: raise ReferenceError("X read at 0..8, outside 0..7")."""


def index_value(ix, env: dict, consts: dict, axes=None):
    """An index expression's value: an int, or an int64 tensor over ``axes`` (name -> (axis, size, rank)).

        index_value(("/", ("param", "H"), ("const", "G")), {"H": 8}, {"G": 4.0}) == 2
    """
    kind = ix[0]
    if kind == "int":
        return ix[1]
    if kind == "param":
        return env[ix[1]]
    if kind == "const":
        return int(consts[ix[1]])
    if kind == "var":
        axis, size, rank = axes[ix[1]]
        return torch.arange(size).reshape([size if k == axis else 1 for k in range(rank)])
    a, b = index_value(ix[1], env, consts, axes), index_value(ix[2], env, consts, axes)
    if kind not in _INDEX_OPS:
        raise ReferenceError(f"unknown index operation {kind!r}")
    return _INDEX_OPS[kind](a, b)


_INDEX_OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
              "/": lambda a, b: a // b if isinstance(a, int) and isinstance(b, int)
              else torch.div(torch.as_tensor(a), b, rounding_mode="floor")}


def is_integer_number(e) -> bool:
    """Whether a number node is spelled as an integer: ("num", 2) is, ("num", 2.0) and
    ("num", 2.0, "2e0") are not."""
    return e[0] == "num" and type(e[1]) is int


def integer_form(e, ints: dict):
    """("idx", index tree) when ``e`` is integer arithmetic on an index expression, ("int", n)
    when it is an integer number (``ints``: the integer consts), else None (an f32 value).

        integer_form(("bin", "*", ("num", 2), ("num", 3)), {}) == ("int", 6)
        integer_form(("neg", ("ix", ("var", "i"))), {}) == ("idx", ("-", ("int", 0), ("var", "i")))
    """
    kind = e[0]
    if kind == "ix":
        return ("idx", e[1])
    if is_integer_number(e):
        return ("int", e[1])
    if kind == "const":
        return ("int", ints[e[1]]) if e[1] in ints else None
    if kind == "neg":
        inner = integer_form(e[1], ints)
        if inner is None:
            return None
        return ("idx", ("-", ("int", 0), inner[1])) if inner[0] == "idx" else ("int", -inner[1])
    if kind == "call" and e[1] in ("abs", "max", "min"):
        args = [integer_form(a, ints) for a in e[2]]
        if not all(a is not None and a[0] == "int" for a in args):
            return None   # a function of an index is an f32 value
        return ("int", {"abs": abs, "max": max, "min": min}[e[1]](*(a[1] for a in args)))
    if kind != "bin":
        return None
    a, b = integer_form(e[2], ints), integer_form(e[3], ints)
    if a is None or b is None:
        return None
    if "idx" in (a[0], b[0]):
        tree = lambda f: f[1] if f[0] == "idx" else ("int", f[1])
        return ("idx", (e[1], tree(a), tree(b)))
    return _fold(e[1], a[1], b[1])


def _fold(op: str, a: int, b: int):
    """Two integers folded as the frontend folds constants: an integer when the result is exact
    (``4 / 2``), else None (``1 / 2`` is the f32 0.5)."""
    if op == "/":
        return ("int", a // b) if b and a % b == 0 else None
    return ("int", {"+": a + b, "-": a - b, "*": a * b}[op])


def integer_consts(consts: tuple) -> dict:
    """name -> value of each const that is an integer (declared in order, may use earlier ones).

        integer_consts((("G", ("num", 4)), ("s", ("num", 0.125)))) == {"G": 4}
    """
    ints = {}
    for name, expr in consts:
        form = integer_form(expr, ints)
        if form is not None and form[0] == "int":
            ints[name] = form[1]
    return ints
