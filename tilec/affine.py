"""Evaluate an MLIR affine expression over any integer-like values.

    affine(expr, [i, j])                                   # ints or torch tensors
    affine(expr, ivs, const=z3.IntVal, floordiv=lambda a, b: a / b)   # Z3 integers

Floor and ceiling division assume a positive divisor (as affine maps guarantee).
"""

from __future__ import annotations

import operator

from torch_mlir import ir


def affine(expr: ir.AffineExpr, dims: list, const=lambda n: n, floordiv=operator.floordiv):
    """``expr`` with dim i bound to ``dims[i]``; ``const`` and ``floordiv`` fit the value kind."""
    if isinstance(expr, ir.AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, ir.AffineConstantExpr):
        return const(expr.value)
    a, b = (affine(e, dims, const, floordiv) for e in (expr.lhs, expr.rhs))
    if isinstance(expr, ir.AffineAddExpr):
        return a + b
    if isinstance(expr, ir.AffineMulExpr):
        return a * b
    if isinstance(expr, ir.AffineModExpr):
        return a % b
    if isinstance(expr, ir.AffineFloorDivExpr):
        return floordiv(a, b)
    if isinstance(expr, ir.AffineCeilDivExpr):
        return floordiv(a + b - 1, b)
    raise ValueError(f"unsupported affine expression {expr}")


def z3_results(amap: ir.AffineMap, dims: list) -> list:
    """``amap``'s results on Z3 integers ``dims`` (floor division by a positive constant is Z3's own)."""
    import z3

    return [affine(e, dims, const=z3.IntVal, floordiv=lambda a, b: a / b) for e in amap.results]
