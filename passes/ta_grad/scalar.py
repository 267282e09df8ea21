"""Reverse mode over a ta.map body: the adjoint of each scalar value, built as scalar ops.

A body computes one element from elements of other tensors (``ta.at``), indices and
parameters. Given the adjoint ``a`` of what it yields, ``adjoints`` sweeps the body backwards
and returns the adjoint of every float value in it, in f32, built as ops at the current
insertion point (after the body's own ops, whose values it reads):

    x + y : x̄ += a, ȳ += a          x * y : x̄ += a·y, ȳ += a·x        x / y : x̄ += a / y, ȳ -= a·x / y²
    exp x : x̄ += a·exp x            log x : x̄ += a / x                 rsqrt x : x̄ += -a·y³ / 2
    max(x, y) : to x where x >= y, else to y     select(c, x, y) : to x where c, else to y

Index arithmetic, comparisons and constants carry no adjoint. An op with no rule is refused,
named, so a gradient is never silently dropped.
"""

from __future__ import annotations

import math as pymath

from torch_mlir import ir
from torch_mlir.dialects import arith, math

_NO_ADJOINT = ("ta.index", "ta.param", "arith.constant", "arith.cmpf", "arith.cmpi", "arith.index_cast",
               "arith.sitofp", "arith.uitofp", "arith.addi", "arith.subi", "arith.muli", "arith.divsi",
               "arith.floordivsi", "arith.remsi", "arith.andi", "arith.ori", "arith.xori", "arith.fptosi")


class NoAdjoint(ValueError):
    """A scalar op the reverse sweep has no rule for (its name and location ride along)."""

    def __init__(self, op):
        super().__init__(f"'{op.operation.name}' has no derivative rule")
        self.location = op.location


def widen(value: ir.Value) -> ir.Value:
    """``value`` as f32 (a 16-bit float widened; adjoints are kept in f32)."""
    if isinstance(value.type, ir.F32Type):
        return value
    return arith.ExtFOp(ir.F32Type.get(), value).result


def _const(value: float) -> ir.Value:
    return arith.ConstantOp(ir.F32Type.get(), value).result


def _select(cond: ir.Value, a: ir.Value, b: ir.Value) -> ir.Value:
    return arith.SelectOp(cond, a, b).result


def _ge(x: ir.Value, y: ir.Value) -> ir.Value:
    return arith.CmpFOp(arith.CmpFPredicate.OGE, widen(x), widen(y)).result


def _rules(op, a: ir.Value) -> list:
    """[(operand, its contribution)] of scalar ``op`` whose result has adjoint ``a`` (f32)."""
    name = op.operation.name
    args = list(op.operation.operands)
    y = op.result if len(op.operation.results) == 1 else None
    mul, div, sub, neg = arith.MulFOp, arith.DivFOp, arith.SubFOp, arith.NegFOp
    zero = _const(0.0) if name in ("arith.maximumf", "arith.maxnumf", "arith.minimumf", "arith.minnumf",
                                   "arith.select", "math.absf") else None
    if name in ("arith.addf",):
        return [(args[0], a), (args[1], a)]
    if name == "arith.subf":
        return [(args[0], a), (args[1], neg(a).result)]
    if name == "arith.negf":
        return [(args[0], neg(a).result)]
    if name == "arith.mulf":
        return [(args[0], mul(a, widen(args[1])).result), (args[1], mul(a, widen(args[0])).result)]
    if name == "arith.divf":
        quotient = div(a, widen(args[1])).result
        return [(args[0], quotient), (args[1], neg(mul(quotient, div(widen(args[0]), widen(args[1])).result).result).result)]
    if name in ("arith.extf", "arith.truncf"):
        return [(args[0], a)]
    if name in ("arith.maximumf", "arith.maxnumf", "arith.minimumf", "arith.minnumf"):
        first = _ge(args[0], args[1]) if "max" in name else _ge(args[1], args[0])
        return [(args[0], _select(first, a, zero)), (args[1], _select(first, zero, a))]
    if name == "arith.select":
        return [(args[1], _select(args[0], a, zero)), (args[2], _select(args[0], zero, a))]
    if name == "math.exp":
        return [(args[0], mul(a, widen(y)).result)]
    if name == "math.log":
        return [(args[0], div(a, widen(args[0])).result)]
    if name == "math.sqrt":
        return [(args[0], div(mul(a, _const(0.5)).result, widen(y)).result)]
    if name == "math.rsqrt":
        cube = mul(mul(widen(y), widen(y)).result, widen(y)).result
        return [(args[0], mul(a, mul(cube, _const(-0.5)).result).result)]
    if name == "math.tanh":
        return [(args[0], mul(a, sub(_const(1.0), mul(widen(y), widen(y)).result).result).result)]
    if name == "math.erf":
        x = widen(args[0])
        bell = math.ExpOp(neg(mul(x, x).result).result).result
        return [(args[0], mul(a, mul(bell, _const(2.0 / pymath.sqrt(pymath.pi))).result).result)]
    if name == "math.absf":
        x = widen(args[0])
        positive = arith.CmpFOp(arith.CmpFPredicate.OGT, x, _const(0.0)).result
        negative = arith.CmpFOp(arith.CmpFPredicate.OLT, x, _const(0.0)).result
        return [(args[0], _select(positive, a, _select(negative, neg(a).result, zero)))]
    raise NoAdjoint(op)


def _is_float(value: ir.Value) -> bool:
    return isinstance(value.type, (ir.F32Type, ir.F16Type, ir.BF16Type))


def adjoints(body_ops: list, result: ir.Value, a: ir.Value) -> dict:
    """{value: f32 adjoint} for the float values of ``body_ops`` (a map body, its yield left
    out) given the adjoint ``a`` of ``result``, the value it yields."""
    adj = {result: a}
    for op in reversed(body_ops):
        outs = list(op.operation.results)
        if len(outs) != 1 or outs[0] not in adj or op.operation.name == "ta.at":
            continue
        if op.operation.name in _NO_ADJOINT:
            continue
        for operand, contribution in _rules(op, adj[outs[0]]):
            if not _is_float(operand):
                continue
            adj[operand] = arith.AddFOp(adj[operand], contribution).result if operand in adj else contribution
    return adj
