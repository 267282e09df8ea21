"""What a spec expression elaborates to, before it becomes ta ops.

    Scalar(2.0)                       a compile-time number
    Leaf(%v, ("i", "k"))              a ta tensor value, its dims named by indices
    Idx(("+", ("var", "i"), ("int", 1)))  an integer index expression
    Pw("exp", (x,))                   a pointwise operation, emitted into one ta.map

Pointwise trees stay symbolic until something needs a tensor (a reduction, a
contraction, an assignment), so a whole chain like ``exp(x - m) * scale``
becomes a single ta.map.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..diagnostics import SourceLoc

COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
LOGIC = ("and", "or")
UNARY_FUNCTIONS = ("exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "abs", "erf")
BINARY_FUNCTIONS = ("max", "min")


@dataclass(frozen=True)
class Scalar:
    value: float


@dataclass(frozen=True)
class Leaf:
    value: object  # ir.Value of a ta tensor
    indices: tuple[str, ...]


@dataclass(frozen=True)
class Idx:
    expr: tuple  # ("var", name) | ("param", name) | ("int", n) | (op, a, b) with op in + - * /


@dataclass(frozen=True)
class Pw:
    fn: str
    args: tuple
    loc: SourceLoc


def free_indices(v) -> tuple[str, ...]:
    """Index names ``v`` depends on, in order of first appearance."""
    seen: dict[str, None] = {}
    _collect(v, seen)
    return tuple(seen)


def _collect(v, seen):
    if isinstance(v, Leaf):
        seen.update(dict.fromkeys(v.indices))
    elif isinstance(v, Idx):
        _collect_idx(v.expr, seen)
    elif isinstance(v, Pw):
        for a in v.args:
            _collect(a, seen)


def _collect_idx(expr, seen):
    if expr[0] == "var":
        seen[expr[1]] = None
    elif expr[0] in "+-*/":
        _collect_idx(expr[1], seen)
        _collect_idx(expr[2], seen)


def is_bool(v) -> bool:
    return isinstance(v, Pw) and (v.fn in COMPARISONS or v.fn in LOGIC)


def int_value(v) -> int | None:
    """The integer a Scalar holds, else None."""
    if isinstance(v, Scalar) and math.isfinite(v.value) and v.value == int(v.value):
        return int(v.value)
    return None


def as_idx(v) -> Idx | None:
    """``v`` as an index expression (integer Scalars included), else None."""
    if isinstance(v, Idx):
        return v
    n = int_value(v)
    return Idx(("int", n)) if n is not None else None


_FOLD = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b if b else math.copysign(math.inf, a) if a else math.nan,
    "neg": lambda a: -a, "exp": math.exp, "log": lambda a: math.log(a) if a > 0 else -math.inf if a == 0 else math.nan,
    "sqrt": lambda a: math.sqrt(a) if a >= 0 else math.nan, "rsqrt": lambda a: 1 / math.sqrt(a) if a > 0 else math.inf if a == 0 else math.nan,
    "tanh": math.tanh, "sigmoid": lambda a: 1 / (1 + math.exp(-a)), "abs": abs, "erf": math.erf,
    "max": max, "min": min,
}


def fold(fn: str, args: tuple):
    """Fold an operation on compile-time numbers; None when it cannot be folded."""
    if fn in _FOLD and all(isinstance(a, Scalar) for a in args):
        return Scalar(float(_FOLD[fn](*(a.value for a in args))))
    return None
