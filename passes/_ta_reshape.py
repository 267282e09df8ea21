"""A contraction stored in the order its readers or its lowering want (ta-canonicalize patterns).

    permute_into_reshape     remap(contract(x, y; out), m) --> remap(contract(x, y; π out), π m)
    contract_in_row_order    contract(x, w; out)           --> remap(contract(x, w; π out), π⁻¹)
    fold_reshape_into_contract
                             remap(contract(remap(x), remap(y)), m) --> contract(x, y)

π permutes the contraction's result dims so that the remap, read through it, only reshapes the
result row-major: attention's [B, H, T, D] output that a model transposes and views as
[B, T, H*D] is stored [B, T, H, D] by its own kernel, and the remap is a view (the split runs
it as a step without a copy, tilec/graph/strided.py). Applied only when the remap is the result's one
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

from ._affine_ranges import simplified


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
    """remap(contract(remap(x, rx), remap(y, ry); mx, my, mo), m) --> contract(x, y; mx', my', id);
    a result column the remap splits (c floordiv n, c mod n) becomes two dims of the
    contraction, merged again by a view, and an operand index that stays a sum of dims (a
    column offset) is read through a remap of the operand's source"""
    owner = _sole_contraction(op)
    if owner is None:
        return True
    amap = ir.AffineMapAttr(op.attributes["map"]).value
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(owner.attributes["maps"])]
    out = [_dim(e) for e in maps[2].results]
    result = ir.RankedTensorType(op.result.type)
    if None in out or len(set(out)) != len(out) or not result.has_static_shape or tb.is_identity(amap):
        return True
    if _is_view(amap, ir.RankedTensorType(owner.result.type), result):  # permute_into_reshape's form
        return True
    reduced = [d for d in range(maps[2].n_dims) if d not in out]
    extents = [_extent(owner, maps, d) for d in reduced]
    if None in extents:
        return True
    splits = _column_splits(amap, list(result.shape))
    dims = [(k, n) for k in range(result.rank) for n in ([result.shape[k] // splits[k], splits[k]] if k in splits
                                                         else [result.shape[k]])]
    rank, extents = len(dims), [n for _, n in dims] + extents  # the new dims: the result's, split; the reduced
    merged = ir.AffineMap.get(rank + len(reduced), 0, [_merged(k, dims, splits) for k in range(result.rank)] +
                              [ir.AffineDimExpr.get(rank + r) for r in range(len(reduced))])
    split = tb.compose(merged, ir.AffineMap.get(result.rank + len(reduced), 0, [
        amap.results[out.index(d)] if d in out else ir.AffineDimExpr.get(result.rank + reduced.index(d))
        for d in range(maps[2].n_dims)]))
    operands = [_read_plainly(value, tb.compose(split, amap_k), extents, rewriter, op.location)
                for value, amap_k in zip(owner.operands, maps[:2])]
    if None in operands:
        return True  # an index that stays a floordiv or mod, or a dim read over another extent
    stored = ir.AffineMap.get(rank + len(reduced), 0, [ir.AffineDimExpr.get(k) for k in range(rank)])
    if not _rows_in_order([m for _, m, _ in operands] + [stored]):  # contract_in_row_order's transpose stays
        return True
    with rewriter.ip, op.location:
        reads = [v if build is None else build() for v, _, build in operands]
        if not splits:
            rewriter.replace_op(op, [tb.contract(*reads, [m for _, m, _ in operands] + [stored], result)])
            return None
        shape = [n for _, n in dims]
        product = tb.contract(*reads, [m for _, m, _ in operands] + [stored], _static_type(shape, result.element_type))
        view = ir.AffineMap.get(result.rank, 0, [e for k, n in enumerate(result.shape) for e in (
            [ir.AffineExpr.get_floor_div(ir.AffineDimExpr.get(k), splits[k]), ir.AffineExpr.get_mod(ir.AffineDimExpr.get(k), splits[k])]
            if k in splits else [ir.AffineDimExpr.get(k)])])
        rewriter.replace_op(op, [tb.remap(product, view, result)])
    return None


def _column_splits(amap, shape: list) -> dict:
    """{dim k: n} for each result dim that ``amap`` divides by one n (k floordiv n, k mod n), n a
    proper divisor of its extent, to be split into (k floordiv n, k mod n): exact whatever else
    reads k (k = n (k floordiv n) + k mod n). nn.MultiheadAttention's [T, B, H*D] view of P·V's
    [B*H, T, D] reads c as c floordiv D and c mod D."""
    found = {}
    for e in amap.results:
        for k, n in _divisions(e):
            found.setdefault(k, set()).add(n)
    return {k: n for k, (n,) in ((k, tuple(ns)) for k, ns in found.items() if len(ns) == 1)
            if 1 < n < shape[k] and shape[k] % n == 0}


def _divisions(expr) -> list:
    """(k, n) for each `dk floordiv n` and `dk mod n` inside ``expr``."""
    if isinstance(expr, (ir.AffineFloorDivExpr, ir.AffineModExpr)):
        binary = ir.AffineBinaryExpr(expr)
        if _dim(binary.lhs) is not None and isinstance(binary.rhs, ir.AffineConstantExpr):
            return [(_dim(binary.lhs), ir.AffineConstantExpr(binary.rhs).value)]
    if isinstance(expr, ir.AffineBinaryExpr):
        return _divisions(ir.AffineBinaryExpr(expr).lhs) + _divisions(ir.AffineBinaryExpr(expr).rhs)
    return []


def _divides(expr) -> bool:
    """Does ``expr`` hold a floordiv, ceildiv or mod anywhere?"""
    if isinstance(expr, (ir.AffineFloorDivExpr, ir.AffineCeilDivExpr, ir.AffineModExpr)):
        return True
    return isinstance(expr, ir.AffineBinaryExpr) and (_divides(ir.AffineBinaryExpr(expr).lhs) or
                                                      _divides(ir.AffineBinaryExpr(expr).rhs))


def _merged(k: int, dims: list, splits: dict):
    """Result dim ``k`` over the new dims: its own, or hi * n + lo where it was split."""
    at = [i for i, (owner, _) in enumerate(dims) if owner == k]
    if k not in splits:
        return ir.AffineDimExpr.get(at[0])
    return ir.AffineDimExpr.get(at[0]) * splits[k] + ir.AffineDimExpr.get(at[1])


def _read_plainly(value, composed, extents: list, rewriter, location):
    """(value, map, None) when ``composed`` (through a remap ``value`` is, if any) reads plain
    dims; (source, map, build) when it reads a remap's source at sums of dims (a column
    offset), ``build()`` making that remap over the dims it reads; None otherwise."""
    through = not isinstance(value.owner, ir.Block) and value.owner.name == "ta.remap"
    if through:
        composed = tb.compose(composed, ir.AffineMapAttr(value.owner.attributes["map"]).value)
        value = value.owner.operands[0]
    # rebuilt as a map, whose results come back as their own kinds (a dim as a dim)
    plain = ir.AffineMap.get(len(extents), 0, [simplified(e, extents)[0] for e in composed.results])
    shape = ir.RankedTensorType(value.type).shape
    if all(_plain(e, n, extents) for e, n in zip(plain.results, shape)):
        return value, plain, None
    if not through or any(_divides(e) for e in plain.results):
        return None
    used = []  # the dims it reads, in the order the source's index reads them
    for e in plain.results:
        used += [d for d in range(len(extents)) if tb.uses_dim(e, d) and d not in used]
    reads = ir.AffineMap.get(len(used), 0, [e.compose(ir.AffineMap.get(len(used), 0, [
        ir.AffineDimExpr.get(used.index(d)) if d in used else ir.AffineConstantExpr.get(0)
        for d in range(len(extents))])) for e in plain.results])
    read_t = _static_type([extents[d] for d in used], ir.RankedTensorType(value.type).element_type)

    def build():
        with rewriter.ip, location:
            return tb.remap(value, reads, read_t)
    return value, tb.projection(len(extents), used), build


def _static_type(shape: list, element: ir.Type) -> ir.RankedTensorType:
    """A ta tensor type of static ``shape``, each dim named by its size."""
    return ir.RankedTensorType.get(shape, element, ir.ArrayAttr.get([ir.StringAttr.get(str(n)) for n in shape]))


def _is_view(amap, src_t, out_t) -> bool:
    """Is ``amap`` a row-major reshape of ``src_t`` into ``out_t`` (a free view)?"""
    parts = [_part(e) for e in amap.results]
    return None not in parts and _row_major(parts, list(out_t.shape), list(src_t.shape))


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
