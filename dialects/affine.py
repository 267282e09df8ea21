"""Evaluate an MLIR affine expression in any domain: one evaluator for every layer.

    affine(expr, [i, j])                                   # ints or torch tensors
    affine(expr, ivs, const=z3.IntVal, floordiv=lambda a, b: a / b)   # Z3 integers
    affine(expr, names, const=..., add=..., mul=..., mod=..., floordiv=..., ceildiv=...)  # C text, arith ops

The oracle and the interpreter evaluate on torch tensors, the verifier on Z3 integers, the
CUDA emitter in C text (codegen/cuda_address.py) and ta-to-tile as arith ops; each passes its
domain's constant and operations, the walk over the expression is this one. Floor and ceiling
division and the modulus assume a positive divisor (as affine maps guarantee).
"""

from __future__ import annotations

import operator

from torch_mlir import ir


def affine(expr: ir.AffineExpr, dims: list, const=lambda n: n, floordiv=operator.floordiv, *,
           add=operator.add, mul=operator.mul, mod=operator.mod, ceildiv=None):
    """``expr`` with dim i bound to ``dims[i]``, in the domain of ``const`` (a number as a value)
    and the operations given (Python's by default; ``ceildiv`` by default floordiv(a + b - 1, b))."""
    if isinstance(expr, ir.AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, ir.AffineConstantExpr):
        return const(expr.value)
    ops = dict(const=const, floordiv=floordiv, add=add, mul=mul, mod=mod, ceildiv=ceildiv)
    a, b = (affine(e, dims, **ops) for e in (expr.lhs, expr.rhs))
    if isinstance(expr, ir.AffineAddExpr):
        return add(a, b)
    if isinstance(expr, ir.AffineMulExpr):
        return mul(a, b)
    if isinstance(expr, ir.AffineModExpr):
        return mod(a, b)
    if isinstance(expr, ir.AffineFloorDivExpr):
        return floordiv(a, b)
    if isinstance(expr, ir.AffineCeilDivExpr):
        return ceildiv(a, b) if ceildiv is not None else floordiv(a + b - 1, b)
    raise ValueError(f"unsupported affine expression {expr}")


def z3_results(amap: ir.AffineMap, dims: list) -> list:
    """``amap``'s results on Z3 integers ``dims`` (floor division by a positive constant is Z3's own)."""
    import z3

    return [affine(e, dims, const=z3.IntVal, floordiv=lambda a, b: a / b) for e in amap.results]
