"""The adjoint of each ta op's operands from the adjoint of its result (reverse mode over ta).

Adjoints are f32 tensors over the dims of what they are the adjoint of. Per op, with ȳ the
result's adjoint:

    y = contract(a, b)   ā += contract(ȳ, b) with a's map as the result's (the same
                         iteration space: dA = dC·Bᵀ for a GEMM), b̄ alike
    y = reduce_sum(x)    x̄ += ȳ broadcast back over the reduced dims
    y = reduce_max(x)    x̄ += ȳ · [x == y] / #[x == y]   (ties share it, as torch.amax's)
    y = softmax(x)       x̄ += y · (ȳ − Σ_j ȳ·y)
    y = logsumexp(x)     x̄ += ȳ · exp(x − y)
    y = remap(x, m)      x̄ += ȳ sent back through m (whose results may also be constants and
                         d floordiv c: a slice, and the c positions reading one element summed)
    y = map{... at(x, m) ...}
                         per (x, m) read: a map over y's domain computing the body again and,
                         after it, the reverse sweep of its scalars (scalar.py): Σ ȳ·∂y/∂at;
                         then sent back through m

"Sent back through m" sums over the dims m drops (a broadcast read) and transposes to the
operand's order. A map that shifts or scales an index (x[i + 1], x[2 i]) has no such inverse
here and is refused, named.
"""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import arith, math

from tilec.dialects import ta_builders as tb
from tilec.dialects.dims import parse_dim
from tilec.dialects.ta import tensor_dims

from .scalar import widen, adjoints

F32 = ir.F32Type.get


class NoGradient(ValueError):
    """Input the pass cannot differentiate, located at the op (ta-grad names it)."""

    def __init__(self, op, message: str):
        super().__init__(message)
        self.location = op.location


def f32_type(value: ir.Value) -> ir.RankedTensorType:
    """The f32 ta tensor type over ``value``'s dims (the type of its adjoint)."""
    return tb.tensor_type(tensor_dims(value.type), F32())


def rank(value: ir.Value) -> int:
    return ir.RankedTensorType(value.type).rank


def identity(n: int) -> ir.AffineMap:
    return tb.projection(n, list(range(n)))


def positions(op, amap: ir.AffineMap) -> list[int]:
    """The dims a map reads, in its results' order; NoGradient for any other expression."""
    found = []
    for e in amap.results:
        if not isinstance(e, ir.AffineDimExpr):
            raise NoGradient(op, f"a read at ({e}) shifts, scales or divides an index: its gradient would "
                                 f"scatter, which ta-grad does not build")
        found.append(ir.AffineDimExpr(e).position)
    if len(set(found)) != len(found):
        raise NoGradient(op, "a read at a repeated index (a diagonal) has no gradient in ta-grad")
    return found


def _kinds(op, amap: ir.AffineMap) -> list:
    """Per result of a remap's map: ("dim", p), ("const", c) or ("div", p, c) for d_p floordiv c;
    NoGradient for any other expression or a dim read twice."""
    kinds = []
    for e in amap.results:
        if isinstance(e, ir.AffineDimExpr):
            kinds.append(("dim", ir.AffineDimExpr(e).position))
        elif isinstance(e, ir.AffineConstantExpr):
            kinds.append(("const", ir.AffineConstantExpr(e).value))
        elif isinstance(e, ir.AffineFloorDivExpr) and isinstance(ir.AffineFloorDivExpr(e).lhs, ir.AffineDimExpr) \
                and isinstance(ir.AffineFloorDivExpr(e).rhs, ir.AffineConstantExpr):
            div = ir.AffineFloorDivExpr(e)
            kinds.append(("div", ir.AffineDimExpr(div.lhs).position, ir.AffineConstantExpr(div.rhs).value))
        else:
            raise NoGradient(op, f"a read at ({e}) shifts or scales an index: its gradient would scatter, "
                                 f"which ta-grad does not build (it takes d, a constant, d floordiv c)")
    used = [k[1] for k in kinds if k[0] != "const"]
    if len(set(used)) != len(used):
        raise NoGradient(op, "a read at a repeated index (a diagonal) has no gradient in ta-grad")
    return kinds


def send_back(op, g: ir.Value, amap: ir.AffineMap, target: ir.Value) -> ir.Value:
    """``g`` over a domain, read through ``amap`` (domain -> target's dims), as a tensor over
    ``target``'s dims: summed over the dims ``amap`` drops, then in ``target``'s order; a
    constant index puts it in that slice (zeros elsewhere), ``d floordiv c`` sums the c
    positions that read one element (GQA's heads sharing a key head)."""
    kinds = _kinds(op, amap)
    reads = [k[1] for k in kinds if k[0] != "const"]
    dropped = [d for d in range(rank(g)) if d not in reads]
    for d in reversed(dropped):  # one dim at a time, the last first: sums fusion can take one by one
        g = tb.reduce(g, "sum", [d])
    kept = sorted(reads)
    if all(k[0] == "dim" for k in kinds):
        if reads == kept:
            return g
        order = [reads.index(d) for d in kept]  # g's dim t is the target's dim order[t]
        return tb.build_map(f32_type(target), lambda: tb.at(g, tb.projection(len(reads), order)))
    return _scatter(g, kinds, kept, target)


def _scatter(g: ir.Value, kinds: list, kept: list, target: ir.Value) -> ir.Value:
    """``g`` (over the domain dims ``kept``) sent to ``target``'s dims through a map with
    constant and floordiv results: a remap of it over the target's dims and one more dim per
    floordiv (its c positions), masked to each constant's slice, summed over the extra dims."""
    n = len(kinds)
    divs = [k for k, kind in enumerate(kinds) if kind[0] == "div"]
    extra = {k: n + j for j, k in enumerate(divs)}
    dims = list(tensor_dims(target.type)) + [parse_dim(str(kinds[k][2])) for k in divs]
    space = tb.tensor_type(dims, F32())
    exprs = []
    for p in kept:  # the domain dim p, from the target's index that reads it
        k = next(k for k, kind in enumerate(kinds) if kind[0] != "const" and kind[1] == p)
        d = ir.AffineDimExpr.get(k)
        exprs.append(d if kinds[k][0] == "dim" else d * kinds[k][2] + ir.AffineDimExpr.get(extra[k]))
    spread = tb.remap(g, ir.AffineMap.get(len(dims), 0, exprs), space)
    consts = [(k, kind[1]) for k, kind in enumerate(kinds) if kind[0] == "const"]

    def body():
        value = tb.at(spread, identity(len(dims)))
        for k, c in consts:
            inside = arith.CmpIOp(arith.CmpIPredicate.eq, tb.index(k), arith.ConstantOp(ir.IndexType.get(), c)).result
            value = arith.SelectOp(inside, value, arith.ConstantOp(F32(), 0.0).result).result
        return value
    masked = tb.build_map(space, body) if consts else spread
    return tb.reduce(masked, "sum", list(extra.values())) if divs else masked


def total(contributions: list, value: ir.Value) -> ir.Value:
    """The sum of a value's adjoint contributions (one map adding them)."""
    if len(contributions) == 1:
        return contributions[0]
    n = rank(value)

    def body():
        acc = tb.at(contributions[0], identity(n))
        for c in contributions[1:]:
            acc = arith.AddFOp(acc, tb.at(c, identity(n))).result
        return acc
    return tb.build_map(f32_type(value), body)


def contract(op, ybar: ir.Value) -> list:
    lhs, rhs = op.operation.operands
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
    out = maps[2]
    found = []
    for own, other, own_map, other_map in ((lhs, rhs, maps[0], maps[1]), (rhs, lhs, maps[1], maps[0])):
        covered = set(positions(op, out)) | set(positions(op, other_map))
        if set(positions(op, own_map)) <= covered:  # a contraction again: dA = dC·Bᵀ
            found.append((own, tb.contract(ybar, other, [out, other_map, own_map], f32_type(own))))
            continue
        # a dim of this operand alone (summed within it): the products over the whole space
        space = tb.tensor_type(_space_dims(op, maps), F32())
        g = tb.build_map(space, lambda: arith.MulFOp(tb.at(ybar, out), widen(tb.at(other, other_map))).result)
        found.append((own, send_back(op, g, own_map, own)))
    return found


def _space_dims(op, maps: list) -> list:
    """The dims of a contraction's iteration space (from the operands that read them)."""
    dims = {}
    for value, amap in zip([*op.operation.operands, op.result], maps):
        for d, pos in zip(tensor_dims(value.type), positions(op, amap)):
            dims[pos] = d
    return [dims[k] for k in range(maps[0].n_dims)]


def reduce(op, ybar: ir.Value) -> list:
    x, y = op.operation.operands[0], op.result
    kind = ir.StringAttr(op.attributes["kind"]).value
    dims = [ir.IntegerAttr(d).value for d in ir.ArrayAttr(op.attributes["dims"])]
    n = rank(x)
    row = tb.projection(n, [d for d in range(n) if d not in dims])
    if kind == "sum":
        return [(x, tb.build_map(f32_type(x), lambda: tb.at(ybar, row)))]
    one, zero = (lambda: arith.ConstantOp(F32(), 1.0).result), (lambda: arith.ConstantOp(F32(), 0.0).result)
    hit = tb.build_map(f32_type(x), lambda: arith.SelectOp(arith.CmpFOp(
        arith.CmpFPredicate.OEQ, widen(tb.at(x, identity(n))), widen(tb.at(y, row))).result, one(), zero()).result)
    ties = tb.reduce(hit, "sum", dims)
    return [(x, tb.build_map(f32_type(x), lambda: arith.MulFOp(tb.at(hit, identity(n)), arith.DivFOp(
        tb.at(ybar, row), tb.at(ties, row)).result).result))]


def softmax(op, ybar: ir.Value) -> list:
    x, y = op.operation.operands[0], op.result
    dim, n = ir.IntegerAttr(op.attributes["dim"]).value, rank(x)
    full, row = identity(n), tb.projection(n, [d for d in range(n) if d != dim])
    weighted = tb.build_map(f32_type(x), lambda: arith.MulFOp(tb.at(ybar, full), widen(tb.at(y, full))).result)
    inner = tb.reduce(weighted, "sum", [dim])
    return [(x, tb.build_map(f32_type(x), lambda: arith.MulFOp(widen(tb.at(y, full)), arith.SubFOp(
        tb.at(ybar, full), tb.at(inner, row)).result).result))]


def logsumexp(op, ybar: ir.Value) -> list:
    x, y = op.operation.operands[0], op.result
    dim, n = ir.IntegerAttr(op.attributes["dim"]).value, rank(x)
    full, row = identity(n), tb.projection(n, [d for d in range(n) if d != dim])
    return [(x, tb.build_map(f32_type(x), lambda: arith.MulFOp(tb.at(ybar, row), math.ExpOp(arith.SubFOp(
        widen(tb.at(x, full)), widen(tb.at(y, row))).result).result).result))]


def remap(op, ybar: ir.Value) -> list:
    x = op.operation.operands[0]
    return [(x, send_back(op, ybar, ir.AffineMapAttr(op.attributes["map"]).value, x))]


def map_(op, ybar: ir.Value, differentiable) -> list:
    """Per (tensor, map) the body reads, a map computing the body again, then its reverse
    sweep; sent back through the map. ``differentiable(v)``: whether ``v`` needs an adjoint."""
    body = list(op.regions[0].blocks[0].operations)
    groups = {}
    for inner in body:
        if inner.operation.name == "ta.at" and differentiable(inner.operation.operands[0]):
            amap = ir.AffineMapAttr(inner.attributes["map"]).value
            positions(inner, amap)
            groups.setdefault((inner.operation.operands[0], str(amap)), []).append(body.index(inner))
    found = []
    for (src, _), indices in groups.items():
        amap = ir.AffineMapAttr(body[indices[0]].attributes["map"]).value
        copy = op.operation.clone(ir.InsertionPoint.current)
        copy.result.set_type(f32_type(op.result))
        ops = list(copy.regions[0].blocks[0].operations)
        yielded = ops[-1]
        with ir.InsertionPoint(yielded):
            a = widen(tb.at(ybar, identity(rank(op.result))))
            adj = adjoints(ops[:-1], yielded.operation.operands[0], a)
            reads = [adj[ops[k].result] for k in indices if ops[k].result in adj]
            g = reads[0] if reads else arith.ConstantOp(F32(), 0.0).result
            for r in reads[1:]:
                g = arith.AddFOp(g, r).result
            ir.Operation.create("ta.yield", operands=[g])
        yielded.operation.erase()
        found.append((src, send_back(body[indices[0]], copy.result, amap, src)))
    return found
