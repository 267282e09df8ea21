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

import difflib
import math
from dataclasses import dataclass

from ..diagnostics import SourceLoc
from .limits import F32_MAX

COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
LOGIC = ("and", "or")
UNARY_FUNCTIONS = ("exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "abs", "erf")
BINARY_FUNCTIONS = ("max", "min")
FUNCTIONS = (*UNARY_FUNCTIONS, *BINARY_FUNCTIONS, "select")
REDUCERS = ("sum", "max", "min", "softmax", "logsumexp")


def unknown_function(name: str) -> str:
    """The message for a call of ``name``, which the spec language does not define, with the
    known names closest to it (or, when none is close, all of them).

    >>> unknown_function("softmx")
    "unknown function 'softmx'; did you mean 'softmax'?"
    """
    known = tuple(dict.fromkeys((*FUNCTIONS, *REDUCERS)))
    close = difflib.get_close_matches(name, known, n=3)
    if close:
        return f"unknown function '{name}'; did you mean {' or '.join(repr(c) for c in close)}?"
    return (f"unknown function '{name}'; the functions are {', '.join(FUNCTIONS)} and the reductions "
            f"{', '.join(f'{r}[...]' for r in REDUCERS)}")


@dataclass(frozen=True)
class Scalar:
    value: float
    integer: bool = False  # written as an integer (4, const G = 4): index arithmetic may use it


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
    """The integer an integer Scalar holds, else None (``1.0`` is an f32, not an index)."""
    if isinstance(v, Scalar) and v.integer and math.isfinite(v.value) and v.value == int(v.value):
        return int(v.value)
    return None


def as_idx(v) -> Idx | None:
    """``v`` as an index expression (integer Scalars included), else None."""
    if isinstance(v, Idx):
        return v
    n = int_value(v)
    return Idx(("int", n)) if n is not None else None


def _sigmoid(a: float) -> float:
    if a >= 0:
        return 1 / (1 + math.exp(-a))
    return math.exp(a) / (1 + math.exp(a))  # no overflow for large negative a


_FOLD = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
    "neg": lambda a: -a, "exp": math.exp, "log": lambda a: math.log(a) if a > 0 else -math.inf if a == 0 else math.nan,
    "sqrt": lambda a: math.sqrt(a) if a >= 0 else math.nan, "rsqrt": lambda a: 1 / math.sqrt(a) if a > 0 else math.inf if a == 0 else math.nan,
    "tanh": math.tanh, "sigmoid": _sigmoid, "abs": abs, "erf": math.erf,
    "max": max, "min": min,
}


_INTEGER_FOLDS = {"+", "-", "*", "/", "neg", "abs", "max", "min"}  # integer in, integer out (when exact)


class FoldError(ValueError):
    """A constant expression with no finite f32 value (1 / 0, exp(1000), sqrt(-1))."""


def _spelled(fn: str, values) -> str:
    shown = [f"{v:g}" for v in values]
    if fn in ("+", "-", "*", "/"):
        return f"{shown[0]} {fn} {shown[1]}"
    return f"-{shown[0]}" if fn == "neg" else f"{fn}({', '.join(shown)})"


def fold(fn: str, args: tuple):
    """Fold an operation on compile-time numbers; None when it cannot be folded.

    The value must be an f32: ``fold("exp", (Scalar(1000.0),))`` raises FoldError, as do a
    division by zero and a NaN; infinities are kept only when an operand is one (``-inf``)."""
    if fn not in _FOLD or not all(isinstance(a, Scalar) for a in args):
        return None
    values = [a.value for a in args]
    try:
        if fn == "/" and values[1] == 0:
            raise ZeroDivisionError
        value = float(_FOLD[fn](*values))
    except ZeroDivisionError:
        raise FoldError(f"division by zero in the constant {_spelled(fn, values)}") from None
    except OverflowError:
        value = None
    if value is not None and math.isnan(value):
        raise FoldError(f"the constant {_spelled(fn, values)} is not a number (NaN)")
    if all(math.isfinite(v) for v in values) and (value is None or not abs(value) <= F32_MAX):
        what = f"is {value:g}" if value is not None and math.isinf(value) else "overflows f32"
        raise FoldError(f"the constant {_spelled(fn, values)} {what} (a finite f32 is at most {F32_MAX:.7g})")
    exact = value is not None and math.isfinite(value) and value == int(value)
    integer = all(a.integer for a in args) and fn in _INTEGER_FOLDS and exact
    return Scalar(value, integer)
