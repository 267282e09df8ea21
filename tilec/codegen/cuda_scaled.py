"""Register tiles kept unscaled: x = c · y with c > 0 a constant, held as y.

Attention's stabiliser is the scores times the softmax scale, masked: x = select(mask, s · c,
-inf). Its uses are the row max and exp(x - m). Held as y = select(mask, s, -inf), x costs no
multiply an element:

    max over a row of x   = c · (max over the row of y)   exactly for one multiply: rounding
                                                          c · y is monotone in y for c > 0, so
                                                          the largest rounded product is the
                                                          product of the largest y (several
                                                          constants are multiplied into one c:
                                                          equal as reals, as the exponential's
                                                          folding is)
    exp(x - m)            = 2^(y · (c log2 e) - m log2 e)  one FFMA and ex2 (exp_diff_scaled),
                                                          where it was a multiply, an FFMA and ex2

(c · -inf = -inf for c > 0: the mask's fill needs no change.) Any other read of x in a map
multiplies there. A tile is held so only when every use is a row max or min or a map's
element read: a multiply, a store or a carried copy would see y.
"""

from __future__ import annotations

import math

from torch_mlir import ir

from .cuda_text import float_literal

LOG2E = 1.4426950408889634


def scale_of(op):
    """(the mulf the map's yield reaches, the value it scales, c) when tile.map ``op``
    computes c · y that way and every use of its result takes a scaled tile; else None. From
    the yield down: selects with an infinite fill and additions of a 0-or-infinite mask (c (y
    + z) = c y + z for z in {0, ±inf}, NaN included) pass through; then a product of positive
    constants (PyTorch's attention scales q and k by the square root of the scale each: the
    scores by both)."""
    users = [use.owner for use in op.result.uses]
    if not users or not all(_takes_scaled(u) for u in users):
        return None
    block = op.regions[0].blocks[0]
    value = next(inner for inner in block.operations if inner.operation.name == "tile.yield").operation.operands[0]
    while _single_use(value) and _owner_name(value) in ("arith.select", "arith.addf"):
        if _owner_name(value) == "arith.select":
            _, a, b = value.owner.operands
            value = a if _infinite(b) else b if _infinite(a) else None
        else:
            a, b = value.owner.operands
            value = a if _zero_or_infinite(b) else b if _zero_or_infinite(a) else None
        if value is None:
            return None
    outer, c = value, 1.0
    while _owner_name(value) == "arith.mulf" and _single_use(value):
        factor, kept = _positive_factor(value.owner)
        if factor is None:
            break
        value, c = kept, c * factor
    return None if value is outer else (outer.owner, value, c)


def _positive_factor(mulf):
    """(c, the other operand) of a multiply by a positive finite constant c, else (None, None)."""
    left, right = mulf.operands
    for kept, constant in ((left, right), (right, left)):
        c = _constant(constant)
        if c is not None and c > 0 and math.isfinite(c):
            return c, kept
    return None, None


def element(self, name: str, reg: str, scale: float) -> str:
    """The C text of an element of a scaled tile read in a map: the product, remembered so
    that exp of (it - b) becomes exp_diff_scaled."""
    plain = f"{name}[mi][ni][{reg}]"
    text = f"({plain} * {float_literal(scale)})"
    self.scaled_reads[text] = (plain, scale)
    return text


def exp_of_difference(self, a: str, b: str) -> str | None:
    """exp(a - b) with ``a`` an element of a scaled tile: one FFMA and ex2; else None."""
    if a not in self.scaled_reads:
        return None
    plain, scale = self.scaled_reads[a]
    return f"exp_diff_scaled({plain}, {b}, {float_literal(scale * LOG2E)})"


def _takes_scaled(user) -> bool:
    name = user.name
    if name == "tile.reduce":
        return ir.StringAttr(user.attributes["kind"]).value in ("max", "min")
    return name == "tile.elem"


def _owner_name(value):
    return None if isinstance(value.owner, ir.Block) else value.owner.name


def _single_use(value) -> bool:
    return len(list(value.uses)) == 1


def _constant(value):
    if _owner_name(value) != "arith.constant":
        return None
    attr = value.owner.attributes["value"]
    return ir.FloatAttr(attr).value if isinstance(attr, ir.FloatAttr) else None


def _infinite(value) -> bool:
    c = _constant(value)
    return c is not None and math.isinf(c)


def _zero_or_infinite(value) -> bool:
    """A constant 0 or ±inf, or a select between two of them (an additive mask)."""
    c = _constant(value)
    if c is not None:
        return c == 0 or math.isinf(c)
    if _owner_name(value) != "arith.select":
        return False
    return all(_constant(v) is not None and (_constant(v) == 0 or math.isinf(_constant(v)))
               for v in list(value.owner.operands)[1:])
