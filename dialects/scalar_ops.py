"""The scalar ops of map bodies (arith and math on floats, integers and conditions), each op's
meaning written once.

A ``ta.map``, ``ta.online`` or ``tile.map`` body is a region of scalar ops. Each op's meaning is
written here once, over a few primitives (a sum, a comparison, a select, an elementary
function, a rounding, ...), and each layer folds it into its own values by giving a ``Domain``
of those primitives: the oracle and the tile interpreter on torch tensors
(``executors/oracle_scalar.py``), the verifier on Z3 terms (``verify/scalars.py``), the CUDA
emitter as C text (``codegen/cuda_scalar.py``). A layer that lacks a primitive has no rule for
the ops built on it, and says so (``NoRule``).

    >>> C = Domain("C", lt=lambda a, b: f"{a} < {b}", ge=lambda a, b: f"{a} >= {b}",
    ...            not_=lambda a: f"!({a})")
    >>> cmpf(11, "a", "b", C)  # ult: true where either side is NaN
    '!(a >= b)'

Floats follow IEEE 754 in torch and in C, NaN included: ``eq``..``ge`` are the ordered
comparisons (false at a NaN) and ``ne`` is IEEE's != (true at a NaN), so every predicate of
``arith.cmpf`` is one of them or a negation. Z3's reals have no NaN: there an ordered
predicate and its unordered twin mean the same. ``exp``, ``log`` and the other math ops are
each layer's own (torch's, CUDA's, uninterpreted functions both sides of a proof share).
One difference at a NaN remains: ``arith.maximumf`` and ``minimumf`` propagate it (MLIR, torch)
where the emitter's ``fmaxf`` and ``fminf`` return the other operand, as the reduction kinds'
C text does (``reduce_kinds.py``).

Integers: ``arith.floordivsi`` floors (the spec's ``/``: -3 / 2 = -2) in every layer.
``arith.divsi`` and ``arith.remsi`` truncate in MLIR; their meaning here is given for a
dividend >= 0 and a divisor > 0, where truncation and flooring agree (as for the index
arithmetic, ``index_ops.py``); the emitter has no rule for them in a body. ``andi``, ``ori``
and ``xori`` are given on conditions (``i1``) alone.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Callable

from torch_mlir import ir


class NoRule(ValueError):
    """A layer's domain lacks what an op's meaning is written with (or the op has none)."""


def _lacks(primitive: str) -> Callable:
    def missing(*args):
        raise NoRule(primitive)
    return missing


@dataclass(frozen=True)
class Domain:
    """One layer's scalar values and their primitives. Python's operators are the default for
    the arithmetic and the comparisons (they apply to ints, torch tensors and Z3 terms alike);
    what a layer does not give, it has no rule for.

    ``const(value, type)`` makes a constant (a float or an int, of MLIR type ``type``);
    ``cast(name, a, src, dst)`` rounds or widens between float types (``arith.extf`` /
    ``arith.truncf``, between MLIR types); ``to_float(a, type)`` is ``arith.sitofp``;
    ``math(name, *args)`` one of math's ops by its name (``"math.exp"``)."""

    name: str
    add: Callable = operator.add
    sub: Callable = operator.sub
    mul: Callable = operator.mul
    div: Callable = operator.truediv
    neg: Callable = operator.neg
    floordiv: Callable = _lacks("floordiv")
    div_nonneg: Callable = _lacks("div_nonneg")  # a / b for a >= 0, b > 0
    rem_nonneg: Callable = _lacks("rem_nonneg")  # a % b for a >= 0, b > 0
    max: Callable = _lacks("max")
    min: Callable = _lacks("min")
    eq: Callable = operator.eq
    ne: Callable = operator.ne
    lt: Callable = operator.lt
    le: Callable = operator.le
    gt: Callable = operator.gt
    ge: Callable = operator.ge
    not_: Callable = _lacks("not")
    and_: Callable = _lacks("and")
    or_: Callable = _lacks("or")
    xor: Callable = _lacks("xor")
    select: Callable = _lacks("select")
    const: Callable = _lacks("const")
    index_cast: Callable = lambda a: a  # noqa: E731
    to_float: Callable = _lacks("to_float")
    cast: Callable = _lacks("cast")
    math: Callable = _lacks("math")


PYTHON = Domain("python")  # Python's operators: the comparisons of ints, tensors and Z3 terms

# arith.cmpf's predicates, as MLIR numbers them (0 and 15, the constants false and true, have none)
_unequal = lambda d, a, b: d.or_(d.lt(a, b), d.gt(a, b))  # noqa: E731
_ordered = lambda d, a, b: d.and_(d.eq(a, a), d.eq(b, b))  # noqa: E731  neither is NaN
_CMPF = {
    1: lambda d, a, b: d.eq(a, b),                 # oeq
    2: lambda d, a, b: d.gt(a, b),                 # ogt
    3: lambda d, a, b: d.ge(a, b),                 # oge
    4: lambda d, a, b: d.lt(a, b),                 # olt
    5: lambda d, a, b: d.le(a, b),                 # ole
    6: _unequal,                                   # one: ordered and unequal
    7: _ordered,                                   # ord
    8: lambda d, a, b: d.not_(_unequal(d, a, b)),  # ueq
    9: lambda d, a, b: d.not_(d.le(a, b)),         # ugt
    10: lambda d, a, b: d.not_(d.lt(a, b)),        # uge
    11: lambda d, a, b: d.not_(d.ge(a, b)),        # ult
    12: lambda d, a, b: d.not_(d.gt(a, b)),        # ule
    13: lambda d, a, b: d.ne(a, b),                # une
    14: lambda d, a, b: d.not_(_ordered(d, a, b)),  # uno
}
# arith.cmpi's signed predicates (6-9, the unsigned ones, have none)
_CMPI = {0: "eq", 1: "ne", 2: "lt", 3: "le", 4: "gt", 5: "ge"}

SCALAR = {
    "arith.addf": lambda d, a, b: d.add(a, b),
    "arith.subf": lambda d, a, b: d.sub(a, b),
    "arith.mulf": lambda d, a, b: d.mul(a, b),
    "arith.divf": lambda d, a, b: d.div(a, b),
    "arith.negf": lambda d, a: d.neg(a),
    "arith.maximumf": lambda d, a, b: d.max(a, b),
    "arith.minimumf": lambda d, a, b: d.min(a, b),
    "arith.addi": lambda d, a, b: d.add(a, b),
    "arith.subi": lambda d, a, b: d.sub(a, b),
    "arith.muli": lambda d, a, b: d.mul(a, b),
    "arith.floordivsi": lambda d, a, b: d.floordiv(a, b),
    "arith.divsi": lambda d, a, b: d.div_nonneg(a, b),
    "arith.remsi": lambda d, a, b: d.rem_nonneg(a, b),
    "arith.select": lambda d, c, a, b: d.select(c, a, b),
    "arith.index_cast": lambda d, a: d.index_cast(a),
}
_LOGIC = {"arith.andi": "and_", "arith.ori": "or_", "arith.xori": "xor"}


def cmpf(predicate: int, a, b, d: Domain):
    """``arith.cmpf`` with ``predicate`` on ``a`` and ``b`` in domain ``d``."""
    if predicate not in _CMPF:
        raise NoRule(f"arith.cmpf predicate {predicate}")
    return _CMPF[predicate](d, a, b)


def cmpi(predicate: int, a, b, d: Domain = PYTHON):
    """``arith.cmpi`` with a signed ``predicate`` on ``a`` and ``b`` in domain ``d``."""
    if predicate not in _CMPI:
        raise NoRule(f"arith.cmpi predicate {predicate}")
    return getattr(d, _CMPI[predicate])(a, b)


def constant(op):
    """The value of an ``arith.constant``: a float, or an int (an index, an integer, an i1)."""
    attr = op.attributes["value"]
    return ir.FloatAttr(attr).value if isinstance(attr, ir.FloatAttr) else ir.IntegerAttr(attr).value


def evaluate(op, args: list, d: Domain):
    """The value of scalar op ``op`` on the values ``args`` of its operands, in domain ``d``;
    NoRule where the op has no meaning here or ``d`` lacks what its meaning is written with."""
    name = op.operation.name
    if name == "arith.constant":
        return d.const(constant(op), op.result.type)
    if name in ("arith.cmpf", "arith.cmpi"):
        predicate = ir.IntegerAttr(op.attributes["predicate"]).value
        return (cmpf if name == "arith.cmpf" else cmpi)(predicate, *args, d)
    if name in ("arith.extf", "arith.truncf"):
        return d.cast(name, args[0], op.operation.operands[0].type, op.result.type)
    if name == "arith.sitofp":
        return d.to_float(args[0], op.result.type)
    if name in _LOGIC:
        if not (isinstance(op.result.type, ir.IntegerType) and ir.IntegerType(op.result.type).width == 1):
            raise NoRule(f"{name} on {op.result.type} (it is given on i1 conditions)")
        return getattr(d, _LOGIC[name])(*args)
    if name.startswith("math."):
        return d.math(name, *args)
    if name not in SCALAR:
        raise NoRule(name)
    return SCALAR[name](d, *args)
