"""A contraction stored in the order its readers or its lowering want (ta-canonicalize patterns).

    permute_into_reshape     remap(contract(x, y; out), m) --> remap(contract(x, y; π out), π m)
    contract_in_row_order    contract(x, w; out)           --> remap(contract(x, w; π out), π⁻¹)
    fold_reshape_into_contract
                             remap(contract(remap(x), remap(y)), m) --> contract(x, y)

π permutes the contraction's result dims so that the remap, read through it, only reshapes the
result row-major: attention's [B, H, T, D] output that a model transposes and views as
[B, T, H*D] is stored [B, T, H, D] by its own kernel, and the remap is a view (the split runs
it as a step without a copy, tilec/strided.py). Applied only when the remap is the result's one
reader and the shapes are static.

contract_in_row_order: a Linear (w shares no dim with x's rows) whose output lists x's rows in
another order than x does, as nn.MultiheadAttention's input projection of a batch-first
[B, T, C] into [T, B, 3C]: stored in x's order ([B, T, 3C]), so a GEMM kernel takes it, and
read through a transposing remap. permute_into_reshape leaves such a contraction in that order.

fold_reshape_into_contract: torch's einsum and bmm merge batch dims ([B, H, T, D] viewed as
[B*H, T, D]), contract, and split the result again; the contraction is rebuilt over the split
dims, its operands read where they are stored. Applied only when the shapes are static and every
index of the new contraction is a plain dim once the extents decide each floordiv and mod
((4b + h) floordiv 4 is b for h < 4), so the result is a contraction ta-to-tile takes as it takes
one written over [B, H, T, D] (the attention fusion included).
"""

from __future__ import annotations

import math

from torch_mlir import ir

from tilec.dialects import ta_builders as tb


def permute_into_reshape(op, rewriter):
    """remap(contract(x, y; out), m) --> remap(contract(x, y; π out), π m), π m a row-major reshape"""
    src, owner = op.operation.operands[0], _sole_contraction(op)
    if owner is None:
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
    if not _rows_in_order([maps[0], maps[1], stored]):  # contract_in_row_order would undo it
        return True
    encoding = ir.ArrayAttr.get([src_t.encoding[k] for k in order])
    permuted = ir.RankedTensorType.get([src_t.shape[k] for k in order], src_t.element_type, encoding)
    with rewriter.ip, op.location:
        result = tb.contract(owner.operands[0], owner.operands[1], [maps[0], maps[1], stored], permuted)
        view = tb.remap(result, ir.AffineMap.get(amap.n_dims, 0, [amap.results[k] for k in order]), op.result.type)
    rewriter.replace_op(op, [view])
    return None


def contract_in_row_order(op, rewriter):
    """contract(x, w; out) --> remap(contract(x, w; π out), π⁻¹), π out listing x's rows in x's order"""
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
    if _rows_in_order(maps):
        return True
    rows, out = _linear_rows(maps), [_dim(e) for e in maps[2].results]
    order = [out.index(d) for d in rows + [d for d in out if d not in rows]]  # new position k: old order[k]
    t = ir.RankedTensorType(op.result.type)
    stored = ir.AffineMap.get(maps[2].n_dims, 0, [maps[2].results[k] for k in order])
    encoding = ir.ArrayAttr.get([t.encoding[k] for k in order])
    permuted = ir.RankedTensorType.get([t.shape[k] for k in order], t.element_type, encoding)
    back = ir.AffineMap.get(t.rank, 0, [ir.AffineDimExpr.get(order.index(k)) for k in range(t.rank)])
    with rewriter.ip, op.location:
        result = tb.contract(op.operands[0], op.operands[1], [maps[0], maps[1], stored], permuted)
        view = tb.remap(result, back, op.result.type)
    rewriter.replace_op(op, [view])
    return None


def fold_reshape_into_contract(op, rewriter):
    """remap(contract(remap(x, rx), remap(y, ry); mx, my, mo), m) --> contract(x, y; mx', my', id)"""
    owner = _sole_contraction(op)
    if owner is None:
        return True
    amap = ir.AffineMapAttr(op.attributes["map"]).value
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(owner.attributes["maps"])]
    out = [_dim(e) for e in maps[2].results]
    result = ir.RankedTensorType(op.result.type)
    if None in out or len(set(out)) != len(out) or not result.has_static_shape or tb.is_identity(amap):
        return True
    reduced = [d for d in range(maps[2].n_dims) if d not in out]
    extents = list(result.shape) + [_extent(owner, maps, d) for d in reduced]
    if None in extents:
        return True
    rank = result.rank  # the new dims: the remap's result dims, then the reduced ones
    split = ir.AffineMap.get(rank + len(reduced), 0, [
        amap.results[out.index(d)] if d in out else ir.AffineDimExpr.get(rank + reduced.index(d))
        for d in range(maps[2].n_dims)])
    operands, new_maps = [], []
    for value, amap_k in zip(owner.operands, maps[:2]):
        composed = tb.compose(split, amap_k)
        if not isinstance(value.owner, ir.Block) and value.owner.name == "ta.remap":
            composed = tb.compose(composed, ir.AffineMapAttr(value.owner.attributes["map"]).value)
            value = value.owner.operands[0]
        # rebuilt as a map, whose results come back as their own kinds (a dim as a dim)
        plain = ir.AffineMap.get(rank + len(reduced), 0, [simplified(e, extents)[0] for e in composed.results])
        shape = ir.RankedTensorType(value.type).shape
        if not all(_plain(e, n, extents) for e, n in zip(plain.results, shape)):
            return True  # an index that stays arithmetic, or a dim read over another extent
        operands.append(value)
        new_maps.append(plain)
    stored = ir.AffineMap.get(rank + len(reduced), 0, [ir.AffineDimExpr.get(k) for k in range(rank)])
    if not _rows_in_order(new_maps + [stored]):  # contract_in_row_order's transpose: it stays
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [tb.contract(*operands, new_maps + [stored], op.result.type)])
    return None


def _plain(expr, size: int, extents: list) -> bool:
    """Is ``expr`` a dim of extent ``size``, or 0 on a dim of size 1?"""
    if isinstance(expr, ir.AffineConstantExpr):
        return ir.AffineConstantExpr(expr).value == 0 and size == 1
    return _dim(expr) is not None and extents[_dim(expr)] == size


def _extent(contract, maps: list, d: int) -> int | None:
    """The static extent of iteration dim ``d`` of ``contract``: an operand's size where it reads d plainly."""
    for value, amap in zip(contract.operands, maps[:2]):
        shape = ir.RankedTensorType(value.type).shape
        for k, e in enumerate(amap.results):
            if _dim(e) == d and not ir.ShapedType.is_dynamic_size(shape[k]):
                return shape[k]
    return None


def _sole_contraction(remap):
    """The ta.contract ``remap`` reads, when the remap is its one reader; else None."""
    src = remap.operation.operands[0]
    owner = src.owner
    if isinstance(owner, ir.Block) or owner.name != "ta.contract" or sum(1 for _ in src.uses) != 1:
        return None
    return owner


def _dim(expr) -> int | None:
    return ir.AffineDimExpr(expr).position if isinstance(expr, ir.AffineDimExpr) else None


def _linear_rows(maps: list) -> list | None:
    """The dims x reads that the output keeps and w does not read (a Linear's rows), in x's
    order; None when any map result is not a plain dim or w reads one of them (a batch dim)."""
    x, w, out = ([_dim(e) for e in m.results] for m in maps)
    if None in x or None in w or None in out:
        return None
    rows = [d for d in x if d in out]
    return None if any(d in w for d in rows) else rows


def _rows_in_order(maps: list) -> bool:
    """Does the output list a Linear's rows in x's order (any other contraction: True)?"""
    rows = _linear_rows(maps)
    if rows is None:
        return True
    out = [_dim(e) for e in maps[2].results]
    return [out.index(d) for d in rows] == sorted(out.index(d) for d in rows)


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


def simplified(expr, shape):
    """(``expr`` with each ``e mod n`` and ``e floordiv n`` that the range of e over the index
    space ``shape`` decides replaced by e and 0, its range (lo, hi) inclusive or None)."""
    if isinstance(expr, ir.AffineDimExpr):
        return expr, (0, shape[ir.AffineDimExpr(expr).position] - 1)
    if isinstance(expr, ir.AffineConstantExpr):
        c = ir.AffineConstantExpr(expr).value
        return expr, (c, c)
    if isinstance(expr, ir.AffineAddExpr):
        (lhs, a), (rhs, b) = (simplified(x, shape) for x in (ir.AffineAddExpr(expr).lhs, ir.AffineAddExpr(expr).rhs))
        return lhs + rhs, (a[0] + b[0], a[1] + b[1]) if a and b else None
    if isinstance(expr, ir.AffineMulExpr):
        (lhs, a), (rhs, b) = (simplified(x, shape) for x in (ir.AffineMulExpr(expr).lhs, ir.AffineMulExpr(expr).rhs))
        ends = [x * y for x in a for y in b] if a and b else None
        return lhs * rhs, (min(ends), max(ends)) if ends else None
    if isinstance(expr, (ir.AffineFloorDivExpr, ir.AffineModExpr)):
        binary = ir.AffineFloorDivExpr(expr) if isinstance(expr, ir.AffineFloorDivExpr) else ir.AffineModExpr(expr)
        lhs, a = simplified(binary.lhs, shape)
        n = ir.AffineConstantExpr(binary.rhs).value if isinstance(binary.rhs, ir.AffineConstantExpr) else None
        if n is None or n <= 0:
            rhs, _ = simplified(binary.rhs, shape)
            rebuilt = ir.AffineExpr.get_floor_div(lhs, rhs) if isinstance(expr, ir.AffineFloorDivExpr) else \
                ir.AffineExpr.get_mod(lhs, rhs)
            return rebuilt, None
        inside = a is not None and 0 <= a[0] and a[1] < n
        if isinstance(expr, ir.AffineFloorDivExpr):
            if inside:
                return ir.AffineConstantExpr.get(0), (0, 0)
            return ir.AffineExpr.get_floor_div(lhs, n), (a[0] // n, a[1] // n) if a else None
        return (lhs, a) if inside else (ir.AffineExpr.get_mod(lhs, n), (0, n - 1))
    return expr, None
