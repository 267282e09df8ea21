"""A contraction stored in the order its one reader reshapes it (a ta-canonicalize pattern).

    permute_into_reshape     remap(contract(x, y; out), m) --> remap(contract(x, y; π out), π m)

π permutes the contraction's result dims so that the remap, read through it, only reshapes the
result row-major: attention's [B, H, T, D] output that a model transposes and views as
[B, T, H*D] is stored [B, T, H, D] by its own kernel, and the remap is a view (the split runs
it as a step without a copy, tilec/strided.py). Applied only when the remap is the result's one
reader and the shapes are static.
"""

from __future__ import annotations

import math

from torch_mlir import ir

from tilec.dialects import ta_builders as tb


def permute_into_reshape(op, rewriter):
    """remap(contract(x, y; out), m) --> remap(contract(x, y; π out), π m), π m a row-major reshape"""
    src = op.operation.operands[0]
    owner = src.owner
    if isinstance(owner, ir.Block) or owner.name != "ta.contract" or sum(1 for _ in src.uses) != 1:
        return True
    amap = ir.AffineMapAttr(op.attributes["map"]).value
    src_t, out_t = ir.RankedTensorType(src.type), ir.RankedTensorType(op.result.type)
    if not src_t.has_static_shape or not out_t.has_static_shape:
        return True
    parts = [_part(e) for e in amap.results]
    if any(p is None for p in parts):
        return True
    order = sorted(range(len(parts)), key=lambda k: (parts[k][0], -parts[k][1]))
    if order == list(range(len(parts))) or not _row_major([parts[k] for k in order], list(out_t.shape),
                                                          [src_t.shape[k] for k in order]):
        return True
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(owner.attributes["maps"])]
    stored = ir.AffineMap.get(maps[2].n_dims, 0, [maps[2].results[k] for k in order])
    encoding = ir.ArrayAttr.get([src_t.encoding[k] for k in order])
    permuted = ir.RankedTensorType.get([src_t.shape[k] for k in order], src_t.element_type, encoding)
    with rewriter.ip, op.location:
        result = tb.contract(owner.operands[0], owner.operands[1], [maps[0], maps[1], stored], permuted)
        view = tb.remap(result, ir.AffineMap.get(amap.n_dims, 0, [amap.results[k] for k in order]), op.result.type)
    rewriter.replace_op(op, [view])
    return None


def _part(expr) -> tuple | None:
    """(d, div, mod) when ``expr`` is (d floordiv div) mod mod of one dim d (mod None: none)."""
    mod = None
    if isinstance(expr, ir.AffineModExpr):
        rhs = ir.AffineModExpr(expr).rhs
        if not isinstance(rhs, ir.AffineConstantExpr):
            return None
        mod, expr = ir.AffineConstantExpr(rhs).value, ir.AffineModExpr(expr).lhs
    div = 1
    if isinstance(expr, ir.AffineFloorDivExpr):
        rhs = ir.AffineFloorDivExpr(expr).rhs
        if not isinstance(rhs, ir.AffineConstantExpr):
            return None
        div, expr = ir.AffineConstantExpr(rhs).value, ir.AffineFloorDivExpr(expr).lhs
    if not isinstance(expr, ir.AffineDimExpr) or div < 1:
        return None
    return ir.AffineDimExpr(expr).position, div, mod


def _row_major(parts: list, out_shape: list, shape: list) -> bool:
    """Do the source indices ``parts`` (one per dim of the source, of sizes ``shape``, in
    order) split each dim of the output in row-major order (a view of the same memory)?"""
    dims = [p[0] for p in parts]
    if dims != sorted(dims) or any(out_shape[d] != 1 for d in range(len(out_shape)) if d not in dims):
        return False
    for d in set(dims):
        group = [(p, n) for p, n in zip(parts, shape) if p[0] == d]
        sizes = [n for _, n in group]
        if math.prod(sizes) != out_shape[d]:
            return False
        for i, ((_, div, mod), n) in enumerate(group):
            if div != math.prod(sizes[i + 1:]) or (mod is not None and mod != n) or (mod is None and i > 0):
                return False
    return True
