"""A ta.remap as one strided copy: the kernel-less step between kernels of a split function.

    form = strided_form(remap_op)      # {"size", "stride", "offset", "shape", "dtype"} or None
    out = src.contiguous().as_strided(size, stride, offset).to(dtype).reshape(shape)   # its meaning

A remap (or a ta.map that only copies one element, cast or not) reads ``src`` at ``map(i)``.
When the address of that element is linear in the output index (Z3 proves it: a reshape read
back through floordiv and mod is), the strides are read off the map. Otherwise, when every
result of the map is affine in the output's indices after splitting an output dim d into
(d floordiv c, d mod c) wherever the map reads it so (a reshape that merged two dims, read apart
again), the address of src's element ``map(i)`` in the row-major tensor is
offset + sum_e stride_e * e over the split indices e. Either way: one strided view of src, copied
contiguous (converted to the result's type when the map casts: the same rounding). Static shapes
only. ``tilec.verify.strided.check_strided`` proves that address identity and that every read
is inside src, for every index of the output.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from ..dialects.affine import affine, z3_results
from ..verify.solver import prove


def copy_of(op):
    """(source, map) of an op that copies one tensor through an index map: a ta.remap, or a
    ta.map whose body reads one element of one tensor and yields it, cast at most once (extf,
    truncf: the copy converts it to the result's type) or widened and narrowed back to its own
    type (exact); else None."""
    if op.operation.name == "ta.remap":
        return op.operation.operands[0], ir.AffineMapAttr(op.attributes["map"]).value
    if op.operation.name != "ta.map":
        return None
    body = list(op.regions[0].blocks[0].operations)
    names = [inner.operation.name for inner in body]
    casts = (["ta.at", "ta.yield"], ["ta.at", "arith.extf", "ta.yield"], ["ta.at", "arith.truncf", "ta.yield"],
             ["ta.at", "arith.extf", "arith.truncf", "ta.yield"])
    if names not in casts:
        return None
    if names == casts[3] and body[0].result.type != body[2].result.type:  # widened and narrowed back: exact
        return None
    if any(inner.operation.operands[0] != prev.result for prev, inner in zip(body, body[1:])):
        return None
    return body[0].operation.operands[0], ir.AffineMapAttr(body[0].attributes["map"]).value


_WIDTH = {"f32": 2, "bf16": 1, "f16": 1}


def chain_of(ops):
    """(source, map from the last op's output to the source) of copies each reading the one
    before; None unless every intermediate type is an end's type or f32 (then the chain's
    casts round as one conversion from the first source's type to the last's does)."""
    copies = [copy_of(op) for op in ops]
    if any(c is None for c in copies) or any(c[0] != prev.result for c, prev in zip(copies[1:], ops)):
        return None
    types = [str(ir.RankedTensorType(copies[0][0].type).element_type)] + \
        [str(ir.RankedTensorType(op.result.type).element_type) for op in ops]
    if any(t not in (types[0], types[-1], "f32") for t in types[1:-1]):
        return None
    amap = copies[-1][1]
    for src, inner in reversed(copies[:-1]):  # out -> the last op's source -> ... -> the first source
        amap = ir.AffineMap.get(amap.n_dims, 0, [e.compose(amap) for e in inner.results])
    return copies[0][0], amap


def strided_form(op) -> dict | None:
    """The strided copy ``op`` (copy_of; or a list of copies, chain_of) is, or None when it is not one."""
    ops = op if isinstance(op, list) else [op]
    copy = chain_of(ops)
    if copy is None:
        return None
    op = ops[-1]
    src, out = ir.RankedTensorType(copy[0].type), ir.RankedTensorType(op.result.type)
    if not src.has_static_shape or not out.has_static_shape:
        return None
    amap = copy[1]
    dtype = {"f32": "f32", "bf16": "bf16", "f16": "f16"}.get(str(out.element_type))
    if dtype is None:
        return None
    fitted = _fit(amap, list(src.shape), list(out.shape))
    if fitted is not None:
        return dict(fitted, dtype=dtype)
    splits = _splits(amap, list(out.shape))
    if splits is None:
        return None
    size = [n for k, n in enumerate(out.shape) for n in ([n // splits[k], splits[k]] if k in splits else [n])]
    forms = [_linear(e, splits, list(out.shape)) for e in amap.results]
    if any(f is None for f in forms):
        return None
    row = _row(list(src.shape))
    stride = [sum(f[0].get(e, 0) * row[j] for j, f in enumerate(forms)) for e in range(len(size))]
    offset = sum(f[1] * row[j] for j, f in enumerate(forms))
    if any(st < 0 for st in stride) or offset < 0:  # a flip: torch views take no negative stride
        return None
    return {"size": size, "stride": stride, "offset": offset, "shape": list(out.shape),
            "src_shape": list(src.shape), "dtype": dtype}


def _row(shape) -> list:
    row = [1] * len(shape)
    for j in range(len(shape) - 2, -1, -1):
        row[j] = row[j + 1] * shape[j + 1]
    return row


def _fit(amap, src_shape, out_shape) -> dict | None:
    """Strides read off the map at the origin and each unit index, kept when Z3 proves the
    address linear in the output index everywhere (a reshape read through floordiv and mod)."""
    row = _row(src_shape)
    def address(i):
        return sum(r * w for r, w in zip((affine(e, i) for e in amap.results), row))

    zero = [0] * len(out_shape)
    offset = address(zero)
    stride = [address([int(k == j) for k in range(len(out_shape))]) - offset if n > 1 else 0
              for j, n in enumerate(out_shape)]
    if offset < 0 or any(st < 0 for st in stride):
        return None
    idx = [z3.Int(f"i{k}") for k in range(len(out_shape))]
    bounds = [z3.And(i >= 0, i < n) for i, n in zip(idx, out_shape)]
    linear = offset + sum(st * i for st, i in zip(stride, idx))
    if prove(linear == sum(r * w for r, w in zip(z3_results(amap, idx), row)), bounds,
             budget=10_000_000).verdict != "proved":
        return None
    return {"size": list(out_shape), "stride": stride, "offset": offset, "shape": list(out_shape),
            "src_shape": list(src_shape)}


def _splits(amap, shape) -> dict | None:
    """Output dim -> c, for each dim the map reads as (d floordiv c, d mod c); None when mixed."""
    splits = {}

    def visit(e) -> bool:
        if isinstance(e, (ir.AffineFloorDivExpr, ir.AffineModExpr)):
            if not isinstance(e.lhs, ir.AffineDimExpr) or not isinstance(e.rhs, ir.AffineConstantExpr):
                return False
            k, c = e.lhs.position, e.rhs.value
            if c <= 0 or shape[k] % c or splits.setdefault(k, c) != c:
                return False
            return True
        if isinstance(e, (ir.AffineAddExpr, ir.AffineMulExpr)):
            return visit(e.lhs) and visit(e.rhs)
        return isinstance(e, (ir.AffineDimExpr, ir.AffineConstantExpr))

    return splits if all(visit(e) for e in amap.results) else None


def _expanded(k: int, splits: dict, shape) -> int:
    """The first split index of output dim k."""
    return sum(2 if j in splits else 1 for j in range(k))


def _linear(e, splits, shape):
    """({split index: coefficient}, constant) of ``e``, or None when it is not linear."""
    if isinstance(e, ir.AffineConstantExpr):
        return {}, e.value
    if isinstance(e, ir.AffineDimExpr):
        k = e.position
        at = _expanded(k, splits, shape)
        return ({at: splits[k], at + 1: 1}, 0) if k in splits else ({at: 1}, 0)
    if isinstance(e, ir.AffineFloorDivExpr):
        return {_expanded(e.lhs.position, splits, shape): 1}, 0
    if isinstance(e, ir.AffineModExpr):
        return {_expanded(e.lhs.position, splits, shape) + 1: 1}, 0
    a, b = _linear(e.lhs, splits, shape), _linear(e.rhs, splits, shape)
    if a is None or b is None:
        return None
    if isinstance(e, ir.AffineAddExpr):
        return {k: a[0].get(k, 0) + b[0].get(k, 0) for k in set(a[0]) | set(b[0])}, a[1] + b[1]
    if a[0] and b[0]:  # a product of two indices
        return None
    (coeffs, c), scale = (a, b[1]) if a[0] else (b, a[1])
    return {k: v * scale for k, v in coeffs.items()}, c * scale
