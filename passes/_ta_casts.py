"""ta-canonicalize's patterns for casts around reindexing (a tensor stored between kernels in
16 bits, tilec.graph.boundaries: narrowed after its op, widened where it is read).

    fold_narrow_of_widen   map{truncf(at(map{extf(at(x, m1))}, m2))} --> map{at(x, m1 ∘ m2)}
                           (x already of the narrow type: the round trip is exact)
    widen_after_remap      remap(map{extf(at(x, m1))}, m2)           --> map{extf(at(x, m1 ∘ m2))}
                           (a cast commutes with reindexing: the view reads the narrow tensor)

    fold_widen_into_at     at(map{extf(at(x, m1))}, m2)              --> extf(at(x, m1 ∘ m2))
                           (the reader widens the element it reads)
    (and ta-canonicalize's fold_reindex_into_contract reads a widened operand as it is stored:
    a contraction takes its products in f32 from 16-bit operands anyway)

Together they let a view between kernels copy the 16-bit tensor itself (its producer stores
16 bits, one copy moves them) instead of widening it to f32 first and narrowing it again, and
let the kernel that reads the view read the 16-bit tensor.
"""

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects import ta_builders as tb
from tilec.dialects.ta import tensor_dims


def cast_of_read(map_op, cast: str):
    """(x, m) when ``map_op``'s body is ``yield cast(at(x, m))``, else None."""
    if isinstance(map_op, ir.Block) or map_op.operation.name != "ta.map":
        return None
    ops = list(map_op.regions[0].blocks[0].operations)
    if [o.operation.name for o in ops] != ["ta.at", cast, "ta.yield"] or \
            ops[1].operation.operands[0] != ops[0].result or ops[2].operation.operands[0] != ops[1].result:
        return None
    return ops[0].operation.operands[0], ir.AffineMapAttr(ops[0].attributes["map"]).value


def _read(x, amap, like):
    """x read at ``amap`` over a tensor shaped like ``like`` (in x's element type): a ta.at
    where the map is a projected permutation that reads each dim of x at a dim of ``like`` of
    the same size, else through a ta.remap of x first (a slice, ``cos_cached[:T]``, is an
    identity map over fewer rows than x has: only a remap reads part of a tensor)."""
    if amap.is_projected_permutation and _same_sizes(x.type, amap, like):
        return x, amap
    t = ir.RankedTensorType(like)
    typed = ir.RankedTensorType.get(t.shape, ir.RankedTensorType(x.type).element_type, t.encoding)
    return tb.remap(x, amap, typed), ir.AffineMap.get_identity(t.rank)


def _same_sizes(x_type, amap, like) -> bool:
    """Whether each dim of ``x_type`` has the size of the dim of ``like`` that ``amap`` (a
    projected permutation) reads it at, as ta.at requires."""
    outer = [str(n) for n in tensor_dims(like)]
    return all(str(n) == outer[ir.AffineDimExpr(r).position] for n, r in zip(tensor_dims(x_type), amap.results))


def fold_narrow_of_widen(op, rewriter):
    """map{truncf(at(map{extf(at(x, m1))}, m2))} --> map{at(x, m1 ∘ m2)} when x is narrow already"""
    outer = cast_of_read(op, "arith.truncf")
    if outer is None:
        return True
    inner = cast_of_read(outer[0].owner, "arith.extf")
    element = ir.RankedTensorType(op.result.type).element_type
    if inner is None or ir.RankedTensorType(inner[0].type).element_type != element:
        return True
    with rewriter.ip, op.location:
        x, amap = _read(inner[0], tb.compose(outer[1], inner[1]), op.result.type)
        rewriter.replace_op(op, [tb.build_map(op.result.type, lambda: tb.at(x, amap))])
    return None


def widen_after_remap(op, rewriter):
    """remap(map{extf(at(x, m1))}, m2) --> map{extf(at(x, m1 ∘ m2))}"""
    inner = cast_of_read(op.operation.operands[0].owner, "arith.extf")
    if inner is None:
        return True
    wide = ir.RankedTensorType(op.result.type).element_type
    with rewriter.ip, op.location:
        x, amap = _read(inner[0], tb.compose(ir.AffineMapAttr(op.attributes["map"]).value, inner[1]), op.result.type)
        rewriter.replace_op(op, [tb.build_map(op.result.type, lambda: arith.ExtFOp(wide, tb.at(x, amap)).result)])
    return None


def fold_widen_into_at(op, rewriter):
    """at(map{extf(at(x, m1))}, m2) --> extf(at(x, m1 ∘ m2)) (m1 ∘ m2 a projected permutation)"""
    inner = cast_of_read(op.operation.operands[0].owner, "arith.extf")
    if inner is None:
        return True
    amap = tb.compose(ir.AffineMapAttr(op.attributes["map"]).value, inner[1])
    if not amap.is_projected_permutation:
        return True
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [arith.ExtFOp(op.result.type, tb.at(inner[0], amap)).result])
    return None
